"""``as_strided``: a view that reads the tensor's memory with sizes and strides of your own.

``x.as_strided(size, stride, storage_offset)`` looks at the elements of ``x`` as laid out in
memory (row-major when ``x`` is contiguous): element ``i`` of the result (a multi-index) is
memory position ``storage_offset + sum(i[k] * stride[k])``. Positions can repeat, so in
backward each incoming gradient element is *added* to the position it came from
(``AsStridedBackward0``).

Memory here is the tensor's own: the offset counts from its first element (PyTorch counts
from the start of the storage, which is the same unless ``x`` is itself a view with an
offset). A non-contiguous tensor is first copied to row-major order, so its result is not a
view of it.
"""

from __future__ import annotations

import numpy as np

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
    """out[i] = memory[offset + i · stride];  d input: each grad element added back to the
    memory position it was read from."""

    node_name = "AsStridedBackward0"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, x, size, stride, storage_offset):
        size, stride = tuple(int(n) for n in size), tuple(int(s) for s in stride)
        offset = 0 if storage_offset is None else int(storage_offset)
        data = x._data if x._data.flags.c_contiguous else x._xp.ascontiguousarray(x._data)
        _check_bounds(size, stride, offset, data.size, data.itemsize)
        ctx.geometry = (x.shape, size, stride, offset)
        ctx._saved_storage_offset = storage_offset
        memory = data.reshape(-1)
        out = x._xp.lib.stride_tricks.as_strided(
            memory[offset:], shape=size, strides=tuple(s * data.itemsize for s in stride))
        return view_of(x, out) if data is x._data else x._new(out.copy())

    @staticmethod
    def backward(ctx, grad):
        shape, size, stride, offset = ctx.geometry
        n = int(np.prod(shape, dtype=np.int64))
        read = grad._new(grad._xp.asarray(_read_positions(size, stride, offset)))
        memory = grad.new_zeros(n)
        return memory.index_put((read,), grad.reshape(-1), accumulate=True).reshape(
            shape), None, None, None


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

