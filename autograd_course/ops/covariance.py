"""``cov``: the covariance matrix of variables (rows) observed together (columns).

With N observations of each variable (a row of x), their mean x̄, and the correction c
(1 by default: the unbiased estimate)::

    cov(x) = (x - x̄)(x - x̄)ᵀ / (N - c)

With weights w per observation (``fweights``: integer counts, ``aweights``: importance; both
given, their product), the mean and the sums are weighted::

    x̄ = Σ w x / Σ w,   cov = (x - x̄) diag(w) (x - x̄)ᵀ / (Σ w - c · Σ w a / Σ w)

(the last term is ``c`` without ``aweights``). As in PyTorch, it is written with other ops
(mean, subtraction, a matrix product), so autograd, forward mode and vmap differentiate
through it as through any composition.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

from .promotion import scalar_type

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor

DEGREES = ("cov(): degrees of freedom is <= 0. Correction should be strictly less than the "
           "number of observations.")


def cov(input: Tensor, *, correction: int = 1, fweights: Tensor | None = None,
        aweights: Tensor | None = None) -> Tensor:
    """The covariance matrix of the rows of ``input`` (a 1-d input: one variable's variance)."""
    if input.ndim > 2:
        raise RuntimeError("cov(): expected input to have two or fewer dimensions but got an "
                           f"input with {input.ndim} dimensions")
    if input._data.dtype.kind == "b":
        raise RuntimeError("cov(): bool dtype is not supported for input")
    x = input.reshape(1, -1) if input.ndim < 2 else input
    _check_weights("fweights", fweights, "iu", "integral", x.shape[1])
    _check_weights("aweights", aweights, "f", "floating point", x.shape[1])
    w = fweights
    if aweights is not None:
        w = aweights if w is None else w * aweights
    w_sum = x.shape[1] if w is None else w.sum()  # (N: a number)
    if w is not None and not bool(w_sum != 0):
        raise RuntimeError("cov(): weights sum to zero, can't be normalized")
    mean = (x if w is None else x * w).sum(1) / w_sum
    if w is not None and aweights is not None and correction != 0:
        norm_factor = w_sum - correction * (w * aweights).sum() / w_sum
    else:
        norm_factor = w_sum - correction
    if bool(norm_factor <= 0):  # (PyTorch warns, then divides by zero)
        warnings.warn(DEGREES, UserWarning, stacklevel=2)
        norm_factor = norm_factor * 0
    centered = x - mean.unsqueeze(1)
    product = centered @ (centered if w is None else centered * w).t()
    return (product / norm_factor).squeeze()


def _check_weights(name: str, w, kinds: str, kind_name: str, n: int) -> None:
    """PyTorch's checks of ``fweights`` / ``aweights``: 0-d or 1-d, of the right kind of
    dtype, one per observation, none negative."""
    if w is None:
        return
    if w.ndim > 1:
        raise RuntimeError(f"cov(): expected {name} to have one or fewer dimensions but got "
                           f"{name} with {w.ndim} dimensions")
    if w._data.dtype.kind not in kinds:
        raise RuntimeError(f"cov(): expected {name} to have {kind_name} dtype but got {name} "
                           f"with {scalar_type(w)} dtype")
    if w.numel() != n:
        raise RuntimeError(f"cov(): expected {name} to have the same numel as there are "
                           f"observations in the input but got {w.numel()} != {n}")
    if n and bool((w < 0).any()):
        raise RuntimeError(f"cov(): {name} cannot be negative")
