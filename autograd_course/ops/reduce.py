"""Reductions: sum, mean, max/min, argmax, var, norm, and sum_to_size (undoing broadcasts).

The backward of a reduction spreads the incoming gradient back over the elements that were
reduced: ``sum`` copies it to each, ``mean`` divides it by their count, ``max`` sends it to the
winners only.
"""

from __future__ import annotations

from ..autograd.function import Function
from ._util import normalize_dim


def _dims(dim, ndim):
    """``dim`` as a sorted tuple of non-negative axes (all axes when ``dim`` is None)."""
    if dim is None:
        return tuple(range(ndim))
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    return tuple(sorted(normalize_dim(d, ndim) for d in dims))


def _expand_back(grad, shape, dims, keepdim):
    """Broadcast a reduced gradient back to ``shape`` (re-inserting the reduced axes)."""
    if not keepdim and len(shape):
        kept = list(shape)
        for d in dims:
            kept[d] = 1
        grad = grad.reshape(kept)
    return grad.expand(shape)


class Sum(Function):
    """y = Σ x over ``dim``;  dy/dx = 1 for every element that was summed."""

    node_name = "SumBackward1"

    @staticmethod
    def forward(ctx, x, dims, keepdim):
        ctx.shape, ctx.dims, ctx.keepdim = x.shape, dims, keepdim
        data = x._data
        dtype = data.dtype if data.dtype.kind in "fc" else x._xp.int64
        return x._new(x._xp.asarray(data.sum(axis=dims, keepdims=keepdim, dtype=dtype)))

    @staticmethod
    def backward(ctx, grad):
        return _expand_back(grad, ctx.shape, ctx.dims, ctx.keepdim), None, None


class SumAll(Sum):
    node_name = "SumBackward0"


class Mean(Function):
    """y = (1/n) Σ x;  dy/dx = 1/n."""

    node_name = "MeanBackward1"

    @staticmethod
    def forward(ctx, x, dims, keepdim):
        if x._data.dtype.kind not in "fc":
            raise RuntimeError(
                "mean(): could not infer output dtype. Input dtype must be either a floating "
                f"point or complex dtype. Got: {x.dtype.name.capitalize()}"
            )
        ctx.shape, ctx.dims, ctx.keepdim = x.shape, dims, keepdim
        count = 1
        for d in dims:
            count *= x.shape[d]
        ctx.count = count
        return x._new(x._xp.asarray(x._data.mean(axis=dims, keepdims=keepdim)))

    @staticmethod
    def backward(ctx, grad):
        return _expand_back(grad / ctx.count, ctx.shape, ctx.dims, ctx.keepdim), None, None


class MeanAll(Mean):
    node_name = "MeanBackward0"


class SumToSize(Function):
    """Sum a broadcast tensor back down to ``shape``; backward broadcasts again."""

    node_name = "SumBackward1"

    @staticmethod
    def forward(ctx, x, shape):
        ctx.shape = x.shape
        data = x._data
        lead = data.ndim - len(shape)
        axes = tuple(range(lead)) + tuple(
            lead + i for i, n in enumerate(shape) if n == 1 and data.shape[lead + i] != 1
        )
        out = data.sum(axis=axes, keepdims=True) if axes else data
        return x._new(x._xp.asarray(out.reshape(shape)))

    @staticmethod
    def backward(ctx, grad):
        return grad.expand(ctx.shape), None


class MaxAll(Function):
    """y = max(x);  the gradient goes to the maximal elements, split evenly among ties."""

    node_name = "MaxBackward1"
    _pick = "max"

    @classmethod
    def forward(cls, ctx, x):
        value = getattr(x._data, cls._pick)()
        ctx.save_for_backward(x)
        ctx.value = value
        return x._new(x._xp.asarray(value))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        winners = (x == ctx.value.item()).to(grad.dtype)
        return grad * winners / winners.sum()


class MinAll(MaxAll):
    node_name = "MinBackward1"
    _pick = "min"


class MaxDim(Function):
    """(values, indices) = max(x, dim);  the gradient goes to the position of each maximum."""

    node_name = "MaxBackward0"
    _pick = "argmax"

    @classmethod
    def forward(cls, ctx, x, dim, keepdim):
        xp = x._xp
        idx = getattr(x._data, cls._pick)(axis=dim)
        idx_kept = xp.expand_dims(idx, dim)
        values = xp.take_along_axis(x._data, idx_kept, axis=dim)
        if not keepdim:
            values = values.squeeze(dim)
        ctx.shape, ctx.dim, ctx.keepdim = x.shape, dim, keepdim
        ctx.index = idx_kept
        indices = x._new(xp.asarray(idx_kept if keepdim else idx, dtype=xp.int64))
        ctx.mark_non_differentiable(indices)
        return x._new(values), indices

    @staticmethod
    def backward(ctx, grad, _grad_indices):
        from .shape import scatter_into_zeros

        if not ctx.keepdim:
            grad = grad.unsqueeze(ctx.dim)
        return scatter_into_zeros(grad, ctx.index, ctx.dim, ctx.shape), None, None


