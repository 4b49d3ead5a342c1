"""Smooth relatives of ReLU: ``gelu``, ``silu`` (swish), ``softplus``, ``mish``, ``hardswish``,
and ``logsigmoid``, which is -softplus(-x), a smooth min(x, 0).

* gelu(x) = x Φ(x)                            d/dx = Φ(x) + x φ(x)
* silu(x) = x σ(x)                            d/dx = σ(x)(1 + x(1 - σ(x)))
* softplus(x) = log(1 + e^(βx)) / β           d/dx = σ(βx)   (x itself past the threshold)
* logsigmoid(x) = log σ(x) = -softplus(-x)    d/dx = σ(-x)
* mish(x) = x · tanh(softplus(x))             d/dx = tanh(sp) + x σ(x) (1 - tanh²(sp))
* hardswish(x) = x · clamp(x + 3, 0, 6) / 6   d/dx = 0 below -3, (2x + 3) / 6 up to 3, then 1

gelu's backward is an op of its own (``GeluBackwardBackward0``), whose backward gives second
derivatives, d/d(dy) = gg · f'(x) and d/dx = gg · dy · f''(x); the others' are tensor ops.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ... import _backend
from ...autograd import forward_ad
from ...autograd.function import Function
from ..combine import where
from ..in_place_form import check_inplace, written_in_place
from ..promotion import check_float

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ...tensor import Tensor


_SQRT_2PI = math.sqrt(2.0 * math.pi)
_TANH_K = math.sqrt(2.0 / math.pi)  # GELU's tanh approximation: tanh(k (x + c x³))
_TANH_C = 0.044715


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
    jvp = forward_ad.elementwise
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
    jvp = forward_ad.elementwise
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
    jvp = forward_ad.elementwise
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


# --- softplus, logsigmoid, mish, hardswish: the formulas are in the docstring above ----------
class Softplus(Function):
    node_name = "SoftplusBackward0"
    jvp = forward_ad.elementwise

    @staticmethod
    def forward(ctx, x, beta, threshold):
        ctx.save_for_backward(x)
        ctx.beta, ctx.threshold = beta, threshold
        xp, data = x._xp, x._data
        scaled = data * beta
        smooth = xp.logaddexp(0, scaled) / beta
        return x._new(xp.where(scaled > threshold, data, smooth).astype(data.dtype))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        scaled = x * ctx.beta
        return where(scaled > ctx.threshold, grad, grad * scaled.sigmoid()), None, None


class LogSigmoid(Function):
    node_name = "LogSigmoidBackward0"
    jvp = forward_ad.elementwise

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x._new((-x._xp.logaddexp(0, -x._data)).astype(x._data.dtype))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * (-x).sigmoid()


class Mish(Function):
    node_name = "MishBackward0"
    jvp = forward_ad.elementwise

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        xp, data = x._xp, x._data
        return x._new((data * xp.tanh(xp.logaddexp(0, data))).astype(data.dtype))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        t = softplus(x).tanh()
        return grad * (t + x * x.sigmoid() * (1 - t * t))


class Hardswish(Function):
    node_name = "HardswishBackward0"
    jvp = forward_ad.elementwise

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        data = x._data
        return x._new((data * x._xp.clip(data + 3, 0, 6) / 6).astype(data.dtype))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        middle = where(x <= 3, grad * (x / 3 + 0.5), grad)
        return where(x < -3, 0.0, middle)


# --- the functions ----------------------------------------------------------------------------
Silu_ = written_in_place(Silu)  # silu(x, inplace=True): x is overwritten (ops/inplace.py)


def _refuse_integers(input, name):
    """PyTorch's error of softplus, logsigmoid, mish and hardswish for an integer or bool
    tensor; it names the tensor's dtype ('Int', 'Short', 'Bool')."""
    check_float(input, name)


def gelu(input: Tensor, *, approximate: str = "none") -> Tensor:
    """x Φ(x): each input weighted by how likely a standard normal is below it (BERT, GPT)."""
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    check_float(input, "GeluKernelImpl")
    return Gelu.apply(input, approximate)


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    """x σ(x), also called swish."""
    check_float(input, "silu_cpu")
    if inplace:
        check_inplace(input)
        return Silu_.apply(input)
    return Silu.apply(input)


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    """A smooth ReLU: ``log(1 + exp(beta * x)) / beta`` (x itself where beta * x > threshold)."""
    _refuse_integers(input, "softplus_cpu")
    return Softplus.apply(input, beta, threshold)


def logsigmoid(input: Tensor) -> Tensor:
    """``log(sigmoid(x))``, computed without overflow."""
    _refuse_integers(input, "log_sigmoid_cpu")
    return LogSigmoid.apply(input)


def mish(input: Tensor, inplace: bool = False) -> Tensor:
    """``x * tanh(softplus(x))``."""
    if inplace:
        raise NotImplementedError("mish(inplace=True) is not supported here")
    _refuse_integers(input, "mish_cpu")
    return Mish.apply(input)


def hardswish(input: Tensor, inplace: bool = False) -> Tensor:
    """``x * relu6(x + 3) / 6``: a piecewise-quadratic swish."""
    if inplace:
        raise NotImplementedError("hardswish(inplace=True) is not supported here")
    _refuse_integers(input, "hardswish_cpu")
    return Hardswish.apply(input)
