"""Regression losses: ``mse_loss``, ``l1_loss``, and the robust ``huber_loss`` and
``smooth_l1_loss``.

Huber: per element, with d = x - y,  ℓ = ½d² for |d| < δ and δ(|d| - ½δ) beyond: a parabola
near 0 that turns into a straight line, so outliers pull with a force of at most δ. Its
derivative is clamp(d, -δ, δ). Smooth L1 with parameter β is the same curve divided by β
(ℓ = ½d²/β, then |d| - ½β), so it shares the code: derivative clamp(d/β, -1, 1).
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

from ..autograd import forward_ad
from ..autograd.function import Function
from .broadcasting import broadcast_shape
from .devices import same_device
from .loss_reduction import check_reduction, legacy_reduction, reduce_loss
from .operands import binary_operands
from .promotion import cast_to, not_implemented, result_type

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


def _size_warning(x, y) -> None:
    if x.shape != y.shape:
        warnings.warn(
            f"Using a target size ({y.shape!r}) that is different to the input size "
            f"({x.shape!r}). This will likely lead to incorrect results due to broadcasting. "
            "Please ensure they have the same size.", UserWarning, stacklevel=3)


class MseLoss(Function):
    """ℓ = mean((x - y)²);  dx = 2 (x - y) / n,  dy = -dx."""

    node_name = "MseLossBackward0"
    jvp = forward_ad.loss
    saved_names = ("self", "target")

    @staticmethod
    def forward(ctx, x, y, reduction):
        diff = x._data - y._data
        ctx.reduction, ctx.n = reduction, diff.size
        ctx.save_for_backward(x, y)
        return x._new(x._xp.asarray(reduce_loss(diff * diff, reduction), dtype=diff.dtype))

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        scale = grad * (2.0 / ctx.n) if ctx.reduction == "mean" else grad * 2.0
        dx = (x - y) * scale
        need_x, need_y = ctx.needs_input_grad[:2]
        return (dx if need_x else None), (-dx if need_y else None), None


def mse_loss(input: Tensor, target: Tensor, size_average: bool | None = None,
             reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """mean((x - y)²), in the dtype x and y promote to (float32 input, int64 target: float32)."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    check_reduction(reduction)
    same_device(input, target)
    _size_warning(input, target)
    dtype = result_type(input, target)
    if dtype.kind not in "fc":
        raise not_implemented("mse_cpu", dtype)
    input, target = cast_to(dtype, input, target)
    return MseLoss.apply(input, target, reduction)


