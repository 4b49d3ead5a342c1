"""How an op's in-place form is made from the op's own ``Function``: ``written_in_place``.

``x.mul_(y)`` computes what ``x * y`` computes, then writes it into ``x``'s memory. Here that
is a subclass of ``Mul`` written as a learner writes a Function that changes its input: its
``forward`` runs ``Mul``'s, writes the result into x and calls ``ctx.mark_dirty(x)``;
``Function.apply`` then bumps x's version and makes x stand for the result (ops/inplace.py
tells the rest). Its ``backward`` is ``Mul``'s own, and its node is ``MulBackward0``, as in
PyTorch.
"""

from __future__ import annotations

from ..autograd import grad_mode
from ..autograd.function import Function
from .promotion import check_cast


def written_in_place(op: type[Function]) -> type[Function]:
    """``op``'s in-place form (``Mul`` gives ``x.mul_(y)``'s Function), written as a learner
    writes a Function that changes its input: ``forward`` computes what ``op``'s computes,
    writes the result into its first input ``x`` and calls ``ctx.mark_dirty(x)``; ``backward``
    and the node's name are ``op``'s. What ``op`` saves for backward stays true, as in
    PyTorch: its inputs are x's old values (a copy, when the call is recorded) and its result
    is x itself, so a later write into x is caught at backward (``x.exp_()``)."""

    class InPlace(op):
        node_name = op.node_name

        @staticmethod
        def forward(ctx, x, *args):
            recorded = grad_mode.state.user and True in ctx.needs_input_grad
            old, same = (_snapshot(x), _before_the_write(x)) if recorded else (x, x)
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
