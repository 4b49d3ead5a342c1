"""``torch._C._autograd``: saved tensors, the saved-tensor hooks' switch and the version
counter setter."""

from __future__ import annotations

from ...autograd import saved_tensor_hooks
from ...autograd.saved_tensor import SavedTensor
from ...autograd.version_counter import unsafe_set_version_counter as _unsafe_set_version_counter

__all__ = ["SavedTensor", "_make_saved_tensor", "_saved_tensors_hooks_is_enabled",
           "_unsafe_set_version_counter"]


def _make_saved_tensor(tensor, *, is_output: bool) -> SavedTensor:
    """Save ``tensor`` as an op would (through the saved-tensor hooks active now)."""
    return SavedTensor(tensor, is_output)


def _saved_tensors_hooks_is_enabled() -> bool:
    """False inside ``disable_saved_tensors_hooks``."""
    return saved_tensor_hooks.hooks_enabled()
