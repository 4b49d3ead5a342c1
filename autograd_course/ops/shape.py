"""Ops that move elements around without changing them: views, indexing, joining, ``where``,
copies and dtype/device casts. Their backward moves the gradient back the same way."""

from __future__ import annotations

import numpy as np

from .. import _backend
from ..autograd.function import Function
from ._util import binary_operands, is_tensor, normalize_dim, scalar_like


class View(Function):
    """Same elements, new shape;  the gradient is reshaped back."""

    node_name = "ViewBackward0"

    @staticmethod
    def forward(ctx, x, shape):
        ctx.shape = x.shape
        try:
            return x._new(x._data.reshape(shape))
        except ValueError:
            raise RuntimeError(
                f"shape '{list(shape)}' is invalid for input of size {x._data.size}"
            ) from None

    @staticmethod
    def backward(ctx, grad):
        return grad.reshape(ctx.shape), None


class Transpose(Function):
    """Swap two dims;  the gradient is swapped back."""

    node_name = "TransposeBackward0"

    @staticmethod
    def forward(ctx, x, dim0, dim1):
        ctx.dims = dim0, dim1
        return x._new(x._data.swapaxes(dim0, dim1))

    @staticmethod
    def backward(ctx, grad):
        return grad.transpose(*ctx.dims), None, None


class T(Transpose):
    node_name = "TBackward0"


class Permute(Function):
    """Reorder dims;  the gradient gets the inverse order."""

    node_name = "PermuteBackward0"

    @staticmethod
    def forward(ctx, x, dims):
        ctx.inverse = tuple(sorted(range(len(dims)), key=dims.__getitem__))
        return x._new(x._data.transpose(dims))

    @staticmethod
    def backward(ctx, grad):
        return grad.permute(*ctx.inverse), None


class Unsqueeze(Function):
    """Insert a dim of size 1;  the gradient drops it again."""

    node_name = "UnsqueezeBackward0"

    @staticmethod
    def forward(ctx, x, dim):
        ctx.shape = x.shape
        return x._new(x._xp.expand_dims(x._data, dim))

    @staticmethod
    def backward(ctx, grad):
        return grad.reshape(ctx.shape), None


class Squeeze(Function):
    """Drop dims of size 1;  the gradient gets them back."""

    node_name = "SqueezeBackward0"

    @staticmethod
    def forward(ctx, x, dims):
        ctx.shape = x.shape
        return x._new(x._data.squeeze(dims) if dims else x._data.squeeze())

    @staticmethod
    def backward(ctx, grad):
        return grad.reshape(ctx.shape), None


class SqueezeDim(Squeeze):
    node_name = "SqueezeBackward1"


class MatmulSqueeze(Squeeze):
    """The squeeze inside ``matmul`` for 1-d operands (PyTorch calls it SqueezeBackward4)."""

    node_name = "SqueezeBackward4"


class Expand(Function):
    """Broadcast to a bigger shape without copying;  the gradient is summed back."""

    node_name = "ExpandBackward0"

    @staticmethod
    def forward(ctx, x, shape):
        ctx.shape = x.shape
        try:
            return x._new(x._xp.broadcast_to(x._data, shape))
        except ValueError:
            raise RuntimeError(
                f"The expanded size of the tensor must match the existing size at non-singleton "
                f"dimension: target sizes {list(shape)}, tensor sizes {list(x.shape)}"
            ) from None

    @staticmethod
    def backward(ctx, grad):
        return grad.sum_to_size(ctx.shape), None


def _key_data(key):
    """An index with our tensors replaced by their arrays (tensors may index tensors)."""
    if isinstance(key, tuple):
        return tuple(_key_data(k) for k in key)
    if is_tensor(key):
        return key._data
    if isinstance(key, list):
        return np.asarray(key) if not any(is_tensor(k) for k in key) else key
    return key


def _is_basic(key) -> bool:
    parts = key if isinstance(key, tuple) else (key,)
    return all(isinstance(k, (int, slice)) or k is None or k is Ellipsis for k in parts)


class Index(Function):
    """x[key];  the gradient lands at the selected positions (summed where picked twice)."""

    node_name = "IndexBackward0"

    @staticmethod
    def forward(ctx, x, key):
        ctx.shape, ctx.dtype, ctx.key = x.shape, x._data.dtype, key
        ctx.basic = _is_basic(key)
        try:
            return x._new(x._data[key])
        except IndexError as err:
            raise IndexError(str(err)) from None

    @staticmethod
    def backward(ctx, grad):
        return scatter_add_into_zeros(grad, ctx.key, ctx.shape, ctx.basic), None


