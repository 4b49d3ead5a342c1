"""Helpers the built-in ops share: turning Python numbers into tensors, type promotion,
broadcasting errors, and summing a broadcast gradient back to an input's shape."""

from __future__ import annotations

import numbers

import numpy as np

from .. import dtypes


def is_tensor(value) -> bool:
    return hasattr(value, "_data") and hasattr(value, "grad_fn")


def scalar_like(value, like):
    """A Python number as a 0-d tensor next to ``like``, without upcasting it.

    PyTorch's rule: ``float32_tensor * 2.5`` stays float32; ``int_tensor * 2.5`` becomes the
    default float type (float32); ``int_tensor * 2`` stays integer.
    """
    kind = like._data.dtype.kind
    if isinstance(value, bool):
        dtype = like._data.dtype
    elif isinstance(value, numbers.Integral):
        dtype = like._data.dtype if kind != "b" else np.dtype(np.int64)
    elif isinstance(value, numbers.Real):
        dtype = like._data.dtype if kind in "fc" else dtypes.default_float.numpy
    elif isinstance(value, numbers.Complex):
        dtype = np.result_type(like._data.dtype, np.complex64)
    else:
        raise TypeError(
            f"unsupported operand type: expected a Tensor or a number, got {type(value).__name__}"
        )
    return like._new(like._xp.asarray(value, dtype=dtype))


def binary_operands(a, b):
    """Two operands as tensors of one dtype on one device, PyTorch's promotion rules."""
    a_is, b_is = is_tensor(a), is_tensor(b)
    if not a_is:
        a = scalar_like(a, b)
    elif not b_is:
        b = scalar_like(b, a)
    elif a._device != b._device:
        raise RuntimeError(
            "Expected all tensors to be on the same device, but found at least two devices, "
            f"{a._device} and {b._device}!"
        )
    da, db = a._data.dtype, b._data.dtype
    if da != db:
        target = _promote(a, b)
        if da != target:
            a = a.to(dtypes.from_numpy(target))
        if db != target:
            b = b.to(dtypes.from_numpy(target))
    return a, b


def _category(dtype) -> int:
    return {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}[dtype.kind]


def _promote(a, b):
    """A 0-d tensor does not upcast a tensor with dimensions of the same category."""
    da, db = a._data.dtype, b._data.dtype
    if (a._data.ndim == 0) != (b._data.ndim == 0):
        zero_d, full = (da, db) if a._data.ndim == 0 else (db, da)
        if _category(zero_d) <= _category(full):
            return full
        if _category(zero_d) == 2 and _category(full) < 2:
            return dtypes.default_float.numpy if zero_d != np.float64 else zero_d
    return np.result_type(da, db)


def broadcast_error(a_shape, b_shape) -> RuntimeError:
    """PyTorch's message for shapes that do not broadcast, naming both sizes."""
    na, nb = len(a_shape), len(b_shape)
    for i in range(1, max(na, nb) + 1):
        sa = a_shape[-i] if i <= na else 1
        sb = b_shape[-i] if i <= nb else 1
        if sa != sb and sa != 1 and sb != 1:
            dim = max(na, nb) - i
            return RuntimeError(
                f"The size of tensor a ({sa}) must match the size of tensor b ({sb}) at "
                f"non-singleton dimension {dim}"
            )
    return RuntimeError(f"shapes {list(a_shape)} and {list(b_shape)} cannot be broadcast")


def broadcast_shape(a_shape, b_shape):
    try:
        return np.broadcast_shapes(a_shape, b_shape)
    except ValueError:
        raise broadcast_error(a_shape, b_shape) from None


def sum_to(grad, shape):
    """Undo broadcasting: sum ``grad`` over the dimensions that were broadcast to reach it."""
    if grad.shape == shape:
        return grad
    return grad.sum_to_size(shape)


def normalize_dim(dim: int, ndim: int) -> int:
    """Turn a negative dim into a positive one, with PyTorch's IndexError when out of range."""
    low, high = -max(ndim, 1), max(ndim, 1) - 1
    if not low <= dim <= high:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{low}, {high}], but got {dim})"
        )
    return dim % max(ndim, 1)
