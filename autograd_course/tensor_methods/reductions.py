"""``Tensor``'s methods that work along dimensions: reductions (``x.sum()``, ``x.mean(0)``,
``x.max(dim=1)``, ``x.norm()``, ``x.logsumexp(-1)``), running sums and products
(``x.cumsum(0)``), and ``x.softmax(-1)``, which normalises along one.

Each is one call to its op in ``autograd_course.ops``, where the forward and backward live.
"""

from __future__ import annotations

from .. import ops
from ..ops import arrange, scan
from ..ops.activations.softmax import log_softmax as _log_softmax
from ..ops.activations.softmax import softmax as _softmax


class TensorReductions:
    """Mixed into ``Tensor``: reductions, scans and softmax."""

    __slots__ = ()

    # --- reductions ---------------------------------------------------------------------------
    def sum(self, dim=None, keepdim=False, *, dtype=None, keepdims=None):
        return ops.sum(self, dim, keepdim, dtype=dtype, keepdims=keepdims)

    def mean(self, dim=None, keepdim=False, *, dtype=None, keepdims=None):
        return ops.mean(self, dim, keepdim, dtype=dtype, keepdims=keepdims)

    def prod(self, dim=None, keepdim=False, *, dtype=None):
        return scan.prod(self, dim, keepdim, dtype=dtype)

    def max(self, dim=None, keepdim=False):
        return ops.max(self, dim, keepdim)

    def min(self, dim=None, keepdim=False):
        return ops.min(self, dim, keepdim)

    def amax(self, dim=None, keepdim=False):
        return ops.amax(self, dim, keepdim)

    def amin(self, dim=None, keepdim=False):
        return ops.amin(self, dim, keepdim)

    def argmax(self, dim=None, keepdim=False):
        return ops.argmax(self, dim, keepdim)

    def argmin(self, dim=None, keepdim=False):
        return ops.argmin(self, dim, keepdim)

    def var(self, dim=None, unbiased=None, keepdim=False, *, correction=None):
        return ops.var(self, dim, unbiased, keepdim, correction=correction)

    def std(self, dim=None, unbiased=None, keepdim=False, *, correction=None):
        return ops.std(self, dim, unbiased, keepdim, correction=correction)

    def median(self, dim=None, keepdim=False):
        return scan.median(self, dim, keepdim)

    def norm(self, p=2, dim=None, keepdim=False):
        return ops.norm(self, p, dim, keepdim)

    def logsumexp(self, dim, keepdim=False):
        return scan.logsumexp(self, dim, keepdim)

    def sum_to_size(self, *size):
        return ops.sum_to_size(self, *size)

    def trace(self):
        return arrange.trace(self)

    def all(self, dim=None, keepdim=False):
        return ops.all(self, dim, keepdim)

    def any(self, dim=None, keepdim=False):
        return ops.any(self, dim, keepdim)

    def count_nonzero(self, dim=None):
        return scan.count_nonzero(self, dim)

    # --- running sums and products ------------------------------------------------------------
    def cumsum(self, dim, *, dtype=None):
        return scan.cumsum(self, dim, dtype=dtype)

    def cumprod(self, dim, *, dtype=None):
        return scan.cumprod(self, dim, dtype=dtype)

    # --- normalised along a dimension ---------------------------------------------------------
    def softmax(self, dim, dtype=None):
        return _softmax(self, dim, dtype=dtype)

    def log_softmax(self, dim, dtype=None):
        return _log_softmax(self, dim, dtype=dtype)