class Select(Index):
    node_name = "SelectBackward0"


class Slice(Index):
    node_name = "SliceBackward0"


class IndexGrad(Function):
    """zeros(shape)[key] += grad: the backward of indexing, itself differentiable."""

    node_name = "IndexPutBackward0"

    @staticmethod
    def forward(ctx, grad, key, shape, basic):
        ctx.key = key
        xp = grad._xp
        out = xp.zeros(shape, dtype=grad._data.dtype)
        if basic:
            out[key] = grad._data
        else:
            xp.add.at(out, key, grad._data)
        return grad._new(out)

    @staticmethod
    def backward(ctx, grad):
        return grad[ctx.key], None, None, None


class IndexPut(Function):
    """out = x with out[key] = value;  x gets the gradient except at key, value gets grad[key]."""

    node_name = "CopySlices"

    @staticmethod
    def forward(ctx, x, key, value):
        ctx.key, ctx.value_shape = key, value.shape
        out = x._data.copy()
        out[key] = value._data
        return x._new(out)

    @staticmethod
    def backward(ctx, grad):
        need_x, _, need_value = ctx.needs_input_grad
        keep = grad._xp.ones(grad.shape, dtype=grad._data.dtype)
        keep[ctx.key] = 0
        grad_x = grad * grad._new(keep) if need_x else None
        grad_value = grad[ctx.key].sum_to_size(ctx.value_shape) if need_value else None
        return grad_x, None, grad_value


def scatter_add_into_zeros(grad, key, shape, basic):
    return IndexGrad.apply(grad, key, tuple(shape), basic)


def scatter_into_zeros(grad, index, dim, shape):
    """A zero tensor of ``shape`` holding ``grad`` at ``index`` along ``dim`` (max's backward)."""
    xp = grad._xp
    grids = list(xp.indices(index.shape, sparse=True))
    grids[dim] = index
    return IndexGrad.apply(grad, tuple(grids), tuple(shape), False)


def getitem(x, key):
    data_key = _key_data(key)
    if isinstance(data_key, int) or (is_tensor(key) and key.ndim == 0 and
                                     key._data.dtype.kind in "iu"):
        if x.ndim == 0:
            raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                             "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
        if isinstance(data_key, int) and not -x.shape[0] <= data_key < x.shape[0]:
            raise IndexError(
                f"index {data_key} is out of bounds for dimension 0 with size {x.shape[0]}"
            )
        return Select.apply(x, data_key)
    if isinstance(data_key, slice):
        return Slice.apply(x, data_key)
    return Index.apply(x, data_key)


class Cat(Function):
    """Join tensors along a dim;  the gradient is cut into the same pieces."""

    node_name = "CatBackward0"

    @staticmethod
    def forward(ctx, dim, *tensors):
        ctx.dim = dim
        ctx.sizes = [t.shape[dim] for t in tensors]
        return tensors[0]._new(tensors[0]._xp.concatenate([t._data for t in tensors], axis=dim))

    @staticmethod
    def backward(ctx, grad):
        pieces, start = [], 0
        for size in ctx.sizes:
            index = [slice(None)] * grad.ndim
            index[ctx.dim] = slice(start, start + size)
            pieces.append(grad[tuple(index)])
            start += size
        return (None, *pieces)


class Stack(Function):
    """Stack tensors along a new dim;  the gradient is unstacked."""

    node_name = "StackBackward0"

    @staticmethod
    def forward(ctx, dim, *tensors):
        ctx.dim = dim
        return tensors[0]._new(tensors[0]._xp.stack([t._data for t in tensors], axis=dim))

    @staticmethod
    def backward(ctx, grad):
        return (None, *(grad.select(ctx.dim, i) for i in range(grad.shape[ctx.dim])))


def _same_device(tensors) -> None:
    first = tensors[0]._device
    for t in tensors[1:]:
        if t._device != first:
            raise RuntimeError(
                "Expected all tensors to be on the same device, but found at least two devices, "
                f"{first} and {t._device}!"
            )


def cat(tensors, dim=0):
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError("torch.cat(): expected a non-empty list of Tensors")
    _same_device(tensors)
    return Cat.apply(normalize_dim(dim, tensors[0].ndim), *tensors)


concat = concatenate = cat


def stack(tensors, dim=0):
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    _same_device(tensors)
    shapes = {tuple(t.shape) for t in tensors}
    if len(shapes) > 1:
        raise RuntimeError(
            "stack expects each tensor to be equal size, but got "
            f"{list(tensors[0].shape)} at entry 0 and "
            f"{list(next(t.shape for t in tensors if tuple(t.shape) != tuple(tensors[0].shape)))}"
            " at entry 1"
        )
    return Stack.apply(normalize_dim(dim, tensors[0].ndim + 1), *tensors)


