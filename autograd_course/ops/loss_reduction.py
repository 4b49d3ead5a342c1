"""How a loss is reduced: its ``reduction`` ('mean', 'sum' or 'none'), checked and applied, and
the old ``size_average``/``reduce`` arguments read as PyTorch reads them."""

from __future__ import annotations

import warnings

import numpy as np


def check_reduction(reduction: str) -> None:
    """PyTorch's error for a loss's ``reduction`` other than 'mean', 'sum' or 'none'."""
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")


def reduce_loss(loss: np.ndarray, reduction: str) -> np.ndarray:
    """A loss per element, reduced as asked: its mean, its sum, or (``'none'``) as it is."""
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    if reduction == "none":
        return loss
    raise ValueError(f"{reduction} is not a valid value for reduction")


def legacy_reduction(size_average: bool | None, reduce: bool | None, reduction: str) -> str:
    """The old ``size_average``/``reduce`` arguments of the losses, read as PyTorch reads them
    (``reduce=False``: 'none'; else ``size_average=False``: 'sum'; else 'mean'), with its
    warning; ``reduction`` itself when neither is given."""
    if size_average is None and reduce is None:
        return reduction
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    result = "none" if not reduce else "mean" if size_average else "sum"
    warnings.warn(f"size_average and reduce args will be deprecated, please use "
                  f"reduction='{result}' instead.", UserWarning, stacklevel=3)
    return result
