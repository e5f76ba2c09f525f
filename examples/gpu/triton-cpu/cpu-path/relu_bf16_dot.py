# A right ReLU (problem 19) in bfloat16, through tl.dot with the identity
# and tl.maximum: Triton's interpreter multiplies, compares and casts bf16
# values as their raw 16-bit storage (issue 23, item 3).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_bf16_kernel(x_ptr, out_ptr, rows, cols, BM: tl.constexpr,
                     BN: tl.constexpr):
    r = tl.program_id(0) * BM + tl.arange(0, BM)
    c = tl.program_id(1) * BN + tl.arange(0, BN)
    m = (r[:, None] < rows) & (c[None, :] < cols)
    x = tl.load(x_ptr + r[:, None] * cols + c[None, :], mask=m, other=0.0)
    x = x.to(tl.bfloat16)
    k = tl.arange(0, BN)
    eye = (k[:, None] == k[None, :]).to(tl.bfloat16)
    y = tl.dot(x, eye).to(tl.bfloat16)
    y = tl.maximum(y, tl.zeros_like(y))
    tl.store(out_ptr + r[:, None] * cols + c[None, :], y.to(tl.float32),
             mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        rows, cols = x.shape
        out = torch.empty_like(x)
        grid = (triton.cdiv(rows, 16), triton.cdiv(cols, 16))
        relu_bf16_kernel[grid](x, out, rows, cols, BM=16, BN=16)
        return out
