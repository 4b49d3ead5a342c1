"""Comparisons and logic. They return bool tensors and are not differentiable (a step function
has zero gradient almost everywhere), so they are plain functions, not ``Function``s."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..autograd.function import Function
from ._util import binary_operands, broadcast_error, is_tensor, not_implemented, scalar_type

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


def _compare(fn, a, b):
    a, b = binary_operands(a, b)
    try:
        return a._new(fn(a._data, b._data))
    except ValueError:
        raise broadcast_error(a.shape, b.shape) from None


def eq(a: Tensor | float, b: Tensor | float) -> Tensor:
    return _compare(np.equal, a, b)


def ne(a: Tensor | float, b: Tensor | float) -> Tensor:
    return _compare(np.not_equal, a, b)


def lt(a: Tensor | float, b: Tensor | float) -> Tensor:
    return _compare(np.less, a, b)


def le(a: Tensor | float, b: Tensor | float) -> Tensor:
    return _compare(np.less_equal, a, b)


def gt(a: Tensor | float, b: Tensor | float) -> Tensor:
    return _compare(np.greater, a, b)


def ge(a: Tensor | float, b: Tensor | float) -> Tensor:
    return _compare(np.greater_equal, a, b)


def logical_and(a: Tensor | float, b: Tensor | float) -> Tensor:
    return _compare(np.logical_and, a, b)


def logical_or(a: Tensor | float, b: Tensor | float) -> Tensor:
    return _compare(np.logical_or, a, b)


def logical_xor(a: Tensor | float, b: Tensor | float) -> Tensor:
    return _compare(np.logical_xor, a, b)


def logical_not(x: Tensor) -> Tensor:
    return x._new(x._xp.logical_not(x._data))


def _bitwise(fn, name, a, b):
    a, b = binary_operands(a, b)
    if a._data.dtype.kind not in "biu":
        raise not_implemented(f"{name}_cpu", a)
    return _compare(fn, a, b)


def bitwise_and(a: Tensor | float, b: Tensor | float) -> Tensor:
    return _bitwise(np.bitwise_and, "bitwise_and", a, b)


def bitwise_or(a: Tensor | float, b: Tensor | float) -> Tensor:
    return _bitwise(np.bitwise_or, "bitwise_or", a, b)


def bitwise_not(x: Tensor) -> Tensor:
    if x._data.dtype.kind == "f":
        # what ``~x`` (the common spelling) raises in PyTorch
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type "
                        "tensors")
    return x._new(~x._data)


def isclose(a: Tensor | float, b: Tensor | float, rtol: float = 1e-05, atol: float = 1e-08,
            equal_nan: bool = False) -> Tensor:
    if is_tensor(a) and is_tensor(b) and a._data.dtype != b._data.dtype:
        raise RuntimeError(f"{scalar_type(a)} did not match {scalar_type(b)}")
    a, b = binary_operands(a, b)
    return a._new(a._xp.isclose(a._data, b._data, rtol=rtol, atol=atol, equal_nan=equal_nan))


def allclose(a: Tensor | float, b: Tensor | float, rtol: float = 1e-05, atol: float = 1e-08,
             equal_nan: bool = False) -> bool:
    return bool(isclose(a, b, rtol, atol, equal_nan)._data.all())


def equal(a: Tensor | float, b: Tensor | float) -> bool:
    """True when both tensors have the same shape and the same values."""
    return a.shape == b.shape and bool((a._data == b._data).all())


def isnan(x: Tensor) -> Tensor:
    return x._new(x._xp.isnan(x._data))


def isinf(x: Tensor) -> Tensor:
    return x._new(x._xp.isinf(x._data))


def isfinite(x: Tensor) -> Tensor:
    return x._new(x._xp.isfinite(x._data))


class Maximum(Function):
    """out = max(a, b) element-wise;  the gradient goes to the larger input (split on ties)."""

    node_name = "MaximumBackward0"
    saved_names = ("self", "other")
    _pick = staticmethod(np.maximum)

    @classmethod
    def forward(cls, ctx, a, b):
        ctx.save_for_backward(a, b)
        try:
            return a._new(cls._pick(a._data, b._data))
        except ValueError:
            raise broadcast_error(a.shape, b.shape) from None

    @classmethod
    def backward(cls, ctx, grad):
        a, b = ctx.saved_tensors
        a_wins = (a > b) if cls._pick is np.maximum else (a < b)
        share_a = a_wins.to(grad.dtype) + (a == b).to(grad.dtype) * 0.5
        return ((grad * share_a).sum_to_size(a.shape),
                (grad * (1.0 - share_a)).sum_to_size(b.shape))


class Minimum(Maximum):
    node_name = "MinimumBackward0"
    _pick = staticmethod(np.minimum)


def maximum(a: Tensor | float, b: Tensor | float) -> Tensor:
    a, b = binary_operands(a, b)
    return Maximum.apply(a, b)


def minimum(a: Tensor | float, b: Tensor | float) -> Tensor:
    a, b = binary_operands(a, b)
    return Minimum.apply(a, b)


_ = is_tensor
