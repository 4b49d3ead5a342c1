"""Factories: the ways to make a tensor (``tensor``, ``zeros``, ``randn``...).

Each accepts PyTorch's keywords ``dtype=``, ``device=`` and ``requires_grad=``. Python floats
become float32 and Python ints int64, as in PyTorch; NumPy arrays keep their dtype.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from . import _array, _backend, _messages, dtypes
from . import random as _random
from .autograd import grad_mode
from .memory_formats import check_memory_format
from .ops.operands import _CONVERTED_NAMES, check_fits, number_array
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
    for name, position, size in (("n", 1, n), ("m", 2, m)):
        if size is not None and not isinstance(size, numbers.Integral):
            raise TypeError(f"eye(): argument '{name}' (position {position}) must "
                            f"be int, not {_messages.python_type(size)}")
        if size is not None and size < 0:
            raise RuntimeError(f"{name} must be greater or equal to 0, got {size}")
    dev = _backend.factory_device(device)
    array = _backend.create(dev, "eye", n, n if m is None else m,
                            dtype=dtypes.to_numpy(dtype or dtypes.float32))
    return _finish(array, dev, requires_grad)


def arange(start, end=None, step=1, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    if end is None:
        start, end = 0, start
    if dtype is None:
        dtype = dtypes.from_numpy(_array.infer_dtype([start, end, step]))
    _check_range(start, end, step)
    dev, np_dtype = _backend.factory_device(device), dtypes.to_numpy(dtype)
    if np_dtype.kind in "iu":
        array = _on(dev, _integer_arange(start, end, step, np_dtype))
    else:  # start + i·step computed in double (float for half), then rounded to the dtype
        wide = np.float32 if np_dtype == np.float16 else np.float64
        indices = np.arange(math.ceil((end - start) / step), dtype=wide)
        array = _on(dev, (wide(start) + wide(step) * indices).astype(np_dtype))
    return _finish(array, dev, requires_grad)


# PyTorch's overloads of linspace, listed when ``steps`` is not an int
_LINSPACE_SIGNATURES = tuple(
    f"{first} start, {second} end, int steps, *, Tensor out = None, torch.dtype dtype = None, "
    "torch.layout layout = None, torch.device device = None, bool pin_memory = False, "
    "bool requires_grad = False"
    for first, second in (("Tensor", "Tensor"), ("Number", "Tensor"), ("Tensor", "Number"),
                          ("Number", "Number")))


def _check_linspace(start, end, steps) -> None:
    """PyTorch's refusals, in its order: ``steps`` not an int (a bool is not one here); a
    ``start`` or ``end`` tensor with dimensions (each tensor given is named); ``steps`` < 0."""
    if not isinstance(steps, numbers.Integral) or isinstance(steps, bool):
        raise TypeError(_messages.invalid_combination("linspace", (start, end, steps),
                                                      _LINSPACE_SIGNATURES))
    given = [(name, t.ndim) for name, t in (("start", start), ("end", end))
             if isinstance(t, Tensor)]
    if any(ndim for _, ndim in given):
        dims = " and ".join(f"{name} with {ndim} dimension(s)" for name, ndim in given)
        raise RuntimeError("linspace only supports 0-dimensional start and end tensors, but "
                           f"got {dims}.")
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")


def linspace(start, end, steps, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    _check_linspace(start, end, steps)
    dev, np_dtype = _backend.factory_device(device), dtypes.to_numpy(dtype or dtypes.float32)
    if np_dtype.kind in "iu":
        array = _on(dev, _integer_linspace(start, end, steps, np_dtype))
    else:
        kind = np_dtype.type
        array = _on(dev, _halves(kind(start), kind(end), steps, kind))
    return _finish(array, dev, requires_grad)


def _on(dev, array):
    return array if dev is _backend.CPU else _backend.to_device(array, dev)


def _check_range(start, end, step) -> None:
    """PyTorch's checks of arange's numbers, made on them as given (in double precision)."""
    if not (step > 0 or step < 0):
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(start) and math.isfinite(end)):
        raise RuntimeError(f"unsupported range: {start:g} -> {end:g}")
    if not ((step > 0 and end >= start) or (step < 0 and end <= start)):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")


def _integer_arange(start, end, step, np_dtype) -> np.ndarray:
    """PyTorch's CPU arange for an integer dtype. start, end and step become int64, their
    fractions dropped (-1.5 → -1); element i is start + i·step, converted (wrapping) to the
    dtype. The length is ⌈(end - start) / step⌉ of the numbers *as given*, except for int64,
    where it is (end - start + step - sign(step)) / step in integers, of the truncated ones."""
    first, last, by = int(start), int(end), int(step)
    if np_dtype == np.int64:
        if by == 0:
            raise ValueError("step must be nonzero")
        length = (last - first + by - (1 if by > 0 else -1)) // by  # both signs agree: ≥ 0
    else:
        length = math.ceil((end - start) / step)
    return (first + by * np.arange(length, dtype=np.int64)).astype(np_dtype)


def _integer_linspace(start, end, steps: int, np_dtype) -> np.ndarray:
    """PyTorch's CPU linspace for an integer dtype: start and end converted to the dtype
    first, the points computed from them in double precision, each truncated toward zero."""
    first, last = _integer_scalar(start, np_dtype), _integer_scalar(end, np_dtype)
    points = _halves(np.float64(first), np.float64(last), steps, np.float64)
    return np.trunc(points).astype(np.int64).astype(np_dtype)


def _halves(first, last, steps: int, np_dtype) -> np.ndarray:
    """PyTorch's linspace points, computed in ``np_dtype`` (that of first and last): the step
    is (last - first) / (steps - 1); the first half of the points counts up from first, the
    second half down from last (so both ends are exact)."""
    if steps == 1:
        return np.array([first], dtype=np_dtype)
    step = (last - first) / np_dtype(steps - 1)
    i = np.arange(steps).astype(np_dtype)
    up, down = first + step * i, last - step * (np_dtype(steps - 1) - i)
    return np.where(np.arange(steps) < steps // 2, up, down).astype(np_dtype)


def _integer_scalar(value, np_dtype) -> int:
    """A Python number converted to an integer dtype as PyTorch's Scalar conversion does: an
    overflow is an error; an int may also be negative down to -max for an unsigned type (it
    wraps around: uint8 takes -10 as 246); a float loses its fraction."""
    info = np.iinfo(np_dtype)
    if isinstance(value, numbers.Integral):
        low = -info.max if np_dtype.kind == "u" else info.min
    else:
        low = info.min
    if not low <= value <= info.max:
        raise RuntimeError(f"value cannot be converted to type {_CONVERTED_NAMES[np_dtype.name]}"
                           " without overflow")
    return int(np.array(int(value)).astype(np_dtype))


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


def get_rng_state() -> Tensor:
    """The CPU generator's state, as ``torch.get_rng_state()``: 5056 bytes (a uint8 tensor)."""
    return Tensor._wrap(_random.get_rng_state(), _backend.CPU)


