"""Binary cross-entropy, on probabilities (``binary_cross_entropy``) or on logits
(``binary_cross_entropy_with_logits``): one yes/no class per element.

Each has a backward of its own, computed in the numerically careful form: on logits rather
than probabilities, with logs clamped, and never dividing by zero.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..autograd import forward_ad
from ..autograd.function import Function
from .broadcasting import broadcast_shape
from .devices import same_device
from .loss_reduction import check_reduction, legacy_reduction, reduce_loss
from .promotion import cast_to, not_implemented, result_type, scalar_type

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


# --- on logits ----------------------------------------------------------------------------------
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
