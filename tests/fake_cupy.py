"""A fake ``cupy`` built on NumPy, so the CUDA code path runs on machines without a GPU.

Its only job is to exercise our device logic, and to fail wherever real CuPy (checked against
CuPy 14.2) would fail, so that code which passes here also runs on a GPU:

* "GPU" arrays are ``FakeCupyArray`` (a NumPy array subclass). Like CuPy's, they refuse to mix
  with host (NumPy) arrays: in ufuncs and operators, in NumPy functions called on them
  (CuPy's ``__array_function__``), in ``cupy.<function>(...)`` calls and in ``a[key] = host``.
* The module has only the names CuPy has (``cupy.errstate``, for one, does not exist), and its
  functions and array methods accept only the keywords CuPy's accept (``cupy.indices`` has no
  ``sparse=``, ``cupy.clip`` spells ``a_min``/``a_max``, ``as_strided`` has no ``writeable=``).
* ``ufunc.at`` exists only for the ufuncs CuPy implements it for; ``where=`` is NumPy-only.
* ``asnumpy``/``asarray``/``ndarray.get`` copy between "host" and "device"; ``cuda.Device`` is a
  context manager that checks the index; ``cuda.runtime`` reports one device; ``random.seed``
  records the seed it was given.

What it cannot catch: ``numpy.asarray(device_array)`` silently makes a host view here (NumPy
never asks a subclass), where CuPy raises; ``to_numpy`` and friends must use ``cupy.asnumpy``.
"""

from __future__ import annotations

import types

import numpy as np

# Public names NumPy 2.x has and CuPy 14.2 lacks (``set(dir(numpy)) - set(dir(cupy))``).
NOT_IN_CUPY = frozenset("""
    False_ ScalarType True_ asmatrix block bmat busday_count busday_offset busdaycalendar bytes_
    char character clongdouble complex256 core ctypeslib datetime64 datetime_as_string
    datetime_data dtypes einsum_path emath errstate f2py flexible float128 frompyfunc fromregex
    geomspace get_include getbufsize geterr geterrcall histogram_bin_edges info insert
    is_busday isnat little_endian longdouble ma matrix matvec memmap nanpercentile nanquantile
    ndenumerate nditer nested_iters object_ polyder polydiv polyint rec recarray record
    sctypeDict setbufsize seterr seterrcall show_runtime spacing str_ strings test timedelta64
    typecodes unstack vecdot vecmat void
""".split())


def _keywords(spec: str) -> frozenset:
    return frozenset(spec.split())


# Keywords CuPy 14.2's functions accept, where NumPy's twin accepts more (from
# ``inspect.signature``): passing one outside the set is a TypeError on a real GPU.
FUNCTION_KEYWORDS = {
    "all": _keywords("a axis out keepdims"), "any": _keywords("a axis out keepdims"),
    "amax": _keywords("a axis out keepdims"), "amin": _keywords("a axis out keepdims"),
    "max": _keywords("a axis out keepdims"), "min": _keywords("a axis out keepdims"),
    "sum": _keywords("a axis dtype out keepdims"), "prod": _keywords("a axis dtype out keepdims"),
    "mean": _keywords("a axis dtype out keepdims"),
    "var": _keywords("a axis dtype out ddof keepdims"),
    "std": _keywords("a axis dtype out ddof keepdims"),
    "arange": _keywords("start stop step dtype"),
    "array": _keywords("obj dtype copy order subok ndmin blocking"),
    "asarray": _keywords("a dtype order copy blocking"),
    "asanyarray": _keywords("a dtype order copy blocking"),
    "ascontiguousarray": _keywords("a dtype"),
    "argsort": _keywords("a axis kind"), "sort": _keywords("a axis kind"),
    "broadcast_to": _keywords("array shape"), "broadcast_arrays": frozenset(),
    "clip": _keywords("a a_min a_max out"),
    "concatenate": _keywords("tup axis out dtype casting"),
    "concat": _keywords("tup axis out dtype casting"),
    "stack": _keywords("tup axis out dtype casting"),
    "copy": _keywords("a order"), "count_nonzero": _keywords("a axis"),
    "empty": _keywords("shape dtype order"), "zeros": _keywords("shape dtype order"),
    "ones": _keywords("shape dtype order"), "full": _keywords("shape fill_value dtype order"),
    "empty_like": _keywords("prototype dtype order subok shape"),
    "zeros_like": _keywords("a dtype order subok shape"),
    "ones_like": _keywords("a dtype order subok shape"),
    "full_like": _keywords("a fill_value dtype order subok shape"),
    "eye": _keywords("N M k dtype order"), "identity": _keywords("n dtype"),
    "linspace": _keywords("start stop num endpoint retstep dtype axis"),
    "flip": _keywords("a axis"), "indices": _keywords("dimensions dtype"),
    "linalg.eigh": _keywords("a UPLO"), "linalg.svd": _keywords("a full_matrices compute_uv"),
    "reshape": _keywords("a newshape order copy"), "take": _keywords("a indices axis out"),
    "take_along_axis": _keywords("a indices axis"),
    "unique": _keywords("ar return_index return_inverse return_counts axis equal_nan"),
    "unravel_index": _keywords("indices dims order"),
}

