"""Helpers the built-in ops share: turning Python numbers into tensors, type promotion,
broadcasting errors, and summing a broadcast gradient back to an input's shape."""

from __future__ import annotations

import numbers
import weakref
from typing import TYPE_CHECKING

import numpy as np

from .. import dtypes
from ..tensor_base import TensorBase

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


def is_tensor(value: object) -> bool:
    return isinstance(value, TensorBase)


def scalar_like(value: float, like: Tensor) -> Tensor:
    """A Python number as a 0-d tensor next to ``like``, without upcasting it.

    PyTorch's rule: ``float32_tensor * 2.5`` stays float32; ``int_tensor * 2.5`` becomes the
    default float type (float32); ``int_tensor * 2`` stays integer (``int8_tensor + 200``
    wraps around, as PyTorch's integers do).
    """
    dtype = like._data.dtype
    if type(value) is float and dtype.kind in "fc":  # the common case, decided at once
        return like._new(like._xp.asarray(value, dtype=dtype))
    dtype = result_type(like._data.dtype if like._data.ndim else like, value)
    try:
        array = like._xp.asarray(value, dtype=dtype)
    except OverflowError:  # an int out of the dtype's range: wrap around like PyTorch
        array = like._xp.asarray(np.int64(value)).astype(dtype)
    return like._new(array)


def binary_operands(a: Tensor | float, b: Tensor | float) -> tuple[Tensor, Tensor]:
    """Two operands as tensors of one dtype on one device, PyTorch's promotion rules."""
    if not isinstance(a, TensorBase):
        a = scalar_like(a, b)
    elif not isinstance(b, TensorBase):
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
        target = result_type(a, b)
        if da != target:
            a = a.to(dtypes.from_numpy(target))
        if db != target:
            b = b.to(dtypes.from_numpy(target))
    return a, b


_SCALAR_TYPES = {"float16": "Half", "float32": "Float", "float64": "Double", "int8": "Char",
                 "uint8": "Byte", "int16": "Short", "int32": "Int", "int64": "Long",
                 "bool": "Bool"}


def scalar_type(t: Tensor | np.dtype) -> str:
    """PyTorch's C++ name for a tensor's dtype, as its messages print it: Float, Long..."""
    name = str(t._data.dtype if is_tensor(t) else np.dtype(t))
    return _SCALAR_TYPES.get(name, name.capitalize())


# --- type promotion: ONE rule for every op ----------------------------------------------------
_CATEGORY = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}


def promote_types(a: np.dtype, b: np.dtype) -> np.dtype:
    """PyTorch's ``promote_types`` for two dtypes.

    Categories rank bool < integer < float < complex. Across categories the higher one wins
    as it is (``int64 + float16 -> float16``, where NumPy would say float64); within one,
    the smallest type holding both (``uint8 + int8 -> int16``), which is NumPy's rule too.
    """
    a, b = np.dtype(a), np.dtype(b)
    if a == b:
        return a
    ca, cb = _CATEGORY[a.kind], _CATEGORY[b.kind]
    if ca != cb:
        return a if ca > cb else b
    return np.result_type(a, b)


def _combine(higher, lower):
    """Fold a lower-priority group's dtype into a higher one's (PyTorch's combine_categories):
    the lower group only matters when it is of a higher category."""
    if higher is None:
        return lower
    if lower is None:
        return higher
    if higher.kind == "c" or (higher.kind == "f" and lower.kind != "c"):
        return higher
    if higher.kind == "b" or lower.kind in "fc":
        return promote_types(higher, lower)
    return higher


def result_type(*operands: Tensor | float | None) -> np.dtype:
    """The dtype PyTorch computes an op in, from its tensors, NumPy dtypes and Python numbers.

    Operands fall into three groups of falling priority: tensors with dimensions (and NumPy
    dtypes), 0-d tensors, and Python numbers. Each group is promoted on its own
    (``promote_types``); a lower group changes the result only when it is of a higher
    category. So ``float32_matrix * tensor(2., dtype=float64)`` stays float32,
    ``int_matrix * tensor(2., dtype=float64)`` is float64, ``int32_vector * 2.5`` is the
    default float and ``uint8_vector + 300`` stays uint8. ``None`` operands are skipped.
    """
    dim = zero = number = None
    for op in operands:
        if op is None:
            continue
        if isinstance(op, TensorBase):
            d = op._data.dtype
            if op._data.ndim:
                dim = d if dim is None else promote_types(dim, d)
            else:
                zero = d if zero is None else promote_types(zero, d)
        elif isinstance(op, (np.dtype, type)) and not isinstance(op, numbers.Number):
            d = np.dtype(op)
            dim = d if dim is None else promote_types(dim, d)
        else:
            d = dtypes.number_dtype(op)
            number = d if number is None else promote_types(number, d)
    return _combine(dim, _combine(zero, number))


