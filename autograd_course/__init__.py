"""autograd_course: a small, readable autograd library shaped like PyTorch.

``import autograd_course as ag`` gives the names a PyTorch user expects: ``ag.tensor``,
``ag.randn``, ``ag.no_grad``, ``ag.autograd.Function``... Reprs and error messages print what
PyTorch prints (including the ``torch.`` in ``torch.float32``), so outputs can be compared.
"""

from . import autograd, cuda, datasets, models, nn, ops, optim, utils, viz
from ._backend import device
from .autograd import enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled
from .creation import (
    arange,
    as_tensor,
    empty,
    empty_like,
    eye,
    from_numpy,
    full,
    full_like,
    linspace,
    manual_seed,
    ones,
    ones_like,
    rand,
    rand_like,
    randint,
    randn,
    randn_like,
    randperm,
    tensor,
    zeros,
    zeros_like,
)
from .dtypes import (
    bool,
    double,
    dtype,
    float,
    float16,
    float32,
    float64,
    half,
    int,
    int8,
    int16,
    int32,
    int64,
    long,
    short,
    uint8,
)
from .ops import (
    abs,
    add,
    addmm,
    all,
    allclose,
    amax,
    amin,
    any,
    argmax,
    argmin,
    binary_cross_entropy_with_logits,
    cat,
    clamp,
    clip,
    clone,
    concat,
    concatenate,
    cos,
    div,
    divide,
    dot,
    eq,
    equal,
    exp,
    flatten,
    ge,
    gt,
    isclose,
    isfinite,
    isinf,
    isnan,
    le,
    log,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    lt,
    matmul,
    max,
    maximum,
    mean,
    min,
    minimum,
    mm,
    mul,
    multiply,
    mv,
    ne,
    neg,
    negative,
    norm,
    permute,
    pow,
    reciprocal,
    relu,
    reshape,
    rsub,
    select,
    sigmoid,
    sign,
    sin,
    sqrt,
    squeeze,
    stack,
    std,
    sub,
    subtract,
    sum,
    t,
    tanh,
    transpose,
    true_divide,
    unsqueeze,
    var,
    where,
)
from .random import initial_seed, seed
from .serialization import load, save
from .tensor import Size, Tensor

__version__ = "0.1.0"


def is_tensor(obj) -> bool:
    return isinstance(obj, Tensor)


def numel(x: Tensor) -> int:
    return x.numel()
