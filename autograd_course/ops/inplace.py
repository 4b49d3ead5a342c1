"""In-place ops: ``add_``, ``mul_``, ``zero_``, ``copy_``, ``x[i] = v``...

An in-place op overwrites memory that the graph may have saved, so each one
1. refuses to touch a leaf that requires grad (or a view of one) while grad mode is on: its
   ``.grad`` would no longer describe the values it holds;
2. bumps the tensor's version counter, so a saved copy that went stale is caught at backward;
3. when recording, re-points the tensor's ``grad_fn`` at the new operation: the tensor now
   stands for the result, and the old history is one input of that node. A write into a view
   re-makes its base's history instead (``CopySlices``), and every view of a changed base gets
   a history taken afresh from it (autograd/views.py).

The ops that only exist in place (``fill_``, ``zero_``, ``copy_``, ``x[key] = v``) are
``Function``s written as a learner writes one that changes its input: ``forward`` writes into
``x`` and calls ``ctx.mark_dirty(x)``, and ``Function.apply`` does 2. and 3. The in-place forms
of the other ops (``mul_``, ``exp_``...) compute the op's result, recorded by its own node, and
``apply_inplace`` writes it into ``x`` and does 2. and 3. with the same functions.

Under ``no_grad`` (an optimizer step) nothing is recorded: the array is written, the version
bumped, and that is all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .. import _messages
from ..autograd import grad_mode, views
from ..autograd.function import Function
from ._util import broadcast_error, check_cast, is_tensor, same_device
from .arithmetic import add, div, mul, pow, sub
from .dtype_checks import (
    check_clamp_cast,
    check_inplace_result,
    check_integer_power,
    check_sub,
)
from .indexing import (
    IndexPut,
    getitem,
    index_sources,
    is_view_key,
    is_whole_key,
    key_data,
)
from .unary import clamp

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


_OVERLAP_MESSAGE = (
    "unsupported operation: more than one element of the written-to tensor refers to a single "
    "memory location. Please clone() the tensor before performing the operation."
)


def check_inplace(x: Tensor, view: bool = False, written=None, others: tuple = ()) -> None:
    """PyTorch's refusal to write into a leaf that requires grad (or a view of one), and into
    memory where several elements are one (an ``expand``ed tensor: a stride 0 along a
    dimension of more than one element). ``written``: the part of ``x`` a write goes to;
    ``others``: the op's other operands (the write is recorded if one requires grad)."""
    written = x._data if written is None else written
    if not getattr(x._data.flags, "writeable", True) or any(
            step == 0 and n > 1 for step, n in zip(written.strides, written.shape)):
        raise RuntimeError(_OVERLAP_MESSAGE)
    views.check_rebase(x, recorded=_recording(x, *others))
    if not (x._requires_grad and grad_mode.state.enabled):
        return
    if x.grad_fn is None:
        raise RuntimeError(_messages.VIEW_OF_LEAF_IN_PLACE if view else _messages.LEAF_IN_PLACE)
    base = x._base
    if base is not None and base.grad_fn is None and base._requires_grad:
        raise RuntimeError(_messages.VIEW_OF_LEAF_IN_PLACE)


def apply_inplace(x: Tensor, result: Tensor) -> object:
    """Write ``result`` (an op's output) into ``x``'s memory and make ``x`` stand for it."""
    if result._data.shape != x._data.shape:
        raise RuntimeError(
            f"output with shape {list(x.shape)} doesn't match the broadcast shape "
            f"{list(result.shape)}"
        )
    check_cast(result, x)
    recorded = result.grad_fn is not None
    if recorded:
        views.check_rebase(x, result.grad_fn)
    x._xp.copyto(x._data, result._data, casting="unsafe")
    x._bump_version()
    if recorded:
        views.rebase_history(x, result.grad_fn, result._output_nr)
    return x


