"""Built-in differentiable operations, each a ``Function`` subclass like a learner's own.

Grouped by kind: ``arithmetic`` (+ - * / **), ``unary`` (exp, log, tanh...), ``reduce``
(sum, mean, max...), ``shape`` (views, indexing, cat), ``linalg`` (matmul), ``compare``,
``inplace`` and ``loss``. The functions below are what ``ag.exp(x)`` and ``x.exp()`` call.
"""

from .arithmetic import add, div, divide, mul, multiply, neg, negative, pow, rsub, sub, subtract, true_divide  # noqa: E501
from .compare import (
    all, allclose, any, bitwise_and, bitwise_not, bitwise_or, eq, equal, ge, gt, isclose,
    isfinite, isinf, isnan, le, logical_and, logical_not, logical_or, logical_xor, lt, maximum,
    minimum, ne,
)
from .inplace import add_, clamp_, copy_, div_, fill_, mul_, setitem, sub_, zero_
from .linalg import addmm, dot, matmul, mm, mv
from .loss import binary_cross_entropy_with_logits
from .reduce import amax, argmax, argmin, max, mean, min, norm, std, sum, sum_to_size, var
from .shape import (
    cat, clone, concat, concatenate, expand, flatten, getitem, permute, reshape, select,
    squeeze, stack, t, transpose, unsqueeze, where,
)
from .unary import abs, clamp, clip, cos, exp, log, relu, sigmoid, sign, sin, sqrt, tanh

__all__ = [name for name in dir() if not name.startswith("_")]
