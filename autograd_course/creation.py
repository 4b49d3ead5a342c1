"""Factories: the ways to make a tensor (``tensor``, ``zeros``, ``randn``...).

Each accepts PyTorch's keywords ``dtype=``, ``device=`` and ``requires_grad=``. Python floats
become float32 and Python ints int64, as in PyTorch; NumPy arrays keep their dtype.
"""

from __future__ import annotations

import numbers

import numpy as np

from . import _array, _backend, _messages, dtypes
from . import random as _random
from .autograd import grad_mode
from .memory_formats import check_memory_format
from .ops.operands import check_fits, number_array
from .tensor import Tensor


def _finish(array, device, requires_grad) -> Tensor:
    t = Tensor._wrap(array, device)
    if grad_mode.state.inference:
        t._inference = True
    if requires_grad:
        if array.dtype.kind not in "fc":
            raise RuntimeError(
                "Only Tensors of floating point and complex dtype can require gradients"
            )
        t._requires_grad = True
    return t


def tensor(data, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """A new tensor holding a copy of ``data`` (a number, nested lists, an array)."""
    dev = _backend.factory_device(device)
    return _finish(_array.to_array(data, dtype, dev), dev, requires_grad)


def as_tensor(data, dtype=None, device=None) -> Tensor:
    """Like ``tensor`` but shares memory with a NumPy array when no conversion is needed."""
    dev = _backend.factory_device(device)
    if isinstance(data, Tensor):
        return data.to(dtype=dtype, device=dev) if (dtype or device) else data
    if isinstance(data, np.ndarray) and dev is _backend.CPU and (
        dtype is None or dtypes.to_numpy(dtype) == data.dtype
    ):
        return Tensor._wrap(data, dev)
    return tensor(data, dtype=dtype, device=dev)


def from_numpy(ndarray: np.ndarray) -> Tensor:
    """A tensor that shares memory with ``array``: changes to one show in the other."""
    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {_messages.python_type(ndarray)})")
    dtypes.from_numpy(ndarray.dtype)  # clear error for unsupported dtypes
    return Tensor._wrap(ndarray, _backend.CPU)


def _shape(size) -> tuple:
    if len(size) == 1 and not isinstance(size[0], numbers.Integral):
        size = tuple(size[0])
    return tuple(int(s) for s in size)


def _size(args: tuple, size) -> tuple:
    """The sizes given one by one, as a sequence, or as the keyword ``size=`` (d2l writes
    ``torch.randn(size=())``)."""
    if size is None:
        return args
    if args:
        raise TypeError("size was given both positionally and as a keyword")
    return (size,)


def _filled(fill, size, dtype, device, requires_grad, default=None):
    dev = _backend.factory_device(device)
    np_dtype = dtypes.to_numpy(dtype or default or dtypes.default_float)
    if np_dtype.kind in "iu" and isinstance(fill, numbers.Integral):
        check_fits(fill, np_dtype)  # PyTorch's error; -1 into uint8 wraps around to 255
        fill = number_array(np, fill, np_dtype)
    return _finish(_backend.create(dev, "full", _shape(size), fill, dtype=np_dtype), dev,
                   requires_grad)


def zeros(*args, size=None, dtype=None, device=None, requires_grad=False) -> Tensor:
    return _filled(0, _size(args, size), dtype, device, requires_grad)


def ones(*args, size=None, dtype=None, device=None, requires_grad=False) -> Tensor:
    return _filled(1, _size(args, size), dtype, device, requires_grad)


def empty(*args, size=None, dtype=None, device=None, requires_grad=False) -> Tensor:
    return _filled(0, _size(args, size), dtype, device, requires_grad)


