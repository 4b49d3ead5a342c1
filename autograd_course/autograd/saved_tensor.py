"""What a node keeps of the tensors ``forward`` saved, and the version each had then.

Backward formulas often need the forward's values (``MulBackward0`` needs both factors). If
one of them is changed in place before backward runs, the formula would silently use the new
values, so the node remembers each saved tensor's version and reading it back compares.

The node keeps them in its own fields (``SavedFields``, as PyTorch's C++ node keeps its
``SavedVariable`` fields), one entry per saved tensor in each of three tuples:

* ``saved``: what is kept. An input: the tensor itself. The node's own output (its first,
  PyTorch's ``result``): its array only, with the output's version counter in
  ``result_counter``; holding the output tensor would make a cycle (output -> grad_fn ->
  saved output) that Python's reference counting cannot free. A Python number an op turned
  into a tensor (``x * 2``): its 0-d array, made a tensor again when read.
* ``saved_versions``: the version it had when it was saved.
* ``saved_kinds``: which of these it is: ``"leaf"``, ``"input"`` (made by a node),
  ``"result"``, ``"number"``, or ``"record"``.

A ``SavedTensor`` record (the object PyTorch shows as ``_raw_saved_self``) is made only when
that is read, or when the plain fields cannot say it all: under ``saved_tensors_hooks``
(saved_tensor_hooks.py) the pack hook runs at once and the record keeps what it returned;
``unpack`` calls the unpack hook and gives the result the saved tensor's place in the graph
(the version is not checked then: the hooks decide what is kept).
"""

from __future__ import annotations

import weakref

from .. import _messages
from ..tensor_base import TensorBase
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


class SavedFields:
    """A node's fields for what its forward saved (see the module's docstring)."""

    saved = None  # once recorded: per saved tensor, what is kept (None: a saved None)
    saved_versions: tuple = ()  # per saved tensor: its version when it was saved
    saved_kinds: tuple = ()  # per saved tensor: "leaf", "input", "result", "number", "record"
    result_counter = None  # the version counter of the node's saved output
    saved_type = saved_device = None  # the class and device the arrays are made tensors with
    released = False  # True once backward freed them


def keep_all(node, to_save: tuple, versions) -> None:
    """Fill the node's fields with the tensors ``forward`` saved; ``versions``: for a call
    that wrote into a saved input, its version from before the write (else None)."""
    entries = []  # per saved tensor: (what is kept, its version, its kind)
    for i, t in enumerate(to_save):
        if t is None:
            entries.append((None, None, None))
            continue
        if not isinstance(t, TensorBase):
            raise TypeError(_messages.not_a_variable(i, t))
        if node.saved_type is None:  # the first tensor's class and device (see _as_array)
            node.saved_type, node.saved_device = type(t), t._device
        entries.append(_keep(node, t, versions and versions[i]))
    node.saved, node.saved_versions, node.saved_kinds = zip(*entries)  # one tuple per field


def _keep(node, t, version) -> tuple:
    """``(what is kept, its version, its kind)`` for one saved tensor ``t``."""
    if t._inference:  # it has no version to check (PyTorch's SavedVariable refuses)
        raise RuntimeError(_messages.INFERENCE_SAVED)
    number = getattr(t, "_wrapped_number", False)  # (ops/operands.py marks those)
    is_output = t.grad_fn is node
    if active_pairs and not number:  # the innermost pair packs it now, as in PyTorch
        return SavedTensor(t, is_output, version), None, "record"
    if number and _as_array(node, t):
        return t._data, 0, "number"  # (the op made it just now: version 0)
    if not is_output:  # an input: the tensor itself (a leaf, or made by another node)
        kind = "leaf" if t.grad_fn is None else "input"
        return t, t._version if version is None else version, kind
    if t._output_nr == 0 and t._fw_grad is None and _as_array(node, t):
        node.result_counter = t._shared_version_counter()  # its array and version counter
        return t._data, t._version, "result"
    return SavedTensor(t, True, version), None, "record"  # another output, or with a tangent


def _as_array(node, t) -> bool:
    """Whether ``t`` can be kept as its array: made a tensor again with the node's one class
    and device (those of the first tensor it saved; set on every node that saves one, as
    Python 3.11 keeps a class's instance attributes without a dict only if its first
    instances set them all)."""
    return type(t) is node.saved_type and t._device == node.saved_device


def unpack_all(node) -> tuple:
    """``ctx.saved_tensors``: what ``forward`` saved, as it was then (else PyTorch's error).

    A ``Function`` with ``clear_saved_tensors_on_access = True`` lets them go on this first
    read, so that backward's own variables hold the only references (and frees them early).
    """
    if node.released:
        raise RuntimeError(ACCESSED_ONCE if node.cleared_on_access else _messages.FREED)
    if node.saved is None:  # inside forward, or a call that was not recorded
        return node.to_save
    tensors = tuple([unpack(node, i) for i in range(len(node.saved))])
    if node._forward_cls.clear_saved_tensors_on_access:
        node.saved, node.released, node.cleared_on_access = None, True, True
    return tensors


