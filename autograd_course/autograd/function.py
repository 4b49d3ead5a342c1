"""``Function``: one differentiable operation. Its ``ctx`` is the graph node.

A ``Function`` is two static methods. ``forward(ctx, *inputs)`` computes the result (grad mode
is off inside it, so nothing it does is recorded twice); ``backward(ctx, *grad_outputs)``
receives dL/d(output) and returns dL/d(input) for each input. ``apply`` runs ``forward`` and,
when some input requires grad, records the call: the ``ctx`` becomes the ``grad_fn`` of the
outputs, with ``next_functions`` pointing at the nodes that made the inputs.

Every built-in op in ``autograd_course.ops`` is a ``Function`` written exactly like the ones a
learner writes, using only the ctx API below, and the engine runs them all the same way.
"""

from __future__ import annotations

import functools

from .. import _messages
from ..compat.legacy_ctx import LegacyCtx, LegacyFunction
from ..tensor_base import TensorBase
from . import anomaly, backward_result, forward_ad, grad_mode, profiler, saved_names, views
from .forward_custom import ForwardOff
from .node import Node, link_inputs, next_sequence_nr
from .saved_tensor import SavedFields, keep_all, raw_all, unpack_all
from .transform_depth import check_function


class BackwardNode(Node, SavedFields, LegacyCtx, forward_ad.ForwardCtx):
    """The ctx of one ``Function`` call, and its node in the graph (``MulBackward0``...).

    Each ``Function`` subclass gets its own subclass of this, named after it. ``forward`` may
    store anything on its ctx (``ctx.constant = 2``); the ctx API is the methods below.
    """

    _forward_cls = None  # the Function this node runs the backward of
    _builtin = False  # a library op: prints like PyTorch's C++ nodes

    # what the ctx holds until forward (or the recording) sets it
    needs_input_grad: tuple = ()  # per input: does it require grad?
    materialize_grads = True
    to_save: tuple = ()  # what save_for_backward was given (the node's fields keep it after)
    dirty: tuple = ()
    non_differentiable: tuple = ()
    non_differentiable_outputs: tuple = ()  # their output numbers, once recorded

    # --- the ctx API, used inside forward ---------------------------------------------------
    def save_for_backward(self, *tensors) -> None:
        """Keep tensors for ``backward``; reading them checks they were not changed since."""
        self.to_save = tensors

    def mark_dirty(self, *tensors) -> None:
        """Inputs that ``forward`` changed in place (and returns as outputs)."""
        self.dirty = tensors

    def mark_non_differentiable(self, *tensors) -> None:
        """Outputs that get no gradient (e.g. the indices returned by ``max``)."""
        self.non_differentiable = tensors

    def set_materialize_grads(self, value: bool) -> None:
        """``False``: ``backward`` receives ``None`` instead of zeros for unused outputs."""
        self.materialize_grads = value

    saved_tensors = property(unpack_all)  # the tensors forward saved, as they were then

    _raw_saved_tensors = property(raw_all)  # the SavedTensor records, made when read

    # --- recording --------------------------------------------------------------------------
    def record(self, args: tuple, outputs):
        """Link a call into the graph: edges to the inputs, ``grad_fn`` on the outputs."""
        # a dirty call's saved inputs keep their versions from before the write (None: not a
        # tensor, or an inference tensor, which has none: saving it is refused below)
        versions = [None if getattr(t, "_inference", True) else t._version
                    for t in self.to_save] if self.dirty else None
        input_info = self.input_info = link_inputs(self, args)  # edges; (shape, dtype)s
        if isinstance(outputs, tuple):
            outputs = tuple([self._link_output(args, out, nr, len(outputs))
                             for nr, out in enumerate(outputs)])
            self.output_info = tuple([_info(out, input_info) for out in outputs])
        else:
            outputs = self._link_output(args, outputs, 0, 1)
            self.output_info = (_info(outputs, input_info),)
        self.dirty = ()  # (as PyTorch, not kept: a cycle)
        if self.to_save:  # let go of to_save first: a pack hook may raise (checkpoint's stop)
            to_save, self.to_save = self.to_save, ()
            keep_all(self, to_save, versions)  # each saved tensor, and its version now
        return outputs

    def _link_output(self, args: tuple, out, output_nr: int, n_outputs: int):
        """Make one output of a recorded call point at this node (a differentiable tensor)."""
        if not isinstance(out, TensorBase):
            return out
        skip = self.non_differentiable
        differentiable = out._data.dtype.kind in "fc" and not (skip and views.is_in(out, skip))
        if self.dirty or not self._builtin:  # (a built-in op never returns an input as is)
            out = views.as_output(self, args, out)
        if not differentiable:
            self.non_differentiable_outputs += (output_nr,)
        elif self.dirty and views.is_in(out, self.dirty):  # it, or its base, now stands for it
            views.rebase_dirty(self, args, out, output_nr, n_outputs)
        else:
            out._requires_grad, out.grad_fn, out._output_nr = True, self, output_nr
        return out

    # --- running backward (the engine calls this) ----------------------------------------------
    def apply(self, grads: list) -> list:
        """Call the Function's ``backward``; return one gradient per ``next_functions`` edge."""
        if (len(grads) > 1 or grads[0] is None) and any(g is None for g in grads):
            if self._builtin and all(g is None for g in grads):
                return [None] * len(self._next_nrs)  # no gradient at all: none flows on
            if self.materialize_grads:  # an output without gradient: zeros
                grads = backward_result.materialized(self, grads)
        result = self._forward_cls.backward(self, *grads)
        return backward_result.per_edge(self, result if isinstance(result, tuple) else (result,))

    def release_saved_tensors(self) -> None:
        """Free the saved tensors after backward, so their memory goes back at once."""
        if self.saved:
            self.saved, self.result_counter, self.released = None, None, True

    def __repr__(self) -> str:
        where = "" if self._builtin else "torch.autograd.function."  # a learner's Function
        return f"<{where}{self.name()} object at {hex(id(self))}>"


