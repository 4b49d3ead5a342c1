"""``Tensor``: an array, its gradient, and the node that made it.

The autograd state (``requires_grad``, ``grad_fn``, ``grad``, the version counter, hooks)
lives in ``TensorBase`` (tensor_base.py), below the ops and the engine. This class adds the
methods, from three groups kept in their own files:

- ``TensorMath`` (_tensor_math.py): operators and maths, ``x + y``, ``x.exp()``, ``x.sum()``;
  each method is one call to an op in ``autograd_course.ops``;
- ``TensorConversions`` (_tensor_convert.py): shape, dtype, device, ``to``, ``item``, ``numpy``;
- and, here, what connects a tensor to autograd: ``backward``, ``detach``, ``data``.
"""

from __future__ import annotations

import copy

import numpy as np

from . import _array, _backend, _messages, dtypes
from ._tensor_convert import Size, TensorConversions
from ._tensor_math import TensorMath
from ._tensor_str import tensor_repr
from .autograd import engine
from .tensor_base import TensorBase

__all__ = ["Size", "Tensor"]


class Tensor(TensorBase, TensorMath, TensorConversions):
    """A multi-dimensional array that can record the operations applied to it."""

    __slots__ = ()

    def __init__(self, data=None, *, dtype=None, device=None, requires_grad: bool = False):
        device = _backend.as_device(device)
        array = _array.to_array([] if data is None else data, dtype or dtypes.float32, device)
        self._init(array, device)
        if requires_grad:
            self.requires_grad = True

    def _new(self, array) -> Tensor:
        """A plain tensor around ``array`` on this tensor's device (how ops wrap results)."""
        if array.ndim == 0 and isinstance(array, np.generic):  # NumPy's scalar for a 0-d result
            array = np.asarray(array)  # becomes a 0-d array
        t = object.__new__(Tensor)
        t._init(array, self._device)
        return t

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Run the backward pass from this tensor; leaves' ``.grad`` receive the gradients."""
        engine.backward(self, gradient, retain_graph, create_graph, inputs)

    def detach(self) -> Tensor:
        """A new leaf that shares this tensor's memory (and version counter): not a copy."""
        out = self._new(self._data)
        out._version_counter = self._shared_version_counter()
        return out

    def detach_(self) -> Tensor:
        """Cut this tensor out of the graph in place: it becomes a leaf without grad.

        Views are refused, as in PyTorch: their base would still be in the graph.
        """
        if self._is_view():
            raise RuntimeError(_messages.DETACH_VIEW)
        self.grad_fn, self._requires_grad = None, False
        return self

    @property
    def data(self) -> Tensor:
        """The same memory, outside autograd, and without bumping the version counter."""
        return self._new(self._data)

    @data.setter
    def data(self, value: Tensor) -> None:
        if not isinstance(value, TensorBase):
            raise TypeError(f"Variable data has to be a tensor, but got {type(value).__name__}")
        if self._requires_grad and value._data.dtype.kind not in "fc":
            raise RuntimeError("data set to a tensor that requires gradients must be floating "
                               "point or complex dtype")
        if value._data.dtype != self._data.dtype or value._device != self._device:
            self._accumulate_grad = None  # as PyTorch: a new AccumulateGrad for the new type
        self._data = value._data
        self._device = value._device

    @data.deleter
    def data(self) -> None:
        raise RuntimeError("Deleting tensor data is not allowed. Delete tensor instead!")

    def __repr__(self) -> str:
        fn = self.grad_fn
        return tensor_repr(
            _backend.to_numpy(self._data),
            requires_grad=self._requires_grad,
            grad_fn_name=None if fn is None else fn.name().split("::")[-1],  # as PyTorch
            device=None if self._device is _backend.CPU else str(self._device),
        )

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        """``f"{loss:.4f}"``: a 0-d tensor formats as its number; others as their repr (and
        refuse a format spec), as in PyTorch; so does a subclass such as ``Parameter``."""
        if self._data.ndim == 0 and type(self) is Tensor:
            return self.item().__format__(spec)
        return object.__format__(self, spec)

    def __deepcopy__(self, memo: dict) -> Tensor:
        """A leaf's copy: new memory, the same ``requires_grad``, a copy of ``.grad``."""
        if self.grad_fn is not None:
            raise RuntimeError(_messages.DEEPCOPY_NON_LEAF)
        new = type(self)._wrap(self._data.copy(), self._device)
        new._requires_grad = self._requires_grad
        memo[id(self)] = new
        if self._grad is not None:
            new._grad = copy.deepcopy(self._grad, memo)
        return new

    def __reduce_ex__(self, protocol):
        return (_rebuild, (_backend.to_numpy(self._data), str(self._device), self._requires_grad))


def _rebuild(array, device, requires_grad) -> Tensor:
    device = _backend.as_device(device)
    t = Tensor._wrap(_backend.to_device(array, device), device)
    t._requires_grad = requires_grad
    return t
