"""Smooth and leaky relatives of ReLU: ``leaky_relu``, ``elu``, ``gelu`` and ``silu``.

Each is an element-wise y = f(x), so its backward is dx = dy · f'(x). PyTorch records that
product as an op of its own (``LeakyReluBackwardBackward0``...), and so do we: the op's own
backward gives second derivatives, d/d(dy) = gg · f'(x) and d/dx = gg · dy · f''(x), written
with tensor operations so that even third derivatives work.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .. import _backend
from ..autograd.function import Function
from .in_place_form import written_in_place
from .inplace import check_inplace

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor

_SQRT_2PI = math.sqrt(2.0 * math.pi)
_TANH_K = math.sqrt(2.0 / math.pi)  # GELU's tanh approximation: tanh(k (x + c x³))
_TANH_C = 0.044715


# --- leaky_relu: f(x) = x (x > 0), slope·x (x ≤ 0);  f'(x) = 1 or slope;  f'' = 0 ------------
class LeakyRelu(Function):
    """y = x for x > 0, slope·x otherwise;  dx = dy · (1 or slope)."""

    node_name = "LeakyReluBackward0"
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


# --- gelu: f(x) = x Φ(x), Φ the standard normal CDF (or its tanh approximation) -------------
def _gelu_slope_array(xp, x, approximate):
    """f'(x) on an array: Φ(x) + x φ(x) exactly, or the derivative of the tanh form."""
    if approximate == "tanh":
        t = xp.tanh(_TANH_K * (x + _TANH_C * x ** 3))
        return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * _TANH_K * (1 + 3 * _TANH_C * x * x)
    cdf = 0.5 * (1.0 + _backend.erf(xp, x / math.sqrt(2.0)))
    return cdf + x * xp.exp(-0.5 * x * x) / _SQRT_2PI


def _gelu_curve(x, approximate):
    """f''(x) as tensor ops: φ(x)(2 - x²) exactly; for the tanh form, with u = k(x + c x³)
    and t = tanh u:  (1 - t²) (u' - x t u'² + x u''/2)."""
    if approximate == "tanh":
        t = ((x + x * x * x * _TANH_C) * _TANH_K).tanh()
        du = (x * x * (3 * _TANH_C) + 1.0) * _TANH_K
        d2u = x * (6 * _TANH_C * _TANH_K)
        return (1.0 - t * t) * (du - x * t * du * du + x * d2u * 0.5)
    pdf = (x * x * -0.5).exp() * (1.0 / _SQRT_2PI)
    return pdf * (2.0 - x * x)


class Gelu(Function):
    """y = x Φ(x) = x · ½(1 + erf(x/√2))  (or ½x(1 + tanh(k(x + c x³))) with
    ``approximate='tanh'``);  dx = dy · (Φ(x) + x φ(x))."""

    node_name = "GeluBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x, approximate):
        ctx.approximate = approximate
        ctx.save_for_backward(x)
        xp, data = x._xp, x._data
        wide = data.astype(xp.float64)  # computed in double, rounded once to x's dtype
        if approximate == "tanh":
            y = 0.5 * wide * (1 + xp.tanh(_TANH_K * (wide + _TANH_C * wide ** 3)))
        else:
            y = 0.5 * wide * (1.0 + _backend.erf(xp, wide / math.sqrt(2.0)))
        return x._new(y.astype(data.dtype))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return GeluBackward.apply(grad, x, ctx.approximate), None


class GeluBackward(Function):
    """dx = dy · f'(x);  its backward: d/d(dy) = gg · f'(x),  d/dx = gg · dy · f''(x)."""

    node_name = "GeluBackwardBackward0"
    saved_names = ("grad_output", "self")

    @staticmethod
    def forward(ctx, grad, x, approximate):
        ctx.approximate = approximate
        ctx.save_for_backward(grad, x)
        xp, data = x._xp, x._data
        slope = _gelu_slope_array(xp, data.astype(xp.float64), approximate)
        return grad._new((grad._data * slope).astype(grad._data.dtype))

    @staticmethod
    def backward(ctx, gg):
        grad, x = ctx.saved_tensors
        need_grad, need_x = ctx.needs_input_grad[:2]
        return (GeluBackward.apply(gg, x, ctx.approximate) if need_grad else None,
                gg * grad * _gelu_curve(x, ctx.approximate) if need_x else None, None)


# --- silu: f(x) = x σ(x);  f'(x) = σ(x)(1 + x(1 - σ(x))) -----------------------------------
class Silu(Function):
    """y = x σ(x) (also called swish);  dx = dy · σ(x)(1 + x(1 - σ(x))).

    Its backward is written with tensor ops, as PyTorch's is (so the second derivative's node
    is ``MulBackward0``)."""

    node_name = "SiluBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        xp, data = x._xp, x._data
        one = data.dtype.type(1)
        return x._new(data / (one + xp.exp(-data)))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        s = x.sigmoid()
        return grad * (s * (1.0 + x * (1.0 - s)))


# --- the functions ----------------------------------------------------------------------------
# inplace=True: x is overwritten (ops/inplace.py); leaky_relu's and elu's then save their result
LeakyRelu_, Elu_, Silu_ = map(written_in_place, (LeakyReluInplace, EluInplace, Silu))


def _check_float(x, name: str) -> None:
    if x._data.dtype.kind not in "fc":
        raise NotImplementedError(f'"{name}" not implemented for \'{_type_name(x)}\'')


def _type_name(x) -> str:
    return {"int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte",
            "bool": "Bool"}.get(x.dtype.name, x.dtype.name)


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    """x for x > 0, ``negative_slope``·x otherwise: a ReLU whose negative side still learns."""
    _check_float(input, "leaky_relu_cpu")
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
    _check_float(input, "elu_cpu")
    if inplace:
        check_inplace(input)
        return Elu_.apply(input, alpha)
    return Elu.apply(input, alpha)


def gelu(input: Tensor, *, approximate: str = "none") -> Tensor:
    """x Φ(x): each input weighted by how likely a standard normal is below it (BERT, GPT)."""
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    _check_float(input, "GeluKernelImpl")
    return Gelu.apply(input, approximate)


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    """x σ(x), also called swish."""
    _check_float(input, "silu_cpu")
    if inplace:
        check_inplace(input)
        return Silu_.apply(input)
    return Silu.apply(input)
