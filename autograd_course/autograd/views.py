"""In-place writes and views: how a write through one tensor changes the history of another.

A view (``y[0:2]``, ``y.t()``, ``y.view(6)``) looks at its base's memory, so writing into the
view changes the base, and writing into the base changes the view. PyTorch keeps the graph
true to the memory in two steps, which this module follows:

1. ``rebase_history``: after an in-place op on a *view*, the base now holds new values in the
   view's window and old values elsewhere. Its history becomes a ``CopySlices`` node: backward
   passes the gradient of the window through the in-place op's own node (``fn``), and the rest
   of the gradient straight to the base's old history.
2. ``refresh_views``: every view of a base whose memory changed in place gets a new history,
   an ``AsStridedBackward0`` node that takes its window out of the base's (new) history. PyTorch
   does this lazily, when the view's ``grad_fn`` is next read after its version changed; here it
   is done at once, for the views still alive.

The "window" is the view's geometry in its base's memory: its shape, its strides and the
offset of its first element, counted in elements, as PyTorch's ``as_strided`` takes them.
"""

from __future__ import annotations

import re
import warnings
import weakref

from .. import _backend, _messages
from ..tensor_base import TensorBase
from . import grad_mode, hooks
from .node import Node, gradient_edge, next_sequence_nr

# How a view was made, when PyTorch refuses to write into it for that (its "creation meta";
# ``None``: it does not refuse). A view of a view keeps its base view's reason.
NO_GRAD, INFERENCE = "no_grad", "inference"
CUSTOM_FUNCTION, MULTIPLE_OUTPUTS = "custom Function", "multiple outputs"

WHY = {  # PyTorch's reason for each refusal, and what to do instead
    NO_GRAD: _messages.VIEW_MADE_IN_NO_GRAD,
    INFERENCE: _messages.VIEW_MADE_IN_INFERENCE,
    CUSTOM_FUNCTION: _messages.VIEW_OF_CUSTOM_FUNCTION,
    MULTIPLE_OUTPUTS: _messages.VIEW_OF_MULTIPLE_OUTPUTS,
}


# A tensor's ``_fw_grad`` when it must never take its base's tangent (forward_ad.py: the primal
# that ``unpack_dual`` returns, and views of it).
NOT_DERIVED = (-1, None)


def register_view(view, x, multiple_outputs: bool = False) -> None:
    """Make ``view``, a new tensor on ``x``'s memory, a view of ``x``: its base is the tensor
    that owns the memory, it shares x's version counter, and it remembers how it was made.
    As PyTorch: a view of an inference tensor is an inference tensor, and no view to autograd
    (no base); a view of a normal tensor is normal, even when taken in inference mode. The base
    lists its views for ``views_to_refresh``, all but those a backward formula takes with grad
    mode off (no recorded write can give them a history)."""
    if x._inference or grad_mode.state.inference:
        view._inference = x._inference
        if x._inference:
            return
    view._version_counter = x._shared_version_counter()
    view._base = owner = x if x._base is None else x._base
    if x._fw_grad is NOT_DERIVED:  # a view of unpack_dual's primal: no tangent either
        view._fw_grad = NOT_DERIVED
    state = grad_mode.state  # (``user``: the mode the learner set, also inside a forward)
    if state.user or hooks.current_graph_task() is None:  # (see views_to_refresh)
        if owner._views is None:
            owner._views = weakref.WeakSet()
        owner._views.add(view)
    new = INFERENCE if state.inference else NO_GRAD if not state.user else (
        MULTIPLE_OUTPUTS if multiple_outputs else None)
    old = x._creation_meta  # a view of a view: the first view's reason stays, as in PyTorch
    view._creation_meta = old if new is None or old == INFERENCE else new


def as_output(ctx, args: tuple, out):
    """An input that forward changed in place (``mark_dirty``) is returned as itself, its
    version bumped; any other input returned becomes a new tensor on the same memory (the
    details, and how a learner's views are marked: ``function_output``)."""
    if isinstance(out, TensorBase) and (ctx.dirty or not ctx._builtin or is_in(out, args)):
        out = function_output(ctx, args, out)
    return out


def as_outputs(ctx, args: tuple, outputs):
    """``as_output`` for each output of an unrecorded call (one, or a tuple)."""
    if not isinstance(outputs, tuple):
        return as_output(ctx, args, outputs)
    return tuple(as_output(ctx, args, out) for out in outputs)


def is_in(tensor, tensors) -> bool:
    """``tensor in tensors`` by identity (for tensors, ``==`` compares values)."""
    return any(t is tensor for t in tensors)


