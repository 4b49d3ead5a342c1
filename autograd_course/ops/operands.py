"""An op's operands: tensors, and Python numbers turned into tensors as PyTorch turns them.

``is_tensor``; ``tensor_first`` / ``tensors_only`` / ``not_two_numbers``: PyTorch's TypeErrors
where an op takes no number in that place; ``number_array``: a number as an array of a dtype
(an int that does not fit wraps around, as in C++); ``check_python_int`` / ``check_fits``:
PyTorch's errors for a number that 64 bits, or the dtype an op computes in, cannot hold;
``binary_operands``: the two operands of an element-wise op, on one device, in the dtype the
op computes in (``result_type``, promotion.py).
"""

from __future__ import annotations

import numbers
from typing import TYPE_CHECKING

import numpy as np

from .. import _messages, dtypes
from ..tensor_base import TensorBase
from .devices import same_device_pair
from .promotion import result_type

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


def is_tensor(value: object) -> bool:
    return isinstance(value, TensorBase)


# PyTorch's two overloads of a binary op that also takes a number second (``eq``, ``fmod``)
TENSOR_OR_NUMBER = ("Tensor input, Tensor other, *, Tensor out = None",
                    "Tensor input, Number other, *, Tensor out = None")


def tensor_first(function: str, *args, signatures: tuple[str, ...] = TENSOR_OR_NUMBER) -> None:
    """PyTorch's argument parser for an op whose every overload takes a tensor first:
    ``torch.eq(2, x)`` matches none of them (a TypeError listing them)."""
    if not isinstance(args[0], TensorBase):
        raise TypeError(_messages.invalid_combination(function, args, signatures))


# PyTorch's overloads of a binary op that takes a number first only before a tensor
# (``remainder``, ``bitwise_xor``): ``torch.remainder(2, x)`` runs, ``torch.remainder(2, 3)`` not
NUMBER_THEN_TENSOR = ("Tensor input, Tensor other, *, Tensor out = None",
                      "Number self, Tensor other",
                      "Tensor input, Number other, *, Tensor out = None")


def not_two_numbers(function: str, a, b) -> None:
    """PyTorch's argument parser for an op declared ``NUMBER_THEN_TENSOR``: two numbers match
    no overload, and the one that takes a number first says which types it could not take
    (all of them, each between ``!``)."""
    if isinstance(a, TensorBase) or isinstance(b, TensorBase):
        return
    message = _messages.invalid_combination(function, (a, b), NUMBER_THEN_TENSOR)
    marked = ", ".join(f"!{_messages.python_type(v)}!" for v in (a, b))
    number_first = f" * ({NUMBER_THEN_TENSOR[1]})\n"
    raise TypeError(message.replace(number_first, number_first + "      didn't match because "
                                    f"some of the arguments have invalid types: ({marked})\n"))


def tensors_only(function: str, *args, names: tuple[str, ...] = ("input", "other")) -> None:
    """PyTorch's argument parser for an op declared with tensors only (``maximum``,
    ``atan2``): the first argument that is not a tensor is named, by its position."""
    for position, (name, value) in enumerate(zip(names, args), 1):
        if not isinstance(value, TensorBase):
            raise TypeError(_messages.must_be_tensor(function, name, position, value))


def check_python_int(value) -> None:
    """PyTorch's error for a Python int that 64 bits cannot hold (as int64 or uint64)."""
    if type(value) is int and not -2**63 <= value < 2**64:
        raise OverflowError("int too big to convert" if value > 0 else
                            "can't convert negative int to unsigned")


def number_array(xp, value: float, dtype: np.dtype):
    """A Python number as a 0-d array of ``dtype``, converted as PyTorch converts it: an int
    that does not fit an integer dtype wraps around, and float16 is reached through float32
    (C++ has no direct double -> half conversion, so the value is rounded twice)."""
    check_python_int(value)
    dtype = np.dtype(dtype)
    if dtype == np.float16:
        return xp.asarray(np.float32(value)).astype(dtype)
    try:
        return xp.asarray(value, dtype=dtype)
    except OverflowError:  # past int64 too: 2**63 is -2**63, as in 64-bit arithmetic
        return xp.asarray(np.int64((value + 2**63) % 2**64 - 2**63)).astype(dtype)


