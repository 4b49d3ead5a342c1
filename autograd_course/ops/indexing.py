"""Indexing: ``x[key]`` and its backward, done the way PyTorch records it.

PyTorch splits a key into steps: every integer is a ``select`` (``SelectBackward0``), every
slice that is not a whole dimension a ``slice`` (``SliceBackward0``), every ``None`` an
``unsqueeze``; what is left (lists, integer or boolean tensors) is one advanced ``index``
(``IndexBackward0``). We do the same, so ``x[0, 1:3]`` shows ``SliceBackward0 → SelectBackward0``
exactly as in PyTorch, and so the advanced part follows PyTorch's placement rules.

The backward of every step is the same idea: start from zeros of the input's shape and put the
incoming gradient where the elements came from. Positions picked twice (``x[[0, 0]]``) receive
the sum of their gradients, which is why the advanced case accumulates (``np.add.at``).
"""

from __future__ import annotations

import numbers
import warnings
from types import ModuleType
from typing import TYPE_CHECKING

import numpy as np

from ..autograd import forward_ad
from ..autograd.function import Function
from .dims import normalize_dim
from .operands import is_tensor
from .shape import Unsqueeze
from .view_detection import view_of

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


class _Take(Function):
    """y = x[key] for a NumPy-style ``key``;  dx = zeros with dy written (added) at ``key``."""

    node_name = "IndexBackward0"
    jvp = forward_ad.linear
    _basic = False  # a basic key (ints and slices) picks each element at most once

    @classmethod
    def forward(cls, ctx, x, key, sources=()):
        ctx.shape, ctx.key = x.shape, key
        if sources:  # the index tensors: changing one in place afterwards must be caught
            ctx.save_for_backward(*sources)
        return view_of(x, x._data[key]) if cls._basic else x._new(x._data[key])

    @classmethod
    def backward(cls, ctx, grad):
        sources = ctx.saved_tensors  # raises if an index tensor was modified in place
        if any(t._data.dtype == t._xp.uint8 for t in sources):  # PyTorch warns again here
            warnings.warn(_UINT8_INDEX, UserWarning, stacklevel=2)
        return IndexGrad.apply(grad, ctx.key, tuple(ctx.shape), cls._basic), None, None


class Index(_Take):
    """Advanced indexing: integer arrays and boolean masks."""

    node_name = "IndexBackward0"


class Select(_Take):
    """One integer along one dim: the dim disappears."""

    node_name = "SelectBackward0"
    _basic = True


class Slice(_Take):
    """``start:stop:step`` along one dim."""

    node_name = "SliceBackward0"
    _basic = True


class Alias(Function):
    """``x[...]``: the same elements, a new tensor;  the gradient passes through."""

    node_name = "AliasBackward0"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, x):
        return view_of(x, x._data.view())

    @staticmethod
    def backward(ctx, grad):
        return grad


class IndexGrad(Function):
    """out = zeros(shape); out[key] += g: the backward of indexing, itself differentiable
    (its own backward is indexing again: d out / d g picks ``g``'s elements back out)."""

    node_name = "IndexPutBackward0"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, grad, key, shape, basic):
        ctx.key = key
        xp = grad._xp
        out = xp.zeros(shape, dtype=grad._data.dtype)
        if basic:
            out[key] = grad._data
        else:
            xp.add.at(out, key, grad._data)
        return grad._new(out)

    @staticmethod
    def backward(ctx, grad):
        return Index.apply(grad, ctx.key), None, None, None


class IndexPut(Function):
    """x[key] = value, in place (``x[key] = v``; PyTorch's node is ``IndexPutBackward0`` for
    keys of lists, tensors and masks).

    dx = dout with zeros at ``key`` (those elements were overwritten); dvalue = dout[key],
    summed back to ``value``'s shape when it was broadcast.
    """

    node_name = "IndexPutBackward0"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, x, key, value, sources=()):
        ctx.key, ctx.value_shape = key, value.shape
        if not sources:  # a key of lists: its arrays, as the index tensors PyTorch saves
            parts = key if isinstance(key, tuple) else (key,)
            sources = tuple(x._new(p) for p in parts if isinstance(p, x._xp.ndarray))
        ctx.save_for_backward(*sources)  # index tensors of the key, version-checked, freed
        x._data[key] = value._data
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, grad):
        ctx.saved_tensors  # noqa: B018  (raises if an index tensor was modified in place)
        need_x, _, need_value = ctx.needs_input_grad[:3]
        grad_x = grad_value = None
        if need_x:
            keep = grad._xp.ones(grad.shape, dtype=grad._data.dtype)
            keep[ctx.key] = 0
            grad_x = grad * grad._new(keep)
        if need_value:
            grad_value = Index.apply(grad, ctx.key).sum_to_size(ctx.value_shape)
        return grad_x, None, grad_value, None