def _recording(x, *others) -> bool:
    return grad_mode.state.enabled and (
        x._requires_grad or any(is_tensor(o) and o._requires_grad for o in others)
    )


def _snapshot(x):
    """A copy of ``x``'s values at the same place in the graph.

    The op reads (and may save for backward) this copy, so overwriting ``x`` afterwards does
    not change what backward sees: PyTorch also keeps the original when a formula needs it.
    """
    copy = x._new(x._data.copy())
    copy.grad_fn, copy._output_nr, copy._requires_grad = x.grad_fn, x._output_nr, x._requires_grad
    return copy


def _inplace(x, op, other, saves_input: bool = True):
    check_inplace(x)
    check_inplace_result(x, other)
    if saves_input and _recording(x, other):
        source = _snapshot(x)
        return apply_inplace(x, op(source, other))  # x.mul_(x): x is saved, then changed
    return apply_inplace(x, op(x, other))


def _write_sum(x, other, alpha, ufunc: str) -> bool:
    """``x ±= alpha·other`` straight into x's memory when nothing is recorded and ``other`` has
    x's dtype, device and shape (an optimizer's step): one pass over the memory fewer than
    computing the result and copying it in. The values are the same bits as that path's."""
    if not (is_tensor(other) and other._data.dtype == x._data.dtype
            and other._device == x._device and other._data.shape == x._data.shape):
        return False
    if x._data.dtype.kind != "f":
        return False  # integers and bools go through add's and sub's checks (alpha, bool -)
    check_inplace(x)
    if _recording(x, other):
        return False
    xp, data = x._xp, other._data
    if alpha != 1:
        data = data * xp.asarray(alpha, dtype=data.dtype)
    getattr(xp, ufunc)(x._data, data, out=x._data)
    x._bump_version()
    return True


def add_(x: Tensor, other: Tensor | float, *, alpha: float = 1) -> Tensor:
    """x += alpha·other."""
    if _write_sum(x, other, alpha, "add"):
        return x
    return _inplace(x, lambda a, b: add(a, b, alpha=alpha), other, saves_input=False)


def sub_(x: Tensor, other: Tensor | float, *, alpha: float = 1) -> Tensor:
    """x -= alpha·other."""
    check_sub(x, other)
    if _write_sum(x, other, alpha, "subtract"):
        return x
    return _inplace(x, lambda a, b: sub(a, b, alpha=alpha), other, saves_input=False)


def mul_(x: Tensor, other: Tensor | float) -> Tensor:
    """x *= other."""
    return _inplace(x, mul, other)


def div_(x: Tensor, other: Tensor | float, *, rounding_mode: str | None = None) -> Tensor:
    """x /= other (rounded down or towards 0 with ``rounding_mode='floor'``/``'trunc'``)."""
    check_inplace_result(x, other, floats=rounding_mode is None)
    return _inplace(x, lambda a, b: div(a, b, rounding_mode=rounding_mode), other)


def pow_(x: Tensor, exponent: Tensor | float) -> Tensor:
    """x = x ** exponent."""
    check_integer_power(x, exponent)
    return _inplace(x, pow, exponent)


def unary_(x: Tensor, op) -> Tensor:
    """``op(x)``, an element-wise op (``exp``, ``relu``...), written into x itself."""
    return _inplace(x, lambda a, _: op(a), None)


def clamp_(x: Tensor, min: float | Tensor | None = None,
           max: float | Tensor | None = None) -> Tensor:
    """Clamp x into [min, max] in place."""
    check_clamp_cast(x, min, max)
    return _inplace(x, lambda a, _: clamp(a, min, max), None)


class Fill(Function):
    """x = value everywhere;  x's old values get zero gradient (they were all overwritten)."""

    node_name = "FillBackward2"

    @staticmethod
    def forward(ctx, x, value):
        x._data[...] = value
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad._new(grad._xp.zeros_like(grad._data)), None


class Zero(Fill):
    node_name = "ZeroBackward0"