# ... and CuPy's ndarray methods (from their docstrings' signatures).
METHOD_KEYWORDS = {
    "all": _keywords("axis out keepdims"), "any": _keywords("axis out keepdims"),
    "max": _keywords("axis out keepdims"), "min": _keywords("axis out keepdims"),
    "argmax": _keywords("axis out dtype keepdims"), "argmin": _keywords("axis out dtype keepdims"),
    "sum": _keywords("axis dtype out keepdims"), "prod": _keywords("axis dtype out keepdims"),
    "mean": _keywords("axis dtype out keepdims"),
    "var": _keywords("axis dtype out ddof keepdims"),
    "std": _keywords("axis dtype out ddof keepdims"),
    "cumsum": _keywords("axis dtype out"), "clip": _keywords("min max out"),
    "astype": _keywords("dtype order copy"),  # casting= and subok= raise in CuPy
    "copy": _keywords("order"), "flatten": _keywords("order"), "ravel": _keywords("order"),
    "reshape": _keywords("order copy"), "take": _keywords("indices axis out"),
    "sort": _keywords("axis kind"), "argsort": _keywords("axis kind"),
    "squeeze": _keywords("axis"), "view": _keywords("dtype type"),
}

# The ufuncs whose ``.at`` CuPy implements (CuPy's ufunc reference page).
AT_UFUNCS = frozenset("add subtract maximum minimum bitwise_and bitwise_or bitwise_xor".split())
# The ufuncs whose ``.reduce``/``.accumulate`` CuPy implements, when called explicitly.
REDUCE_UFUNCS = frozenset(("add", "multiply"))


def _check_keywords(name: str, kwargs: dict, allowed) -> None:
    if allowed is None:
        return
    for key in kwargs:
        if key not in allowed:
            raise TypeError(f"{name}() got an unexpected keyword argument '{key}' (CuPy's "
                            f"{name} does not take it)")


def _is_host(value) -> bool:
    return type(value) is np.ndarray


def _refuse_host(values) -> None:
    """CuPy never copies a host array to the GPU implicitly: it raises."""
    for value in values:
        if _is_host(value):
            raise TypeError(f"Unsupported type {type(value)}")  # CuPy's message
        if isinstance(value, (list, tuple)):
            _refuse_host(value)


class FakeCupyArray(np.ndarray):
    """A 'device' array. Mixing it with a host ``numpy.ndarray`` raises, as CuPy does."""

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        outs = kwargs.get("out", ())
        _refuse_host(inputs + tuple(outs))
        if method == "__call__" and kwargs.get("where", True) is not True:
            raise TypeError("Wrong arguments {'where'}")  # CuPy's ufuncs have no where=
        if method == "at" and ufunc.__name__ not in AT_UFUNCS:
            raise AttributeError(f"CuPy does not implement {ufunc.__name__}.at")
        plain = tuple(_host_view(v) for v in inputs)
        if outs:
            kwargs["out"] = tuple(_host_view(v) for v in outs)
        with np.errstate(all="ignore"):  # CuPy never warns about inf or nan
            result = getattr(ufunc, method)(*plain, **kwargs)
        if outs:
            return outs[0] if len(outs) == 1 else outs
        return _to_device_result(result)

    def __array_function__(self, func, types, args, kwargs):
        """NumPy functions on device arrays run CuPy's twin (CuPy's ``__array_function__``):
        none where CuPy has none, host arrays refused, results on the device."""
        name = func.__name__
        if name in NOT_IN_CUPY:
            return NotImplemented  # NumPy then raises TypeError, as with CuPy
        _check_keywords(name, kwargs, FUNCTION_KEYWORDS.get(name))
        _refuse_host(args)
        _refuse_host(tuple(kwargs.values()))
        result = func(*_host_args(args), **{k: _host_args(v) for k, v in kwargs.items()})
        return _to_device_result(result)

    def __getitem__(self, key):
        result = super().__getitem__(key)
        return _to_device_result(result) if isinstance(result, np.generic) else result  # 0-d

    def __setitem__(self, key, value) -> None:
        _refuse_host((value,))
        super().__setitem__(key, _host_view(value))

    @property
    def device(self):
        """The GPU the array lives on (``cupy.ndarray.device``)."""
        return _Device(0)

    def get(self) -> np.ndarray:
        """Copy to the host, as ``cupy.ndarray.get()`` does."""
        return asnumpy(self)

    def setflags(self, *args, **kwargs):
        raise AttributeError("'cupy.ndarray' object has no attribute 'setflags'")

    def resize(self, *args, **kwargs):
        raise AttributeError("'cupy.ndarray' object has no attribute 'resize'")