def _info(out, input_info: tuple):
    """An output's ``(shape, dtype)`` (None: not a tensor), an input's equal one if it has one."""
    if not isinstance(out, TensorBase):
        return None
    info = (out._data.shape, out._data.dtype)
    for known in input_info:
        if known == info:
            return known
    return info


class Function(backward_result.VjpIsBackward, LegacyFunction):
    """Base class for differentiable operations. Subclass it; call ``YourFunction.apply``.

    Example (the note's ``MulConstant``, with a correct backward)::

        class MulConstant(Function):
            @staticmethod
            def forward(ctx, tensor, constant):
                ctx.constant = constant
                return tensor * constant

            @staticmethod
            def backward(ctx, grad_output):
                return grad_output * ctx.constant, None   # d(c*x)/dx = c; no grad for c
    """

    node_name: str | None = None  # built-ins set PyTorch's node name, e.g. "AddBackward0"
    clear_saved_tensors_on_access = False  # True: ctx.saved_tensors can be read only once
    generate_vmap_rule = False  # (no vmap here: PyTorch's default vmap rule refuses too)

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        # built-ins print like PyTorch's C++ nodes; a learner's MulConstant: MulConstantBackward
        builtin = cls.node_name is not None
        name = cls.__dict__.get("node_name") or cls.__name__ + "Backward"
        namespace = {"_forward_cls": cls, "_builtin": builtin, "__qualname__": name,
                     "__module__": "builtins" if builtin else cls.__module__,
                     **saved_names.node_properties(cls)}
        if builtin:  # PyTorch's C++ nodes can be called: y.grad_fn(grad)
            namespace["__call__"] = backward_result.call_node
        cls._backward_cls = type(name, (BackwardNode,), namespace)
        cls._builtin, cls._setup_apart = builtin, cls.setup_context is not Function.setup_context

    @staticmethod
    def forward(ctx, *args):
        raise NotImplementedError(_messages.NO_FORWARD)

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError(_messages.NO_BACKWARD)

    @staticmethod
    def vmap(info, in_dims, *args):
        raise NotImplementedError(_messages.NO_VMAP)

    @staticmethod
    def setup_context(ctx, inputs: tuple, output):
        """Optional: fill ``ctx`` here, with a ``forward(*inputs)`` that takes no ctx."""
        raise NotImplementedError("setup_context is not implemented.")

    @classmethod
    def apply(cls, *args, **kwargs):
        """Run ``forward`` with grad mode off; record the call when an input requires grad.
        Keywords are bound to ``forward``'s parameters: ``F.apply(x, k=2)`` is ``F.apply(x, 2)``.
        This is the path of a learner's ``Function`` (PyTorch's ``THPFunction_apply``); a
        built-in op takes the lean one, ``_apply_builtin``, as PyTorch's generated code does.
        """
        if kwargs or cls._setup_apart:
            args = backward_result.bind_arguments(cls.forward, args, kwargs, cls._setup_apart)
        if cls._builtin and profiler.state.enabled:  # the call is one event (aten::mul...)
            return profiler.record_op(cls, args, _apply_builtin)
        if cls._builtin:
            return _apply_builtin(cls, args)
        check_function(cls)  # (inside ag.func's transforms: setup_context required)
        ctx = cls._backward_cls()
        ctx.needs_input_grad = tuple([isinstance(a, TensorBase) and a._requires_grad for a in args])
        enabled = grad_mode.state.enabled  # (off under no_grad, and in backward formulas)
        record = enabled and True in ctx.needs_input_grad
        _number(ctx, record)
        with ForwardOff():  # forward's own ops: not recorded, no tangents
            if cls._setup_apart:  # forward(*inputs), then setup_context fills the ctx
                outputs = cls.forward(*args)
                cls.setup_context(ctx, args, outputs)
            else:
                outputs = cls.forward(ctx, *args)
        return _finish(ctx, args, outputs, record)


