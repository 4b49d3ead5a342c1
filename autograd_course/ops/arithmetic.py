"""Arithmetic: + - * / and negation, with NumPy broadcasting, and ``lerp``, a + w (b - a)
(``**`` is in powers.py).

Each op is a ``Function``: ``forward`` computes on arrays, ``backward`` applies the
derivative with tensor operations (so ``create_graph=True`` can differentiate it again), and
``sum_to`` folds a broadcast gradient back to each input's shape.

* lerp(a, b, w) = a + w (b - a)   d/da = 1 - w,  d/db = w,  d/dw = b - a
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .. import _messages, dtypes
from ..autograd import forward_ad
from ..autograd.function import Function
from .broadcasting import broadcast_error, broadcast_shape
from .dtype_checks import check_alpha, check_sub
from .operands import binary_operands, is_tensor, tensor_first
from .out_arg import write_out
from .rounding import div_rounded

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


def elementwise(fn, a, b, alpha=1):
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
    return a._new(elementwise(ufunc, a, b, alpha))


class Add(Function):
    """out = a + alpha·b;  d/da = 1, d/db = alpha.

    Like every op here, backward returns gradients of the output's shape; where an input was
    broadcast, the engine sums its gradient back to the input's shape (so does PyTorch's).
    """

    node_name = "AddBackward0"
    jvp = forward_ad.linear

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
    jvp = forward_ad.elementwise

    @staticmethod
    def forward(ctx, x, c):
        return x._new(c - x._data)  # c: a 0-d array, not a tensor, so it gets no graph edge

    @staticmethod
    def backward(ctx, grad):
        return -grad, None


class Mul(Function):
    """out = a * b;  d/da = b, d/db = a."""

    node_name = "MulBackward0"
    jvp = forward_ad.bilinear
    saved_names = ("self", "other")

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a if ctx.needs_input_grad[1] else None,
                              b if ctx.needs_input_grad[0] else None)
        return a._new(elementwise(np.multiply, a, b))

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        return (grad * b if need_a else None,
                grad * a if need_b else None)


class Div(Function):
    """out = a / b;  d/da = 1/b, d/db = -a/b²."""

    node_name = "DivBackward0"
    jvp = forward_ad.elementwise
    saved_names = ("self", "other")

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a if ctx.needs_input_grad[1] else None, b)
        return a._new(elementwise(np.true_divide, a, b))

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        return (grad / b if need_a else None,
                -grad * a / (b * b) if need_b else None)


class Reciprocal(Function):
    """out = 1/x;  d/dx = -1/x² = -out²."""

    node_name = "ReciprocalBackward0"
    jvp = forward_ad.elementwise
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
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, x):
        return x._new(-x._data)

    @staticmethod
    def backward(ctx, grad):
        return -grad


class Lerp(Function):
    """a + w (b - a) for a number ``w``."""

    node_name = "LerpBackward0"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, a, b, weight):
        ctx.weight = weight
        return a._new(a._data + weight * (b._data - a._data))

    @staticmethod
    def backward(ctx, grad):
        return grad * (1 - ctx.weight), grad * ctx.weight, None


class LerpTensor(Function):
    """a + w (b - a) for a tensor ``w``: ``w`` gets a gradient too."""

    node_name = "LerpBackward1"
    jvp = forward_ad.elementwise

    @staticmethod
    def forward(ctx, a, b, weight):
        ctx.save_for_backward(a, b, weight)
        return a._new(a._data + weight._data * (b._data - a._data))

    @staticmethod
    def backward(ctx, grad):
        a, b, weight = ctx.saved_tensors
        return grad * (1 - weight), grad * weight, grad * (b - a)


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
    tensor_first("rsub", input, other, signatures=_RSUB_SIGNATURES)
    if is_tensor(other):
        return sub(other, input, alpha=alpha)
    check_sub(other, input)
    input, c = binary_operands(input, other)
    if alpha != 1:
        input = mul(input, alpha)
    return RsubScalar.apply(input, c._data)


_RSUB_SIGNATURES = ("Tensor input, Tensor other, *, Number alpha = 1",
                    "Tensor input, Number other, Number alpha = 1")


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
    input, other = binary_operands(input, other, floats=True, opmath=True)
    return Div.apply(input, other)


def rdiv(input: Tensor, other: Tensor | float) -> Tensor:
    """``other / input``, the ``/`` operator with a number on the left: PyTorch records
    ``2 / x`` as ``reciprocal(x) * 2`` (``torch.div(2, x)`` is a true ``DivBackward0``)."""
    if is_tensor(other):
        return div(other, input)
    (x,) = (input,) if input._data.dtype.kind in "fc" else _to_float(input)
    return mul(Reciprocal.apply(x), other)


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


_C_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int"}


_LERP_SIGNATURES = ("Tensor input, Tensor end, Tensor weight, *, Tensor out = None",
                    "Tensor input, Tensor end, Number weight, *, Tensor out = None")


def lerp(input: Tensor, end: Tensor, weight: float | Tensor | None = None) -> Tensor:
    """``input + weight * (end - input)``: a straight line from input to end. (``weight``
    is required: without it, or with a number for a tensor, no overload matches.)"""
    if not (is_tensor(input) and is_tensor(end)) or weight is None:
        given = (input, end) if weight is None else (input, end, weight)
        raise TypeError(_messages.invalid_combination("lerp", given, _LERP_SIGNATURES))
    if input._data.dtype != end._data.dtype:
        raise RuntimeError(f"expected dtype {_C_NAMES.get(input._data.dtype.name)} for `end` but "
                           f"got dtype {_C_NAMES.get(end._data.dtype.name)}")
    broadcast_shape(input.shape, end.shape)
    if is_tensor(weight):
        broadcast_shape(broadcast_shape(input.shape, end.shape), weight.shape)
        return LerpTensor.apply(input, end, weight)
    return Lerp.apply(input, end, weight)
