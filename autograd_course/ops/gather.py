"""Reading and writing elements at index tensors: ``gather``, ``scatter``, ``scatter_add``,
``index_select``, ``masked_select``.

For a 2-d input and ``dim=1``: ``gather`` reads ``out[i][j] = x[i][index[i][j]]``;
``scatter`` writes ``out[i][index[i][j]] = src[i][j]``; ``scatter_add`` adds instead. They
are each other's backward: the gradient of a gather is a scatter_add of ``g`` into zeros
(elements read twice get both gradients), the gradient of scatter_add's ``src`` is a gather.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .._messages import warn_once
from ..autograd import forward_ad
from ..autograd.function import Function
from .broadcasting import broadcast_shape
from .dims import normalize_dim
from .indexing import IndexGrad
from .operands import is_tensor
from .promotion import scalar_type

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


def _positions(index, dim):
    """The NumPy key that reads ``x[i][index[i][j]]`` (for ``dim=1``): ``index`` along
    ``dim``, each element's own position along every other dim."""
    xp, n = index._xp, index.ndim
    grid = []
    for d, size in enumerate(index.shape):  # position along dim d, shaped to broadcast
        grid.append(index._data if d == dim else
                    xp.arange(size).reshape([size if k == d else 1 for k in range(n)]))
    return tuple(grid)


class Gather(Function):
    node_name = "GatherBackward0"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, x, dim, index):
        ctx.shape, ctx.dim = x.shape, dim
        ctx.save_for_backward(index)
        if index.numel() == 0:  # nothing to read: an empty tensor of the index's shape
            return x._new(x._xp.zeros(index.shape, dtype=x._data.dtype))
        if x.ndim == 0:  # a 0-d tensor acts as one of shape (1,): index's shape, all x
            return x._new(x._data.reshape(1)[index._data.reshape(-1)].reshape(index.shape))
        return x._new(x._data[_positions(index, dim)])

    @staticmethod
    def backward(ctx, grad):
        (index,) = ctx.saved_tensors
        if not ctx.shape:  # every element was the 0-d x
            return grad.sum(), None, None
        return grad.new_zeros(ctx.shape).scatter_add(ctx.dim, index, grad), None, None


def _scattered(ctx, x, dim, index, src, accumulate=False):
    """The forward of every scatter: a copy of ``x`` with ``src`` written (or, with
    ``accumulate``, added) at ``index`` along ``dim``. ``src`` is a number, or a tensor whose
    leading block of ``index``'s shape is read (PyTorch lets it be larger than ``index``)."""
    ctx.dim = dim
    ctx.save_for_backward(index)
    out = x._data.copy()
    if index.numel():
        positions = _positions(index, dim)
        values = src._data[tuple(slice(0, n) for n in index.shape)] if is_tensor(src) else src
        if accumulate:  # an index met twice adds twice
            x._xp.add.at(out, positions, values)
        else:
            out[positions] = values
    return x._new(out)


class Scatter(Function):
    """out = x with out[..index..] = src;  dx = g where nothing was written, dsrc = g read
    back at the index."""

    node_name = "ScatterBackward0"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, x, dim, index, src):
        return _scattered(ctx, x, dim, index, src)

    @staticmethod
    def backward(ctx, grad):
        (index,) = ctx.saved_tensors
        need_x, need_src = ctx.needs_input_grad[0], ctx.needs_input_grad[3]
        grad_x = grad.scatter(ctx.dim, index, 0.0) if need_x else None
        grad_src = grad.gather(ctx.dim, index) if need_src else None
        return grad_x, None, None, grad_src


class ScatterValue(Function):
    """out = x with out[..index..] = value, a number;  dx = g where nothing was written."""

    node_name = "ScatterBackward1"

    @staticmethod
    def forward(ctx, x, dim, index, value):
        return _scattered(ctx, x, dim, index, value)

    @staticmethod
    def backward(ctx, grad):
        (index,) = ctx.saved_tensors
        return grad.scatter(ctx.dim, index, 0.0), None, None, None