def check_fits(value: float, dtype: np.dtype) -> None:
    """PyTorch's error for a Python int that a few ops (where, pow, clamp) must hold in an
    integer ``dtype`` and cannot (``+`` wraps around instead). Unsigned types also take
    values down to -2^(bits-1), as in PyTorch."""
    dtype = np.dtype(dtype)
    if dtype.kind not in "iu" or isinstance(value, bool) or not isinstance(value, numbers.Integral):
        return
    info = np.iinfo(dtype)
    low = info.min if dtype.kind == "i" else -(info.max + 1) // 2
    if not low <= value <= info.max:
        raise RuntimeError(f"value cannot be converted to type {dtype.name}_t without overflow")


def floating(x: Tensor) -> Tensor:
    """``x`` itself when it is floating point, else ``x`` cast to the default float type:
    what PyTorch's float functions (exp, log, sqrt, sin, tanh, sigmoid, /...) compute an
    integer or bool tensor in."""
    if x._data.dtype.kind in "fc":
        return x
    return x.to(dtypes.default_float)


def cast_to(dtype: np.dtype, *tensors: Tensor) -> list:
    """The tensors (``None`` kept) cast to the NumPy ``dtype`` where they are not already."""
    target = dtypes.from_numpy(dtype)
    return [t if t is None or t._data.dtype == dtype else t.to(target) for t in tensors]


def not_implemented(kernel: str, t: Tensor | np.dtype) -> NotImplementedError:
    """PyTorch's error for a kernel that has no version for ``t``'s dtype."""
    return NotImplementedError(f'"{kernel}" not implemented for \'{scalar_type(t)}\'')


def broadcast_error(a_shape: tuple[int, ...], b_shape: tuple[int, ...]) -> RuntimeError:
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


def broadcast_shape(a_shape: tuple[int, ...], b_shape: tuple[int, ...]) -> tuple[int, ...]:
    try:
        return np.broadcast_shapes(a_shape, b_shape)
    except ValueError:
        raise broadcast_error(a_shape, b_shape) from None


def sum_to(grad: Tensor, shape: tuple[int, ...]) -> Tensor:
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


def view_of(x: Tensor, array: np.ndarray) -> Tensor:
    """Wrap ``array``, the result of a view op on ``x``, as a tensor.

    When it shares ``x``'s memory (NumPy returned a view, as PyTorch would) it is a view:
    ``out._base`` is the tensor that owns the memory, and it shares ``x``'s version counter,
    so an in-place write through either one is seen by every node that saved the other. The
    owner keeps a weak list of its views, whose histories an in-place write re-makes.
    """
    out = x._new(array)
    data = x._data
    base = array.base
    # a NumPy view's .base is the array that owns the memory: when that is x's array (or x's
    # own base), they share memory for sure, without the slower may_share_memory
    if (base is not None and (base is data or base is data.base)) or \
            x._xp.may_share_memory(array, data):
        out._version_counter = x._shared_version_counter()
        out._base = owner = x if x._base is None else x._base
        if owner._views is None:
            owner._views = weakref.WeakSet()
        owner._views.add(out)  # see autograd/views.py
    return out


def same_device(*tensors: Tensor | None) -> None:
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


def check_reduction(reduction: str) -> None:
    """PyTorch's error for a loss's ``reduction`` other than 'mean', 'sum' or 'none'."""
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")


def reduce_loss(loss: np.ndarray, reduction: str) -> np.ndarray:
    """A loss per element, reduced as asked: its mean, its sum, or (``'none'``) as it is."""
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    if reduction == "none":
        return loss
    raise ValueError(f"{reduction} is not a valid value for reduction")


def int_power(xp, a, b):
    """a ** b for integer arrays, negative exponents included, as PyTorch computes it:
    the result truncates towards 0, so only 1 and -1 keep a non-zero value (NumPy refuses)."""
    negative = b < 0
    if not negative.any():
        return np.power(a, b)
    out = np.power(a, xp.where(negative, 0, b))
    odd = (b % 2) != 0
    special = xp.where(a == 1, 1, xp.where(a == -1, xp.where(odd, -1, 1), 0)).astype(out.dtype)
    return xp.where(negative, special, out)
