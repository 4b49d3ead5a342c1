"""Reductions: sum, mean, max/min, argmax/argmin, all/any, and sum_to_size (undoing
broadcasts). The statistics built on them (var, std, norm) are in ``stats.py``.

The backward of a reduction spreads the incoming gradient back over the elements that were
reduced: ``sum`` copies it to each, ``mean`` divides it by their count, ``max`` sends it to the
winners only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import _messages, dtypes
from .._shapes import broadcasts_to
from ..autograd import forward_ad
from ..autograd.function import Function
from .compare import maximum, minimum
from .dims import normalize_dim
from .indexing import scatter_into_zeros
from .operands import is_tensor
from .promotion import scalar_type

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


def _dims(dim, ndim):
    """``dim`` as a sorted tuple of non-negative axes (all axes when ``dim`` is None or
    empty: PyTorch reads ``sum(dim=[])`` as the full reduction)."""
    if dim is None or (not isinstance(dim, int) and len(dim) == 0):
        return tuple(range(ndim))
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    dims = tuple(normalize_dim(d, ndim) for d in dims)
    if len(set(dims)) != len(dims):
        repeated = next(d for d in dims if dims.count(d) > 1)
        raise RuntimeError(f"dim {repeated} appears multiple times in the list of dims")
    return tuple(sorted(dims)) if ndim else ()  # a 0-d tensor accepts dim 0 and -1


def _restore(t, shape, dims, keepdim):
    """Put the reduced axes back as size-1 dims, so ``t`` broadcasts against the input."""
    if keepdim or not len(shape):
        return t
    kept = list(shape)
    for d in dims:
        kept[d] = 1
    return t.reshape(kept)


def _expand_back(grad, shape, dims, keepdim):
    """Broadcast a reduced gradient back to ``shape`` (re-inserting the reduced axes)."""
    return _restore(grad, shape, dims, keepdim).expand(shape)


class Sum(Function):
    """y = Σ x over ``dim``;  dy/dx = 1 for every element that was summed."""

    node_name = "SumBackward1"
    jvp = forward_ad.linear

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
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, x, dims, keepdim):
        if x._data.dtype.kind not in "fc":
            raise RuntimeError(
                "mean(): could not infer output dtype. Input dtype must be either a floating "
                f"point or complex dtype. Got: {scalar_type(x)}"
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
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, x, shape):
        data = x._data
        ctx.shape = data.shape
        lead = data.ndim - len(shape)
        axes = tuple(range(lead)) + tuple(
            lead + i for i, n in enumerate(shape) if n == 1 and data.shape[lead + i] != 1
        )
        out = data.sum(axis=axes, keepdims=True) if axes else data
        return x._new(x._xp.asarray(out.reshape(shape)))

    @staticmethod
    def backward(ctx, grad):
        return grad.expand(ctx.shape), None


class Amax(Function):
    """y = max of x over ``dims``;  the gradient is shared evenly by the elements equal to
    the maximum (one winner gets all of it, two tied winners get half each)."""

    node_name = "AmaxBackward0"
    jvp = forward_ad.reduction
    saved_names = ("self", "result")
    _pick = "max"

    @classmethod
    def forward(cls, ctx, x, dims, keepdim):
        out = x._new(x._xp.asarray(getattr(x._data, cls._pick)(axis=dims, keepdims=keepdim)))
        ctx.save_for_backward(x, out)
        ctx.dims, ctx.keepdim = dims, keepdim
        return out

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        shape, dims, keepdim = x.shape, ctx.dims, ctx.keepdim
        winners = (x == _restore(out, shape, dims, keepdim)).to(grad.dtype)
        share = _restore(grad, shape, dims, keepdim) / winners.sum(dims, keepdim=True)
        return share * winners, None, None


class Amin(Amax):
    node_name = "AminBackward0"
    _pick = "min"


class MaxAll(Amax):
    """``x.max()`` with no dim: the same maths as ``amax`` over every dim."""

    node_name = "MaxBackward1"


class MinAll(Amin):
    node_name = "MinBackward1"


class MaxDim(Function):
    """(values, indices) = max(x, dim);  the gradient goes to the position of each maximum."""

    node_name = "MaxBackward0"
    jvp = forward_ad.reduction
    _pick = "argmax"

    @classmethod
    def forward(cls, ctx, x, dim, keepdim):
        xp, data = x._xp, x._data
        ctx.shape, ctx.dim, ctx.keepdim = x.shape, dim, keepdim
        if data.ndim == 0:  # a 0-d tensor is its own maximum, at index 0
            ctx.index = None
            indices = x._new(xp.zeros((), dtype=xp.int64))
            ctx.mark_non_differentiable(indices)
            return x._new(data.copy()), indices
        idx = xp.expand_dims(getattr(data, cls._pick)(axis=dim), dim)
        values = xp.take_along_axis(data, idx, axis=dim)
        ctx.index = idx
        if not keepdim:
            values, idx = values.squeeze(dim), idx.squeeze(dim)
        indices = x._new(xp.asarray(idx, dtype=xp.int64))
        ctx.mark_non_differentiable(indices)
        return x._new(values), indices

    @staticmethod
    def backward(ctx, grad, _grad_indices):
        if ctx.index is None:
            return grad, None, None
        if not ctx.keepdim:
            grad = grad.unsqueeze(ctx.dim)
        return scatter_into_zeros(grad, ctx.index, ctx.dim, ctx.shape), None, None


class MinDim(MaxDim):
    node_name = "MinBackward0"
    _pick = "argmin"


def sum(input: Tensor, dim: int | tuple[int, ...] | None = None, keepdim: bool = False, *,
        dtype: dtypes.dtype | None = None, keepdims: bool | None = None) -> Tensor:
    """``keepdims`` is NumPy's spelling of ``keepdim``, which PyTorch accepts too."""
    keepdim = keepdim if keepdims is None else keepdims
    if dtype is not None:
        input = input.to(dtype)
    if dim is None:
        return SumAll.apply(input, _dims(None, input.ndim), False)
    return Sum.apply(input, _dims(dim, input.ndim), keepdim)


