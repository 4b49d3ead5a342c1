"""PyTorch's memory formats: how a tensor's elements are ordered in memory.

``torch.contiguous_format`` is row-major order (the last dim varies fastest), the only order
this library stores; ``torch.preserve_format`` asks a copy to keep its input's order, which
here is that same order. ``torch.channels_last`` (an image batch stored pixel by pixel, its
channels side by side) is named so that code written for PyTorch reads, and refused where it
would change the layout, with a message saying what to use.
"""

from __future__ import annotations


class memory_format:
    """One of PyTorch's memory-format constants (``repr`` ``torch.contiguous_format``)."""

    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        self._name = name

    def __repr__(self) -> str:
        return f"torch.{self._name}"


contiguous_format = memory_format("contiguous_format")
preserve_format = memory_format("preserve_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")


def check_memory_format(function: str, value: memory_format | None) -> None:
    """Accept ``contiguous_format`` and ``preserve_format`` (both mean row-major here); refuse
    the channels-last formats, and anything that is not a memory format (PyTorch's
    TypeError)."""
    if value is None or value is contiguous_format or value is preserve_format:
        return
    if isinstance(value, memory_format):
        raise NotImplementedError(
            f"{function}(memory_format={value!r}) is not supported: autograd_course stores "
            "every tensor in row-major order; leave memory_format out (or pass "
            "torch.contiguous_format) and keep the (N, C, H, W) layout.")
    raise TypeError(f"{function}(): argument 'memory_format' must be torch.memory_format, not "
                    f"{type(value).__name__}")
