"""Running and whole products and sums: ``cumsum``, ``cumprod``, ``prod``, ``logsumexp``,
and the reductions that pick or count: ``var_mean``, ``median``, ``count_nonzero``.

* cumsum:  y_j = Σ_{i≤j} x_i            dL/dx_i = Σ_{j≥i} g_j   (a reversed cumsum of g)
* prod:    y = Π x_i                    dy/dx_i = Π_{k≠i} x_k   (the product of the others)
* cumprod: y_j = Π_{i≤j} x_i            dL/dx_i = Σ_{j≥i} g_j y_j / x_i
* logsumexp: y = log Σ exp(x_i)         dy/dx_i = exp(x_i - y)  (the softmax)

"The product of the others" is computed without dividing, as the product of everything before
(an exclusive cumprod) times the product of everything after, so an input of 0 still gets its
exact gradient. Backward formulas use tensor ops, so they differentiate again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .. import dtypes
from ..autograd import forward_ad
from ..autograd.function import Function
from .combine import cat, where
from .dims import normalize_dim
from .reduce import _dims, _MinMaxResult, _restore
from .stats import Std, Var, _count, _floating, dims_and_correction, std_grad, var_grad

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


def _accumulating_dtype(x, dtype):
    """PyTorch's rule: integers and bools accumulate in int64, unless ``dtype`` says."""
    if dtype is not None:
        return dtypes.to_numpy(dtype)
    kind = x._data.dtype
    return np.dtype(np.int64) if kind.kind in "biu" else kind


class Cumsum(Function):
    node_name = "CumsumBackward0"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, x, dim, dtype):
        ctx.dim, ctx.dtype = dim, x._data.dtype
        return x._new(x._xp.cumsum(x._data, axis=dim, dtype=dtype) if x.ndim
                      else x._data.astype(dtype))

    @staticmethod
    def backward(ctx, grad):
        if grad.ndim == 0:
            return grad, None, None
        d = ctx.dim
        return grad.flip([d]).cumsum(d).flip([d]), None, None


def _others_product(x, dim):
    """Π_{k≠i} x_k along ``dim`` for each i, as (product before i) * (product after i)."""
    n = x.shape[dim]
    ones = x.narrow(dim, 0, 1) * 0 + 1
    before = cat([ones, x.narrow(dim, 0, n - 1)], dim).cumprod(dim)
    after = cat([x.narrow(dim, 1, n - 1), ones], dim).flip([dim]).cumprod(dim).flip([dim])
    return before * after


class Cumprod(Function):
    node_name = "CumprodBackward0"

    @staticmethod
    def forward(ctx, x, dim, dtype):
        out = x._new(x._xp.cumprod(x._data, axis=dim, dtype=dtype) if x.ndim
                     else x._data.astype(dtype))
        ctx.dim = dim
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        if x.ndim == 0:
            return grad, None, None
        d = ctx.dim

        def reverse_cumsum(t):
            return t.flip([d]).cumsum(d).flip([d])

        if not (x == 0).any():
            return reverse_cumsum(grad * out) / x, None, None
        # an exact 0 somewhere: for each i, Σ_{j≥i} g_j Π_{k≤j, k≠i} x_k term by term
        n, pieces = x.shape[d], []
        for i in range(n):
            at_i = x._new(x._xp.arange(n).reshape([-1 if k == d else 1 for k in range(x.ndim)])
                          == i)
            partial = where(at_i, 1.0, x).cumprod(d)  # x_i taken out of every product
            pieces.append((grad * partial).narrow(d, i, n - i).sum(d, keepdim=True))
        return cat(pieces, d), None, None


class Prod(Function):
    node_name = "ProdBackward0"
    jvp = forward_ad.scalar

    @staticmethod
    def forward(ctx, x, dtype):
        ctx.save_for_backward(x)
        return x._new(x._xp.asarray(x._data.prod(dtype=dtype)))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        if x.numel() == 0:
            return grad.expand(x.shape), None
        return grad * _others_product(x.reshape(-1), 0).reshape(x.shape), None


