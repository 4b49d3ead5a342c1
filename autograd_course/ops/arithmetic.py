"""Arithmetic: + - * / ** and negation, with NumPy broadcasting.

Each op is a ``Function``: ``forward`` computes on arrays, ``backward`` applies the
derivative with tensor operations (so ``create_graph=True`` can differentiate it again), and
``sum_to`` folds a broadcast gradient back to each input's shape.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .. import dtypes
from ..autograd.function import Function
from ._util import (
    binary_operands,
    broadcast_error,
    check_fits,
    int_power,
    is_tensor,
    not_implemented,
    result_type,
    sum_to,
)
from .combine import where
from .out_arg import write_out
from .rounding import div_rounded

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


def _elementwise(fn, a, b, alpha=1):
    """``fn(a, b)`` on the arrays (``fn(a, alpha·b)`` when alpha is given), with PyTorch's
    message when the shapes do not broadcast."""
    try:
        b_data = b._data if alpha == 1 else b._data * b._xp.asarray(alpha, dtype=b._data.dtype)
        return fn(a._data, b_data)
    except ValueError:
        raise broadcast_error(a.shape, b.shape) from None


def _keep_number(ctx, b) -> None:
    """Keep a number operand (a 0-d tensor without grad, e.g. the 2 of ``x + 2``), which
    Add/Sub do not save for backward, so that ``ag.viz`` can print its value:
    ``ctx.number`` is its 0-d array (always the second input). Nothing else reads it."""
    if b._data.ndim == 0 and not b._requires_grad:
        ctx.number = b._data


def _add_or_sub(ctx, ufunc, a, b, alpha, b_factor):
    """The forward of Add and Sub: ``ufunc(a, alpha·b)``, keeping on ctx what their shared
    backward needs: alpha, and d/db (``b_factor``: alpha, or -alpha)."""
    ctx.alpha, ctx.b_factor = alpha, b_factor
    _keep_number(ctx, b)
    return a._new(_elementwise(ufunc, a, b, alpha))


class Add(Function):
    """out = a + alpha·b;  d/da = 1, d/db = alpha.

    Like every op here, backward returns gradients of the output's shape; where an input was
    broadcast, the engine sums its gradient back to the input's shape (so does PyTorch's).
    """

    node_name = "AddBackward0"

    @staticmethod
    def forward(ctx, a, b, alpha=1):
        return _add_or_sub(ctx, np.add, a, b, alpha, alpha)

    @staticmethod
    def backward(ctx, grad):
        need_a, need_b = ctx.needs_input_grad[:2]
        grad_a = grad if need_a else None
        grad_b = None
        if need_b:
            factor = ctx.b_factor
            grad_b = grad if factor == 1 else -grad if factor == -1 else grad * factor
        if ctx.alpha == 1:
            return grad_a, grad_b
        return grad_a, grad_b, None  # alpha: a third input, no gradient


class Sub(Add):
    """out = a - alpha·b;  d/da = 1, d/db = -alpha (the backward is Add's)."""

    node_name = "SubBackward0"

    @staticmethod
    def forward(ctx, a, b, alpha=1):
        return _add_or_sub(ctx, np.subtract, a, b, alpha, -alpha)


class RsubScalar(Function):
    """out = c - x for a number c (what ``2 - x`` records);  d/dx = -1."""

    node_name = "RsubBackward1"

    @staticmethod
    def forward(ctx, x, c):
        return x._new(c - x._data)  # c: a 0-d array, not a tensor, so it gets no graph edge

    @staticmethod
    def backward(ctx, grad):
        return -grad, None


class Mul(Function):
    """out = a * b;  d/da = b, d/db = a."""

    node_name = "MulBackward0"
    saved_names = ("self", "other")

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a if ctx.needs_input_grad[1] else None,
                              b if ctx.needs_input_grad[0] else None)
        return a._new(_elementwise(np.multiply, a, b))

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        return (grad * b if need_a else None,
                grad * a if need_b else None)


class Div(Function):
    """out = a / b;  d/da = 1/b, d/db = -a/b²."""

    node_name = "DivBackward0"
    saved_names = ("self", "other")

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a if ctx.needs_input_grad[1] else None, b)
        return a._new(_elementwise(np.true_divide, a, b))

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        return (grad / b if need_a else None,
                -grad * a / (b * b) if need_b else None)


