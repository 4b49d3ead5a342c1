"""``Tensor``'s Python operators: ``x + y``, ``2 * x``, ``x @ w``, ``x == y``, ``x[i]``,
``x += 1``, ``~mask``...

Each is one call to the op in ``autograd_course.ops``; an operator with a NumPy operand first
turns it into what PyTorch makes of it (``_numpy_operands``). The named methods the operators
stand for (``x.add(y)``, ``x.eq(y)``, ``x.add_(y)``) are in pointwise.py and in_place.py.
"""

from __future__ import annotations

import numpy as np

from .. import _backend, dtypes, ops
from ..ops import inplace, rounding

_NUMPY_VALUES = (np.ndarray, np.generic)


def _numpy_operands(x, other):
    """``x`` and a NumPy value, as PyTorch takes them. A NumPy scalar (``np.float64(2)``,
    ``np.bool_(True)``) is the Python number it holds. An array: PyTorch hands the expression
    to NumPy, so NumPy's promotion decides the dtype (float32 with an int64 array gives
    float64), and a tensor that requires grad is refused (NumPy would drop its graph)."""
    if isinstance(other, np.generic):
        return x, other.item()
    if x._requires_grad:
        raise RuntimeError(
            "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() "
            "instead.")
    target = np.result_type(x._data.dtype, other.dtype)
    dtypes.from_numpy(target)  # PyTorch's error for a dtype it does not have
    array = x._new(_backend.to_device(np.asarray(other, dtype=target), x._device))
    return (x if x._data.dtype == target else x.to(dtypes.from_numpy(target))), array


class TensorOperators:
    """Mixed into ``Tensor``: the operators of Python's data model."""

    __slots__ = ()

    # --- arithmetic -------------------------------------------------------------------------
    # Each checks first for a NumPy operand (one isinstance), then calls the op.
    def __add__(self, other):
        if isinstance(other, _NUMPY_VALUES):
            self, other = _numpy_operands(self, other)
        return ops.add(self, other)

    __radd__ = __add__  # PyTorch keeps the tensor first: 2 + x records x + 2

    def __sub__(self, other):
        if isinstance(other, _NUMPY_VALUES):
            self, other = _numpy_operands(self, other)
        return ops.sub(self, other)

    def __rsub__(self, other):  # 2 - x: PyTorch's RsubBackward1
        if isinstance(other, _NUMPY_VALUES):
            self, other = _numpy_operands(self, other)
        return ops.rsub(self, other)

    def __mul__(self, other):
        if isinstance(other, _NUMPY_VALUES):
            self, other = _numpy_operands(self, other)
        return ops.mul(self, other)

    __rmul__ = __mul__  # PyTorch keeps the tensor first: 3 * x records x * 3

    def __truediv__(self, other):
        if isinstance(other, _NUMPY_VALUES):
            self, other = _numpy_operands(self, other)
        return ops.div(self, other)

    def __rtruediv__(self, other):
        if isinstance(other, _NUMPY_VALUES):
            self, other = _numpy_operands(self, other)
        return ops.rdiv(self, other)

    def __floordiv__(self, other):
        if isinstance(other, _NUMPY_VALUES):
            self, other = _numpy_operands(self, other)
        return rounding.floor_divide(self, other)

    def __rfloordiv__(self, other):
        if isinstance(other, _NUMPY_VALUES):
            self, other = _numpy_operands(self, other)
        return rounding.floor_divide(other, self)

    def __mod__(self, other):
        if isinstance(other, _NUMPY_VALUES):
            self, other = _numpy_operands(self, other)
        return rounding.remainder(self, other)

    def __rmod__(self, other):
        if isinstance(other, _NUMPY_VALUES):
            self, other = _numpy_operands(self, other)
        return rounding.remainder(other, self)

    def __pow__(self, other):
        if isinstance(other, _NUMPY_VALUES):
            self, other = _numpy_operands(self, other)
        return ops.pow(self, other)

    def __rpow__(self, other):
        if isinstance(other, _NUMPY_VALUES):
            self, other = _numpy_operands(self, other)
        return ops.pow(other, self)

    def __matmul__(self, other):
        if not ops.is_tensor(other):  # x @ 2 is a TypeError, as for PyTorch
            return NotImplemented
        return ops.matmul(self, other)

    def __rmatmul__(self, other):
        if not ops.is_tensor(other):
            return NotImplemented
        return ops.matmul(other, self)

    def __neg__(self):
        return ops.neg(self)

    def __pos__(self):
        return self

    def __abs__(self):
        return ops.abs(self)

    # --- in place: x += y (the tensor itself changes) ---------------------------------------
    def __iadd__(self, other):
        return ops.add_(self, other)

    def __isub__(self, other):
        return ops.sub_(self, other)

    def __imul__(self, other):
        return ops.mul_(self, other)

    def __itruediv__(self, other):
        return ops.div_(self, other)

    def __ifloordiv__(self, other):
        return self.floor_divide_(other)

    def __imod__(self, other):
        return self.remainder_(other)

    def __ipow__(self, exponent):
        return inplace.pow_(self, exponent)

    def __ixor__(self, other):
        return inplace.bitwise_xor_(self, other)

    # --- comparisons: element by element, a bool tensor --------------------------------------
    def __eq__(self, other):
        return False if other is None else ops.eq(self, other)

    def __ne__(self, other):
        return True if other is None else ops.ne(self, other)

    def __lt__(self, other):
        return ops.lt(self, other)

    def __le__(self, other):
        return ops.le(self, other)

    def __gt__(self, other):
        return ops.gt(self, other)

    def __ge__(self, other):
        return ops.ge(self, other)

    # --- bits (and logic, on bool tensors) ---------------------------------------------------
    def __and__(self, other):
        return ops.bitwise_and(self, other)

    def __or__(self, other):
        return ops.bitwise_or(self, other)

    def __xor__(self, other):
        return ops.bitwise_xor(self, other)

    __rand__, __ror__, __rxor__ = __and__, __or__, __xor__  # symmetric: True | x is x | True

    def __invert__(self):
        return ops.bitwise_not(self)

    # --- indexing: x[i], x[mask] = 0 ----------------------------------------------------------
    def __getitem__(self, key):
        return ops.getitem(self, key)

    def __setitem__(self, key, value):
        ops.setitem(self, key, value)
