"""Arithmetic: + - * / ** and negation, with NumPy broadcasting.

Each op is a ``Function``: ``forward`` computes on arrays, ``backward`` applies the
derivative with tensor operations (so ``create_graph=True`` can differentiate it again), and
``sum_to`` folds a broadcast gradient back to each input's shape.
"""

from __future__ import annotations

import numpy as np

from ..autograd.function import Function
from ._util import binary_operands, broadcast_error, is_tensor, sum_to


def _elementwise(fn, a, b):
    try:
        return fn(a._data, b._data)
    except ValueError:
        raise broadcast_error(a.shape, b.shape) from None


class Add(Function):
    """out = a + b;  d/da = 1, d/db = 1."""

    node_name = "AddBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.shapes = a.shape, b.shape
        return a._new(_elementwise(np.add, a, b))

    @staticmethod
    def backward(ctx, grad):
        a_shape, b_shape = ctx.shapes
        need_a, need_b = ctx.needs_input_grad
        return (sum_to(grad, a_shape) if need_a else None,
                sum_to(grad, b_shape) if need_b else None)


class Sub(Function):
    """out = a - b;  d/da = 1, d/db = -1."""

    node_name = "SubBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.shapes = a.shape, b.shape
        return a._new(_elementwise(np.subtract, a, b))

    @staticmethod
    def backward(ctx, grad):
        a_shape, b_shape = ctx.shapes
        need_a, need_b = ctx.needs_input_grad
        return (sum_to(grad, a_shape) if need_a else None,
                sum_to(-grad, b_shape) if need_b else None)


class Mul(Function):
    """out = a * b;  d/da = b, d/db = a."""

    node_name = "MulBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a if ctx.needs_input_grad[1] else None,
                              b if ctx.needs_input_grad[0] else None)
        return a._new(_elementwise(np.multiply, a, b))

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        return (sum_to(grad * b, ctx._input_meta[0][0]) if need_a else None,
                sum_to(grad * a, ctx._input_meta[1][0]) if need_b else None)


class Div(Function):
    """out = a / b;  d/da = 1/b, d/db = -a/b²."""

    node_name = "DivBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a if ctx.needs_input_grad[1] else None, b)
        return a._new(_elementwise(np.true_divide, a, b))

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        return (sum_to(grad / b, ctx._input_meta[0][0]) if need_a else None,
                sum_to(-grad * a / (b * b), ctx._input_meta[1][0]) if need_b else None)


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
    """out = x ** p for a number p;  d/dx = p · x^(p-1)."""

    node_name = "PowBackward0"

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
        if p == 2:
            return grad * (x * 2.0), None
        return grad * (x ** (p - 1) * p), None


class Pow(Function):
    """out = a ** b for tensors;  d/da = b · a^(b-1), d/db = a^b · ln a."""

    node_name = "PowBackward1"

    @staticmethod
    def forward(ctx, a, b):
        out = a._new(_elementwise(np.power, a, b))
        ctx.save_for_backward(a, b, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, b, out = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        grad_a = sum_to(grad * b * a ** (b - 1), a.shape) if need_a else None
        grad_b = None
        if need_b:
            from .shape import where

            log_a = where(a == 0, 1.0, a).log()  # 0 ** b contributes 0, not -inf, to d/db
            grad_b = sum_to(grad * out * log_a, b.shape)
        return grad_a, grad_b


class RPowScalar(Function):
    """out = c ** x for a number c;  d/dx = c^x · ln c."""

    node_name = "PowBackward2"

    @staticmethod
    def forward(ctx, x, base):
        out = x._new(x._xp.asarray(base, dtype=x._data.dtype) ** x._data)
        ctx.log_base = float(np.log(base)) if base > 0 else float("nan")
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return grad * out * ctx.log_base, None


# --- the functions users (and Tensor's operators) call ---------------------------------------
def add(a, b, *, alpha=1):
    a, b = binary_operands(a, b)
    if alpha != 1:
        b = mul(b, alpha)
    return Add.apply(a, b)


def sub(a, b, *, alpha=1):
    a, b = binary_operands(a, b)
    if alpha != 1:
        b = mul(b, alpha)
    return Sub.apply(a, b)


def rsub(a, b):
    """b - a (what ``2 - x`` calls)."""
    return sub(b, a)


def mul(a, b):
    a, b = binary_operands(a, b)
    return Mul.apply(a, b)


def div(a, b):
    a, b = binary_operands(a, b)
    if a._data.dtype.kind in "biu":  # true division of integers gives floats, as in PyTorch
        from .. import dtypes

        a, b = a.to(dtypes.default_float), b.to(dtypes.default_float)
    return Div.apply(a, b)


true_divide = divide = div
multiply = mul
subtract = sub


def neg(x):
    return Neg.apply(x)


negative = neg


def pow(x, exponent):  # noqa: A001  (PyTorch's name)
    """x ** exponent, for a tensor x and a number or tensor exponent (or a number x)."""
    if not is_tensor(x):
        if exponent._data.dtype.kind not in "fc":
            from .. import dtypes

            exponent = exponent.to(dtypes.default_float)
        return RPowScalar.apply(exponent, x)
    if is_tensor(exponent):
        x, exponent = binary_operands(x, exponent)
        return Pow.apply(x, exponent)
    return PowScalar.apply(x, exponent)
