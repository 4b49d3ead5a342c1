"""Exponentials and logarithms: ``exp``, ``expm1``, ``log``, ``log1p``, ``log2``, ``log10``.

* exp(x) = eˣ                 d/dx = eˣ = y (so the output is what gets saved)
* expm1(x) = eˣ - 1           d/dx = eˣ = y + 1     (exact for tiny x, unlike exp(x) - 1)
* log(x) = ln x               d/dx = 1 / x
* log1p(x) = ln(1 + x)        d/dx = 1 / (1 + x)    (exact for tiny x, unlike log(1 + x))
* log2(x), log10(x)           d/dx = 1 / (x ln 2),  1 / (x ln 10)
* xlogy(x, y) = x · ln y      d/dx = ln y,  d/dy = x / y   (0 where x = 0: 0 · ln 0 = 0)

Float functions of an integer or bool tensor compute in the default float type (float32), as
PyTorch's do: ``floating`` casts such inputs first.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .. import _messages, dtypes
from ..autograd import forward_ad
from ..autograd.function import Function
from .broadcasting import sum_to
from .operands import binary_operands, is_tensor
from .out_arg import write_out
from .promotion import floating

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


class Exp(Function):
    """y = e^x;  dy/dx = e^x = y (so the output is what gets saved)."""

    node_name = "ExpBackward0"
    jvp = forward_ad.elementwise
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
    jvp = forward_ad.elementwise
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
    jvp = forward_ad.elementwise

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
    jvp = forward_ad.elementwise
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
    jvp = forward_ad.elementwise

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


class Xlogy(Function):
    """out = x · log(y), defined as 0 where x = 0 (so 0 · log 0 = 0, the convention entropy
    needs);  d/dx = log y (0 where x = 0),  d/dy = x / y."""

    node_name = "XlogyBackward0"
    jvp = forward_ad.elementwise
    saved_names = ("self", "other")

    @staticmethod
    def forward(ctx, x, y):
        xp = x._xp
        ctx.save_for_backward(x, y)
        ctx.x_shape, ctx.y_shape = x.shape, y.shape
        out = xp.where(x._data == 0, x._data.dtype.type(0), x._data * xp.log(y._data))
        return x._new(xp.where(xp.isnan(y._data), y._data, out).astype(x._data.dtype))

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        need_x, need_y = ctx.needs_input_grad
        grad_x = grad_y = None
        if need_x:
            grad_x = sum_to(grad * xlogy((x != 0).to(x.dtype), y), ctx.x_shape)
        if need_y:
            grad_y = sum_to(grad * x / y, ctx.y_shape)
        return grad_x, grad_y


class XlogyNumberSelf(Xlogy):  # xlogy(2, y): PyTorch's overload for a number first
    node_name = "XlogyBackward1"


class XlogyNumberOther(Xlogy):  # xlogy(x, 2)
    node_name = "XlogyBackward2"


def xlogy(input: Tensor | float, other: Tensor | float) -> Tensor:
    """input · log(other), with 0 · log(anything but NaN) = 0."""
    if not (is_tensor(input) or is_tensor(other)):
        raise TypeError(_messages.invalid_combination("xlogy", (input, other), _XLOGY_SIGNATURES))
    kind = Xlogy if is_tensor(input) and is_tensor(other) else \
        XlogyNumberOther if is_tensor(input) else XlogyNumberSelf
    input, other = binary_operands(input, other)
    if input._data.dtype.kind not in "fc":
        input, other = input.to(dtypes.default_float), other.to(dtypes.default_float)
    return kind.apply(input, other)


_XLOGY_SIGNATURES = ("Tensor input, Tensor other, *, Tensor out = None",
                     "Number self, Tensor other, *, Tensor out = None",
                     "Tensor input, Number other, *, Tensor out = None")