def function_output(ctx, args: tuple, out):
    """An output of a ``Function`` call, as PyTorch returns it. An input marked dirty is
    returned as itself, its version bumped (under no_grad, if it requires grad, a new tensor
    on its memory that does not). Another input returned as is becomes a new tensor on the
    same memory: for a learner's Function, a view of the input, unless it requires grad and
    gets no gradient here (under no_grad, or marked non-differentiable). A learner's
    Function's views cannot be written into in place: the write's ``CopySlices`` would go
    around the learner's ``backward``."""
    if any(out is t for t in ctx.dirty):
        out._bump_version()
        if ctx._builtin or grad_mode.state.enabled or not out._requires_grad:
            return out  # it now stands for the result (when recorded: rebase_dirty)
        return out.detach()
    if any(out is a for a in args):
        alias = out.detach()
        if not ctx._builtin and not (out._requires_grad and (
                not grad_mode.state.enabled or any(out is t for t in ctx.non_differentiable))):
            register_view(alias, out)
        out = alias
    if out._base is not None and not ctx._builtin:
        out._creation_meta = CUSTOM_FUNCTION
    return out


def refusal(tensor, why: str) -> str:
    """PyTorch's message for a write into a view made in a way that forbids it."""
    node = tensor.grad_fn
    if node is not None:
        name = node.name() if getattr(node, "_builtin", True) else node._forward_cls.__name__
        output = f"Output {tensor._output_nr} of {re.sub(r'Backward[0-9]*$', '', name)}"
    if why in (NO_GRAD, INFERENCE) or node is None:
        message = _messages.view_made_in(None if node is None else output, why == INFERENCE)
    else:
        message = _messages.view_modified_inplace(output)
    return f"{message} {WHY[why]}"


