"""Losses on classes and probabilities: ``nll_loss``, ``cross_entropy`` and ``kl_div`` (on
``xlogy``, with the logarithms in exp_log.py); binary cross-entropy is in binary_loss.py.

Each loss with a backward of its own computes it in the numerically careful form: on logits
rather than probabilities, with logs clamped, and never dividing by zero.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

import numpy as np

from ..autograd import forward_ad
from ..autograd.function import Function
from .activations.softmax import log_softmax
from .combine import where
from .devices import same_device
from .exp_log import xlogy
from .loss_reduction import check_reduction, legacy_reduction, reduce_loss
from .plain_backward import plain_backward
from .promotion import scalar_type

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


# --- negative log-likelihood and cross-entropy -------------------------------------------------
class NllLoss(Function):
    """ℓ = -Σ_n w[t_n] · x[n, t_n] / Σ_n w[t_n] (mean);  dx[n, t_n] = -w[t_n] / Σ w.

    The classes are dim 1; any dims after it are positions (an image's pixels, each with its
    own target), treated as more samples: ``x[n, t_n, ...]``."""

    node_name = "NllLossBackward0"
    jvp = forward_ad.linear_in_input

    @staticmethod
    def forward(ctx, x, target, weight, reduction, ignore_index):
        xp = x._xp
        data = x._data if x.ndim >= 2 else x._data[None]           # (N, C, *positions)
        t = target._data.reshape(data.shape[:1] + data.shape[2:])   # (N, *positions)
        keep = t != ignore_index
        if (weight is None and data.ndim == 2 and data.dtype in (np.float32, np.float64)
                and 0 < t.size < 2**24 and keep.all()):
            loss, coef = _unweighted(xp, data, t, reduction)
        else:
            loss, coef = _weighted(xp, data, t, keep, weight, reduction)
        if reduction == "none" and x.ndim == 1:
            loss = loss.reshape(())
        ctx.coef, ctx.reduction, ctx.shape = coef, reduction, x.shape
        return x._new(xp.asarray(loss, dtype=data.dtype))

    @staticmethod
    def backward(ctx, grad):
        if grad.ndim == 0 and grad._data.dtype == ctx.coef.dtype and plain_backward(grad):
            return (grad._new((grad._data * ctx.coef).reshape(ctx.shape)),  # the same product,
                    None, None, None, None)                                  # on the arrays
        coef = grad._new(ctx.coef)
        if ctx.reduction == "none" and grad.ndim >= 1:  # one loss per sample: along dim 1
            grad = grad.unsqueeze(1)
        out = grad * coef
        if out._data.shape != ctx.shape:  # (N, C) input: already its shape, no reshape op
            out = out.reshape(ctx.shape)
        return out, None, None, None, None


def _unweighted(xp, data, t, reduction):
    """The usual case, (N, C) scores, no weight and no ignored target: ℓ_n = -x[n, t_n], the
    mean divides by N, dx[n, t_n] = -1/N (-1 for 'sum' and 'none'). The same numbers as
    ``_weighted``'s, whose weights are then all 1 (a float32 count of N < 2²⁴ ones is exact)."""
    rows = xp.arange(t.shape[0])
    losses = -data[rows, t]
    count = data.dtype.type(t.shape[0])
    loss = losses.sum() / count if reduction == "mean" else reduce_loss(losses, reduction)
    coef = xp.zeros(data.shape, data.dtype)
    coef[rows, t] = -1 / count if reduction == "mean" else -1
    return loss, coef


def _weighted(xp, data, t, keep, weight, reduction):
    """ℓ_n = -w[t_n] · x[n, t_n] (0 where the target is ignored), the mean divided by Σ w[t_n];
    and dℓ/dx, which is -w[t_n] (over Σ w for the mean) at the target's class only."""
    safe_t = xp.where(keep, t, 0)
    w = xp.ones(data.shape[1], data.dtype) if weight is None else weight._data
    w_n = xp.where(keep, w[safe_t], 0).astype(data.dtype)       # weight of each sample
    picked = xp.take_along_axis(data, safe_t[:, None], axis=1)[:, 0]
    losses = -picked * w_n
    total = w_n.sum()
    if reduction == "mean":
        loss = losses.sum() / total
    else:
        loss = reduce_loss(losses, reduction)
    # dℓ_n/dx[n, c]: the target's class only. An ignored target gets no gradient at all,
    # even when the mean is 0/0 = NaN (PyTorch)
    scale = xp.where(keep, -w_n / (total if reduction == "mean" else 1), 0)
    classes = xp.arange(data.shape[1]).reshape((1, -1) + (1,) * (data.ndim - 2))
    coef = xp.where(classes == safe_t[:, None], scale[:, None], 0).astype(data.dtype)
    return loss, coef


