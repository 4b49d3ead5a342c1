"""The ops neural networks are made of: softmax, the losses, batch normalisation, dropout.

Each gradient here is written out by hand rather than left to the chain rule through many
small ops, for two reasons: it is far cheaper (one node instead of ten), and it is the
numerically careful form (softmax subtracts the max; the losses never divide by zero).
"""

from __future__ import annotations

import warnings

import numpy as np

from ..autograd.function import Function
from ._util import normalize_dim, not_implemented, same_device, scalar_type
from .conv import FirstOrderOnly
from .loss import (  # noqa: F401  (the regression losses live there; nn.functional finds them here)
    _check_reduction,
    _reduce,
    binary_cross_entropy,
    l1_loss,
    mse_loss,
)


# --- softmax -----------------------------------------------------------------------------------
def _softmax_dim(x, dim, name):
    if dim is None:  # PyTorch's legacy rule, with its warning
        warnings.warn(
            f"Implicit dimension choice for {name} has been deprecated. Change the call to "
            "include dim=X as an argument.", UserWarning, stacklevel=3)
        dim = 0 if x.ndim in (0, 1, 3) else 1
    return normalize_dim(dim, x.ndim)


class Softmax(Function):
    """y = e^x / Σ e^x along ``dim``;  dx = y · (dy - Σ dy·y)."""

    node_name = "SoftmaxBackward0"

    @staticmethod
    def forward(ctx, x, dim):
        xp = x._xp
        if x._data.size == 0:  # nothing to normalise (NumPy's max refuses empty arrays)
            y = x._new(x._data.copy())
            ctx.dim = dim
            ctx.save_for_backward(y)
            return y
        e = xp.exp(x._data - x._data.max(axis=dim, keepdims=True))  # shift: exp never overflows
        y = x._new(e / e.sum(axis=dim, keepdims=True))
        ctx.dim = dim
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return y * (grad - (grad * y).sum(ctx.dim, keepdim=True)), None


class LogSoftmax(Function):
    """y = x - log Σ e^x along ``dim``;  dx = dy - softmax(x) · Σ dy."""

    node_name = "LogSoftmaxBackward0"

    @staticmethod
    def forward(ctx, x, dim):
        xp = x._xp
        if x._data.size == 0:
            y = x._new(x._data.copy())
            ctx.dim = dim
            ctx.save_for_backward(y)
            return y
        shifted = x._data - x._data.max(axis=dim, keepdims=True)
        y = x._new(shifted - xp.log(xp.exp(shifted).sum(axis=dim, keepdims=True)))
        ctx.dim = dim
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return LogSoftmaxBackward.apply(grad, y, ctx.dim), None


class LogSoftmaxBackward(Function):
    """log_softmax's backward, dy - e^y · Σ dy, as ONE op (PyTorch's
    ``_log_softmax_backward_data``): one engine step instead of four tensor ops. Its own
    derivatives, for ``create_graph=True``: d/d(dy) = gg - Σ(gg · e^y),  d/dy = -gg · e^y · Σ dy.
    """

    node_name = "LogSoftmaxBackwardDataBackward0"

    @staticmethod
    def forward(ctx, grad, y, dim):
        ctx.dim = dim
        ctx.save_for_backward(grad, y)
        g = grad._data
        return grad._new(g - grad._xp.exp(y._data) * g.sum(axis=dim, keepdims=True))

    @staticmethod
    def backward(ctx, gg):
        grad, y = ctx.saved_tensors
        need_grad, need_y = ctx.needs_input_grad[:2]
        p, dim = y.exp(), ctx.dim
        return (gg - (gg * p).sum(dim, keepdim=True) if need_grad else None,
                -gg * p * grad.sum(dim, keepdim=True) if need_y else None, None)


def _softmax_input(x, dim, dtype, name):
    """The dim and the (cast) input of softmax/log_softmax, refusing integer inputs."""
    dim = _softmax_dim(x, dim, name)
    if dtype is not None:
        x = x.to(dtype)
    if x._data.dtype.kind not in "fc":
        last = "lastdim_" if dim == x.ndim - 1 or x.ndim == 0 else ""
        raise not_implemented(f"{name}_{last}kernel_impl", x)
    return x, dim


def softmax(x, dim=None, _stacklevel=3, dtype=None):
    x, dim = _softmax_input(x, dim, dtype, "softmax")
    return Softmax.apply(x, dim)


def log_softmax(x, dim=None, _stacklevel=3, dtype=None):
    x, dim = _softmax_input(x, dim, dtype, "log_softmax")
    return LogSoftmax.apply(x, dim)


