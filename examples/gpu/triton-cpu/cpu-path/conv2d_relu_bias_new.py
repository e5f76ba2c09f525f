# The convolution in PyTorch, ReLU and the bias in one Triton kernel.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_bias_kernel(y_ptr, b_ptr, out_ptr, n, hw, c, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    y = tl.load(y_ptr + offs, mask=m, other=0.0)
    b = tl.load(b_ptr + (offs // hw) % c, mask=m, other=0.0)
    tl.store(out_ptr + offs, tl.maximum(y, 0.0) + b, mask=m)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, bias_shape):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.bias = nn.Parameter(torch.randn(bias_shape))

    def forward(self, x):
        y = self.conv(x).contiguous()
        out = torch.empty_like(y)
        n = y.numel()
        relu_bias_kernel[(triton.cdiv(n, 1024),)](
            y, self.bias.contiguous(), out, n, y.shape[2] * y.shape[3],
            y.shape[1], BLOCK=1024)
        return out
