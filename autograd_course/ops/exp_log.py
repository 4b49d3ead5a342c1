"""Exponentials and logarithms: ``exp``, ``expm1``, ``log``, ``log1p``, ``log2``, ``log10``.

* exp(x) = eˣ                 d/dx = eˣ = y (so the output is what gets saved)
* expm1(x) = eˣ - 1           d/dx = eˣ = y + 1     (exact for tiny x, unlike exp(x) - 1)
* log(x) = ln x               d/dx = 1 / x
* log1p(x) = ln(1 + x)        d/dx = 1 / (1 + x)    (exact for tiny x, unlike log(1 + x))
* log2(x), log10(x)           d/dx = 1 / (x ln 2),  1 / (x ln 10)

Float functions of an integer or bool tensor compute in the default float type (float32), as
PyTorch's do: ``floating`` casts such inputs first.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..autograd.function import Function
from .out_arg import write_out
from .promotion import floating

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


class Exp(Function):
    """y = e^x;  dy/dx = e^x = y (so the output is what gets saved)."""

    node_name = "ExpBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x):
        y = x._new(x._xp.exp(x._data))
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return grad * y


class Log(Function):
    """y = ln x;  dy/dx = 1/x."""

    node_name = "LogBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x._new(x._xp.log(x._data))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad / x


class Log1p(Function):
    node_name = "Log1PBackward0"

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x._new(x._xp.log1p(x._data))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad / (x + 1)


class Log2(Function):
    """log₂ x;  d/dx = 1 / (x ln 2)."""

    node_name = "Log2Backward0"
    _base = 2.0

    @classmethod
    def forward(cls, ctx, x):
        ctx.save_for_backward(x)
        log = x._xp.log2 if cls._base == 2.0 else x._xp.log10
        return x._new(log(x._data))

    @classmethod
    def backward(cls, ctx, grad):
        (x,) = ctx.saved_tensors
        return grad / (x * math.log(cls._base))


class Log10(Log2):
    """log₁₀ x;  d/dx = 1 / (x ln 10)."""

    node_name = "Log10Backward0"
    _base = 10.0


class Expm1(Function):
    node_name = "Expm1Backward0"

    @staticmethod
    def forward(ctx, x):
        out = x._new(x._xp.expm1(x._data))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return grad * (out + 1)


def exp(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    if out is not None:
        return write_out(out, exp, input)
    return Exp.apply(floating(input))


def log(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    if out is not None:
        return write_out(out, log, input)
    return Log.apply(floating(input))


def log1p(input: Tensor) -> Tensor:
    return Log1p.apply(floating(input))


def log2(input: Tensor) -> Tensor:
    return Log2.apply(floating(input))


def log10(input: Tensor) -> Tensor:
    return Log10.apply(floating(input))


def expm1(input: Tensor) -> Tensor:
    return Expm1.apply(floating(input))