class ScatterAdd(Function):
    """out = x with out[..index..] += src;  dx = g, dsrc = g read back at the index."""

    node_name = "ScatterAddBackward0"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, x, dim, index, src):
        return _scattered(ctx, x, dim, index, src, accumulate=True)

    @staticmethod
    def backward(ctx, grad):
        (index,) = ctx.saved_tensors
        grad_src = grad.gather(ctx.dim, index) if ctx.needs_input_grad[3] else None
        return grad, None, None, grad_src


class ScatterReduce(Function):
    """``scatter(..., reduce='add' | 'multiply')``: each ``src`` value added into (multiplied
    into) its place, a place met twice taking both. PyTorch records it without a derivative
    (its node is ``NotImplemented``): backward raises PyTorch's error."""

    node_name = "NotImplemented"

    @staticmethod
    def forward(ctx, x, dim, index, src, reduce):
        out = x._data.copy()
        if index.numel():
            values = src._data[tuple(slice(0, n) for n in index.shape)] if is_tensor(src) \
                else x._xp.asarray(src, dtype=out.dtype)
            combine = x._xp.add if reduce == "add" else x._xp.multiply
            combine.at(out, _positions(index, dim), values)
        return x._new(out)

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::scatter is not implemented")


_SCATTER_REDUCE_WARNING = (
    "The reduce argument of torch.scatter with Tensor src is deprecated and will be removed in "
    "a future PyTorch release. Use torch.scatter_reduce instead for more reduction options.")


class MaskedSelect(Function):
    """The elements where ``mask`` is True, as a vector;  dx = g written back at those places."""

    node_name = "MaskedSelectBackward0"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, x, mask):
        shape = broadcast_shape(mask.shape, x.shape)
        at_least_1d = shape or (1,)  # a 0-d pair is read as one element
        key = x._xp.nonzero(x._xp.broadcast_to(mask._data, shape).reshape(at_least_1d))
        ctx.key, ctx.shapes = key, (at_least_1d, shape)
        return x._new(x._xp.broadcast_to(x._data, shape).reshape(at_least_1d)[key])

    @staticmethod
    def backward(ctx, grad):
        at_least_1d, shape = ctx.shapes
        return IndexGrad.apply(grad, ctx.key, at_least_1d, False).reshape(shape), None


def _check_index(input, dim, index, name: str, src=None) -> None:
    if index._data.dtype.kind not in "iu":
        raise RuntimeError(f"{name}(): Expected dtype int64 for index")
    if index.ndim != input.ndim and index.numel() and input.ndim:
        raise RuntimeError("Index tensor must have the same number of dimensions as input "
                           "tensor")
    for d in range(index.ndim if input.ndim and index.numel() else 0):  # empty: no check
        if d != dim and index.shape[d] > input.shape[d]:
            raise RuntimeError(
                f"Size does not match at dimension {d} expected index {list(index.shape)} to be "
                f"no larger than self {list(input.shape)} apart from dimension {dim}")
    size = input.shape[dim] if input.ndim else 1
    if index.numel() and (int(index._data.min()) < 0 or int(index._data.max()) >= size):
        bad = int(index._data.max()) if int(index._data.max()) >= size else int(index._data.min())
        raise RuntimeError(f"index {bad} is out of bounds for dimension {dim} with size {size}")
    if src is not None and is_tensor(src) and src._data.dtype != input._data.dtype:
        raise RuntimeError(f"{name}(): Expected self.dtype to be equal to src.dtype")


def check_src_tensor(src, position: int) -> None:
    """scatter_add takes its source as a tensor only (``scatter`` also takes a number)."""
    if not is_tensor(src):
        raise TypeError(f"scatter_add(): argument 'src' (position {position}) must be Tensor, "
                        f"not {type(src).__name__}")


def gather(input: Tensor, dim: int, index: Tensor, *, sparse_grad: bool = False) -> Tensor:
    """``out[i][j] = input[i][index[i][j]]`` (for ``dim=1``): pick along ``dim``."""
    dim = normalize_dim(dim, input.ndim)
    _check_index(input, dim, index, "gather")
    return Gather.apply(input, dim, index)


