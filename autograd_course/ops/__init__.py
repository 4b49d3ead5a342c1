"""Built-in differentiable operations, each a ``Function`` subclass like a learner's own.

Grouped by kind: ``arithmetic`` (+ - * / **), ``unary`` (exp, log, tanh...), ``reduce``
(sum, mean, max...), ``stats`` (var, std, norm), ``shape`` (views, casts), ``combine`` (cat,
stack, where), ``indexing`` (``x[key]``), ``linalg`` (matmul), ``compare``, ``inplace`` and
``loss``. The functions below are what ``ag.exp(x)`` and ``x.exp()`` call.
"""

import warnings as _warnings

from ._util import is_tensor
from .activation import elu, gelu, leaky_relu, silu
from .arithmetic import (
    add,
    div,
    divide,
    mul,
    multiply,
    neg,
    negative,
    pow,
    reciprocal,
    rsub,
    sub,
    subtract,
    true_divide,
)
from .classification_loss import binary_cross_entropy_with_logits, kl_div, xlogy
from .combine import cat, concat, concatenate, stack, where
from .compare import (
    allclose,
    bitwise_and,
    bitwise_not,
    bitwise_or,
    eq,
    equal,
    ge,
    gt,
    isclose,
    isfinite,
    isinf,
    isnan,
    le,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    lt,
    maximum,
    minimum,
    ne,
)
from .indexing import getitem, select
from .inplace import add_, clamp_, copy_, div_, fill_, mul_, setitem, sub_, zero_
from .linalg import addmm, dot, matmul, mm, mv
from .masking import argwhere, index_put_, masked_fill, masked_fill_, nonzero
from .reduce import all, amax, amin, any, argmax, argmin, max, mean, min, sum, sum_to_size
from .regression_loss import huber_loss, smooth_l1_loss
from .rounding import floor_divide, remainder
from .shape import (
    clone,
    contiguous,
    expand,
    flatten,
    is_contiguous,
    matrix_transpose,
    numpy_t,
    permute,
    reshape,
    squeeze,
    t,
    transpose,
    unsqueeze,
    view,
)
from .stats import norm, std, var
from .unary import abs, clamp, clip, cos, exp, log, relu, sigmoid, sign, sin, sqrt, tanh


def silence_numpy_warnings() -> None:
    """NumPy warns about log(0), 0/0, overflow in exp...; PyTorch silently returns inf or nan.

    We keep PyTorch's silence for the array maths done inside this package (and only there):
    a warnings filter costs nothing per op, unlike ``np.errstate``. Called on import.
    """
    _warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"autograd_course(\.|$)")


silence_numpy_warnings()

__all__ = [name for name in dir() if not name.startswith("_")]
