"""Comparisons and logic. They return bool tensors and are not differentiable (a step function
has zero gradient almost everywhere), so they are plain functions, not ``Function``s."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..autograd import forward_ad
from ..autograd.function import Function
from .broadcasting import broadcast_error
from .operands import binary_operands, is_tensor, not_two_numbers, tensor_first, tensors_only
from .promotion import not_implemented, scalar_type

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


def _compare(fn, a, b):
    a, b = binary_operands(a, b)
    try:
        return a._new(fn(a._data, b._data))
    except ValueError:
        raise broadcast_error(a.shape, b.shape) from None


def eq(input: Tensor, other: Tensor | float) -> Tensor:
    tensor_first("eq", input, other)
    return _compare(np.equal, input, other)


def ne(input: Tensor, other: Tensor | float) -> Tensor:
    tensor_first("ne", input, other)
    return _compare(np.not_equal, input, other)


def lt(input: Tensor, other: Tensor | float) -> Tensor:
    tensor_first("lt", input, other)
    return _compare(np.less, input, other)


def le(input: Tensor, other: Tensor | float) -> Tensor:
    tensor_first("le", input, other)
    return _compare(np.less_equal, input, other)


def gt(input: Tensor, other: Tensor | float) -> Tensor:
    tensor_first("gt", input, other)
    return _compare(np.greater, input, other)


def ge(input: Tensor, other: Tensor | float) -> Tensor:
    tensor_first("ge", input, other)
    return _compare(np.greater_equal, input, other)


class Comparison(Function):
    """``x.eq_(y)`` and the like, which PyTorch records (``x == y`` it does not): a step
    function, so the gradient of both inputs is zero, and so is the tangent."""

    jvp = forward_ad.elementwise

    @staticmethod
    def forward(ctx, a, b, name: str):
        ctx.shapes = a.shape, b.shape
        return _compare(getattr(np, COMPARED[name]), a, b)

    @staticmethod
    def backward(ctx, grad):
        a_shape, b_shape = ctx.shapes
        return grad.new_zeros(a_shape), grad.new_zeros(b_shape), None


COMPARED = {"eq": "equal", "ne": "not_equal", "lt": "less", "le": "less_equal", "gt": "greater",
            "ge": "greater_equal"}
# one node class per comparison, named as PyTorch's: EqBackward0 against a number, 1 a tensor
COMPARISONS = {(name, number): type(f"{name.title()}{number}", (Comparison,),
                                    {"node_name": f"{name.title()}Backward{int(not number)}"})
               for name in COMPARED for number in (True, False)}


def logical_and(input: Tensor, other: Tensor) -> Tensor:
    tensors_only("logical_and", input, other)
    return _compare(np.logical_and, input, other)


def logical_or(input: Tensor, other: Tensor) -> Tensor:
    tensors_only("logical_or", input, other)
    return _compare(np.logical_or, input, other)


def logical_xor(input: Tensor, other: Tensor) -> Tensor:
    tensors_only("logical_xor", input, other)
    return _compare(np.logical_xor, input, other)


def logical_not(input: Tensor) -> Tensor:
    return input._new(input._xp.logical_not(input._data))


def _bitwise(fn, name, a, b):
    not_two_numbers(name, a, b)
    a, b = binary_operands(a, b)
    if a._data.dtype.kind not in "biu":
        raise not_implemented(f"{name}_cpu", a)
    return _compare(fn, a, b)


def bitwise_and(input: Tensor | float, other: Tensor | float) -> Tensor:
    return _bitwise(np.bitwise_and, "bitwise_and", input, other)


def bitwise_or(input: Tensor | float, other: Tensor | float) -> Tensor:
    return _bitwise(np.bitwise_or, "bitwise_or", input, other)


def bitwise_xor(input: Tensor | float, other: Tensor | float) -> Tensor:
    """``input ^ other``: exclusive or, bit by bit (for bools: input != other)."""
    return _bitwise(np.bitwise_xor, "bitwise_xor", input, other)


def bitwise_not(input: Tensor) -> Tensor:
    if input._data.dtype.kind == "f":
        # what ``~x`` (the common spelling) raises in PyTorch
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type "
                        "tensors")
    return input._new(~input._data)


def isclose(input: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08,
            equal_nan: bool = False) -> Tensor:
    tensors_only("isclose", input, other)
    if input._data.dtype != other._data.dtype:
        raise RuntimeError(f"{scalar_type(input)} did not match {scalar_type(other)}")
    for name, tolerance in (("rtol", rtol), ("atol", atol)):
        if tolerance < 0:  # printed as C++ prints a double (6 significant digits)
            raise RuntimeError(f"{name} must be greater than or equal to zero, but got "
                               f"{tolerance:g}")
    input, other = binary_operands(input, other)
    close = input._xp.isclose(input._data, other._data, rtol=rtol, atol=atol, equal_nan=equal_nan)
    return input._new(close)


def allclose(input: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08,
             equal_nan: bool = False) -> bool:
    tensors_only("allclose", input, other)
    return bool(isclose(input, other, rtol, atol, equal_nan)._data.all())


def equal(input: Tensor, other: Tensor) -> bool:
    """True when both tensors have the same shape and the same values."""
    tensors_only("equal", input, other)
    return input.shape == other.shape and bool((input._data == other._data).all())


def isnan(input: Tensor) -> Tensor:
    return input._new(input._xp.isnan(input._data))


def isinf(input: Tensor) -> Tensor:
    return input._new(input._xp.isinf(input._data))


def isfinite(input: Tensor) -> Tensor:
    return input._new(input._xp.isfinite(input._data))


class Maximum(Function):
    """out = max(a, b) element-wise;  the gradient goes to the larger input (split on ties)."""

    node_name = "MaximumBackward0"
    jvp = forward_ad.elementwise
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


def maximum(input: Tensor, other: Tensor) -> Tensor:
    tensors_only("maximum", input, other)
    input, other = binary_operands(input, other)
    return Maximum.apply(input, other)


def minimum(input: Tensor, other: Tensor) -> Tensor:
    tensors_only("minimum", input, other)
    input, other = binary_operands(input, other)
    return Minimum.apply(input, other)


_ = is_tensor
