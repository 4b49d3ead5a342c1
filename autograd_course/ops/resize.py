"""``interpolate``: resizing images by picking (``nearest``) or blending (``bilinear``)
pixels of the input, written with indexing and arithmetic, so autograd differentiates it the
way it differentiates those (the gradient of a picked pixel goes back to where it was picked).

For each output coordinate ``d`` the source coordinate is ``s = d · scale`` (nearest; the
pixel ``floor(s)``), or ``s = (d + ½) · scale - ½`` (bilinear, ``align_corners=False``;
``d · (in - 1) / (out - 1)`` with ``align_corners=True``), blended between ``floor(s)`` and
the next pixel. ``scale`` is in/out, or 1/scale_factor when a ``scale_factor`` is given.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


def _sizes(input, size, scale_factor, recompute):
    spatial = input.ndim - 2
    if (size is None) == (scale_factor is None):
        raise ValueError("either size or scale_factor should be defined" if size is None
                         else "only one of size or scale_factor should be defined")
    if size is not None:
        out = (size,) * spatial if isinstance(size, int) else tuple(size)
        return out, [i / o for i, o in zip(input.shape[2:], out)]
    factors = (scale_factor,) * spatial if isinstance(scale_factor, (int, float)) \
        else tuple(scale_factor)
    out = tuple(int(math.floor(i * f)) for i, f in zip(input.shape[2:], factors))
    if recompute:
        return out, [i / o for i, o in zip(input.shape[2:], out)]
    return out, [1.0 / f for f in factors]


def _nearest(size_in, size_out, scale):
    src = np.floor(np.arange(size_out, dtype=np.float32) * np.float32(scale)).astype(np.int64)
    return np.minimum(src, size_in - 1)


def _linear(size_in, size_out, scale, align_corners):
    """Left neighbour, right neighbour and the weight of the right one, per output index."""
    d = np.arange(size_out, dtype=np.float64)
    if align_corners:
        src = d * ((size_in - 1) / (size_out - 1) if size_out > 1 else 0.0)
    else:
        src = np.maximum((d + 0.5) * scale - 0.5, 0.0)
    left = np.minimum(np.floor(src).astype(np.int64), size_in - 1)
    right = np.minimum(left + 1, size_in - 1)
    return left, right, src - left


def interpolate(input: Tensor, size=None, scale_factor=None, mode: str = "nearest",
                align_corners: bool | None = None, recompute_scale_factor: bool | None = None,
                antialias: bool = False) -> Tensor:
    """Resize the spatial dims (after N and C): ``nearest`` (3-d or 4-d input) or
    ``bilinear`` (4-d)."""
    if mode not in ("nearest", "bilinear"):
        raise NotImplementedError(f"interpolate(mode={mode!r}) is not supported here")
    if mode == "nearest" and align_corners is not None:
        raise ValueError("align_corners option can only be set with the interpolating modes: "
                         "linear | bilinear | bicubic | trilinear")
    if mode == "bilinear" and input.ndim != 4:
        raise NotImplementedError(f"Got {input.ndim}D input, but bilinear mode needs 4D input")
    out_size, scales = _sizes(input, size, scale_factor, recompute_scale_factor)
    out = input
    for k, (n_in, n_out, scale) in enumerate(zip(input.shape[2:], out_size, scales)):
        dim = 2 + k
        if mode == "nearest":
            out = out.index_select(dim, out._new(out._xp.asarray(_nearest(n_in, n_out, scale))))
            continue
        if not align_corners and size is not None:
            scale = n_in / n_out
        left, right, weight = _linear(n_in, n_out, scale, bool(align_corners))
        shape = [1] * input.ndim
        shape[dim] = n_out
        xp = out._xp
        w = out._new(xp.asarray(weight.astype(out._data.dtype).reshape(shape)))
        out = (out.index_select(dim, out._new(xp.asarray(left))) * (1 - w)
               + out.index_select(dim, out._new(xp.asarray(right))) * w)
    return out
