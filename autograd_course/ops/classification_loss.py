"""Losses on classes and probabilities: ``nll_loss``, ``cross_entropy``, binary cross-entropy
(on probabilities or logits), and ``kl_div`` (on ``xlogy``, with the logarithms in exp_log.py).

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
from .broadcasting import broadcast_shape
from .combine import where
from .devices import same_device
from .exp_log import xlogy
from .loss_reduction import check_reduction, legacy_reduction, reduce_loss
from .promotion import cast_to, not_implemented, result_type, scalar_type

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
            if reduction == "none" and x.ndim == 1:
                loss = loss.reshape(())
        # dℓ_n/dx[n, c]: the target's class only. An ignored target gets no gradient at all,
        # even when the mean is 0/0 = NaN (PyTorch)
        scale = xp.where(keep, -w_n / (total if reduction == "mean" else 1), 0)
        classes = xp.arange(data.shape[1]).reshape((1, -1) + (1,) * (data.ndim - 2))
        coef = xp.where(classes == safe_t[:, None], scale[:, None], 0).astype(data.dtype)
        ctx.coef, ctx.reduction, ctx.shape = coef, reduction, x.shape
        return x._new(xp.asarray(loss, dtype=data.dtype))

    @staticmethod
    def backward(ctx, grad):
        coef = grad._new(ctx.coef)
        if ctx.reduction == "none" and grad.ndim >= 1:  # one loss per sample: along dim 1
            grad = grad.unsqueeze(1)
        out = grad * coef
        if out._data.shape != ctx.shape:  # (N, C) input: already its shape, no reshape op
            out = out.reshape(ctx.shape)
        return out, None, None, None, None


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
    if target.shape == input.shape and label_smoothing:  # mix in the uniform distribution
        target = target * (1 - label_smoothing) + label_smoothing / input.shape[class_dim]
    if target.shape == input.shape:  # class probabilities
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


# --- binary cross-entropy ----------------------------------------------------------------------
class BinaryCrossEntropyWithLogits(Function):
    """ℓ = mean(-w [y log σ(z) + (1-y) log(1-σ(z))]) computed from the logits z directly.

    Written as ``max(z, 0) - z·y + log(1 + e^-|z|)``, which never overflows, even for
    logits of ±1000. Its derivative is neat: dℓ/dz = w (σ(z) - y) / n.
    """

    node_name = "BinaryCrossEntropyWithLogitsBackward0"
    jvp = forward_ad.loss
    saved_names = ("self", "target", "weight", "pos_weight")

    @staticmethod
    def forward(ctx, z, y, weight, pos_weight, reduction, out_dtype=None):
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
        return z._new(xp.asarray(reduce_loss(loss, reduction), dtype=out_dtype or zd.dtype))

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
        return dz, grad_y, None, None, None, None


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight: Tensor | None = None,
                                     size_average: bool | None = None, reduce: bool | None = None,
                                     reduction: str = "mean",
                                     pos_weight: Tensor | None = None) -> Tensor:
    """BCE on logits (note 002's loss): sigmoid and log fused for numerical stability.

    As in PyTorch the loss has the target's dtype (it is computed into ``1 - target``), so a
    float64 target makes a float64 loss, and an integer target is refused.
    """
    reduction = legacy_reduction(size_average, reduce, reduction)
    if input.shape != target.shape:
        raise ValueError(
            f"Target size ({target.shape!r}) must be the same as input size ({input.shape!r})"
        )
    kind = target._data.dtype.kind
    if kind == "b":
        raise RuntimeError(
            "Subtraction, the `-` operator, with two bool tensors is not supported. Use the "
            "`^` or `logical_xor()` operator instead.")
    if kind in "iu":
        raise RuntimeError(
            f"result type {scalar_type(result_type(input, target))} can't be cast to the "
            f"desired output type {scalar_type(target)}")
    if input._data.dtype.kind not in "fc":
        raise not_implemented("log_sigmoid_cpu", input)
    shape = target.shape  # pos_weight multiplies the target, weight the loss: both in place
    for a, b in ((pos_weight, target), (target, weight)):
        if a is not None and b is not None:
            joined = broadcast_shape(a.shape, b.shape)  # PyTorch's error when they cannot
            if tuple(joined) != shape:
                raise RuntimeError(f"output with shape {list(shape)} doesn't match the "
                                   f"broadcast shape {list(joined)}")
    out_dtype = target._data.dtype
    dtype = result_type(input, target)
    input, target = cast_to(dtype, input, target)
    if out_dtype == dtype:
        return BinaryCrossEntropyWithLogits.apply(input, target, weight, pos_weight, reduction)
    return BinaryCrossEntropyWithLogits.apply(input, target, weight, pos_weight, reduction,
                                              out_dtype)


def _softplus(z):
    """log(1 + e^z) = max(z, 0) + log(1 + e^-|z|), with tensor ops (never overflows)."""
    return z.relu() + ((-z.abs()).exp() + 1.0).log()


_BCE_EPS = float(np.float32(1e-12))  # PyTorch's guard is the float 1e-12, not the double


class BinaryCrossEntropy(Function):
    """ℓ = -w [y log x + (1-y) log(1-x)], each log clamped at -100 (PyTorch's guard);
    dx = w (x - y) / max(x (1-x), 1e-12),  dy = w (log(1-x) - log x)."""

    node_name = "BinaryCrossEntropyBackward0"
    jvp = forward_ad.loss
    saved_names = ("self", "target", "weight")

    @staticmethod
    def forward(ctx, x, y, weight, reduction):
        xp, xd, yd = x._xp, x._data, y._data
        with np.errstate(divide="ignore"):  # NumPy's switch (CuPy has none: it never warns)
            log_x = xp.maximum(xp.log(xd), -100.0)
            log_1mx = xp.maximum(xp.log1p(-xd), -100.0)
        loss = -(yd * log_x + (1.0 - yd) * log_1mx)
        if weight is not None:
            loss = loss * weight._data
        ctx.reduction, ctx.n = reduction, xd.size
        ctx.save_for_backward(x, y, weight)
        return x._new(xp.asarray(reduce_loss(loss, reduction), dtype=xd.dtype))

    @staticmethod
    def backward(ctx, grad):
        x, y, weight = ctx.saved_tensors
        if ctx.reduction == "mean":
            grad = grad / ctx.n
        need_x, need_y = ctx.needs_input_grad[:2]
        dx = dy = None
        if need_x:
            dx = grad * (x - y) / (x * (1.0 - x)).clamp(min=_BCE_EPS)
            dx = dx if weight is None else dx * weight
        if need_y:
            dy = grad * ((1.0 - x).log().clamp(min=-100.0) - x.log().clamp(min=-100.0))
            dy = dy if weight is None else dy * weight
        return dx, dy, None, None


def binary_cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None,
                         size_average: bool | None = None, reduce: bool | None = None,
                         reduction: str = "mean") -> Tensor:
    reduction = legacy_reduction(size_average, reduce, reduction)
    check_reduction(reduction)
    same_device(input, target, weight)
    if input.shape != target.shape:
        raise ValueError(
            f"Using a target size ({target.shape!r}) that is different to the input size "
            f"({input.shape!r}) is deprecated. Please ensure they have the same size.")
    if target._data.dtype != input._data.dtype:
        raise RuntimeError(f"Found dtype {scalar_type(target)} but expected {scalar_type(input)}")
    if weight is not None:
        _check_expand(weight.shape, target.shape)
    xd = input._data
    if ((xd < 0) | (xd > 1)).any():
        raise RuntimeError("all elements of input should be between 0 and 1")
    return BinaryCrossEntropy.apply(input, target, weight, reduction)


def _check_expand(shape: tuple, target: tuple) -> None:
    """PyTorch's error when BCE's ``weight`` cannot be expanded to the target's shape."""
    expected = (1,) * (len(shape) - len(target)) + tuple(target)
    for i in range(1, len(shape) + 1):
        if shape[-i] != 1 and shape[-i] != expected[-i]:
            raise RuntimeError(
                f"Attempting to broadcast a dimension of length {shape[-i]} at -{i}! "
                f"Mismatching argument at index 1 had torch.Size({list(shape)}); but expected "
                f"shape should be broadcastable to {list(expected)}")


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