def l1_loss(input: Tensor, target: Tensor, size_average: bool | None = None,
            reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """mean |x - y|: PyTorch builds it from sub, abs and mean, and so do we."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    check_reduction(reduction)
    _size_warning(input, target)
    losses = (input - target).abs()
    if reduction == "none":
        return losses
    return losses.mean() if reduction == "mean" else losses.sum()


# --- Huber and smooth L1 -----------------------------------------------------------------------
def _huber_values(xp, d, delta, divide: bool):
    """ℓ(d) per element: ½d² inside |d| < δ, δ(|d| - ½δ) outside (both ÷δ for smooth L1)."""
    z = xp.abs(d)
    half, delta_ = d.dtype.type(0.5), d.dtype.type(delta)
    if divide:
        return xp.where(z < delta_, half * d * d / delta_, z - half * delta_)
    return xp.where(z < delta_, half * d * d, delta_ * (z - half * delta_))


def _huber_forward(ctx, x, y, reduction, delta, divide):
    d = x._data - y._data
    ctx.reduction, ctx.delta = reduction, delta
    ctx.save_for_backward(x, y)
    values = _huber_values(x._xp, d, delta, divide)
    return x._new(x._xp.asarray(reduce_loss(values, reduction), dtype=d.dtype))


def _huber_backward(ctx, grad, backward_op):
    x, y = ctx.saved_tensors
    need_x, need_y = ctx.needs_input_grad[:2]
    dx = backward_op.apply(grad, x, y, ctx.reduction, ctx.delta)
    return (dx if need_x else None), (-dx if need_y else None), None, None


class HuberLoss(Function):
    """ℓ = ½d² (|d| < δ), δ(|d| - ½δ) otherwise, d = x - y;  dx = clamp(d, -δ, δ) · dℓ / n,
    dy = -dx (n: the number of elements for 'mean', else 1)."""

    node_name = "HuberLossBackward0"
    jvp = forward_ad.loss

    @staticmethod
    def forward(ctx, x, y, reduction, delta):
        return _huber_forward(ctx, x, y, reduction, delta, divide=False)

    @staticmethod
    def backward(ctx, grad):
        return _huber_backward(ctx, grad, HuberLossBackward)


class SmoothL1Loss(Function):
    """ℓ = ½d²/β (|d| < β), |d| - ½β otherwise;  dx = clamp(d/β, -1, 1) · dℓ / n."""

    node_name = "SmoothL1LossBackward0"
    jvp = forward_ad.loss

    @staticmethod
    def forward(ctx, x, y, reduction, beta):
        return _huber_forward(ctx, x, y, reduction, beta, divide=True)

    @staticmethod
    def backward(ctx, grad):
        return _huber_backward(ctx, grad, SmoothL1LossBackward)


def _slope_forward(ctx, grad, x, y, reduction, delta, divide):
    """dx = dℓ · ψ(d) / n with ψ(d) = clamp(d, -δ, δ) (÷δ for smooth L1)."""
    d = x._data - y._data
    psi = x._xp.clip(d, -delta, delta)
    if divide:
        psi = psi / d.dtype.type(delta)
    scale = d.dtype.type(1.0 / d.size) if reduction == "mean" else d.dtype.type(1.0)
    ctx.reduction, ctx.delta = reduction, delta
    ctx.save_for_backward(grad, x, y)
    return x._new((psi * scale * grad._data).astype(d.dtype))


def _slope_backward(ctx, gg, divide):
    """d/d(dℓ) = Σ gg · ψ(d) / n;  d/dx = -d/dy = gg · dℓ · ψ'(d) / n, where ψ' = 1 (÷δ for
    smooth L1) inside |d| < δ and 0 outside."""
    grad, x, y = ctx.saved_tensors
    need_grad, need_x, need_y = ctx.needs_input_grad[:3]
    delta, n = ctx.delta, (x.numel() if ctx.reduction == "mean" else 1)
    unit = delta if divide else 1.0
    d = x - y
    grad_grad = curve = None
    if need_grad:
        grad_grad = gg * d.clamp(-delta, delta) / (unit * n)
        if ctx.reduction != "none":
            grad_grad = grad_grad.sum()
    if need_x or need_y:
        curve = gg * grad * (d.abs() < delta).to(d.dtype) / (unit * n)
    return (grad_grad, curve if need_x else None, -curve if need_y else None, None, None)


class HuberLossBackward(Function):
    """Huber's gradient dx = dℓ · clamp(d, -δ, δ) / n as an op, so it can be differentiated:
    d/d(dℓ) = Σ gg · clamp(d, -δ, δ) / n,  d/dx = -d/dy = gg · dℓ · [|d| < δ] / n."""

    node_name = "HuberLossBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, y, reduction, delta):
        return _slope_forward(ctx, grad, x, y, reduction, delta, divide=False)

    @staticmethod
    def backward(ctx, gg):
        return _slope_backward(ctx, gg, divide=False)


class SmoothL1LossBackward(Function):
    """Smooth L1's gradient as an op: Huber's formulas divided by β."""

    node_name = "SmoothL1LossBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, y, reduction, beta):
        return _slope_forward(ctx, grad, x, y, reduction, beta, divide=True)

    @staticmethod
    def backward(ctx, gg):
        return _slope_backward(ctx, gg, divide=True)


def _pair(x, y, keep_input_dtype: bool = False):
    """Input and target on one device and of one dtype: PyTorch's promotion (an integer
    target takes the input's float dtype), or, for ``huber_loss``, the input's dtype always
    (PyTorch computes Huber in the input's dtype: float32 input, float64 target -> float32)."""
    same_device(x, y)
    _size_warning(x, y)
    if x.shape != y.shape:
        x, y = x.expand(*_broadcast(x, y)), y.expand(*_broadcast(x, y))
    if keep_input_dtype and y._data.dtype != x._data.dtype:
        y = y.to(x.dtype)
    return binary_operands(x, y)


def _broadcast(x, y):
    return broadcast_shape(x.shape, y.shape)


def huber_loss(input: Tensor, target: Tensor, reduction: str = "mean", delta: float = 1.0,
               weight: Tensor | None = None) -> Tensor:
    """Huber loss: squared error for |x - y| < δ, absolute error (times δ) beyond."""
    check_reduction(reduction)
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    if weight is not None:
        raise NotImplementedError("huber_loss: weight= is not implemented in autograd_course")
    input, target = _pair(input, target, keep_input_dtype=True)
    return HuberLoss.apply(input, target, reduction, delta)


def smooth_l1_loss(input: Tensor, target: Tensor, size_average: bool | None = None,
                   reduce: bool | None = None, reduction: str = "mean",
                   beta: float = 1.0) -> Tensor:
    """Smooth L1: ½d²/β for |d| < β, |d| - ½β beyond (β = 0 is the L1 loss, as in PyTorch)."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    check_reduction(reduction)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    if beta == 0.0:
        return l1_loss(input, target, reduction=reduction)
    input, target = _pair(input, target)
    return SmoothL1Loss.apply(input, target, reduction, beta)
