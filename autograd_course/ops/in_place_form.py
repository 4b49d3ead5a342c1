"""In-place writes: how an op's in-place form is made from the op's own ``Function``
(``written_in_place``), and the checks before anything is written (``check_inplace``).

``x.mul_(y)`` computes what ``x * y`` computes, then writes it into ``x``'s memory. Here that
is a subclass of ``Mul`` written as a learner writes a Function that changes its input: its
``forward`` runs ``Mul``'s, writes the result into x and calls ``ctx.mark_dirty(x)``;
``Function.apply`` then bumps x's version and makes x stand for the result (ops/inplace.py
tells the rest). Its ``backward`` is ``Mul``'s own, and its node is ``MulBackward0``, as in
PyTorch.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import _messages
from ..autograd import forward_ad, grad_mode, views
from ..autograd.function import Function
from .operands import is_tensor
from .promotion import check_cast

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


def written_in_place(op: type[Function]) -> type[Function]:
    """``op``'s in-place form (``Mul`` gives ``x.mul_(y)``'s Function), written as a learner
    writes a Function that changes its input: ``forward`` computes what ``op``'s computes,
    writes the result into its first input ``x`` and calls ``ctx.mark_dirty(x)``; ``backward``
    and the node's name are ``op``'s. What ``op`` saves for backward stays true, as in
    PyTorch: its inputs are x's old values (a copy, when the call is recorded) and its result
    is x itself, so a later write into x is caught at backward (``x.exp_()``)."""

    class InPlace(op):
        node_name = op.node_name
        out_of_place = op  # (the forward-mode rules compute the tangent with it)

        @staticmethod
        def forward(ctx, x, *args):
            recorded = grad_mode.state.user and True in ctx.needs_input_grad
            dual = forward_ad.any_dual((x, *args))  # (its tangent rule reads x's old values)
            old, same = (_snapshot(x), _before_the_write(x)) if recorded or dual else (x, x)
            if dual:
                ctx.fw_old = old
            out = op.forward(ctx, old, *(same if a is x else a for a in args))  # x.mul_(x)
            if out._data.shape != x._data.shape:
                raise RuntimeError(f"output with shape {list(x.shape)} doesn't match the "
                                   f"broadcast shape {list(out.shape)}")
            check_cast(out, x)
            ctx.to_save = tuple(_result_of(ctx, x) if t is out else t for t in ctx.to_save)
            x._xp.copyto(x._data, out._data, casting="unsafe")
            ctx.mark_dirty(x)
            return x

    InPlace.__name__ = InPlace.__qualname__ = op.__name__ + "_"
    return InPlace


def _result_of(ctx, x):
    """x's memory and version counter as the output of the node ``ctx``: what an in-place op
    saves as its result. (For a view, x's own history becomes its base's, and holding x would
    keep the base alive through the base's new node: a reference cycle.)"""
    result = x.detach()
    result.grad_fn, result._output_nr, result._requires_grad = ctx, 0, True
    return result


def _before_the_write(x):
    """``x`` as another operand of its own in-place op (``y.mul_(y)``): the same memory and
    version counter at x's old place in the graph. If the op saves it, the write makes it
    stale and backward refuses, as PyTorch's does (it saves that operand before writing)."""
    alias = _snapshot(x, x._data)
    alias._version_counter = x._shared_version_counter()
    return alias


def _snapshot(x, data=None):
    """A copy of ``x``'s values (or a tensor on ``data``) at the same place in the graph.

    The op reads (and may save for backward) this copy, so overwriting ``x`` afterwards does
    not change what backward sees: PyTorch also keeps the original when a formula needs it.
    """
    copy = x._new(x._data.copy() if data is None else data)
    copy.grad_fn, copy._output_nr, copy._requires_grad = x.grad_fn, x._output_nr, x._requires_grad
    return copy


# --- the checks before an in-place write -----------------------------------------------------
_OVERLAP_MESSAGE = (
    "unsupported operation: more than one element of the written-to tensor refers to a single "
    "memory location. Please clone() the tensor before performing the operation."
)


def check_inplace(x: Tensor, view: bool = False, written=None, others: tuple = (),
                  wrapped: bool = False) -> None:
    """PyTorch's refusal to write into a leaf that requires grad (or a view of one), and into
    memory where several elements are one (an ``expand``ed tensor: a stride 0 along a
    dimension of more than one element). ``written``: the part of ``x`` a write goes to;
    ``others``: the op's other operands (the write is recorded if one requires grad). The
    autograd checks are skipped where PyTorch's autograd layer does not see the write
    (``autograd_sees``): then only the version bump may refuse it (an inference tensor).
    ``wrapped``: PyTorch made a normal tensor, which that layer sees, of the op's number
    (``x.add_(1)``) or index (``x[[0, 1]] = v``); ``view``: ``x[0] = v`` writes into ``x[0]``,
    a view, which for an inference ``x`` is an inference tensor that does not require grad."""
    written = x._data if written is None else written
    if not getattr(x._data.flags, "writeable", True) or any(
            step == 0 and n > 1 for step, n in zip(written.strides, written.shape)):
        raise RuntimeError(_OVERLAP_MESSAGE)
    if view and x._inference or not (grad_mode.autograd_sees((x, *others)) or (
            wrapped and not grad_mode.state.inference)):
        return
    views.check_rebase(x, recorded=recording(x, *others))
    if not (x._requires_grad and grad_mode.state.enabled):
        return
    if x.grad_fn is None:
        raise RuntimeError(_messages.VIEW_OF_LEAF_IN_PLACE if view else _messages.LEAF_IN_PLACE)
    base = x._base
    if base is not None and base.grad_fn is None and base._requires_grad:
        raise RuntimeError(_messages.VIEW_OF_LEAF_IN_PLACE)


def recording(x, *others) -> bool:
    """Whether a write into ``x`` with these other operands is recorded in the graph."""
    return grad_mode.state.enabled and grad_mode.autograd_sees((x, *others)) and (
        x._requires_grad or any(is_tensor(o) and o._requires_grad for o in others)
    )