def unpack(node, i: int):
    """Saved tensor ``i`` of ``node``, or PyTorch's error if it was changed in place since."""
    kept, kind = node.saved[i], node.saved_kinds[i]
    if kind is None:  # a saved None
        return None
    if kind == "record":
        return kept.unpack(node)
    if kind == "number":  # made a tensor now, and kept as one (the same object each read)
        number = node.saved_type._wrap(kept, node.saved_device)
        number._wrapped_number = True
        _replace(node, i, number, "leaf")  # (its version: the one it was saved with)
        return number
    version = node.saved_versions[i]
    if kind == "result":
        current = node.result_counter.value
        if current != version:
            raise RuntimeError(modified_message(node, kept, 0, current, version))
        out = node.saved_type._wrap(kept, node.saved_device)
        out._version_counter = node.result_counter  # same memory, same counter
        out._requires_grad, out.grad_fn = True, node
        return out
    if kind == "input" and kept.grad_fn is None:
        raise RuntimeError(DETACHED_IN_PLACE)
    if kept._version != version:
        raise RuntimeError(modified_message(kept.grad_fn, kept._data, kept._output_nr,
                                            kept._version, version))
    return kept


def raw(node, i: int):
    """``_raw_saved_<name>``: the ``SavedTensor`` record of saved tensor ``i``, made from the
    node's fields on the first read and kept in their place (hooks registered on it apply)."""
    kept, version, kind = node.saved[i], node.saved_versions[i], node.saved_kinds[i]
    if kind is None or kind == "record":
        return kept
    if kind == "number":
        kept, version, kind = unpack(node, i), 0, "leaf"
    if kind == "result":
        record = SavedTensor.of_fields(unpack(node, i), True, version, was_leaf=False)
    else:
        record = SavedTensor.of_fields(kept, False, version, was_leaf=kind == "leaf")
    _replace(node, i, record, "record")
    return record


def raw_all(node) -> tuple:
    """``ctx._raw_saved_tensors``: the ``SavedTensor`` records, one per saved tensor (a saved
    ``None`` too, whose ``register_hooks`` PyTorch refuses)."""
    if node.released:
        raise RuntimeError(_messages.FREED)
    return tuple([SavedTensor.of_none() if kind is None else raw(node, i)
                  for i, kind in enumerate(node.saved_kinds if node.saved else ())])


def _replace(node, i: int, kept, kind: str) -> None:
    """Put a new entry in the place of saved tensor ``i`` (its version stays; a record
    checks its own)."""
    node.saved = node.saved[:i] + (kept,) + node.saved[i + 1:]
    node.saved_kinds = node.saved_kinds[:i] + (kind,) + node.saved_kinds[i + 1:]


def modified_message(maker, data, output_nr: int, current: int, version: int) -> str:
    """PyTorch's error for a saved tensor changed in place: ``maker`` is the node that made
    it (for an input), or the node that saved it (for its output)."""
    name = None
    if maker is not None:  # 'ExpBackward0' -> 'Exp', as PyTorch's message names the op
        name = maker.name()
        name = name[: name.rindex("Backward")] if "Backward" in name else name
    return _messages.modified_by_inplace(data.dtype, data.shape, name, output_nr, current,
                                         version)


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
        version = tensor._version if is_output or version is None else version
        self._note(tensor, is_output, version, tensor.grad_fn is None)
        # under saved_tensors_hooks the innermost pair packs it (not a Python number an op
        # turned into a tensor: ops/operands.py marks those, as PyTorch does)
        if active_pairs and not getattr(tensor, "_wrapped_number", False):
            self._pack(tensor, *active_pairs[-1])
        else:
            self._hold(tensor)

    @classmethod
    def of_fields(cls, tensor, is_output: bool, version: int, was_leaf: bool) -> SavedTensor:
        """The record of a tensor a node kept in its own fields (``raw`` above), as it was
        then: its version and leafness when saved, and no pack hook (none was active)."""
        saved = object.__new__(cls)
        saved._note(tensor, is_output, version, was_leaf)
        saved._hold(tensor)
        return saved

    def _note(self, tensor, is_output: bool, version: int, was_leaf: bool) -> None:
        self.version, self.is_output, self.was_leaf = version, is_output, was_leaf
        self.unpack_hook = None
        self.fw_grad = tensor._fw_grad  # an output's tangent (forward_ad.py)

    def _hold(self, tensor) -> None:
        """Keep an input as it is; an output as its array and version counter (no cycle)."""
        if self.is_output:
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
            return modified_message(node, self.array, self.output_nr, current, self.version)
        t = self.tensor
        return modified_message(t.grad_fn, t._data, t._output_nr, current, self.version)
