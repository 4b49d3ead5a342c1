"""``Tensor``: an array, its gradient, and the node that made it.

That is the whole idea (it is how early tinygrad put it): ``_data`` is a NumPy array (CuPy on a
GPU), ``grad`` collects dL/d(this tensor) during backward, and ``grad_fn`` is the graph node of
the operation that produced it (``None`` for tensors the user created: the leaves).

Everything else here is bookkeeping that PyTorch users rely on: ``requires_grad`` and its
rules, a version counter that catches in-place changes to saved tensors, hooks, and
conversions. The maths lives in ``autograd_course.ops``; the operator methods
(``+``, ``exp``, ``sum``...) come from ``TensorMath`` in ``_tensor_math.py``, and shape, dtype,
device and conversions (``to``, ``item``, ``numpy``...) from ``_tensor_convert.py``.
"""

from __future__ import annotations

import warnings
import weakref

from . import _backend, dtypes
from ._tensor_convert import Size, TensorConversions, _c_name, _type_name
from ._tensor_math import TensorMath
from ._tensor_str import tensor_repr
from .autograd import function as _function
from .autograd.function import AccumulateGrad, _RemovableHandle, _VersionCounter

__all__ = ["Size", "Tensor", "_type_name"]  # Size and _type_name are used from here too


_NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
    "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. "
    "If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor "
    "instead. See github.com/pytorch/pytorch/pull/30531 for more information."
)


_VIEW_NODES = frozenset({
    "ViewBackward0", "TransposeBackward0", "TBackward0", "PermuteBackward0",
    "UnsqueezeBackward0", "SqueezeBackward0", "SqueezeBackward1", "SqueezeBackward2",
    "SqueezeBackward4",
    "ExpandBackward0", "SelectBackward0", "SliceBackward0", "AliasBackward0",
})
_DETACH_VIEW_MESSAGE = (
    "Can't detach views in-place. Use detach() instead. If you are using "
    "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set as True, "
    "gradients are views of DDP buckets, and hence detach_() cannot be called on these "
    "gradients. To fix this error, please refer to the Optimizer.zero_grad() function in "
    "torch/optim/optimizer.py as the solution."
)


