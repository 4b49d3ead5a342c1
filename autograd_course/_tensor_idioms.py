"""More of ``Tensor``'s methods: the everyday idioms of PyTorch code that are not plain
maths: ``masked_fill``, ``index_put_``, ``narrow``, ``stride``, ``new_zeros``, ``type_as``,
``floor_divide``/``remainder`` as methods, ``softmax(dim, dtype=)``, the in-place forms of
the element-wise ops (``x.relu_()``, ``x.exp_()``, ``x.pow_(2)``)...

``TensorMath`` (``_tensor_math.py``) inherits them, so ``Tensor`` gets them with the rest.
"""

from __future__ import annotations

import warnings

import numpy as np

from . import _backend, dtypes, ops
from ._tensor_more import TensorMoreOps
from .autograd.variable import VOLATILE
from .ops import draws, inplace, masking, rounding, strided
from .ops.activations.softmax import log_softmax as _log_softmax
from .ops.activations.softmax import softmax as _softmax
from .ops.dims import normalize_dim


def _written_in_place(name: str):
    """The method ``name_`` (``x.exp_()`` for ``name="exp"``): ``x.name()`` written into x."""

    def method(self):
        return inplace.unary_(self, name)

    method.__name__ = method.__qualname__ = name + "_"
    method.__doc__ = f"``{name}`` written into this tensor itself (PyTorch's ``{name}_``)."
    return method


