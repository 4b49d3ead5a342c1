"""What a ``Function``'s ``backward`` receives and returns, checked and fitted as PyTorch does
(and how ``apply``'s arguments are bound to ``forward``, and how a node is called directly).

In: an output that got no gradient gets zeros of its shape (unless the Function asked
otherwise with ``ctx.set_materialize_grads(False)``). Out: one gradient per input of
``forward``, ``None`` for an input that gets none; each is summed back to its input's shape
where it was broadcast, and cast to its dtype.
"""

from __future__ import annotations

import inspect

from .. import _messages
from .._shapes import broadcasts_to
from ..tensor_base import TensorBase


def materialized(node, grads: list) -> list:
    """``grads`` with zeros for the outputs that got no gradient (made like one that did);
    not for the non-differentiable outputs when the ctx set PyTorch's private switch
    ``ctx._materialize_non_diff_grads = False``."""
    like = next((g for g in grads if g is not None), None)
    if like is None:
        return grads  # no gradient to make zeros like (see the README's divergences)
    skip = () if node._materialize_non_diff_grads else node.non_differentiable_outputs
    return [like._new(like._xp.zeros(*info)) if g is None and info is not None
            and nr not in skip else g for nr, (g, info) in enumerate(zip(grads, node.output_info))]


def per_edge(node, result: tuple) -> list:
    """``backward``'s result checked, one gradient per ``next_functions`` edge of ``node``."""
    infos = node.input_info  # per input of forward: its (shape, dtype), None if not a tensor
    if len(result) != len(infos):
        if len(result) < len(infos) or any(g is not None for g in result[len(infos):]):
            raise RuntimeError(_messages.wrong_gradient_count(node.name(), len(infos),
                                                              len(result)))
        result = result[:len(infos)]  # extra trailing Nones are allowed
    grads = []
    for i, grad in enumerate(result):
        info = infos[i]
        if grad is None:
            if info is not None:
                grads.append(None)
            continue
        if not isinstance(grad, TensorBase):
            raise RuntimeError(f"expected Variable or None (got {type(grad).__name__})")
        if info is None:
            raise RuntimeError(_messages.gradient_for_non_tensor(node.name(), i))
        shape, dtype = info
        if grad._data.shape != shape:
            if not broadcasts_to(shape, grad._data.shape):
                raise RuntimeError(_messages.invalid_gradient_shape(
                    node.name(), i, grad._data.shape, shape))
            grad = grad.sum_to_size(shape)
        if dtype is not None and grad._data.dtype != dtype:  # (None: a leaf's grad_dtype)
            grad = grad.to(dtype)
        grads.append(grad)
    return grads


def call_node(node, *grads):
    """``node(*grads)``: run a built-in node's backward as the engine would (recorded when
    grad mode is on); one gradient per input, or the only one."""
    if len(grads) != len(node.output_info):  # one gradient per output of the node
        raise TypeError(f"expected {len(node.output_info)} arguments, got {len(grads)} instead")
    result = node.apply(list(grads))
    return result[0] if len(result) == 1 else tuple(result)


def _bind(forward, *args, **kwargs) -> inspect.BoundArguments:
    """``forward``'s parameters bound to the call's arguments (``ctx`` first); a mismatch is
    the TypeError PyTorch gives, which calls ``forward`` itself."""
    try:
        return inspect.signature(forward).bind(*args, **kwargs)
    except TypeError as err:
        raise TypeError(f"forward() {err}") from None


def bind_arguments(forward, args: tuple, kwargs: dict, setup_apart: bool) -> tuple:
    """``Function.apply``'s arguments as one positional tuple for ``forward``. With a separate
    ``setup_context`` PyTorch binds them to ``forward``'s parameters and fills in defaults;
    otherwise a keyword that would leave an earlier parameter unfilled is refused."""
    if setup_apart:  # PyTorch binds these itself, and its errors are inspect's
        bound = inspect.signature(forward).bind(*args, **kwargs)
        bound.apply_defaults()
        return bound.args
    bound = _bind(forward, None, *args, **kwargs)
    if bound.kwargs:
        position = len(bound.args) - 1
        missing = list(inspect.signature(forward).parameters)[position + 1]
        raise TypeError(_messages.keyword_past_gap(missing, position))
    return bound.args[1:]


def check_dirty(dirty, args: tuple, outputs) -> None:
    """What ``forward`` passed to ``ctx.mark_dirty`` must be returned (else PyTorch's error;
    that it should be an input is checked when the call is recorded: ``views.rebase_dirty``)."""
    outputs = outputs if isinstance(outputs, tuple) else (outputs,)
    for t in dirty:
        if not any(t is out for out in outputs):
            raise RuntimeError(_messages.DIRTY_NOT_RETURNED)


BOTH_BACKWARD_AND_VJP = ("Implementing both 'backward' and 'vjp' for a custom Function is not "
                         "allowed. You should only implement one of them.")


def vjp_as_backward(cls):
    """A Function that names its backward ``vjp`` (PyTorch's other name for it): the backward
    the engine calls. Defining both is refused when backward runs, as in PyTorch."""
    if "backward" not in cls.__dict__:
        return cls.__dict__["vjp"]

    def both(ctx, *grads):
        raise RuntimeError(BOTH_BACKWARD_AND_VJP)
    return staticmethod(both)


class VjpIsBackward:
    """Mixed into ``Function``: a subclass may name its backward ``vjp``, PyTorch's other name
    for it (``Function.apply``'s engine then calls it as ``backward``)."""

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        if "vjp" in cls.__dict__:
            cls.backward = vjp_as_backward(cls)