def scatter(input: Tensor, dim: int, index: Tensor, src: Tensor | float | None = None, *,
            value: float | None = None, reduce: str | None = None) -> Tensor:
    """A copy of ``input`` with ``out[i][index[i][j]] = src[i][j]`` (for ``dim=1``);
    ``src`` may be a number. ``reduce='add'`` or ``'multiply'`` combines instead of writing
    (deprecated by PyTorch for a tensor ``src``, with a warning, and not differentiable)."""
    dim = normalize_dim(dim, input.ndim)
    src = value if src is None else src
    if reduce is not None and reduce not in ("add", "multiply"):
        raise RuntimeError("reduce argument must be either add or multiply.")
    _check_index(input, dim, index, "scatter", src)
    if reduce is not None:
        if is_tensor(src):
            warn_once(_SCATTER_REDUCE_WARNING, stacklevel=2)
        return ScatterReduce.apply(input, dim, index, src, reduce)
    if is_tensor(src):
        return Scatter.apply(input, dim, index, src)
    return ScatterValue.apply(input, dim, index, src)


def scatter_add(input: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    """A copy of ``input`` with ``out[i][index[i][j]] += src[i][j]`` (for ``dim=1``)."""
    check_src_tensor(src, 4)
    dim = normalize_dim(dim, input.ndim)
    _check_index(input, dim, index, "scatter_add", src)
    return ScatterAdd.apply(input, dim, index, src)


def index_select(input: Tensor, dim: int, index: Tensor) -> Tensor:
    """The slices ``index`` (a vector of positions) along ``dim``."""
    dim = normalize_dim(dim, input.ndim)
    if index.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    if index._data.dtype not in (np.int32, np.int64):
        raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
    size = input.shape[dim] if input.ndim else 1
    flat = index.reshape(-1).long()
    for bad in flat._data[(flat._data < 0) | (flat._data >= size)][:1]:
        raise RuntimeError(f"INDICES element is out of DATA bounds, id={bad} axis_dim={size}")
    if input.ndim == 0:
        return IndexSelect.apply(input.reshape(1), 0, flat).reshape(())
    return IndexSelect.apply(input, dim, flat)


class IndexSelect(Function):
    node_name = "IndexSelectBackward0"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, x, dim, index):
        ctx.shape, ctx.dim = x.shape, dim
        ctx.save_for_backward(index)
        return x._new(x._xp.take(x._data, index._data, axis=dim))

    @staticmethod
    def backward(ctx, grad):
        (index,) = ctx.saved_tensors
        along = [1] * grad.ndim
        along[ctx.dim] = -1
        spread = index.reshape(along).expand(grad.shape)
        return grad.new_zeros(ctx.shape).scatter_add(ctx.dim, spread, grad), None, None


def masked_select(input: Tensor, mask: Tensor) -> Tensor:
    """The elements of ``input`` where ``mask`` is True, as a 1-d tensor (both broadcast)."""
    if mask._data.dtype != np.bool_:
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    return MaskedSelect.apply(input, mask)


class Take(Function):
    """out = x.flatten()[index], in index's shape;  d x: each gradient element added back at the
    position it was read from (a position read twice gets both)."""

    node_name = "TakeBackward0"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, x, index):
        ctx.shape = x.shape
        ctx.save_for_backward(index)
        return x._new(x._data.reshape(-1)[index._data])

    @staticmethod
    def backward(ctx, grad):
        (index,) = ctx.saved_tensors
        memory = grad.new_zeros(int(np.prod(ctx.shape, dtype=np.int64)))
        flat = memory.index_put((index.reshape(-1),), grad.reshape(-1), accumulate=True)
        return flat.reshape(ctx.shape), None


def take(input: Tensor, index: Tensor) -> Tensor:
    """The elements of ``input`` read as one flat row, at ``index`` (negative: from the end)."""
    if index._data.dtype != np.int64:
        raise RuntimeError(f"take(): Expected a long tensor for index, but got "
                           f"{scalar_type(index)}")
    n = input.numel()
    outside = index._data[(index._data >= n) | (index._data < -n)]
    if outside.size:
        raise IndexError(f"out of range: tried to access index {int(outside.reshape(-1)[0])} "
                         f"on a tensor of {n} elements.")
    return Take.apply(input, index)