def _apply_builtin(cls, args: tuple):
    """``apply`` for a built-in op: no ``setup_context``, and an output is never an input
    returned as is; recorded only where PyTorch's autograd layer sees it (not in inference
    mode). Grad mode is already off in every op of a backward formula: left as it is."""
    ctx = cls._backward_cls()
    ctx.needs_input_grad = tuple([isinstance(a, TensorBase) and a._requires_grad for a in args])
    if not grad_mode.state.enabled:
        return _finish(ctx, args, cls.forward(ctx, *args), False)
    record = True in ctx.needs_input_grad and grad_mode.autograd_sees(args)
    _number(ctx, record)
    grad_mode.state.enabled = False
    try:
        outputs = cls.forward(ctx, *args)
    finally:
        grad_mode.state.enabled = True
    return _finish(ctx, args, outputs, record)


def _number(ctx, record: bool) -> None:
    """A node that will be recorded is numbered before forward runs, as in PyTorch."""
    if record:
        ctx.sequence_nr = next_sequence_nr()
        if anomaly.state.enabled:
            anomaly.store_traceback(ctx)  # where in the forward pass it was made


def _finish(ctx, args: tuple, outputs, record: bool):
    """After ``forward``: check what it marked dirty, then record the call, or not."""
    if ctx.dirty:  # they must be returned, and should be inputs
        backward_result.check_dirty(ctx.dirty, args, outputs)
    if forward_ad.state.active and forward_ad.has_tangent(args):  # forward-mode AD
        return forward_ad.propagate(ctx, args, outputs, record)
    if record:
        return ctx.record(args, outputs)
    if ctx._builtin and not ctx.dirty:  # (a built-in op never returns an input as is)
        return outputs
    return views.as_outputs(ctx, args, outputs)


class DelayedError(Function):
    """A node whose backward raises: marks gradients that must not be differentiated again."""

    node_name = "torch::autograd::Error"

    @staticmethod
    def forward(ctx, *tensors):
        outputs = tuple(t.detach() for t in tensors)  # new tensors on the same memory
        return outputs if len(outputs) > 1 else outputs[0]

    @staticmethod
    def backward(ctx, *grads):
        raise RuntimeError(_messages.DIFFERENTIATED_TWICE)


class InplaceFunction(Function):
    """Kept for old code, as PyTorch keeps it: a ``Function`` with an ``inplace`` flag."""
    def __init__(self, inplace=False) -> None:
        super().__init__()
        self.inplace = inplace


def once_differentiable(backward):
    """Decorate a ``backward`` that cannot itself be differentiated. It runs with grad mode
    off; under ``create_graph`` its results lead to a ``DelayedError``, so differentiating
    them again fails clearly instead of silently giving a zero second derivative."""

    @functools.wraps(backward)
    def wrapper(ctx, *grad_outputs):
        with grad_mode.no_grad():
            outputs = backward(ctx, *grad_outputs)
        if not (grad_mode.is_grad_enabled() and any(
                isinstance(g, TensorBase) and g._requires_grad for g in grad_outputs)):
            return outputs
        single = not isinstance(outputs, tuple)
        outputs = (outputs,) if single else outputs
        leaves = [g.detach().requires_grad_() for g in outputs if g is not None]  # as PyTorch
        errors = DelayedError.apply(*leaves) if leaves else ()  # one node for all the results
        errors = iter(errors if isinstance(errors, tuple) else (errors,))
        wrapped = tuple(None if g is None else next(errors) for g in outputs)
        return wrapped[0] if single else wrapped

    return wrapper