class Reciprocal(Function):
    """out = 1/x;  d/dx = -1/x² = -out²."""

    node_name = "ReciprocalBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x):
        out = x._new(x._xp.reciprocal(x._data))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return grad * -(out * out)


class Neg(Function):
    """out = -x;  d/dx = -1."""

    node_name = "NegBackward0"

    @staticmethod
    def forward(ctx, x):
        return x._new(-x._data)

    @staticmethod
    def backward(ctx, grad):
        return -grad


class PowScalar(Function):
    """out = x ** p for a number p;  d/dx = p · x^(p-1)  (0 when p = 0)."""

    node_name = "PowBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x, exponent):
        ctx.exponent = exponent
        ctx.save_for_backward(x)
        data = x._data
        if exponent == 2:
            return x._new(data * data)
        return x._new(data ** x._xp.asarray(exponent, dtype=data.dtype))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        p = ctx.exponent
        if p == 0:
            return grad * 0.0, None
        if p == 1:
            return grad, None
        if p == 2:
            return grad * (x * 2.0), None
        return grad * (x ** (p - 1) * p), None


class Pow(Function):
    """out = a ** b for tensors;  d/da = b · a^(b-1), d/db = a^b · ln a.

    As in PyTorch, d/da is 0 where b = 0 and d/db is 0 where a = 0 and b ≥ 0 (the formulas
    would give NaN there, but the function is flat in that direction).
    """

    node_name = "PowBackward1"
    saved_names = ("self", "exponent", "result")

    @staticmethod
    def forward(ctx, a, b):
        if a._data.dtype.kind in "iu":
            xp = a._xp
            out = a._new(_elementwise(lambda p, q: int_power(xp, p, q), a, b))
        else:
            out = a._new(_elementwise(np.power, a, b))
        ctx.save_for_backward(a, b, out if ctx.needs_input_grad[1] else None)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, b, out = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        grad_a = grad_b = None
        if need_a:
            grad_a = sum_to(where(b == 0, 0.0, grad * b * a ** (b - 1)), a.shape)
        if need_b:
            flat = (a == 0) & (b >= 0)
            grad_b = sum_to(where(flat, 0.0, grad * out * a.log()), b.shape)
        return grad_a, grad_b


class RPowScalar(Function):
    """out = c ** x for a number c;  d/dx = c^x · ln c  (0 where c = 0 and x ≥ 0, as in
    PyTorch: the formula would give 0 · -inf = NaN, but 0^x is flat there)."""

    node_name = "PowBackward2"
    saved_names = ("exponent", "result")

    @staticmethod
    def forward(ctx, x, base):
        dtype = x._data.dtype
        try:
            c = x._xp.asarray(base, dtype=dtype)
        except OverflowError:  # an int out of the dtype's range wraps around, as in PyTorch
            c = x._xp.asarray(np.int64(base)).astype(dtype)
        if dtype.kind in "iu":  # negative integer exponents truncate, as PyTorch's do
            out = x._new(int_power(x._xp, c, x._data))
        else:
            out = x._new(c ** x._data)
        ctx.base = base
        ctx.log_base = float(np.log(base)) if base > 0 else (
            float("-inf") if base == 0 else float("nan"))
        ctx.save_for_backward(x, out)  # x is needed only when base == 0; kept, as PyTorch does
        return out

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        result = grad * (out * ctx.log_base)
        if ctx.base == 0:
            result = where(x >= 0, 0.0, result)
        return result, None


# --- the functions users (and Tensor's operators) call ---------------------------------------
def _check_alpha(a, alpha) -> None:
    if isinstance(alpha, float) and a._data.dtype.kind in "biu":
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating "
                           "point number.")


def add(a: Tensor | float, b: Tensor | float, *, alpha: float = 1,
        out: Tensor | None = None) -> Tensor:
    """a + alpha·b, broadcasting; a Python number never upcasts a tensor's dtype."""
    if out is not None:
        return write_out(out, add, a, b, alpha=alpha)
    a, b = binary_operands(a, b)
    if alpha != 1:
        _check_alpha(a, alpha)
    return Add.apply(a, b, alpha) if alpha != 1 else Add.apply(a, b)


