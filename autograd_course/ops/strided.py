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

from ..autograd.function import Function
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