class ProdDim(Function):
    node_name = "ProdBackward1"
    jvp = forward_ad.reduction

    @staticmethod
    def forward(ctx, x, dim, keepdim, dtype):
        ctx.save_for_backward(x)
        ctx.dim, ctx.keepdim = dim, keepdim
        return x._new(x._xp.asarray(x._data.prod(axis=dim, keepdims=keepdim, dtype=dtype)))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        if x.ndim == 0:  # the product of one number is that number: dy/dx = 1
            return grad, None, None, None
        grad = _restore(grad, x.shape, (ctx.dim,), ctx.keepdim)
        if x.shape[ctx.dim] == 0:
            return grad.expand(x.shape), None, None, None
        return grad * _others_product(x, ctx.dim), None, None, None


class Logsumexp(Function):
    node_name = "LogsumexpBackward0"
    jvp = forward_ad.reduction

    @staticmethod
    def forward(ctx, x, dims, keepdim):
        xp, data = x._xp, x._data
        top = data.max(axis=dims, keepdims=True) if data.size else xp.zeros(())
        top = xp.where(xp.isfinite(top), top, 0)  # all -inf (or inf): no shift
        out = xp.log(xp.exp(data - top).sum(axis=dims, keepdims=True)) + top
        out = x._new(xp.asarray(out if keepdim else out.squeeze(dims), dtype=data.dtype))
        ctx.dims, ctx.keepdim = dims, keepdim
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        grad = _restore(grad, x.shape, ctx.dims, ctx.keepdim)
        return grad * (x - _restore(out, x.shape, ctx.dims, ctx.keepdim)).exp(), None, None


class VarMean(Function):
    """(var, mean) in one node: each output's gradient adds its own term."""

    node_name = "VarMeanBackward0"

    @staticmethod
    def forward(ctx, x, dims, correction, keepdim):
        ctx.save_for_backward(x)
        ctx.dims, ctx.correction, ctx.keepdim = dims, correction, keepdim
        var = Var.forward(ctx, x, dims, correction, keepdim)
        mean = x._data.mean(axis=dims, keepdims=keepdim)
        return var, x._new(x._xp.asarray(mean, dtype=x._data.dtype))

    @staticmethod
    def backward(ctx, grad_var, grad_mean):
        (x,) = ctx.saved_tensors  # unpacked once: an unpack hook runs once, as in PyTorch
        grad_x = var_grad(ctx, x, grad_var)
        n = _count(x.shape, ctx.dims)
        return grad_x + _restore(grad_mean, x.shape, ctx.dims, ctx.keepdim) / n, None, None, None


class StdMean(Function):
    """(std, mean) in one node: each output's gradient adds its own term."""

    node_name = "StdMeanBackward0"

    @staticmethod
    def forward(ctx, x, dims, correction, keepdim):
        std = Std.forward(ctx, x, dims, correction, keepdim)  # saves x and std
        mean = x._data.mean(axis=dims, keepdims=keepdim)
        return std, x._new(x._xp.asarray(mean, dtype=x._data.dtype))

    @staticmethod
    def backward(ctx, grad_std, grad_mean):
        x, std = ctx.saved_tensors  # unpacked once: an unpack hook runs once, as in PyTorch
        grad_x = std_grad(ctx, x, std, grad_std)
        n = _count(x.shape, ctx.dims)
        return grad_x + _restore(grad_mean, x.shape, ctx.dims, ctx.keepdim) / n, None, None, None


