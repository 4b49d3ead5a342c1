"""Device checks: PyTorch's error when an op's tensors are not all on one device, and the one
exception it makes (a 0-d CPU tensor next to a GPU tensor is taken as a number)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


def same_device(*tensors: Tensor | None) -> None:
    """PyTorch's error when an op's tensors (``None`` skipped) are not all on one device."""
    first = None
    for t in tensors:
        if t is None:
            continue
        if first is None:
            first = t._device
        elif t._device is not first and t._device != first:
            raise RuntimeError(
                "Expected all tensors to be on the same device, but found at least two devices, "
                f"{first} and {t._device}!"
            )


def same_device_pair(a: Tensor, b: Tensor) -> tuple[Tensor, Tensor]:
    """Two operands of an element-wise op, found on different devices, brought to one:
    PyTorch takes a 0-d CPU tensor next to a GPU tensor as a number (copied over); any other
    pair gets its error."""
    if b._data.ndim == 0 and b._device.type == "cpu":
        return a, b.to(a._device)
    if a._data.ndim == 0 and a._device.type == "cpu":
        return a.to(b._device), b
    raise RuntimeError(
        "Expected all tensors to be on the same device, but found at least two "
        f"devices, {a._device} and {b._device}!"
    )
