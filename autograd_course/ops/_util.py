"""Helpers the built-in ops share: turning Python numbers into tensors, type promotion,
broadcasting errors, and summing a broadcast gradient back to an input's shape."""

from __future__ import annotations

import numbers

import numpy as np

from .. import dtypes
from ..autograd import function as _function


def is_tensor(value) -> bool:
    return isinstance(value, _function._tensor_class)


def scalar_like(value, like):
    """A Python number as a 0-d tensor next to ``like``, without upcasting it.

    PyTorch's rule: ``float32_tensor * 2.5`` stays float32; ``int_tensor * 2.5`` becomes the
    default float type (float32); ``int_tensor * 2`` stays integer.
    """
    dtype = like._data.dtype
    kind = dtype.kind
    if type(value) is float and kind in "fc":  # the common case, decided without the ABCs
        return like._new(like._xp.asarray(value, dtype=dtype))
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
    Tensor = _function._tensor_class
    if not isinstance(a, Tensor):
        a = scalar_like(a, b)
    elif not isinstance(b, Tensor):
        b = scalar_like(b, a)
    elif a._device is not b._device and a._device != b._device:
        # PyTorch takes a 0-d CPU tensor next to a GPU tensor as a number (copied over)
        if b._data.ndim == 0 and b._device.type == "cpu":
            b = b.to(a._device)
        elif a._data.ndim == 0 and a._device.type == "cpu":
            a = a.to(b._device)
        else:
            raise RuntimeError(
                "Expected all tensors to be on the same device, but found at least two "
                f"devices, {a._device} and {b._device}!"
            )
    da, db = a._data.dtype, b._data.dtype
    if da is not db and da != db:
        target = _promote(a, b)
        if da != target:
            a = a.to(dtypes.from_numpy(target))
        if db != target:
            b = b.to(dtypes.from_numpy(target))
    return a, b


_SCALAR_TYPES = {"float16": "Half", "float32": "Float", "float64": "Double", "int8": "Char",
                 "uint8": "Byte", "int16": "Short", "int32": "Int", "int64": "Long",
                 "bool": "Bool"}


def scalar_type(t) -> str:
    """PyTorch's C++ name for a tensor's dtype, as its messages print it: Float, Long..."""
    name = str(t._data.dtype)
    return _SCALAR_TYPES.get(name, name.capitalize())


def _category(dtype) -> int:
    return {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}[dtype.kind]


def _promote(a, b):
    """PyTorch's rule: a 0-d tensor only decides the dtype when it is of a higher category
    (bool < integer < float < complex) than the tensor with dimensions.

    So ``float32_matrix * tensor(2., dtype=float64)`` stays float32, but
    ``int_matrix * tensor(2., dtype=float64)`` is float64.
    """
    da, db = a._data.dtype, b._data.dtype
    if (a._data.ndim == 0) != (b._data.ndim == 0):
        zero_d, full = (da, db) if a._data.ndim == 0 else (db, da)
        if _category(zero_d) <= _category(full):
            return full
        return zero_d
    ca, cb = _category(da), _category(db)
    if ca != cb:  # int64 + float32 is float32 (NumPy would say float64)
        return da if ca > cb else db
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
    if grad._data.shape == shape:
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


def view_of(x, array):
    """Wrap ``array``, the result of a view op on ``x``, as a tensor.

    When it shares ``x``'s memory (NumPy returned a view, as PyTorch would) it also shares
    ``x``'s version counter, so an in-place write through either one is seen by every node
    that saved the other.
    """
    out = x._new(array)
    data = x._data
    base = array.base
    # a NumPy view's .base is the array that owns the memory: when that is x's array (or x's
    # own base), they share memory for sure, without the slower may_share_memory
    if (base is not None and (base is data or base is data.base)) or \
            x._xp.may_share_memory(array, data):
        out._version_counter = x._version_counter
    return out


def same_device(*tensors) -> None:
    """PyTorch's error when an op's tensors (``None`` skipped) are not all on one device."""
    first = None
    for t in tensors:
        if t is None:
            continue
        if first is None:
            first = t._device
        elif t._device is not first and t._device != first:
            raise RuntimeError(
                "Expected all tensors to be on the same device, but found at least two devices, "
                f"{first} and {t._device}!"
            )
