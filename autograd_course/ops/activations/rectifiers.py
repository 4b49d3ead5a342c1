"""ReLU and its rectifying relatives: ``relu``, ``leaky_relu``, ``prelu`` (a learnt slope) and
``elu``: x itself for x > 0, and 0, a small slope, or a curve tending to -α below.

Each is an element-wise y = f(x), so its backward is dx = dy · f'(x). PyTorch records that
product as an op of its own (``ThresholdBackwardBackward0``, ``LeakyReluBackwardBackward0``...),
and so do we: the op's own backward gives second derivatives, d/d(dy) = gg · f'(x) and
d/dx = gg · dy · f''(x), written with tensor operations so that even third derivatives work.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...autograd import forward_ad
from ...autograd.function import Function
from ..combine import where
from ..in_place_form import check_inplace, written_in_place
from ..plain_backward import plain_backward
from ..promotion import check_float

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ...tensor import Tensor


# --- relu: f(x) = max(x, 0);  f'(x) = 1 (x > 0) or 0 -------------------------------------------
class Relu(Function):
    """y = max(x, 0);  dy/dx = 1 where x > 0, else 0."""

    node_name = "ReluBackward0"
    jvp = forward_ad.elementwise
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x):
        y = x._new(x._xp.maximum(x._data, 0))
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        if plain_backward(grad, y):  # nothing records it: ThresholdBackward's choice, no op
            return grad._new(_threshold_choice(grad, y, 0))
        return ThresholdBackward.apply(grad, y)


def _threshold_choice(grad, y, threshold):
    """The array grad where y > threshold, else 0."""
    zero = grad._data.dtype.type(0)  # of grad's dtype: the choice makes no second copy
    return grad._xp.where(y._data > threshold, grad._data, zero)


class ThresholdBackward(Function):
    """relu's backward as one op (PyTorch's ``threshold_backward``): grad where y > threshold
    (0 for relu), else 0 (a choice, not a product with a 0/1 mask: a NaN or inf gradient where
    y <= threshold gives 0, as in PyTorch). Its own derivative: the same choice on the incoming
    gradient, zeros for y."""

    node_name = "ThresholdBackwardBackward0"
    jvp = forward_ad.elementwise
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, grad, y, threshold=0):
        ctx.save_for_backward(y)
        ctx.threshold = threshold
        return grad._new(_threshold_choice(grad, y, threshold))

    @staticmethod
    def backward(ctx, gg):
        (y,) = ctx.saved_tensors
        need_grad, need_y = ctx.needs_input_grad[:2]
        return (ThresholdBackward.apply(gg, y, ctx.threshold) if need_grad else None,
                gg._new(gg._xp.zeros_like(gg._data)) if need_y else None, None)


# --- threshold: f(x) = x (x > t), value (x <= t);  f'(x) = 1 or 0 -----------------------------
class Threshold(Function):
    """y = x where x > threshold, else ``value``;  dy/dx = 1 where x > threshold, else 0."""

    node_name = "ThresholdBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x, threshold, value):
        ctx.save_for_backward(x)
        ctx.threshold = threshold
        data = x._data
        return x._new(x._xp.where(data > threshold, data, data.dtype.type(value)))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return ThresholdBackward.apply(grad, x, ctx.threshold), None, None


# --- leaky_relu: f(x) = x (x > 0), slope·x (x ≤ 0);  f'(x) = 1 or slope;  f'' = 0 ------------
class LeakyRelu(Function):
    """y = x for x > 0, slope·x otherwise;  dx = dy · (1 or slope)."""

    node_name = "LeakyReluBackward0"
    jvp = forward_ad.elementwise
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x, slope):
        ctx.slope = slope
        ctx.save_for_backward(x)
        data = x._data
        return x._new(x._xp.where(data > 0, data, data * data.dtype.type(slope)))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return LeakyReluBackward.apply(grad, x, ctx.slope), None


class LeakyReluBackward(Function):
    """dx = dy · (1 if x > 0 else slope). Linear in dy and flat in x, so its own backward is
    d/d(dy) = gg · (1 or slope) (this same op) and d/dx = 0."""

    node_name = "LeakyReluBackwardBackward0"
    jvp = forward_ad.elementwise
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, grad, x, slope):
        ctx.slope = slope
        ctx.save_for_backward(x)
        g = grad._data
        return grad._new(grad._xp.where(x._data > 0, g, g * g.dtype.type(slope)))

    @staticmethod
    def backward(ctx, gg):
        (x,) = ctx.saved_tensors
        need_grad, need_x = ctx.needs_input_grad[:2]
        return (LeakyReluBackward.apply(gg, x, ctx.slope) if need_grad else None,
                gg * 0.0 if need_x else None, None)


class LeakyReluInplace(Function):
    """``leaky_relu(x, inplace=True)``: x is overwritten, so the output is saved instead
    (it has x's sign when slope > 0);  dx = dy · (1 if y > 0 else slope), as tensor ops."""

    node_name = "LeakyReluBackward1"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x, slope):
        ctx.slope = slope
        data = x._data
        out = x._new(x._xp.where(data > 0, data, data * data.dtype.type(slope)))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        slope = ctx.slope
        return grad * ((y > 0).to(y.dtype) * (1.0 - slope) + slope), None


# --- elu: f(x) = x (x > 0), α(eˣ - 1) (x ≤ 0);  f'(x) = 1 or αeˣ;  f''(x) = 0 or αeˣ --------
def _elu_curve(x, alpha):
    """αeˣ where x ≤ 0 and 0 elsewhere, as tensor ops (f'' of elu, and f' - 1 on x ≤ 0)."""
    return (x.clamp(max=0.0).exp() * alpha).masked_fill(x > 0, 0.0)


