"""Ops that combine tensors: ``cat`` and ``stack`` join them, ``where`` picks between two.

Their backward splits the incoming gradient the way the forward combined the inputs: ``cat``
cuts it into the same pieces, ``stack`` unstacks it, ``where`` sends each element to the side
that was picked (the other side gets 0 there).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from .. import _messages
from ..autograd import forward_ad
from ..autograd.function import Function
from .broadcasting import broadcast_error
from .dims import normalize_dim
from .indexing import Slice
from .operands import binary_operands, check_fits, is_tensor
from .out_arg import write_out
from .promotion import cast_to, result_type, scalar_type

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


class Cat(Function):
    """Join tensors along a dim;  the gradient is cut into the same pieces."""

    node_name = "CatBackward0"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, dim, *tensors):
        ctx.dim = dim
        ctx.sizes = [t.shape[dim] for t in tensors]
        return tensors[0]._new(tensors[0]._xp.concatenate([t._data for t in tensors], axis=dim))

    @staticmethod
    def backward(ctx, grad):
        pieces, start, lead = [], 0, (slice(None),) * ctx.dim
        for size in ctx.sizes:
            pieces.append(Slice.apply(grad, lead + (slice(start, start + size),)))
            start += size
        return (None, *pieces)


class Stack(Function):
    """Stack tensors along a new dim;  the gradient is unstacked."""

    node_name = "StackBackward0"
    jvp = forward_ad.linear

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


def _promoted(tensors):
    """All tensors in one dtype (PyTorch's cat/stack promote like ``+`` does:
    int64 with float32 is float32, int32 with float16 is float16)."""
    dtype = tensors[0]._data.dtype
    if all(t._data.dtype == dtype for t in tensors):
        return tensors
    return cast_to(result_type(*tensors), *tensors)


def tensor_sequence(function: str, tensors) -> list[Tensor]:
    """PyTorch's argument parser for a sequence of tensors (``cat``'s first argument): a
    tuple or list, every element a tensor."""
    if not isinstance(tensors, (tuple, list)):
        raise TypeError(f"{function}(): argument 'tensors' (position 1) must be tuple of "
                        f"Tensors, not {_messages.python_type(tensors)}")
    for i, t in enumerate(tensors):
        if not is_tensor(t):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got "
                            f"{_messages.python_type(t)}")
    return list(tensors)


def cat(tensors: Sequence[Tensor], dim: int = 0, *, out: Tensor | None = None) -> Tensor:
    """Join tensors along an existing dim; every other dim must match."""
    if out is not None:
        return write_out(out, cat, tensors, dim)
    tensors = tensor_sequence("cat", tensors)
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    _same_device(tensors)
    tensors = _promoted(tensors)
    # PyTorch's legacy rule: a 1-d tensor with no elements is skipped, whatever the others'
    # shapes (so torch.cat([x, torch.tensor([])]) works for any x)
    kept = [t for t in tensors if t.shape != (0,)] or tensors[:1]
    if len(kept) < len(tensors):
        tensors = kept
    first = tensors[0]
    for i, t in enumerate(tensors):
        if t.ndim == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be concatenated")
        if t.ndim != first.ndim:
            raise RuntimeError(
                f"Tensors must have same number of dimensions: got {first.ndim} and {t.ndim}"
            )
    dim = normalize_dim(dim, first.ndim)
    for i, t in enumerate(tensors):
        for d in range(first.ndim):
            if d != dim and t.shape[d] != first.shape[d]:
                raise RuntimeError(
                    f"Sizes of tensors must match except in dimension {dim}. Expected size "
                    f"{first.shape[d]} but got size {t.shape[d]} for tensor number {i} in the "
                    "list."
                )
    return Cat.apply(dim, *tensors)


concat = concatenate = cat


def stack(tensors: Sequence[Tensor], dim: int = 0, *, out: Tensor | None = None) -> Tensor:
    """Join equal-shaped tensors along a new dim."""
    if out is not None:
        return write_out(out, stack, tensors, dim)
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    _same_device(tensors)
    for i, t in enumerate(tensors):
        if t.shape != tensors[0].shape:
            raise RuntimeError(
                f"stack expects each tensor to be equal size, but got {list(tensors[0].shape)} "
                f"at entry 0 and {list(t.shape)} at entry {i}"
            )
    return Stack.apply(normalize_dim(dim, tensors[0].ndim + 1), *_promoted(tensors))


class Where(Function):
    """out = a where cond else b;  the gradient goes to whichever side was picked.

    The condition comes wrapped in a 1-tuple, not as a tensor argument: it is not
    differentiable, and PyTorch's node has edges for ``a`` and ``b`` only. It is saved for
    backward all the same, so changing it in place afterwards is caught (version counter).
    """

    node_name = "WhereBackward0"
    jvp = forward_ad.elementwise
    saved_names = ("condition",)

    @staticmethod
    def forward(ctx, held, a, b):
        (condition,) = held
        cond = condition._data
        try:
            np.broadcast_shapes(cond.shape, a.shape, b.shape)
        except ValueError:
            raise _where_broadcast_error(cond.shape, a.shape, b.shape) from None
        ctx.shapes = a.shape, b.shape
        ctx.save_for_backward(condition)
        return a._new(a._xp.where(cond, a._data, b._data))

    @staticmethod
    def backward(ctx, grad):
        (cond,) = ctx.saved_tensors
        if cond._device != grad._device:
            cond = cond.to(grad._device)
        need_a, need_b = ctx.needs_input_grad[1:]
        grad_a = where(cond, grad, 0.0).sum_to_size(ctx.shapes[0]) if need_a else None
        grad_b = where(cond, 0.0, grad).sum_to_size(ctx.shapes[1]) if need_b else None
        return None, grad_a, grad_b


def _where_broadcast_error(*shapes):
    for i, a in enumerate(shapes):
        for b in shapes[i + 1:]:
            try:
                np.broadcast_shapes(a, b)
            except ValueError:
                return broadcast_error(a, b)
    return broadcast_error(shapes[0], shapes[1])


def where(condition: Tensor, a: Tensor | float, b: Tensor | float) -> Tensor:
    """Pick ``a`` where ``condition`` is True, else ``b`` (all three broadcast together)."""
    kind = condition._data.dtype
    if kind == np.uint8:
        warnings.warn(
            "where received a uint8 condition tensor. This behavior is deprecated and will be "
            "removed in a future version of PyTorch. Use a boolean condition instead.",
            UserWarning, stacklevel=2)
        condition = condition._new(condition._data.astype(bool))
    elif kind.kind != "b":
        raise RuntimeError(
            "where expected condition to be a boolean tensor, but got a tensor with dtype "
            f"{scalar_type(condition)}"
        )
    if not is_tensor(a) and not is_tensor(b):  # two numbers: their promoted dtype
        a = condition._new(condition._xp.asarray(a, dtype=result_type(a, b)))
    for number, other in ((a, b), (b, a)):
        if not is_tensor(number):
            target = result_type(other, number)  # a float16 takes any float (to inf) here
            check_fits(number, target, floats=target != np.float16)
    a, b = binary_operands(a, b)
    return Where.apply((condition,), a, b)
