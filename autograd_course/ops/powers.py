"""Powers and roots: ``sqrt``, ``x ** p`` for a number p, ``a ** b`` for tensors, ``c ** x``
for a number c, and ``int_power``, integer powers as PyTorch computes them (negative exponents
included).

* x ** p      d/dx = p · x^(p-1)
* a ** b      d/da = b · a^(b-1),  d/db = a^b · ln a
* c ** x      d/dx = c^x · ln c
* sqrt(x) = √x  d/dx = 1 / (2√x) = 1 / (2y)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .. import _messages, dtypes
from ..autograd import forward_ad
from ..autograd.function import Function
from .arithmetic import elementwise
from .broadcasting import sum_to
from .combine import where
from .dtype_checks import check_integer_power
from .operands import binary_operands, check_fits, is_tensor, number_array
from .out_arg import write_out
from .promotion import floating, not_implemented, result_type

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


def int_power(xp, a, b):
    """a ** b for integer arrays, negative exponents included, as PyTorch computes it:
    the result truncates towards 0, so only 1 and -1 keep a non-zero value (NumPy refuses)."""
    negative = b < 0
    if not negative.any():
        return np.power(a, b)
    out = np.power(a, xp.where(negative, 0, b))
    odd = (b % 2) != 0
    special = xp.where(a == 1, 1, xp.where(a == -1, xp.where(odd, -1, 1), 0)).astype(out.dtype)
    return xp.where(negative, special, out)


class PowScalar(Function):
    """out = x ** p for a number p;  d/dx = p · x^(p-1)  (0 when p = 0)."""

    node_name = "PowBackward0"
    jvp = forward_ad.elementwise
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
            out = a._new(elementwise(lambda p, q: int_power(xp, p, q), a, b))
        else:
            out = a._new(elementwise(np.power, a, b))
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

    @staticmethod
    def jvp(ctx, t_a, t_b):
        """b·a^(b-1)·t_a + a^b·ln a·t_b, with backward's zeros where b = 0 (a = 0)."""
        a, b = ctx.fw_args
        d_a = None if t_a is None else where(b == 0, 0.0, t_a * b * a ** (b - 1))
        d_b = None if t_b is None else where((a == 0) & (b >= 0), 0.0, t_b * a ** b * a.log())
        return forward_ad.add_tangents(d_a, d_b)


class RPowScalar(Function):
    """out = c ** x for a number c;  d/dx = c^x · ln c  (0 where c = 0 and x ≥ 0, as in
    PyTorch: the formula would give 0 · -inf = NaN, but 0^x is flat there)."""

    node_name = "PowBackward2"
    jvp = forward_ad.elementwise
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


class Sqrt(Function):
    """y = √x;  dy/dx = 1 / (2√x) = 1 / (2y)."""

    node_name = "SqrtBackward0"
    jvp = forward_ad.elementwise
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x):
        y = x._new(x._xp.sqrt(x._data))
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return grad / (y * 2.0)


def sqrt(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    if out is not None:
        return write_out(out, sqrt, input)
    return Sqrt.apply(floating(input))


_SIGNATURES = ("Tensor input, Tensor exponent, *, Tensor out = None",
               "Number self, Tensor exponent, *, Tensor out = None",
               "Tensor input, Number exponent, *, Tensor out = None")


# PyTorch's name
def pow(input: Tensor | float, exponent: Tensor | float, *, out: Tensor | None = None) -> Tensor:
    """input ** exponent, for a tensor input and a number or tensor exponent (or a number
    input), in the dtype they promote to (a bool tensor ** 2 is int64, an int tensor ** 0.5
    float32)."""
    if out is not None:
        return write_out(out, pow, input, exponent)
    if not (is_tensor(input) or is_tensor(exponent)):  # no overload takes two numbers
        raise TypeError(_messages.invalid_combination("pow", (input, exponent), _SIGNATURES))
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
