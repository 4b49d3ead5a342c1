"""Ops that rearrange elements: ``flip``, ``roll``, ``repeat``/``tile``, the triangles
``tril``/``triu``, the diagonal (``diagonal``, ``diag``, ``trace``), and the renamings of
``permute``/``transpose``/``reshape``/``cat`` PyTorch code uses (``movedim``, ``swapaxes``,
``unflatten``, ``hstack``, ``vstack``).

Each backward moves the gradient back to where the element came from: ``flip`` flips it
again, ``roll`` rolls it back, ``repeat`` sums the copies, ``tril`` keeps the same triangle,
``diagonal`` writes it onto the diagonal of zeros. All are tensor ops, so they differentiate
again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..autograd import forward_ad
from ..autograd.function import Function
from .combine import cat
from .dims import normalize_dim
from .shape import permute, reshape, transpose
from .view_detection import view_of

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


def _ints(values) -> tuple:
    if len(values) == 1 and isinstance(values[0], (tuple, list)):
        values = values[0]
    return tuple(int(v) for v in values)


class Flip(Function):
    """Reverse the order along ``dims``;  the gradient is flipped back."""

    node_name = "FlipBackward0"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, x, dims):
        ctx.dims = dims
        return x._new(x._xp.flip(x._data, dims).copy())

    @staticmethod
    def backward(ctx, grad):
        return Flip.apply(grad, ctx.dims), None


class Roll(Function):
    """Shift elements along ``dims`` (wrapping around);  the gradient is shifted back."""

    node_name = "RollBackward0"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, x, shifts, dims):
        ctx.shifts, ctx.dims = shifts, dims
        if dims is None:
            return x._new(x._xp.roll(x._data.reshape(-1), shifts).reshape(x.shape))
        return x._new(x._xp.roll(x._data, shifts, dims))

    @staticmethod
    def backward(ctx, grad):
        return Roll.apply(grad, tuple(-s for s in ctx.shifts), ctx.dims), None, None


class Repeat(Function):
    """Tile ``x`` ``repeats[d]`` times along each dim;  the gradient sums the copies."""

    node_name = "RepeatBackward0"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, x, repeats):
        ctx.shape, ctx.repeats = x.shape, repeats
        return x._new(x._xp.tile(x._data, repeats))

    @staticmethod
    def backward(ctx, grad):
        shape = (1,) * (len(ctx.repeats) - len(ctx.shape)) + tuple(ctx.shape)
        split = []  # each dim of the output as (copy, element): (r0, s0, r1, s1, ...)
        for r, s in zip(ctx.repeats, shape):
            split += [r, s]
        summed = grad.reshape(split).sum(tuple(range(0, len(split), 2)))
        return summed.reshape(ctx.shape), None


class Tril(Function):
    """Keep the lower triangle (on and below diagonal ``k``);  so does the gradient."""

    node_name = "TrilBackward0"
    jvp = forward_ad.linear
    _keep = "tril"  # the array function (NumPy's or CuPy's) that keeps the triangle

    @classmethod
    def forward(cls, ctx, x, k):
        ctx.k = k
        return x._new(getattr(x._xp, cls._keep)(x._data, k))

    @classmethod
    def backward(cls, ctx, grad):
        return cls.apply(grad, ctx.k), None


class Triu(Tril):
    """Keep the upper triangle (on and above diagonal ``k``)."""

    node_name = "TriuBackward0"
    _keep = "triu"


def _diagonal_array(xp, data, offset, dim1, dim2):
    """The diagonal as a writable NumPy view (``np.diagonal``'s view is read-only): the
    two dims are replaced by one last dim that steps along both at once."""
    shape, strides = list(data.shape), list(data.strides)
    start = [0] * data.ndim
    if offset >= 0:
        start[dim2] = min(offset, shape[dim2])
    else:
        start[dim1] = min(-offset, shape[dim1])
    length = max(min(shape[dim1] - start[dim1], shape[dim2] - start[dim2]), 0)
    corner = data[tuple(slice(s, None) for s in start)]
    keep = [d for d in range(data.ndim) if d not in (dim1, dim2)]
    return xp.lib.stride_tricks.as_strided(
        corner, [shape[d] for d in keep] + [length],
        [strides[d] for d in keep] + [strides[dim1] + strides[dim2]])


class Diagonal(Function):
    """The elements ``x[..., i, i + offset]`` (a view);  the gradient is written onto the
    diagonal of zeros."""

    node_name = "DiagonalBackward0"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, x, offset, dim1, dim2):
        ctx.shape, ctx.where = x.shape, (offset, dim1, dim2)
        return view_of(x, _diagonal_array(x._xp, x._data, offset, dim1, dim2))

    @staticmethod
    def backward(ctx, grad):
        return DiagonalGrad.apply(grad, ctx.shape, *ctx.where), None, None, None


class DiagonalCopy(Diagonal):
    """``diag`` of a matrix: the diagonal as a new tensor (PyTorch's node says ``_copy``)."""

    node_name = "DiagonalBackward0_copy"

    @staticmethod
    def forward(ctx, x, offset, dim1, dim2):
        ctx.shape, ctx.where = x.shape, (offset, dim1, dim2)
        return x._new(_diagonal_array(x._xp, x._data, offset, dim1, dim2).copy())


class DiagonalGrad(Function):
    """zeros(shape) with ``g`` on a diagonal;  its own gradient reads that diagonal back."""

    node_name = "DiagonalBackwardBackward0"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, g, shape, offset, dim1, dim2):
        ctx.where = (offset, dim1, dim2)
        out = g._xp.zeros(shape, dtype=g._data.dtype)
        _diagonal_array(g._xp, out, offset, dim1, dim2)[...] = g._data
        return g._new(out)

    @staticmethod
    def backward(ctx, grad):
        return Diagonal.apply(grad, *ctx.where), None, None, None, None


class DiagEmbed(DiagonalGrad):
    """``diag`` of a vector: a matrix with the vector on diagonal ``offset``."""

    node_name = "DiagEmbedBackward0"


class Trace(Function):
    """Σ_i x[i, i];  the gradient is ``g`` on the diagonal, 0 elsewhere."""

    node_name = "TraceBackward0"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, x):
        ctx.shape = x.shape
        return x._new(x._xp.asarray(x._xp.trace(x._data), dtype=_sum_dtype(x._data.dtype)))

    @staticmethod
    def backward(ctx, grad):
        eye = grad._new(grad._xp.eye(*ctx.shape, dtype=grad._data.dtype))
        return eye * grad


