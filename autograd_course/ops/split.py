"""Ops that cut one tensor into several: ``split``, ``chunk`` and ``unbind`` (and ``narrow``,
which keeps one piece).

Each piece is a view of the input (it shares its memory, as in PyTorch), and all the pieces
share ONE node: ``SplitBackward0`` (``split`` with a size, ``chunk``),
``SplitWithSizesBackward0`` (``split`` with a list of sizes) or ``UnbindBackward0``. Backward
puts the pieces' gradients back together: ``cat`` for split, ``stack`` for unbind. A piece
that got no gradient counts as zeros there (the node's ``materialize_grads``).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..autograd import forward_ad
from ..autograd.function import Function
from ..tensor_base import TensorBase
from .combine import cat, stack
from .dims import normalize_dim
from .view_detection import view_of

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


class Split(Function):
    """Cut ``x`` along ``dim`` into pieces of the given sizes;  the gradient is ``cat`` of the
    pieces' gradients."""

    node_name = "SplitBackward0"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, x, sizes, dim):
        ctx.dim = dim
        pieces, start, lead = [], 0, (slice(None),) * dim
        for size in sizes:
            pieces.append(view_of(x, x._data[lead + (slice(start, start + size),)], True))
            start += size
        return tuple(pieces)

    @staticmethod
    def backward(ctx, *grads):
        return cat(grads, ctx.dim), None, None


class SplitWithSizes(Split):
    node_name = "SplitWithSizesBackward0"


class Unbind(Function):
    """The slices ``x.select(dim, i)`` for every i;  the gradient is their ``stack``."""

    node_name = "UnbindBackward0"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, x, dim):
        ctx.dim = dim
        lead = (slice(None),) * dim
        return tuple(view_of(x, x._data[lead + (i, ...)], True) for i in range(x.shape[dim]))

    @staticmethod
    def backward(ctx, *grads):
        return stack(grads, ctx.dim), None


def _at_least_1d(x, name: str) -> None:
    if x.ndim == 0:
        raise RuntimeError(f"{name} expects at least a 1-dimensional tensor")


def split(tensor: Tensor, split_size_or_sections: int | list[int], dim: int = 0) -> tuple:
    """Pieces of ``split_size_or_sections`` elements along ``dim`` (the last may be
    smaller), or pieces of the sizes in a list."""
    _at_least_1d(tensor, "split")
    dim = normalize_dim(dim, tensor.ndim)
    length = tensor.shape[dim]
    if isinstance(split_size_or_sections, int):
        size = split_size_or_sections
        if size < 0:
            raise RuntimeError("split expects split_size be non-negative, but got "
                               f"split_size={size}")
        if size == 0 and length != 0:
            raise RuntimeError("split_size can only be 0 if dimension size is 0, but got "
                               f"dimension size of {length}")
        count = max(math.ceil(length / size), 1) if size else 1
        sizes = [size] * (count - 1) + [length - size * (count - 1)]
        return Split.apply(tensor, sizes, dim)
    sizes = [int(s) for s in split_size_or_sections]
    if sum(sizes) != length or any(s < 0 for s in sizes):
        raise RuntimeError(
            f"split_with_sizes expects split_sizes to sum exactly to {length} (input tensor's "
            f"size at dimension {dim}), but got split_sizes={sizes}")
    return SplitWithSizes.apply(tensor, sizes, dim)


def chunk(input: Tensor, chunks: int, dim: int = 0) -> tuple:
    """``chunks`` pieces of equal size along ``dim`` (the last may be smaller, and there may
    be fewer): ``split`` with a size of ``ceil(size / chunks)``."""
    _at_least_1d(input, "chunk")
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    dim = normalize_dim(dim, input.ndim)
    length = input.shape[dim]
    if length == 0:  # PyTorch gives ``chunks`` empty pieces
        return Split.apply(input, [0] * chunks, dim)
    return split(input, math.ceil(length / chunks), dim)


def unbind(input: Tensor, dim: int = 0) -> tuple:
    """All the slices along ``dim``, that dim removed: ``a, b = x.unbind(1)``."""
    if input.ndim == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    return Unbind.apply(input, normalize_dim(dim, input.ndim))


def narrow(input: Tensor, dim: int, start: int | Tensor, length: int) -> Tensor:
    """Elements ``start`` to ``start + length`` along ``dim``: a view, as ``x[..., a:b]`` (its
    node is the slice's). ``start`` may be negative (counted from the end) or a 0-d integer
    tensor; PyTorch's checks come in its order."""
    if input.ndim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    if isinstance(start, TensorBase):
        if start.ndim != 0 or start._data.dtype.kind not in "iu":
            raise RuntimeError("start must be an 0-dim integral Tensor.")
        start = int(start._data)
    dim = normalize_dim(dim, input.ndim)
    size = input.shape[dim]
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], "
                         f"but got {start})")
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    start = start + size if start < 0 else start
    if start + length > size:
        raise RuntimeError(
            f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return input[(slice(None),) * dim + (slice(start, start + length),)]
