# AlexNet's first layer (KernelBench level 3 problem 5 starts with it):
# an 11x11 convolution of stride 4, ReLU and a 3x3 max pooling of stride
# 2.  At a cut of 8 the image is smaller than the kernel, at 16 the
# pooling has nothing left; 32 runs (issue 23, item 1: the next larger
# cut before giving up).
import torch
import torch.nn as nn


class Model(nn.Module):
    """Convolution 11x11 / 4, ReLU, max pooling 3x3 / 2."""

    def __init__(self, in_channels, out_channels, kernel_size, stride):
        super(Model, self).__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size,
                              stride=stride)
        self.pool = nn.MaxPool2d(kernel_size=3, stride=2)

    def forward(self, x):
        return self.pool(torch.relu(self.conv(x)))


batch_size = 10
in_channels = 3
out_channels = 96
height = width = 224
kernel_size = 11
stride = 4


def get_inputs():
    return [torch.rand(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, stride]
