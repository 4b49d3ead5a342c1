"""``torch._C._autograd``: the saved-tensor hooks' switch and the version counter setter."""

from __future__ import annotations

from ..autograd import saved_tensor_hooks
from ..autograd.version_counter import unsafe_set_version_counter as _unsafe_set_version_counter

__all__ = ["_saved_tensors_hooks_is_enabled", "_unsafe_set_version_counter"]


def _saved_tensors_hooks_is_enabled() -> bool:
    """False inside ``disable_saved_tensors_hooks``."""
    return saved_tensor_hooks.hooks_enabled()
