"""``SavedTensor``: a tensor kept for backward, and the version it had when it was kept.

Backward formulas often need the forward's values (``MulBackward0`` needs both factors). If
one of them is changed in place before backward runs, the formula would silently use the new
values, so each saved tensor remembers its version then and ``unpack`` compares.

An input is kept as the tensor itself. An *output* of the node that saves it is kept as its
array and version counter only, and rebuilt on ``unpack``: holding the output tensor would make
a cycle (output -> grad_fn -> saved output) that Python's reference counting cannot free.

Under ``saved_tensors_hooks`` (saved_tensor_hooks.py) what is kept is whatever the pack hook
returned; ``unpack`` calls the unpack hook and gives the result the saved tensor's place in the
graph. The version is not checked then: the hooks decide what is kept.
"""

from __future__ import annotations

import weakref

from .. import _messages
from . import grad_mode
from .node import gradient_edge
from .saved_tensor_hooks import active_pairs

PACK_IN_PLACE = (
    "A saved tensor pack hook is modifying its input in place. Tensors provided as input to "
    "pack hook cannot be modified by in-place operations as this can lead to unexpected "
    "side-effects. Please open an issue if you need to perform in-place operations on the "
    "input to a pack hook.")
DETACHED_IN_PLACE = (
    "Trying to use a saved tensor that has been detached in-place, i.e. with .detach_().This "
    "is not supported, please use out-of-place `.detach()` instead")


ACCESSED_ONCE = (
    "saved_tensors can only be accessed once when clear_saved_tensors_on_access=True is set on "
    "the autograd.Function. Either access saved_tensors only once, or set "
    "clear_saved_tensors_on_access=False.")


def unpack_all(node) -> tuple:
    """``ctx.saved_tensors``: what ``forward`` saved, as it was then (else PyTorch's error).

    A ``Function`` with ``clear_saved_tensors_on_access = True`` lets them go on this first
    read, so that backward's own variables hold the only references (and frees them early).
    """
    if node.released:
        raise RuntimeError(ACCESSED_ONCE if node.cleared_on_access else _messages.FREED)
    if node.saved is None:  # inside forward, or a call that was not recorded
        return node.to_save
    tensors = tuple([None if s is None else s.unpack(node) for s in node.saved])
    if node._forward_cls.clear_saved_tensors_on_access:
        node.saved, node.released, node.cleared_on_access = None, True, True
    return tensors


def raw_all(node) -> tuple:
    """``ctx._raw_saved_tensors``: the ``SavedTensor`` objects themselves, one per saved
    tensor (a saved ``None`` too, whose ``register_hooks`` PyTorch refuses)."""
    if node.released:
        raise RuntimeError(_messages.FREED)
    return tuple([SavedTensor.of_none() if s is None else s for s in node.saved or ()])


