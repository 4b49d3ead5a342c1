"""Shape rules shared by the engine's gradient checks and the ops."""

from __future__ import annotations


def broadcasts_to(shape: tuple[int, ...], target: tuple[int, ...]) -> bool:
    """True when ``shape`` broadcasts to ``target``, so a gradient of ``target`` sums back
    to ``shape``: aligned from the right, each size is equal or 1, none left over."""
    if len(shape) > len(target):
        return False
    for s, t in zip(shape, target[len(target) - len(shape):]):
        if s != t and s != 1:
            return False
    return True