def mean(input: Tensor, dim: int | tuple[int, ...] | None = None, keepdim: bool = False, *,
         dtype: dtypes.dtype | None = None, keepdims: bool | None = None) -> Tensor:
    """``keepdims`` is NumPy's spelling of ``keepdim``, which PyTorch accepts too."""
    keepdim = keepdim if keepdims is None else keepdims
    if dtype is not None:
        input = input.to(dtype)
    if dim is None:
        return MeanAll.apply(input, _dims(None, input.ndim), False)
    return Mean.apply(input, _dims(dim, input.ndim), keepdim)


def sum_to_size(x: Tensor, *size: int | tuple[int, ...]) -> Tensor:
    shape = tuple(size[0]) if len(size) == 1 and not isinstance(size[0], int) else size
    current = x._data.shape
    if not shape and broadcasts_to(shape, current):  # PyTorch sums it all: a bool gives int64
        return x.sum()
    if current == shape:
        return x
    if not broadcasts_to(shape, current):
        raise RuntimeError(f"size {{{list(shape)}}} is not expandable to size "
                           f"{{{list(current)}}}.")
    return SumToSize.apply(x, shape)


# --- logical reductions: no gradient ---------------------------------------------------------
def all(input: Tensor, dim: int | tuple[int, ...] | None = None, keepdim: bool = False) -> Tensor:
    """True where every element is non-zero (a uint8 tensor gives uint8, as in PyTorch)."""
    out = input._xp.asarray(input._data.all(axis=dim, keepdims=keepdim))
    return input._new(out.astype(input._xp.uint8) if input._data.dtype == input._xp.uint8 else out)


def any(input: Tensor, dim: int | tuple[int, ...] | None = None, keepdim: bool = False) -> Tensor:
    """True where some element is non-zero (a uint8 tensor gives uint8, as in PyTorch)."""
    out = input._xp.asarray(input._data.any(axis=dim, keepdims=keepdim))
    return input._new(out.astype(input._xp.uint8) if input._data.dtype == input._xp.uint8 else out)



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


