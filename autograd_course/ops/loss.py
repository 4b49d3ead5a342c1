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
        loss = (1.0 - yd) * zd + log_weight * (
            xp.log1p(xp.exp(-xp.abs(zd))) + xp.maximum(-zd, 0.0)
        )
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
        if ctx.reduction == "mean":
            dz = dz * (grad / z.numel())
        else:
            dz = dz * grad
        grad_y = None
        if ctx.needs_input_grad[1]:
            grad_y = -z * grad if ctx.reduction != "mean" else -z * (grad / z.numel())
            if weight is not None:
                grad_y = grad_y * weight
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
