"""``Tensor``: an array, its gradient, and the node that made it.

The autograd state lives in ``TensorBase`` (tensor_base.py). Here: ``backward``, ``detach``,
``data``; and, in the ``class`` line, the methods, one group per file of ``tensor_methods/``:

- ``TensorOperators`` (operators.py): Python's operators, ``x + y``, ``x @ w``, ``x[i]``;
- ``TensorPointwise`` (pointwise.py): element by element, ``x.exp()``, ``x.eq(y)``;
- ``TensorReductions`` (reductions.py): along dimensions, ``x.sum()``, ``x.cumsum(0)``;
- ``TensorProducts`` (products.py): ``x.matmul(w)``, ``x.bmm(w)``, ``x.outer(y)``;
- ``TensorShape`` (shape.py): views and reshapes, ``x.view(2, 3)``, ``x.t()``, ``x.split(2)``;
- ``TensorIndexing`` (indexing.py): by index or mask, ``x.gather(1, i)``, ``x.masked_fill``;
- ``TensorSorting`` (sorting.py): ``x.sort()``, ``x.topk(3)``, ``x.unique()``;
- ``TensorInPlace`` (in_place.py): into the tensor itself, ``x.add_(y)``, ``x.zero_()``;
- ``TensorSampling`` (sampling.py): random draws, ``p.bernoulli()``, ``p.multinomial(2)``;
- ``TensorNewTensors`` (new_tensors.py): ``x.new_zeros(2, 3)``, ``x.new_tensor(data)``;
- ``TensorConversions`` (conversions.py): shape, dtype, device, ``to``, ``item``, ``numpy``;
- ``TensorPrinting`` (printing.py): ``repr(x)``, as PyTorch prints it;
- ``TensorOldAPI`` (``compat/old_tensor_api.py``): old code's ``x.volatile``, ``x._grad_fn``.
"""

from __future__ import annotations

import copy

import numpy as np

from . import _array, _backend, _messages, dtypes
from .autograd import engine
from .compat.old_tensor_api import TensorOldAPI
from .tensor_base import TensorBase
from .tensor_methods import (
    Size,
    TensorConversions,
    TensorIndexing,
    TensorInPlace,
    TensorNewTensors,
    TensorOperators,
    TensorPointwise,
    TensorPrinting,
    TensorProducts,
    TensorReductions,
    TensorSampling,
    TensorShape,
    TensorSorting,
)

__all__ = ["Size", "Tensor"]


class Tensor(TensorBase, TensorOperators, TensorPointwise, TensorReductions, TensorProducts,
             TensorShape, TensorIndexing, TensorSorting, TensorInPlace, TensorSampling,
             TensorNewTensors, TensorConversions, TensorPrinting, TensorOldAPI):
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
        out = self.data
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
        """The same memory, outside autograd, without bumping the version counter."""
        out = self._new(self._data)
        out._inference = self._inference
        return out

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
