"""Where values would go in a sorted sequence: ``searchsorted`` and ``bucketize``.

``searchsorted(seq, v)`` is, for each value ``v``, the index at which inserting it keeps
``seq`` sorted: with ``side="left"`` the first index ``i`` with ``seq[i] >= v``, with
``side="right"`` the first with ``seq[i] > v``. ``bucketize(v, boundaries)`` asks the same
question the other way round (``right=False`` is the left side). Both give indices, integers
that no gradient flows through: their results never require grad.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .operands import is_tensor
from .out_arg import write_out

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor

_WHERE = "torch.searchsorted(): "


def _binary_search(xp, seq, values, right: bool):
    """For every value (the last axis of ``seq`` is searched, row by row): the first index
    ``i`` where ``not (seq[i] >= v)`` (left side; ``>`` for the right side) stops holding.

    The comparison is PyTorch's kernel's, so a NaN behaves as it does there: a NaN value goes
    after every number, and a NaN in ``seq`` counts as smaller than every value.
    """
    n = seq.shape[-1]
    low = xp.zeros(values.shape, dtype=np.int64)
    high = xp.full(values.shape, n, dtype=np.int64)
    if n == 0:  # an empty sequence: every value goes at 0
        return low
    for _ in range(n.bit_length()):  # each step halves every range [low, high)
        active = low < high
        middle = (low + high) // 2
        at_middle = xp.take_along_axis(seq, xp.minimum(middle, n - 1), axis=-1)
        if right:
            go_right = ~(at_middle > values)
        else:
            go_right = ~(at_middle >= values)
        low = xp.where(active & go_right, middle + 1, low)
        high = xp.where(active & ~go_right, middle, high)
    return low


def _check_sorter(seq: Tensor, sorter: Tensor) -> None:
    if sorter._data.dtype != np.int64:
        from_name = {"int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte"}
        raise RuntimeError(f"{_WHERE}sorter must be a tensor of long dtype but got dtype "
                           f"{from_name.get(sorter._data.dtype.name, sorter._data.dtype.name)}")
    if sorter.shape != seq.shape:
        raise RuntimeError(f"{_WHERE}boundary and sorter must have the same size, but got "
                           f"boundary tensor {list(seq.shape)}and got sorter tensor "
                           f"{list(sorter.shape)}")
    if sorter.numel() and (int(sorter._data.min()) < 0
                           or int(sorter._data.max()) >= seq.shape[-1]):
        raise RuntimeError(f"{_WHERE}sorter index out of range")


def _search(seq: Tensor, value, out_int32: bool, right: bool, side: str | None,
            sorter: Tensor | None) -> Tensor:
    if side is not None and side not in ("left", "right"):
        raise RuntimeError(f"{_WHERE}side can only be 'left' or 'right' but got {side}")
    if side is not None and right and side == "left":
        raise RuntimeError(f"{_WHERE}side and right can't be set to opposites, got side of "
                           "left while right was True")
    right = right or side == "right"
    if seq.ndim == 0:
        raise RuntimeError(f"{_WHERE}boundaries tensor should have positive dimension, but got "
                           "0 dimension")
    if not is_tensor(value):  # a Python number: one value, only for a 1-d sequence
        if seq.ndim != 1:
            raise RuntimeError(f"{_WHERE}input value can be a scalar only when boundaries "
                               f"tensor dimension is 1, but we got boundaries tensor "
                               f"dim({seq.ndim}) and input value's dim(0) numel(1)")
        value = seq._new(seq._xp.asarray(value))
    if seq.ndim > 1 and (value.ndim != seq.ndim or value.shape[:-1] != seq.shape[:-1]):
        raise RuntimeError(f"{_WHERE}boundaries tensor should be 1 dimension or the first N-1 "
                           "dimensions of boundaries tensor and input value tensor must match, "
                           f"but we got boundaries tensor {list(seq.shape)} and input value "
                           f"tensor {list(value.shape)}")
    if seq._data.dtype == np.bool_:
        raise NotImplementedError("\"searchsorted_out_cpu\" not implemented for 'Bool'")
    xp, data = seq._xp, seq._data
    if sorter is not None:
        _check_sorter(seq, sorter)
        data = xp.take_along_axis(data, sorter._data, axis=-1)  # the sequence, sorted
    values = value._data
    if seq.ndim == 1:  # one sequence for every value: search it as one row
        found = _binary_search(xp, data.reshape(1, -1), values.reshape(1, -1), right)
        found = found.reshape(values.shape)
    else:
        found = _binary_search(xp, data, values, right)
    return value._new(found.astype(np.int32 if out_int32 else np.int64))


def searchsorted(sorted_sequence: Tensor, input, *, out_int32: bool = False,
                 right: bool = False, side: str | None = None, out: Tensor | None = None,
                 sorter: Tensor | None = None) -> Tensor:
    """The indices where the values of ``input`` would be inserted into ``sorted_sequence``
    (its last dimension; leading dimensions pair up with ``input``'s) to keep it sorted.
    ``sorter``: the indices that sort an unsorted sequence (as ``argsort`` gives)."""
    if out is not None:
        return write_out(out, searchsorted, sorted_sequence, input, out_int32=out_int32,
                         right=right, side=side, sorter=sorter)
    return _search(sorted_sequence, input, out_int32, right, side, sorter)


def bucketize(input, boundaries: Tensor, *, out_int32: bool = False, right: bool = False,
              out: Tensor | None = None) -> Tensor:
    """The bucket of each value: ``i`` with ``boundaries[i-1] < x <= boundaries[i]``
    (``right=True``: ``boundaries[i-1] <= x < boundaries[i]``); ``boundaries`` is 1-d."""
    if boundaries.ndim != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim"
                           f"({boundaries.ndim})")
    if out is not None:
        return write_out(out, bucketize, input, boundaries, out_int32=out_int32, right=right)
    return _search(boundaries, input, out_int32, right, None, None)
