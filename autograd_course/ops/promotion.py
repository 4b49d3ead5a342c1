"""Type promotion: the dtype an op computes in, and how PyTorch names a dtype in its errors.

One rule for every op: ``promote_types`` for two dtypes, ``result_type`` for an op's tensors
and numbers. ``can_cast`` / ``check_cast``: what an in-place op may write back into its
tensor. ``floating`` and ``cast_to`` bring tensors to the dtype an op computes in.
``scalar_type`` and ``not_implemented``: PyTorch's C++ names of dtypes (Float, Long...) and its
error for a kernel that has no version for a dtype.
"""

from __future__ import annotations

import numbers
from typing import TYPE_CHECKING

import numpy as np

from .. import dtypes
from ..tensor_base import TensorBase

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


_SCALAR_TYPES = {"float16": "Half", "float32": "Float", "float64": "Double", "int8": "Char",
                 "uint8": "Byte", "int16": "Short", "int32": "Int", "int64": "Long",
                 "bool": "Bool", "uint64": "UInt64"}


def scalar_type(t: Tensor | np.dtype) -> str:
    """PyTorch's C++ name for a tensor's dtype, as its messages print it: Float, Long..."""
    name = str(t._data.dtype if isinstance(t, TensorBase) else np.dtype(t))
    return _SCALAR_TYPES.get(name, name.capitalize())


def not_implemented(kernel: str, t: Tensor | np.dtype) -> NotImplementedError:
    """PyTorch's error for a kernel that has no version for ``t``'s dtype."""
    return NotImplementedError(f'"{kernel}" not implemented for \'{scalar_type(t)}\'')


def check_float(x: Tensor, kernel: str) -> None:
    """PyTorch's error for a kernel that has float versions only, given an integer or bool
    tensor."""
    if x._data.dtype.kind not in "fc":
        raise not_implemented(kernel, x)


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
