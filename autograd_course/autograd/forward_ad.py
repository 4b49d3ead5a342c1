"""``ag.autograd.forward_ad``: forward-mode AD with dual tensors, as ``torch.autograd.forward_ad``.

Reverse mode (the engine) computes vᵀJ for one v, walking the graph backward after the forward
pass. Forward mode computes J·v *during* the forward pass: each tensor carries a *tangent* (its
directional derivative along v), and each op turns its inputs' tangents into its outputs'
tangents with its forward-mode rule, ``jvp(ctx, *tangents)``, written next to its ``forward``
and ``backward``. A tensor with a tangent is a *dual tensor* (a + b·ε with ε² = 0)::

    with forward_ad.dual_level():
        x = forward_ad.make_dual(primal, tangent)
        y = f(x)
        jvp = forward_ad.unpack_dual(y).tangent      # J·tangent, no backward pass

A few kinds of rule cover most ops (``linear``, ``elementwise``, ``bilinear``, ``reduction``...),
each stated once in forward_rules.py and re-exported here (an op says ``jvp = forward_ad.linear``).
Other ops write their rule out (softmax, the losses, conv...). An op without one refuses with
PyTorch's error naming it. As in PyTorch, one level may be open at a time, and the rules read
the inputs' values without their tangents (the tangent of a tangent is not computed). The
rules run with grad mode as it is, so a tangent is itself differentiable by the engine:
forward-over-reverse gives Hessian-vector products.

``Function.apply`` calls ``propagate`` (below) when a level is open and an input has a tangent.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .. import _messages
from ..tensor_base import TensorBase
from . import forward_custom, forward_layout, grad_mode, views
from .forward_rules import (  # noqa: F401  (the ops name their rule as forward_ad.linear...)
    _floating,
    _out_of_place,
    add_tangents,
    bilinear,
    elementwise,
    linear,
    linear_in_input,
    loss,
    reduction,
    scalar,
)
from .forward_switch import _is_fwd_grad_enabled, _set_fwd_grad_enabled, switch  # noqa: F401

__all__ = ["UnpackedDualTensor", "dual_level", "enter_dual_level", "exit_dual_level",
           "make_dual", "unpack_dual"]

NO_LEVEL = ("Trying to create a dual Tensor for forward AD but no level exists, make sure to "
            "enter_dual_level() first.")
NESTED = "Nested forward mode AD is not supported at the moment"
NO_CUSTOM_JVP = ("You must implement the jvp function for custom autograd.Function to use it "
                 "with forward mode AD.")


class _State:
    """The open level (-1: none), and ``busy``: inside a rule, where tangents do not flow."""
    level = -1
    busy = False

    @property
    def active(self) -> bool:  # (off inside _set_fwd_grad_enabled(False), and in inference
        return (self.level >= 0 and not self.busy and switch.enabled  # mode, as PyTorch's
                and not grad_mode.state.inference)  # autograd layer, where tangents flow)


state = _State()


class _Level:
    """Which opening of a level a tangent belongs to: a tangent kept from a closed one is gone."""
    closed = 0


class UnpackedDualTensor(NamedTuple):
    """What ``unpack_dual`` returns: the primal (a view without tangent) and the tangent."""
    primal: TensorBase
    tangent: TensorBase | None


_current_level = -1  # PyTorch's name for the open level (-1: none), read by its tests


def enter_dual_level() -> int:
    """Open a level (0: only one may be open at a time); tangents live in it until exit."""
    global _current_level
    if state.level >= 0:
        raise RuntimeError(NESTED)
    state.level = _current_level = 0
    return state.level


def exit_dual_level(*, level=None) -> None:
    """Close the level: every tangent made in it is gone (``unpack_dual`` gives None)."""
    global _current_level
    if state.level < 0:
        raise RuntimeError("Dual level must be a positive number.")
    if level is not None and level != state.level:
        raise RuntimeError("Trying to exit a forward AD level that was not the last one that "
                           "was created. This is not supported.")
    state.level = _current_level = -1
    _Level.closed += 1


class dual_level:
    """``with dual_level():`` opens a level for the block (or, decorating, for each call)."""

    def __enter__(self) -> int:
        return enter_dual_level()

    def __exit__(self, *exc_info) -> None:
        exit_dual_level()

    def __call__(self, func):
        def wrapped(*args, **kwargs):
            with dual_level():
                return func(*args, **kwargs)
        return wrapped


# --- dual tensors ---------------------------------------------------------------------------
NOT_DERIVED = views.NOT_DERIVED  # never takes its base's tangent (unpack_dual's primal)


def tangent_of(tensor):
    """The tangent a tensor carries in the open level, or None. A view that has none, of a
    base that has one, has its window of the base's (``_window``), as in PyTorch, where a
    view's tangent is a view of its base's."""
    if not isinstance(tensor, TensorBase):
        return None
    kept = tensor._fw_grad
    if kept is not None and kept is not NOT_DERIVED and kept[0] != _Level.closed:
        kept = None  # (a tangent of a level that has closed: as if it had none)
    if kept is None and state.level >= 0 and tensor._base is not None:
        return _window(tensor, create=False)
    if kept is None or state.level < 0 or kept[0] != _Level.closed:
        return None
    return kept[1]


def set_tangent(tensor, tangent) -> None:
    tensor._fw_grad = None if tangent is None else (_Level.closed, tangent)


def _check_level(level, what: str) -> None:
    if state.level < 0 and what == "make":
        raise RuntimeError(NO_LEVEL)
    if level is not None and level != state.level:
        raise RuntimeError(f"Invalid level given to _{what}_dual")


def make_dual(tensor, tangent, *, level=None):
    """A view of ``tensor`` that carries ``tangent`` (same shape) in the open level: the
    tangent itself, or a copy laid out as ``tensor`` if it is not (forward_layout.py)."""
    _check_level(level, "make")
    if not tensor.is_floating_point():
        raise ValueError(f"Expected primal to be floating point or complex, but got: "
                         f"{tensor.dtype}")
    if not tangent.is_floating_point():
        raise ValueError(f"Expected tangent to be floating point or complex, but got: "
                         f"{tangent.dtype}")
    if tangent_of(tensor) is not None:
        raise RuntimeError("Making a dual Tensor based on a Tensor that already has a forward "
                           f"gradient at the same level {state.level} is not supported.")
    if tangent_of(tangent) is not None:  # (PyTorch's message has no space before the level)
        raise RuntimeError("Setting a forward grad that itself has a forward gradient at the "
                           f"same level{state.level} is not supported.")
    if tangent.shape != tensor.shape:
        raise RuntimeError(
            "Trying to set a forward gradient that has a different size than that of the "
            f"original Tensor, this is not supported. Tensor is of size {list(tensor.shape)} "
            f"while the given forward gradient is of size {list(tangent.shape)}.")
    dual = tensor.view(tensor.shape)
    if not grad_mode.state.inference:  # (in inference mode: a plain alias, no tangent)
        set_tangent(dual, forward_layout.laid_out_like(tangent, dual))
    return dual


def unpack_dual(tensor, *, level=None) -> UnpackedDualTensor:
    """(primal, tangent): the primal is a view of ``tensor`` without the tangent."""
    if not isinstance(tensor, TensorBase):
        raise TypeError("_unpack_dual(): argument 'dual' (position 1) must be Tensor, not "
                        f"{type(tensor).__name__}")
    _check_level(level, "unpack")
    tangent = tangent_of(tensor)
    state.busy, busy = True, state.busy
    try:
        primal = tensor.view(tensor.shape)
    finally:
        state.busy = busy
    primal._fw_grad = NOT_DERIVED  # (a plain value: no tangent, not even its base's)
    return UnpackedDualTensor(primal, tangent)


# --- the hook in Function.apply -------------------------------------------------------------
def has_tangent(args) -> bool:
    return any(tangent_of(a) is not None for a in args)


def needs_input_grad(ctx, args: tuple) -> tuple:
    """Per input: does it require grad, or carry a tangent (whose rule may read it)?"""
    return tuple([need or tangent_of(a) is not None
                  for need, a in zip(ctx.needs_input_grad, args)])


def propagate(ctx, args: tuple, outputs, record: bool):
    """Finish ``Function.apply`` for a call with a dual input: the outputs' tangents by the
    op's ``jvp`` rule, then the call recorded (or not) as usual, then the tangents attached."""
    given = [tangent_of(a) for a in args]
    tangents = _output_tangents(ctx, args, outputs, given)
    raw = outputs if isinstance(outputs, tuple) else (outputs,)
    dirty = ctx.dirty  # (recording forgets it)
    if ctx.dirty:  # written in place: so is its tangent, as in PyTorch (x.mul_(2): t.mul_(2))
        tangents = tuple(_in_place(out, t) for out, t in zip(raw, tangents))
    for out, t in zip(raw, tangents):  # before recording: a saved output keeps its tangent
        _attach(ctx, out, t)
    if record:
        outputs = ctx.record(args, outputs)
    elif ctx.dirty or not ctx._builtin:  # (as function.py's _finish)
        outputs = views.as_outputs(ctx, args, outputs)
    final = outputs if isinstance(outputs, tuple) else (outputs,)
    if not ctx._builtin:  # a learner's jvp: its tangents must alias as its outputs do
        forward_custom.check_views(args, given, dirty, raw, final, tangents)
    for out, t in zip(final, tangents):
        _attach(ctx, out, t)
    return outputs