def sub(a: Tensor | float, b: Tensor | float, *, alpha: float = 1,
        out: Tensor | None = None) -> Tensor:
    """a - alpha·b, broadcasting."""
    if out is not None:
        return write_out(out, sub, a, b, alpha=alpha)
    a, b = binary_operands(a, b)
    if alpha != 1:
        _check_alpha(a, alpha)
    if a._data.dtype.kind == "b":
        raise RuntimeError(
            "Subtraction, the `-` operator, with two bool tensors is not supported. Use the "
            "`^` or `logical_xor()` operator instead.")
    return Sub.apply(a, b, alpha) if alpha != 1 else Sub.apply(a, b)


def rsub(x: Tensor, other: Tensor | float, *, alpha: float = 1) -> Tensor:
    """other - alpha·x (what ``2 - x`` calls, recorded as PyTorch's ``RsubBackward1``)."""
    if is_tensor(other):
        return sub(other, x, alpha=alpha)
    x, c = binary_operands(x, other)
    if alpha != 1:
        x = mul(x, alpha)
    return RsubScalar.apply(x, c._data)


def mul(a: Tensor | float, b: Tensor | float, *, out: Tensor | None = None) -> Tensor:
    """a · b, element-wise with broadcasting."""
    if out is not None:
        return write_out(out, mul, a, b)
    a, b = binary_operands(a, b)
    return Mul.apply(a, b)


def _to_float(*tensors):
    return tuple(t.to(dtypes.default_float) for t in tensors)


def div(a: Tensor | float, b: Tensor | float, *, rounding_mode: str | None = None,
        out: Tensor | None = None) -> Tensor:
    """a / b: true division (integers give the default float dtype, as in PyTorch); with
    ``rounding_mode='floor'`` or ``'trunc'`` the quotient is rounded (see ``rounding.py``)."""
    if out is not None:
        return write_out(out, div, a, b, rounding_mode=rounding_mode)
    if rounding_mode is not None:
        return div_rounded(a, b, rounding_mode)
    if not is_tensor(a):  # 2 / x is recorded by PyTorch as reciprocal(x) * 2
        (x,) = (b,) if b._data.dtype.kind in "fc" else _to_float(b)
        return mul(Reciprocal.apply(x), a)
    a, b = binary_operands(a, b)
    if a._data.dtype.kind in "biu":
        a, b = _to_float(a, b)
    return Div.apply(a, b)


def reciprocal(x: Tensor) -> Tensor:
    """1 / x."""
    if x._data.dtype.kind not in "fc":
        (x,) = _to_float(x)
    return Reciprocal.apply(x)


true_divide = divide = div
multiply = mul
subtract = sub


def neg(x: Tensor) -> Tensor:
    if x._data.dtype.kind == "b":
        raise RuntimeError(
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
            "to invert a mask, use the `~` or `logical_not()` operator instead.")
    return Neg.apply(x)


negative = neg


# PyTorch's name
def pow(x: Tensor | float, exponent: Tensor | float, *, out: Tensor | None = None) -> Tensor:
    """x ** exponent, for a tensor x and a number or tensor exponent (or a number x), in
    the dtype they promote to (a bool tensor ** 2 is int64, an int tensor ** 0.5 float32)."""
    if out is not None:
        return write_out(out, pow, x, exponent)
    if not is_tensor(x):
        target = result_type(exponent, x)
        if target.kind == "b":
            raise not_implemented("pow", exponent)
        if target != exponent._data.dtype:
            exponent = exponent.to(dtypes.from_numpy(target))
        return RPowScalar.apply(exponent, x)
    if is_tensor(exponent):
        x, exponent = binary_operands(x, exponent)
        if x._data.dtype.kind == "b":
            raise not_implemented("pow", x)
        return Pow.apply(x, exponent)
    target = result_type(x, exponent)
    check_fits(exponent, target)
    if target != x._data.dtype:
        x = x.to(dtypes.from_numpy(target))
    if x._data.dtype.kind in "iu" and exponent < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    return PowScalar.apply(x, exponent)