class Median(Function):
    """The lower of the two middle values (PyTorch's median);  its gradient goes to it alone."""

    node_name = "MedianBackward0"

    @staticmethod
    def forward(ctx, x):
        flat = x._data.reshape(-1)
        at = int(x._xp.argsort(flat, kind="stable")[(flat.size - 1) // 2])
        ctx.shape, ctx.at = x.shape, at
        return x._new(x._xp.asarray(flat[at]))

    @staticmethod
    def backward(ctx, grad):
        n = 1
        for s in ctx.shape:
            n *= s
        onehot = grad._new(grad._xp.arange(n).reshape(ctx.shape) == ctx.at).to(grad.dtype)
        return onehot * grad


class MedianDim(Function):
    node_name = "MedianBackward1"

    @staticmethod
    def forward(ctx, x, dim, keepdim):
        xp = x._xp
        order = xp.argsort(x._data, axis=dim, kind="stable")
        middle = xp.take(order, [(x.shape[dim] - 1) // 2], axis=dim)
        values = xp.take_along_axis(x._data, middle, axis=dim)
        if not keepdim:
            values, middle = values.squeeze(dim), middle.squeeze(dim)
        indices = x._new(middle.astype(np.int64))
        ctx.mark_non_differentiable(indices)
        ctx.shape, ctx.dim, ctx.keepdim = x.shape, dim, keepdim
        ctx.save_for_backward(indices)
        return x._new(values), indices

    @staticmethod
    def backward(ctx, grad, _):
        (indices,) = ctx.saved_tensors
        grad = _restore(grad, ctx.shape, (ctx.dim,), ctx.keepdim)
        index = _restore(indices, ctx.shape, (ctx.dim,), ctx.keepdim)
        return grad.new_zeros(ctx.shape).scatter(ctx.dim, index, grad), None, None


def cumsum(input: Tensor, dim: int, *, dtype=None) -> Tensor:
    """Running sums along ``dim``: ``[1, 2, 3]`` gives ``[1, 3, 6]``."""
    return Cumsum.apply(input, normalize_dim(dim, input.ndim), _accumulating_dtype(input, dtype))


def cumprod(input: Tensor, dim: int, *, dtype=None) -> Tensor:
    """Running products along ``dim``: ``[1, 2, 3]`` gives ``[1, 2, 6]``."""
    return Cumprod.apply(input, normalize_dim(dim, input.ndim),
                         _accumulating_dtype(input, dtype))


def prod(input: Tensor, dim: int | None = None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """The product of all elements, or along ``dim``."""
    out_dtype = _accumulating_dtype(input, dtype)
    if dim is None:
        return Prod.apply(input, out_dtype)
    return ProdDim.apply(input, normalize_dim(dim, input.ndim), keepdim, out_dtype)


def logsumexp(input: Tensor, dim: int | tuple[int, ...], keepdim: bool = False) -> Tensor:
    """log Σ exp(x) over ``dim``, computed without overflow (shifted by the max)."""
    if input._data.dtype.kind not in "fc":
        input = input.to(dtypes.default_float)
    return Logsumexp.apply(input, _dims(dim, input.ndim), keepdim)


def var_mean(input: Tensor, dim: int | tuple[int, ...] | None = None,
             unbiased: bool | None = None, keepdim: bool = False, *,
             correction: float | None = None) -> tuple:
    """``(var(input, dim), mean(input, dim))`` in one call."""
    _floating(input, "var_mean only support floating point and complex dtypes")
    return VarMean.apply(input, *dims_and_correction(input, dim, unbiased, correction), keepdim)


def std_mean(input: Tensor, dim: int | tuple[int, ...] | None = None,
             unbiased: bool | None = None, keepdim: bool = False, *,
             correction: float | None = None) -> tuple:
    """``(std(input, dim), mean(input, dim))`` in one call."""
    _floating(input, "std_mean only support floating point and complex dtypes")
    return StdMean.apply(input, *dims_and_correction(input, dim, unbiased, correction), keepdim)


def median(input: Tensor, dim: int | None = None, keepdim: bool = False):
    """The middle value (the lower of the two for an even count), or (values, indices)
    along ``dim``."""
    if dim is None:
        if input.numel() == 0:
            return input._new(input._xp.asarray(np.nan, dtype=input._data.dtype))
        return Median.apply(input)
    dim = normalize_dim(dim, input.ndim)
    if input.ndim and input.shape[dim] == 0:
        raise IndexError(f"median(): Expected reduction dim {dim} to have non-zero size.")
    if input.ndim == 0:
        return _named(Median.apply(input), input.new_zeros(()).long(), "median")
    return _named(*MedianDim.apply(input, dim, keepdim), "median")


def _named(values, indices, name):
    result = _MinMaxResult((values, indices))
    result._name = name
    return result


def count_nonzero(input: Tensor, dim: int | tuple[int, ...] | None = None) -> Tensor:
    """How many elements are not zero (int64), in all or along ``dim``."""
    dims = _dims(dim, input.ndim)
    return input._new(input._xp.asarray((input._data != 0).sum(axis=dims), dtype=np.int64))

