"""Trigonometry: ``sin``, ``cos``, and the angle and the length of the point (x, y), ``atan2``
and ``hypot``.

* sin(x)                d/dx = cos x
* cos(x)                d/dx = -sin x
* atan2(y, x)           d/dy = x / (x² + y²),  d/dx = -y / (x² + y²)
* hypot(a, b) = √(a² + b²)     d/da = a / hypot,  d/db = b / hypot

They compute an integer or bool tensor in the default float type (``floating``), as PyTorch's do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..autograd import forward_ad
from ..autograd.function import Function
from .broadcasting import broadcast_shape
from .operands import binary_operands, tensors_only
from .promotion import floating

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


class Sin(Function):
    """y = sin x;  dy/dx = cos x."""

    node_name = "SinBackward0"
    jvp = forward_ad.elementwise
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x._new(x._xp.sin(x._data))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * x.cos()


class Cos(Function):
    """y = cos x;  dy/dx = -sin x."""

    node_name = "CosBackward0"
    jvp = forward_ad.elementwise
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x._new(x._xp.cos(x._data))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * -x.sin()


class Atan2(Function):
    node_name = "Atan2Backward0"
    jvp = forward_ad.elementwise

    @staticmethod
    def forward(ctx, y, x):
        ctx.save_for_backward(y, x)
        return y._new(y._xp.arctan2(y._data, x._data))

    @staticmethod
    def backward(ctx, grad):
        y, x = ctx.saved_tensors
        scale = grad / (x * x + y * y)
        return scale * x, scale * -y


class Hypot(Function):
    node_name = "HypotBackward0"
    jvp = forward_ad.elementwise

    @staticmethod
    def forward(ctx, a, b):
        out = a._new(a._xp.hypot(a._data, b._data))
        ctx.save_for_backward(a, b, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, b, out = ctx.saved_tensors
        return grad * a / out, grad * b / out


def sin(input: Tensor) -> Tensor:
    return Sin.apply(floating(input))


def cos(input: Tensor) -> Tensor:
    return Cos.apply(floating(input))


def _float_pair(input, other):
    a, b = binary_operands(input, other)
    broadcast_shape(a.shape, b.shape)  # PyTorch's error for shapes that do not broadcast
    return floating(a), floating(b)


def atan2(input: Tensor, other: Tensor) -> Tensor:
    """The angle (radians, in (-π, π]) of the point (other, input)."""
    tensors_only("atan2", input, other)
    return Atan2.apply(*_float_pair(input, other))


def hypot(input: Tensor, other: Tensor) -> Tensor:
    """√(input² + other²) without overflow."""
    tensors_only("hypot", input, other)
    return Hypot.apply(*_float_pair(input, other))
