"""Turning what a user passes to ``tensor(...)`` into an array: numbers, nested lists, NumPy
arrays, tensors. The dtype is inferred as PyTorch infers it."""

from __future__ import annotations

import numbers

import numpy as np

from . import _backend, dtypes
from .tensor_base import TensorBase

_CATEGORY = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}  # PyTorch promotes across these first


def _element_dtype(value) -> np.dtype:
    """The dtype one element brings: NumPy values their own, Python numbers the defaults."""
    if isinstance(value, (np.ndarray, np.generic)):
        return value.dtype
    if isinstance(value, TensorBase):
        return value._data.dtype
    if not isinstance(value, numbers.Number):
        raise TypeError(f"Could not infer dtype of {type(value).__name__}")
    return dtypes.number_dtype(value)


def infer_dtype(data) -> np.dtype:
    """PyTorch's inference: Python floats -> float32, ints -> int64, bools -> bool; NumPy
    values keep their dtype. Mixed elements: the highest category wins (bool < int < float
    < complex), and within it the widest dtype (so [np.float64(1), 2.] is float64)."""
    if isinstance(data, (np.ndarray, np.generic)):
        return dtypes.from_numpy(data.dtype).numpy
    found = {_element_dtype(v) for v in _flat(data)}
    if not found:
        return dtypes.default_float.numpy  # an empty list
    top = max(_CATEGORY[d.kind] for d in found)
    return np.result_type(*(d for d in found if _CATEGORY[d.kind] == top))


def to_array(data, dtype, device):
    """Data (numbers, nested lists, arrays, tensors) as an array of ``dtype`` on ``device``."""
    if isinstance(data, TensorBase):
        data = _backend.to_numpy(data._data)
    np_dtype = infer_dtype(data) if dtype is None else dtypes.to_numpy(dtype)
    if isinstance(data, (list, tuple)) and any(isinstance(v, TensorBase) for v in _flat(data)):
        data = _nested_values(data)
    if np_dtype.kind in "iu" and not isinstance(data, (np.ndarray, np.generic)):
        array = _integers(data, np_dtype)
    else:
        array = np.array(data, dtype=np_dtype)
    return array if device is _backend.CPU else _backend.to_device(array, device)


def _integers(data, np_dtype: np.dtype) -> np.ndarray:
    """Python numbers as integers of ``np_dtype``, checked as PyTorch checks them: a value
    out of range is an error, except that an unsigned type takes negative ints down to -max,
    which wrap around (``tensor([-1], dtype=uint8)`` is 255; -1.5 is an error)."""
    raw = np.array(data)
    if raw.dtype == np.uint64:  # a Python int past int64 (NumPy took it as unsigned)
        raise ValueError("Overflow when unpacking long long")
    if raw.dtype.kind not in "iuf" or not raw.size:
        return np.array(data, dtype=np_dtype)
    info = np.iinfo(np_dtype)
    low = -info.max if raw.dtype.kind in "iu" and np_dtype.kind == "u" else info.min
    if not (low <= raw.min() and raw.max() <= info.max):  # NaN fails both
        raise RuntimeError(f"value cannot be converted to type {np_dtype.name} without overflow")
    return raw.astype(np_dtype)


def _flat(data):
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)):
            stack.extend(item)
        else:
            yield item


def _nested_values(data):
    if isinstance(data, (list, tuple)):
        return [_nested_values(v) for v in data]
    return data.item() if isinstance(data, TensorBase) else data
