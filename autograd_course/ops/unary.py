"""Element-wise functions of one tensor: exp, log, sqrt, abs, sin, cos, tanh, sigmoid, relu,
clamp. Each docstring states the derivative the ``backward`` applies."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

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


class Tanh(Function):
    """y = tanh x;  dy/dx = 1 - y²."""

    node_name = "TanhBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x):
        y = x._new(x._xp.tanh(x._data))
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return TanhBackward.apply(grad, y)


class TanhBackward(Function):
    """tanh's backward, grad · (1 - y²), as ONE op (PyTorch's ``tanh_backward``): one step in
    the engine instead of three tensor ops. It records itself when ``create_graph=True``:
    d/dgrad = 1 - y²,  d/dy = -2 · y · grad."""

    node_name = "TanhBackwardBackward0"
    saved_names = ("grad_output", "output")

    @staticmethod
    def forward(ctx, grad, y):
        ctx.save_for_backward(grad, y)
        data = y._data
        return grad._new(grad._data * (1.0 - data * data))

    @staticmethod
    def backward(ctx, gg):
        grad, y = ctx.saved_tensors
        need_grad, need_y = ctx.needs_input_grad
        return (TanhBackward.apply(gg, y) if need_grad else None,
                gg * grad * y * -2.0 if need_y else None)


class Sigmoid(Function):
    """y = 1 / (1 + e^-x);  dy/dx = y (1 - y)."""

    node_name = "SigmoidBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x):
        xp, data = x._xp, x._data
        # PyTorch's kernel, 1 / (1 + e^-x), so values match it bit for bit far more often;
        # e^-x is taken in float64 and rounded, as close as NumPy gets to PyTorch's float32
        # exp. For x < -88 it overflows to inf and y is 0, as in PyTorch. float16 is
        # computed in float32 and rounded once at the end (PyTorch's half kernels do so).
        work = xp.float32 if data.dtype == xp.float16 else data.dtype
        with np.errstate(over="ignore"):
            e = xp.exp(-data.astype(xp.float64)).astype(work, copy=False)
        y = x._new((1.0 / (1.0 + e)).astype(data.dtype, copy=False))
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return SigmoidBackward.apply(grad, y)


class SigmoidBackward(Function):
    """sigmoid's backward, grad · y(1 - y), as one op (PyTorch's ``sigmoid_backward``):
    d/dgrad = y(1 - y),  d/dy = grad · (1 - 2y)."""

    node_name = "SigmoidBackwardBackward0"
    saved_names = ("grad_output", "output")

    @staticmethod
    def forward(ctx, grad, y):
        ctx.save_for_backward(grad, y)
        data = y._data
        return grad._new(grad._data * (data * (1.0 - data)))

    @staticmethod
    def backward(ctx, gg):
        grad, y = ctx.saved_tensors
        need_grad, need_y = ctx.needs_input_grad
        return (SigmoidBackward.apply(gg, y) if need_grad else None,
                gg * grad * (1.0 - 2.0 * y) if need_y else None)


class Relu(Function):
    """y = max(x, 0);  dy/dx = 1 where x > 0, else 0."""

    node_name = "ReluBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x):
        y = x._new(x._xp.maximum(x._data, 0))
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return ThresholdBackward.apply(grad, y)


class ThresholdBackward(Function):
    """relu's backward as one op (PyTorch's ``threshold_backward``): grad where y > 0, else 0
    (a choice, not a product with a 0/1 mask: a NaN or inf gradient where y <= 0 gives 0, as in
    PyTorch). Its own derivative: the same choice on the incoming gradient, zeros for y."""

    node_name = "ThresholdBackwardBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, grad, y):
        ctx.save_for_backward(y)
        zero = grad._data.dtype.type(0)  # of grad's dtype: the choice makes no second copy
        return grad._new(grad._xp.where(y._data > 0, grad._data, zero))

    @staticmethod
    def backward(ctx, gg):
        (y,) = ctx.saved_tensors
        need_grad, need_y = ctx.needs_input_grad
        return (ThresholdBackward.apply(gg, y) if need_grad else None,
                gg._new(gg._xp.zeros_like(gg._data)) if need_y else None)


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


def tanh(input: Tensor) -> Tensor:
    return Tanh.apply(floating(input))


def sigmoid(input: Tensor) -> Tensor:
    return Sigmoid.apply(floating(input))


def relu(input: Tensor) -> Tensor:
    if input._data.dtype.kind == "b":
        raise RuntimeError("Boolean inputs not supported for relu")
    return Relu.apply(input)


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
