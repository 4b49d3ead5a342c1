"""View detection: the result of a view op (``view``, ``transpose``, ``x[1:]``...) is a view
of its input when NumPy returned an array sharing the input's memory (``view_of``); and
the check of a shape given to ``view``/``reshape`` (``check_shape``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..autograd import views

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


def view_of(x: Tensor, array: np.ndarray, multiple_outputs: bool = False) -> Tensor:
    """Wrap ``array``, the result of a view op on ``x``, as a tensor.

    When it shares ``x``'s memory (NumPy returned a view, as PyTorch would) it is a view:
    ``out._base`` is the tensor that owns the memory, and it shares ``x``'s version counter,
    so an in-place write through either one is seen by every node that saved the other. The
    owner keeps a weak list of its views, whose histories an in-place write re-makes
    (autograd/views.py; ``multiple_outputs``: one of several views made together).
    """
    out = x._new(array)
    data = x._data
    base = array.base
    # a NumPy view's .base is the array that owns the memory: when that is x's array (or x's
    # own base), they share memory for sure, without the slower may_share_memory
    if (base is not None and (base is data or base is data.base)) or \
            x._xp.may_share_memory(array, data):
        views.register_view(out, x, multiple_outputs)
    return out


def check_shape(shape, size: int) -> None:
    """PyTorch's errors for a target shape (of view/reshape) that ``size`` elements cannot take."""
    known = 1
    for i, n in enumerate(shape):
        if n < -1:
            raise RuntimeError(f"invalid shape dimension {n} at index {i} of shape {list(shape)}")
        if n != -1:
            known *= n
    inferred = list(shape).count(-1)
    if inferred > 1:
        raise RuntimeError("only one dimension can be inferred")
    if inferred and size == 0 and known == 0:
        raise RuntimeError(
            f"cannot reshape tensor of 0 elements into shape {list(shape)} because the "
            "unspecified dimension size -1 can be any value and is ambiguous")
    if (size != known) if not inferred else (known == 0 or size % known):
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {size}")