class NllLoss2D(NllLoss):
    """The same loss on (N, C, H, W) scores and (N, H, W) targets (PyTorch's node name)."""

    node_name = "NllLoss2DBackward0"


def _check_spatial_target(input: Tensor, target: Tensor) -> None:
    """PyTorch's refusals of a target that does not fit (N, C, d1, ...) scores."""
    if target.ndim and target.shape[0] != input.shape[0]:
        raise ValueError(f"Expected input batch_size ({input.shape[0]}) to match target "
                         f"batch_size ({target.shape[0]}).")
    if input.ndim == 4 and target.ndim != 3:
        raise RuntimeError("only batches of spatial targets supported (3D tensors) but got "
                           f"targets of dimension: {target.ndim}")
    if input.ndim == 4 and target.shape[1:] != input.shape[2:]:
        raise RuntimeError(f"size mismatch (got input: {list(input.shape)} , target: "
                           f"{list(target.shape)}")
    expected = [input.shape[0], *input.shape[2:]]
    if list(target.shape) != expected:
        raise RuntimeError(f"Expected target size {expected}, got {list(target.shape)}")


def nll_loss(input: Tensor, target: Tensor, weight: Tensor | None = None,
             size_average: bool | None = None, ignore_index: int = -100,
             reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """PyTorch's ``F.nll_loss`` for (N, C) or (C,) log-probabilities and class indices, or
    (N, C, d1, ...) ones with (N, d1, ...) targets (one class per position)."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    check_reduction(reduction)
    same_device(input, target, weight)
    if input.ndim > 2:
        _check_spatial_target(input, target)
    elif target.ndim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if target._data.dtype not in (np.int64, np.uint8):
        raise RuntimeError(
            f"expected target dtype to be Long or Byte, but got {scalar_type(target)}")
    if weight is not None and weight._data.dtype != input._data.dtype:
        raise RuntimeError(
            f"expected scalar type {scalar_type(input)} but found {scalar_type(weight)}")
    batch = input.shape[0] if input.ndim == 2 else 1
    if input.ndim <= 2 and (target.numel() != batch or target.ndim != input.ndim - 1):
        raise ValueError(
            f"Expected input batch_size ({batch}) to match target batch_size "
            f"({target.shape[0] if target.ndim else 1}).")
    classes = input.shape[1] if input.ndim >= 2 else input.shape[0]
    t = target._data.reshape(-1)
    if t.size and (t.min() < 0 or t.max() >= classes):  # out of bounds, unless ignored
        bad = (t != ignore_index) & ((t < 0) | (t >= classes))
        if bad.any():
            raise IndexError(f"Target {int(t[bad.argmax()])} is out of bounds.")
    if weight is not None and weight.shape != (classes,):
        raise RuntimeError(
            f"weight tensor should be defined either for all {classes} classes or no "
            f"classes but got weight tensor of shape: {list(weight.shape)}")
    if input.ndim <= 2:
        return NllLoss.apply(input, target, weight, reduction, ignore_index)
    if input.ndim == 4:
        return NllLoss2D.apply(input, target, weight, reduction, ignore_index)
    # other spatial shapes: viewed as (N, C, 1, d1·d2·...), as PyTorch does
    n, c = input.shape[:2]
    out = NllLoss2D.apply(input.reshape(n, c, 1, -1), target.reshape(n, 1, -1), weight,
                          reduction, ignore_index)
    return out.reshape(target.shape) if reduction == "none" else out


def cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None,
                  size_average: bool | None = None, ignore_index: int = -100,
                  reduce: bool | None = None, reduction: str = "mean",
                  label_smoothing: float = 0.0) -> Tensor:
    """log_softmax then nll_loss (PyTorch's ``F.cross_entropy``), for class-index targets or
    class probabilities (a float target of the input's shape)."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    check_reduction(reduction)
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    class_dim = 0 if input.ndim == 1 else 1
    log_p = log_softmax(input, class_dim)
    probabilities = target._data.shape == input._data.shape  # else class indices
    if probabilities and label_smoothing:  # mix in the uniform distribution
        target = target * (1 - label_smoothing) + label_smoothing / input.shape[class_dim]
    if probabilities:
        if target._data.dtype.kind != "f":
            raise RuntimeError("Expected floating point type for target with class "
                               f"probabilities, got {scalar_type(target)}")
        if ignore_index >= 0:  # a class index means nothing next to class probabilities
            raise RuntimeError("ignore_index is not supported for floating point target")
        if weight is not None and weight._data.dtype != input._data.dtype:
            raise RuntimeError(
                f"expected scalar type {scalar_type(input)} but found {scalar_type(weight)}")
        return _soft_target_loss(log_p, target, weight, class_dim, reduction)
    nll = nll_loss(log_p, target, weight, ignore_index=ignore_index, reduction=reduction)
    if not label_smoothing:
        return nll
    return (1 - label_smoothing) * nll + _smoothing_term(
        log_p, target, weight, ignore_index, reduction) * (label_smoothing / log_p.shape[class_dim])


def _soft_target_loss(log_p, target, weight, class_dim, reduction):
    """ℓ = -Σ_c w_c t_c log p_c for each sample (and each spatial position), the class weights
    laid along the class dim; 'mean' averages over those N·d1·… losses (numel / C)."""
    if weight is not None:
        weight = weight.reshape([-1 if d == class_dim else 1 for d in range(log_p.ndim)])
    per_class = target * log_p if weight is None else target * log_p * weight
    losses = -per_class.sum(class_dim)
    if reduction == "mean":
        return losses.sum() / (log_p.numel() // log_p.shape[class_dim])
    return losses.sum() if reduction == "sum" else losses


def _smoothing_term(log_p, target, weight, ignore_index, reduction):
    """PyTorch's label-smoothing term: -Σ_c w_c log p_c per sample (0 where the target is
    ignored), averaged with the same denominator as the nll loss."""
    class_dim = 0 if log_p.ndim == 1 else 1
    weighted = log_p if weight is None else log_p * weight.reshape(
        [-1 if d == class_dim else 1 for d in range(log_p.ndim)])
    ignored = target == ignore_index
    smooth = where(ignored, 0.0, -weighted.sum(class_dim))
    if reduction == "none":
        return smooth
    if reduction == "sum":
        return smooth.sum()
    kept = target[~ignored]
    return smooth.sum() / (weight[kept].sum() if weight is not None else (~ignored).sum())


# --- KL divergence -----------------------------------------------------------------------------
_KL_MEAN_WARNING = (
    "reduction: 'mean' divides the total loss by both the batch size and the support size."
    "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
    "'mean' will be changed to behave the same as 'batchmean' in the next major release."
)


def kl_div(input: Tensor, target: Tensor, size_average: bool | None = None,
           reduce: bool | None = None, reduction: str = "mean",
           log_target: bool = False) -> Tensor:
    """KL(target ‖ p) with ``x`` = log p:  Σ target · (log target - x)  (or, with
    ``log_target=True``, Σ e^target · (target - x)). Built from tensor ops, as PyTorch does,
    so its graph is ``SubBackward0`` over ``XlogyBackward0`` and ``MulBackward0``."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    if reduction not in ("mean", "sum", "none", "batchmean"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if input._data.dtype.kind not in "fc" or target._data.dtype.kind not in "fc":
        raise RuntimeError("kl_div: Integral inputs not supported.")
    same_device(input, target)
    if log_target:
        losses = target.exp() * (target - input)
    else:
        losses = xlogy(target, target) - target * input
    if reduction == "mean":
        warnings.warn(_KL_MEAN_WARNING, UserWarning, stacklevel=2)
        return losses.mean()
    if reduction == "batchmean":
        return losses.sum() / input.shape[0] if input.ndim else losses.sum()
    return losses.sum() if reduction == "sum" else losses