class TensorIdioms(TensorMoreOps):
    __slots__ = ()

    # --- element-wise ops written into the tensor itself: x.exp_(), x.relu_()... -----------
    relu_, sigmoid_, tanh_ = map(_written_in_place, ("relu", "sigmoid", "tanh"))
    exp_, log_, sqrt_, reciprocal_ = map(_written_in_place, ("exp", "log", "sqrt", "reciprocal"))
    abs_, neg_, sign_, sin_, cos_ = map(_written_in_place, ("abs", "neg", "sign", "sin", "cos"))

    def pow_(self, exponent):
        return inplace.pow_(self, exponent)

    __ipow__ = pow_

    # --- rounding division, masks and index writes ------------------------------------------
    def floor_divide(self, other):
        return rounding.floor_divide(self, other)

    def remainder(self, other):
        return rounding.remainder(self, other)

    def floor_divide_(self, other):
        return inplace.floor_divide_(self, other)

    def remainder_(self, other):
        return inplace.remainder_(self, other)

    # --- exclusive or: x ^ y -------------------------------------------------------------
    def bitwise_xor(self, other):
        return ops.bitwise_xor(self, other)

    __xor__ = __rxor__ = bitwise_xor  # symmetric, so 3 ^ x is x ^ 3

    def bitwise_xor_(self, other):
        return inplace.bitwise_xor_(self, other)

    __ixor__ = bitwise_xor_

    def masked_fill(self, mask, value):
        return masking.masked_fill(self, mask, value)

    def masked_fill_(self, mask, value):
        return masking.masked_fill_(self, mask, value)

    def index_put_(self, indices, values, accumulate=False):
        return masking.index_put_(self, indices, values, accumulate)

    def index_put(self, indices, values, accumulate=False):
        return masking.index_put_(self.clone(), indices, values, accumulate)

    def bernoulli(self, p=None, *, generator=None):
        return draws.bernoulli(self, p, generator=generator)

    def bernoulli_(self, p=0.5, *, generator=None):
        return draws.bernoulli_(self, p, generator=generator)

    def as_strided(self, size, stride, storage_offset=None):
        return strided.as_strided(self, size, stride, storage_offset)

    def nonzero(self, *, as_tuple=False):
        return masking.nonzero(self, as_tuple=as_tuple)

    def argwhere(self):
        return masking.argwhere(self)

    def leaky_relu(self, negative_slope=0.01):
        return ops.leaky_relu(self, negative_slope)

    def softmax(self, dim, dtype=None):
        return _softmax(self, dim, dtype=dtype)

    def log_softmax(self, dim, dtype=None):
        return _log_softmax(self, dim, dtype=dtype)

    def type_as(self, other):
        return self.to(other.dtype)

    # --- memory layout ----------------------------------------------------------------------
    def narrow(self, dim, start, length):
        """Elements ``start`` to ``start + length`` along ``dim`` (a view, as ``x[..., a:b]``)."""
        dim = normalize_dim(dim, self.ndim)
        size = self.shape[dim]
        start = int(start) + size if int(start) < 0 else int(start)
        if not 0 <= start <= size or length < 0 or start + length > size:
            raise RuntimeError(
                f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
        return self[(slice(None),) * dim + (slice(start, start + length),)]

    def stride(self, dim=None):
        """Steps in elements (not bytes) between neighbours along each dimension."""
        steps = tuple(s // self._data.itemsize for s in self._data.strides)
        if self._data.ndim and not self._data.size:  # PyTorch: contiguous strides when empty
            steps = _contiguous_strides(self._data.shape)
        return steps if dim is None else steps[dim]

    def is_contiguous(self, memory_format=None):
        """True when the elements lie in memory row by row, without gaps (C order); the step
        along a dimension of size 1 does not matter, since it is never taken."""
        if self._data.size <= 1:
            return True
        shape = self._data.shape
        return all(s == c for s, c, n in zip(self.stride(), _contiguous_strides(shape), shape)
                   if n != 1)

    def contiguous(self, memory_format=None):
        """``self`` when already contiguous, else a row-major copy (``CloneBackward0``)."""
        return self if self.is_contiguous() else ops.clone(self)

    # --- new tensors like this one (its dtype and device unless told otherwise) -------------
    def _made(self, array_of, size, dtype, device, requires_grad):
        """A new leaf from ``array_of(shape, numpy_dtype)`` on ``device`` (default: ours)."""
        dev = self._device if device is None else _backend.as_device(device)
        np_dtype = self._data.dtype if dtype is None else dtypes.to_numpy(dtype)
        if len(size) == 1 and not isinstance(size[0], int):
            size = tuple(size[0])
        array = _backend.to_device(array_of(tuple(int(n) for n in size), np_dtype), dev)
        out = self._new(array)
        out._device = dev
        return out.requires_grad_() if requires_grad else out

    @property
    def volatile(self) -> bool:
        """Old code's flag (before ``no_grad`` existed): always False now, with a warning."""
        warnings.warn("volatile was removed (Variable.volatile is always False)", UserWarning,
                      stacklevel=2)
        return False

    @volatile.setter
    def volatile(self, value) -> None:
        warnings.warn(VOLATILE, UserWarning, stacklevel=2)

    @property
    def _grad_fn(self):
        """PyTorch's other name for ``grad_fn``; it cannot be deleted (detach instead)."""
        return self.grad_fn

    @_grad_fn.deleter
    def _grad_fn(self) -> None:
        raise RuntimeError("Deletion of _grad_fn not allowed. Detach tensor instead!")

    def _refuse_backward_hooks_deletion(self) -> None:
        raise RuntimeError("Deletion of _backwards_hooks not allowed!")

    # PyTorch's dict of tensor hooks is not kept here (register_hook is); only deleting it
    # is answered, as PyTorch answers it
    _backward_hooks = property(None, None, _refuse_backward_hooks_deletion)

    def new(self, *args, device=None):
        """Old code's constructor: ``x.new(2, 3)`` (uninitialized in PyTorch, zeros here),
        ``x.new([1, 2])`` (data), ``x.new()`` (empty), ``x.new(t)`` (``t``'s memory), all in
        this tensor's dtype and on its device. New code writes ``x.new_zeros``/``new_tensor``."""
        if not args:
            return self.new_empty(0, device=device)
        if len(args) == 1 and hasattr(args[0], "_data"):
            if args[0].dtype is not self.dtype:
                raise TypeError(f"expected {self.dtype} (got {args[0].dtype})")
            return args[0].detach()
        if len(args) == 1 and not isinstance(args[0], (int, np.integer, tuple)) or (
                len(args) == 1 and type(args[0]) is tuple):
            return self.new_tensor(args[0], device=device)
        return self.new_empty(*args, device=device)

    def new_tensor(self, data, *, dtype=None, device=None, requires_grad=False):
        if hasattr(data, "_data"):  # a tensor: its values, copied
            data = _backend.to_numpy(data._data)
        return self._made(lambda shape, dt: np.array(data, dtype=dt), (), dtype, device,
                          requires_grad)

    def new_zeros(self, *size, dtype=None, device=None, requires_grad=False):
        return self._made(np.zeros, size, dtype, device, requires_grad)

    def new_ones(self, *size, dtype=None, device=None, requires_grad=False):
        return self._made(np.ones, size, dtype, device, requires_grad)

    def new_empty(self, *size, dtype=None, device=None, requires_grad=False):
        return self._made(np.zeros, size, dtype, device, requires_grad)

    def new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False):
        return self._made(lambda shape, dt: np.full(shape, fill_value, dtype=dt), (size,),
                          dtype, device, requires_grad)


def _contiguous_strides(shape) -> tuple:
    steps, step = [], 1
    for n in reversed(shape):
        steps.append(step)
        step *= max(n, 1)
    return tuple(reversed(steps))