class SavedTensor:
    __slots__ = ("version", "is_output", "tensor", "array", "device", "version_counter",
                 "requires_grad", "output_nr", "tensor_type", "was_leaf", "grad_fn",
                 "accumulate_grad", "packed", "unpack_hook", "fw_grad")

    def __init__(self, tensor=None, is_output: bool = False, version: int | None = None) -> None:
        """``version``: an input's version when the call was made, if the call then wrote
        into memory it shares (``y.mul_(y)`` saves ``y`` as it was: backward must refuse)."""
        if tensor is None:  # PyTorch's are only made by autograd (or _make_saved_tensor)
            raise RuntimeError("Trying to create a SavedTensor object from Python is forbidden.")
        if tensor._inference:  # it has no version to check (PyTorch's SavedVariable refuses)
            raise RuntimeError(_messages.INFERENCE_SAVED)
        self.version = tensor._version if is_output or version is None else version
        self.is_output = is_output
        self.was_leaf = tensor.grad_fn is None
        self.unpack_hook = None
        self.fw_grad = tensor.__dict__.get("_fw_grad")  # an output's tangent (forward_ad.py)
        # under saved_tensors_hooks the innermost pair packs it (not a Python number an op
        # turned into a tensor: ops/operands.py marks those, as PyTorch does)
        if active_pairs and not getattr(tensor, "_wrapped_number", False):
            self._pack(tensor, *active_pairs[-1])
        elif is_output:
            self.tensor = None
            self.array, self.device = tensor._data, tensor._device
            self.version_counter = tensor._shared_version_counter()
            self.requires_grad, self.output_nr = tensor._requires_grad, tensor._output_nr
            self.tensor_type = type(tensor)
        else:
            self.tensor = tensor

    def _pack(self, tensor, pack_hook, unpack_hook) -> None:
        """Keep what ``pack_hook(tensor)`` returns, and where the tensor sits in the graph."""
        with grad_mode.no_grad():
            self.packed = pack_hook(tensor)
        if tensor._version != self.version:
            raise RuntimeError(PACK_IN_PLACE)
        self.unpack_hook, self.tensor = unpack_hook, None
        self.requires_grad, self.output_nr = tensor._requires_grad, tensor._output_nr
        self.grad_fn = None if self.is_output else tensor.grad_fn  # an output: the node itself
        self.accumulate_grad = None
        if self.was_leaf and tensor._requires_grad:
            self.accumulate_grad = weakref.ref(gradient_edge(tensor)[0])

    @classmethod
    def of_none(cls) -> SavedTensor:
        """The one PyTorch shows for a ``None`` given to ``save_for_backward`` (no version)."""
        saved = object.__new__(cls)
        saved.tensor, saved.is_output, saved.unpack_hook, saved.version = None, False, None, None
        return saved

    @property
    def data(self):
        """What is kept, unchecked: the pack hook's result as it returned it; else the saved
        input itself, or a saved output as a new tensor outside the graph."""
        if self.unpack_hook is not None:
            return self.packed
        if self.is_output:
            return self.tensor_type._wrap(self.array, self.device)
        return self.tensor

    def register_hooks(self, *hooks) -> None:
        """Give this one saved tensor its own pair of hooks (PyTorch's ``_raw_saved_*``
        objects): ``pack_hook`` runs now, ``unpack_hook`` when backward needs the tensor."""
        if len(hooks) != 2 or not all(callable(hook) for hook in hooks):
            raise TypeError("register_hooks(): incompatible function arguments.")
        if self.version is None:
            raise RuntimeError("Calling register_hooks on a saved tensor with value None is "
                               "forbidden")
        if self.unpack_hook is not None:
            raise RuntimeError("Calling register_hooks on a saved tensor whose hooks have already "
                               "been set. Hint: only one pair of hooks is allowed at a time.")
        pack_hook, unpack_hook = hooks
        tensor = self.tensor
        if self.is_output:  # rebuilt as unpack rebuilds it (its node is not needed to pack it)
            tensor = self.tensor_type._wrap(self.array, self.device)
            tensor._version_counter = self.version_counter
            tensor._requires_grad, tensor._output_nr = self.requires_grad, self.output_nr
        self.version = tensor._version
        self._pack(tensor, pack_hook, unpack_hook)

    def unpack(self, node=None):
        """The saved tensor, or PyTorch's error if it was modified in place since (``node``:
        the node that saved it, which an output it saved is rebuilt with)."""
        if self.unpack_hook is not None:
            return self._unpacked(node)
        if self.is_output:
            current = self.version_counter.value
        else:
            if not self.was_leaf and self.tensor.grad_fn is None:
                raise RuntimeError(DETACHED_IN_PLACE)
            current = self.tensor._version
        if current != self.version:
            raise RuntimeError(self._modified_message(node, current))
        if not self.is_output:
            return self.tensor
        out = self.tensor_type._wrap(self.array, self.device)
        out._version_counter = self.version_counter  # same memory, same counter
        if self.fw_grad is not None:
            out._fw_grad = self.fw_grad
        if self.requires_grad:
            out._requires_grad, out.grad_fn, out._output_nr = True, node, self.output_nr
        return out

    def _unpacked(self, node):
        """``unpack_hook(packed)``, put back in the saved tensor's place in the graph."""
        data = self.unpack_hook(self.packed)
        if not hasattr(data, "_data"):
            raise TypeError("Output of saved tensor unpack_hook expected to be a Tensor but "
                            f"got result of type {type(data).__name__}")
        if not self.requires_grad and not data._requires_grad:
            return data  # nothing to put back: the hook's tensor itself, as PyTorch returns it
        out = type(data)._wrap(data._data, data._device)
        out._version_counter = data._shared_version_counter()
        grad_fn = node if self.is_output else self.grad_fn
        if self.requires_grad and grad_fn is not None and not self.was_leaf:
            out._requires_grad, out.grad_fn, out._output_nr = True, grad_fn, self.output_nr
        elif self.requires_grad:
            out._requires_grad, out._accumulate_grad = True, self.accumulate_grad
        return out

    def _modified_message(self, node, current: int) -> str:
        if self.is_output:
            data, maker, output_nr = self.array, node, self.output_nr
        else:
            data, maker, output_nr = self.tensor._data, self.tensor.grad_fn, self.tensor._output_nr
        name = None
        if maker is not None:  # 'ExpBackward0' -> 'Exp', as PyTorch's message names the op
            name = maker.name()
            name = name[: name.rindex("Backward")] if "Backward" in name else name
        return _messages.modified_by_inplace(data.dtype, data.shape, name, output_nr, current,
                                             self.version)

