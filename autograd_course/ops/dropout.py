"""Dropout: during training, zero each element with probability p (and scale the rest)."""

from __future__ import annotations

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
    gen = generator or random.default_generator
    xp = input._xp
    if p == 1.0:
        noise = xp.zeros(input.shape, dtype=input._data.dtype)
    else:
        keep = gen.bernoulli(tuple(input.shape), 1.0 - p, input._data.dtype)
        noise = xp.asarray(keep / input._data.dtype.type(1.0 - p))
    mask = input._new(noise)
    if inplace:
        return input.mul_(mask)
    return input * mask
