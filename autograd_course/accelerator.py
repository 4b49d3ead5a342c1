"""``ag.accelerator``: PyTorch's device-neutral questions about the GPU, if there is one.

The beginner tutorials start with ``torch.accelerator.current_accelerator()``. Here the only
accelerator is an NVIDIA GPU reached through CuPy; without CuPy (or without a GPU) the answers
are those PyTorch gives on a CPU-only machine: ``is_available()`` is False and
``current_accelerator()`` is None.
"""

from __future__ import annotations

from . import _backend


def is_available() -> bool:
    """True when a GPU can be used (CuPy installed and at least one device found)."""
    return _backend.cuda_available()


def device_count() -> int:
    """How many GPUs CuPy sees (0 without one)."""
    return _backend.cupy().cuda.runtime.getDeviceCount() if is_available() else 0


def current_accelerator(check_available: bool = False) -> _backend.device | None:
    """``device('cuda')`` when a GPU is usable, else None (as PyTorch on a CPU-only machine)."""
    return _backend.device("cuda") if is_available() else None


def current_device_index() -> int:
    """The index of the GPU new CUDA tensors go to (-1 when there is none)."""
    if not is_available():
        return -1
    return int(_backend.cupy().cuda.runtime.getDevice())


def set_device_index(index: int) -> None:
    """Make GPU ``index`` the current one."""
    _backend.cupy().cuda.runtime.setDevice(int(index))


def synchronize(device=None) -> None:
    """Wait until the GPU has finished its queued work (nothing to wait for on the CPU)."""
    if is_available():
        _backend.cupy().cuda.Device().synchronize()
