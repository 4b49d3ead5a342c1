"""Clamping: values limited to a range, ``clamp`` (also ``clip``) and ``clamp_min``, and
``nan_to_num``, which turns NaN and ±inf into finite numbers.

* clamp(x, lo, hi) = min(max(x, lo), hi)    d/dx = 1 inside [lo, hi], 0 where clamped;
  tensor bounds get the gradient where they were taken
* clamp_min(x, lo) = max(x, lo)             d/dx = 1 where x >= lo, else 0
* nan_to_num(x)                             d/dx = 1 where x is finite, else 0

(``hardtanh``, a clamp with its own gradient at the edges, is an activation:
activations/sigmoids.py.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..autograd import forward_ad
from ..autograd.function import Function
from ..tensor_base import TensorBase
from .broadcasting import broadcast_shape, sum_to
from .combine import where
from .compare import isfinite
from .operands import check_fits, number_array, tensor_first
from .promotion import cast_to, not_implemented, result_type

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


class Clamp(Function):
    """y = min(max(x, lo), hi) with number bounds;  dy/dx = 1 inside [lo, hi], 0 where
    clamped."""

    node_name = "ClampBackward1"
    jvp = forward_ad.elementwise
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x, lo, hi):
        ctx.save_for_backward(x)
        ctx.lo, ctx.hi = lo, hi
        xp, dtype = x._xp, x._data.dtype
        bounds = [v if v is None else v._data if isinstance(v, TensorBase) else
                  number_array(xp, v, dtype) for v in (lo, hi)]  # a number wraps as in `+`
        return x._new(xp.clip(x._data, *bounds).astype(dtype, copy=False))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        inside = x == x
        if ctx.lo is not None:
            inside = inside & (x >= ctx.lo)
        if ctx.hi is not None:
            inside = inside & (x <= ctx.hi)
        return grad * inside.to(grad.dtype), None, None


class ClampTensors(Function):
    """y = min(max(x, lo), hi) with tensor bounds (either may be None), broadcast together.

    Each element's gradient goes to the one tensor whose value it took: x where
    lo <= x <= hi (a tie goes to x), lo where x < lo < hi, hi where x > hi or hi < lo (when
    the bounds cross, every element is hi)."""

    node_name = "ClampBackward0"
    jvp = forward_ad.elementwise
    saved_names = ("self", "min", "max")

    @staticmethod
    def forward(ctx, x, lo, hi):
        ctx.save_for_backward(x, lo, hi)
        xp, dtype = x._xp, x._data.dtype
        bounds = [None if v is None else v._data for v in (lo, hi)]
        return x._new(xp.clip(x._data, *bounds).astype(dtype, copy=False))

    @staticmethod
    def backward(ctx, grad):
        x, lo, hi = ctx.saved_tensors
        to_x, to_lo, to_hi = x == x, None, None
        if lo is not None:
            to_x = to_x & (x >= lo)
            to_lo = x < lo if hi is None else (x < lo) & (lo < hi)
        if hi is not None:
            to_x = to_x & (x <= hi)
            to_hi = x > hi if lo is None else (x > hi) | (hi < lo)
        return tuple(None if to is None else sum_to(where(to, grad, 0.0), t.shape)
                     for to, t in ((to_x, x), (to_lo, lo), (to_hi, hi)))


class ClampMin(Function):
    node_name = "ClampMinBackward0"
    jvp = forward_ad.elementwise

    @staticmethod
    def forward(ctx, x, low):
        ctx.save_for_backward(x)
        ctx.low = low
        return x._new(x._xp.maximum(x._data, x._xp.asarray(low, dtype=x._data.dtype)))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return where(x >= ctx.low, grad, 0.0), None


class ClampMinTensor(Function):
    """y = max(x, lo) for a tensor ``lo`` (the two broadcast);  dy/dx = 1 where x >= lo,
    dy/dlo = 1 where x < lo (a tie goes to x)."""

    node_name = "ClampMinBackward1"
    jvp = forward_ad.elementwise

    @staticmethod
    def forward(ctx, x, low):
        ctx.save_for_backward(x, low)
        return x._new(x._xp.maximum(x._data, low._data))

    @staticmethod
    def backward(ctx, grad):
        x, low = ctx.saved_tensors
        kept = x >= low
        grad_x = sum_to(where(kept, grad, 0.0), x.shape) if ctx.needs_input_grad[0] else None
        grad_low = sum_to(where(kept, 0.0, grad), low.shape) if ctx.needs_input_grad[1] else None
        return grad_x, grad_low


class NanToNum(Function):
    """NaN, +inf and -inf replaced by numbers;  the gradient is 0 at those places."""

    node_name = "NanToNumBackward0"
    jvp = forward_ad.elementwise

    @staticmethod
    def forward(ctx, x, nan, posinf, neginf):
        ctx.save_for_backward(x)
        return x._new(x._xp.nan_to_num(x._data, nan=nan, posinf=posinf, neginf=neginf))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return where(isfinite(x), grad, 0.0), None, None, None


def clamp(input: Tensor, min: float | Tensor | None = None,  # PyTorch's keyword names
          max: float | Tensor | None = None) -> Tensor:
    """min(max(x, min), max), in the dtype ``x`` and the bounds promote to (so an integer
    tensor clamped at 2.5 becomes float32, and a bool tensor clamped at 1 int64)."""
    target, min, max = clamp_bounds(input, min, max)
    if isinstance(min, TensorBase) or isinstance(max, TensorBase):  # the bounds get gradients
        shape = input.shape
        for bound in (min, max):
            shape = shape if bound is None else broadcast_shape(shape, bound.shape)
        if shape != input.shape:  # PyTorch's clamp keeps x's shape
            raise RuntimeError(f"output with shape {list(input.shape)} doesn't match the "
                               f"broadcast shape {list(shape)}")
        return ClampTensors.apply(cast_to(target, input)[0], min, max)
    return Clamp.apply(cast_to(target, input)[0], min, max)


def clamp_bounds(input: Tensor, min: float | Tensor | None, max: float | Tensor | None):
    """clamp's checks of its bounds; the dtype it computes in and the bounds, a tensor one
    cast to that dtype, and a number one made a tensor when the other is a tensor
    (``clamp_`` takes them too)."""
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    target = result_type(input, min, max)
    tensors = isinstance(min, TensorBase) + isinstance(max, TensorBase)
    if target.kind == "b" and (tensors == 0 or tensors == 2):  # bool: one tensor bound only
        kernel = "clamp_cpu" if tensors else (
            "clamp_scalar_cpu" if min is not None and max is not None else (
                "clamp_min_scalar_cpu" if min is not None else "clamp_max_scalar_cpu"))
        raise not_implemented(kernel, input)
    check_fits(min, target)
    check_fits(max, target)
    if tensors:  # a number bound next to a tensor one becomes a tensor too
        return (target, *(v if v is None else cast_to(target, v)[0] if
                          isinstance(v, TensorBase) else input._new(
                              number_array(input._xp, v, target)) for v in (min, max)))
    return target, min, max


clip = clamp


CLAMP_MIN_SIGNATURES = ("Tensor input, Tensor min, *, Tensor out = None",
                        "Tensor input, Number min, *, Tensor out = None")


def clamp_min(input: Tensor, min: float | Tensor) -> Tensor:  # PyTorch's parameter name
    """``clamp(input, min=min)``: every element at least ``min``, a number or a tensor (which
    broadcasts with ``input`` and gets a gradient where it wins), in the promoted dtype."""
    tensor_first("clamp_min", input, min, signatures=CLAMP_MIN_SIGNATURES)
    target, low, _ = clamp_bounds(input, min, None)
    input = cast_to(target, input)[0]
    if isinstance(low, TensorBase):
        return ClampMinTensor.apply(input, low)
    return ClampMin.apply(input, low)


def nan_to_num(input: Tensor, nan: float = 0.0, posinf: float | None = None,
               neginf: float | None = None) -> Tensor:
    """NaN → ``nan``, ±inf → ``posinf``/``neginf`` (default: the dtype's largest/lowest)."""
    if input._data.dtype.kind not in "fc":
        return input.clone()
    return NanToNum.apply(input, nan, posinf, neginf)
