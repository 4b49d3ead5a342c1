"""Data types.

A dtype is a thin label around a NumPy dtype. We print them the way PyTorch does
(``torch.float32``) so that every repr in the course matches what a learner will later see
in PyTorch, character for character, and outputs can be diffed against it.
"""

from __future__ import annotations

import builtins
import numbers

import numpy as np


class dtype:  # PyTorch spells it in lower case
    """One element type: its NumPy equivalent and whether it can carry gradients."""

    __slots__ = ("name", "numpy", "is_floating_point", "is_complex", "is_signed", "itemsize")

    def __init__(self, name: str, numpy_dtype) -> None:
        self.name = name
        self.numpy = np.dtype(numpy_dtype)
        self.is_floating_point = self.numpy.kind == "f"
        self.is_complex = self.numpy.kind == "c"
        self.is_signed = self.numpy.kind in "fic"  # bool and uint8 are unsigned
        self.itemsize = self.numpy.itemsize

    def to_real(self) -> dtype:
        """The real dtype of the same precision (every dtype here is already real)."""
        return self

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    __str__ = __repr__

    def __reduce__(self):
        return (from_name, (self.name,))


float16 = half = dtype("float16", np.float16)
float32 = float = dtype("float32", np.float32)
float64 = double = dtype("float64", np.float64)
int8 = dtype("int8", np.int8)
uint8 = dtype("uint8", np.uint8)
int16 = short = dtype("int16", np.int16)
int32 = int = dtype("int32", np.int32)
int64 = long = dtype("int64", np.int64)
bool = dtype("bool", np.bool_)

_ALL = (float16, float32, float64, int8, uint8, int16, int32, int64, bool)
_BY_NUMPY = {d.numpy: d for d in _ALL}
_BY_NAME = {d.name: d for d in _ALL}

# The types Python values become: 1.5 -> float32 (PyTorch's default), 3 -> int64, True -> bool.
default_float = float32


def number_dtype(value) -> np.dtype:
    """The dtype PyTorch gives a Python number taking part in an op ("wrapped number"):
    bool -> bool, int -> int64, float -> the default float (float32), complex -> complex64."""
    if isinstance(value, builtins.bool):
        return np.dtype(np.bool_)
    if isinstance(value, numbers.Integral):
        return np.dtype(np.int64)
    if isinstance(value, numbers.Real):
        return default_float.numpy
    if isinstance(value, numbers.Complex):
        return np.dtype(np.complex64)
    raise TypeError(
        f"unsupported operand type: expected a Tensor or a number, got {type(value).__name__}"
    )


def from_name(name: str) -> dtype:
    return _BY_NAME[name]


def from_numpy(np_dtype) -> dtype:
    """Map a NumPy dtype to ours; unsupported ones get a clear error."""
    np_dtype = np.dtype(np_dtype)
    try:
        return _BY_NUMPY[np_dtype]
    except KeyError:
        pass
    if np_dtype.kind == "u":  # PyTorch makes the tensor, then most ops refuse it this way
        raise NotImplementedError(
            f"autograd_course has no {np_dtype.name} dtype (PyTorch's {np_dtype.name} tensors "
            "have almost no operations: \"add_stub\" not implemented for "
            f"'UInt{8 * np_dtype.itemsize}'); convert the array first, e.g. "
            "array.astype(np.int64)")
    raise TypeError(
        f"can't convert np.ndarray of type numpy.{np_dtype.type.__name__}. The only supported "
        "types are: float64, float32, float16, int64, int32, int16, int8, uint8, and bool.")


def to_numpy(d) -> np.dtype:
    """Accept our dtype, a NumPy dtype or a Python type and return the NumPy dtype."""
    if isinstance(d, dtype):
        return d.numpy
    if d is builtins.float:  # PyTorch: dtype=float means float64 (a Python float's precision)
        return float64.numpy
    if d is builtins.int:
        return int64.numpy
    if d is builtins.bool:
        return bool.numpy
    return from_numpy(d).numpy