def _sum_dtype(dtype):
    return np.dtype(np.int64) if dtype.kind in "biu" else dtype


def flip(input: Tensor, dims: Sequence[int]) -> Tensor:
    """The elements in reverse order along each of ``dims``."""
    dims = tuple(normalize_dim(d, input.ndim) for d in _ints((dims,) if isinstance(dims, int)
                                                              else dims))
    if len(set(dims)) != len(dims):
        repeated = next(d for d in dims if dims.count(d) > 1)
        raise RuntimeError(f"dim {repeated} appears multiple times in the list of dims")
    return Flip.apply(input, dims)


def roll(input: Tensor, shifts: int | Sequence[int], dims: int | Sequence[int] | None = None
         ) -> Tensor:
    """Elements shifted by ``shifts`` along ``dims``, those pushed off one end coming back at
    the other (the flattened tensor when ``dims`` is None)."""
    shifts = (shifts,) if isinstance(shifts, int) else tuple(shifts)
    if dims is None:
        if len(shifts) != 1:
            raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, "
                               "dims:0")
        return Roll.apply(input, shifts, None)
    dims = (dims,) if isinstance(dims, int) else tuple(dims)
    if len(shifts) != len(dims):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, "
                           f"dims:{len(dims)}")
    return Roll.apply(input, shifts, tuple(normalize_dim(d, input.ndim) for d in dims))


def repeat(input: Tensor, *repeats: int | Sequence[int]) -> Tensor:
    """``x.repeat(2, 3)``: ``x`` tiled twice along dim 0 and three times along dim 1."""
    repeats = _ints(repeats)
    if len(repeats) < input.ndim:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number "
                           "of dimensions of tensor")
    if any(r < 0 for r in repeats):
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(repeats)}: "
                           f"{list(repeats)}")
    return Repeat.apply(input, repeats)


def tile(input: Tensor, dims: Sequence[int]) -> Tensor:
    """``repeat``, where fewer ``dims`` than the tensor has are padded with 1s in front."""
    dims = _ints((dims,) if isinstance(dims, int) else dims)
    return repeat(input, (1,) * (input.ndim - len(dims)) + dims)


