"""``interpolate``: resizing images by picking (``nearest``, ``nearest-exact``), averaging
(``area``) or blending (``linear``, ``bilinear``, ``bicubic``, ``trilinear``) pixels of the
input, written with indexing and arithmetic, so autograd differentiates it the
way it differentiates those (the gradient of a picked pixel goes back to where it was picked).

For each output coordinate ``d`` the source coordinate is ``s = d · scale`` (nearest; the
pixel ``floor(s)``), or ``s = (d + ½) · scale - ½`` (bilinear, ``align_corners=False``;
``d · (in - 1) / (out - 1)`` with ``align_corners=True``), blended between ``floor(s)`` and
the next pixel; bicubic blends four pixels around ``s`` with a cubic kernel. ``scale`` is
in/out, or 1/scale_factor when a ``scale_factor`` is given. Every mode works one spatial dim
at a time (each is separable).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from .pool import adaptive_matrix

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


def _nearest(size_in, size_out, scale, exact=False):
    """``nearest``: the pixel at floor(d · scale); ``nearest-exact``: at floor((d + ½) · scale)
    (the pixel whose centre is nearest), in float32 as PyTorch computes it."""
    d = np.arange(size_out, dtype=np.float32) + np.float32(0.5 if exact else 0.0)
    src = np.floor(d * np.float32(scale)).astype(np.int64)
    return np.minimum(src, size_in - 1)


def _source(size_in, size_out, scale, align_corners, cubic=False):
    """Where each output index reads the input, as a real coordinate (half-pixel centres, or
    corners aligned). Linear clamps it at 0; cubic does not (its taps are clamped instead)."""
    d = np.arange(size_out, dtype=np.float64)
    if align_corners:
        return d * ((size_in - 1) / (size_out - 1) if size_out > 1 else 0.0)
    src = (d + 0.5) * scale - 0.5
    return src if cubic else np.maximum(src, 0.0)


def _linear(size_in, size_out, scale, align_corners):
    """Left neighbour, right neighbour and the weight of the right one, per output index."""
    src = _source(size_in, size_out, scale, align_corners)
    left = np.minimum(np.floor(src).astype(np.int64), size_in - 1)
    right = np.minimum(left + 1, size_in - 1)
    return left, right, src - left


def _cubic_taps(size_in, size_out, scale, align_corners, a=-0.75):
    """Bicubic's four neighbours floor(s) - 1 .. floor(s) + 2 (clamped to the image) and their
    weights, Keys' cubic convolution kernel with a = -0.75 (PyTorch's):
    W(x) = (a+2)|x|³ - (a+3)|x|² + 1 for |x| ≤ 1,  a|x|³ - 5a|x|² + 8a|x| - 4a for 1 < |x| < 2."""
    src = _source(size_in, size_out, scale, align_corners, cubic=True)
    first = np.floor(src).astype(np.int64)
    t = src - first

    def near(x):
        return ((a + 2) * x - (a + 3)) * x * x + 1

    def far(x):
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a

    weights = (far(t + 1), near(t), near(1 - t), far(2 - t))
    return [(np.clip(first + k - 1, 0, size_in - 1), w) for k, w in enumerate(weights)]


_NEEDS = {"linear": 3, "bilinear": 4, "bicubic": 4, "trilinear": 5}
_MODES = ("nearest", "nearest-exact", "area", *_NEEDS)


def _select(x, dim, positions):
    return x.index_select(dim, x._new(x._xp.asarray(positions)))


def _along(x, dim, values):
    """``values`` (one per output index along ``dim``) as a tensor that broadcasts there."""
    shape = [1] * x.ndim
    shape[dim] = -1
    return x._new(x._xp.asarray(values.astype(x._data.dtype).reshape(shape)))


def _resize_dim(out, dim, n_in, n_out, scale, mode, align_corners):
    """One spatial dim resized; the modes are separable, so the dims are done in turn."""
    if mode in ("nearest", "nearest-exact"):
        return _select(out, dim, _nearest(n_in, n_out, scale, mode == "nearest-exact"))
    if mode == "area":  # the mean of each adaptive window: a matrix along the dim
        averages = out._new(adaptive_matrix(out._xp, n_in, n_out, out._data.dtype))
        return out.movedim(dim, -1).matmul(averages.t()).movedim(-1, dim)
    if mode == "bicubic":
        taps = _cubic_taps(n_in, n_out, scale, align_corners)
        total = None
        for positions, weight in taps:
            term = _select(out, dim, positions) * _along(out, dim, weight)
            total = term if total is None else total + term
        return total
    left, right, weight = _linear(n_in, n_out, scale, align_corners)
    w = _along(out, dim, weight)
    return _select(out, dim, left) * (1 - w) + _select(out, dim, right) * w


def interpolate(input: Tensor, size=None, scale_factor=None, mode: str = "nearest",
                align_corners: bool | None = None, recompute_scale_factor: bool | None = None,
                antialias: bool = False) -> Tensor:
    """Resize the spatial dims (after N and C): ``nearest``, ``nearest-exact`` and ``area``
    (any of 1 to 3 spatial dims), ``linear`` (3-d input), ``bilinear`` and ``bicubic`` (4-d),
    ``trilinear`` (5-d)."""
    if mode not in _MODES:
        raise NotImplementedError(f"interpolate(mode={mode!r}) is not supported here")
    if mode not in _NEEDS and align_corners is not None:
        raise ValueError("align_corners option can only be set with the interpolating modes: "
                         "linear | bilinear | bicubic | trilinear")
    if mode == "bicubic" and input.ndim != 4:  # PyTorch's catch-all message, for bicubic
        raise NotImplementedError(
            f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.ndim}D) for "
            "the modes: nearest | linear | bilinear | bicubic | trilinear | lanczos | area | "
            f"nearest-exact (got {mode})")
    if mode in _NEEDS and input.ndim != _NEEDS[mode]:
        raise NotImplementedError(f"Got {input.ndim}D input, but {mode} mode needs "
                                  f"{_NEEDS[mode]}D input")
    if antialias:
        raise NotImplementedError("interpolate(antialias=True) is not supported here")
    out_size, scales = _sizes(input, size, scale_factor, recompute_scale_factor)
    out = input
    for k, (n_in, n_out, scale) in enumerate(zip(input.shape[2:], out_size, scales)):
        if mode in _NEEDS and not align_corners and size is not None:
            scale = n_in / n_out
        out = _resize_dim(out, 2 + k, n_in, n_out, scale, mode, bool(align_corners))
    return out