# --- classification losses ---------------------------------------------------------------------
class NllLoss(Function):
    """ℓ = -Σ_n w[t_n] · x[n, t_n] / Σ_n w[t_n] (mean);  dx[n, t_n] = -w[t_n] / Σ w."""

    node_name = "NllLossBackward0"

    @staticmethod
    def forward(ctx, x, target, weight, reduction, ignore_index):
        xp = x._xp
        data = x._data if x.ndim == 2 else x._data[None]
        t = target._data.reshape(-1)
        keep = t != ignore_index
        safe_t = xp.where(keep, t, 0)
        w = xp.ones(data.shape[1], data.dtype) if weight is None else weight._data
        w_n = xp.where(keep, w[safe_t], 0).astype(data.dtype)       # weight of each sample
        picked = data[xp.arange(data.shape[0]), safe_t]
        losses = -picked * w_n
        total = w_n.sum()
        if reduction == "mean":
            loss = losses.sum() / total
        else:
            loss = _reduce(losses, reduction)
            if reduction == "none" and x.ndim == 1:
                loss = loss.reshape(())
        coef = xp.zeros_like(data)                                 # dℓ_n/dx[n, c]
        # an ignored target gets no gradient at all, even when the mean is 0/0 = NaN (PyTorch)
        scale = -w_n / (total if reduction == "mean" else 1)
        coef[xp.arange(data.shape[0]), safe_t] = xp.where(keep, scale, 0)
        ctx.coef, ctx.reduction, ctx.shape = coef, reduction, x.shape
        return x._new(xp.asarray(loss, dtype=data.dtype))

    @staticmethod
    def backward(ctx, grad):
        coef = grad._new(ctx.coef)
        if ctx.reduction == "none" and grad.ndim == 1:
            grad = grad.unsqueeze(1)
        out = grad * coef
        if out._data.shape != ctx.shape:  # (N, C) input: already its shape, no reshape op
            out = out.reshape(ctx.shape)
        return out, None, None, None, None


def nll_loss(x, target, weight=None, ignore_index=-100, reduction="mean"):
    """PyTorch's ``F.nll_loss`` for (N, C) or (C,) log-probabilities and class indices."""
    _check_reduction(reduction)
    same_device(x, target, weight)
    if x.ndim not in (1, 2):
        raise NotImplementedError(
            f"nll_loss here takes (N, C) or (C,) input, got {list(x.shape)}; reshape spatial "
            "inputs to (N·H·W, C) first")
    if target.ndim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if target._data.dtype not in (np.int64, np.uint8):
        raise RuntimeError(
            f"expected target dtype to be Long or Byte, but got {scalar_type(target)}")
    if weight is not None and weight._data.dtype != x._data.dtype:
        raise RuntimeError(
            f"expected scalar type {scalar_type(x)} but found {scalar_type(weight)}")
    batch = x.shape[0] if x.ndim == 2 else 1
    if target.numel() != batch or target.ndim != x.ndim - 1:
        raise ValueError(
            f"Expected input batch_size ({batch}) to match target batch_size "
            f"({target.shape[0] if target.ndim else 1}).")
    t = target._data.reshape(-1)
    bad = (t != ignore_index) & ((t < 0) | (t >= x.shape[-1]))
    if bad.any():
        raise IndexError(f"Target {int(t[bad.argmax()])} is out of bounds.")
    if weight is not None and weight.shape != (x.shape[-1],):
        raise RuntimeError(
            f"weight tensor should be defined either for all {x.shape[-1]} classes or no "
            f"classes but got weight tensor of shape: {list(weight.shape)}")
    return NllLoss.apply(x, target, weight, reduction, ignore_index)


def cross_entropy(x, target, weight=None, ignore_index=-100, reduction="mean",
                  label_smoothing=0.0):
    """log_softmax then nll_loss (PyTorch's ``F.cross_entropy``), for class-index targets or
    class probabilities (a float target of the input's shape)."""
    _check_reduction(reduction)
    if label_smoothing != 0.0:
        raise NotImplementedError("cross_entropy: label_smoothing is not implemented")
    class_dim = 0 if x.ndim == 1 else 1
    log_p = log_softmax(x, class_dim)
    if target.shape == x.shape:  # class probabilities
        if target._data.dtype.kind != "f":
            raise RuntimeError("Expected floating point type for target with class "
                               f"probabilities, got {scalar_type(target)}")
        if weight is not None and weight._data.dtype != x._data.dtype:
            raise RuntimeError(
                f"expected scalar type {scalar_type(x)} but found {scalar_type(weight)}")
        per_class = target * log_p if weight is None else target * log_p * weight
        losses = -per_class.sum(class_dim)
        if reduction == "mean":
            return losses.sum() / (x.shape[0] if x.ndim == 2 else 1)
        return losses.sum() if reduction == "sum" else losses
    return nll_loss(log_p, target, weight, ignore_index, reduction)


