"""``Tensor``'s methods that make a new tensor like this one, in its dtype and on its device
unless told otherwise: ``x.new_zeros(2, 3)``, ``x.new_ones``, ``x.new_full``, ``x.new_empty``,
``x.new_tensor(data)``, and old code's ``x.new(...)``.
"""

from __future__ import annotations

import numpy as np

from .. import _backend, dtypes


class TensorNewTensors:
    """Mixed into ``Tensor``: new leaves made like this tensor."""

    __slots__ = ()

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