def geometry(tensor, base) -> tuple:
    """``(shape, strides, offset)`` of ``tensor`` in ``base``'s memory, in elements."""
    data, itemsize = tensor._data, tensor._data.itemsize
    offset = (_backend.data_ptr(data) - _backend.data_ptr(base._data)) // itemsize
    return data.shape, tuple(s // itemsize for s in data.strides), offset


def positions(xp, geometry: tuple):
    """For each element of a geometry, its position in memory (an integer array)."""
    shape, strides, offset = geometry
    index = xp.full(shape, offset, dtype=xp.int64)
    for dim, (size, stride) in enumerate(zip(shape, strides)):
        steps = [1] * len(shape)
        steps[dim] = size
        index = index + (xp.arange(size) * stride).reshape(steps)
    return index


class Memory:
    """A gradient laid out as the base's memory, so a view's window in it can be read and
    written. Built from tensor ops, so under ``create_graph`` they are recorded as usual."""

    def __init__(self, like, base_geometry: tuple, view_geometry: tuple) -> None:
        base_at, view_at = positions(like._xp, base_geometry), positions(like._xp, view_geometry)
        start = int(base_at.min()) if base_at.size else 0
        size = int(base_at.max()) - start + 1 if base_at.size else 0
        self.base_at, self.view_at = like._new(base_at - start), like._new(view_at - start)
        self.values = like.new_zeros(size)

    def base(self):
        return self.values[self.base_at]

    def window(self):
        return self.values[self.view_at]


class AsStridedBackward0(Node):
    """A view's history taken afresh from its base's, as if it had just been taken with
    ``base.as_strided(shape, strides, offset)``: backward puts the view's gradient into its
    window of a zero gradient for the whole base."""

    def __init__(self, base, view) -> None:
        self.set_next_edges([gradient_edge(base)])
        self.output_info = ((view._data.shape, view._data.dtype),)
        self.base_geometry, self.view_geometry = geometry(base, base), geometry(view, base)
        self.sequence_nr = next_sequence_nr()

    def apply(self, grads: list) -> list:
        memory = Memory(grads[0], self.base_geometry, self.view_geometry)
        memory.values.index_put_((memory.view_at,), grads[0], accumulate=True)  # may overlap
        return [memory.base()]


class CopySlices(Node):
    """The base's history after an in-place op ``fn`` wrote into one of its views.

    ``next_functions`` are the base's old history, then ``fn``'s inputs other than the view.
    Backward: the gradient's window goes through ``fn`` (its result for the view's old values
    goes back into the window), everything outside the window to the base's old history.
    """

    def __init__(self, base, view, fn: Node, output_nr: int = 0) -> None:
        self.fn, self.output_nr = fn, output_nr
        self.set_next_edges((gradient_edge(base),) + fn.next_functions[1:])
        self.output_info = ((base._data.shape, base._data.dtype),)
        self.base_geometry, self.view_geometry = geometry(base, base), geometry(view, base)
        self.sequence_nr = next_sequence_nr()

    def name(self) -> str:
        return "torch::autograd::CopySlices"

    def __repr__(self) -> str:
        return f"<CopySlices object at {hex(id(self))}>"

    def apply(self, grads: list) -> list:
        memory = Memory(grads[0], self.base_geometry, self.view_geometry)
        memory.values[memory.base_at] = grads[0]
        fn_inputs = [None] * len(self.fn.output_info)  # the gradient of fn's view output only
        fn_inputs[self.output_nr] = memory.window().clone()  # (fn may return its input)
        fn_grads = self.fn.apply(fn_inputs)
        view_grad = fn_grads[0]
        memory.values[memory.view_at] = 0 if view_grad is None else view_grad
        return [memory.base(), *fn_grads[1:]]

    def release_saved_tensors(self) -> None:
        self.fn.release_saved_tensors()


def made_in_no_grad(view) -> bool:
    """A view of a tensor that requires grad, yet not recorded: it was taken under no_grad."""
    return view._base._requires_grad and view.grad_fn is None


def check_rebase(tensor, fn: Node | None = None, recorded: bool = False) -> None:
    """Before an in-place write into ``tensor`` (recorded as ``fn``, or ``recorded`` when it
    will be): PyTorch's refusals to record a write into a leaf that requires grad or a view of
    one, and, with grad mode on, to write into a view made in a way that forbids it
    (``refusal``); and ours to record a write into a view whose node does not start from it."""
    base = tensor._base
    if fn is not None and tensor._requires_grad and tensor.grad_fn is None:
        raise RuntimeError(_messages.LEAF_MARKED_DIRTY)  # (the ops refuse earlier, see inplace.py)
    if base is None:
        return
    # checked when the write would be recorded in PyTorch, where a view requires grad when its
    # base does (here one taken before its base required grad does not: made_in_no_grad)
    if grad_mode.state.enabled and (fn is not None or recorded or tensor._requires_grad
                                    or made_in_no_grad(tensor)):
        if tensor._creation_meta is not None:
            raise RuntimeError(refusal(tensor, tensor._creation_meta))
        if base._requires_grad and base.grad_fn is None:
            raise RuntimeError(_messages.VIEW_OF_LEAF_IN_PLACE)
    if fn is not None and fn.next_functions[:1] != (gradient_edge(tensor),):
        raise RuntimeError(f"autograd_course cannot record this in-place operation on a view: "
                           f"{fn.name()} does not take the view as its first input")


def rebase_dirty(ctx, args: tuple, tensor, output_nr: int, n_outputs: int) -> None:
    """A recorded ``Function`` returned ``tensor``, which its forward marked dirty
    (``ctx.mark_dirty``): it now stands for output ``output_nr``, as PyTorch's checks allow.
    It should be an input (a view that is not one is refused, another tensor only warned
    about), and an input that is a view must be the only output."""
    if not any(tensor is a for a in args):
        if tensor._base is not None:
            raise RuntimeError(_messages.DIRTY_NOT_AN_INPUT)
        warnings.warn(_messages.DIRTY_NOT_AN_INPUT, UserWarning, stacklevel=5)
    if tensor._base is not None and n_outputs > 1:
        raise RuntimeError(_messages.DIRTY_VIEW_OF_SEVERAL)
    rebase_history(tensor, ctx, output_nr)


def rebase_history(tensor, fn: Node, output_nr: int) -> None:
    """After ``tensor``'s memory was overwritten in place by output ``output_nr`` of the node
    ``fn``, make the graph say so: ``tensor``, or the base it is a view of, now stands for the
    result. Then every view of that memory gets a history taken afresh from it."""
    check_rebase(tensor, fn)
    base = tensor._base
    owner = tensor if base is None else base
    views = views_to_refresh(owner)  # chosen before the owner's requires_grad changes
    old, old_nr = owner.grad_fn, owner._output_nr
    if base is None:
        tensor.grad_fn, tensor._output_nr, tensor._requires_grad = fn, output_nr, True
    else:
        copy = CopySlices(base, tensor, fn, output_nr)
        base.grad_fn, base._output_nr, base._requires_grad = copy, 0, True
    if owner._retains_grad:  # as PyTorch: the retained gradient is the new value's
        old.retained.pop(old_nr, None)
        owner.grad_fn.retain_grad(owner, owner._output_nr)
    refresh_views(owner, views)


def views_to_refresh(base) -> list:
    """The live views of ``base`` but those taken under no_grad, oldest history first. (A view
    a backward formula takes with grad mode off is not even listed, see ``register_view``: a
    recorded write into it is refused, as any no_grad view's; after one into its base it keeps
    no history, where PyTorch refuses to read its ``grad_fn``.)"""
    views = [v for v in base._views or () if not made_in_no_grad(v)]
    return sorted(views, key=lambda v: -1 if v.grad_fn is None else v.grad_fn.sequence_nr)


def refresh_views(base, views: list) -> None:
    """Give each view a history taken afresh from its base's: ``AsStridedBackward0``."""
    for view in views:
        view.grad_fn, view._output_nr, view._requires_grad = AsStridedBackward0(base, view), 0, True
