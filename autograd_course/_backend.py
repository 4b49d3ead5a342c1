"""Where arrays live: NumPy on the CPU, CuPy on an NVIDIA GPU.

This is the only module that knows CuPy exists. Every tensor remembers its ``device``; ops ask
``array_module(device)`` for the matching module and call ``xp.exp``, ``xp.zeros``... on it,
so the same op code runs on both. CuPy is imported the first time a CUDA tensor is asked for,
never before, so learners without a GPU never need it installed.
"""

from __future__ import annotations

import importlib
import math

import numpy as np

from .random import initial_seed


class device:  # PyTorch spells it in lower case
    """A place for tensors: ``device('cpu')`` or ``device('cuda:0')``."""

    __slots__ = ("type", "index")

    def __init__(self, spec: str | device = "cpu", index: int | None = None) -> None:
        if isinstance(spec, device):
            self.type, self.index = spec.type, spec.index
            return
        kind, _, number = str(spec).partition(":")
        if kind not in ("cpu", "cuda"):
            raise RuntimeError(
                "Expected one of cpu, cuda device type at start of device string: " + str(spec)
            )
        self.type = kind
        if number:
            index = int(number)
        self.index = (index or 0) if kind == "cuda" else index

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __repr__(self) -> str:
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __eq__(self, other) -> bool:
        if isinstance(other, str):
            other = device(other)
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self) -> int:
        return hash((self.type, self.index))


CPU = device("cpu")
_cupy = None  # the CuPy module once loaded (tests may put a fake one here)
_default = CPU  # where factories put tensors when no device= is given


def set_default_device(spec) -> None:
    """Make factories (``zeros``, ``randn``, ``tensor``..., and so layers' parameters) create
    tensors on ``spec`` when they are given no ``device=``; ``None`` means the CPU again."""
    global _default
    _default = as_device(spec)


def get_default_device() -> device:
    """The device factories use when given no ``device=`` (the CPU unless changed)."""
    return _default


def factory_device(spec) -> device:
    """``spec`` as a device, or the default device when it is None (what factories call)."""
    return _default if spec is None else as_device(spec)


def as_device(spec) -> device:
    """Normalise 'cpu', 'cuda', 'cuda:0' or a device to a device object (CPU is a singleton)."""
    if spec is None or spec is CPU:
        return CPU
    d = spec if isinstance(spec, device) else device(spec)
    return CPU if d.type == "cpu" else d


def cupy():
    """Import CuPy on first use, with an error that says how to get it."""
    global _cupy
    if _cupy is None:
        try:
            module = importlib.import_module("cupy")
        except ImportError as err:
            raise RuntimeError(
                "CUDA tensors need CuPy, which is not installed. Install the GPU extra with "
                "`pip install -e .[gpu]` (it brings cupy-cuda12x), or keep tensors on the CPU."
            ) from err
        _cupy = module
        seed_cuda(initial_seed())  # as if manual_seed had seeded it too: runs repeat
    return _cupy


def seed_cuda(seed: int) -> None:
    """Seed CuPy's generator, when CuPy is loaded (``manual_seed`` seeds every device)."""
    if _cupy is not None:
        _cupy.random.seed(int(seed) % 2**64)


def array_module(dev: device):
    """NumPy for the CPU, CuPy for CUDA: the module ops call for array maths."""
    return np if dev is CPU else cupy()


def create(dev: device, name: str, *args, **kwargs):
    """``xp.<name>(*args)`` on ``dev``. CuPy allocates on the *current* GPU, so ``dev`` is
    made current while the array is created."""
    if dev is CPU:
        return getattr(np, name)(*args, **kwargs)
    cp = cupy()
    with cp.cuda.Device(dev.index):
        return getattr(cp, name)(*args, **kwargs)


def cuda_available() -> bool:
    """True when CuPy imports and sees at least one GPU."""
    try:
        return cupy().cuda.runtime.getDeviceCount() > 0
    except Exception:  # no CuPy, no driver, or no device: all mean "no GPU here"
        return False


def erf(xp, array):
    """The error function erf(z) = 2/√π ∫₀ᶻ e^(-t²) dt, element-wise (for GELU).

    NumPy has none, so on the CPU each element goes through ``math.erf`` (exact to the last
    bit of a double); on a GPU, CuPy's ``cupyx.scipy.special.erf``.
    """
    if xp is not np:
        try:
            return importlib.import_module("cupyx.scipy.special").erf(array)
        except ImportError:  # a CuPy without cupyx: compute on the host and copy back
            return xp.asarray(erf(np, to_numpy(array)))
    exact = np.frompyfunc(math.erf, 1, 1)
    return np.asarray(exact(array.astype(np.float64)), dtype=np.float64).astype(array.dtype)


def to_device(array, dev: device):
    """Copy an array to ``dev`` (a no-op when it is already there)."""
    if dev is CPU:
        return to_numpy(array)
    cp = cupy()
    with cp.cuda.Device(dev.index):
        return cp.asarray(array)


def to_numpy(array) -> np.ndarray:
    """A NumPy array for any array we hold (copies GPU memory to the host)."""
    if isinstance(array, np.ndarray) and type(array) is np.ndarray:
        return array
    if _cupy is not None and hasattr(_cupy, "asnumpy"):
        return _cupy.asnumpy(array)
    return np.asarray(array)


def data_ptr(array) -> int:
    """The address of an array's first element (equal for arrays that share memory)."""
    if isinstance(array, np.ndarray):
        return array.__array_interface__["data"][0]
    return array.data.ptr