def _checked_method(name: str, allowed):
    base = getattr(np.ndarray, name)

    def method(self, *args, **kwargs):
        _check_keywords(f"ndarray.{name}", kwargs, allowed)
        return base(self, *args, **kwargs)

    method.__name__ = name
    return method


for _name, _allowed in METHOD_KEYWORDS.items():
    setattr(FakeCupyArray, _name, _checked_method(_name, _allowed))


def _host_view(value):
    return value.view(np.ndarray) if isinstance(value, FakeCupyArray) else value


def _host_args(value):
    if isinstance(value, (list, tuple)):
        return type(value)(_host_args(v) for v in value)
    return _host_view(value)


def _to_device_result(result):
    """Wrap what NumPy returned as device arrays (0-d results too, as CuPy keeps them)."""
    if isinstance(result, (tuple, list)):
        return type(result)(_to_device_result(r) for r in result)
    if isinstance(result, (np.ndarray, np.generic)):
        return np.asarray(result).view(FakeCupyArray)
    return result


def asnumpy(array, stream=None, order="C", out=None, blocking=True) -> np.ndarray:
    """Device -> host copy (a plain ``numpy.ndarray``)."""
    return np.array(_host_view(array), copy=True)


def asarray(array, dtype=None, order=None, *, copy=None, blocking=False) -> FakeCupyArray:
    """Host -> device copy (a no-op for arrays already on the device)."""
    if isinstance(array, FakeCupyArray) and (dtype is None or array.dtype == dtype) and not copy:
        return array
    return np.array(_host_args(array), dtype=dtype, order=order).view(FakeCupyArray)


def array(obj, dtype=None, copy=True, order="K", subok=False, ndmin=0, *,
          blocking=False) -> FakeCupyArray:
    return np.array(_host_args(obj), dtype=dtype, copy=copy, order=order,
                    ndmin=ndmin).view(FakeCupyArray)


class _Device:
    """``cupy.cuda.Device(i)``: a context manager that makes device i current."""

    current = 0
    entered: list = []
    synchronized = 0

    def __init__(self, device: int | None = None) -> None:
        self.id = _Device.current if device is None else int(device)

    def __enter__(self):
        if self.id >= _runtime.getDeviceCount():
            raise RuntimeError(f"CUDA error: invalid device ordinal {self.id}")
        self.previous, _Device.current = _Device.current, self.id
        _Device.entered.append(self.id)
        return self

    def __exit__(self, *exc) -> None:
        _Device.current = self.previous

    def synchronize(self) -> None:
        """Wait for the GPU's queued work (NumPy's is always done)."""
        _Device.synchronized += 1

    @property
    def compute_capability(self) -> str:
        return "90"


class _Stream:
    """``cupy.cuda.Stream``: work is queued on it; ``synchronize`` waits for it."""

    null = None

    def synchronize(self) -> None:
        _Device.synchronized += 1


_Stream.null = _Stream()


class _Runtime:
    @staticmethod
    def getDeviceCount() -> int:  # CuPy's name
        return 1

    @staticmethod
    def getDeviceProperties(index: int) -> dict:  # CuPy's name
        if index >= _Runtime.getDeviceCount():
            raise RuntimeError(f"CUDA error: invalid device ordinal {index}")
        return {"name": b"Fake CuPy device (NumPy)", "totalGlobalMem": 0, "major": 9, "minor": 0}

    @staticmethod
    def deviceSynchronize() -> None:  # CuPy's name
        _Device.synchronized += 1

    @staticmethod
    def runtimeGetVersion() -> int:  # CuPy's name
        return 12000


class _Random:
    """``cupy.random``: ``seed`` remembers what it was given and reseeds ``rand``."""

    seeds: list = []
    _state = np.random.RandomState(0)

    @classmethod
    def seed(cls, value=None) -> None:
        cls.seeds.append(value)
        cls._state = np.random.RandomState(None if value is None else value % 2**32)

    @classmethod
    def rand(cls, *shape) -> FakeCupyArray:
        return np.asarray(cls._state.random_sample(shape)).view(FakeCupyArray)


