"""The Gauss error function, ``erf``.

* erf(x) = 2/√π ∫₀ˣ e^(-t²) dt       d/dx = 2/√π · e^(-x²)

It computes an integer or bool tensor in the default float type (``floating``), as PyTorch's does.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .. import _backend
from ..autograd import forward_ad
from ..autograd.function import Function
from .promotion import floating

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


class Erf(Function):
    node_name = "ErfBackward0"
    jvp = forward_ad.elementwise

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x._new(_backend.erf(x._xp, x._data))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * (2 / math.sqrt(math.pi)) * (-(x * x)).exp()


def erf(input: Tensor) -> Tensor:
    return Erf.apply(floating(input))
