"""Built-in differentiable operations, each a ``Function`` subclass like a learner's own.

One module per kind of op: ``arithmetic`` (+ - * /, lerp), ``powers`` (**, sqrt), ``exp_log``
(exp, log, log1p, xlogy...), ``trigonometry``, ``signs`` (abs, sign), ``rounding`` (round,
//, %...), ``clamping`` (clamp, nan_to_num), ``error_function``,
``incomplete_gamma`` (igamma, igammac), ``compare``, ``reduce`` (sum, mean, max, all...),
``scan`` (cumsum, prod...), ``stats`` (var, std, norm), ``matrix_norms``
(the nuclear norm), ``shape`` (views, casts), ``arrange``, ``split``, ``combine`` (cat, stack,
where), ``indexing`` (``x[key]``), ``gather``, ``masking``, ``sorting``, ``distinct`` (unique),
``searching`` (searchsorted, bucketize), ``linalg`` (matmul, mm, addmv), ``products``,
``scaled_products`` (addmm, addbmm, addr), ``inplace``, and for neural networks ``activations/``
(relu, sigmoid, gelu, softmax...), ``classification_loss``, ``binary_loss``,
``regression_loss``, ``batch_norm``, ``dropout``, ``conv`` and ``pool``. The rules they share
have their own modules: ``promotion`` (the dtype an op computes in), ``operands`` (Python
numbers as tensors), ``broadcasting``, ``dims``, ``devices``, ``view_detection``,
``loss_reduction`` and ``plain_backward`` (when a backward formula may work on the arrays).
``aten`` holds ATen's low-level operators by name, for code that calls
``torch.ops.aten.NAME`` (``ag.ops.aten.NAME``). The functions below are what ``ag.exp(x)``
and ``x.exp()`` call.

This file is the one list of them: ``__all__`` (every function imported here except
``NOT_TOP_LEVEL``) is what ``import autograd_course as ag`` re-exports.
"""

import warnings as _warnings
from types import ModuleType as _ModuleType

from . import aten  # torch.ops.aten: ATen's operators by name (not re-exported)
from .activations import elu, gelu, leaky_relu, log_softmax, relu, sigmoid, silu, softmax, tanh
from .arithmetic import (
    add,
    div,
    divide,
    lerp,
    mul,
    multiply,
    neg,
    negative,
    rdiv,
    reciprocal,
    rsub,
    sub,
    subtract,
    true_divide,
)
from .arrange import (
    diag,
    diagflat,
    diagonal,
    flip,
    hstack,
    movedim,
    repeat,
    roll,
    swapaxes,
    tile,
    trace,
    tril,
    triu,
    unflatten,
    vstack,
)
from .binary_loss import binary_cross_entropy_with_logits
from .clamping import clamp, clamp_min, clip, nan_to_num
from .classification_loss import kl_div
from .combine import cat, concat, concatenate, stack
from .compare import (
    allclose,
    bitwise_and,
    bitwise_not,
    bitwise_or,
    bitwise_xor,
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
from .covariance import cov
from .distinct import unique, unique_consecutive, unique_dim
from .draws import bernoulli, bernoulli_
from .eigen import lobpcg
from .error_function import erf
from .exp_log import exp, expm1, log, log1p, log2, log10, xlogy
from .gather import gather, index_select, masked_select, scatter, scatter_add, take
from .histograms import histc, histogram
from .incomplete_gamma import igamma, igammac
from .indexing import getitem, select
from .inplace import add_, clamp_, copy_, div_, fill_, mul_, setitem, sub_, zero_
from .linalg import addmv, dot, matmul, mm, mv
from .masking import argwhere, index_put_, masked_fill, masked_fill_, nonzero, where
from .operands import is_tensor
from .powers import pow, sqrt
from .products import baddbmm, bmm, cdist, cross, einsum, ger, kron, outer
from .reduce import all, amax, amin, any, argmax, argmin, max, mean, min, sum, sum_to_size
from .regression_loss import huber_loss, smooth_l1_loss
from .rounding import floor_divide, frac, remainder, round, trunc
from .sampling import multinomial
from .scaled_products import addbmm, addmm, addr
from .scan import count_nonzero, cumprod, cumsum, logsumexp, median, prod, std_mean, var_mean
from .searching import bucketize, searchsorted
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
from .signs import abs, sign
from .sorting import argsort, bincount, meshgrid, sort, topk
from .split import chunk, narrow, split, unbind
from .stats import norm, std, var
from .strided import as_strided
from .trigonometry import atan2, cos, hypot, sin, tan


def silence_numpy_warnings() -> None:
    """NumPy warns about log(0), 0/0, overflow in exp...; PyTorch silently returns inf or nan.

    We keep PyTorch's silence for the array maths done inside this package (and only there):
    a warnings filter costs nothing per op, unlike ``np.errstate``. Called on import.
    """
    _warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"autograd_course(\.|$)")


silence_numpy_warnings()

# Used by the Tensor methods (x.view(2, 3), x.add_(y), x[key]...), nn.functional and the
# package itself, but not offered as ``ag.<name>`` (most have no ``torch.<name>`` either:
# torch.add_, torch.view, torch.numpy_t). ``ag.is_tensor`` is its own function.
NOT_TOP_LEVEL = frozenset({
    "add_", "bernoulli_", "bitwise_and", "bitwise_not", "bitwise_or", "clamp_", "contiguous",
    "copy_", "rdiv", "repeat",
    "div_", "expand", "fill_", "getitem", "huber_loss", "is_contiguous", "is_tensor",
    "kl_div", "masked_fill_", "matrix_transpose", "mul_", "numpy_t", "setitem",
    "silence_numpy_warnings", "smooth_l1_loss", "sub_", "sum_to_size", "unique_dim", "view",
})

__all__ = sorted(
    name for name, value in globals().items()
    if not name.startswith("_") and not isinstance(value, _ModuleType)
    and name not in NOT_TOP_LEVEL and name != "NOT_TOP_LEVEL"
)