class Elu(Function):
    """y = x for x > 0, α(eˣ - 1) otherwise;  dx = dy · (1 or αeˣ)."""

    node_name = "EluBackward0"
    jvp = forward_ad.elementwise
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x, alpha):
        ctx.alpha = alpha
        ctx.save_for_backward(x)
        xp, data = x._xp, x._data
        negative = xp.expm1(xp.minimum(data, 0)) * data.dtype.type(alpha)
        return x._new(xp.where(data > 0, data, negative))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return EluBackward.apply(grad, x, ctx.alpha), None


class EluBackward(Function):
    """dx = dy · (1 if x > 0 else αeˣ);  its backward: d/d(dy) = gg · (1 or αeˣ),
    d/dx = gg · dy · (0 or αeˣ)."""

    node_name = "EluBackwardBackward0"
    jvp = forward_ad.elementwise
    saved_names = ("grad_output", "self_or_result")

    @staticmethod
    def forward(ctx, grad, x, alpha):
        ctx.alpha = alpha
        ctx.save_for_backward(grad, x)
        xp, data, g = x._xp, x._data, grad._data
        slope = xp.exp(xp.minimum(data, 0)) * data.dtype.type(alpha)
        return grad._new(xp.where(data > 0, g, g * slope))

    @staticmethod
    def backward(ctx, gg):
        grad, x = ctx.saved_tensors
        need_grad, need_x = ctx.needs_input_grad[:2]
        return (EluBackward.apply(gg, x, ctx.alpha) if need_grad else None,
                gg * grad * _elu_curve(x, ctx.alpha) if need_x else None, None)


class EluInplace(Function):
    """``elu(x, inplace=True)``: the output y is saved (x is overwritten); for x ≤ 0,
    f'(x) = αeˣ = y + α, so dx = dy · (1 if y > 0 else y + α), as tensor ops."""

    node_name = "EluBackward1"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x, alpha):
        ctx.alpha = alpha
        xp, data = x._xp, x._data
        negative = xp.expm1(xp.minimum(data, 0)) * data.dtype.type(alpha)
        out = x._new(xp.where(data > 0, data, negative))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return grad * (y + ctx.alpha).masked_fill(y > 0, 1.0), None


# --- prelu: leaky_relu with a learnt slope a, one per channel (or one for all) ---------------
class Prelu(Function):
    """x where x ≥ 0, else a·x (a learnt, one per channel or one for all);
    d/dx = 1 or a,  d/da = x where x < 0."""

    node_name = "PreluKernelBackward0"

    @staticmethod
    def forward(ctx, x, weight, shape):
        ctx.save_for_backward(x, weight)
        ctx.shape = shape
        slope = weight._data.reshape(shape)
        return x._new(x._xp.where(x._data >= 0, x._data, x._data * slope))

    @staticmethod
    def backward(ctx, grad):
        x, weight = ctx.saved_tensors
        slope = weight.reshape(ctx.shape)
        grad_x = where(x >= 0, grad, grad * slope)
        grad_w = where(x >= 0, 0.0, grad * x).sum_to_size(ctx.shape).reshape(weight.shape)
        return grad_x, grad_w, None


# --- the functions ----------------------------------------------------------------------------
# inplace=True: x is overwritten (ops/inplace.py); leaky_relu's and elu's then save their result
LeakyRelu_, Elu_ = map(written_in_place, (LeakyReluInplace, EluInplace))


class ThresholdInplace(Threshold):
    node_name = "ThresholdBackward1"  # PyTorch's name for threshold_'s node


Threshold_ = written_in_place(ThresholdInplace)


def threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:
    """x where x > ``threshold``, else ``value`` (relu is threshold 0, value 0)."""
    if inplace:
        check_inplace(input)
        return Threshold_.apply(input, threshold, value)
    return Threshold.apply(input, threshold, value)


def relu(input: Tensor) -> Tensor:
    if input._data.dtype.kind == "b":
        raise RuntimeError("Boolean inputs not supported for relu")
    return Relu.apply(input)


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    """x for x > 0, ``negative_slope``·x otherwise: a ReLU whose negative side still learns."""
    check_float(input, "leaky_relu_cpu")
    if inplace:
        if negative_slope < 0:
            raise RuntimeError(
                "In-place leakyReLu backward calculation is triggered with a negative slope "
                "which is not supported. This is caused by calling in-place forward function "
                "with a negative slope, please call out-of-place version instead.")
        check_inplace(input)
        return LeakyRelu_.apply(input, negative_slope)
    return LeakyRelu.apply(input, negative_slope)


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """x for x > 0, α(eˣ - 1) otherwise: smooth at 0 when α = 1, and tends to -α."""
    check_float(input, "elu_cpu")
    if inplace:
        check_inplace(input)
        return Elu_.apply(input, alpha)
    return Elu.apply(input, alpha)


def prelu(input: Tensor, weight: Tensor) -> Tensor:
    """Leaky ReLU with a learnt slope ``weight`` (one value, or one per channel: dim 1)."""
    if input.ndim == 0 and weight.numel() != 1:
        raise RuntimeError("Not allow zero-dim input tensor.")
    if weight.ndim > 1:
        raise RuntimeError("prelu: Expected `weight` to be a scalar or 1D tensor, but got: "
                           f"ndim = {weight.ndim}")
    n = weight.numel()
    if n != 1 and (input.ndim < 2 or input.shape[1] != n):
        channels = input.shape[1] if input.ndim >= 2 else 1
        raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found "
                           f"parameter numbers = {n} and channel size = {channels}.")
    shape = (1,) * input.ndim if n == 1 else (1, n) + (1,) * (input.ndim - 2)
    return Prelu.apply(input, weight, shape)
