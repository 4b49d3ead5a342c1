"""``TensorBase``: the autograd state of a tensor, below everything that computes with it.

A tensor is an array plus four pieces of autograd state (PyTorch keeps the same ones in its
C++ ``TensorBase``, under the Python ``Tensor`` class):

- ``requires_grad``: should operations on it be recorded?
- ``grad_fn``: the graph node of the operation that made it (``None`` for a leaf);
- ``grad``: where ``backward`` leaves dL/d(this tensor), for leaves;
- ``_version``: how many times it was changed in place (a saved tensor checks this).
"""

from __future__ import annotations

import warnings

from . import _backend, _messages, autograd_state
from .handles import RemovableHandle  # (what register_hook returns; importable from here)


class TensorBase:
    """An array with autograd state. ``Tensor`` (tensor.py) adds the methods."""

    __slots__ = (  # what every tensor sets when it is made
        "_data",             # the values: a NumPy array (CuPy on a GPU)
        "_device",
        "_requires_grad",
        "grad_fn",           # the node that made this tensor; None for a leaf
        "_grad",
        "_output_nr",        # which output of grad_fn this tensor is
        "_version_counter",  # shared by the tensors on this memory (None until one is needed)
        "__dict__",          # what few tensors get, set only then (the defaults below)
        "__weakref__",
    )
    _base = None             # for a view: the tensor whose memory it looks at
    _views = None            # for a base: a weakref.WeakSet of its views (autograd/views.py)
    _creation_meta = None    # for a view: how it was made, if writing into it is refused
    _hooks = None            # a leaf's gradient hooks (a non-leaf's live on its grad_fn)
    _post_accumulate_grad_hooks = None  # a leaf's hooks run after its .grad was updated
    _retains_grad = False
    _accumulate_grad = None  # a leaf's AccumulateGrad node, held weakly (autograd/graph.py)
    _grad_dtype = "own"      # a leaf's grad_dtype: "own" (its dtype), None (any) or a NumPy dtype
    _inference = False       # made under inference_mode (or a view of such a tensor)
    _fw_grad = None          # forward mode: (level, tangent) once set (autograd/forward_ad.py)
    name = None
    __array_priority__ = 1000  # numpy_scalar * tensor -> our __rmul__, not NumPy's

    def _init(self, array, device) -> None:
        self._data = array
        self._device = device
        self._requires_grad = False
        self.grad_fn = None
        self._grad = None
        self._output_nr = 0
        self._version_counter = None
        if autograd_state.state.inference:  # every tensor made in inference mode is one
            self._inference = True

    @classmethod
    def _wrap(cls, array, device=_backend.CPU):
        """A tensor around an existing array, without copying it."""
        t = object.__new__(cls)
        t._init(array, device)
        return t

    # --- requires_grad and leaves ------------------------------------------------------------
    @property
    def requires_grad(self) -> bool:
        """Whether operations on this tensor are recorded so gradients can flow to it."""
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, flag: bool) -> None:
        if self.grad_fn is not None:
            raise RuntimeError(_messages.set_requires_grad_non_leaf(flag))
        if flag and self._data.dtype.kind not in "fc":
            raise RuntimeError(_messages.REQUIRES_GRAD_DTYPE)
        if flag and self._inference and not autograd_state.state.inference:
            raise RuntimeError(_messages.INFERENCE_REQUIRES_GRAD)
        self._requires_grad = bool(flag)

    @requires_grad.deleter
    def requires_grad(self) -> None:
        raise RuntimeError("requires_grad must be a bool")  # PyTorch's answer to del

    def requires_grad_(self, requires_grad: bool = True):
        """Set ``requires_grad`` in place and return ``self`` (a non-leaf: only ``True``, which
        it has already)."""
        if requires_grad and self._data.dtype.kind not in "fc":
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        if not (requires_grad and self.grad_fn is not None):
            self.requires_grad = requires_grad
        return self

    @property
    def is_leaf(self) -> bool:
        """Leaves are tensors no recorded operation made; only they get ``.grad`` by default."""
        return self.grad_fn is None

    def is_inference(self) -> bool:
        """True for tensors made under ``inference_mode``, and views of them."""
        return self._inference

    # --- the gradient ------------------------------------------------------------------------
    @property
    def grad(self):
        """dL/d(this tensor) after ``backward``; ``None`` before (and for non-leaves)."""
        if self.grad_fn is not None and not self._retains_grad:
            warnings.warn(_messages.NON_LEAF_GRAD, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value) -> None:
        if value is not None:
            if not isinstance(value, TensorBase):
                raise TypeError(_messages.grad_type(value))
            if value._data.shape != self._data.shape:
                raise RuntimeError(_messages.grad_size(value._data.shape, self._data.shape))
            allowed = self._grad_numpy_dtype()
            if allowed is not None and value._data.dtype != allowed:
                raise RuntimeError(_messages.grad_dtype(value._data.dtype, allowed))
        self._grad = value

    def _grad_numpy_dtype(self):
        """The dtype a leaf's gradient must have, or is cast to (None: any, kept as it comes):
        the tensor's own unless ``grad_dtype`` was set (tensor_methods/conversions.py)."""
        return self._data.dtype if self._grad_dtype == "own" else self._grad_dtype

    @grad.deleter
    def grad(self) -> None:
        self._grad = None  # del x.grad is x.grad = None

    @property
    def retains_grad(self) -> bool:
        return self._retains_grad

    def retain_grad(self) -> None:
        """Ask backward to keep the gradient of this non-leaf tensor in ``.grad``."""
        if not self._requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self.grad_fn is None or self._retains_grad:
            return  # a leaf keeps its gradient anyway
        self.grad_fn.retain_grad(self, self._output_nr)
        self._retains_grad = True

    def register_hook(self, hook) -> RemovableHandle:
        """Call ``hook(grad)`` when this tensor's gradient is computed; it may return a new one."""
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is not None:
            return self.grad_fn.register_tensor_hook(hook, self._output_nr)
        if self._hooks is None:
            self._hooks = []
        self._hooks.append(hook)
        return RemovableHandle(self._hooks, hook)

    def register_post_accumulate_grad_hook(self, hook) -> RemovableHandle:
        """Call ``hook(tensor)`` after backward has added into this leaf's ``.grad``."""
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is not None:
            raise RuntimeError(_messages.POST_ACCUMULATE_NON_LEAF)
        if self._post_accumulate_grad_hooks is None:
            self._post_accumulate_grad_hooks = []
        self._post_accumulate_grad_hooks.append(hook)
        return RemovableHandle(self._post_accumulate_grad_hooks, hook)

    @property
    def output_nr(self) -> int:
        """Which output of ``grad_fn`` this tensor is."""
        return self._output_nr

    # --- in-place changes and views ------------------------------------------------------------
    @property
    def _version(self) -> int:
        """How many times this memory was changed in place (inference tensors do not count)."""
        if self._inference:
            raise RuntimeError("Inference tensors do not track version counter.")
        return 0 if self._version_counter is None else self._version_counter.value

    def _bump_version(self) -> None:
        if not self._inference:  # (an inference tensor has no counter)
            self._shared_version_counter().value += 1
        elif not autograd_state.state.inference:  # as PyTorch, refused after the op has written
            raise RuntimeError(_messages.INFERENCE_INPLACE)

    def _shared_version_counter(self) -> autograd_state.VersionCounter:
        """The counter to share with another tensor on this memory (made the first time:
        most results are never changed in place nor shared, and need none)."""
        if self._version_counter is None:
            self._version_counter = autograd_state.VersionCounter()
        return self._version_counter

    def _is_view(self) -> bool:
        """True when this tensor looks at another tensor's memory (``self._base``)."""
        return self._base is not None

    def __hash__(self) -> int:
        return id(self)
