"""The distinct values of a tensor: ``unique`` and ``unique_consecutive`` (and the lower-level
names PyTorch's ``unique`` calls: ``torch._unique``, ``torch._unique2``, ``_VF.unique_dim``).

Each returns the values, and where asked the ``inverse`` (for each element, the index of its
value among the results) and the ``counts`` (how often each value occurs). PyTorch records
the values in the graph, so they require grad when the input does, but it has no derivative
for them: their node's backward raises its ``NotImplementedError``. The inverse and counts are
integers and never require grad.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..autograd.function import Function
from .dims import normalize_dim

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


class Unique2(Function):
    """values, inverse, counts = find(x); values get a node, but no derivative."""

    node_name = "Unique2Backward0"
    aten_name = "_unique2"  # the operation PyTorch's error names

    @staticmethod
    def forward(ctx, x, find):
        values, inverse, counts = find(x._xp, x._data)
        return x._new(values), x._new(inverse.astype(np.int64)), x._new(counts.astype(np.int64))

    @classmethod
    def backward(cls, ctx, *grads):
        raise NotImplementedError(f"the derivative for '{cls.aten_name}' is not implemented.")


class UniqueDim(Unique2):
    node_name, aten_name = "UniqueDimBackward0", "unique_dim"


class UniqueConsecutive(Unique2):
    node_name, aten_name = "UniqueConsecutiveBackward0", "unique_consecutive"


class Unique(Unique2):  # torch._unique
    node_name, aten_name = "UniqueBackward0", "_unique"


def _all_values(xp, data):
    """Over every element: the sorted distinct values, the inverse (shaped as the input) and
    the counts."""
    values, inverse, counts = xp.unique(data.reshape(-1), return_inverse=True,
                                        return_counts=True)
    return values, inverse.reshape(data.shape), counts


def _slices_along(dim):
    """Over the slices along ``dim``: the distinct slices in order, which each slice became,
    and how often each occurs."""
    def find(xp, data):
        values, inverse, counts = xp.unique(data, return_inverse=True, return_counts=True,
                                            axis=dim)
        return values, inverse.reshape(-1), counts
    return find


def _runs_along(dim):
    """Runs of equal neighbours (along ``dim``, or over the flattened input for ``None``):
    the first of each run, the run each element is in, and each run's length."""
    def find(xp, data):
        flat = data.reshape(-1) if dim is None else xp.moveaxis(data, dim, 0)
        n = flat.shape[0]
        if n == 0:
            empty = xp.zeros(0, dtype=np.int64)
            if dim is None:
                return data.reshape(-1), empty.reshape(data.shape), empty
            return data, empty, empty
        slices = flat.reshape(n, -1)  # one row per element (or slice along dim)
        differs = (slices[1:] != slices[:-1]).any(axis=1)  # from its neighbour before it
        starts = xp.concatenate([xp.ones(1, dtype=bool), differs])
        first = xp.nonzero(starts)[0]
        counts = xp.diff(xp.concatenate([first, xp.asarray([n])]))
        run = xp.cumsum(starts) - 1
        values = flat[first] if dim is None else xp.moveaxis(flat[first], 0, dim)
        return values, run.reshape(data.shape) if dim is None else run, counts
    return find


def _checked_dim(input: Tensor, dim: int) -> int:
    """``dim`` made positive, with PyTorch's errors for a 0-d input and for an empty input
    whose empty dimension is another one (no slices along ``dim`` could be compared)."""
    if input.ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    dim = normalize_dim(dim, input.ndim)
    if input.numel() == 0 and input.shape[dim] != 0:
        raise RuntimeError("There are 0 sized dimensions, and they aren't selected, so unique "
                           "cannot be applied")
    return dim


def _picked(results: tuple, return_inverse: bool, return_counts: bool):
    values, inverse, counts = results
    out = [values]
    if return_inverse:
        out.append(inverse)
    if return_counts:
        out.append(counts)
    return out[0] if len(out) == 1 else tuple(out)


def unique(input: Tensor, sorted: bool = True, return_inverse: bool = False,
           return_counts: bool = False, dim: int | None = None):
    """The distinct elements, in order (``dim``: the distinct slices along it); with
    ``return_inverse`` where each element went, with ``return_counts`` how often each occurs."""
    if dim is None:
        results = Unique2.apply(input, _all_values)
    else:
        results = UniqueDim.apply(input, _slices_along(_checked_dim(input, dim)))
    return _picked(results, return_inverse, return_counts)


def unique_consecutive(input: Tensor, return_inverse: bool = False,
                       return_counts: bool = False, dim: int | None = None):
    """Each run of equal neighbours collapsed to one element (``dim``: runs of equal slices
    along it), with the same optional inverse and counts as ``unique``."""
    find = _runs_along(None if dim is None else _checked_dim(input, dim))
    return _picked(UniqueConsecutive.apply(input, find), return_inverse, return_counts)


def _empty_like_index(t: Tensor) -> Tensor:
    return t._new(t._xp.zeros(0, dtype=np.int64))


def _unique(input: Tensor, sorted: bool = True, return_inverse: bool = False) -> tuple:
    """``torch._unique``: (values, inverse); the inverse is empty unless asked for."""
    values, inverse, _ = Unique.apply(input, _all_values)
    return values, inverse if return_inverse else _empty_like_index(input)


def _unique2(input: Tensor, sorted: bool = True, return_inverse: bool = False,
             return_counts: bool = False) -> tuple:
    """``torch._unique2``: (values, inverse, counts); those not asked for are empty."""
    values, inverse, counts = Unique2.apply(input, _all_values)
    return (values, inverse if return_inverse else _empty_like_index(input),
            counts if return_counts else _empty_like_index(input))


def unique_dim(input: Tensor, dim: int, sorted: bool = True, return_inverse: bool = False,
               return_counts: bool = False) -> tuple:
    """``torch._VF.unique_dim``: (values, inverse, counts) along ``dim``, all three always
    (as PyTorch's, which computes them whatever the flags say)."""
    return UniqueDim.apply(input, _slices_along(_checked_dim(input, dim)))
