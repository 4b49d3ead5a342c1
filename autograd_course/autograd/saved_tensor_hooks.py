"""Saved-tensor hooks: choose how the tensors kept for backward are stored.

Inside ``with saved_tensors_hooks(pack_hook, unpack_hook):`` every tensor an operation saves
for backward is handed to ``pack_hook`` and what it returns is kept instead; when backward
needs the tensor, ``unpack_hook(packed)`` must give it back. Moving saved tensors to the CPU
(``save_on_cpu``), to disk, or recomputing them (``utils.checkpoint``) are all such pairs.
Only the innermost pair applies; a tensor keeps the pair that was active when it was saved.
"""

from __future__ import annotations

import contextlib

active_pairs: list = []  # the (pack_hook, unpack_hook) pairs in use, the innermost last
_disabled: list = [None]  # the error message while hooks are disabled, else None


class saved_tensors_hooks:
    """Context manager: pack each saved tensor with ``pack_hook``, unpack it with
    ``unpack_hook``. The pack hook must not change its input in place."""

    def __init__(self, pack_hook, unpack_hook) -> None:
        self.pack_hook, self.unpack_hook = pack_hook, unpack_hook

    def __enter__(self) -> None:
        if _disabled[0] is not None:
            raise RuntimeError(_disabled[0])
        active_pairs.append((self.pack_hook, self.unpack_hook))

    def __exit__(self, *exc) -> None:
        active_pairs.pop()


class save_on_cpu(saved_tensors_hooks):
    """Keep the saved tensors on the CPU and move each back to its device when backward
    needs it (to save GPU memory)."""

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda") -> None:
        def pack_to_cpu(tensor):
            return tensor.device, tensor.cpu()

        def unpack_from_cpu(packed):
            device, tensor = packed
            return tensor.to(device)

        super().__init__(pack_to_cpu, unpack_from_cpu)


@contextlib.contextmanager
def disable_saved_tensors_hooks(error_message: str):
    """Inside it, using ``saved_tensors_hooks`` raises ``RuntimeError(error_message)``."""
    previous = _disabled[0]
    try:
        if active_pairs:  # hooks in use now cannot be disabled
            raise RuntimeError(error_message)
        _disabled[0] = error_message
        yield
    finally:
        _disabled[0] = previous


def active() -> list:
    """A copy of the active pairs (``restore`` puts it back)."""
    return list(active_pairs)


def restore(pairs: list) -> None:
    active_pairs[:] = pairs


def hooks_enabled() -> bool:
    """False inside ``disable_saved_tensors_hooks``."""
    return _disabled[0] is None
