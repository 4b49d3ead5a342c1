"""S-shaped curves: ``sigmoid`` (from 0 to 1), ``tanh`` (from -1 to 1), ``hardtanh`` (its
piecewise-linear form, a clamp), and ``glu``, a gate: one half of the input times the sigmoid of
the other.

* sigmoid(x) = 1 / (1 + e^-x)          d/dx = y (1 - y)
* tanh(x)                              d/dx = 1 - y²
* hardtanh(x) = clamp(x, lo, hi)       d/dx = 1 strictly inside (lo, hi), else 0
* glu(x) = a · σ(b), a and b the two halves of x along ``dim``

Float functions of an integer or bool tensor compute in the default float type (float32), as
PyTorch's do: ``floating`` casts such inputs first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ...autograd import forward_ad
from ...autograd.function import Function
from ..combine import cat, where
from ..dims import normalize_dim
from ..promotion import floating

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ...tensor import Tensor


class Sigmoid(Function):
    """y = 1 / (1 + e^-x);  dy/dx = y (1 - y)."""

    node_name = "SigmoidBackward0"
    jvp = forward_ad.elementwise
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x):
        xp, data = x._xp, x._data
        # PyTorch's kernel, 1 / (1 + e^-x), so values match it bit for bit far more often;
        # e^-x is taken in float64 and rounded, as close as NumPy gets to PyTorch's float32
        # exp. For x < -88 it overflows to inf and y is 0, as in PyTorch. float16 is
        # computed in float32 and rounded once at the end (PyTorch's half kernels do so).
        work = xp.float32 if data.dtype == xp.float16 else data.dtype
        with np.errstate(over="ignore"):
            e = xp.exp(-data.astype(xp.float64)).astype(work, copy=False)
        y = x._new((1.0 / (1.0 + e)).astype(data.dtype, copy=False))
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return SigmoidBackward.apply(grad, y)


class SigmoidBackward(Function):
    """sigmoid's backward, grad · y(1 - y), as one op (PyTorch's ``sigmoid_backward``):
    d/dgrad = y(1 - y),  d/dy = grad · (1 - 2y)."""

    node_name = "SigmoidBackwardBackward0"
    jvp = forward_ad.elementwise
    saved_names = ("grad_output", "output")

    @staticmethod
    def forward(ctx, grad, y):
        ctx.save_for_backward(grad, y)
        data = y._data
        return grad._new(grad._data * (data * (1.0 - data)))

    @staticmethod
    def backward(ctx, gg):
        grad, y = ctx.saved_tensors
        need_grad, need_y = ctx.needs_input_grad
        return (SigmoidBackward.apply(gg, y) if need_grad else None,
                gg * grad * (1.0 - 2.0 * y) if need_y else None)


class Tanh(Function):
    """y = tanh x;  dy/dx = 1 - y²."""

    node_name = "TanhBackward0"
    jvp = forward_ad.elementwise
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x):
        y = x._new(x._xp.tanh(x._data))
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return TanhBackward.apply(grad, y)


class TanhBackward(Function):
    """tanh's backward, grad · (1 - y²), as ONE op (PyTorch's ``tanh_backward``): one step in
    the engine instead of three tensor ops. It records itself when ``create_graph=True``:
    d/dgrad = 1 - y²,  d/dy = -2 · y · grad."""

    node_name = "TanhBackwardBackward0"
    jvp = forward_ad.elementwise
    saved_names = ("grad_output", "output")

    @staticmethod
    def forward(ctx, grad, y):
        ctx.save_for_backward(grad, y)
        data = y._data
        return grad._new(grad._data * (1.0 - data * data))

    @staticmethod
    def backward(ctx, gg):
        grad, y = ctx.saved_tensors
        need_grad, need_y = ctx.needs_input_grad
        return (TanhBackward.apply(gg, y) if need_grad else None,
                gg * grad * y * -2.0 if need_y else None)


class Hardtanh(Function):
    node_name = "HardtanhBackward0"
    jvp = forward_ad.elementwise

    @staticmethod
    def forward(ctx, x, low, high):
        ctx.save_for_backward(x)
        ctx.low, ctx.high = low, high
        return x._new(x._xp.clip(x._data, low, high).astype(x._data.dtype))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return where((x > ctx.low) & (x < ctx.high), grad, 0.0), None, None


class Glu(Function):
    node_name = "GluBackward0"

    @staticmethod
    def forward(ctx, x, dim):
        ctx.save_for_backward(x)
        ctx.dim = dim
        half = x.shape[dim] // 2
        a, b = x._xp.split(x._data, [half], axis=dim)
        return x._new((a / (1 + x._xp.exp(-b))).astype(x._data.dtype))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        a, b = x.chunk(2, ctx.dim)
        gate = b.sigmoid()
        return cat([grad * gate, grad * a * gate * (1 - gate)], ctx.dim), None


def sigmoid(input: Tensor) -> Tensor:
    return Sigmoid.apply(floating(input))


def tanh(input: Tensor) -> Tensor:
    return Tanh.apply(floating(input))


def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0,
             inplace: bool = False) -> Tensor:
    """``clamp(x, min_val, max_val)``, with hardtanh's gradient (0 at the edges too)."""
    if inplace:
        raise NotImplementedError("hardtanh(inplace=True) is not supported here")
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    return Hardtanh.apply(input, min_val, max_val)


def glu(input: Tensor, dim: int = -1) -> Tensor:
    """Gated linear unit: the first half of ``dim`` times the sigmoid of the second half."""
    if input.ndim == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    dim = normalize_dim(dim, input.ndim)
    if input.shape[dim] % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {dim} is size "
                           f"{input.shape[dim]}")
    return Glu.apply(input, dim)