class Tensor(TensorMath, TensorConversions):
    """A multi-dimensional array that can record the operations applied to it."""

    __slots__ = (
        "_data", "_device", "_requires_grad", "grad_fn", "_grad", "_output_nr",
        "_vc", "_hooks", "_retains_grad", "_accumulator_ref", "name",
        "_inference", "__weakref__",
    )  # _inference is only ever set under inference_mode (unset reads as False)
    __array_priority__ = 1000  # numpy_scalar * tensor -> our __rmul__, not NumPy's

    def __init__(self, data=None, *, dtype=None, device=None, requires_grad: bool = False):
        from .creation import _to_array

        dev = _backend.as_device(device)
        array = _to_array([] if data is None else data, dtype or dtypes.float32, dev)
        self._init(array, dev)
        if requires_grad:
            self.requires_grad = True

    def _init(self, array, dev) -> None:
        self._data = array
        self._device = dev
        self._requires_grad = False
        self.grad_fn = None
        self._grad = None
        self._output_nr = 0
        self._vc = None  # the _VersionCounter, made on first use (see _version_counter)
        self._hooks = None
        self._retains_grad = False
        self._accumulator_ref = None
        self.name = None

    @classmethod
    def _wrap(cls, array, device=_backend.CPU) -> Tensor:
        """Make a tensor around an existing array without copying (the ops' fast path)."""
        t = _new_tensor(cls)
        t._init(array, device)
        return t

    def _new(self, array) -> Tensor:
        """A plain tensor around ``array`` on this tensor's device (how ops wrap results).

        Every op result is made here, so ``_init``'s assignments are written out again
        rather than called (keep the two in step).
        """
        t = _new_tensor(Tensor)
        t._data = array
        t._device = self._device
        t._requires_grad = False
        t.grad_fn = None
        t._grad = None
        t._output_nr = 0
        t._vc = None
        t._hooks = None
        t._retains_grad = False
        t._accumulator_ref = None
        t.name = None
        return t

    # --- autograd state ---------------------------------------------------------------------
    @property
    def requires_grad(self) -> bool:
        """Whether operations on this tensor are recorded so gradients can flow to it."""
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, flag: bool) -> None:
        if self.grad_fn is not None:
            message = "you can only change requires_grad flags of leaf variables."
            if not flag:
                message += (
                    " If you want to use a computed variable in a subgraph that doesn't "
                    "require differentiation use var_no_grad = var.detach()."
                )
            raise RuntimeError(message)
        if flag and self._data.dtype.kind not in "fc":
            raise RuntimeError(
                "only Tensors of floating point and complex dtype can require gradients"
            )
        self._requires_grad = bool(flag)

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        """Set ``requires_grad`` in place and return ``self`` (leaves only)."""
        if requires_grad and self._data.dtype.kind not in "fc":
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        self.requires_grad = requires_grad
        return self

    def is_inference(self) -> bool:
        """True for tensors made under ``inference_mode``."""
        return getattr(self, "_inference", False)

    @property
    def is_leaf(self) -> bool:
        """Leaves are tensors no recorded operation made; only they get ``.grad`` by default."""
        return self.grad_fn is None

    @property
    def grad(self):
        """dL/d(this tensor) after ``backward``; ``None`` before (and for non-leaves)."""
        if self.grad_fn is not None and not self._retains_grad:
            warnings.warn(_NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value) -> None:
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(
                    f"assigned grad expected to be a Tensor or None but got grad of type "
                    f"{type(value).__name__}"
                )
            if value.shape != self.shape:
                raise RuntimeError(
                    f"attempting to assign a gradient of size '{list(value.shape)}' to a tensor "
                    f"of size '{list(self.shape)}'. Please ensure that the gradient and the "
                    "tensor are the same size"
                )
            if value._data.dtype != self._data.dtype:
                raise RuntimeError(
                    f"attempting to assign a gradient with dtype '{_c_name(value._data.dtype)}' "
                    f"to a tensor with grad_dtype '{_type_name(self._data.dtype)[6:-6]}'. The "
                    "gradient must match the tensor's grad_dtype (defaults to the tensor's "
                    "dtype). You can set the tensor's grad_dtype attribute with a specific "
                    "dtype, or None to allow any dtype. Set grad_dtype with caution. Diverging "
                    "the dtypes of a tensor and its gradient may break downstream systems that "
                    "assume they match."
                )
        self._grad = value

    @property
    def retains_grad(self) -> bool:
        return self._retains_grad

    def retain_grad(self) -> None:
        """Ask backward to keep the gradient of this non-leaf tensor in ``.grad``."""
        if not self._requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self.grad_fn is None or self._retains_grad:
            return  # leaves keep their gradient anyway
        self.grad_fn.register_prehook(_RetainGrad(self), self._output_nr)
        self._retains_grad = True

    def register_hook(self, hook):
        """Call ``hook(grad)`` when this tensor's gradient is computed; it may return a new one."""
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is not None:
            return self.grad_fn.register_prehook(hook, self._output_nr)
        if self._hooks is None:
            self._hooks = []
        self._hooks.append(hook)
        return _RemovableHandle(self._hooks, hook)

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Run the backward pass from this tensor; leaves' ``.grad`` receive the gradients."""
        from .autograd import engine

        engine.backward(self, gradient, retain_graph, create_graph, inputs)

    def _edge(self):
        """The (node, output_nr) an operation's graph node links to for this input."""
        if self.grad_fn is not None:
            return (self.grad_fn, self._output_nr)
        if self._requires_grad:
            return (self._accumulator(), 0)
        return (None, 0)

    def _accumulator(self) -> AccumulateGrad:
        """The leaf's AccumulateGrad node, created once and held weakly (no cycle)."""
        node = self._accumulator_ref() if self._accumulator_ref is not None else None
        if node is None:
            node = AccumulateGrad(self)
            self._accumulator_ref = weakref.ref(node)
        return node

    def detach(self) -> Tensor:
        """A new leaf that shares this tensor's memory (and version counter): not a copy."""
        out = Tensor._wrap(self._data, self._device)
        out._version_counter = self._version_counter
        return out

    def detach_(self) -> Tensor:
        """Cut this tensor out of the graph in place: it becomes a leaf without grad.

        Views are refused, as in PyTorch (their base would still see the graph). We know a
        tensor is a view from the op that recorded it, so untracked views are not caught.
        """
        if self.grad_fn is not None and self.grad_fn.name() in _VIEW_NODES:
            raise RuntimeError(_DETACH_VIEW_MESSAGE)
        self.grad_fn, self._requires_grad = None, False
        return self

    def _alias(self) -> Tensor:
        """Same memory and version, new identity (used when forward returns an input)."""
        return self.detach()

    def _detached_copy(self) -> Tensor:
        return Tensor._wrap(self._data.copy(), self._device)

    @property
    def data(self) -> Tensor:
        """The same memory, outside autograd, and without bumping the version counter."""
        return Tensor._wrap(self._data, self._device)

    @data.setter
    def data(self, value: Tensor) -> None:
        self._data = value._data
        self._device = value._device

    @property
    def _version_counter(self) -> _VersionCounter:
        """The counter shared with every tensor that shares this one's memory."""
        vc = self._vc
        if vc is None:
            vc = self._vc = _VersionCounter()
        return vc

    @_version_counter.setter
    def _version_counter(self, counter: _VersionCounter) -> None:
        self._vc = counter

    @property
    def _version(self) -> int:
        return 0 if self._vc is None else self._vc.value

    def _bump_version(self) -> None:
        self._version_counter.value += 1

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        fn = self.grad_fn
        return tensor_repr(
            _backend.to_numpy(self._data),
            requires_grad=self._requires_grad,
            grad_fn_name=None if fn is None else fn.name(),
            device=None if self._device is _backend.CPU else str(self._device),
        )

    __str__ = __repr__

    def __reduce_ex__(self, protocol):
        return (_rebuild, (_backend.to_numpy(self._data), str(self._device), self._requires_grad))


_new_tensor = object.__new__
_function._tensor_class = Tensor  # Function.apply tells tensors from other arguments with it


class _RetainGrad:
    """The hook ``retain_grad()`` adds: store the gradient in ``.grad``. The engine runs it
    after the tensor's other hooks (as PyTorch does), so ``.grad`` shows their changes."""

    __slots__ = ("tensor",)
    runs_last = True

    def __init__(self, tensor: Tensor) -> None:
        self.tensor = weakref.ref(tensor)  # weak: the graph must not keep its outputs alive

    def __call__(self, grad) -> None:
        tensor = self.tensor()
        if tensor is not None:
            if tensor._grad is None:
                tensor._grad = grad.detach().clone()
            else:
                tensor._grad = tensor._grad + grad.detach()


def _rebuild(array, device, requires_grad):
    t = Tensor._wrap(_backend.to_device(array, _backend.as_device(device)),
                     _backend.as_device(device))
    t._requires_grad = requires_grad
    return t
