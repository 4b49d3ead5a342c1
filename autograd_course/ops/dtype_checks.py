"""The dtype checks PyTorch makes before an element-wise op computes anything.

Each refuses a call whose result would be wrong or surprising: ``mask - 1`` (meant as
``~mask``), an integer ``add`` with a fractional ``alpha`` (it would be truncated), and
``int_tensor.clamp_(min=0.5)`` (the float result cannot be written back into integers).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .. import _messages
from .operands import check_fits, check_python_int, is_tensor
from .promotion import can_cast, result_type, scalar_type

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


def check_alpha(a: Tensor, alpha: float) -> None:
    """PyTorch's checks of ``add``/``sub``'s ``alpha`` against the dtype the op computes in
    (``a``'s): a bool only for bools, a float not for integers, and it must fit."""
    kind = a._data.dtype.kind
    if isinstance(alpha, bool) and kind != "b":
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if isinstance(alpha, float) and kind in "biu":
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating "
                           "point number.")
    check_fits(alpha, a._data.dtype)


def _is_bool(value) -> bool:
    return value._data.dtype.kind == "b" if is_tensor(value) else isinstance(value, bool)


def check_sub(a: Tensor | float, b: Tensor | float) -> None:
    """PyTorch refuses ``-`` with a bool operand (a bool tensor or ``True``): ``mask - 1`` is
    almost always a mistake for ``~mask``."""
    for value in (a, b):  # the int past 64 bits is refused first, when Python's is read
        check_python_int(value)
    a_bool, b_bool = _is_bool(a), _is_bool(b)
    if a_bool and b_bool:
        raise RuntimeError(
            "Subtraction, the `-` operator, with two bool tensors is not supported. Use the "
            "`^` or `logical_xor()` operator instead.")
    if a_bool or b_bool:
        raise RuntimeError(
            "Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
            "trying to invert a mask, use the `~` or `logical_not()` operator instead.")


def check_inplace_result(x: Tensor, *others: Tensor | float | None,
                         floats: bool = False) -> None:
    """PyTorch's check, made before computing, that an in-place op's result type (x's and
    the ``others``' promoted; a float with ``floats``, for true division) can be written back
    into x: ``bool_tensor %= 0`` is refused for its type, not for dividing by zero."""
    target = result_type(x, *others)
    if floats and target.kind not in "fc":
        target = np.dtype(np.float32)
    if not can_cast(target, x._data.dtype):
        raise RuntimeError(f"result type {scalar_type(target)} can't be cast to the desired "
                           f"output type {scalar_type(x)}")


def check_integer_power(x: Tensor, exponent: Tensor | float) -> None:
    """PyTorch's checks of a number exponent of an integer or bool tensor: not negative (the
    power would be 0 or ±1), and an int64 (it reads the exponent as one)."""
    if is_tensor(exponent) or x._data.dtype.kind not in "biu" or isinstance(exponent, float):
        return
    check_python_int(exponent)
    if exponent >= 2**63:
        raise RuntimeError("value cannot be converted to type int64_t without overflow")
    if exponent < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")


def check_clamp_cast(x: Tensor, min: float | Tensor | None, max: float | Tensor | None) -> None:
    """``clamp_``'s error when the bounds' type cannot be written into x
    (``int_tensor.clamp_(min=0.5)``); with number bounds PyTorch names x's C++ type."""
    if is_tensor(min) or is_tensor(max):
        return  # the tensor form: check_inplace_result's, with PyTorch's names (Long...)
    target = result_type(x, min, max)
    if not can_cast(target, x._data.dtype):
        raise RuntimeError(f"result type {scalar_type(target)} can't be cast to the desired "
                           f"output type {_messages.c_name(x._data.dtype)}")
