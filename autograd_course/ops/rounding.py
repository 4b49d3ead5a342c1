"""Rounding: ``round``, ``trunc``, ``frac``, and division that rounds: ``a // b``, ``a % b`` and
``div(a, b, rounding_mode=...)``.

A rounded value is a staircase: flat between its jumps, so its derivative is 0 wherever it
exists. ``round`` and ``trunc`` say so (zero gradients); ``frac(x) = x - trunc(x)`` has
gradient 1. PyTorch says so for ``div(..., rounding_mode=)`` too (``DivBackward2``, zero
gradients) but records ``a // b`` as a node named ``NotImplemented`` that refuses to
differentiate; we follow both. The remainder a - b·floor(a/b) is differentiable: d/da = 1,
d/db = -floor(a/b).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..autograd import forward_ad
from ..autograd.function import Function
from .broadcasting import broadcast_error, sum_to
from .operands import binary_operands, is_tensor, not_two_numbers
from .promotion import not_implemented

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


class Round(Function):
    """Round half to even, as PyTorch (and NumPy) do;  the gradient is 0."""

    node_name = "RoundBackward0"
    jvp = forward_ad.elementwise

    @staticmethod
    def forward(ctx, x, decimals):
        return x._new(x._xp.round(x._data, decimals))

    @staticmethod
    def backward(ctx, grad):
        return grad * 0, None


class RoundDecimals(Round):
    node_name = "RoundBackward1"


class Trunc(Function):
    node_name = "TruncBackward0"
    jvp = forward_ad.elementwise

    @staticmethod
    def forward(ctx, x):
        return x._new(x._xp.trunc(x._data))

    @staticmethod
    def backward(ctx, grad):
        return grad * 0


class Frac(Function):
    node_name = "FracBackward0"
    jvp = forward_ad.elementwise

    @staticmethod
    def forward(ctx, x):
        return x._new(x._data - x._xp.trunc(x._data))

    @staticmethod
    def backward(ctx, grad):
        return grad


def round(input: Tensor, *, decimals: int = 0) -> Tensor:
    """Round to ``decimals`` places (halves to the even neighbour)."""
    if input._data.dtype.kind in "biu":
        if decimals:
            raise not_implemented("round_cpu", input)
        return input.clone()
    return (RoundDecimals if decimals else Round).apply(input, decimals)


def trunc(input: Tensor) -> Tensor:
    """Round towards zero."""
    if input._data.dtype.kind in "biu":
        return input.clone()
    return Trunc.apply(input)


def frac(input: Tensor) -> Tensor:
    """The fractional part, ``x - trunc(x)`` (with x's sign)."""
    if input._data.dtype.kind in "biu":
        raise not_implemented("frac_cpu", input)
    return Frac.apply(input)


# --- division that rounds ---------------------------------------------------------------------
def _arrays(fn, a, b):
    if a._data.dtype.kind in "iub" and not b._xp.all(b._data):  # integers: no inf to give
        raise RuntimeError("ZeroDivisionError")
    try:
        out = fn(a._data, b._data)
    except ValueError:
        raise broadcast_error(a.shape, b.shape) from None
    # b in float32 next to a float16 a (binary_operands' opmath): the result is rounded once
    return out if out.dtype == a._data.dtype else out.astype(a._data.dtype)


def _floor_div(xp, a, b):
    """floor(a / b) as Python (and PyTorch) compute it: exact for integers, and for floats
    from fmod so that 7.0 // 0.1 is 69, not 70."""
    return xp.floor_divide(a, b)


def _remainder(xp, a, b):
    """a - b·floor(a / b), with the sign of b. For floats PyTorch's way, from C's fmod (so
    -7.5 % 1.5 is -0.0, where NumPy's remainder says 0.0)."""
    if a.dtype.kind in "iub":
        return xp.remainder(a, b)
    mod = xp.fmod(a, b)
    return xp.where((mod != 0) & ((b < 0) != (mod < 0)), mod + b, mod)


def _trunc_div(xp, a, b):
    """a / b rounded towards zero; integers stay integers."""
    if a.dtype.kind in "iub":
        q = xp.floor_divide(a, b)
        inexact = (q * b != a) & ((a < 0) != (b < 0))
        return q + inexact.astype(q.dtype)
    return xp.trunc(a / b)


class NotDifferentiable(Function):
    """A result PyTorch records but cannot differentiate (its node is ``NotImplemented``);
    backward raises PyTorch's error naming the operation."""

    node_name = "NotImplemented"

    @staticmethod
    def forward(ctx, a, b, op):
        ctx.op = op  # (its in-place form, ops/inplace.py, names "floor_divide_")
        fn = {"floor_divide": _floor_div, "remainder": _remainder}[op.rstrip("_")]
        return a._new(_arrays(lambda x, y: fn(a._xp, x, y), a, b))

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError(f"derivative for aten::{ctx.op} is not implemented")


class DivRounding(Function):
    """out = round(a / b) with rounding 'floor' or 'trunc';  d/da = d/db = 0 (a staircase)."""

    node_name = "DivBackward2"
    jvp = forward_ad.elementwise

    @staticmethod
    def forward(ctx, a, b, mode):
        ctx.a_shape, ctx.b_shape = a.shape, b.shape
        fn = _floor_div if mode == "floor" else _trunc_div
        return a._new(_arrays(lambda x, y: fn(a._xp, x, y), a, b))

    @staticmethod
    def backward(ctx, grad):
        zero = grad * 0.0
        need_a, need_b = ctx.needs_input_grad[:2]
        return (sum_to(zero, ctx.a_shape) if need_a else None,
                sum_to(zero, ctx.b_shape) if need_b else None, None)


class Remainder(Function):
    """out = a - b·floor(a / b) (the sign of b, like Python's %);
    d/da = 1, d/db = -floor(a / b)."""

    node_name = "RemainderBackward1"
    jvp = forward_ad.elementwise
    saved_names = ("self", "other")

    @staticmethod
    def forward(ctx, a, b):
        ctx.a_shape, ctx.b_shape = a.shape, b.shape
        ctx.save_for_backward(a, b)
        return a._new(_arrays(lambda x, y: _remainder(a._xp, x, y), a, b))

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        grad_b = None
        if need_b:
            grad_b = sum_to(-grad * div_rounded(a, b, "floor"), ctx.b_shape)
        return (sum_to(grad, ctx.a_shape) if need_a else None), grad_b


class RemainderScalar(Function):
    """out = x - c·floor(x / c) for a number c;  d/dx = 1."""

    node_name = "RemainderBackward0"
    jvp = forward_ad.elementwise

    @staticmethod
    def forward(ctx, x, c):
        if x._data.dtype.kind in "iub" and not c:
            raise RuntimeError("ZeroDivisionError")
        return x._new(_remainder(x._xp, x._data, c))  # c: an array, so no graph edge

    @staticmethod
    def backward(ctx, grad):
        return grad, None


def _operands(a, b, kernel: str, opmath: bool = True):
    """``binary_operands``, refusing bool (PyTorch's kernels have no bool version)."""
    a, b = binary_operands(a, b, opmath=opmath)
    if a._data.dtype.kind == "b":
        raise not_implemented(kernel, a)
    return a, b


def floor_divide(input: Tensor | float, other: Tensor | float) -> Tensor:
    """input // other: the quotient rounded down (PyTorch records it, but cannot
    differentiate it)."""
    input, other = _operands(input, other, "div_floor_cpu")
    return NotDifferentiable.apply(input, other, "floor_divide")


def remainder(input: Tensor | float, other: Tensor | float) -> Tensor:
    """input % other, with the sign of other (Python's and PyTorch's ``%``; C's fmod keeps
    input's sign)."""
    not_two_numbers("remainder", input, other)
    input_number, other_number = not is_tensor(input), not is_tensor(other)
    input, other = _operands(input, other, "remainder_cpu", opmath=False)
    if input_number:  # 7 % x: PyTorch cannot differentiate this one either
        return NotDifferentiable.apply(input, other, "remainder")
    if other_number:
        return RemainderScalar.apply(input, other._data)
    return Remainder.apply(input, other)


def div_rounded(input: Tensor | float, other: Tensor | float, rounding_mode: str) -> Tensor:
    """input / other rounded down (``'floor'``) or towards 0 (``'trunc'``), what
    ``div(input, other, rounding_mode=...)`` calls; an integer dtype stays integer."""
    check_rounding_mode(rounding_mode)
    input, other = _operands(input, other, f"div_{rounding_mode}_cpu")
    return DivRounding.apply(input, other, rounding_mode)


def check_rounding_mode(rounding_mode: str) -> None:
    if rounding_mode not in ("floor", "trunc"):
        raise RuntimeError(
            "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
            f"'{rounding_mode}'")