class MinDim(MaxDim):
    node_name = "MinBackward0"
    _pick = "argmin"


def sum(x, dim=None, keepdim=False, *, dtype=None):  # noqa: A001
    if dtype is not None:
        x = x.to(dtype)
    if dim is None:
        return SumAll.apply(x, _dims(None, x.ndim), False)
    return Sum.apply(x, _dims(dim, x.ndim), keepdim)


def mean(x, dim=None, keepdim=False, *, dtype=None):
    if dtype is not None:
        x = x.to(dtype)
    if dim is None:
        return MeanAll.apply(x, _dims(None, x.ndim), False)
    return Mean.apply(x, _dims(dim, x.ndim), keepdim)


def sum_to_size(x, *size):
    shape = tuple(size[0]) if len(size) == 1 and not isinstance(size[0], int) else size
    if tuple(x.shape) == tuple(shape):
        return x
    from ..autograd.engine import _can_sum_to

    if not _can_sum_to(x.shape, shape):
        raise RuntimeError(f"size {{{', '.join(map(str, shape))}}} is not expandable to size "
                           f"{{{', '.join(map(str, x.shape))}}}.")
    return SumToSize.apply(x, tuple(shape))


class _MinMaxResult(tuple):
    """``max(x, dim)`` returns (values, indices) with names, like PyTorch's namedtuple."""

    @property
    def values(self):
        return self[0]

    @property
    def indices(self):
        return self[1]

    def __repr__(self) -> str:
        return f"torch.return_types.{self._name}(\nvalues={self[0]!r},\nindices={self[1]!r})"


def _reduce_pick(x, dim, keepdim, all_cls, dim_cls, name):
    if dim is None:
        if x.numel() == 0:
            raise RuntimeError(
                f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
                "Specify the reduction dim with the 'dim' argument."
            )
        return all_cls.apply(x)
    if not isinstance(dim, int):  # max(a, b): element-wise maximum of two tensors
        from .compare import maximum, minimum

        return (maximum if name == "max" else minimum)(x, dim)
    result = _MinMaxResult(dim_cls.apply(x, normalize_dim(dim, x.ndim), keepdim))
    result._name = name
    return result


def max(x, dim=None, keepdim=False):  # noqa: A001
    return _reduce_pick(x, dim, keepdim, MaxAll, MaxDim, "max")


def min(x, dim=None, keepdim=False):  # noqa: A001
    return _reduce_pick(x, dim, keepdim, MinAll, MinDim, "min")


def argmax(x, dim=None, keepdim=False):
    xp = x._xp
    if dim is None:
        return x._new(xp.asarray(x._data.argmax(), dtype=xp.int64))
    idx = x._data.argmax(axis=normalize_dim(dim, x.ndim), keepdims=keepdim)
    return x._new(xp.asarray(idx, dtype=xp.int64))


def argmin(x, dim=None, keepdim=False):
    xp = x._xp
    if dim is None:
        return x._new(xp.asarray(x._data.argmin(), dtype=xp.int64))
    idx = x._data.argmin(axis=normalize_dim(dim, x.ndim), keepdims=keepdim)
    return x._new(xp.asarray(idx, dtype=xp.int64))


def var(x, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """Variance, written with differentiable ops: mean((x - mean(x))²) · n / (n - correction)."""
    if correction is None:
        correction = 1 if unbiased is None or unbiased else 0
    dims = _dims(dim, x.ndim)
    n = 1
    for d in dims:
        n *= x.shape[d]
    centered = x - mean(x, dims, keepdim=True)
    return sum(centered * centered, dims, keepdim=keepdim) / (n - correction)


def std(x, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return var(x, dim, unbiased, keepdim, correction=correction).sqrt()


def norm(x, p=2, dim=None, keepdim=False):
    """The p-norm (p = 2 by default): (Σ |x|^p)^(1/p)."""
    if p == 2:
        return sum(x * x, dim, keepdim).sqrt()
    if p == 1:
        return sum(x.abs(), dim, keepdim)
    if p == float("inf"):
        return x.abs().amax(dim, keepdim) if dim is not None else max(x.abs())
    return sum(x.abs() ** p, dim, keepdim) ** (1.0 / p)


def amax(x, dim=None, keepdim=False):
    if dim is None:
        return MaxAll.apply(x)
    return max(x, dim, keepdim)[0]
