# Shaped like KernelBench level 2 problem 1 (Conv2D_ReLU_BiasAdd) at its
# H100 sizes: batch_size, out_channels, height and width share the value
# 128, so a cut of the batch count that took the spatial sizes along
# would leave a 2x2 image under a 3x3 kernel (issue 23, item 1).
import torch
import torch.nn as nn


class Model(nn.Module):
    """A 2-d convolution, then ReLU, then a per-channel bias."""

    def __init__(self, in_channels, out_channels, kernel_size, bias_shape):
        super(Model, self).__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.bias = nn.Parameter(torch.randn(bias_shape))

    def forward(self, x):
        x = self.conv(x)
        x = torch.relu(x)
        x = x + self.bias
        return x


batch_size = 128
in_channels = 64
out_channels = 128
height = width = 128
kernel_size = 3
bias_shape = (out_channels, 1, 1)


def get_inputs():
    return [torch.rand(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, bias_shape]
