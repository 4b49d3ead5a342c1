"""How the viewer writes values: shapes, dtypes, small tensors' values, gradients, node names.

Numbers get 4 significant digits (``-0`` prints as ``0``); a tensor with more than ``SMALL``
elements is shown by its shape only.
"""

from __future__ import annotations

import numpy as np

from .._backend import to_numpy

SMALL = 6  # tensors with at most this many elements show their values


def shape_text(shape) -> str:
    return "scalar" if len(shape) == 0 else "[" + ", ".join(str(s) for s in shape) + "]"


def dtype_text(np_dtype) -> str:
    return str(np.dtype(np_dtype))  # float32, int64, bool


def _number(v) -> str:
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v))
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    text = format(float(v), ".4g")
    return "0" if text == "-0" else text


def values_text(array, limit: int = SMALL) -> str | None:
    """``[1, 2.5]`` for an array of at most ``limit`` elements, else None."""
    if array is None:
        return None
    array = to_numpy(array)
    if array.size > limit:
        return None
    if array.ndim == 0:
        return _number(array.item())
    if array.size == 0:
        return "[]"
    # nested brackets without recursion: join the innermost rows first, then outwards
    rows = [_number(v) for v in array.ravel().tolist()]
    for size in reversed(array.shape):
        rows = ["[" + ", ".join(rows[i:i + size]) + "]" for i in range(0, len(rows), size)]
    return rows[0]


def grad_text(array) -> str:
    """What an edge label shows for a gradient: its values, or its shape when it is big."""
    if array is None:
        return "None"
    array = to_numpy(array)
    text = values_text(array)
    return text if text is not None else shape_text(array.shape)


def node_name(fn) -> str:
    """The node's name as a drawing shows it: without PyTorch's C++ namespace
    (``torch::autograd::CopySlices`` is drawn as ``CopySlices``)."""
    return fn.name().removeprefix("torch::autograd::")
