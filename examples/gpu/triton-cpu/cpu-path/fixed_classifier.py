# A classifier whose input size is fixed by the image size, as AlexNet's
# nn.Linear(256 * 6 * 6, 4096) is: valid at 224 x 224 only, so no cut of
# its sizes runs (issue 23, item 1: skipped, sizes, never task-defect).
import torch
import torch.nn as nn


class Model(nn.Module):
    """Convolution 3x3, ReLU, flatten, a linear classifier."""

    def __init__(self, in_channels, out_channels, kernel_size, num_classes):
        super(Model, self).__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.fc = nn.Linear(out_channels * 222 * 222, num_classes)

    def forward(self, x):
        return self.fc(torch.flatten(torch.relu(self.conv(x)), 1))


batch_size = 4
in_channels = 3
out_channels = 4
height = width = 224
kernel_size = 3
num_classes = 10


def get_inputs():
    return [torch.rand(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, num_classes]