class Where(Function):
    """out = a where cond else b;  the gradient goes to whichever side was picked."""

    node_name = "WhereBackward0"

    @staticmethod
    def forward(ctx, cond, a, b):
        ctx.save_for_backward(cond)
        ctx.shapes = a.shape, b.shape
        return a._new(a._xp.where(cond._data, a._data, b._data))

    @staticmethod
    def backward(ctx, grad):
        (cond,) = ctx.saved_tensors
        zero = grad * 0.0
        need_a, need_b = ctx.needs_input_grad[1:]
        grad_a = where(cond, grad, zero).sum_to_size(ctx.shapes[0]) if need_a else None
        grad_b = where(cond, zero, grad).sum_to_size(ctx.shapes[1]) if need_b else None
        return None, grad_a, grad_b


def where(condition, a, b):
    if not is_tensor(a) and not is_tensor(b):  # two numbers: a float tensor like PyTorch's
        from .. import dtypes

        a = scalar_like(a, condition.to(dtypes.default_float))
    a, b = binary_operands(a, b)
    return Where.apply(condition, a, b)


class Clone(Function):
    """A copy in new memory;  the gradient passes through unchanged."""

    node_name = "CloneBackward0"

    @staticmethod
    def forward(ctx, x):
        return x._new(x._data.copy())

    @staticmethod
    def backward(ctx, grad):
        return grad


class ToCopy(Function):
    """Cast to another dtype and/or copy to another device;  the gradient goes back the same way."""

    node_name = "ToCopyBackward0"

    @staticmethod
    def forward(ctx, x, np_dtype, device):
        ctx.dtype, ctx.device = x._data.dtype, x._device
        data = x._data
        if device != x._device:
            data = _backend.to_device(data, device)
        out = data.astype(np_dtype, copy=data is x._data)
        from ..tensor import Tensor

        return Tensor._wrap(out, device)

    @staticmethod
    def backward(ctx, grad):
        from .. import dtypes

        return grad.to(dtypes.from_numpy(ctx.dtype), ctx.device), None, None


def reshape(x, *shape):
    shape = tuple(shape[0]) if len(shape) == 1 and not isinstance(shape[0], int) else shape
    return View.apply(x, shape)


def transpose(x, dim0, dim1):
    n = x.ndim
    return Transpose.apply(x, normalize_dim(dim0, n), normalize_dim(dim1, n))


def t(x):
    if x.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {x.ndim}D")
    return T.apply(x, 0, 1) if x.ndim == 2 else x


def permute(x, *dims):
    dims = tuple(dims[0]) if len(dims) == 1 and not isinstance(dims[0], int) else dims
    if len(dims) != x.ndim:
        raise RuntimeError(
            "permute(sparse_coo): number of dimensions in the tensor input does not match the "
            f"length of the desired ordering of dimensions i.e. input.dim() = {x.ndim} is not "
            f"equal to len(dims) = {len(dims)}"
        )
    return Permute.apply(x, tuple(normalize_dim(d, x.ndim) for d in dims))


def unsqueeze(x, dim):
    return Unsqueeze.apply(x, normalize_dim(dim, x.ndim + 1))


def squeeze(x, dim=None):
    if dim is None:
        return Squeeze.apply(x, None)
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    dims = tuple(d for d in (normalize_dim(d, x.ndim) for d in dims) if x.shape[d] == 1)
    if not dims:
        return View.apply(x, tuple(x.shape))
    return SqueezeDim.apply(x, dims)


def expand(x, *shape):
    shape = tuple(shape[0]) if len(shape) == 1 and not isinstance(shape[0], int) else shape
    lead = len(shape) - x.ndim
    shape = tuple(x.shape[i - lead] if s == -1 else s for i, s in enumerate(shape))
    return Expand.apply(x, shape)


def flatten(x, start_dim=0, end_dim=-1):
    if x.ndim == 0:
        return reshape(x, (1,))
    start, end = normalize_dim(start_dim, x.ndim), normalize_dim(end_dim, x.ndim)
    shape = x.shape
    middle = 1
    for s in shape[start:end + 1]:
        middle *= s
    return reshape(x, tuple(shape[:start]) + (middle,) + tuple(shape[end + 1:]))


def select(x, dim, index):
    key = [slice(None)] * x.ndim
    key[normalize_dim(dim, x.ndim)] = index
    return Select.apply(x, tuple(key))


def clone(x):
    return Clone.apply(x)
