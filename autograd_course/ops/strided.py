"""``as_strided``: a view that reads the tensor's storage with sizes and strides of your own.

``x.as_strided(size, stride, storage_offset)`` looks at the memory under ``x`` (its storage,
shared with every view of it, see storage.py): element ``i`` of the result (a multi-index) is
storage position ``storage_offset + sum(i[k] * stride[k])``. As in PyTorch the offset counts
from the start of the storage, not from ``x``'s first element (the same unless ``x`` is a view
with an offset, ``x[1:]``), and it defaults to ``x.storage_offset()``. Inside ``vmap`` an
example's offsets count from the example's start, as with PyTorch's batched ``as_strided``
(func/vmap.py marks each example with its ``_vmap_shift``).

Backward works in storage positions too (``AsStridedBackward0``): each incoming gradient
element is *added* to the position it was read from (positions can repeat), and each element
of ``x`` takes what landed on its own position, shared out evenly among the elements of ``x``
that lie on the same one (an expanded ``x``), as in PyTorch.
"""

from __future__ import annotations

import numpy as np

from .. import storage
from ..autograd import forward_ad
from ..autograd.function import Function
from .dims import normalize_dim
from .view_detection import view_of


def _check_bounds(size, stride, offset, numel, itemsize) -> None:
    if 0 in size:
        return
    needed = offset + sum((n - 1) * s for n, s in zip(size, stride)) + 1
    if needed > numel:
        raise RuntimeError(
            f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset {offset}, "
            f"and itemsize {itemsize} requiring a storage size of {needed * itemsize} are out "
            f"of bounds for storage of size {numel * itemsize}")


class AsStrided(Function):
    """out[i] = storage[offset + i · stride];  d x: the gradient added back, position by
    position, into a storage of zeros, and each element of x reading its own position."""

    node_name = "AsStridedBackward0"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, x, size, stride, storage_offset):
        size, stride = tuple(int(n) for n in size), tuple(int(s) for s in stride)
        offset = x.storage_offset() if storage_offset is None else int(storage_offset)
        offset += getattr(x, "_vmap_shift", 0)  # (a vmap example: from the example's start)
        memory = storage.flat(x._data, x._xp)
        _check_bounds(size, stride, offset, memory.size, memory.itemsize)
        ctx.geometry = (x.shape, x.stride(), storage.offset(x._data), memory.size, size,
                        stride, offset)
        ctx._saved_storage_offset = storage_offset
        out = x._xp.lib.stride_tricks.as_strided(
            memory[offset:], shape=size, strides=tuple(s * memory.itemsize for s in stride))
        return view_of(x, out)

    @staticmethod
    def backward(ctx, grad):
        shape, x_stride, x_offset, numel, size, stride, offset = ctx.geometry
        read = grad._new(grad._xp.asarray(_read_positions(size, stride, offset)))
        memory = grad.new_zeros(numel).index_put((read,), grad.reshape(-1), accumulate=True)
        own = _read_positions(shape, x_stride, x_offset)
        grad_x = memory[grad._new(grad._xp.asarray(own))].reshape(shape)
        sharing = np.bincount(own, minlength=numel)[own] if own.size else own
        if (sharing > 1).any():  # several elements of x on one position share what it got
            grad_x = grad_x / grad._new(grad._xp.asarray(sharing.reshape(shape))).to(grad.dtype)
        return grad_x, None, None, None


def _read_positions(size, stride, offset) -> np.ndarray:
    """Flat positions read by each element of the result, in the result's row-major order."""
    positions = np.full(tuple(size), offset, dtype=np.int64)
    for axis, (n, s) in enumerate(zip(size, stride)):
        step = np.arange(n, dtype=np.int64) * s
        positions = positions + step.reshape((-1,) + (1,) * (len(size) - axis - 1))
    return positions.reshape(-1)


def as_strided(input, size, stride, storage_offset=None):
    return AsStrided.apply(input, size, stride, storage_offset)


class Unfold(Function):
    """``x.unfold(dim, size, step)``: every window of ``size`` elements along ``dim``, ``step``
    apart, as a view with one more dim (the window); d x: each window's gradient added back
    onto the elements it covers (windows that overlap add up)."""

    node_name = "UnfoldBackward0"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, x, dim, size, step):
        data = x._data if x.ndim else x._data.reshape(1)
        count = (data.shape[dim] - size) // step + 1
        shape = data.shape[:dim] + (count,) + data.shape[dim + 1:] + (size,)
        strides = data.strides[:dim] + (data.strides[dim] * step,) + data.strides[dim + 1:] \
            + (data.strides[dim],)
        if x.ndim == 0:  # a 0-d tensor gives just the window (no count dim), as in PyTorch
            shape, strides = shape[1:], strides[1:]
        ctx.shape = x.shape
        # the same windows read from x laid out row-major, for the backward
        element_strides = np.cumprod((1,) + data.shape[:0:-1])[::-1]
        ctx.read = _read_positions(shape, tuple(int(e) for e in (
            *element_strides[:dim], element_strides[dim] * step, *element_strides[dim + 1:],
            element_strides[dim]))[-len(shape):], 0)
        return view_of(x, x._xp.lib.stride_tricks.as_strided(data, shape, strides))

    @staticmethod
    def backward(ctx, grad):
        n = int(np.prod(ctx.shape, dtype=np.int64))
        read = grad._new(grad._xp.asarray(ctx.read))
        memory = grad.new_zeros(n)
        return memory.index_put((read,), grad.reshape(-1), accumulate=True).reshape(
            ctx.shape), None, None, None


def unfold(input, dimension: int, size: int, step: int):
    """Tensor.unfold: the windows of ``size`` along ``dimension``, ``step`` apart (a view)."""
    dim = normalize_dim(dimension, input.ndim)
    length = input.shape[dim] if input.ndim else 1
    if size > length:
        raise RuntimeError(f"maximum size for tensor at dimension {dim} is {length} but size "
                           f"is {size}")
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    return Unfold.apply(input, dim, size, step)

