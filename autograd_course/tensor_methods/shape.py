"""``Tensor``'s methods that change its shape or the order of its elements: views and
reshapes (``x.view(2, 3)``, ``x.t()``, ``x.unsqueeze(0)``, ``x.expand(4, 3)``), rearranging
(``x.flip(0)``, ``x.roll(1)``, ``x.repeat(2, 1)``), triangles and diagonals (``x.tril()``),
cutting into pieces (``x.split(2)``, ``x.chunk(3)``), and the memory layout (``x.stride()``,
``x.is_contiguous()``, ``x.contiguous()``, ``x.as_strided(...)``, ``x.clone()``).

Each is one call to its op in ``autograd_course.ops``, where the forward and backward live.
"""

from __future__ import annotations

from .. import ops
from ..memory_formats import check_memory_format, preserve_format
from ..ops import arrange, strided
from ..ops.split import chunk, split, unbind
from ..ops.view_in_place import resize_, view_in_place


class TensorShape:
    """Mixed into ``Tensor``: shapes, views and the memory layout."""

    __slots__ = ()

    # --- views and reshapes -------------------------------------------------------------------
    def reshape(self, *shape):
        return ops.reshape(self, *shape)

    def reshape_as(self, other):
        return self.reshape(other.shape)

    def view(self, *shape):
        return ops.view(self, *shape)

    def view_as(self, other):
        return ops.view(self, other.shape)

    def flatten(self, start_dim=0, end_dim=-1):
        return ops.flatten(self, start_dim, end_dim)

    def unflatten(self, dim, sizes):
        return arrange.unflatten(self, dim, sizes)

    def unsqueeze(self, dim):
        return ops.unsqueeze(self, dim)

    def squeeze(self, dim=None):
        return ops.squeeze(self, dim)

    def expand(self, *shape):
        return ops.expand(self, *shape)

    def expand_as(self, other):
        return ops.expand(self, other.shape)

    # --- the order of the dimensions ----------------------------------------------------------
    def transpose(self, dim0, dim1):
        return ops.transpose(self, dim0, dim1)

    def t(self):
        return ops.t(self)

    @property
    def T(self):  # PyTorch's name
        return ops.numpy_t(self)

    @property
    def mT(self):
        return ops.matrix_transpose(self)

    def permute(self, *dims):
        return ops.permute(self, *dims)

    def movedim(self, source, destination):
        return arrange.movedim(self, source, destination)

    moveaxis = movedim

    def swapaxes(self, axis0, axis1):
        return arrange.swapaxes(self, axis0, axis1)

    def swapdims(self, dim0, dim1):
        return arrange.swapaxes(self, dim0, dim1)

    # --- rearranging (ops/arrange.py) ---------------------------------------------------------
    def flip(self, *args, dims=None):  # x.flip(0, 1), x.flip([0, 1]) or x.flip(dims=[0, 1])
        return arrange.flip(self, arrange._ints(args) if dims is None else dims)

    def roll(self, shifts, dims=None):
        return arrange.roll(self, shifts, dims)

    def repeat(self, *args, repeats=None):
        return arrange.repeat(self, *(args if repeats is None else (repeats,)))

    def tile(self, *args, dims=None):
        return arrange.tile(self, arrange._ints(args) if dims is None else dims)

    # --- triangles and diagonals --------------------------------------------------------------
    def tril(self, diagonal=0):
        return arrange.tril(self, diagonal)

    def triu(self, diagonal=0):
        return arrange.triu(self, diagonal)

    def diagonal(self, offset=0, dim1=0, dim2=1):
        return arrange.diagonal(self, offset, dim1, dim2)

    def diag(self, diagonal=0):
        return arrange.diag(self, diagonal)

    def diagflat(self, offset=0):
        return arrange.diagflat(self, offset)

    # --- cutting into pieces (ops/split.py) ---------------------------------------------------
    def split(self, split_size, dim=0):
        return split(self, split_size, dim)

    def split_with_sizes(self, split_sizes, dim=0):
        return split(self, list(split_sizes), dim)

    def chunk(self, chunks, dim=0):
        return chunk(self, chunks, dim)

    def unbind(self, dim=0):
        return unbind(self, dim)

    # --- memory layout ------------------------------------------------------------------------
    def stride(self, dim=None):
        """Steps in elements (not bytes) between neighbours along each dimension."""
        steps = tuple(s // self._data.itemsize for s in self._data.strides)
        if self._data.ndim and not self._data.size:  # PyTorch: contiguous strides when empty
            steps = _contiguous_strides(self._data.shape)
        return steps if dim is None else steps[dim]

    def is_contiguous(self, memory_format=None):
        """True when the elements lie in memory row by row, without gaps (C order); the step
        along a dimension of size 1 does not matter, since it is never taken."""
        if self._data.size <= 1:
            return True
        shape = self._data.shape
        return all(s == c for s, c, n in zip(self.stride(), _contiguous_strides(shape), shape)
                   if n != 1)

    def contiguous(self, memory_format=None):
        """``self`` when already contiguous, else a row-major copy (``CloneBackward0``)."""
        check_memory_format("contiguous", memory_format)
        if self.is_contiguous():
            return self
        if memory_format is preserve_format:  # PyTorch checks only when it has to copy
            raise RuntimeError("preserve memory format is unsupported by the contiguous operator")
        return ops.clone(self)

    def clone(self, *, memory_format=None):
        return ops.clone(self, memory_format=memory_format)

    def as_strided(self, size, stride, storage_offset=None):
        return strided.as_strided(self, size, stride, storage_offset)

    # --- in-place views: the same ops, the tensor itself taking the result's geometry -------
    def as_strided_(self, size, stride, storage_offset=None):
        return view_in_place(self, strided.as_strided, size, stride, storage_offset)

    def t_(self):
        return view_in_place(self, ops.t)

    def resize_(self, *size, memory_format=None):
        return resize_(self, *size)

    def transpose_(self, dim0, dim1):
        return view_in_place(self, ops.transpose, dim0, dim1)

    def swapdims_(self, dim0, dim1):
        return view_in_place(self, arrange.swapaxes, dim0, dim1)

    swapaxes_ = swapdims_

    def squeeze_(self, dim=None):
        return view_in_place(self, ops.squeeze, dim)

    def unsqueeze_(self, dim):
        return view_in_place(self, ops.unsqueeze, dim)

    def unfold(self, dimension, size, step):
        return strided.unfold(self, dimension, size, step)


def _contiguous_strides(shape) -> tuple:
    steps, step = [], 1
    for n in reversed(shape):
        steps.append(step)
        step *= max(n, 1)
    return tuple(reversed(steps))