# the C++ names PyTorch's Scalar conversions print in their overflow message
_CONVERTED_NAMES = {"uint8": "uint8_t", "int8": "int8_t", "int16": "int16_t", "int32": "int",
                    "int64": "int64_t", "float16": "c10::Half", "float32": "float",
                    "float64": "double"}


def check_fits(value: float, dtype: np.dtype, floats: bool = True) -> None:
    """PyTorch's error for a Python number that a few ops (pow, clamp; ``where`` for ints
    only) must hold in ``dtype`` and cannot (``+`` wraps around instead). An unsigned type
    also takes values down to -max, which wrap around (uint8: -1 is 255)."""
    check_python_int(value)
    dtype = np.dtype(dtype)
    if value is None or isinstance(value, (bool, TensorBase)) or dtype.kind == "b":
        return
    if dtype.kind in "iu":
        if not isinstance(value, numbers.Integral):
            return
        info = np.iinfo(dtype)
        low = info.min if dtype.kind == "i" else -info.max
        fits = low <= value <= info.max
    else:
        fits = not floats or not np.isfinite(value) or abs(value) <= np.finfo(dtype).max
    if not fits:
        raise RuntimeError(f"value cannot be converted to type {_CONVERTED_NAMES[dtype.name]} "
                           "without overflow")


def wrapped_number(like: Tensor, array) -> Tensor:
    """A Python number operand as a tensor, marked as PyTorch marks its "wrapped numbers":
    saved for backward, it is not handed to saved-tensor hooks (saved_tensor.py)."""
    number = like._new(array)
    number._wrapped_number = True
    return number


def _as_operand(value, dtype: np.dtype, like: Tensor) -> Tensor:
    """An operand (a tensor or a Python number) converted *from its own type* to ``dtype``."""
    if not isinstance(value, TensorBase):
        return wrapped_number(like, number_array(like._xp, value, dtype))
    if value._data.dtype == dtype:
        return value
    if dtype == np.float16 and value._data.dtype == np.float64:  # rounded twice, as above
        value = value.to(dtypes.float32)
    return value.to(dtypes.from_numpy(dtype))


def binary_operands(a: Tensor | float, b: Tensor | float, *, floats: bool = False,
                    opmath: bool = False) -> tuple[Tensor, Tensor]:
    """Two operands of an element-wise op as tensors on one device, in the dtype the op
    computes in: PyTorch's TensorIterator.

    The dtype is ``result_type(a, b)`` (a Python number or a 0-d tensor raises the category
    of a tensor with dimensions, never its width); with ``floats`` (true division) integers
    and bools compute in the default float. Each operand is then converted from its own
    dtype, once: ``uint8_tensor / -2`` divides by -2.0, not by the uint8 254.

    ``opmath``: the op (``*``, ``/``, ``//``) is one whose CPU kernel, for a float16 result,
    keeps a number or 0-d second operand in float32 and rounds only the result, so
    ``half_tensor * 65536.`` gives 32768 where rounding 65536 to float16 first gives inf.
    That operand is returned in float32; the op casts its result to ``a``'s dtype.
    """
    a_tensor, b_tensor = isinstance(a, TensorBase), isinstance(b, TensorBase)
    if a_tensor and (type(b) is float or type(b) is int):  # common: float32/64 a, decided now
        dtype = a._data.dtype
        if dtype.kind == "f" and dtype.itemsize > 2:  # b rounded to a's dtype once
            number = a._xp.asarray(b, dtype=dtype) if type(b) is float else \
                number_array(a._xp, b, dtype)  # (an int is checked to fit 64 bits first)
            return a, wrapped_number(a, number)
    if a_tensor and b_tensor:
        if a._device is not b._device and a._device != b._device:
            a, b = same_device_pair(a, b)
        da, db = a._data.dtype, b._data.dtype
        if da is db or da == db:
            if floats and da.kind not in "fc":
                return a.to(dtypes.default_float), b.to(dtypes.default_float)
            return a, b
    like = a if a_tensor else b
    target = result_type(a, b)
    if floats and target.kind not in "fc":
        target = dtypes.default_float.numpy
    if opmath and target == np.float16 and not (b_tensor and b._data.ndim):
        b = _as_operand(b, np.dtype(np.float32), like)
    else:
        b = _as_operand(b, target, like)
    return _as_operand(a, target, like), b
