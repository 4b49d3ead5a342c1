"""The maths methods of ``Tensor`` (``x + y``, ``x.exp()``, ``x.sum()``...).

Each one is a single line that calls the op in ``autograd_course.ops``, where the forward and
backward formulas live; ``tensor.py`` combines these methods with the autograd state.
"""

from __future__ import annotations

import numpy as np

from . import _backend, dtypes, ops
from ._tensor_idioms import TensorIdioms
from .ops import rounding

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


class TensorMath(TensorIdioms):
    __slots__ = ()

    # --- operators --------------------------------------------------------------------------
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
        return ops.div(other, self)

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

    def __and__(self, other):
        return ops.bitwise_and(self, other)

    def __or__(self, other):
        return ops.bitwise_or(self, other)

    def __invert__(self):
        return ops.bitwise_not(self)

    def __getitem__(self, key):
        return ops.getitem(self, key)

    def __setitem__(self, key, value):
        ops.setitem(self, key, value)

    # --- arithmetic and element-wise functions ----------------------------------------------
    def add(self, other, *, alpha=1):
        return ops.add(self, other, alpha=alpha)

    def sub(self, other, *, alpha=1):
        return ops.sub(self, other, alpha=alpha)

    def mul(self, other):
        return ops.mul(self, other)

    def div(self, other, *, rounding_mode=None):
        return ops.div(self, other, rounding_mode=rounding_mode)

    divide = true_divide = div

    def pow(self, exponent):
        return ops.pow(self, exponent)

    def reciprocal(self):
        return ops.reciprocal(self)

    def neg(self):
        return ops.neg(self)

    def exp(self):
        return ops.exp(self)

    def log(self):
        return ops.log(self)

    def sqrt(self):
        return ops.sqrt(self)

    def abs(self):
        return ops.abs(self)

    def sign(self):
        return ops.sign(self)

    def sin(self):
        return ops.sin(self)

    def cos(self):
        return ops.cos(self)

    def tanh(self):
        return ops.tanh(self)

    def sigmoid(self):
        return ops.sigmoid(self)

    def relu(self):
        return ops.relu(self)

    def clamp(self, min=None, max=None):
        return ops.clamp(self, min, max)

    clip = clamp

    def maximum(self, other):
        return ops.maximum(self, other)

    def minimum(self, other):
        return ops.minimum(self, other)

    # --- reductions -------------------------------------------------------------------------
    def sum(self, dim=None, keepdim=False, *, dtype=None):
        return ops.sum(self, dim, keepdim, dtype=dtype)

    def mean(self, dim=None, keepdim=False, *, dtype=None):
        return ops.mean(self, dim, keepdim, dtype=dtype)

    def max(self, dim=None, keepdim=False):
        return ops.max(self, dim, keepdim)

    def min(self, dim=None, keepdim=False):
        return ops.min(self, dim, keepdim)

    def amax(self, dim=None, keepdim=False):
        return ops.amax(self, dim, keepdim)

    def amin(self, dim=None, keepdim=False):
        return ops.amin(self, dim, keepdim)

    def argmax(self, dim=None, keepdim=False):
        return ops.argmax(self, dim, keepdim)

    def argmin(self, dim=None, keepdim=False):
        return ops.argmin(self, dim, keepdim)

    def var(self, dim=None, unbiased=None, keepdim=False, *, correction=None):
        return ops.var(self, dim, unbiased, keepdim, correction=correction)

    def std(self, dim=None, unbiased=None, keepdim=False, *, correction=None):
        return ops.std(self, dim, unbiased, keepdim, correction=correction)

    def norm(self, p=2, dim=None, keepdim=False):
        return ops.norm(self, p, dim, keepdim)

    def sum_to_size(self, *size):
        return ops.sum_to_size(self, *size)

    def all(self, dim=None, keepdim=False):
        return ops.all(self, dim, keepdim)

    def any(self, dim=None, keepdim=False):
        return ops.any(self, dim, keepdim)

    # --- shape ------------------------------------------------------------------------------
    def reshape(self, *shape):
        return ops.reshape(self, *shape)

    def view(self, *shape):
        return ops.view(self, *shape)

    def view_as(self, other):
        return ops.view(self, other.shape)

    def flatten(self, start_dim=0, end_dim=-1):
        return ops.flatten(self, start_dim, end_dim)

    def transpose(self, dim0, dim1):
        return ops.transpose(self, dim0, dim1)

    def t(self):
        return ops.t(self)

    @property
    def T(self):  # PyTorch's name
        return ops.numpy_t(self)

    @property
    def mT(self):
        return ops.matrix_transpose(self)

    def permute(self, *dims):
        return ops.permute(self, *dims)

    def unsqueeze(self, dim):
        return ops.unsqueeze(self, dim)

    def squeeze(self, dim=None):
        return ops.squeeze(self, dim)

    def expand(self, *shape):
        return ops.expand(self, *shape)

    def expand_as(self, other):
        return ops.expand(self, other.shape)

    def select(self, dim, index):
        return ops.select(self, dim, index)

    def clone(self):
        return ops.clone(self)

    def matmul(self, other):
        return ops.matmul(self, other)

    def mm(self, other):
        return ops.mm(self, other)

    def mv(self, other):
        return ops.mv(self, other)

    def dot(self, other):
        return ops.dot(self, other)

    def where(self, condition, other):
        return ops.where(condition, self, other)

    # --- comparisons ------------------------------------------------------------------------
    def eq(self, other):
        return ops.eq(self, other)

    def ne(self, other):
        return ops.ne(self, other)

    def lt(self, other):
        return ops.lt(self, other)

    def le(self, other):
        return ops.le(self, other)

    def gt(self, other):
        return ops.gt(self, other)

    def ge(self, other):
        return ops.ge(self, other)

    def equal(self, other):
        return ops.equal(self, other)

    def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        return ops.allclose(self, other, rtol, atol, equal_nan)

    def isnan(self):
        return ops.isnan(self)

    def logical_not(self):
        return ops.logical_not(self)

    # --- in place ---------------------------------------------------------------------------
    def add_(self, other, *, alpha=1):
        return ops.add_(self, other, alpha=alpha)

    def sub_(self, other, *, alpha=1):
        return ops.sub_(self, other, alpha=alpha)

    def mul_(self, other):
        return ops.mul_(self, other)

    def div_(self, other, *, rounding_mode=None):
        return ops.div_(self, other, rounding_mode=rounding_mode)

    def clamp_(self, min=None, max=None):
        return ops.clamp_(self, min, max)

    def zero_(self):
        return ops.zero_(self)

    def fill_(self, value):
        return ops.fill_(self, value)

    def copy_(self, src):
        return ops.copy_(self, src)

