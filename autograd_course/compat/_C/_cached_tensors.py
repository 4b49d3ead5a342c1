"""``torch._C``'s cached-tensor registry. PyTorch marks tensors that a CUDA graph keeps alive
as *cached*, so that autograd does not count them as owned by a caller. Here the registry is
just that: a set of tensors (by identity, kept weakly) that ``_add_cached_tensor`` puts in and
``_remove_cached_tensor`` takes out; adding one twice keeps it once, as in a set.
"""

from __future__ import annotations

import weakref

__all__ = ["_add_cached_tensor", "_is_cached_tensor", "_remove_cached_tensor",
           "_set_cached_tensors_enabled"]

_cached: dict[int, weakref.ref] = {}  # id(tensor) -> a weak reference to it
_enabled = [False]


def _set_cached_tensors_enabled(enabled: bool) -> None:
    """Switch the registry on or off (off: nothing is cached)."""
    _enabled[0] = bool(enabled)
    if not enabled:
        _cached.clear()


def _add_cached_tensor(tensor) -> None:
    """Mark ``tensor`` as cached."""
    _cached[id(tensor)] = weakref.ref(tensor)


def _remove_cached_tensor(tensor) -> None:
    """Unmark ``tensor`` (nothing happens if it was not marked)."""
    _cached.pop(id(tensor), None)


def _is_cached_tensor(tensor) -> bool:
    """Whether ``tensor`` is marked as cached (always False while the registry is off)."""
    ref = _cached.get(id(tensor))
    return _enabled[0] and ref is not None and ref() is tensor