def full(size, fill_value, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    default = dtypes.from_numpy(_array.infer_dtype(fill_value))
    return _filled(fill_value, (size,), dtype, device, requires_grad, default)


def eye(n, m=None, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    dev = _backend.factory_device(device)
    array = _backend.create(dev, "eye", n, n if m is None else m,
                            dtype=dtypes.to_numpy(dtype or dtypes.float32))
    return _finish(array, dev, requires_grad)


def arange(start, end=None, step=1, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    if end is None:
        start, end = 0, start
    if dtype is None:
        dtype = dtypes.from_numpy(_array.infer_dtype([start, end, step]))
    dev = _backend.factory_device(device)
    array = _backend.create(dev, "arange", start, end, step, dtype=dtypes.to_numpy(dtype))
    return _finish(array, dev, requires_grad)


def linspace(start, end, steps, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    dev = _backend.factory_device(device)
    array = _backend.create(dev, "linspace", start, end, steps,
                            dtype=dtypes.to_numpy(dtype or dtypes.float32))
    return _finish(array, dev, requires_grad)


def _like(fn, x, dtype, device, requires_grad, **kw):
    return fn(*x.shape, dtype=dtype or x.dtype, device=device or x.device,
              requires_grad=requires_grad, **kw)


def zeros_like(input, *, dtype=None, device=None, requires_grad=False,
               memory_format=None) -> Tensor:
    check_memory_format("zeros_like", memory_format)
    return _like(zeros, input, dtype, device, requires_grad)


def ones_like(input, *, dtype=None, device=None, requires_grad=False,
              memory_format=None) -> Tensor:
    check_memory_format("ones_like", memory_format)
    return _like(ones, input, dtype, device, requires_grad)


def empty_like(input, *, dtype=None, device=None, requires_grad=False,
               memory_format=None) -> Tensor:
    check_memory_format("empty_like", memory_format)
    return _like(zeros, input, dtype, device, requires_grad)


def full_like(input, fill_value, *, dtype=None, device=None, requires_grad=False,
              memory_format=None) -> Tensor:
    check_memory_format("full_like", memory_format)
    return full(tuple(input.shape), fill_value, dtype=dtype or input.dtype,
                device=device or input.device, requires_grad=requires_grad)


# --- random tensors: the numbers come from PyTorch's own algorithms (see random.py) --------
def manual_seed(seed: int):
    """Seed the CPU generator (PyTorch's numbers) and CuPy's, like ``torch.manual_seed``."""
    _backend.seed_cuda(seed)
    return _random.manual_seed(seed)


def _random_tensor(array, device, requires_grad):
    dev = _backend.factory_device(device)
    if dev is not _backend.CPU:
        array = _backend.to_device(array, dev)
    return _finish(array, dev, requires_grad)


def rand(*args, size=None, generator=None, dtype=None, device=None,
          requires_grad=False) -> Tensor:
    """Uniform samples in [0, 1)."""
    gen = generator or _random.default_generator
    array = gen.uniform(_shape(_size(args, size)), dtypes.to_numpy(dtype or dtypes.float32))
    return _random_tensor(array, device, requires_grad)


def randn(*args, size=None, generator=None, dtype=None, device=None,
          requires_grad=False) -> Tensor:
    """Standard normal samples."""
    gen = generator or _random.default_generator
    array = gen.normal(_shape(_size(args, size)), dtypes.to_numpy(dtype or dtypes.float32))
    return _random_tensor(array, device, requires_grad)


def randint(low, high=None, size=None, *, generator=None, dtype=None, device=None,
            requires_grad=False) -> Tensor:
    """Integers drawn uniformly from [low, high)."""
    if size is None:
        low, high, size = 0, low, high
    gen = generator or _random.default_generator
    array = gen.randint(low, high, tuple(size))
    if dtype is not None:
        array = array.astype(dtypes.to_numpy(dtype))
    return _random_tensor(array, device, requires_grad)


def randperm(n, *, generator=None, dtype=None, device=None) -> Tensor:
    gen = generator or _random.default_generator
    array = gen.randperm(n)
    if dtype is not None:
        array = array.astype(dtypes.to_numpy(dtype))
    return _random_tensor(array, device, False)


def rand_like(input, *, dtype=None, device=None, requires_grad=False,
              memory_format=None) -> Tensor:
    check_memory_format("rand_like", memory_format)
    return _like(rand, input, dtype, device, requires_grad)


def randn_like(input, *, dtype=None, device=None, requires_grad=False,
               memory_format=None) -> Tensor:
    check_memory_format("randn_like", memory_format)
    return _like(randn, input, dtype, device, requires_grad)
