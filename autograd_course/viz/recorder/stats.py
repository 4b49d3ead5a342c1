"""The numbers a ``GradientRecorder`` keeps, computed with NumPy from tensors of either library.

Every tensor is read the way both ``autograd_course`` and ``torch`` allow,
``tensor.detach().cpu().double().numpy()``, so the same statistics come out of the same values
whichever library made them. With ``a`` the values of a tensor (``n`` of them):

* ``mean = sum(a) / n`` and ``std = sqrt(sum((a - mean)**2) / (n - 1))``, the unbiased standard
  deviation that ``Tensor.std()`` returns (NaN when ``n < 2``, as there);
* ``saturated = count(|a| > threshold) / n``, the fraction of a tanh's outputs in its flat
  tails, where the local gradient ``1 - tanh(x)**2`` is almost zero;
* ``ratio(a, b) = std(a) / std(b)``: for a parameter ``p``, ``std(p.grad) / std(p)`` is the
  grad:data ratio and ``std(update) / std(p)`` the update:data ratio (``update`` is what the
  optimizer added to ``p``; for plain SGD it is ``-lr * p.grad``);
* a histogram: ``np.histogram`` counts of the values in ``bins`` equal bins from their
  smallest to their largest.
"""

from __future__ import annotations

import math

import numpy as np


def first_tensor(value):
    """``value`` when it is a tensor (anything with ``detach``), else the first tensor in a
    tuple or list of outputs, else ``None``."""
    if hasattr(value, "detach"):
        return value
    if isinstance(value, (tuple, list)):
        return next((v for v in value if hasattr(v, "detach")), None)
    return None


def to_numpy(tensor) -> np.ndarray:
    """A float64 NumPy copy of the values of a tensor of either library, flattened (a copy:
    ``numpy()`` shares the tensor's memory, which the optimizer changes in place)."""
    return np.array(tensor.detach().cpu().double().numpy(), dtype=np.float64).ravel()


def mean(values: np.ndarray) -> float:
    return float(values.mean()) if values.size else math.nan


def std(values: np.ndarray) -> float:
    """The unbiased standard deviation (``Tensor.std()``'s); NaN for fewer than 2 values."""
    return float(values.std(ddof=1)) if values.size > 1 else math.nan


def saturated(values: np.ndarray, threshold: float) -> float:
    """The fraction of ``values`` with ``|value| > threshold``."""
    return float(np.mean(np.abs(values) > threshold)) if values.size else math.nan


def ratio(numerator: np.ndarray, denominator: np.ndarray) -> float:
    """``std(numerator) / std(denominator)``; NaN when either is undefined or the
    denominator's std is 0."""
    top, bottom = std(numerator), std(denominator)
    if math.isnan(top) or math.isnan(bottom) or bottom == 0.0:
        return math.nan
    return top / bottom


def histogram(values: np.ndarray, bins: int) -> tuple[np.ndarray, np.ndarray]:
    """``(counts, edges)``: ``bins`` counts and the ``bins + 1`` edges between them."""
    if not values.size:
        return np.zeros(bins, dtype=np.int64), np.linspace(0.0, 1.0, bins + 1)
    return np.histogram(values, bins=bins)