def _in_place(out, tangent):
    """The new tangent of a tensor changed in place, written into its old tangent if it has
    one of the same shape (whoever holds that tangent sees the change, as in PyTorch). A view
    without one gets its window of its base's tangent (``_window``)."""
    old = tangent_of(out)
    state.busy, busy = True, state.busy
    try:
        if old is None and tangent is not None and out._base is not None:
            old = _window(out)
        if tangent is None or old is None or old is tangent or old.shape != out.shape or any(
                step == 0 and n > 1 for step, n in zip(old._data.strides, old._data.shape)):
            return tangent  # (an expanded tangent, of a broadcast input, cannot be written into)
        old.copy_(tangent)
    finally:
        state.busy = busy
    return old


def _window(view, create: bool = True):
    """A view's tangent, its window of its base's: so that writing through either shows in
    both. Kept on the view (the same tensor each time). A view written in place (``create``)
    gives its base a tangent of zeros if it had none. (None where the base's memory or
    tangent is laid out otherwise.)"""
    base = view._base
    base_tangent = tangent_of(base)
    if not base._data.flags.c_contiguous:
        return None
    if base_tangent is None and create and _floating(base):
        base_tangent = base.new_zeros(base.shape)
        set_tangent(base, base_tangent)
    if base_tangent is None or base_tangent._base is not None or not (
            base_tangent._data.flags.c_contiguous):
        return None
    state.busy, busy = True, state.busy
    try:
        shape, strides, offset = views.geometry(view, base)  # (offset: from base's start)
        window = base_tangent.as_strided(shape, strides, offset + base_tangent.storage_offset())
    finally:
        state.busy = busy
    set_tangent(view, window)
    return window