def scatter_into_zeros(grad: Tensor, index: np.ndarray, dim: int, shape: tuple[int, ...]) -> Tensor:
    """Zeros of ``shape`` holding ``grad`` at ``index`` along ``dim`` (``max(dim)``'s backward)."""
    xp, ndim = grad._xp, len(index.shape)
    # open grids, like np.indices(..., sparse=True) (which CuPy's indices does not offer)
    grids = [xp.arange(n).reshape([n if i == d else 1 for i in range(ndim)])
             for d, n in enumerate(index.shape)]
    grids[dim] = index
    return IndexGrad.apply(grad, tuple(grids), tuple(shape), False)


# --- turning a user's key into steps -------------------------------------------------------
def _index_error(part) -> IndexError:
    return IndexError(
        "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are "
        f"valid indices (got {type(part).__name__})"
    )


_UINT8_INDEX = ("indexing with dtype torch.uint8 is now deprecated, please use a dtype "
                "torch.bool instead.")


def _check_slice(part: slice) -> slice:
    """PyTorch has no negative steps (a tensor's strides are never negative)."""
    step = part.step
    if step is not None and step <= 0:
        raise ValueError("slice step cannot be zero" if step == 0 else
                         "step must be greater than zero")
    return part


def _convert(part, xp):
    """One key entry as int, slice, None, Ellipsis or an index array on ``xp``.

    A uint8 tensor is a mask (as bool), as in PyTorch, which warns that this is deprecated.
    """
    if part is None or part is Ellipsis:
        return part
    if isinstance(part, slice):
        return _check_slice(part)
    if isinstance(part, bool):
        return xp.asarray(part)
    if isinstance(part, numbers.Integral):
        return int(part)
    if is_tensor(part):
        array = part._data
        if part._xp is not xp:  # PyTorch takes CPU indices for a GPU tensor (copied over)
            if part._device.type != "cpu":
                raise RuntimeError("indices should be either on cpu or on the same device as "
                                   "the indexed tensor (cpu)")
            array = xp.asarray(array)
    elif isinstance(part, (list, tuple, range)):  # x[range(n), target]: a list of indices
        array = xp.asarray(part) if len(part) else xp.zeros(0, dtype=xp.int64)
    elif hasattr(part, "dtype"):  # a NumPy (or CuPy) array
        array = xp.asarray(part)
    else:
        raise _index_error(part)
    if array.dtype.kind not in "biu" or array.dtype in (xp.int8, xp.int16):
        raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    if array.dtype == xp.uint8:
        warnings.warn(_UINT8_INDEX, UserWarning, stacklevel=4)
        array = array.astype(bool)
    if array.ndim == 0 and array.dtype.kind != "b":
        return int(array)  # a 0-d integer tensor indexes like a Python int
    return array


def _consumed(part) -> int:
    """How many dims of the tensor one key entry uses up."""
    if part is None or part is Ellipsis:
        return 0
    if hasattr(part, "dtype") and part.dtype.kind == "b":
        return part.ndim
    return 1


def _check_advanced(array, dim: int, shape, ordinal: int) -> None:
    if array.dtype.kind == "b":
        mask_shape = list(array.shape)
        tensor_shape = list(shape)
        for i, n in enumerate(mask_shape):
            if dim + i >= len(shape) or shape[dim + i] != n:
                raise IndexError(
                    f"The shape of the mask {mask_shape} at index {i} does not match the shape "
                    f"of the indexed tensor {tensor_shape} at index {dim + i}"
                )
        return
    size = shape[dim]
    if array.size:
        for bad in (int(array.max()), int(array.min())):
            if not -size <= bad < size:
                raise IndexError(
                    f"index {bad} is out of bounds for dimension {ordinal} with size {size}"
                )


