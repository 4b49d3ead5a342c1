"""``Tensor``'s methods that pick or write elements by position, index tensor or mask:
``x.select(0, 2)``, ``x.narrow(1, 0, 3)``, ``x.gather(1, idx)``, ``x.index_select(0, idx)``,
``x.masked_select(mask)``, ``x.masked_fill(mask, 0)``, ``x.scatter(...)``,
``x.index_put(...)``, ``x.nonzero()`` (``x[i]`` and ``x[mask] = v`` are in operators.py).

Each is one call to its op in ``autograd_course.ops``, where the forward and backward live.
"""

from __future__ import annotations

from .. import ops
from ..ops import masking
from ..ops.gather import (
    check_src_tensor,
    gather,
    index_select,
    masked_select,
    scatter,
    scatter_add,
)


class TensorIndexing:
    """Mixed into ``Tensor``: reading and writing elements by index or mask."""

    __slots__ = ()

    # --- by position --------------------------------------------------------------------------
    def select(self, dim, index):
        return ops.select(self, dim, index)

    def narrow(self, dim, start, length):
        return ops.narrow(self, dim, start, length)

    # --- by index tensor (ops/gather.py) ------------------------------------------------------
    def gather(self, dim, index, *, sparse_grad=False):
        return gather(self, dim, index)

    def scatter(self, dim, index, src=None, *, value=None, reduce=None):
        return scatter(self, dim, index, src, value=value, reduce=reduce)

    def scatter_add(self, dim, index, src):
        check_src_tensor(src, 3)  # the method counts from dim: src is its third argument
        return scatter_add(self, dim, index, src)

    def take(self, index):
        return ops.take(self, index)

    def index_select(self, dim, index):
        return index_select(self, dim, index)

    def index_put(self, indices, values, accumulate=False):
        return masking.index_put_(self.clone(), indices, values, accumulate)

    # --- by mask (ops/masking.py) -------------------------------------------------------------
    def masked_select(self, mask):
        return masked_select(self, mask)

    def masked_fill(self, mask, value):
        return masking.masked_fill(self, mask, value)

    def nonzero(self, *, as_tuple=False):
        return masking.nonzero(self, as_tuple=as_tuple)

    def argwhere(self):
        return masking.argwhere(self)
