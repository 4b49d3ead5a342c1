"""Batch normalisation: each channel scaled to mean 0 and variance 1 over the batch.

The gradient is written out by hand (one node instead of a dozen small ops), and it is
itself an op, so ``create_graph=True`` can go one step further.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..autograd.function import Function
from .conv import FirstOrderOnly
from .devices import same_device
from .promotion import not_implemented

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


class NativeBatchNorm(Function):
    """y = (x - mean) / sqrt(var + eps) · weight + bias, per channel (dim 1).

    Training uses the batch's statistics (and updates the running ones in place); evaluation
    uses the running statistics, which makes it a fixed affine map per channel.
    """

    node_name = "NativeBatchNormBackward0"
    saved_names = ("weight",)

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
        x_hat = centered
        x_hat *= invstd.reshape(shape)  # in place: x̂ takes over the centred array's memory
        if weight is not None:
            out = x_hat * weight._data.reshape(shape)
            if bias is not None:
                out += bias._data.reshape(shape)
        else:
            out = x_hat if bias is None else x_hat + bias._data.reshape(shape)
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
    """With x̂ the normalised input, M the values per channel, and per channel
    dbias = Σ dy,  dweight = Σ dy·x̂  (training mode):
    dx = weight · invstd · (dy - dbias/M - x̂ · dweight/M).

    (That is invstd · (g - mean(g) - x̂ · mean(g·x̂)) with g = dy·weight: both means are
    the two sums above times weight/M, so the three gradients share two reductions.)"""

    node_name = "NativeBatchNormBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, weight, arrays, training, needs):
        x_hat, invstd, axes, shape = arrays
        dy = grad._data
        use_sums = training and needs[0]  # dx needs both sums only in training mode
        db = dy.sum(axis=axes) if use_sums or needs[2] else None
        dw = (dy * x_hat).sum(axis=axes) if use_sums or needs[1] else None
        dx = None
        if needs[0]:
            scale = invstd if weight is None else weight._data * invstd
            if training:
                m = dy.size // dy.shape[1]
                dx = x_hat * (-dw / m).reshape(shape)
                dx += dy
                dx -= (db / m).reshape(shape)
                dx *= scale.reshape(shape)
            else:
                dx = dy * scale.reshape(shape)
            dx = grad._new(dx)
        return (dx, grad._new(dw) if needs[1] else None,
                grad._new(db) if needs[2] else None)


def _blend(running, value, momentum) -> None:
    """running ← (1 - momentum)·running + momentum·value, in place (a buffer, not a graph op)."""
    running._data[...] = (1.0 - momentum) * running._data + momentum * value
    running._bump_version()


def batch_norm(input: Tensor, running_mean: Tensor | None, running_var: Tensor | None,
               weight: Tensor | None = None, bias: Tensor | None = None, training: bool = False,
               momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """PyTorch's ``F.batch_norm`` over dim 1 of a (N, C, *) input."""
    same_device(input, running_mean, running_var, weight, bias)
    if input._data.dtype.kind not in "fc":
        raise not_implemented("batch_norm", input)
    if input.numel() == 0 and input.ndim < 2:  # PyTorch: nothing to normalise, no checks
        return input.clone()
    channels = input.shape[1] if input.ndim > 1 else 0  # PyTorch counts 0 channels in 1-D
    for t, name in ((running_mean, "running_mean"), (running_var, "running_var"),
                    (weight, "weight"), (bias, "bias")):
        if t is not None and t.numel() != channels:
            raise RuntimeError(f"{name} should contain {channels} elements not {t.numel()}")
    if input.numel() == 0:  # PyTorch: a copy scaled by weight[0], shifted by bias[0]
        out = input.clone()  # (no statistics to use or to track)
        out = out if weight is None else out * weight[0]
        return out if bias is None else out + bias[0]
    if training:
        per_channel = input.numel() // channels
        if per_channel == 1:
            raise ValueError(
                "Expected more than 1 value per channel when training, got input size "
                f"{input.shape!r}")
    elif running_mean is None or running_var is None:
        raise RuntimeError("running_mean and running_var must be defined in evaluation mode")
    return NativeBatchNorm.apply(input, weight, bias, running_mean, running_var, training,
                                 momentum, eps)


def instance_norm(input: Tensor, running_mean: Tensor | None = None,
                  running_var: Tensor | None = None, weight: Tensor | None = None,
                  bias: Tensor | None = None, use_input_stats: bool = True,
                  momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """PyTorch's ``F.instance_norm``: each (sample, channel) normalised over its own spatial
    positions, (x - mean) / sqrt(var + eps), then ``weight`` and ``bias`` per channel.
    Written with tensor ops (so it has derivatives of every order, where PyTorch records one
    ``NativeBatchNormBackward0``); running statistics, if given, move towards the batch's
    mean of the per-instance mean and (unbiased) variance."""
    dims = tuple(range(2, input.ndim))
    if use_input_stats:
        mean = input.mean(dims, keepdim=True)
        var = input.var(dims, correction=0, keepdim=True)
        for stats, new in ((running_mean, mean),
                           (running_var, input.var(dims, keepdim=True))):
            if stats is not None:
                batch = new.detach().reshape(input.shape[0], input.shape[1]).mean(0)
                stats.copy_(stats * (1 - momentum) + batch * momentum)
    else:
        shape = (1, input.shape[1]) + (1,) * len(dims)
        mean, var = running_mean.reshape(shape), running_var.reshape(shape)
    out = (input - mean) / (var + eps).sqrt()
    shape = (1, input.shape[1]) + (1,) * len(dims)
    if weight is not None:
        out = out * weight.reshape(shape)
    if bias is not None:
        out = out + bias.reshape(shape)
    return out