_runtime = _Runtime()


class _Ufunc:
    """A CuPy ufunc: NumPy's, refusing host arrays, returning device arrays, with only the
    methods CuPy has for it."""

    def __init__(self, ufunc: np.ufunc) -> None:
        self._ufunc = ufunc
        self.__name__ = ufunc.__name__
        self.nin, self.nout, self.nargs = ufunc.nin, ufunc.nout, ufunc.nargs

    def __call__(self, *args, **kwargs):
        out = kwargs.get("out")
        _refuse_host(args + (out if isinstance(out, tuple) else (out,)))
        _check_keywords(self.__name__, kwargs, {"out", "dtype", "casting"})
        return _to_device_result(self._ufunc(*args, **kwargs))

    def _method(self, method: str, supported):
        if supported is not None and self.__name__ not in supported:
            raise NotImplementedError(f"CuPy does not implement {self.__name__}.{method}")
        base = getattr(self._ufunc, method)

        def call(*args, **kwargs):
            _refuse_host(args)
            return _to_device_result(base(*args, **kwargs))

        return call

    def __getattr__(self, name: str):
        supported = {"at": AT_UFUNCS, "reduce": REDUCE_UFUNCS, "accumulate": REDUCE_UFUNCS,
                     "reduceat": {"add"}, "outer": None}
        if name in supported:
            return self._method(name, supported[name])
        raise AttributeError(f"'cupy.ufunc' object has no attribute '{name}'")


def _device_function(fn, name: str):
    """A NumPy function as CuPy has it: host arrays refused, CuPy's keywords only, results
    on the device."""

    def wrapper(*args, **kwargs):
        _refuse_host(args)
        _refuse_host(tuple(kwargs.values()))
        _check_keywords(name, kwargs, FUNCTION_KEYWORDS.get(name))
        return _to_device_result(fn(*_host_args(args),
                                    **{k: _host_args(v) for k, v in kwargs.items()}))

    wrapper.__name__ = name
    return wrapper


def _as_strided(x, shape=None, strides=None):
    """``cupy.lib.stride_tricks.as_strided``: a device view (no ``subok``/``writeable``)."""
    _refuse_host((x,))
    return np.lib.stride_tricks.as_strided(x, shape, strides, subok=True)


def _sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False):
    _refuse_host((x,))
    return np.lib.stride_tricks.sliding_window_view(
        x, window_shape, axis, subok=True, writeable=writeable)


def make_module() -> types.ModuleType:
    """A fresh fake ``cupy`` module (fresh seed records each time)."""
    module = types.ModuleType("cupy")
    module.__file__ = __file__
    module.ndarray = FakeCupyArray
    module.asnumpy = asnumpy
    module.asarray = asarray
    module.asanyarray = asarray
    module.array = array
    module.cuda = types.SimpleNamespace(
        Device=_Device, runtime=_runtime, Stream=_Stream,
        get_current_stream=lambda device=None: _Stream.null, is_available=lambda: True)
    module.lib = types.SimpleNamespace(stride_tricks=types.SimpleNamespace(
        as_strided=_as_strided, sliding_window_view=_sliding_window_view))
    module.random = type("random", (_Random,), {"seeds": [], "_state": np.random.RandomState(0)})
    # cupy.linalg: the decompositions the package uses (CuPy has both, with these keywords)
    # (plain tuples, as CuPy returns: NumPy's are named tuples)
    module.linalg = types.SimpleNamespace(
        eigh=_device_function(lambda a, UPLO="L": tuple(np.linalg.eigh(a, UPLO)), "linalg.eigh"),
        svd=_device_function(lambda a, full_matrices=True, compute_uv=True: tuple(
            np.linalg.svd(a, full_matrices, compute_uv)), "linalg.svd"))
    module.is_fake = True
    module.__version__ = f"fake (NumPy {np.__version__})"

    def __getattr__(name):  # module-level __getattr__: the rest is NumPy's
        if name in NOT_IN_CUPY or name.startswith("_"):
            raise AttributeError(f"module 'cupy' has no attribute '{name}'")
        value = getattr(np, name)
        if isinstance(value, np.ufunc):
            return _Ufunc(value)
        if callable(value) and not isinstance(value, type):
            return _device_function(value, name)
        if isinstance(value, types.ModuleType):
            raise AttributeError(f"the fake cupy has no submodule '{name}'")
        return value  # dtypes (cupy.float32 is numpy.float32), iinfo, inf, pi, newaxis...

    module.__getattr__ = __getattr__
    return module
