"""Helpers the built-in ops share: turning Python numbers into tensors, type promotion,
broadcasting errors, and summing a broadcast gradient back to an input's shape."""

from __future__ import annotations

import numbers
import warnings
from typing import TYPE_CHECKING

import numpy as np

from .. import dtypes
from ..autograd import views
from ..tensor_base import TensorBase

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


def is_tensor(value: object) -> bool:
    return isinstance(value, TensorBase)


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


def _as_operand(value, dtype: np.dtype, like: Tensor) -> Tensor:
    """An operand (a tensor or a Python number) converted *from its own type* to ``dtype``."""
    if not isinstance(value, TensorBase):
        return like._new(number_array(like._xp, value, dtype))
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
            return a, a._new(number)
    if a_tensor and b_tensor:
        if a._device is not b._device and a._device != b._device:
            a, b = _same_device(a, b)
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


def _same_device(a: Tensor, b: Tensor) -> tuple[Tensor, Tensor]:
    """PyTorch takes a 0-d CPU tensor next to a GPU tensor as a number (copied over)."""
    if b._data.ndim == 0 and b._device.type == "cpu":
        return a, b.to(a._device)
    if a._data.ndim == 0 and a._device.type == "cpu":
        return a.to(b._device), b
    raise RuntimeError(
        "Expected all tensors to be on the same device, but found at least two "
        f"devices, {a._device} and {b._device}!"
    )


def can_cast(source: np.dtype, target: np.dtype) -> bool:
    """PyTorch's ``can_cast``, which an in-place op's result must pass to be written into
    its tensor: never float to integer or bool, never integer to bool."""
    source, target = np.dtype(source), np.dtype(target)
    if source.kind in "fc" and target.kind in "iub":
        return False
    return not (target.kind == "b" and source.kind != "b")


def check_cast(result: Tensor, x: Tensor) -> None:
    """PyTorch's error when an in-place op's result type cannot be written into ``x``."""
    if not can_cast(result._data.dtype, x._data.dtype):
        raise RuntimeError(
            f"result type {scalar_type(result)} can't be cast to the desired output type "
            f"{scalar_type(x)}")


_SCALAR_TYPES = {"float16": "Half", "float32": "Float", "float64": "Double", "int8": "Char",
                 "uint8": "Byte", "int16": "Short", "int32": "Int", "int64": "Long",
                 "bool": "Bool", "uint64": "UInt64"}


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
    if np.dtype(np.uint64) in (a, b):  # a Python int from 2**63 to 2**64 (dtypes.number_dtype)
        raise RuntimeError("Promotion for uint16, uint32, uint64 types is not supported, "
                           f"attempted to promote {scalar_type(a)} and {scalar_type(b)}")
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


def view_of(x: Tensor, array: np.ndarray, multiple_outputs: bool = False) -> Tensor:
    """Wrap ``array``, the result of a view op on ``x``, as a tensor.

    When it shares ``x``'s memory (NumPy returned a view, as PyTorch would) it is a view:
    ``out._base`` is the tensor that owns the memory, and it shares ``x``'s version counter,
    so an in-place write through either one is seen by every node that saved the other. The
    owner keeps a weak list of its views, whose histories an in-place write re-makes
    (autograd/views.py; ``multiple_outputs``: one of several views made together).
    """
    out = x._new(array)
    data = x._data
    base = array.base
    # a NumPy view's .base is the array that owns the memory: when that is x's array (or x's
    # own base), they share memory for sure, without the slower may_share_memory
    if (base is not None and (base is data or base is data.base)) or \
            x._xp.may_share_memory(array, data):
        views.register_view(out, x, multiple_outputs)
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


def legacy_reduction(size_average: bool | None, reduce: bool | None, reduction: str) -> str:
    """The old ``size_average``/``reduce`` arguments of the losses, read as PyTorch reads them
    (``reduce=False``: 'none'; else ``size_average=False``: 'sum'; else 'mean'), with its
    warning; ``reduction`` itself when neither is given."""
    if size_average is None and reduce is None:
        return reduction
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    result = "none" if not reduce else "mean" if size_average else "sum"
    warnings.warn(f"size_average and reduce args will be deprecated, please use "
                  f"reduction='{result}' instead.", UserWarning, stacklevel=3)
    return result


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