def _attach(ctx, out, tangent) -> None:
    """A tangent has its output's shape (one from a broadcast input is expanded). Its dtype is
    what the rule computed, as in PyTorch (a float64 tangent on float32 stays float64). An
    output marked non-differentiable gets none."""
    if tangent is None or not _floating(out) or any(out is t for t in ctx.non_differentiable):
        return
    if tangent.shape != out.shape:
        tangent = tangent.expand(out.shape)
    set_tangent(out, tangent)


def _forward_again(ctx, args: tuple, needs: tuple):
    """A fresh ctx for the rule: the op's forward run again, told which inputs carry tangents,
    so that it saves what the rule reads (an op saves only what its backward will need, and a
    dual input that does not require grad needs none)."""
    fresh = type(ctx)()
    fresh.needs_input_grad = needs
    enabled, grad_mode.state.enabled, state.busy = grad_mode.state.enabled, False, True
    try:
        _out_of_place(ctx).forward(fresh, *args)  # (an in-place op's: on the old values)
    finally:
        grad_mode.state.enabled, state.busy = enabled, False
    return fresh


def _output_tangents(ctx, args: tuple, outputs, given: list) -> tuple:
    needs = needs_input_grad(ctx, args)
    old = ctx.__dict__.pop("fw_old", None)  # an in-place op: x's values before the write
    if old is not None:  # (ops/in_place_form.py keeps them when an input is dual)
        args = tuple(old if a is args[0] else a for a in args)
    if ctx._builtin and needs != ctx.needs_input_grad and (old is not None or not ctx.dirty):
        ctx = _forward_again(ctx, args, needs)
    cls = ctx._forward_cls
    rule = getattr(cls, "jvp", None)
    if rule is None:
        raise NotImplementedError(_missing_rule(cls) if ctx._builtin else NO_CUSTOM_JVP)
    tangents = list(given)
    before = None if ctx._builtin else forward_custom.versions(given)
    saved = ctx.to_save
    if not ctx._builtin:  # a learner's Function: zeros for a float tensor without one, and
        tangents = [a.new_zeros(a.shape) if t is None and _floating(a) else t
                    for a, t in zip(args, tangents)]  # ctx.saved_tensors: save_for_forward's
        ctx.to_save = ctx.__dict__.get("saved_for_forward", ())
    ctx.fw_args, state.busy = args, True
    first = outputs[0] if isinstance(outputs, tuple) else outputs
    ctx.fw_out_shape = first.shape if isinstance(first, TensorBase) else None
    ctx.fw_n_outputs = len(outputs) if isinstance(outputs, tuple) else 1
    try:
        result = rule(ctx, *tangents)
    finally:
        state.busy, ctx.to_save = False, saved
        del ctx.fw_args, ctx.fw_out_shape, ctx.fw_n_outputs
    n = len(outputs) if isinstance(outputs, tuple) else 1
    result = result if isinstance(result, tuple) else (result,)
    if not ctx._builtin and len(result) != n:
        raise RuntimeError(f"jvp function returned {len(result)} outputs but forward returned "
                           f"{n} outputs")
    raw = outputs if isinstance(outputs, tuple) else (outputs,)
    for k, (out, t) in enumerate(zip(raw, result)):
        if not ctx._builtin and t is not None and not (
                _floating(out) and not any(out is d for d in ctx.non_differentiable)):
            raise RuntimeError(f"Function's jvp returned a gradient at position {k}, but  the "
                               "corresponding forward output is not a differentiable Tensor."
                               "You should return None at that position instead.")
    if not ctx._builtin:  # a dirty input's tangent written in place, and returned as is
        forward_custom.check_dirty(args, ctx.dirty, raw, result, given, before)
    return tuple(result) + (None,) * (n - len(result))


def _missing_rule(cls) -> str:
    """PyTorch's message, naming the op as ATen does (``LinalgSvdBackward0`` -> linalg_svd)."""
    name = re.sub(r"Backward\d*$", "", cls.node_name or cls.__name__)
    name = re.sub(r"(\d)D", r"\1d", name)
    name = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()
    return _messages.no_forward_ad(name)


class ForwardCtx:
    """Mixed into ``BackwardNode``: ``ctx.save_for_forward`` for a learner's ``jvp``."""

    def save_for_forward(self, *tensors) -> None:
        """Keep tensors for ``jvp``; inside ``jvp``, ``ctx.saved_tensors`` gives them."""
        self.saved_for_forward = tensors


def any_dual(args) -> bool:
    """The test ``Function.apply`` makes: is forward mode on, and does an input carry one?"""
    return state.active and has_tangent(args)

