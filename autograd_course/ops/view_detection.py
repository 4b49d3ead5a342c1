"""View detection: the result of a view op (``view``, ``transpose``, ``x[1:]``...) is a view
of its input when NumPy returned an array sharing the input's memory (``view_of``)."""

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