# PyTorch's overloads of ``max``/``min`` a learner meets (the named-dim ones are not listed)
PICK_SIGNATURES = ("Tensor input, *, Tensor out = None",
                   "Tensor input, Tensor other, *, Tensor out = None",
                   "Tensor input, int dim, bool keepdim = False, *, tuple of Tensors out = None")


def _reduce_pick(x, dim, keepdim, all_cls, dim_cls, name):
    if not is_tensor(x):  # ``max(2)``: the one-argument overload; ``max(2, x)``: none of them
        if dim is None:
            raise TypeError(_messages.must_be_tensor(name, "input", 1, x))
        raise TypeError(_messages.invalid_combination(name, (x, dim), PICK_SIGNATURES))
    if dim is None:
        if x.numel() == 0:
            raise RuntimeError(
                f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
                "Specify the reduction dim with the 'dim' argument."
            )
        return all_cls.apply(x, tuple(range(x.ndim)), False)
    if not isinstance(dim, int):  # max(a, b): element-wise maximum of two tensors
        return (maximum if name == "max" else minimum)(x, dim)
    dim = normalize_dim(dim, x.ndim)
    _nonempty(x, (dim,), name)
    result = _MinMaxResult(dim_cls.apply(x, dim, keepdim))
    result._name = name
    return result


def _nonempty(x, dims, name: str) -> None:
    """PyTorch's errors for reducing over no elements with an op that has no identity."""
    if not x.ndim:
        return
    if dims is None:
        if x.numel() == 0:
            raise IndexError(f"{name}(): Expected reduction dim to be specified for "
                             "input.numel() == 0.")
        return
    for d in dims:
        if x.shape[d] == 0:
            raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")


def max(input: Tensor, dim: int | Tensor | None = None,
        keepdim: bool = False) -> Tensor | tuple[Tensor, Tensor]:
    """The largest element (no ``dim``), or (values, indices) of the largest along ``dim``."""
    return _reduce_pick(input, dim, keepdim, MaxAll, MaxDim, "max")


def min(input: Tensor, dim: int | Tensor | None = None,
        keepdim: bool = False) -> Tensor | tuple[Tensor, Tensor]:
    """The smallest element (no ``dim``), or (values, indices) of the smallest along ``dim``."""
    return _reduce_pick(input, dim, keepdim, MinAll, MinDim, "min")


def amax(input: Tensor, dim: int | tuple[int, ...] | None = None, keepdim: bool = False) -> Tensor:
    """The largest values over ``dim`` (all dims when None), without indices."""
    return Amax.apply(input, _pick_dims(input, dim, "amax"), keepdim)


def amin(input: Tensor, dim: int | tuple[int, ...] | None = None, keepdim: bool = False) -> Tensor:
    """The smallest values over ``dim`` (all dims when None), without indices."""
    return Amin.apply(input, _pick_dims(input, dim, "amin"), keepdim)


def _pick_dims(x, dim, name: str) -> tuple:
    dims = _dims(dim, x.ndim)
    if x.numel() == 0 and len(dims) == x.ndim:
        raise RuntimeError(
            f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
            "Specify the reduction dim with the 'dim' argument.")
    _nonempty(x, dims, name)
    return dims


def _arg(x, dim, keepdim, pick):
    xp = x._xp
    if x._data.dtype.kind == "b":
        raise RuntimeError(f"{pick}(): does not support bool input")
    if dim is None:
        _nonempty(x, None, pick)
        index = xp.asarray(getattr(x._data, pick)(), dtype=xp.int64)
        return x._new(index.reshape((1,) * x.ndim) if keepdim else index)
    if x.ndim == 0:
        normalize_dim(dim, 0)
        return x._new(xp.zeros((), dtype=xp.int64))
    dim = normalize_dim(dim, x.ndim)
    _nonempty(x, (dim,), pick)
    idx = getattr(x._data, pick)(axis=dim, keepdims=keepdim)
    return x._new(xp.asarray(idx, dtype=xp.int64))


def argmax(input: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:
    """Index of the largest element (of the flattened tensor when ``dim`` is None)."""
    return _arg(input, dim, keepdim, "argmax")


def argmin(input: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:
    """Index of the smallest element (of the flattened tensor when ``dim`` is None)."""
    return _arg(input, dim, keepdim, "argmin")
