"""More element-wise maths: ``log1p``, ``expm1``, ``erf``, the roundings ``round``, ``trunc``,
``frac``, two-input ``atan2``, ``hypot``, ``lerp``, and ``nan_to_num``, ``clamp_min``.

* log1p(x) = log(1 + x)       d/dx = 1 / (1 + x)      (exact for tiny x, unlike log(1 + x))
* expm1(x) = exp(x) - 1       d/dx = exp(x) = y + 1
* erf(x)   = 2/√π ∫₀ˣ e^(-t²) dt                       d/dx = 2/√π · e^(-x²)
* atan2(y, x): the angle of the point (x, y)           d/dy = x / (x² + y²),  d/dx = -y / (x² + y²)
* hypot(a, b) = √(a² + b²)   d/da = a / hypot,  d/db = b / hypot
* lerp(a, b, w) = a + w (b - a)   d/da = 1 - w,  d/db = w,  d/dw = b - a
* round, trunc: flat steps, gradient 0;  frac(x) = x - trunc(x): gradient 1.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .. import _backend
from ..autograd.function import Function
from .broadcasting import broadcast_shape
from .combine import where
from .compare import isfinite
from .operands import binary_operands, is_tensor
from .promotion import floating

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor

class Log1p(Function):
    node_name = "Log1PBackward0"

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x._new(x._xp.log1p(x._data))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad / (x + 1)


class Log2(Function):
    """log₂ x;  d/dx = 1 / (x ln 2)."""

    node_name = "Log2Backward0"
    _base = 2.0

    @classmethod
    def forward(cls, ctx, x):
        ctx.save_for_backward(x)
        log = x._xp.log2 if cls._base == 2.0 else x._xp.log10
        return x._new(log(x._data))

    @classmethod
    def backward(cls, ctx, grad):
        (x,) = ctx.saved_tensors
        return grad / (x * math.log(cls._base))


class Log10(Log2):
    """log₁₀ x;  d/dx = 1 / (x ln 10)."""

    node_name = "Log10Backward0"
    _base = 10.0


class Expm1(Function):
    node_name = "Expm1Backward0"

    @staticmethod
    def forward(ctx, x):
        out = x._new(x._xp.expm1(x._data))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return grad * (out + 1)


class Erf(Function):
    node_name = "ErfBackward0"

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x._new(_backend.erf(x._xp, x._data))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * (2 / math.sqrt(math.pi)) * (-(x * x)).exp()


class Round(Function):
    """Round half to even, as PyTorch (and NumPy) do;  the gradient is 0."""

    node_name = "RoundBackward0"

    @staticmethod
    def forward(ctx, x, decimals):
        return x._new(x._xp.round(x._data, decimals))

    @staticmethod
    def backward(ctx, grad):
        return grad * 0, None


class RoundDecimals(Round):
    node_name = "RoundBackward1"


class Trunc(Function):
    node_name = "TruncBackward0"

    @staticmethod
    def forward(ctx, x):
        return x._new(x._xp.trunc(x._data))

    @staticmethod
    def backward(ctx, grad):
        return grad * 0


class Frac(Function):
    node_name = "FracBackward0"

    @staticmethod
    def forward(ctx, x):
        return x._new(x._data - x._xp.trunc(x._data))

    @staticmethod
    def backward(ctx, grad):
        return grad


class Atan2(Function):
    node_name = "Atan2Backward0"

    @staticmethod
    def forward(ctx, y, x):
        ctx.save_for_backward(y, x)
        return y._new(y._xp.arctan2(y._data, x._data))

    @staticmethod
    def backward(ctx, grad):
        y, x = ctx.saved_tensors
        scale = grad / (x * x + y * y)
        return scale * x, scale * -y


class Hypot(Function):
    node_name = "HypotBackward0"

    @staticmethod
    def forward(ctx, a, b):
        out = a._new(a._xp.hypot(a._data, b._data))
        ctx.save_for_backward(a, b, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, b, out = ctx.saved_tensors
        return grad * a / out, grad * b / out


class Lerp(Function):
    """a + w (b - a) for a number ``w``."""

    node_name = "LerpBackward0"

    @staticmethod
    def forward(ctx, a, b, weight):
        ctx.weight = weight
        return a._new(a._data + weight * (b._data - a._data))

    @staticmethod
    def backward(ctx, grad):
        return grad * (1 - ctx.weight), grad * ctx.weight, None


class LerpTensor(Function):
    """a + w (b - a) for a tensor ``w``: ``w`` gets a gradient too."""

    node_name = "LerpBackward1"

    @staticmethod
    def forward(ctx, a, b, weight):
        ctx.save_for_backward(a, b, weight)
        return a._new(a._data + weight._data * (b._data - a._data))

    @staticmethod
    def backward(ctx, grad):
        a, b, weight = ctx.saved_tensors
        return grad * (1 - weight), grad * weight, grad * (b - a)


class NanToNum(Function):
    """NaN, +inf and -inf replaced by numbers;  the gradient is 0 at those places."""

    node_name = "NanToNumBackward0"

    @staticmethod
    def forward(ctx, x, nan, posinf, neginf):
        ctx.save_for_backward(x)
        return x._new(x._xp.nan_to_num(x._data, nan=nan, posinf=posinf, neginf=neginf))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return where(isfinite(x), grad, 0.0), None, None, None


class ClampMin(Function):
    node_name = "ClampMinBackward0"

    @staticmethod
    def forward(ctx, x, low):
        ctx.save_for_backward(x)
        ctx.low = low
        return x._new(x._xp.maximum(x._data, x._xp.asarray(low, dtype=x._data.dtype)))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return where(x >= ctx.low, grad, 0.0), None


def log1p(input: Tensor) -> Tensor:
    return Log1p.apply(floating(input))


def log2(input: Tensor) -> Tensor:
    return Log2.apply(floating(input))


def log10(input: Tensor) -> Tensor:
    return Log10.apply(floating(input))


def expm1(input: Tensor) -> Tensor:
    return Expm1.apply(floating(input))


def erf(input: Tensor) -> Tensor:
    return Erf.apply(floating(input))


def round(input: Tensor, *, decimals: int = 0) -> Tensor:
    """Round to ``decimals`` places (halves to the even neighbour)."""
    if input._data.dtype.kind in "biu":
        if decimals:
            raise NotImplementedError(f"\"round_cpu\" not implemented for '{_scalar(input)}'")
        return input.clone()
    return (RoundDecimals if decimals else Round).apply(input, decimals)


def trunc(input: Tensor) -> Tensor:
    """Round towards zero."""
    if input._data.dtype.kind in "biu":
        return input.clone()
    return Trunc.apply(input)


def frac(input: Tensor) -> Tensor:
    """The fractional part, ``x - trunc(x)`` (with x's sign)."""
    if input._data.dtype.kind in "biu":
        raise NotImplementedError(f'"frac_cpu" not implemented for \'{_scalar(input)}\'')
    return Frac.apply(input)


def _scalar(t) -> str:
    from_numpy = {"int64": "Long", "int32": "Int", "bool": "Bool", "uint8": "Byte",
                  "int16": "Short", "int8": "Char"}
    return from_numpy.get(t._data.dtype.name, t._data.dtype.name)


_C_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int"}


def _float_pair(input, other):
    a, b = binary_operands(input, other)
    broadcast_shape(a.shape, b.shape)  # PyTorch's error for shapes that do not broadcast
    return floating(a), floating(b)


def atan2(input: Tensor, other: Tensor) -> Tensor:
    """The angle (radians, in (-π, π]) of the point (other, input)."""
    return Atan2.apply(*_float_pair(input, other))


def hypot(input: Tensor, other: Tensor) -> Tensor:
    """√(input² + other²) without overflow."""
    if not is_tensor(other):
        raise TypeError("hypot(): argument 'other' (position 2) must be Tensor, not "
                        f"{type(other).__name__}")
    return Hypot.apply(*_float_pair(input, other))


def lerp(input: Tensor, end: Tensor, weight: float | Tensor) -> Tensor:
    """``input + weight * (end - input)``: a straight line from input to end."""
    if input._data.dtype != end._data.dtype:
        raise RuntimeError(f"expected dtype {_C_NAMES.get(input._data.dtype.name)} for `end` but "
                           f"got dtype {_C_NAMES.get(end._data.dtype.name)}")
    broadcast_shape(input.shape, end.shape)
    if is_tensor(weight):
        broadcast_shape(broadcast_shape(input.shape, end.shape), weight.shape)
        return LerpTensor.apply(input, end, weight)
    return Lerp.apply(input, end, weight)


def nan_to_num(input: Tensor, nan: float = 0.0, posinf: float | None = None,
               neginf: float | None = None) -> Tensor:
    """NaN → ``nan``, ±inf → ``posinf``/``neginf`` (default: the dtype's largest/lowest)."""
    if input._data.dtype.kind not in "fc":
        return input.clone()
    return NanToNum.apply(input, nan, posinf, neginf)


def clamp_min(input: Tensor, min: float) -> Tensor:  # PyTorch's parameter name
    """``clamp(input, min=min)``: every element at least ``min``."""
    return ClampMin.apply(input, min)
