"""Loss functions that need their own numerically careful backward."""

from __future__ import annotations

from ..autograd.function import Function


class BinaryCrossEntropyWithLogits(Function):
    """ℓ = mean(-w [y log σ(z) + (1-y) log(1-σ(z))]) computed from the logits z directly.

    Written as ``max(z, 0) - z·y + log(1 + e^-|z|)``, which never overflows, even for
    logits of ±1000. Its derivative is neat: dℓ/dz = w (σ(z) - y) / n.
    """

    node_name = "BinaryCrossEntropyWithLogitsBackward0"

    @staticmethod
    def forward(ctx, z, y, weight, pos_weight, reduction):
        xp, zd, yd = z._xp, z._data, y._data
        log_weight = 1.0 if pos_weight is None else (pos_weight._data - 1.0) * yd + 1.0
        # PyTorch's order of operations: (1 - y)·z - log σ(z), with log σ(z) = min(z, 0) -
        # log1p(e^-|z|); exp and log1p in float64, rounded (closest to PyTorch's float32)
        e = xp.exp(-xp.abs(zd).astype(xp.float64)).astype(zd.dtype)
        log_sigmoid = xp.minimum(zd, 0.0) - xp.log1p(e.astype(xp.float64)).astype(zd.dtype)
        loss = (1.0 - yd) * zd - log_weight * log_sigmoid
        if weight is not None:
            loss = loss * weight._data
        ctx.save_for_backward(z, y, weight, pos_weight)
        ctx.reduction = reduction
        return z._new(xp.asarray(_reduce(loss, reduction), dtype=zd.dtype))

    @staticmethod
    def backward(ctx, grad):
        z, y, weight, pos_weight = ctx.saved_tensors
        s = z.sigmoid()
        if pos_weight is None:
            dz = s - y
        else:
            dz = (pos_weight * y + 1.0 - y) * s - pos_weight * y
        if weight is not None:
            dz = dz * weight
        dz = dz * grad  # then divide, in PyTorch's order (the last bits of float32 agree)
        if ctx.reduction == "mean":
            dz = dz / z.numel()
        grad_y = None
        if ctx.needs_input_grad[1]:
            # dℓ/dy = log(1 - σ(z)) - p·log σ(z) = -softplus(z) + p·softplus(-z)  (= -z if p = 1)
            if pos_weight is None:
                grad_y = -z * grad
            else:
                grad_y = (pos_weight * _softplus(-z) - _softplus(z)) * grad
            if weight is not None:
                grad_y = grad_y * weight
            if ctx.reduction == "mean":
                grad_y = grad_y / z.numel()
        return dz, grad_y, None, None, None


def _reduce(loss, reduction: str):
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    if reduction == "none":
        return loss
    raise ValueError(f"{reduction} is not a valid value for reduction")


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None,  # noqa: A002
                                     reduce=None, reduction="mean", pos_weight=None):
    """BCE on logits (note 002's loss): sigmoid and log fused for numerical stability."""
    if input.shape != target.shape:
        raise ValueError(
            f"Target size ({target.shape!r}) must be the same as input size ({input.shape!r})"
        )
    return BinaryCrossEntropyWithLogits.apply(input, target, weight, pos_weight, reduction)


def _softplus(z):
    """log(1 + e^z) = max(z, 0) + log(1 + e^-|z|), with tensor ops (never overflows)."""
    return z.relu() + ((-z.abs()).exp() + 1.0).log()
