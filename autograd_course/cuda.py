"""``ag.cuda``: is a GPU usable here?"""

from __future__ import annotations

from . import _backend


def is_available() -> bool:
    """True when CuPy is installed and sees an NVIDIA GPU."""
    return _backend.cuda_available()


def device_count() -> int:
    return _backend.cupy().cuda.runtime.getDeviceCount() if is_available() else 0


def manual_seed(seed: int) -> None:
    """Seed CuPy's generator (does nothing until CuPy is loaded, like PyTorch without CUDA)."""
    _backend.seed_cuda(seed)


manual_seed_all = manual_seed