class FillTensor(Function):
    """x = value (a 0-d tensor) everywhere;  dvalue = Σ dout, dx = 0."""

    node_name = "FillBackward3"

    @staticmethod
    def forward(ctx, x, value):
        x._data[...] = value._data
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad._new(grad._xp.zeros_like(grad._data)), grad.sum()


def fill_(x: Tensor, value: Tensor | float) -> Tensor:
    """Set every element to ``value`` in place."""
    check_inplace(x, others=(value,))
    if not is_tensor(value):
        return (Zero if value == 0 and type(value) is int else Fill).apply(x, value)
    if value.ndim and _recording(x, value):
        raise RuntimeError(
            "fill_ only supports 0-dimension value tensor but got tensor with "
            f"{value.ndim} dimensions."
        )
    return FillTensor.apply(x, value)


def zero_(x: Tensor) -> Tensor:
    """Set every element to 0 in place (what you do to ``.grad`` between steps)."""
    check_inplace(x)
    return Zero.apply(x, 0)


class Copy(Function):
    """x = src (broadcast to x's shape, cast to x's dtype);  dsrc = dout summed back to
    src's shape, dx = 0 (x's old values are gone)."""

    node_name = "CopyBackwards"

    @staticmethod
    def forward(ctx, x, src):
        ctx.src_shape = src.shape
        x._data[...] = src._data
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, grad):
        need_x, need_src = ctx.needs_input_grad
        grad_x = grad._new(grad._xp.zeros_like(grad._data)) if need_x else None
        return grad_x, grad.sum_to_size(ctx.src_shape) if need_src else None


def _check_broadcast(shape, src_shape) -> None:
    """``src`` must broadcast to ``shape`` exactly (the result cannot grow)."""
    try:
        target = tuple(np.broadcast_shapes(shape, src_shape))
    except ValueError:
        raise broadcast_error(shape, src_shape) from None
    if target != tuple(shape):
        raise RuntimeError(
            f"output with shape {list(shape)} doesn't match the broadcast shape {list(target)}"
        )


def copy_(x: Tensor, src: Tensor) -> Tensor:
    """Copy ``src``'s values into ``x`` (broadcasting, casting); gradients flow to ``src``."""
    check_inplace(x, others=(src,))
    if not is_tensor(src):
        src = x._new(x._xp.asarray(src, dtype=x._data.dtype))
    if src._device != x._device:
        src = src.to(x._device)
    _check_broadcast(x.shape, src.shape)
    return Copy.apply(x, src)


def setitem(x: Tensor, key: object, value: Tensor | float) -> None:
    """``x[key] = value``. When autograd is watching, the write is recorded like PyTorch's:
    a ``copy_`` into the view ``x[key]`` for keys with ints and slices (so x's history becomes
    a CopySlices), IndexPutBackward0 for lists, tensors and masks, fill_/copy_ for
    ``x[...] = v``."""
    view = is_view_key(key)
    check_inplace(x, view=view, written=x._data[key_data(key, x._xp)] if view else None,
                  others=(value,))
    if not is_tensor(value):
        value = x._new(x._xp.asarray(value, dtype=x._data.dtype))
    elif value._device != x._device:  # PyTorch copies across devices, except into index_put
        if not (view or value.ndim == 0 or is_whole_key(key)):
            same_device(x, value)
        value = value.to(x._device)
    if not _recording(x, value):
        IndexPut.apply(x, key_data(key, x._xp), value)
        return
    if is_whole_key(key):
        if value.ndim == 0:
            FillTensor.apply(x, value)
        else:
            copy_(x, value)
        return
    target = getitem(x, key) if view else None
    if target is not None and target._base is not None:
        copy_(target, value)  # as in PyTorch: a copy into the view x[key] re-makes x's history
        return
    IndexPut.apply(x, key_data(key, x._xp), value.to(x.dtype), index_sources(key))
