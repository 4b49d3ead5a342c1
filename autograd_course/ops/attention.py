"""Attention and the similarity measures around it, composed of other ops (as PyTorch's are,
so their nodes are those of the ops they are made of):

* scaled_dot_product_attention(q, k, v) = softmax(q kᵀ · scale + mask) v,  scale = 1/√d;
  ``is_causal`` masks out the keys after each query (the upper triangle); a query with every key
  masked out gets zero weights; ``dropout_p`` drops attention weights (``dropout``) before
  they average the values.
* normalize(x) = x / max(‖x‖_p, eps) along ``dim``
* cosine_similarity(a, b) = Σ (a / max(‖a‖, eps)) (b / max(‖b‖, eps)) along ``dim``, a and b
  broadcast to one shape first
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from ..autograd.grad_mode import no_grad
from .activations.softmax import softmax
from .arrange import tril
from .broadcasting import broadcast_shape
from .combine import where
from .dropout import dropout

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor



def scaled_dot_product_attention(query: Tensor, key: Tensor, value: Tensor,
                                 attn_mask: Tensor | None = None, dropout_p: float = 0.0,
                                 is_causal: bool = False, scale: float | None = None,
                                 enable_gqa: bool = False) -> Tensor:
    """Each query's weighted average of the values, weighted by the softmax of its scaled
    dot products with the keys. With ``dropout_p``, each weight is zeroed with that
    probability and the others scaled by 1/(1 - p) (``dropout``, from the default
    generator; always, as in PyTorch: the function has no training flag)."""
    if is_causal and attn_mask is not None:
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be "
                           "set when is_causal=True")
    scale = 1 / math.sqrt(query.shape[-1]) if scale is None else scale
    root = math.sqrt(scale)  # PyTorch scales both sides by √scale before the product: the
    scores = (query * root).matmul(key.transpose(-2, -1) * root)  # same maths, its rounding
    if is_causal:
        n, m = query.shape[-2], key.shape[-2]
        keep = tril(query._new(query._xp.ones((n, m), dtype=bool)))
        scores = scores.masked_fill(~keep, -math.inf)
    elif attn_mask is not None:
        if attn_mask._data.dtype == np.bool_:
            scores = scores.masked_fill(~attn_mask, -math.inf)
        else:
            scores = scores + attn_mask
    # A query whose keys are all masked out attends to nothing: PyTorch gives it zero weights
    # (and zero gradients) where a plain softmax of -inf everywhere would give NaN.
    dead = (scores == -math.inf).all(-1, keepdim=True)
    weights = where(dead, 0.0, softmax(where(dead, 0.0, scores), -1))
    if dropout_p:
        weights = dropout(weights, dropout_p)
    return weights.matmul(value)


def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12,
              out: Tensor | None = None) -> Tensor:
    """``input`` divided by its p-norm along ``dim`` (at least ``eps``)."""
    if out is not None:
        raise NotImplementedError("normalize(out=...) is not supported here")
    norm = input.norm(p, dim, keepdim=True).clamp_min(eps)
    return input / norm.expand_as(input)


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """The cosine of the angle between ``x1`` and ``x2`` along ``dim`` (they broadcast)."""
    shape = broadcast_shape(x1.shape, x2.shape)  # broadcast first: the norms are of the
    x1, x2 = x1.expand(shape), x2.expand(shape)  # vectors actually multiplied
    return (x1 / _norm_at_least(x1, dim, eps) * (x2 / _norm_at_least(x2, dim, eps))).sum(dim)


def _norm_at_least(x: Tensor, dim: int, eps: float) -> Tensor:
    """max(‖x‖, eps) along ``dim``, the clamp done without recording (as PyTorch does): the
    gradient is that of the norm itself, even where eps replaced it."""
    norm = x.norm(2, dim, keepdim=True).clone()
    with no_grad():
        norm.clamp_(min=eps)
    return norm
