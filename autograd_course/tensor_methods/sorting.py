"""``Tensor``'s methods that order or count its values: ``x.sort()``, ``x.argsort()``,
``x.topk(3)``, ``x.unique()``, ``x.unique_consecutive()``, ``x.bincount()``, ``x.histc()``,
``x.histogram()``.

Each is one call to its op in ``autograd_course.ops.sorting`` (histograms: ops.histograms;
unique: ops.distinct).
"""

from __future__ import annotations

from ..ops import distinct, histograms, sorting


class TensorSorting:
    """Mixed into ``Tensor``: ordering and counting."""

    __slots__ = ()

    def sort(self, dim=-1, descending=False, stable=False):
        return sorting.sort(self, dim, descending, stable)

    def argsort(self, dim=-1, descending=False, stable=False):
        return sorting.argsort(self, dim, descending, stable)

    def topk(self, k, dim=-1, largest=True, sorted=True):
        return sorting.topk(self, k, dim, largest, sorted)

    def unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):
        return distinct.unique(self, sorted, return_inverse, return_counts, dim)

    def unique_consecutive(self, return_inverse=False, return_counts=False, dim=None):
        return distinct.unique_consecutive(self, return_inverse, return_counts, dim)

    def bincount(self, weights=None, minlength=0):
        return sorting.bincount(self, weights, minlength)

    def histc(self, bins=100, min=0, max=0):
        return histograms.histc(self, bins, min, max)

    def histogram(self, bins=100, *, range=None, weight=None, density=False):
        return histograms.histogram(self, bins, range=range, weight=weight, density=density)
