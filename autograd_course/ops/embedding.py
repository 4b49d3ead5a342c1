"""Lookup tables and padding: ``embedding`` and ``pad``.

* embedding(idx, W) = W[idx]: row ``idx[i]`` of the table for each index. Its gradient adds
  ``g[i]`` into row ``idx[i]`` of zeros (a row looked up twice gets both), except the
  ``padding_idx`` row, which never learns.
* pad: the input placed in a larger tensor of ``value`` (``constant``) or of its own edge
  values (``reflect``, ``replicate``, ``circular``); the gradient is the input's window of
  ``g`` (for the edge modes, plus the copies' gradients added back).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..autograd import forward_ad
from ..autograd.function import Function
from .indexing import IndexGrad
from .promotion import scalar_type

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


class Embedding(Function):
    node_name = "EmbeddingBackward0"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, weight, indices, padding_idx):
        ctx.rows, ctx.padding_idx = weight.shape[0], padding_idx
        ctx.save_for_backward(indices)
        return weight._new(weight._data[indices._data])

    @staticmethod
    def backward(ctx, grad):
        (indices,) = ctx.saved_tensors
        key = indices._data
        if ctx.padding_idx is not None:  # the padding row gets no gradient
            keep = key != ctx.padding_idx
            key, grad = key[keep], grad[grad._new(keep)]
        table_shape = (ctx.rows,) + tuple(grad.shape[-1:])
        return IndexGrad.apply(grad, (key,), table_shape, False), None, None


def embedding(input: Tensor, weight: Tensor, padding_idx: int | None = None,
              max_norm: float | None = None, norm_type: float = 2.0,
              scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    """Rows of the table ``weight`` picked by the integer tensor ``input``."""
    if weight.ndim != 2:
        raise RuntimeError("'weight' must be 2-D")
    if input._data.dtype.kind not in "iu":
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the "
                           "following scalar types: Long, Int; but got "
                           f"torch.{scalar_type(input)}Tensor instead (while checking arguments "
                           "for embedding)")
    if max_norm is not None or scale_grad_by_freq or sparse:
        raise NotImplementedError("embedding(max_norm=, scale_grad_by_freq=, sparse=) are not "
                                  "supported here")
    rows = weight.shape[0]
    if input.numel() and (int(input._data.min()) < 0 or int(input._data.max()) >= rows):
        raise IndexError("index out of range in self")
    if padding_idx is not None and padding_idx < 0:
        padding_idx += rows
    return Embedding.apply(weight, input, padding_idx)


class ConstantPad(Function):
    node_name = "ConstantPadNdBackward0"

    @staticmethod
    def forward(ctx, x, widths, value):
        ctx.window = tuple(slice(lo, lo + s) for (lo, _), s in zip(widths, x.shape))
        out = x._xp.full([lo + s + hi for (lo, hi), s in zip(widths, x.shape)], value,
                         dtype=x._data.dtype)
        out[ctx.window] = x._data
        return x._new(out)

    @staticmethod
    def backward(ctx, grad):
        return grad[ctx.window], None, None

    @staticmethod
    def jvp(ctx, t, *_):
        """The padding is a constant: its tangent is 0, the rest is t."""
        return ConstantPad.apply(t, ctx.fw_args[1], 0.0)


class EdgePad(Function):
    """reflect / replicate / circular padding: NumPy's ``pad`` modes; the gradient adds each
    copy's gradient back onto the element it copied (by padding an index grid the same way).
    A negative width crops: reflect and replicate pad by the positive widths and then cut by
    the negative ones; circular cuts first and wraps around what is left (as PyTorch does)."""

    _NAMES = {"reflect": "ReflectionPad{}DBackward0", "replicate": "ReplicationPad{}DBackward0",
              "circular": "CircularPad{}DBackward0"}

    @staticmethod
    def forward(ctx, x, widths, mode):
        numpy_mode = {"reflect": "reflect", "replicate": "edge", "circular": "wrap"}[mode]
        positions = np.arange(x.numel()).reshape(x.shape)
        if mode == "circular":  # crop, then wrap around what is left
            positions = np.pad(_cropped(positions, widths), _grown(widths), mode="wrap")
        else:                   # pad, then crop
            positions = _cropped(np.pad(positions, _grown(widths), mode=numpy_mode), widths)
        positions = x._xp.asarray(positions)  # where each output element is copied from
        ctx.shape, ctx.positions = x.shape, positions
        return x._new(x._data.reshape(-1)[positions])

    @staticmethod
    def backward(ctx, grad):
        flat = IndexGrad.apply(grad, (ctx.positions,), (int(np.prod(ctx.shape)),), False)
        return flat.reshape(ctx.shape), None, None


def _grown(widths):
    return [(max(lo, 0), max(hi, 0)) for lo, hi in widths]


def _cropped(array, widths):
    """``array`` less ``-lo`` elements at the start and ``-hi`` at the end of each dim where
    a width is negative (the negative half of ``pad``)."""
    return array[tuple(slice(max(-lo, 0), n - max(-hi, 0))
                       for (lo, hi), n in zip(widths, array.shape))]


def _check_crop(input, widths, mode):
    """PyTorch's refusals when negative widths cut a dim below zero (reflect and replicate:
    below one along the last dim)."""
    for d, ((lo, hi), n) in enumerate(zip(widths, input.shape)):
        kept, out = n - max(-lo, 0) - max(-hi, 0), n + lo + hi
        if mode == "constant" and kept < 0:
            raise RuntimeError("narrow(): length must be non-negative.")
        if mode == "circular" and kept < 0:
            raise RuntimeError("Negative padding value is resulting in an empty dimension")
        if mode in ("reflect", "replicate") and d == input.ndim - 1 and out < 1:
            raise RuntimeError(f"input (W: {n}) is too small. Calculated output W: {out}")
        if out < 0:
            shape = [n + lo + hi for (lo, hi), n in zip(widths, input.shape)]
            raise RuntimeError(f"Trying to create tensor with negative dimension {out}: {shape}")


_EDGE_CLASSES = {}


def _edge_class(mode: str, dims: int):
    name = EdgePad._NAMES[mode].format(dims)
    if name not in _EDGE_CLASSES:
        _EDGE_CLASSES[name] = type(name.replace("Backward0", ""), (EdgePad,), {"node_name": name})
    return _EDGE_CLASSES[name]


def pad(input: Tensor, pad: tuple[int, ...], mode: str = "constant",
        value: float | None = None) -> Tensor:
    """Pad the last ``len(pad) // 2`` dims: ``pad = (left, right, top, bottom, ...)``, the
    last dim first. Negative widths crop."""
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.ndim:
        raise RuntimeError("Padding length should be less than or equal to two times the input "
                           "dimension but got padding length " f"{len(pad)} and input of "
                           f"dimension {input.ndim}")
    widths = [(0, 0)] * input.ndim
    for k in range(len(pad) // 2):
        widths[input.ndim - 1 - k] = (int(pad[2 * k]), int(pad[2 * k + 1]))
    _check_crop(input, widths, mode)
    if mode == "constant":
        if any(lo < 0 or hi < 0 for lo, hi in widths):  # crop first, then pad
            input, widths = _cropped(input, widths), _grown(widths)
        return ConstantPad.apply(input, tuple(widths), 0.0 if value is None else value)
    if mode not in EdgePad._NAMES:
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    dims = len(pad) // 2
    if input.ndim not in (dims + 1, dims + 2):
        raise RuntimeError("Only 2D, 3D, 4D, 5D padding with non-constant padding are "
                           "supported for now")
    return _edge_class(mode, dims).apply(input, tuple(widths), mode)
