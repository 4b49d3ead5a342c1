"""Forward mode's rules: how an op turns its inputs' tangents into its output's (J·t).

An op names its rule as ``jvp = forward_ad.linear`` (``forward_ad`` re-exports them); each
kind is stated once here (see forward_ad.py for forward mode itself):

* ``linear``: the op is linear in its floating-point inputs (``view``, ``sum``, ``cat``...), so
  its tangent is the op applied to the tangents: f(t).
* ``elementwise``: an element-wise op (``exp``, ``relu``, ``div``...): each block of its
  Jacobian is diagonal, so J·t = Jᵀ·t, which is the op's own ``backward`` applied to t.
* ``bilinear``: linear in each input separately (``mul``, ``mm``...): f(ta, b) + f(a, tb).
* ``reduction`` (var, amax...), ``scalar`` (an op with one number out) and ``loss``: the
  weights ∂y/∂x that backward computes, summed against t.

A rule runs with ``ctx.fw_args`` (the inputs), ``ctx.fw_out_shape`` and ``ctx.fw_n_outputs``
set by ``forward_ad.propagate``.
"""

from __future__ import annotations

from ..tensor_base import TensorBase


def _floating(value) -> bool:
    return isinstance(value, TensorBase) and value._data.dtype.kind in "fc"


def _out_of_place(ctx):
    """The op ``ctx`` ran (its out-of-place form, for ``x.mul_(2)``: ``Mul``)."""
    return getattr(ctx._forward_cls, "out_of_place", ctx._forward_cls)


def linear(ctx, *tangents):
    """f is linear in its floating-point inputs: J·t = f(t) (an input without tangent: 0)."""
    args = [(a.new_zeros(a.shape) if t is None else t) if _floating(a) else a
            for a, t in zip(ctx.fw_args, tangents)]
    return _out_of_place(ctx).apply(*args)


def linear_in_input(ctx, t, *_):
    """f(x, *rest) is linear in x with the rest held (nll_loss's scores): J·t = f(t, *rest)."""
    return _out_of_place(ctx).apply(t, *ctx.fw_args[1:])


def elementwise(ctx, *tangents):
    """Each output element depends only on the same (broadcast) element of each input, so the
    block of J for input i is diagonal: J_i·t_i = J_iᵀ·t_i, the op's own ``backward`` given
    t_i (spread to the output's shape) as its incoming gradient. J·t is their sum."""
    return add_tangents(*[None if t is None else _partials(ctx, i, t.expand(ctx.fw_out_shape))
                          for i, t in enumerate(tangents)])


def _partials(ctx, i: int, grad):
    """The op's ``backward`` with ``grad`` coming in, for input i alone."""
    needs = ctx.needs_input_grad
    ctx.needs_input_grad = tuple(j == i for j in range(len(ctx.fw_args)))
    try:
        others = [None] * (ctx.fw_n_outputs - 1)  # (max's indices get no gradient)
        result = ctx._forward_cls.backward(ctx, grad, *others)
    finally:
        ctx.needs_input_grad = needs
    return result[i] if isinstance(result, tuple) else result


def reduction(ctx, *tangents):
    """y reduces x over ``ctx.dims`` (var, amax, logsumexp...): each x element feeds one y
    element, with weight ∂y/∂x, which backward gives for an incoming gradient of ones. So
    J·t = Σ over those dims of ∂y/∂x ⊙ t."""
    t = tangents[0]
    partials = _partials(ctx, 0, t.new_ones(ctx.fw_out_shape))
    dims = getattr(ctx, "dims", None)
    dims = (ctx.dim,) if hasattr(ctx, "dim") else dims
    dims = tuple(range(t.ndim)) if dims is None else dims
    return (partials * t).sum(dims, keepdim=bool(getattr(ctx, "keepdim", False)))


def scalar(ctx, *tangents):
    """y is one number: J is the row ∇yᵀ (backward of 1), so J·t = Σ ∇y ⊙ t, per input."""
    one = next(t for t in tangents if t is not None).new_ones(ctx.fw_out_shape)
    return add_tangents(*[None if t is None else (_partials(ctx, i, one) * t).sum()
                          for i, t in enumerate(tangents)])


def loss(ctx, *tangents):
    """A loss of (input, target): element-wise with ``reduction='none'``, else one number."""
    return (elementwise if ctx.reduction == "none" else scalar)(ctx, *tangents)


def bilinear(ctx, *tangents):
    """f(a, b, ...) linear in a and in b separately: J·(ta, tb) = f(ta, b) + f(a, tb)."""
    op, args, out = _out_of_place(ctx), list(ctx.fw_args), None
    for i, t in enumerate(tangents):
        if t is not None:
            term = op.apply(*args[:i], t, *args[i + 1:])
            out = term if out is None else out + term
    return out


def add_tangents(*terms):
    """The sum of the terms that are not None (None when all are)."""
    present = [t for t in terms if t is not None]
    if not present:
        return None
    total = present[0]
    for t in present[1:]:
        total = total + t
    return total
