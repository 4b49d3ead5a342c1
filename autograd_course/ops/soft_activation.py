"""More activation functions of ``nn.functional``: ``softplus``, ``logsigmoid``, ``hardtanh``,
``mish``, ``hardswish`` and ``glu``, each one node with PyTorch's name.

* softplus(x) = log(1 + e^(βx)) / β           d/dx = σ(βx)   (x itself past the threshold)
* logsigmoid(x) = log σ(x) = -softplus(-x)    d/dx = σ(-x)
* hardtanh(x) = clamp(x, lo, hi)              d/dx = 1 strictly inside (lo, hi), else 0
* mish(x) = x · tanh(softplus(x))             d/dx = tanh(sp) + x σ(x) (1 - tanh²(sp))
* hardswish(x) = x · clamp(x + 3, 0, 6) / 6   d/dx = 0 below -3, (2x + 3) / 6 up to 3, then 1
* glu(x) = a · σ(b), a and b the two halves of x along ``dim``
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..autograd.function import Function
from .combine import cat, where
from .dims import normalize_dim

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


class Softplus(Function):
    node_name = "SoftplusBackward0"

    @staticmethod
    def forward(ctx, x, beta, threshold):
        ctx.save_for_backward(x)
        ctx.beta, ctx.threshold = beta, threshold
        xp, data = x._xp, x._data
        scaled = data * beta
        smooth = xp.logaddexp(0, scaled) / beta
        return x._new(xp.where(scaled > threshold, data, smooth).astype(data.dtype))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        scaled = x * ctx.beta
        return where(scaled > ctx.threshold, grad, grad * scaled.sigmoid()), None, None


class LogSigmoid(Function):
    node_name = "LogSigmoidBackward0"

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x._new((-x._xp.logaddexp(0, -x._data)).astype(x._data.dtype))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * (-x).sigmoid()


class Hardtanh(Function):
    node_name = "HardtanhBackward0"

    @staticmethod
    def forward(ctx, x, low, high):
        ctx.save_for_backward(x)
        ctx.low, ctx.high = low, high
        return x._new(x._xp.clip(x._data, low, high).astype(x._data.dtype))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return where((x > ctx.low) & (x < ctx.high), grad, 0.0), None, None


class Mish(Function):
    node_name = "MishBackward0"

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        xp, data = x._xp, x._data
        return x._new((data * xp.tanh(xp.logaddexp(0, data))).astype(data.dtype))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        t = softplus(x).tanh()
        return grad * (t + x * x.sigmoid() * (1 - t * t))


class Hardswish(Function):
    node_name = "HardswishBackward0"

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        data = x._data
        return x._new((data * x._xp.clip(data + 3, 0, 6) / 6).astype(data.dtype))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        middle = where(x <= 3, grad * (x / 3 + 0.5), grad)
        return where(x < -3, 0.0, middle)


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


def _floating(input, name):
    if input._data.dtype.kind not in "fc":
        raise NotImplementedError(f'"{name}" not implemented for \'Long\'')


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    """A smooth ReLU: ``log(1 + exp(beta * x)) / beta`` (x itself where beta * x > threshold)."""
    _floating(input, "softplus_cpu")
    return Softplus.apply(input, beta, threshold)


def logsigmoid(input: Tensor) -> Tensor:
    """``log(sigmoid(x))``, computed without overflow."""
    _floating(input, "log_sigmoid_forward_cpu")
    return LogSigmoid.apply(input)


def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0,
             inplace: bool = False) -> Tensor:
    """``clamp(x, min_val, max_val)``, with hardtanh's gradient (0 at the edges too)."""
    if inplace:
        raise NotImplementedError("hardtanh(inplace=True) is not supported here")
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    return Hardtanh.apply(input, min_val, max_val)


def mish(input: Tensor, inplace: bool = False) -> Tensor:
    """``x * tanh(softplus(x))``."""
    if inplace:
        raise NotImplementedError("mish(inplace=True) is not supported here")
    _floating(input, "mish_cpu")
    return Mish.apply(input)


def hardswish(input: Tensor, inplace: bool = False) -> Tensor:
    """``x * relu6(x + 3) / 6``: a piecewise-quadratic swish."""
    if inplace:
        raise NotImplementedError("hardswish(inplace=True) is not supported here")
    _floating(input, "hardswish_cpu")
    return Hardswish.apply(input)


def glu(input: Tensor, dim: int = -1) -> Tensor:
    """Gated linear unit: the first half of ``dim`` times the sigmoid of the second half."""
    if input.ndim == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    dim = normalize_dim(dim, input.ndim)
    if input.shape[dim] % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {dim} is size "
                           f"{input.shape[dim]}")
    return Glu.apply(input, dim)


class Prelu(Function):
    """x where x ≥ 0, else a·x (a learnt, one per channel or one for all);
    d/dx = 1 or a,  d/da = x where x < 0."""

    node_name = "PreluKernelBackward0"

    @staticmethod
    def forward(ctx, x, weight, shape):
        ctx.save_for_backward(x, weight)
        ctx.shape = shape
        slope = weight._data.reshape(shape)
        return x._new(x._xp.where(x._data >= 0, x._data, x._data * slope))

    @staticmethod
    def backward(ctx, grad):
        x, weight = ctx.saved_tensors
        slope = weight.reshape(ctx.shape)
        grad_x = where(x >= 0, grad, grad * slope)
        grad_w = where(x >= 0, 0.0, grad * x).sum_to_size(ctx.shape).reshape(weight.shape)
        return grad_x, grad_w, None


def prelu(input: Tensor, weight: Tensor) -> Tensor:
    """Leaky ReLU with a learnt slope ``weight`` (one value, or one per channel: dim 1)."""
    n = weight.numel()
    if n != 1 and (input.ndim < 2 or input.shape[1] != n):
        channels = input.shape[1] if input.ndim >= 2 else 1
        raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found "
                           f"parameter numbers = {n} and channel size = {channels}.")
    shape = (1,) * input.ndim if n == 1 else (1, n) + (1,) * (input.ndim - 2)
    return Prelu.apply(input, weight, shape)
