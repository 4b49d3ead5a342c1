"""Ordering and counting: ``sort``, ``argsort``, ``topk``, ``bincount``, and the grids of
``meshgrid`` (``unique`` has its own module, distinct.py).

``sort`` and ``topk`` return (values, indices); the values are elements of the input moved to
new places, so the gradient of each goes back to the place it came from: a ``scatter`` of the
gradient into zeros at ``indices``. The indices themselves get no gradient.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

import numpy as np

from ..autograd.function import Function
from .dims import normalize_dim
from .reduce import _MinMaxResult

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


def _order(xp, data, dim, descending):
    """Stable positions that sort ``data`` along ``dim`` (equal elements keep their order).
    NaN counts as the largest value, as in PyTorch: last in ascending order, first in
    descending order (NumPy puts it last either way, so a second stable pass moves it)."""
    keys = data.astype(np.int8) if data.dtype == np.bool_ else data
    if not descending:
        return xp.argsort(keys, axis=dim, kind="stable")
    if keys.dtype.kind in "iu":
        keys = keys.astype(np.int64)  # so that -keys cannot wrap around (int8: -(-128))
    order = xp.argsort(-keys, axis=dim, kind="stable")  # NaN last
    if keys.dtype.kind != "f":
        return order
    is_nan = xp.isnan(xp.take_along_axis(keys, order, axis=dim))
    nan_first = xp.argsort(~is_nan, axis=dim, kind="stable")  # False (a NaN) sorts first
    return xp.take_along_axis(order, nan_first, axis=dim)


def _values_and_indices(ctx, x, order, dim):
    """The elements of ``x`` taken in ``order`` along ``dim``, and their indices (which get
    no gradient); the indices are saved so that backward can put the gradient back."""
    indices = x._new(order.astype(np.int64))
    ctx.mark_non_differentiable(indices)
    ctx.shape, ctx.dim = x.shape, dim
    ctx.save_for_backward(indices)
    return x._new(x._xp.take_along_axis(x._data, order, axis=dim)), indices


class Sort(Function):
    node_name = "SortBackward0"

    @staticmethod
    def forward(ctx, x, dim, descending):
        return _values_and_indices(ctx, x, _order(x._xp, x._data, dim, descending), dim)

    @staticmethod
    def backward(ctx, grad, _):
        (indices,) = ctx.saved_tensors
        return grad.new_zeros(ctx.shape).scatter(ctx.dim, indices, grad), None, None


class Topk(Sort):
    node_name = "TopkBackward0"

    @staticmethod
    def forward(ctx, x, k, dim, largest):
        order = x._xp.take(_order(x._xp, x._data, dim, largest), range(k), axis=dim)
        return _values_and_indices(ctx, x, order, dim)

    @staticmethod
    def backward(ctx, grad, _):
        return Sort.backward(ctx, grad, _)[0], None, None, None


def _named(pair, name):
    result = _MinMaxResult(pair)
    result._name = name
    return result


def sort(input: Tensor, dim: int = -1, descending: bool = False, stable: bool = False):
    """(values, indices): the elements in order along ``dim``, and where each came from."""
    if input.ndim == 0:
        return _named((input.clone(), input.new_zeros((), dtype=np.int64)), "sort")
    return _named(Sort.apply(input, normalize_dim(dim, input.ndim), descending), "sort")


def argsort(input: Tensor, dim: int = -1, descending: bool = False, stable: bool = False
            ) -> Tensor:
    """The indices that sort ``input`` along ``dim``."""
    return sort(input, dim, descending, stable)[1]


def topk(input: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True):
    """(values, indices) of the ``k`` largest (or smallest) elements along ``dim``."""
    dim = normalize_dim(dim, input.ndim)
    size = input.shape[dim] if input.ndim else 1
    if not 0 <= k <= size:
        raise RuntimeError("selected index k out of range")
    if input.ndim == 0:
        return _named((input.clone(), input.new_zeros((), dtype=np.int64)), "topk")
    return _named(Topk.apply(input, k, dim, largest), "topk")


def bincount(input: Tensor, weights: Tensor | None = None, minlength: int = 0) -> Tensor:
    """How often each value 0, 1, 2... occurs in a 1-d int tensor (or the sum of its
    ``weights``)."""
    if input.ndim != 1 or input._data.dtype.kind not in "iu":
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if input.numel() and int(input._data.min()) < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is None:
        return input._new(np.bincount(input._data, minlength=minlength).astype(np.int64))
    counts = np.bincount(input._data, weights._data, minlength=minlength)
    dtype = weights._data.dtype if weights._data.dtype.kind == "f" else np.float64
    return input._new(counts.astype(np.float32 if dtype == np.float32 else np.float64))


def meshgrid(*tensors: Tensor, indexing: str | None = None) -> tuple:
    """Grids from 1-d tensors: with ``indexing="ij"`` output k varies along dim k; ``"xy"``
    swaps the first two dims (matrix vs. Cartesian convention)."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if indexing is None:
        warnings.warn(
            "torch.meshgrid: in an upcoming release, it will be required to pass the indexing "
            "argument.", UserWarning, stacklevel=2)
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError('torch.meshgrid: indexing must be one of "xy" or "ij", but received: '
                           f"{indexing}")
    for t in tensors:
        if t.ndim > 1:
            raise RuntimeError("torch.meshgrid: Expected 0D or 1D tensor in the tensor list but "
                               f"got: {t}")
    ts = [t.reshape(-1) for t in tensors]
    swap = indexing == "xy" and len(ts) >= 2
    if swap:
        ts[0], ts[1] = ts[1], ts[0]
    shape = [t.shape[0] for t in ts]
    grids = []
    for k, t in enumerate(ts):
        view = [1] * len(ts)
        view[k] = -1
        grids.append(t.reshape(view).expand(shape))
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)