def _matrix(input, name: str) -> None:
    if input.ndim < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")


def tril(input: Tensor, diagonal: int = 0) -> Tensor:
    """The lower triangle of the last two dims (on and below ``diagonal``), zeros above."""
    _matrix(input, "tril")
    return Tril.apply(input, diagonal)


def triu(input: Tensor, diagonal: int = 0) -> Tensor:
    """The upper triangle of the last two dims (on and above ``diagonal``), zeros below."""
    _matrix(input, "triu")
    return Triu.apply(input, diagonal)


def diagonal(input: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """A view of the diagonal of the (``dim1``, ``dim2``) planes, as a new last dim."""
    d1, d2 = normalize_dim(dim1, input.ndim), normalize_dim(dim2, input.ndim)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return Diagonal.apply(input, offset, d1, d2)


def diag(input: Tensor, diagonal: int = 0) -> Tensor:
    """A vector: the matrix with it on ``diagonal``; a matrix: its diagonal (a copy)."""
    if input.ndim == 1:
        n = input.shape[0] + abs(diagonal)
        return DiagEmbed.apply(input, (n, n), diagonal, 0, 1)
    if input.ndim == 2:
        return DiagonalCopy.apply(input, diagonal, 0, 1)
    raise RuntimeError("diag(): Supports 1D or 2D tensors. Got " f"{input.ndim}D")


def trace(input: Tensor) -> Tensor:
    """The sum of a matrix's diagonal."""
    if input.ndim != 2:
        raise RuntimeError("trace: expected a matrix, but got tensor with dim " f"{input.ndim}")
    return Trace.apply(input)


def movedim(input: Tensor, source: int | Sequence[int], destination: int | Sequence[int]
            ) -> Tensor:
    """Move dims ``source`` to positions ``destination``; the others keep their order."""
    source = (source,) if isinstance(source, int) else tuple(source)
    destination = (destination,) if isinstance(destination, int) else tuple(destination)
    if len(source) != len(destination):
        raise RuntimeError("movedim: Invalid source or destination dims: source "
                           f"({list(source)} dims) should contain the same number of dims as "
                           f"destination ({list(destination)} dims)")
    n = input.ndim
    source = [normalize_dim(d, n) for d in source]
    destination = [normalize_dim(d, n) for d in destination]
    for name, dims in (("source", source), ("destination", destination)):
        if len(set(dims)) != len(dims):
            raise RuntimeError(f"movedim: repeated dim in `{name}` ({dims})")
    order = [None] * n
    for s, d in zip(source, destination):
        order[d] = s
    rest = iter(d for d in range(n) if d not in source)
    return permute(input, [d if d is not None else next(rest) for d in order])


def swapaxes(input: Tensor, axis0: int, axis1: int) -> Tensor:
    """NumPy's name for ``transpose``."""
    return transpose(input, axis0, axis1)


def unflatten(input: Tensor, dim: int, sizes: Sequence[int]) -> Tensor:
    """Dim ``dim`` split into several of ``sizes`` (one may be -1): flatten's inverse."""
    dim = normalize_dim(dim, input.ndim)
    sizes = tuple(sizes)
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    known = [s for s in sizes if s != -1]
    product = 1
    for s in known:
        product *= s
    fits = product == input.shape[dim] if len(known) == len(sizes) else (
        product and input.shape[dim] % product == 0)
    if not fits:
        raise RuntimeError(f"unflatten: Provided sizes {list(sizes)} don't multiply up to the "
                           f"size of dim {dim} ({input.shape[dim]}) in the input tensor")
    return reshape(input, input.shape[:dim] + sizes + input.shape[dim + 1:])


def hstack(tensors: Sequence[Tensor]) -> Tensor:
    """Join along dim 1 (dim 0 for vectors)."""
    tensors = [t.reshape(1) if t.ndim == 0 else t for t in tensors]
    if not tensors:
        raise RuntimeError("hstack expects a non-empty TensorList")
    return cat(tensors, 0 if tensors[0].ndim == 1 else 1)


def vstack(tensors: Sequence[Tensor]) -> Tensor:
    """Join along dim 0, vectors first made rows."""
    if not tensors:
        raise RuntimeError("vstack expects a non-empty TensorList")
    return cat([t.reshape(1, 1) if t.ndim == 0 else t.unsqueeze(0) if t.ndim == 1 else t
                for t in tensors], 0)
