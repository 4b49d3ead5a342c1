"""Dropout: during training, zero each element with probability p (and scale the rest).
``dropout2d`` zeroes whole channels (feature maps) instead: one draw per (sample, channel)."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

from .. import random
from .promotion import scalar_type

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False,
            generator: random.Generator | None = None) -> Tensor:
    """Zero each element with probability p and scale the rest by 1/(1-p).

    The mask is ``bernoulli(1 - p) / (1 - p)`` drawn from the same generator PyTorch uses,
    and the result is a plain multiplication (so ``grad_fn`` is ``MulBackward0``, as in
    PyTorch on the CPU).
    """
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return input
    if input._data.dtype.kind not in "fc":
        raise RuntimeError(f"result type Float can't be cast to the desired output type "
                           f"{scalar_type(input)}")
    mask = _noise(input, p, tuple(input.shape), generator)
    if inplace:
        return input.mul_(mask)
    return input * mask


def _noise(input, p: float, shape: tuple, generator=None):
    """``bernoulli(1 - p) / (1 - p)`` of ``shape`` (it broadcasts against the input)."""
    gen = generator or random.default_generator
    xp = input._xp
    if p == 1.0:
        return input._new(xp.zeros(shape, dtype=input._data.dtype))
    keep = gen.bernoulli(shape, 1.0 - p, input._data.dtype)
    return input._new(xp.asarray(keep / input._data.dtype.type(1.0 - p)))


NOT_2D = ("dropout2d: Received a {}-D input to dropout2d, which is deprecated and will result "
          "in an error in a future release. To retain the behavior and silence this warning, "
          "please use dropout instead. Note that dropout2d exists to provide channel-wise "
          "dropout on inputs with 2 spatial dimensions, a channel dimension, and an optional "
          "batch dimension (i.e. 3D or 4D inputs).")
AS_1D = ("dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout "
         "behavior is desired - input is interpreted as shape (N, C, L), where C is the channel "
         "dim. This behavior will change in a future release to interpret the input as one "
         "without a batch dimension, i.e. shape (C, H, W). To maintain the 1D channel-wise "
         "dropout behavior, please switch to using dropout1d instead.")


def dropout2d(input: Tensor, p: float = 0.5, training: bool = True,
              inplace: bool = False) -> Tensor:
    """Zero each channel ``input[n, c]`` with probability p, scale the rest by 1/(1-p): the
    mask has shape (N, C, 1, 1), one draw per channel (PyTorch's ``feature_dropout``)."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if input.ndim not in (3, 4):
        warnings.warn(NOT_2D.format(input.ndim), UserWarning, stacklevel=2)
    if input.ndim == 3:  # (as PyTorch, for now: (N, C, L), not one sample (C, H, W))
        warnings.warn(AS_1D, UserWarning, stacklevel=2)
    if not training or p == 0.0:
        return input
    if input.ndim < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    mask = _noise(input, p, tuple(input.shape[:2]) + (1,) * (input.ndim - 2))
    return input.mul_(mask) if inplace else input * mask
