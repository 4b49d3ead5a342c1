"""Element-wise non-linearities as modules: ``ReLU``, ``Sigmoid``, ``Tanh``, ``Softmax``,
``LogSoftmax``. Without them a stack of linear layers would collapse into one linear map."""

from __future__ import annotations

from . import functional as F
from .module import Module


class ReLU(Module):
    """max(x, 0). ``inplace=True`` overwrites the input to save memory (as torchvision's
    ResNet does)."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input):  # noqa: A002
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class Sigmoid(Module):
    """1 / (1 + e^-x): squashes to (0, 1)."""

    def forward(self, input):  # noqa: A002
        return F.sigmoid(input)


class Tanh(Module):
    """tanh(x): squashes to (-1, 1)."""

    def forward(self, input):  # noqa: A002
        return F.tanh(input)


class Softmax(Module):
    """e^x / Σ e^x along ``dim``: turns scores into probabilities."""

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input):  # noqa: A002
        return F.softmax(input, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class LogSoftmax(Softmax):
    """log(softmax(x)) computed stably; pair it with ``NLLLoss``."""

    def forward(self, input):  # noqa: A002
        return F.log_softmax(input, self.dim)
