"""Element-wise functions of one tensor: exp, log, sqrt, abs, sin, cos, tanh, sigmoid, relu,
clamp. Each docstring states the derivative the ``backward`` applies."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..autograd.function import Function
from ..tensor_base import TensorBase
from .operands import check_fits, number_array
from .out_arg import write_out
from .promotion import cast_to, floating, not_implemented, result_type, scalar_type

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


class Exp(Function):
    """y = e^x;  dy/dx = e^x = y (so the output is what gets saved)."""

    node_name = "ExpBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x):
        y = x._new(x._xp.exp(x._data))
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return grad * y


class Log(Function):
    """y = ln x;  dy/dx = 1/x."""

    node_name = "LogBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x._new(x._xp.log(x._data))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad / x


class Sqrt(Function):
    """y = √x;  dy/dx = 1 / (2√x) = 1 / (2y)."""

    node_name = "SqrtBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x):
        y = x._new(x._xp.sqrt(x._data))
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return grad / (y * 2.0)


class Abs(Function):
    """y = |x|;  dy/dx = sign(x) (0 at x = 0, as PyTorch chooses)."""

    node_name = "AbsBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x._new(x._xp.abs(x._data))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * x.sign()


class Sign(Function):
    """y = sign(x) (0 for NaN, as PyTorch gives);  dy/dx = 0 everywhere it exists."""

    node_name = "SignBackward0"

    @staticmethod
    def forward(ctx, x):
        xp, data = x._xp, x._data
        if data.dtype.kind == "b":
            return x._new(data.copy())
        out = xp.sign(data)
        if data.dtype.kind == "f":
            out = xp.where(xp.isnan(data), out.dtype.type(0), out)
        return x._new(out)

    @staticmethod
    def backward(ctx, grad):
        return grad * 0.0


class Sin(Function):
    """y = sin x;  dy/dx = cos x."""

    node_name = "SinBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x._new(x._xp.sin(x._data))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * x.cos()


class Cos(Function):
    """y = cos x;  dy/dx = -sin x."""

    node_name = "CosBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x._new(x._xp.cos(x._data))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * -x.sin()


class Clamp(Function):
    """y = min(max(x, lo), hi);  dy/dx = 1 inside [lo, hi], 0 where clamped."""

    node_name = "ClampBackward1"
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


# Float functions of an integer or bool tensor compute in the default float type (float32),
# as PyTorch's do: ``floating`` casts such inputs first.
def exp(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    if out is not None:
        return write_out(out, exp, input)
    return Exp.apply(floating(input))


def log(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    if out is not None:
        return write_out(out, log, input)
    return Log.apply(floating(input))


def sqrt(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    if out is not None:
        return write_out(out, sqrt, input)
    return Sqrt.apply(floating(input))


def abs(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    if out is not None:
        return write_out(out, abs, input)
    if input._data.dtype.kind == "b":
        raise not_implemented("abs_cpu", input)
    return Abs.apply(input)


def sign(input: Tensor) -> Tensor:
    return Sign.apply(input)


def sin(input: Tensor) -> Tensor:
    return Sin.apply(floating(input))


def cos(input: Tensor) -> Tensor:
    return Cos.apply(floating(input))


def clamp(input: Tensor, min: float | Tensor | None = None,  # PyTorch's keyword names
          max: float | Tensor | None = None) -> Tensor:
    """min(max(x, min), max), in the dtype ``x`` and the bounds promote to (so an integer
    tensor clamped at 2.5 becomes float32, and a bool tensor clamped at 1 int64)."""
    target, min, max = clamp_bounds(input, min, max)
    return Clamp.apply(cast_to(target, input)[0], min, max)


def clamp_bounds(input: Tensor, min: float | Tensor | None, max: float | Tensor | None):
    """clamp's checks of its bounds; the dtype it computes in and the bounds, a tensor one
    cast to that dtype (``clamp_`` takes them too)."""
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
    return (target, *(v if v is None or isinstance(v, (int, float)) else cast_to(target, v)[0]
                      for v in (min, max)))


clip = clamp

_ = scalar_type
