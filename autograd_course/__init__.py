"""autograd_course: a small, readable autograd library shaped like PyTorch.

``import autograd_course as ag`` gives the names a PyTorch user expects: ``ag.tensor``,
``ag.randn``, ``ag.no_grad``, ``ag.autograd.Function``... Reprs and error messages print what
PyTorch prints (including the ``torch.`` in ``torch.float32``), so outputs can be compared.

This namespace is the library's. The course built on it (exercise checkers, the two languages,
fonts, the setup check) is ``autograd_course.course``, which nothing here imports.
``ag.viz``, the drawings, is loaded the first time it is used, so that importing the package
does not load Graphviz's Python binding or matplotlib.
"""

import importlib
import math

from . import (
    accelerator,
    autograd,
    backends,
    cuda,
    datasets,
    func,
    models,
    nn,
    ops,
    optim,
    utils,
)
from ._backend import device, get_default_device, set_default_device
from ._messages import is_warn_always_enabled, set_warn_always
from .autograd import enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled
from .autograd import functional as _autograd_functional  # ag.autograd.functional, as torch's
from .autograd.anomaly import is_anomaly_check_nan_enabled, is_anomaly_enabled
from .autograd.grad_mode import is_inference_mode_enabled
from .compat.legacy_tensors import (
    BoolTensor,
    ByteTensor,
    DoubleTensor,
    FloatTensor,
    HalfTensor,
    IntTensor,
    LongTensor,
    ShortTensor,
)
from .creation import (
    arange,
    as_tensor,
    empty,
    empty_like,
    eye,
    from_numpy,
    full,
    full_like,
    get_rng_state,
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
    set_rng_state,
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
from .memory_formats import (
    channels_last,
    channels_last_3d,
    contiguous_format,
    memory_format,
    preserve_format,
)
from .ops import *  # noqa: F403  (ops.__all__: every op function, ag.exp, ag.matmul...)
from .ops.distinct import _unique, _unique2  # torch._unique, torch._unique2 (what unique calls)
from .ops.out_arg import with_out
from .random import Generator, initial_seed, seed
from .serialization import load, save
from .tensor import Size, Tensor

__version__ = "0.1.0"

inf, nan, pi, e = math.inf, math.nan, math.pi, math.e  # torch.inf, torch.pi... (Python floats)


def is_tensor(obj) -> bool:
    return isinstance(obj, Tensor)


def numel(input: Tensor) -> int:
    return input.numel()


def is_floating_point(input: Tensor) -> bool:
    return input.is_floating_point()


_OUT_OF_SCOPE = {
    "compile": "autograd_course has no compiler: call the model directly (model(x)).",
    "jit": "autograd_course has no TorchScript (torch.jit): use the Python model as it is.",
    "hub": "autograd_course downloads nothing (torch.hub): build the model from "
           "autograd_course.nn or autograd_course.models.",
    "onnx": "autograd_course cannot export ONNX (torch.onnx); save weights with "
            "autograd_course.save(model.state_dict(), path).",
    "distributed": "autograd_course runs in one process: torch.distributed is not available.",
}


def __getattr__(name: str):
    """``ag.viz`` on first use (PEP 562); names of PyTorch that are out of this course's
    scope: say what to use instead."""
    if name == "viz":
        return importlib.import_module(".viz", __name__)
    if name in _OUT_OF_SCOPE:
        raise AttributeError(f"autograd_course has no '{name}': {_OUT_OF_SCOPE[name]}")
    raise AttributeError(f"module 'autograd_course' has no attribute '{name}'")
