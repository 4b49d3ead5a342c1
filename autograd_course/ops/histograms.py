"""Histograms: ``histc`` (counts only) and ``histogram`` (counts and bin edges).

Both count the elements of a float tensor (any shape, read flat) into bins that cover
``[lo, hi]``; every bin is ``[edge_k, edge_k+1)`` except the last, which also holds ``hi``.
Elements outside ``[lo, hi]`` are not counted.

* ``histc(x, bins, min, max)``: ``bins`` equal bins between ``min`` and ``max`` (the data's own
  range when the two are equal). An element goes to bin ``⌊(x - lo) · bins / (hi - lo)⌋``.
* ``histogram(x, bins, range=, weight=, density=)``: ``bins`` is a count (equal bins over
  ``range``, or the data's range) or a 1-d tensor of increasing edges. An element goes to the
  bin whose edges hold it. With ``weight`` each element adds its weight instead of 1; with
  ``density`` the counts are divided by their total and by each bin's width, so that the
  histogram integrates to 1.

The edges are PyTorch's ``linspace(lo, hi, bins + 1)``: ``lo + k · step`` for the first half,
``hi - (bins - k) · step`` for the second, each rounded once to the tensor's dtype, so that
the counts agree with PyTorch's even for elements that fall on an edge.

The counting runs in NumPy (a tensor on a GPU is read back), the results go to the input's
device. Counts are not differentiable: ``histogram`` of a tensor that requires grad gives results
whose ``grad_fn`` is ``NotImplemented`` (as PyTorch's), and backward through them raises.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from .._backend import to_device, to_numpy
from ..autograd.function import Function
from .operands import is_tensor

if TYPE_CHECKING:  # for the type hints only
    from ..tensor import Tensor


class HistogramResult(NamedTuple):
    """``(hist, bin_edges)``, readable by name, printed as PyTorch prints it."""

    hist: Tensor
    bin_edges: Tensor

    def __repr__(self) -> str:
        return (f"torch.return_types.histogram(\nhist={self.hist!r},\n"
                f"bin_edges={self.bin_edges!r})")


# PyTorch's type is called torch.return_types.histogram
HistogramResult.__name__ = HistogramResult.__qualname__ = "histogram"


def _edges(lo: float, hi: float, bins: int, dtype) -> np.ndarray:
    """PyTorch's linspace(lo, hi, bins + 1) in ``dtype``: step = (hi - lo) / bins, then
    lo + k·step (k < half) or hi - (bins - k)·step, each product-and-sum rounded once."""
    lo, hi = np.asarray(lo, dtype), np.asarray(hi, dtype)
    step = (hi - lo) / dtype.type(bins)
    k = np.arange(bins + 1)
    exact = [Fraction(float(lo)) + Fraction(float(step)) * int(i) if i < (bins + 1) // 2
             else Fraction(float(hi)) - Fraction(float(step)) * int(bins - i) for i in k]
    return np.array([float(v) for v in exact], dtype=dtype)


def _check_float(x: Tensor, name: str) -> None:
    if x._data.dtype.kind != "f":
        raise NotImplementedError(f'"{name}" not implemented for '
                                  f"'{_C_TYPE_NAMES.get(x._data.dtype.name, x._data.dtype.name)}'")


_C_TYPE_NAMES = {"int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char",
                 "uint8": "Byte", "bool": "Bool"}


def _count(bin_of: np.ndarray, weights, bins: int, dtype) -> np.ndarray:
    """Add 1 (or the weight) into bin ``bin_of[i]`` for every counted element."""
    hist = np.zeros(bins, dtype=dtype)
    np.add.at(hist, bin_of, 1 if weights is None else weights)
    return hist


def histc(input: Tensor, bins: int = 100, min: float = 0, max: float = 0) -> Tensor:
    """Counts in ``bins`` equal bins over [min, max] (the data's range if min == max)."""
    _check_float(input, "histogram_cpu")
    x = to_numpy(input._data).reshape(-1)
    lo, hi = float(min), float(max)
    if lo == hi and x.size:
        lo, hi = float(x.min()), float(x.max())
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    if not (np.isfinite(lo) and np.isfinite(hi)):
        raise RuntimeError(f"torch.histc: range of [{lo:g}, {hi:g}] is not finite")
    if not lo < hi:
        raise RuntimeError("torch.histc: max must be larger than min")
    edges = _edges(lo, hi, bins, x.dtype)
    first, last = edges[0], edges[-1]
    inside = x[(x >= first) & (x <= last)]
    bin_of = ((inside - first) * x.dtype.type(bins) / (last - first)).astype(np.int64)
    bin_of = np.minimum(bin_of, bins - 1)  # the top edge belongs to the last bin
    return input._new(to_device(_count(bin_of, None, bins, x.dtype), input._device))


class Histogram(Function):
    """Counts and edges; recorded (as ``NotImplemented``) but not differentiable."""

    node_name = "NotImplemented"

    @staticmethod
    def forward(ctx, input, edges, weight, density):
        x = to_numpy(input._data).reshape(-1)
        edge_values = to_numpy(edges._data)
        inside = (x >= edge_values[0]) & (x <= edge_values[-1])
        bin_of = np.searchsorted(edge_values, x[inside], side="right") - 1
        bin_of = np.minimum(bin_of, len(edge_values) - 2)  # the top edge: last bin
        w = None if weight is None else to_numpy(weight._data).reshape(-1)[inside]
        hist = _count(bin_of, w, len(edge_values) - 1, x.dtype)
        if density:
            hist = hist / hist.sum()
            hist = hist / np.diff(edge_values)
        return (input._new(to_device(hist, input._device)),
                edges._new(to_device(edge_values.copy(), edges._device)))

    @staticmethod
    def backward(ctx, grad_hist, grad_edges):
        raise RuntimeError("derivative for aten::histogram is not implemented")


def histogram(input: Tensor, bins=100, *, range=None, weight: Tensor | None = None,
              density: bool = False) -> HistogramResult:
    """``(hist, bin_edges)``: counts (or summed weights, or a density) in ``bins``."""
    _check_float(input, "histogramdd")
    dtype = input._data.dtype
    if weight is not None and weight._data.dtype != dtype:
        raise RuntimeError(
            "torch.histogramdd: if weight tensor is provided, input tensor and weight tensor "
            f"should have the same dtype, but got input({_c_name(dtype)}), and "
            f"weight({_c_name(weight._data.dtype)})")
    if is_tensor(bins):
        if bins._data.dtype != dtype:
            raise RuntimeError(
                "torch.histogramdd: input tensor and bins tensors should have the same dtype, "
                f"but got input with dtype {_c_name(dtype)} and bins for dimension 0 with "
                f"dtype {_c_name(bins._data.dtype)}")
        edges = bins
    else:
        if int(bins) <= 0:
            raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {int(bins)} for "
                               "dimension 0")
        outer = _outer_edges(to_numpy(input._data), range)
        edges = input._new(to_device(_edges(*outer, int(bins), dtype), input._device))
    return HistogramResult(*Histogram.apply(input, edges, weight, density))


def _outer_edges(x: np.ndarray, range) -> tuple[float, float]:
    """The outer edges: ``range``, else the data's min and max (0 and 1 for no data), widened
    by 1/2 on each side when they coincide."""
    if range is not None:
        lo, hi = float(range[0]), float(range[1])
    elif x.size:
        lo, hi = float(x.min()), float(x.max())
    else:
        lo, hi = 0.0, 1.0
    if not (np.isfinite(lo) and np.isfinite(hi)):
        raise RuntimeError(f"torch.histogramdd: dimension 0's range [{lo:g}, {hi:g}] is not "
                           "finite")
    if lo > hi:
        raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min {lo:g} "
                           f"max {hi:g} for dimension 0")
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    return lo, hi


def _c_name(dtype) -> str:
    """The C type PyTorch's messages name: float, double, half."""
    return {"float32": "float", "float64": "double", "float16": "Half"}.get(
        np.dtype(dtype).name, np.dtype(dtype).name)