def set_rng_state(new_state) -> None:
    """Restore a state ``get_rng_state()`` returned: the same numbers follow again."""
    _random.set_rng_state(_backend.to_numpy(new_state._data))


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


_RANDINT_FORMS = "".join(
    f"\n * ({head}tuple of ints size, *, {gen}Tensor out = None, torch.dtype dtype = None, "
    "torch.layout layout = None, torch.device device = None, bool pin_memory = False, "
    "bool requires_grad = False)"
    for head in ("int high, ", "int low, int high, ")
    for gen in ("torch.Generator generator, ", ""))


def _invalid_randint(*args) -> TypeError:
    got = ", ".join(type(a).__name__ for a in args if a is not None)
    return TypeError("randint() received an invalid combination of arguments - got "
                     f"({got}), but expected one of:{_RANDINT_FORMS}\n")


def _randint_bounds(low, high, size) -> tuple[int, int, tuple]:
    """PyTorch's two forms, ``randint(high, size)`` and ``randint(low, high, size)`` (any of
    them by keyword), as (low, high, size)."""
    if None not in (low, high, size):  # (low, high, size): PyTorch names no single argument
        if isinstance(low, float) or isinstance(high, float) or not isinstance(
                size, (tuple, list)):
            raise _invalid_randint(low, high, size)
    elif size is None:  # randint(high, size): the two positions given are high and size
        if high is None:
            raise _invalid_randint(low, high)
        low, high, size = 0, low, high
    elif high is None:  # randint(high, size=...)
        low, high = 0, low
    else:  # randint(high=..., size=...)
        low = 0
    if isinstance(high, float):
        raise TypeError("randint(): argument 'high' (position 1) must be int, not float")
    if not isinstance(size, (tuple, list)):
        raise TypeError("randint(): argument 'size' (position 2) must be tuple of ints, not "
                        f"{type(size).__name__}")
    if int(low) >= int(high):
        raise RuntimeError("random_ expects 'from' to be less than 'to', but got "
                           f"from={int(low)} >= to={int(high)}")
    return int(low), int(high), tuple(size)


def randint(low=None, high=None, size=None, *, generator=None, dtype=None, device=None,
            requires_grad=False) -> Tensor:
    """Integers drawn uniformly from [low, high) (``low`` is 0 in ``randint(high, size)``), the
    same numbers as ``torch.randint`` after the same seed, in every dtype."""
    low, high, size = _randint_bounds(low, high, size)
    gen = generator or _random.default_generator
    array = gen.randint(low, high, size)
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
