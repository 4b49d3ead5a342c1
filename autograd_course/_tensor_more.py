"""The ``Tensor`` methods of the op families added for the models learners build next (a
character-level MLP, a small transformer): ``x.split(2)``, ``x.cumsum(0)``,
``x.gather(1, idx)``, ``x.tril()``, ``x.sort()``... Each is one call to its op in
``autograd_course.ops``, where the forward and backward live.

``TensorIdioms`` (``_tensor_idioms.py``) inherits them, so ``Tensor`` gets them with the rest.
"""

from __future__ import annotations

from .ops import (
    arithmetic,
    arrange,
    clamping,
    error_function,
    exp_log,
    products,
    rounding,
    scan,
    sorting,
    trigonometry,
)
from .ops.gather import gather, index_select, masked_select, scatter, scatter_add
from .ops.sampling import multinomial
from .ops.split import chunk, split, unbind


class TensorMoreOps:
    __slots__ = ()

    # --- cutting into pieces (ops/split.py) --------------------------------------------------
    def split(self, split_size, dim=0):
        return split(self, split_size, dim)

    def split_with_sizes(self, split_sizes, dim=0):
        return split(self, list(split_sizes), dim)

    def chunk(self, chunks, dim=0):
        return chunk(self, chunks, dim)

    def unbind(self, dim=0):
        return unbind(self, dim)

    # --- rearranging (ops/arrange.py) --------------------------------------------------------
    def flip(self, *args, dims=None):  # x.flip(0, 1), x.flip([0, 1]) or x.flip(dims=[0, 1])
        return arrange.flip(self, arrange._ints(args) if dims is None else dims)

    def roll(self, shifts, dims=None):
        return arrange.roll(self, shifts, dims)

    def repeat(self, *args, repeats=None):
        return arrange.repeat(self, *(args if repeats is None else (repeats,)))

    def tile(self, *args, dims=None):
        return arrange.tile(self, arrange._ints(args) if dims is None else dims)

    def tril(self, diagonal=0):
        return arrange.tril(self, diagonal)

    def triu(self, diagonal=0):
        return arrange.triu(self, diagonal)

    def diagonal(self, offset=0, dim1=0, dim2=1):
        return arrange.diagonal(self, offset, dim1, dim2)

    def diag(self, diagonal=0):
        return arrange.diag(self, diagonal)

    def trace(self):
        return arrange.trace(self)

    def movedim(self, source, destination):
        return arrange.movedim(self, source, destination)

    moveaxis = movedim

    def swapaxes(self, axis0, axis1):
        return arrange.swapaxes(self, axis0, axis1)

    def swapdims(self, dim0, dim1):
        return arrange.swapaxes(self, dim0, dim1)

    def unflatten(self, dim, sizes):
        return arrange.unflatten(self, dim, sizes)

    def reshape_as(self, other):
        return self.reshape(other.shape)

    # --- running sums and products, more reductions (ops/scan.py) ---------------------------
    def cumsum(self, dim, *, dtype=None):
        return scan.cumsum(self, dim, dtype=dtype)

    def cumprod(self, dim, *, dtype=None):
        return scan.cumprod(self, dim, dtype=dtype)

    def prod(self, dim=None, keepdim=False, *, dtype=None):
        return scan.prod(self, dim, keepdim, dtype=dtype)

    def logsumexp(self, dim, keepdim=False):
        return scan.logsumexp(self, dim, keepdim)

    def median(self, dim=None, keepdim=False):
        return scan.median(self, dim, keepdim)

    def count_nonzero(self, dim=None):
        return scan.count_nonzero(self, dim)

    # --- index tensors (ops/gather.py) ------------------------------------------------------
    def gather(self, dim, index, *, sparse_grad=False):
        return gather(self, dim, index)

    def scatter(self, dim, index, src=None, *, value=None, reduce=None):
        return scatter(self, dim, index, src, value=value, reduce=reduce)

    def scatter_add(self, dim, index, src):
        return scatter_add(self, dim, index, src)

    def index_select(self, dim, index):
        return index_select(self, dim, index)

    def masked_select(self, mask):
        return masked_select(self, mask)

    # --- element-wise maths (ops/exp_log.py, rounding.py, trigonometry.py, clamping.py...) ---
    def log1p(self):
        return exp_log.log1p(self)

    def log2(self):
        return exp_log.log2(self)

    def log10(self):
        return exp_log.log10(self)

    def expm1(self):
        return exp_log.expm1(self)

    def erf(self):
        return error_function.erf(self)

    def round(self, *, decimals=0):
        return rounding.round(self, decimals=decimals)

    def trunc(self):
        return rounding.trunc(self)

    def frac(self):
        return rounding.frac(self)

    def atan2(self, other):
        return trigonometry.atan2(self, other)

    arctan2 = atan2

    def hypot(self, other):
        return trigonometry.hypot(self, other)

    def lerp(self, end, weight):
        return arithmetic.lerp(self, end, weight)

    def nan_to_num(self, nan=0.0, posinf=None, neginf=None):
        return clamping.nan_to_num(self, nan, posinf, neginf)

    def clamp_min(self, min):
        return clamping.clamp_min(self, min)

    # --- products (ops/products.py) ----------------------------------------------------------
    def bmm(self, mat2):
        return products.bmm(self, mat2)

    def baddbmm(self, batch1, batch2, *, beta=1, alpha=1):
        return products.baddbmm(self, batch1, batch2, beta=beta, alpha=alpha)

    def outer(self, vec2):
        return products.outer(self, vec2)

    def kron(self, other):
        return products.kron(self, other)

    def cross(self, other, dim=None):
        return products.cross(self, other, dim)

    # --- ordering (ops/sorting.py) -----------------------------------------------------------
    def sort(self, dim=-1, descending=False, stable=False):
        return sorting.sort(self, dim, descending, stable)

    def argsort(self, dim=-1, descending=False, stable=False):
        return sorting.argsort(self, dim, descending, stable)

    def topk(self, k, dim=-1, largest=True, sorted=True):
        return sorting.topk(self, k, dim, largest, sorted)

    def unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):
        return sorting.unique(self, sorted, return_inverse, return_counts, dim)

    def bincount(self, weights=None, minlength=0):
        return sorting.bincount(self, weights, minlength)

    def multinomial(self, num_samples, replacement=False, *, generator=None):
        return multinomial(self, num_samples, replacement, generator=generator)
