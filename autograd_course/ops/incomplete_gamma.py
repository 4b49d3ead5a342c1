"""The regularized incomplete gamma functions, ``igamma`` and ``igammac``.

* igamma(a, x)  = P(a, x) = 1/Γ(a) ∫₀ˣ t^(a-1) e^(-t) dt        (the lower one)
* igammac(a, x) = Q(a, x) = 1 - P(a, x)                           (the upper one)

  ∂P/∂x = x^(a-1) e^(-x) / Γ(a) = exp((a - 1) log x - x - lgamma(a)),   ∂Q/∂x = -∂P/∂x

PyTorch gives no derivative in ``a`` (backward raises "the derivative for 'igamma: input' is
not implemented."), and no forward-mode rule at all: with a dual input, both refuse with the
not-implemented error naming the op. They take floating-point tensors only.

The values come from the two classic expansions (Numerical Recipes §6.2): for x < a + 1 the
series P = e^(-x) x^a / Γ(a) · Σₙ xⁿ / (a (a+1) ... (a+n)), otherwise the continued fraction
for Q, each summed until a term no longer changes the result in float64.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from .. import _backend
from ..autograd.function import Function
from .broadcasting import broadcast_shape
from .operands import binary_operands, tensors_only
from .promotion import scalar_type

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor

_EPS, _TINY, _STEPS = np.finfo(np.float64).eps, 1e-300, 10_000


def _series(a: float, x: float) -> float:
    """P(a, x) = e^(-x) x^a / Γ(a+1) · (1 + x/(a+1) + x²/((a+1)(a+2)) + ...), for x < a + 1."""
    term = total = 1.0 / a
    for n in range(1, _STEPS):
        term *= x / (a + n)
        total += term
        if abs(term) < abs(total) * _EPS:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _continued_fraction(a: float, x: float) -> float:
    """Q(a, x) by its continued fraction (modified Lentz), for x >= a + 1."""
    b = x + 1.0 - a
    c, d = 1.0 / _TINY, 1.0 / b
    h = d
    for i in range(1, _STEPS):
        an, b = -i * (i - a), b + 2.0
        d = an * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1.0 / d
        h *= d * c
        if abs(d * c - 1.0) < _EPS:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def _edge(a: float, x: float):
    """P(a, x) where PyTorch gives it without computing (nan for a negative argument), else
    None."""
    if math.isnan(a) or math.isnan(x) or a < 0 or x < 0 or (a == 0 and x == 0):
        return math.nan
    if a == 0 or math.isinf(x):
        return math.nan if math.isinf(a) else 1.0
    if x == 0 or math.isinf(a):
        return 0.0
    return None


def lower(a: float, x: float) -> float:
    """P(a, x), with PyTorch's values at the edges."""
    p = _edge(a, x)
    if p is not None:
        return p
    return _series(a, x) if x < a + 1 else 1.0 - _continued_fraction(a, x)


def upper(a: float, x: float) -> float:
    """Q(a, x) = 1 - P(a, x), computed directly where P is close to 1 (no cancellation)."""
    p = _edge(a, x)
    if p is not None:
        return 1.0 - p  # (exact at the edges: 1 - 1, 1 - 0, and nan stays nan)
    return 1.0 - _series(a, x) if x < a + 1 else _continued_fraction(a, x)


class Igamma(Function):
    """y = P(a, x) (``ctx.upper``: Q(a, x)); no jvp: PyTorch has none."""

    node_name = "IgammaBackward0"

    @staticmethod
    def forward(ctx, a, x, upper_one=False):
        ctx.save_for_backward(a, x)
        ctx.upper = upper_one
        values = np.vectorize(upper if upper_one else lower, otypes=[np.float64])(
            _backend.to_numpy(a._data), _backend.to_numpy(x._data))
        return a._new(a._xp.asarray(values.astype(a._data.dtype)))

    @staticmethod
    def backward(ctx, grad):
        a, x = ctx.saved_tensors
        name = "igammac" if ctx.upper else "igamma"
        if ctx.needs_input_grad[0]:
            raise NotImplementedError(f"the derivative for '{name}: input' is not implemented.")
        lgamma_a = a._new(a._xp.asarray(np.vectorize(math.lgamma, otypes=[np.float64])(
            _backend.to_numpy(a._data)).astype(a._data.dtype)))
        density = ((a - 1) * x.log() - x - lgamma_a).exp()  # ∂P/∂x
        return None, (-grad if ctx.upper else grad) * density, None


class Igammac(Igamma):
    node_name = "IgammacBackward0"


def _operands(name: str, input, other):
    tensors_only(name, input, other)
    a, x = binary_operands(input, other)
    broadcast_shape(a.shape, x.shape)  # PyTorch's error for shapes that do not broadcast
    if a._data.dtype.kind != "f":
        raise NotImplementedError(
            f'"{name}_cpu" not implemented for \'{scalar_type(a)}\'')
    return a, x


def igamma(input: Tensor, other: Tensor) -> Tensor:
    """P(input, other), the regularized lower incomplete gamma function."""
    return Igamma.apply(*_operands("igamma", input, other))


def igammac(input: Tensor, other: Tensor) -> Tensor:
    """Q(input, other) = 1 - P(input, other), the regularized upper one."""
    return Igammac.apply(*_operands("igammac", input, other), True)
