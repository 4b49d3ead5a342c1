"""Signs: ``sign`` (-1, 0 or 1) and ``abs`` (a number without its sign).

* sign(x)      d/dx = 0 everywhere it exists
* abs(x)       d/dx = sign(x) (0 at x = 0, as PyTorch chooses)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..autograd import forward_ad
from ..autograd.function import Function
from .out_arg import write_out
from .promotion import not_implemented

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


class Abs(Function):
    """y = |x|;  dy/dx = sign(x) (0 at x = 0, as PyTorch chooses)."""

    node_name = "AbsBackward0"
    jvp = forward_ad.elementwise
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x._new(x._xp.abs(x._data))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * x.sign()


class Sign(Function):
    """y = sign(x) (0 for NaN, as PyTorch gives);  dy/dx = 0 everywhere it exists."""

    node_name = "SignBackward0"
    jvp = forward_ad.elementwise

    @staticmethod
    def forward(ctx, x):
        xp, data = x._xp, x._data
        if data.dtype.kind == "b":
            return x._new(data.copy())
        out = xp.sign(data)
        if data.dtype.kind == "f":
            out = xp.where(xp.isnan(data), out.dtype.type(0), out)
        return x._new(out)

    @staticmethod
    def backward(ctx, grad):
        return grad * 0.0


def abs(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    if out is not None:
        return write_out(out, abs, input)
    if input._data.dtype.kind == "b":
        raise not_implemented("abs_cpu", input)
    return Abs.apply(input)


def sign(input: Tensor) -> Tensor:
    return Sign.apply(input)
