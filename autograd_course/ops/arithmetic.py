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
    number_array,
    result_type,
    sum_to,
)
from .combine import where
from .dtype_checks import check_alpha, check_integer_power, check_sub
from .out_arg import write_out
from .rounding import div_rounded

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


def _elementwise(fn, a, b, alpha=1):
    """``fn(a, b)`` on the arrays (``fn(a, alpha·b)`` when alpha is given), with PyTorch's
    message when the shapes do not broadcast."""
    try:
        b_data = b._data if alpha == 1 else b._data * b._xp.asarray(alpha, dtype=b._data.dtype)
        out = fn(a._data, b_data)
    except ValueError:
        raise broadcast_error(a.shape, b.shape) from None
    # b in float32 next to a float16 a (binary_operands' opmath): the result is rounded once
    return out if out.dtype == a._data.dtype else out.astype(a._data.dtype)


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
            return x._new((data * data).astype(data.dtype, copy=False))  # bool stays bool
        p = x._xp.asarray(exponent, dtype=data.dtype)
        if data.dtype == np.float32 and float(p) != exponent:  # PyTorch keeps such a p in double
            return x._new((data.astype(np.float64) ** exponent).astype(data.dtype))
        return x._new((data ** p).astype(data.dtype))

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
        c = number_array(x._xp, base, dtype)  # an int out of the dtype's range wraps around
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
def add(input: Tensor | float, other: Tensor | float, *, alpha: float = 1,
        out: Tensor | None = None) -> Tensor:
    """input + alpha·other, broadcasting; a Python number never upcasts a tensor's dtype."""
    if out is not None:
        return write_out(out, add, input, other, alpha=alpha)
    input, other = binary_operands(input, other)
    if type(alpha) is not int or alpha != 1:  # 1.0 and True are checked too
        check_alpha(input, alpha)
    return Add.apply(input, other, alpha) if alpha != 1 else Add.apply(input, other)


def sub(input: Tensor | float, other: Tensor | float, *, alpha: float = 1,
        out: Tensor | None = None) -> Tensor:
    """input - alpha·other, broadcasting."""
    if out is not None:
        return write_out(out, sub, input, other, alpha=alpha)
    check_sub(input, other)
    input, other = binary_operands(input, other)
    if type(alpha) is not int or alpha != 1:  # 1.0 and True are checked too
        check_alpha(input, alpha)
    return Sub.apply(input, other, alpha) if alpha != 1 else Sub.apply(input, other)


def rsub(input: Tensor, other: Tensor | float, *, alpha: float = 1) -> Tensor:
    """other - alpha·input (what ``2 - x`` calls, recorded as PyTorch's ``RsubBackward1``)."""
    if is_tensor(other):
        return sub(other, input, alpha=alpha)
    check_sub(other, input)
    input, c = binary_operands(input, other)
    if alpha != 1:
        input = mul(input, alpha)
    return RsubScalar.apply(input, c._data)


def mul(input: Tensor | float, other: Tensor | float, *, out: Tensor | None = None) -> Tensor:
    """input · other, element-wise with broadcasting."""
    if out is not None:
        return write_out(out, mul, input, other)
    input, other = binary_operands(input, other, opmath=True)
    return Mul.apply(input, other)


def _to_float(*tensors):
    return tuple(t.to(dtypes.default_float) for t in tensors)


def div(input: Tensor | float, other: Tensor | float, *, rounding_mode: str | None = None,
        out: Tensor | None = None) -> Tensor:
    """input / other: true division (integers give the default float dtype, as in PyTorch);
    with ``rounding_mode='floor'`` or ``'trunc'`` the quotient is rounded (see
    ``rounding.py``)."""
    if out is not None:
        return write_out(out, div, input, other, rounding_mode=rounding_mode)
    if rounding_mode is not None:
        return div_rounded(input, other, rounding_mode)
    if not is_tensor(input):  # 2 / x is recorded by PyTorch as reciprocal(x) * 2
        (x,) = (other,) if other._data.dtype.kind in "fc" else _to_float(other)
        return mul(Reciprocal.apply(x), input)
    input, other = binary_operands(input, other, floats=True, opmath=True)
    return Div.apply(input, other)


def reciprocal(input: Tensor) -> Tensor:
    """1 / input."""
    if input._data.dtype.kind not in "fc":
        (input,) = _to_float(input)
    return Reciprocal.apply(input)


true_divide = divide = div
multiply = mul
subtract = sub


def neg(input: Tensor) -> Tensor:
    if input._data.dtype.kind == "b":
        raise RuntimeError(
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
            "to invert a mask, use the `~` or `logical_not()` operator instead.")
    return Neg.apply(input)


negative = neg


# PyTorch's name
def pow(input: Tensor | float, exponent: Tensor | float, *, out: Tensor | None = None) -> Tensor:
    """input ** exponent, for a tensor input and a number or tensor exponent (or a number
    input), in the dtype they promote to (a bool tensor ** 2 is int64, an int tensor ** 0.5
    float32)."""
    if out is not None:
        return write_out(out, pow, input, exponent)
    if not is_tensor(input):
        target = result_type(exponent, input)
        if target.kind == "b":
            raise not_implemented("pow", exponent)
        if target != exponent._data.dtype:
            exponent = exponent.to(dtypes.from_numpy(target))
        return RPowScalar.apply(exponent, input)
    if is_tensor(exponent):
        input, exponent = binary_operands(input, exponent)
        if input._data.dtype.kind == "b":
            raise not_implemented("pow", input)
        return Pow.apply(input, exponent)
    check_integer_power(input, exponent)
    target = result_type(input, exponent)
    check_fits(exponent, target, floats=target == np.float16)  # float32/64 take any float
    if target != input._data.dtype:
        input = input.to(dtypes.from_numpy(target))
    return PowScalar.apply(input, exponent)

