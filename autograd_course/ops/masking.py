"""Writing through a mask or a list of indices: ``masked_fill``, ``index_put_`` and the
positions a condition holds at (``nonzero``, one-argument ``where``).

masked_fill(x, m, v) is x where m is False and v where it is True, so the gradient splits the
same way: the positions m selects go to v (summed, v is one number), the others to x.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..autograd import forward_ad
from ..autograd.function import Function
from .broadcasting import broadcast_shape, sum_to
from .combine import where as choose
from .devices import same_device
from .in_place_form import check_inplace, written_in_place
from .inplace import setitem
from .operands import is_tensor

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


def _fill(x, mask, value, ctx):
    """where(mask, value, x) on arrays, broadcast to the shape of both (``mask`` is an array:
    it takes no gradient, so it gets no edge in the graph)."""
    xp = x._xp
    shape = broadcast_shape(x.shape, mask.shape)
    ctx.x_shape, ctx.mask = x.shape, mask
    out = xp.where(mask, xp.asarray(value, dtype=x._data.dtype), x._data)
    return x._new(xp.broadcast_to(out, shape).copy())  # (ascontiguousarray makes 0-d 1-d)


class MaskedFill(Function):
    """out = where(mask, value, x) for a number value;  dx = where(mask, 0, dout)."""

    node_name = "MaskedFillBackward0"

    @staticmethod
    def forward(ctx, x, mask, value):
        return _fill(x, mask, value, ctx)

    @staticmethod
    def backward(ctx, grad):
        mask = grad._new(ctx.mask)
        return sum_to(grad.masked_fill(mask, 0.0), ctx.x_shape), None, None

    @staticmethod
    def jvp(ctx, t, *_):
        """The filled places are a constant: tangent 0 there, t elsewhere."""
        x, mask, _ = ctx.fw_args
        return MaskedFill.apply(t, mask, 0.0)


class MaskedFillTensor(Function):
    """out = where(mask, value, x) for a 0-d tensor value;
    dx = where(mask, 0, dout),  dvalue = Σ dout where mask."""

    node_name = "MaskedFillBackward1"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, x, mask, value):
        return _fill(x, mask, value._data, ctx)

    @staticmethod
    def backward(ctx, grad):
        mask = grad._new(ctx.mask)
        need_x, _, need_value = ctx.needs_input_grad
        grad_x = sum_to(grad.masked_fill(mask, 0.0), ctx.x_shape) if need_x else None
        grad_value = None
        if need_value:
            grad_value = (grad - grad.masked_fill(mask, 0.0)).sum()
        return grad_x, None, grad_value


def masked_fill(input: Tensor, mask: Tensor, value: Tensor | float) -> Tensor:
    """A copy of ``x`` with ``value`` wherever the boolean ``mask`` is True."""
    _check_masked_fill(input, mask, value)
    fill = MaskedFillTensor if is_tensor(value) else MaskedFill
    return fill.apply(input, mask._data, value)


MaskedFill_, MaskedFillTensor_ = map(written_in_place, (MaskedFill, MaskedFillTensor))


def masked_fill_(x: Tensor, mask: Tensor, value: Tensor | float) -> Tensor:
    """``masked_fill`` written into ``x`` itself."""
    check_inplace(x, others=(value,))
    _check_masked_fill(x, mask, value)
    fill = MaskedFillTensor_ if is_tensor(value) else MaskedFill_
    return fill.apply(x, mask._data, value)


def _check_masked_fill(input: Tensor, mask: Tensor, value: Tensor | float) -> None:
    if mask._data.dtype.kind != "b":
        raise RuntimeError(
            "masked_fill_ only supports boolean masks, but got mask with dtype "
            f"{mask.dtype.name.replace('int64', 'long int')}")
    same_device(input, mask)
    if is_tensor(value) and value.ndim != 0:
        raise RuntimeError(
            "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
            f"{value.ndim} dimension(s).")


class IndexPutAccumulate(Function):
    """x with value added at the indices, in place (repeated indices add up, unlike a
    write);  dx = dout,  dvalue = dout[indices] (summed back to value's shape)."""

    node_name = "IndexPutBackward0"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, x, key, value):
        xp, out = x._xp, x._data
        ctx.key, ctx.value_shape = key, value.shape
        xp.add.at(out, key, xp.broadcast_to(value._data.astype(out.dtype), out[key].shape))
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, grad):
        need_x, _, need_value = ctx.needs_input_grad
        grad_value = None
        if need_value:
            grad_value = grad[ctx.key].sum_to_size(ctx.value_shape)
        return (grad if need_x else None), None, grad_value


def index_put_(x: Tensor, indices: tuple[Tensor, ...], values: Tensor,
               accumulate: bool = False) -> Tensor:
    """``x[indices] = values`` (``accumulate=False``) or ``x[indices] += values`` where a
    repeated index adds every time (``accumulate=True``); ``indices`` is a tuple of tensors."""
    key = tuple(indices)
    if not accumulate:
        setitem(x, key, values)
        return x
    if not is_tensor(values):
        values = x._new(x._xp.asarray(values, dtype=x._data.dtype))
    check_inplace(x, others=(values,))
    array_key = tuple(i._data if is_tensor(i) else i for i in key)
    return IndexPutAccumulate.apply(x, array_key, values)


def nonzero(input: Tensor, *, as_tuple: bool = False) -> Tensor | tuple[Tensor, ...]:
    """The indices of the non-zero elements: an (n, ndim) int64 tensor, or one index tensor
    per dimension with ``as_tuple=True`` (what ``where(condition)`` returns)."""
    xp = input._xp
    if input.ndim == 0:  # a 0-d tensor: one match with no index (n, 0), as a 1-d one's in tuples
        found = xp.nonzero(input._data.reshape(1))
        if as_tuple:
            return (input._new(found[0].astype("int64")),)
        return input._new(xp.zeros((found[0].size, 0), dtype="int64"))
    found = xp.nonzero(input._data)
    if as_tuple:
        return tuple(input._new(i.astype("int64")) for i in found)
    return input._new(xp.stack(found, axis=1).astype("int64"))


def where(condition: Tensor, input: Tensor | float | None = None,  # PyTorch's names
          other: Tensor | float | None = None) -> Tensor | tuple[Tensor, ...]:
    """``where(cond, a, b)``: a where cond is True, else b. ``where(cond)`` alone: the
    indices where cond holds, one tensor per dimension (``nonzero(cond, as_tuple=True)``)."""
    if input is None and other is None:
        return nonzero(condition, as_tuple=True)
    return choose(condition, input, other)


def argwhere(input: Tensor) -> Tensor:
    """Same as ``nonzero(x)``: one row of indices per non-zero element."""
    return nonzero(input)
