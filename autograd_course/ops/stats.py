"""Variance, standard deviation and vector norms, each one node as in PyTorch.

With n elements reduced and ``x̄`` their mean:

* var(x)  = Σ (x - x̄)² / (n - c)        d var / dx = 2 (x - x̄) / (n - c)
* std(x)  = √var(x)                      d std / dx = (x - x̄) / ((n - c) · std)
* ‖x‖_p   = (Σ |x|^p)^(1/p)              d ‖x‖ / dx = sign(x) |x|^(p-1) / ‖x‖^(p-1)

``c`` is the correction (1 by default: the unbiased estimate). The x̄ terms of the variance's
derivative cancel (Σ (x - x̄) = 0), which is why the formula is that short. Backward formulas
use tensor ops, so second derivatives work.
"""

from __future__ import annotations

import math
import warnings
from typing import TYPE_CHECKING

import numpy as np

from ..autograd import forward_ad
from ..autograd.function import Function
from .combine import where
from .matrix_norms import nuclear_norm
from .promotion import scalar_type
from .reduce import _dims, _restore

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


def _count(shape, dims) -> int:
    n = 1
    for d in dims:
        n *= shape[d]
    return n


def _variance(x, dims, correction, keepdim: bool, name: str):
    """Σ (x - x̄)² / max(n - c, 0) as an array of x's dtype. With no degrees of freedom left
    the division by 0 gives inf or NaN, and PyTorch warns."""
    data, xp = x._data, x._xp
    if _count(data.shape, dims) - correction <= 0:
        warnings.warn(
            f"{name}(): degrees of freedom is <= 0. Correction should be strictly less than "
            "the reduction factor (input numel divided by output numel).", UserWarning,
            stacklevel=4)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = data.var(axis=dims, ddof=correction, keepdims=keepdim)  # NumPy clamps at 0 too
    return xp.asarray(out, dtype=data.dtype)


class Var(Function):
    """var(x) = Σ (x - x̄)² / (n - c);  dvar/dx = 2 (x - x̄) / (n - c)."""

    node_name = "VarBackward0"
    jvp = forward_ad.reduction
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x, dims, correction, keepdim):
        ctx.save_for_backward(x)
        ctx.dims, ctx.correction, ctx.keepdim = dims, correction, keepdim
        return x._new(_variance(x, dims, correction, keepdim, "var"))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return var_grad(ctx, x, grad), None, None, None


def var_grad(ctx, x, grad):
    """dvar/dx times ``grad``, with x already unpacked (``VarMean`` reuses it, unpacking once)."""
    dims = ctx.dims
    centered = x - x.mean(dims, keepdim=True)
    dof = _count(x.shape, dims) - ctx.correction
    if dof <= 0:  # PyTorch's measured result: +inf where x differs from the mean, else NaN
        centered, scale = centered.abs(), math.inf
    else:
        scale = 2.0 / dof
    return _restore(grad, x.shape, dims, ctx.keepdim) * centered * scale


class Std(Function):
    """std(x) = √var(x);  dstd/dx = (x - x̄) / ((n - c) · std)  (0 where std = 0)."""

    node_name = "StdBackward0"
    jvp = forward_ad.reduction
    saved_names = ("self", "result")

    @staticmethod
    def forward(ctx, x, dims, correction, keepdim):
        out = x._new(x._xp.asarray(x._xp.sqrt(_variance(x, dims, correction, keepdim, "std"))))
        ctx.save_for_backward(x, out)
        ctx.dims, ctx.correction, ctx.keepdim = dims, correction, keepdim
        return out

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        return std_grad(ctx, x, out, grad), None, None, None


def std_grad(ctx, x, out, grad):
    """dstd/dx times ``grad``, with x and std already unpacked (``StdMean`` reuses it)."""
    dims, keepdim = ctx.dims, ctx.keepdim
    out = _restore(out, x.shape, dims, keepdim)
    grad = _restore(grad, x.shape, dims, keepdim)
    safe = where(out == 0, 1.0, out)  # PyTorch: no gradient where std is 0
    grad = where(out == 0, 0.0, grad / safe)
    centered = x - x.mean(dims, keepdim=True)
    dof = max(_count(x.shape, dims) - ctx.correction, 0)  # clamped, as in the forward
    return grad * centered / dof


