"""Ops that move elements around without changing them: views, copies and dtype/device casts.
Their backward moves the gradient back the same way.

Views (reshape, transpose, permute, squeeze, expand...) share memory with their input, as in
PyTorch, and also share its version counter: an in-place change through a view is then seen by
every node that saved the base. Indexing lives in ``indexing.py``, ``cat``/``stack``/``where``
in ``combine.py``.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

from .. import _backend, dtypes
from ..autograd import forward_ad
from ..autograd.function import Function
from ..memory_formats import check_memory_format
from .dims import normalize_dim
from .plain_backward import plain_backward
from .view_detection import check_shape, view_of

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


class View(Function):
    """Same elements, new shape;  the gradient is reshaped back."""

    node_name = "ViewBackward0"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, x, shape):
        ctx.shape = x.shape
        check_shape(shape, x._data.size)
        return view_of(x, x._data.reshape(shape))

    @staticmethod
    def backward(ctx, grad):
        return grad.reshape(ctx.shape), None


class ReshapeAlias(View):
    """``reshape`` of a non-contiguous tensor whose layout still allows a view."""

    node_name = "ReshapeAliasBackward0"


class UnsafeView(View):
    """The new shape of a fresh copy (``reshape`` that had to copy): not a view of anything."""

    node_name = "UnsafeViewBackward0"

    @staticmethod
    def forward(ctx, x, shape):
        ctx.shape = x.shape
        return x._new(x._data.reshape(shape))


_VIEW_ERROR = ("view size is not compatible with input tensor's size and stride (at least one "
               "dimension spans across two contiguous subspaces). Use .reshape(...) instead.")


class ViewOnly(View):
    """``x.view(shape)``: like ``reshape`` but never a copy. When the elements are not laid
    out so that the new shape can share their memory (``x.t().view(6)``), PyTorch refuses."""

    node_name = "ViewBackward0"

    @staticmethod
    def forward(ctx, x, shape):
        ctx.shape = x.shape
        check_shape(shape, x._data.size)
        data = x._data
        try:
            out = data.reshape(shape, copy=False)
        except TypeError:  # CuPy's reshape has no copy argument: setting the shape refuses
            out = data.view()
            try:
                out.shape = shape
            except AttributeError:
                raise RuntimeError(_VIEW_ERROR) from None
        except ValueError:
            raise RuntimeError(_VIEW_ERROR) from None
        return view_of(x, out)


class Transpose(Function):
    """Swap two dims;  the gradient is swapped back."""

    node_name = "TransposeBackward0"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, x, dim0, dim1):
        ctx.dims = dim0, dim1
        if x._data.ndim == 0:  # transpose(0, 0) of a 0-d tensor: itself, as a view
            return view_of(x, x._data.view())
        return view_of(x, x._data.swapaxes(dim0, dim1))

    @staticmethod
    def backward(ctx, grad):
        return grad.transpose(*ctx.dims), None, None


class T(Function):
    """``x.t()`` for tensors of at most 2 dims;  the gradient is transposed back."""

    node_name = "TBackward0"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, x):
        return view_of(x, x._data.T)

    @staticmethod
    def backward(ctx, grad):
        if plain_backward(grad):  # nothing records it: the transposed array, no view op
            return grad._new(grad._data.T)
        return grad.t()


class Permute(Function):
    """Reorder dims;  the gradient gets the inverse order."""

    node_name = "PermuteBackward0"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, x, dims):
        ctx.inverse = tuple(sorted(range(len(dims)), key=dims.__getitem__))
        return view_of(x, x._data.transpose(dims))

    @staticmethod
    def backward(ctx, grad):
        return grad.permute(ctx.inverse), None


class Unsqueeze(Function):
    """Insert a dim of size 1;  the gradient drops it again."""

    node_name = "UnsqueezeBackward0"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, x, dim):
        ctx.shape = x.shape
        return view_of(x, x._xp.expand_dims(x._data, dim))

    @staticmethod
    def backward(ctx, grad):
        return grad.reshape(ctx.shape), None


class Squeeze(Function):
    """``squeeze()``: drop every dim of size 1;  the gradient gets them back."""

    node_name = "SqueezeBackward0"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, x, dims):
        ctx.shape = x.shape
        return view_of(x, x._data.squeeze(dims))

    @staticmethod
    def backward(ctx, grad):
        return grad.reshape(ctx.shape), None


class SqueezeDim(Squeeze):
    """``squeeze(dim)`` (recorded even when that dim is not of size 1)."""

    node_name = "SqueezeBackward1"


class SqueezeDims(Squeeze):
    """``squeeze((d0, d1, ...))``."""

    node_name = "SqueezeBackward2"


class MatmulSqueeze(Squeeze):
    """The squeeze inside ``matmul`` for 1-d operands (PyTorch calls it SqueezeBackward4)."""

    node_name = "SqueezeBackward4"


class Expand(Function):
    """Broadcast to a bigger shape without copying;  the gradient is summed back."""

    node_name = "ExpandBackward0"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, x, shape):
        ctx.shape = x.shape
        strides = x._xp.broadcast_to(x._data, shape).strides  # 0 along the repeated dims
        return view_of(x, x._xp.lib.stride_tricks.as_strided(x._data, shape, strides))

    @staticmethod
    def backward(ctx, grad):
        return grad.sum_to_size(ctx.shape), None


class Clone(Function):
    """A copy in new memory;  the gradient passes through unchanged."""

    node_name = "CloneBackward0"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, x):
        return x._new(x._data.copy())

    @staticmethod
    def backward(ctx, grad):
        return grad


class ToCopy(Function):
    """Cast to another dtype and/or copy to another device;  the gradient goes back the same way."""

    node_name = "ToCopyBackward0"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, x, np_dtype, device):
        ctx.dtype, ctx.device = x._data.dtype, x._device
        data = x._data
        if device != x._device:
            data = _backend.to_device(data, device)
        out = x._new(data.astype(np_dtype, copy=data is x._data))
        out._device = device  # _new puts it on x's device
        return out

    @staticmethod
    def backward(ctx, grad):
        return grad.to(dtypes.from_numpy(ctx.dtype), ctx.device), None, None


def _shape_arg(shape) -> tuple:
    """``f(2, 3)`` and ``f((2, 3))`` both mean the shape (2, 3)."""
    return tuple(shape[0]) if len(shape) == 1 and not isinstance(shape[0], int) else tuple(shape)


def reshape(input: Tensor, *shape: int | tuple[int, ...]) -> Tensor:
    """Same elements, new shape (one entry may be -1: inferred). Recorded as PyTorch does:
    a view of a contiguous input, a view of a non-contiguous one when its layout allows, else a
    copy (``CloneBackward0``) given the new shape (``UnsafeViewBackward0``)."""
    shape = _shape_arg(shape)
    if input._data.flags.c_contiguous:
        return View.apply(input, shape)
    check_shape(shape, input._data.size)
    if input._xp.may_share_memory(input._data.reshape(shape), input._data):
        return ReshapeAlias.apply(input, shape)
    return UnsafeView.apply(Clone.apply(input), shape)


def view(x: Tensor, *shape: int | tuple[int, ...]) -> Tensor:
    """``x.view(shape)``: the same memory with a new shape, or PyTorch's error when the
    layout does not allow it (``reshape`` copies instead)."""
    return ViewOnly.apply(x, _shape_arg(shape))


def contiguous(x: Tensor) -> Tensor:
    """``x`` itself when its elements lie in row-major order, else a row-major copy
    (recorded as ``CloneBackward0``, as in PyTorch): never a tensor that aliases a
    transposed ``x``."""
    if x._data.flags.c_contiguous:
        return x
    return Clone.apply(x)


def is_contiguous(x: Tensor) -> bool:
    """Whether the elements lie in row-major order with no gaps (dims of size 1 and empty
    tensors do not count against it, as in PyTorch)."""
    return bool(x._data.flags.c_contiguous)


def matrix_transpose(x: Tensor) -> Tensor:
    """``x.mT``: swap the last two dims (matrices and batches of matrices only)."""
    if x.ndim < 2:
        raise RuntimeError("tensor.mT is only supported on matrices or batches of matrices. "
                           f"Got {x.ndim}-D tensor.")
    return transpose(x, -2, -1)


def transpose(input: Tensor, dim0: int, dim1: int) -> Tensor:
    n = input.ndim
    return Transpose.apply(input, normalize_dim(dim0, n), normalize_dim(dim1, n))


def t(input: Tensor) -> Tensor:
    """Transpose a matrix (a 0-d or 1-d tensor is returned as it is, still recorded)."""
    if input.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {input.ndim}D")
    return T.apply(input)


def numpy_t(x: Tensor) -> Tensor:
    """``x.T``: all dims reversed. PyTorch warns for anything but matrices (and scalars)."""
    if x.ndim not in (0, 2):
        warnings.warn(
            "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
            "deprecated and it will throw an error in a future release. Consider `x.mT` to "
            "transpose batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to "
            "reverse the dimensions of a tensor.",
            UserWarning,
            stacklevel=3,
        )
    return Permute.apply(x, tuple(reversed(range(x.ndim))))


def permute(input: Tensor, *dims: int | tuple[int, ...]) -> Tensor:
    if not dims:
        raise TypeError('permute() missing 1 required positional arguments: "dims"')
    dims = _shape_arg(dims)
    if len(dims) != input.ndim:
        raise RuntimeError(
            "permute(sparse_coo): number of dimensions in the tensor input does not match the "
            f"length of the desired ordering of dimensions i.e. input.dim() = {input.ndim} is not "
            f"equal to len(dims) = {len(dims)}"
        )
    dims = tuple(normalize_dim(d, input.ndim) for d in dims)
    if len(set(dims)) != len(dims):
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    return Permute.apply(input, dims)


def unsqueeze(input: Tensor, dim: int) -> Tensor:
    return Unsqueeze.apply(input, normalize_dim(dim, input.ndim + 1))


def squeeze(input: Tensor, dim: int | tuple[int, ...] | None = None) -> Tensor:
    """Drop dims of size 1: all of them, or those among ``dim`` (others are left alone)."""
    if dim is None:
        return Squeeze.apply(input, tuple(i for i, n in enumerate(input.shape) if n == 1))
    if isinstance(dim, int):
        d = normalize_dim(dim, input.ndim)
        return SqueezeDim.apply(input, (d,) if input.ndim and input.shape[d] == 1 else ())
    dims = tuple(normalize_dim(d, input.ndim) for d in dim)
    for d in dims:
        if dims.count(d) > 1:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    return SqueezeDims.apply(input, tuple(d for d in dims if input.ndim and input.shape[d] == 1))


def expand(x: Tensor, *shape: int | tuple[int, ...]) -> Tensor:
    """Broadcast ``x`` to ``shape`` without copying (-1 keeps a dim's size)."""
    shape = _shape_arg(shape)
    lead = len(shape) - x.ndim
    if lead < 0:
        raise RuntimeError(
            f"expand({x.type()}{{{list(x.shape)}}}, size={list(shape)}): the number of sizes "
            f"provided ({len(shape)}) must be greater or equal to the number of dimensions in "
            f"the tensor ({x.ndim})"
        )
    target = []
    for i, s in enumerate(shape):
        have = x.shape[i - lead] if i >= lead else None
        if s == -1 and have is None:
            raise RuntimeError(f"The expanded size of the tensor (-1) isn't allowed in a "
                               f"leading, non-existing dimension {i}")
        if s == -1:
            s = have
        if have is not None and have != s and have != 1:
            raise RuntimeError(
                f"The expanded size of the tensor ({s}) must match the existing size ({have}) at "
                f"non-singleton dimension {i}.  Target sizes: {list(shape)}.  Tensor sizes: "
                f"{list(x.shape)}"
            )
        target.append(s)
    return Expand.apply(x, tuple(target))


def flatten(input: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    """Merge dims ``start_dim..end_dim`` into one."""
    if input.ndim == 0:
        return reshape(input, (1,))
    start, end = normalize_dim(start_dim, input.ndim), normalize_dim(end_dim, input.ndim)
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    shape = input.shape
    middle = 1
    for s in shape[start:end + 1]:
        middle *= s
    return reshape(input, tuple(shape[:start]) + (middle,) + tuple(shape[end + 1:]))


def clone(input: Tensor, *, memory_format=None) -> Tensor:
    check_memory_format("clone", memory_format)  # (a copy here is always row-major)
    return Clone.apply(input)
