"""``Tensor``'s element-wise methods: each element of the result comes from the elements at
the same place in the inputs (broadcast as needed): arithmetic (``x.add(y)``, ``x.pow(2)``),
functions (``x.exp()``, ``x.tanh()``, ``x.erf()``), activations (``x.relu()``), rounding
(``x.round()``, ``x.floor_divide(2)``), comparisons (``x.eq(y)``, ``x.isnan()``) and
``x.where(cond, y)``.

Each is one call to its op in ``autograd_course.ops``, where the forward and backward live.
Their in-place forms (``x.exp_()``) are in in_place.py, their operators (``x + y``) in
operators.py.
"""

from __future__ import annotations

from .. import ops
from ..ops import rounding
from ..ops.operands import tensors_only


class TensorPointwise:
    """Mixed into ``Tensor``: maths element by element."""

    __slots__ = ()

    # --- arithmetic ---------------------------------------------------------------------------
    def add(self, other, *, alpha=1):
        return ops.add(self, other, alpha=alpha)

    def sub(self, other, *, alpha=1):
        return ops.sub(self, other, alpha=alpha)

    def mul(self, other):
        return ops.mul(self, other)

    def div(self, other, *, rounding_mode=None):
        return ops.div(self, other, rounding_mode=rounding_mode)

    divide = true_divide = div

    def pow(self, exponent):
        return ops.pow(self, exponent)

    def reciprocal(self):
        return ops.reciprocal(self)

    def neg(self):
        return ops.neg(self)

    def floor_divide(self, other):
        return rounding.floor_divide(self, other)

    def remainder(self, other):
        return rounding.remainder(self, other)

    def bitwise_xor(self, other):
        return ops.bitwise_xor(self, other)

    # --- functions ----------------------------------------------------------------------------
    def exp(self):
        return ops.exp(self)

    def log(self):
        return ops.log(self)

    def sqrt(self):
        return ops.sqrt(self)

    def abs(self):
        return ops.abs(self)

    def sign(self):
        return ops.sign(self)

    def sin(self):
        return ops.sin(self)

    def tan(self):
        return ops.tan(self)

    def cos(self):
        return ops.cos(self)

    def tanh(self):
        return ops.tanh(self)

    def log1p(self):
        return ops.log1p(self)

    def log2(self):
        return ops.log2(self)

    def log10(self):
        return ops.log10(self)

    def expm1(self):
        return ops.expm1(self)

    def erf(self):
        return ops.erf(self)

    def igamma(self, other):
        return ops.igamma(self, other)

    def igammac(self, other):
        return ops.igammac(self, other)

    def atan2(self, other):
        tensors_only("atan2", other, names=("other",))  # a method's position 1
        return ops.atan2(self, other)

    arctan2 = atan2

    def hypot(self, other):
        tensors_only("hypot", other, names=("other",))  # a method's position 1
        return ops.hypot(self, other)

    def lerp(self, end, weight):
        return ops.lerp(self, end, weight)

    # --- activations --------------------------------------------------------------------------
    def sigmoid(self):
        return ops.sigmoid(self)

    def relu(self):
        return ops.relu(self)

    def leaky_relu(self, negative_slope=0.01):
        return ops.leaky_relu(self, negative_slope)

    # --- limits and rounding ------------------------------------------------------------------
    def clamp(self, min=None, max=None):
        return ops.clamp(self, min, max)

    clip = clamp

    def clamp_min(self, min):
        return ops.clamp_min(self, min)

    def maximum(self, other):
        tensors_only("maximum", other, names=("other",))  # a method's position 1
        return ops.maximum(self, other)

    def minimum(self, other):
        tensors_only("minimum", other, names=("other",))  # a method's position 1
        return ops.minimum(self, other)

    def round(self, *, decimals=0):
        return ops.round(self, decimals=decimals)

    def trunc(self):
        return ops.trunc(self)

    def frac(self):
        return ops.frac(self)

    def nan_to_num(self, nan=0.0, posinf=None, neginf=None):
        return ops.nan_to_num(self, nan, posinf, neginf)

    # --- comparisons (and ``equal``/``allclose``, which answer for the whole tensor) ----------
    def eq(self, other):
        return ops.eq(self, other)

    def ne(self, other):
        return ops.ne(self, other)

    def lt(self, other):
        return ops.lt(self, other)

    def le(self, other):
        return ops.le(self, other)

    def gt(self, other):
        return ops.gt(self, other)

    def ge(self, other):
        return ops.ge(self, other)

    def equal(self, other):
        tensors_only("equal", other, names=("other",))
        return ops.equal(self, other)

    def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        tensors_only("allclose", other, names=("other",))
        return ops.allclose(self, other, rtol, atol, equal_nan)

    def isnan(self):
        return ops.isnan(self)

    def logical_not(self):
        return ops.logical_not(self)

    def where(self, condition, other):
        return ops.where(condition, self, other)