class Norm(Function):
    """‖x‖_p over ``dims``;  d‖x‖/dx = sign(x) |x|^(p-1) / ‖x‖^(p-1).

    Special cases follow PyTorch: p = 1 gives sign(x); p = ∞ (-∞) is the largest (smallest)
    magnitude and shares the gradient evenly among the elements of that magnitude; where the
    norm is 0 the gradient is 0.
    """

    node_name = "LinalgVectorNormBackward0"
    jvp = forward_ad.reduction
    saved_names = ("self", "result")

    @staticmethod
    def forward(ctx, x, p, dims, keepdim):
        xp, data = x._xp, x._data
        magnitude = xp.abs(data)
        if p == math.inf:
            out = magnitude.max(axis=dims, keepdims=keepdim)
        elif p == -math.inf:
            out = magnitude.min(axis=dims, keepdims=keepdim)
        elif p == 2:
            out = xp.sqrt((data * data).sum(axis=dims, keepdims=keepdim))
        elif p == 1:
            out = magnitude.sum(axis=dims, keepdims=keepdim)
        elif p == 0:
            out = (data != 0).sum(axis=dims, keepdims=keepdim)
        else:
            out = (magnitude ** p).sum(axis=dims, keepdims=keepdim) ** (1.0 / p)
        out = x._new(xp.asarray(out, dtype=data.dtype))
        ctx.save_for_backward(x, out)
        ctx.p, ctx.dims, ctx.keepdim = p, dims, keepdim
        return out

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        p, dims = ctx.p, ctx.dims
        out = _restore(out, x.shape, dims, ctx.keepdim)
        grad = _restore(grad, x.shape, dims, ctx.keepdim)
        if p == 0:  # PyTorch returns no gradient at all (x.grad stays None)
            return None, None, None, None
        if p == 1:
            return grad * x.sign(), None, None, None
        if p in (math.inf, -math.inf):
            winners = (x.abs() == out).to(grad.dtype)
            share = grad / winners.sum(dims, keepdim=True)
            return share * winners * x.sign(), None, None, None
        zero = out == 0
        scaled = where(zero, 0.0, grad / where(zero, 1.0, out ** (p - 1)))
        if p == 2:
            return x * scaled, None, None, None
        return x * x.abs() ** (p - 2) * scaled, None, None, None


_VAR_DTYPE = "std and var only support floating point and complex dtypes"


def _correction(unbiased, correction) -> float:
    if correction is not None:
        return correction
    return 1 if unbiased is None or unbiased else 0


def dims_and_correction(x, dim, unbiased, correction) -> tuple[tuple[int, ...], float]:
    """The reduced dims and the correction of var/std/var_mean/std_mean. PyTorch's third form,
    ``var(input, unbiased)``, takes a bool in the place of ``dim``: ``x.var(False)`` is the
    biased variance of all elements, not the variance along dim 0."""
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    return _dims(dim, x.ndim), _correction(unbiased, correction)


def var(input: Tensor, dim: int | tuple[int, ...] | None = None, unbiased: bool | None = None,
        keepdim: bool = False, *, correction: float | None = None) -> Tensor:
    """Variance over ``dim`` (all dims when None); unbiased (n - 1) unless told otherwise."""
    _floating(input, _VAR_DTYPE)
    return Var.apply(input, *dims_and_correction(input, dim, unbiased, correction), keepdim)


def std(input: Tensor, dim: int | tuple[int, ...] | None = None, unbiased: bool | None = None,
        keepdim: bool = False, *, correction: float | None = None) -> Tensor:
    """Standard deviation: the square root of ``var``."""
    _floating(input, _VAR_DTYPE)
    return Std.apply(input, *dims_and_correction(input, dim, unbiased, correction), keepdim)


def norm(input: Tensor, p: float | str = 2, dim: int | tuple[int, ...] | None = None,
         keepdim: bool = False) -> Tensor:
    """The p-norm of the flattened tensor, or of each slice along ``dim``; ``p='fro'`` is 2."""
    if p == "fro" or p is None:
        p = 2
    if p == "nuc":  # a matrix norm: the sum of the singular values
        return nuclear_norm(input, dim, keepdim)
    if isinstance(p, str):
        raise RuntimeError(f"norm(): unsupported norm type {p!r}")
    _floating(input, "linalg.vector_norm: Expected a floating point or complex tensor as input. "
                 "Got {}")
    return Norm.apply(input, float(p), _dims(dim, input.ndim), keepdim)


def _floating(x, message: str) -> None:
    if x._data.dtype.kind not in "fc":
        raise RuntimeError(message.format(scalar_type(x)))
