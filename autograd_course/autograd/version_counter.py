"""Setting a tensor's version counter by hand: PyTorch's escape hatch for code that must hide
an in-place change from autograd (and so takes on keeping gradients right itself).

``_unsafe_preserve_version_counter(t)`` puts ``t._version`` back, at the end of the block,
to what it was at the start: in-place changes inside the block go unnoticed by the saved
tensors that check it. ``unsafe_set_version_counter((t,), (n,))`` sets it to ``n``.
"""

from __future__ import annotations

from ..tensor_base import TensorBase


def unsafe_set_version_counter(tensors, versions) -> None:
    """Set each tensor's ``_version`` (``torch._C._autograd._unsafe_set_version_counter``)."""
    for t, version in zip(tensors, versions):
        if version < 0:
            raise RuntimeError(f"Cannot set a version_counter to a value below 0: {version}")
        t._shared_version_counter().value = int(version)


class _unsafe_preserve_version_counter:
    """Context manager: the tensors' ``_version`` is the same after the block as before."""

    def __init__(self, tensors) -> None:
        self.tensors = (tensors,) if isinstance(tensors, TensorBase) else tensors
        if not isinstance(self.tensors, tuple):
            raise AssertionError("Expected tensors to be a tuple")
        self.prev_versions = tuple(t._version for t in self.tensors)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc) -> None:
        unsafe_set_version_counter(self.tensors, self.prev_versions)
