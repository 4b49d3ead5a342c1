"""Dimension arguments: a negative ``dim`` counts from the end, and one out of range gets
PyTorch's IndexError."""

from __future__ import annotations


def normalize_dim(dim: int, ndim: int) -> int:
    """Turn a negative dim into a positive one, with PyTorch's IndexError when out of range."""
    low, high = -max(ndim, 1), max(ndim, 1) - 1
    if not low <= dim <= high:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{low}, {high}], but got {dim})"
        )
    return dim % max(ndim, 1)
