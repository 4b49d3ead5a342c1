"""``multinomial``: draw category indices with the given (unnormalised) probabilities, the
same indices PyTorch draws after the same ``manual_seed``.

PyTorch's CPU recipe, followed step by step:

* one sample, or samples without replacement: the "exponential race". Draw q ~ Exp(1) for
  every category (``-log1p(-u)`` of a uniform double, in memory order) and take the largest
  p / q (``topk`` for several). Category i wins with probability p_i / Σ p.
* several samples with replacement: per row, the cumulative probabilities normalised to end
  at 1, then for each sample a uniform double u and the first category whose cumulative
  probability is not below u (a binary search).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .. import _backend
from .. import random as _random

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


def _check(input, num_samples, replacement):
    if input.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if input._data.dtype.kind != "f":
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: "
                           f"{_names.get(input._data.dtype.name, input._data.dtype.name)}")
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    categories = input.shape[-1]
    if not replacement and num_samples > categories:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without "
                           "replacement")
    data = _backend.to_numpy(input._data)
    if not np.isfinite(data).all() or (data < 0).any():
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    if (data.reshape(-1, categories).sum(-1) <= 0).any():
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")


_names = {"int64": "Long", "int32": "Int", "bool": "Bool", "uint8": "Byte"}


def multinomial(input: Tensor, num_samples: int, replacement: bool = False, *,
                generator: _random.Generator | None = None) -> Tensor:
    """``num_samples`` category indices per row of ``input`` (weights, not necessarily
    summing to 1), int64."""
    _check(input, num_samples, replacement)
    gen = generator or _random.default_generator
    probs = _backend.to_numpy(input._data)
    rows = probs.reshape(-1, probs.shape[-1])
    if not replacement or num_samples == 1:
        u = gen._unit(rows.size, np.dtype(np.float64))
        q = (-np.log1p(-u)).astype(probs.dtype).reshape(rows.shape)
        race = rows / q
        order = np.argsort(-race, axis=-1, kind="stable")
        picked = order[:, :num_samples]
    else:
        picked = np.empty((rows.shape[0], num_samples), dtype=np.int64)
        for r, row in enumerate(rows):
            cumulative = np.cumsum(row, dtype=row.dtype)
            cumulative = cumulative / cumulative[-1]
            cumulative[-1] = 1
            u = gen._unit(num_samples, np.dtype(np.float64))
            picked[r] = np.searchsorted(cumulative.astype(np.float64), u, side="left")
    out = picked.astype(np.int64).reshape(probs.shape[:-1] + (num_samples,))
    return input._new(input._xp.asarray(out))