def getitem(x: Tensor, key: object) -> Tensor:
    """``x[key]`` as PyTorch records it: select / slice / unsqueeze steps, then one index."""
    xp = x._xp
    if isinstance(key, int) and not isinstance(key, bool):  # the common case, kept short
        return _select(x, 0, key, 0)
    if isinstance(key, slice):  # a lone slice is recorded even when it takes everything
        if x.ndim == 0:
            raise IndexError("slice() cannot be applied to a 0-dim tensor.")
        return Slice.apply(x, _check_slice(key))
    parts = [_convert(p, xp) for p in (key if isinstance(key, tuple) else (key,))]
    used = sum(_consumed(p) for p in parts)
    if used > x.ndim:
        if x.ndim == 0 and isinstance(parts[0], int):
            raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                             "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
        raise IndexError(f"too many indices for tensor of dimension {x.ndim}")
    out, dim, rest, advanced = x, 0, [], 0
    for position, part in enumerate(parts):
        if part is Ellipsis:
            skip = x.ndim - used
            rest += [slice(None)] * skip
            dim += skip
            used = x.ndim  # a second Ellipsis stands for nothing, as in PyTorch
        elif part is None:
            out = Unsqueeze.apply(out, dim)
            rest.append(slice(None))
            dim += 1
        elif isinstance(part, int):
            out = _select(out, dim, part, position)
        elif isinstance(part, slice):
            if part != slice(None):
                out = Slice.apply(out, (slice(None),) * dim + (part,))
            rest.append(slice(None))
            dim += 1
        elif part.ndim == 0:  # x[True]: a new dim of size 1, kept (True) or emptied (False)
            out = Unsqueeze.apply(out, dim)
            rest.append(part.reshape(1))
            advanced += 1
            dim += 1
        else:
            _check_advanced(part, dim, out.shape, advanced)
            advanced += 1
            rest.append(part)
            dim += _consumed(part)
    if advanced:
        _check_broadcast(rest)
        sources = index_sources(key)
        if sources:
            return Index.apply(out, tuple(rest), sources)
        return Index.apply(out, tuple(rest))
    return Alias.apply(out) if out is x else out


def _check_broadcast(parts) -> None:
    """PyTorch's error when the index tensors (a mask counts as its nonzero() indices, one
    per dim) do not broadcast together."""
    shapes = []
    for part in parts:
        if isinstance(part, slice):
            continue
        if part.dtype.kind == "b":
            shapes += [(int(part.sum()),)] * part.ndim
        else:
            shapes.append(tuple(part.shape))
    try:
        np.broadcast_shapes(*shapes)
    except ValueError:
        listed = ", ".join(str(list(shape)) for shape in shapes)
        raise IndexError("shape mismatch: indexing tensors could not be broadcast together "
                         f"with shapes {listed}") from None


def _select(x, dim: int, index: int, position: int):
    if x.ndim == 0:
        raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                         "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
    size = x.shape[dim]
    if not -size <= index < size:
        raise IndexError(
            f"index {index} is out of bounds for dimension {position} with size {size}"
        )
    # the trailing Ellipsis makes NumPy return a 0-d array view, not a copied scalar
    return Select.apply(x, (slice(None),) * dim + (index, Ellipsis))


def select(input: Tensor, dim: int, index: int) -> Tensor:
    """``x.select(dim, index)``: the same as ``x[:, ..., index]`` with ``index`` at ``dim``."""
    if input.ndim == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    dim = normalize_dim(dim, input.ndim)
    size = input.shape[dim]
    if not -size <= index < size:
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"{list(input.shape)} at dimension {dim}")
    return _select(input, dim, index, dim)


def index_sources(key: object) -> tuple:
    """The tensors with dimensions in a key (index tensors and masks): an op that keeps
    their arrays for backward saves these, so changing one in place is caught."""
    parts = key if isinstance(key, tuple) else (key,)
    return tuple(p for p in parts if is_tensor(p) and p._data.ndim)


def key_data(key: object, xp: ModuleType) -> object:
    """A key for NumPy-style writing (``x[key] = v``): tensors replaced by their arrays."""
    parts = key if isinstance(key, tuple) else (key,)
    converted = tuple(_convert(p, xp) for p in parts)
    return converted if isinstance(key, tuple) else converted[0]


def is_view_key(key: object) -> bool:
    """Keys with an int, a slice that is not ``:``, or None write through a view of the tensor
    (PyTorch's 'a view of a leaf' and CopySlices cases)."""
    parts = key if isinstance(key, tuple) else (key,)
    return any(p is None or (isinstance(p, numbers.Integral) and not isinstance(p, bool))
               or (isinstance(p, slice) and (p != slice(None) or len(parts) == 1))
               for p in parts)


def is_whole_key(key: object) -> bool:
    """``x[...] = v`` and ``x[()] = v`` write every element (PyTorch: fill_ or copy_)."""
    return key is Ellipsis or (isinstance(key, tuple) and all(p is Ellipsis for p in key))
