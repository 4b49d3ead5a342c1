"""Normalising over the features of each sample: ``layer_norm`` and ``group_norm``.

    y = (x - μ) / √(σ² + ε) · γ + β        μ, σ² over the normalised dims of one sample

With x̂ = (x - μ) / √(σ² + ε) and n the number of elements normalised together, the
gradient (the same formula as batch norm's, over other dims) is

    dL/dx = (g - mean(g) - x̂ · mean(g · x̂)) / √(σ² + ε),   g = dL/dy · γ

written with tensor ops so it differentiates again. PyTorch's node: ``NativeLayerNormBackward0``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..autograd import forward_ad
from ..autograd.function import Function

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


def _normalized(x, dims, eps):
    mean = x.mean(dims, keepdim=True)
    centered = x - mean
    inv_std = 1 / ((centered * centered).mean(dims, keepdim=True) + eps).sqrt()
    return centered * inv_std, inv_std


class LayerNorm(Function):
    node_name = "NativeLayerNormBackward0"

    @staticmethod
    def forward(ctx, x, weight, bias, dims, eps, affine_shape):
        x_hat, inv_std = _normalized(x, dims, eps)
        ctx.save_for_backward(x, weight)
        ctx.dims, ctx.eps, ctx.affine_shape = dims, eps, affine_shape
        out = x_hat
        if weight is not None:
            out = out * weight.reshape(affine_shape)
        if bias is not None:
            out = out + bias.reshape(affine_shape)
        return out

    @staticmethod
    def backward(ctx, grad):
        x, weight = ctx.saved_tensors
        dims = ctx.dims
        x_hat, inv_std = _normalized(x, dims, ctx.eps)
        grad_w = (grad * x_hat).sum_to_size(ctx.affine_shape) if ctx.needs_input_grad[1] else None
        grad_b = grad.sum_to_size(ctx.affine_shape) if ctx.needs_input_grad[2] else None
        g = grad if weight is None else grad * weight.reshape(ctx.affine_shape)
        grad_x = (g - g.mean(dims, keepdim=True)
                  - x_hat * (g * x_hat).mean(dims, keepdim=True)) * inv_std
        shape = weight.shape if weight is not None else None
        return (grad_x, None if grad_w is None else grad_w.reshape(shape),
                None if grad_b is None else grad_b.reshape(shape), None, None, None)

    @staticmethod
    def jvp(ctx, t_x, t_w, t_b, *_):
        """x̂'s Jacobian (I - 11ᵀ/n - x̂x̂ᵀ/n)/σ is symmetric: t_x̂ is backward's formula with
        t_x. Then y = x̂·w + b gives t_y = t_x̂·w + x̂·t_w + t_b."""
        x, weight = ctx.fw_args[:2]
        dims, shape = ctx.dims, ctx.affine_shape
        x_hat, inv_std = _normalized(x, dims, ctx.eps)
        t_hat = None
        if t_x is not None:
            t_hat = (t_x - t_x.mean(dims, keepdim=True)
                     - x_hat * (t_x * x_hat).mean(dims, keepdim=True)) * inv_std
            t_hat = t_hat if weight is None else t_hat * weight.reshape(shape)
        return forward_ad.add_tangents(t_hat,
                                       None if t_w is None else x_hat * t_w.reshape(shape),
                                       None if t_b is None else t_b.reshape(shape))


class GroupNorm(LayerNorm):
    node_name = "NativeGroupNormBackward0"
    jvp = None  # LayerNorm's rule does not hold per group: no forward-mode rule yet


def layer_norm(input: Tensor, normalized_shape: tuple[int, ...], weight: Tensor | None = None,
               bias: Tensor | None = None, eps: float = 1e-5) -> Tensor:
    """Normalise over the last ``len(normalized_shape)`` dims of each sample."""
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    if tuple(input.shape[input.ndim - len(shape):]) != shape or len(shape) > input.ndim:
        raise RuntimeError(
            f"Given normalized_shape={list(shape)}, expected input with shape "
            f"[*, {', '.join(str(s) for s in shape)}], but got input of size{list(input.shape)}")
    dims = tuple(range(input.ndim - len(shape), input.ndim))
    return LayerNorm.apply(input, weight, bias, dims, eps, shape)


def group_norm(input: Tensor, num_groups: int, weight: Tensor | None = None,
               bias: Tensor | None = None, eps: float = 1e-5) -> Tensor:
    """Normalise each sample's channels in ``num_groups`` groups (over the group's channels
    and all positions); ``weight``/``bias`` are per channel."""
    if input.ndim < 2:
        raise RuntimeError("Expected at least 2 dimensions for input tensor but received "
                           f"{input.ndim}")
    n, c = input.shape[0], input.shape[1]
    if c % num_groups:
        raise RuntimeError(f"Expected number of channels in input to be divisible by "
                           f"num_groups, but got input of shape {list(input.shape)} and "
                           f"num_groups={num_groups}")
    rest = tuple(input.shape[2:])
    grouped = input.reshape((n, num_groups, c // num_groups) + rest)
    dims = tuple(range(2, grouped.ndim))
    normed = GroupNorm.apply(grouped, None, None, dims, eps, (1,) * grouped.ndim)
    out = normed.reshape(input.shape)
    affine = (c,) + (1,) * len(rest)
    if weight is not None:
        out = out * weight.reshape(affine)
    if bias is not None:
        out = out + bias.reshape(affine)
    return out