# --- batch normalisation -----------------------------------------------------------------------
class NativeBatchNorm(Function):
    """y = (x - mean) / sqrt(var + eps) · weight + bias, per channel (dim 1).

    Training uses the batch's statistics (and updates the running ones in place); evaluation
    uses the running statistics, which makes it a fixed affine map per channel.
    """

    node_name = "NativeBatchNormBackward0"

    @staticmethod
    def forward(ctx, x, weight, bias, running_mean, running_var, training, momentum, eps):
        xp, data = x._xp, x._data
        axes = (0,) + tuple(range(2, data.ndim))
        shape = (1, -1) + (1,) * (data.ndim - 2)
        if training:
            mean = data.mean(axis=axes)
            centered = data - mean.reshape(shape)
            var = (centered * centered).mean(axis=axes)                # biased: normalises
            if running_mean is not None:
                n = data.size // data.shape[1]
                _blend(running_mean, mean, momentum)
                _blend(running_var, var * (n / max(n - 1, 1)), momentum)  # unbiased: tracked
        else:
            mean, var = running_mean._data, running_var._data
            centered = data - mean.reshape(shape)
        invstd = 1.0 / xp.sqrt(var + eps)
        x_hat = centered * invstd.reshape(shape)
        out = x_hat
        if weight is not None:
            out = out * weight._data.reshape(shape)
        if bias is not None:
            out = out + bias._data.reshape(shape)
        ctx.training = training
        ctx.arrays = x_hat, invstd, axes, shape
        ctx.save_for_backward(weight)
        return x._new(out.astype(data.dtype, copy=False))

    @staticmethod
    def backward(ctx, grad):
        (weight,) = ctx.saved_tensors
        dx, dw, db = BatchNormGrad.apply(grad, weight, ctx.arrays, ctx.training,
                                         ctx.needs_input_grad[:3])
        return dx, dw, db, None, None, None, None, None


class BatchNormGrad(FirstOrderOnly):
    """With x̂ the normalised input and g = dy·weight (training mode):
    dx = invstd · (g - mean(g) - x̂ · mean(g·x̂)),  dweight = Σ dy·x̂,  dbias = Σ dy."""

    node_name = "NativeBatchNormBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, weight, arrays, training, needs):
        x_hat, invstd, axes, shape = arrays
        dy = grad._data
        dx = dw = db = None
        if needs[0]:
            g = dy if weight is None else dy * weight._data.reshape(shape)
            if training:
                g = g - g.mean(axis=axes, keepdims=True) \
                    - x_hat * (g * x_hat).mean(axis=axes, keepdims=True)
            dx = grad._new(g * invstd.reshape(shape))
        if needs[1]:
            dw = grad._new((dy * x_hat).sum(axis=axes))
        if needs[2]:
            db = grad._new(dy.sum(axis=axes))
        return dx, dw, db


def _blend(running, value, momentum) -> None:
    """running ← (1 - momentum)·running + momentum·value, in place (a buffer, not a graph op)."""
    running._data[...] = (1.0 - momentum) * running._data + momentum * value
    running._bump_version()


def batch_norm(x, running_mean, running_var, weight=None, bias=None, training=False,
               momentum=0.1, eps=1e-5):
    """PyTorch's ``F.batch_norm`` over dim 1 of a (N, C, *) input."""
    same_device(x, running_mean, running_var, weight, bias)
    if x._data.dtype.kind not in "fc":
        raise not_implemented("batch_norm", x)
    channels = x.shape[1] if x.ndim > 1 else None
    for t, name in ((running_mean, "running_mean"), (running_var, "running_var"),
                    (weight, "weight"), (bias, "bias")):
        if t is not None and t.numel() != channels:
            raise RuntimeError(f"{name} should contain {channels} elements not {t.numel()}")
    if training:
        per_channel = x.numel() // channels
        if per_channel == 1:
            raise ValueError(
                "Expected more than 1 value per channel when training, got input size "
                f"{x.shape!r}")
    elif running_mean is None or running_var is None:
        raise RuntimeError("running_mean and running_var must be defined in evaluation mode")
    return NativeBatchNorm.apply(x, weight, bias, running_mean, running_var, training,
                                 momentum, eps)


# --- dropout -------------------------------------------------------------------------------
def dropout(x, p=0.5, training=True, inplace=False, generator=None):
    """Zero each element with probability p and scale the rest by 1/(1-p).

    The mask is ``bernoulli(1 - p) / (1 - p)`` drawn from the same generator PyTorch uses,
    and the result is a plain multiplication (so ``grad_fn`` is ``MulBackward0``, as in
    PyTorch on the CPU).
    """
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return x
    if x._data.dtype.kind not in "fc":
        raise RuntimeError(f"result type Float can't be cast to the desired output type "
                           f"{scalar_type(x)}")
    from .. import random as _random

    gen = generator or _random.default_generator
    xp = x._xp
    if p == 1.0:
        noise = xp.zeros(x.shape, dtype=x._data.dtype)
    else:
        keep = gen.bernoulli(tuple(x.shape), 1.0 - p, x._data.dtype)
        noise = xp.asarray(keep / x._data.dtype.type(1.0 - p))
    mask = x._new(noise)
    if inplace:
        return x.mul_(mask)
    return x * mask
