"""Pooling layers: ``MaxPool2d``, ``AvgPool2d``, ``AdaptiveAvgPool2d`` (see ``ops.pool``)."""

from __future__ import annotations

from ..tensor import Tensor
from . import functional as F
from .module import Module, layer_error


def _check_4d(layer, x) -> None:
    if x.ndim not in (3, 4) or x.numel() == 0:
        raise layer_error(
            layer, "non-empty 3D or 4D (batch mode) tensor expected for input, got input of "
            f"shape {list(x.shape)}")


class MaxPool2d(Module):
    """The largest value in each ``kernel_size`` window (stride defaults to the kernel)."""

    def __init__(self, kernel_size: int | tuple[int, int],
                 stride: int | tuple[int, int] | None = None, padding: int | tuple[int, int] = 0,
                 dilation: int | tuple[int, int] = 1, return_indices: bool = False,
                 ceil_mode: bool = False) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.dilation = padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def forward(self, input: Tensor) -> Tensor:
        _check_4d(self, input)
        return F.max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            self.ceil_mode, self.return_indices)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class AvgPool2d(Module):
    """The mean of each ``kernel_size`` window."""

    def __init__(self, kernel_size: int | tuple[int, int],
                 stride: int | tuple[int, int] | None = None, padding: int | tuple[int, int] = 0,
                 ceil_mode: bool = False, count_include_pad: bool = True,
                 divisor_override: int | None = None) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.ceil_mode = padding, ceil_mode
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override

    def forward(self, input: Tensor) -> Tensor:
        _check_4d(self, input)
        return F.avg_pool2d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AdaptiveAvgPool2d(Module):
    """Average pooling to a fixed ``output_size`` whatever the input size (ResNet's head
    uses (1, 1): one mean per channel)."""

    def __init__(self, output_size: int | tuple[int, int]) -> None:
        super().__init__()
        self.output_size = output_size

    def forward(self, input: Tensor) -> Tensor:
        if input.ndim not in (3, 4):
            raise layer_error(self, f"Expected 3D or 4D tensor, but got {list(input.shape)}")
        return F.adaptive_avg_pool2d(input, self.output_size)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"
