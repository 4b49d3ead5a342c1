"""A fake ``cupy`` built on NumPy, so the CUDA code path runs on machines without a GPU.

Its only job is to exercise our device logic: "GPU" arrays are ``FakeCupyArray`` (a NumPy
array subclass), and, like real CuPy, they refuse to mix with host (NumPy) arrays in
arithmetic, so an op that forgets to move data to the right device fails loudly here too.
Module functions are NumPy's, returning ``FakeCupyArray``; ``asnumpy``/``asarray`` copy
between "host" and "device"; ``cuda.Device`` is a context manager; ``cuda.runtime`` reports
one device; ``random.seed`` records the seed it was given.
"""

from __future__ import annotations

import types

import numpy as np


class FakeCupyArray(np.ndarray):
    """A 'device' array. Mixing it with a host ``numpy.ndarray`` raises, as CuPy does."""

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        outs = kwargs.get("out", ())
        for value in inputs + tuple(outs):
            if type(value) is np.ndarray:
                raise TypeError(f"Unsupported type {type(value)}")  # CuPy's message
        plain = tuple(_host_view(v) for v in inputs)
        if outs:
            kwargs["out"] = tuple(_host_view(v) for v in outs)
        result = getattr(ufunc, method)(*plain, **kwargs)
        if outs:
            return outs[0] if len(outs) == 1 else outs
        return _to_device_result(result)

    def get(self) -> np.ndarray:
        """Copy to the host, as ``cupy.ndarray.get()`` does."""
        return asnumpy(self)



def _host_view(value):
    return value.view(np.ndarray) if isinstance(value, FakeCupyArray) else value


def _to_device_result(result):
    """Wrap what NumPy returned as device arrays (0-d results too, as CuPy keeps them)."""
    if isinstance(result, tuple):
        return tuple(_to_device_result(r) for r in result)
    if isinstance(result, (np.ndarray, np.generic)):
        return np.asarray(result).view(FakeCupyArray)
    return result


def asnumpy(array) -> np.ndarray:
    """Device -> host copy (a plain ``numpy.ndarray``)."""
    return np.array(_host_view(array), copy=True)


def asarray(array, dtype=None) -> FakeCupyArray:
    """Host -> device copy (a no-op for arrays already on the device)."""
    if isinstance(array, FakeCupyArray) and (dtype is None or array.dtype == dtype):
        return array
    return np.array(_host_view(array), dtype=dtype).view(FakeCupyArray)


def array(obj, dtype=None, copy=True) -> FakeCupyArray:
    return np.array(_host_view(obj), dtype=dtype, copy=copy).view(FakeCupyArray)


class _Device:
    """``cupy.cuda.Device(i)``: a context manager that makes device i current."""

    current = 0
    entered: list = []

    def __init__(self, index: int | None = 0) -> None:
        self.id = 0 if index is None else index

    def __enter__(self):
        if self.id >= _runtime.getDeviceCount():
            raise RuntimeError(f"CUDA error: invalid device ordinal {self.id}")
        self.previous, _Device.current = _Device.current, self.id
        _Device.entered.append(self.id)
        return self

    def __exit__(self, *exc) -> None:
        _Device.current = self.previous


class _Runtime:
    @staticmethod
    def getDeviceCount() -> int:  # noqa: N802  (CuPy's name)
        return 1


class _Random:
    """``cupy.random``: only ``seed`` is needed; it remembers what it was given."""

    seeds: list = []

    @classmethod
    def seed(cls, value=None) -> None:
        cls.seeds.append(value)


_runtime = _Runtime()


def make_module() -> types.ModuleType:
    """A fresh fake ``cupy`` module (fresh seed records each time)."""
    module = types.ModuleType("cupy")
    module.ndarray = FakeCupyArray
    module.asnumpy = asnumpy
    module.asarray = asarray
    module.array = array
    module.cuda = types.SimpleNamespace(Device=_Device, runtime=_runtime)
    module.random = type("random", (_Random,), {"seeds": []})
    module.is_fake = True

    def __getattr__(name):  # noqa: N807  (module-level __getattr__: the rest is NumPy's)
        value = getattr(np, name)
        if callable(value) and not isinstance(value, type) and not isinstance(value, np.ufunc):
            return _device_function(value)
        return value

    module.__getattr__ = __getattr__
    return module


def _device_function(fn):
    """A NumPy function whose array results live on the 'device'."""

    def wrapper(*args, **kwargs):
        return _to_device_result(fn(*args, **kwargs))

    wrapper.__name__ = getattr(fn, "__name__", "function")
    return wrapper
