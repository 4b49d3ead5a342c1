"""``Tensor``'s products of matrices and vectors: ``x.matmul(w)`` (also ``x @ w``), ``x.mm``,
``x.mv``, ``x.dot``, batched ``x.bmm``/``x.baddbmm``/``x.addbmm``, ``x.addr``, ``x.outer``,
``x.kron``, ``x.cross`` (and the in-place ``x.addbmm_``, ``x.addr_``).

Each is one call to its op in ``autograd_course.ops``, where the forward and backward live.
"""

from __future__ import annotations

from .. import ops
from ..ops import products, scaled_products


class TensorProducts:
    """Mixed into ``Tensor``: matrix and vector products."""

    __slots__ = ()

    def matmul(self, other):
        return ops.matmul(self, other)

    def mm(self, other):
        return ops.mm(self, other)

    def mv(self, other):
        return ops.mv(self, other)

    def dot(self, other):
        return ops.dot(self, other)

    def bmm(self, mat2):
        return products.bmm(self, mat2)

    def baddbmm(self, batch1, batch2, *, beta=1, alpha=1):
        return products.baddbmm(self, batch1, batch2, beta=beta, alpha=alpha)

    def addbmm(self, batch1, batch2, *, beta=1, alpha=1):
        return scaled_products.addbmm(self, batch1, batch2, beta=beta, alpha=alpha)

    def addbmm_(self, batch1, batch2, *, beta=1, alpha=1):
        return scaled_products.addbmm_(self, batch1, batch2, beta=beta, alpha=alpha)

    def addr(self, vec1, vec2, *, beta=1, alpha=1):
        return scaled_products.addr(self, vec1, vec2, beta=beta, alpha=alpha)

    def addr_(self, vec1, vec2, *, beta=1, alpha=1):
        return scaled_products.addr_(self, vec1, vec2, beta=beta, alpha=alpha)

    def outer(self, vec2):
        return products.outer(self, vec2)

    def kron(self, other):
        return products.kron(self, other)

    def cross(self, other, dim=None):
        return products.cross(self, other, dim)
