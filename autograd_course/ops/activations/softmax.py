"""softmax and log_softmax: a vector of scores turned into probabilities (or their logs).

Each gradient is written out by hand rather than left to the chain rule through exp, sum
and division: one node instead of several, and the numerically careful form (the max is
subtracted first, so e^x never overflows).
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

from ... import dtypes
from ...autograd import forward_ad
from ...autograd.function import Function
from ..dims import normalize_dim
from ..plain_backward import plain_backward
from ..promotion import not_implemented

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ...tensor import Tensor


def _softmax_dim(x, dim, name):
    if dim is None:  # PyTorch's legacy rule, with its warning
        warnings.warn(
            f"Implicit dimension choice for {name} has been deprecated. Change the call to "
            "include dim=X as an argument.", UserWarning, stacklevel=3)
        dim = 0 if x.ndim in (0, 1, 3) else 1
    return normalize_dim(dim, x.ndim)


def _saved_output(ctx, x, dim: int, formula):
    """The forward both ops share: ``formula(xp, x - max(x))`` along ``dim`` (shifted by the
    max, so e^x never overflows; the shift cancels out), kept for backward with ``dim``. An
    empty x has nothing to normalise (and NumPy's max refuses it)."""
    if x._data.size == 0:
        y = x._new(x._data.copy())
    else:
        y = x._new(formula(x._xp, x._data - x._data.max(axis=dim, keepdims=True)))
    ctx.dim = dim
    ctx.save_for_backward(y)
    return y


class Softmax(Function):
    """y = e^x / Σ e^x along ``dim``;  dx = y · (dy - Σ dy·y)."""

    node_name = "SoftmaxBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x, dim):
        def softmax(xp, shifted):
            e = xp.exp(shifted)
            return e / e.sum(axis=dim, keepdims=True)

        return _saved_output(ctx, x, dim, softmax)

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return y * (grad - (grad * y).sum(ctx.dim, keepdim=True)), None

    @staticmethod
    def jvp(ctx, t, _):
        """J = diag(y) - y·yᵀ is symmetric: J·t is backward's formula with t."""
        (y,) = ctx.saved_tensors
        return y * (t - (t * y).sum(ctx.dim, keepdim=True))


class LogSoftmax(Function):
    """y = x - log Σ e^x along ``dim``;  dx = dy - softmax(x) · Σ dy."""

    node_name = "LogSoftmaxBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x, dim):
        def log_softmax(xp, shifted):
            return shifted - xp.log(xp.exp(shifted).sum(axis=dim, keepdims=True))

        return _saved_output(ctx, x, dim, log_softmax)

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        if plain_backward(grad, y):  # nothing records it: LogSoftmaxBackward's formula, no op
            return grad._new(_log_softmax_grad(grad, y, ctx.dim)), None
        return LogSoftmaxBackward.apply(grad, y, ctx.dim), None

    @staticmethod
    def jvp(ctx, t, _):
        """dy = dx - Σ softmax(x)·dx (J = I - 1·softmax(x)ᵀ)."""
        (y,) = ctx.saved_tensors
        return t - (y.exp() * t).sum(ctx.dim, keepdim=True)


def _log_softmax_grad(grad, y, dim: int):
    """The array dy - e^y · Σ dy along ``dim``."""
    g = grad._data
    return g - grad._xp.exp(y._data) * g.sum(axis=dim, keepdims=True)


class LogSoftmaxBackward(Function):
    """log_softmax's backward, dy - e^y · Σ dy, as ONE op (PyTorch's
    ``_log_softmax_backward_data``): one engine step instead of four tensor ops. Its own
    derivatives, for ``create_graph=True``: d/d(dy) = gg - Σ(gg · e^y),  d/dy = -gg · e^y · Σ dy.
    """

    node_name = "LogSoftmaxBackwardDataBackward0"
    saved_names = ("grad_output", "output")

    @staticmethod
    def forward(ctx, grad, y, dim):
        ctx.dim = dim
        ctx.save_for_backward(grad, y)
        return grad._new(_log_softmax_grad(grad, y, dim))

    @staticmethod
    def backward(ctx, gg):
        grad, y = ctx.saved_tensors
        need_grad, need_y = ctx.needs_input_grad[:2]
        p, dim = y.exp(), ctx.dim
        return (gg - (gg * p).sum(dim, keepdim=True) if need_grad else None,
                -gg * p * grad.sum(dim, keepdim=True) if need_y else None, None)

    @staticmethod
    def jvp(ctx, t_grad, t_y, _):
        """Linear in dy; d/dy of -e^y · Σ dy is -t_y · e^y · Σ dy."""
        grad, y, dim = ctx.fw_args
        return forward_ad.add_tangents(
            None if t_grad is None else LogSoftmaxBackward.apply(t_grad, y, dim),
            None if t_y is None else -t_y * y.exp() * grad.sum(dim, keepdim=True))


def _softmax_input(x, dim, dtype, name):
    """The dim and the (cast) input of softmax/log_softmax, refusing integer inputs."""
    dim = _softmax_dim(x, dim, name)
    if dtype is not None:
        x = x.to(dtype)
    if x._data.dtype.kind not in "fc":
        last = "lastdim_" if dim == x.ndim - 1 or x.ndim == 0 else ""
        raise not_implemented(f"{name}_{last}kernel_impl", x)
    return x, dim


def softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3,
            dtype: dtypes.dtype | None = None) -> Tensor:
    """e^x / Σ e^x along ``dim``; ``dtype=`` casts the input first (``ToCopyBackward0``),
    which PyTorch recommends against overflow in float16."""
    input, dim = _softmax_input(input, dim, dtype, "softmax")
    return Softmax.apply(input, dim)


def log_softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3,
                dtype: dtypes.dtype | None = None) -> Tensor:
    """x - log Σ e^x along ``dim``; ``dtype=`` casts the input first."""
    input, dim = _softmax_input(input, dim, dtype, "log_softmax")
    return LogSoftmax.apply(input, dim)
