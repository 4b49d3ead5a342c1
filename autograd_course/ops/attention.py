"""Attention and the similarity measures around it, composed of other ops (as PyTorch's are,
so their nodes are those of the ops they are made of):

* scaled_dot_product_attention(q, k, v) = softmax(q kᵀ · scale + mask) v,  scale = 1/√d;
  ``is_causal`` masks out the keys after each query (the upper triangle); ``dropout_p``
  drops attention weights (``dropout``) before they average the values.
* normalize(x) = x / max(‖x‖_p, eps) along ``dim``
* cosine_similarity(a, b) = Σ (a / max(‖a‖, eps)) (b / max(‖b‖, eps)) along ``dim``
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from .activations.softmax import softmax
from .arrange import tril
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
    scores = query.matmul(key.transpose(-2, -1)) * scale
    if is_causal:
        n, m = query.shape[-2], key.shape[-2]
        keep = tril(query._new(query._xp.ones((n, m), dtype=bool)))
        scores = scores.masked_fill(~keep, -math.inf)
    elif attn_mask is not None:
        if attn_mask._data.dtype == np.bool_:
            scores = scores.masked_fill(~attn_mask, -math.inf)
        else:
            scores = scores + attn_mask
    weights = softmax(scores, -1)
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
    a = x1 / x1.norm(2, dim, keepdim=True).clamp_min(eps)
    b = x2 / x2.norm(2, dim, keepdim=True).clamp_min(eps)
    return (a * b).sum(dim)
