# KernelBench level 1 problem 19 (ReLU) with its inputs made on the GPU
# by name: without one the reference cannot run, which makes the task
# GPU-only, not broken (issue 23, item 4).
import torch
import torch.nn as nn


class Model(nn.Module):
    """ReLU."""

    def __init__(self):
        super(Model, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x)


batch_size = 4096
dim = 393216


def get_inputs():
    x = torch.rand(batch_size, dim, device="cuda")
    return [x]


def get_init_inputs():
    return []
