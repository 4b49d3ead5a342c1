"""Sliding windows as columns and back: ``unfold`` (im2col) and ``fold`` (col2im), and the
convolutions built on them: ``conv_transpose2d`` and ``conv1d``.

``unfold`` copies every ``kh x kw`` window of a (padded) image into one column: (N, C, H, W)
becomes (N, C·kh·kw, L), L the number of window positions. ``fold`` is its adjoint: each
column is added back onto the pixels its window covers (overlapping windows add up). So each
one's backward is the other one, and both differentiate again.

A transposed convolution is the adjoint of a convolution: every input pixel spreads its value,
weighted by the kernel, over a window of the output. That is one matrix product (each input
pixel's C_out·kh·kw contributions) and a ``fold`` that adds the windows up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..autograd import forward_ad
from ..autograd.function import Function
from .combine import cat
from .conv import conv2d, out_size, pair
from .embedding import pad

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


def _taps(size_hw, kernel, dilation, padding, stride):
    """For each kernel tap (row) and window position (column), the pixel it reads, as an
    index into the padded image's flattened plane; and the number of positions (Ho, Wo)."""
    (h, w), (kh, kw), (dh, dw), (ph, pw), (sh, sw) = size_hw, kernel, dilation, padding, stride
    ho, wo = out_size(h, kh, sh, 2 * ph, dh), out_size(w, kw, sw, 2 * pw, dw)
    rows = (np.arange(ho) * sh)[None, :, None] + (np.arange(kh) * dh)[:, None, None]
    cols = (np.arange(wo) * sw)[None, None, :] + (np.arange(kw) * dw)[:, None, None]
    flat = rows[:, None, :, :] * (w + 2 * pw) + cols[None, :, :, :]  # (kh, kw, ho, wo)
    return flat.reshape(kh * kw, ho * wo), (ho, wo)


class Im2Col(Function):
    node_name = "Im2ColBackward0"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, x, geometry):
        ctx.geometry = geometry
        (h, w), kernel, dilation, (ph, pw), stride = geometry
        taps, _ = _taps((h, w), kernel, dilation, (ph, pw), stride)
        n, c, xp = x.shape[0], x.shape[1], x._xp
        taps = xp.asarray(taps)
        padded = xp.pad(x._data, ((0, 0), (0, 0), (ph, ph), (pw, pw)))
        plane = (h + 2 * ph) * (w + 2 * pw)  # (named: n may be 0)
        cols = padded.reshape(n, c, plane)[:, :, taps]  # (n, c, kh·kw, L)
        return x._new(cols.reshape(n, c * taps.shape[0], taps.shape[1]))

    @staticmethod
    def backward(ctx, grad):
        return Col2Im.apply(grad, ctx.geometry), None


class Col2Im(Function):
    node_name = "Col2ImBackward0"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, cols, geometry):
        ctx.geometry = geometry
        (h, w), kernel, dilation, (ph, pw), stride = geometry
        taps, _ = _taps((h, w), kernel, dilation, (ph, pw), stride)
        n, xp = cols.shape[0], cols._xp
        c = cols.shape[1] // taps.shape[0]
        taps = xp.asarray(taps)
        parts = cols._data.reshape(n, c, taps.shape[0], taps.shape[1])
        out = xp.zeros((n, c, (h + 2 * ph) * (w + 2 * pw)), dtype=cols._data.dtype)
        for t in range(taps.shape[0]):  # within one tap the windows never overlap
            out[:, :, taps[t]] += parts[:, :, t]
        out = out.reshape(n, c, h + 2 * ph, w + 2 * pw)[:, :, ph:ph + h, pw:pw + w]
        return cols._new(xp.ascontiguousarray(out))

    @staticmethod
    def backward(ctx, grad):
        return Im2Col.apply(grad, ctx.geometry), None


def _geometry(size_hw, kernel_size, dilation, padding, stride):
    return (tuple(size_hw), pair(kernel_size), pair(dilation), pair(padding), pair(stride))


def unfold(input: Tensor, kernel_size, dilation=1, padding=0, stride=1) -> Tensor:
    """Every sliding ``kernel_size`` window of a (N, C, H, W) input as a column:
    (N, C·kh·kw, L)."""
    if input.ndim not in (3, 4):
        raise RuntimeError("Input Error: Only 3D or 4D input Tensors are supported (got "
                           f"{input.ndim}D)")
    batched = input if input.ndim == 4 else input.unsqueeze(0)
    geometry = _geometry(batched.shape[2:], kernel_size, dilation, padding, stride)
    out = Im2Col.apply(batched, geometry)
    return out if input.ndim == 4 else out.squeeze(0)


def fold(input: Tensor, output_size, kernel_size, dilation=1, padding=0, stride=1) -> Tensor:
    """Columns (N, C·kh·kw, L) added back onto an ``output_size`` image: unfold's adjoint."""
    if input.ndim not in (2, 3):
        raise RuntimeError("Input Error: Only unbatched (2D) or batched (3D) input Tensors are "
                           f"supported (got {input.ndim}D)")
    batched = input if input.ndim == 3 else input.unsqueeze(0)
    geometry = _geometry(pair(output_size), kernel_size, dilation, padding, stride)
    (kh, kw), (ho, wo) = geometry[1], _taps(*geometry)[1]
    if batched.shape[1] % (kh * kw):
        raise RuntimeError("Expected size of input's dimension 1 to be divisible by the product "
                           f"of kernel_size, but got input.size(1)={batched.shape[1]} and "
                           f"kernel_size=({kh}, {kw})")
    if batched.shape[2] != ho * wo:
        raise RuntimeError(f"Given output_size=({geometry[0][0]}, {geometry[0][1]}), "
                           f"kernel_size=({kh}, {kw}), dilation={geometry[2]}, "
                           f"padding={geometry[3]}, stride={geometry[4]}, expected size of "
                           f"input's dimension 2 to match the calculated number of sliding "
                           f"blocks {ho} * {wo} = {ho * wo}, but got input.size(2)="
                           f"{batched.shape[2]}.")
    out = Col2Im.apply(batched, geometry)
    return out if input.ndim == 3 else out.squeeze(0)


def conv_transpose2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1,
                     padding=0, output_padding=0, groups: int = 1, dilation=1) -> Tensor:
    """The adjoint of ``conv2d``: each input pixel spreads over a window of the output.
    ``weight`` is (C_in, C_out / groups, kh, kw). With ``groups``, the input channels are cut
    into that many blocks, each transposed-convolved with its own block of ``weight`` into its
    own block of output channels."""
    if groups != 1:
        return _grouped_conv_transpose2d(input, weight, bias, stride, padding, output_padding,
                                         groups, dilation)
    batched = input if input.ndim == 4 else input.unsqueeze(0)
    n, c_in, h, w = batched.shape
    if weight.shape[0] != c_in:
        raise RuntimeError(f"Given transposed=1, weight of size {list(weight.shape)}, expected "
                           f"input{list(batched.shape)} to have {weight.shape[0]} channels, but "
                           f"got {c_in} channels instead")
    c_out, kh, kw = weight.shape[1:]
    (sh, sw), (ph, pw), (oh, ow), (dh, dw) = (pair(stride), pair(padding),
                                              pair(output_padding), pair(dilation))
    full = ((h - 1) * sh + dh * (kh - 1) + 1, (w - 1) * sw + dw * (kw - 1) + 1)
    cols = weight.reshape(c_in, c_out * kh * kw).t().matmul(batched.reshape(n, c_in, h * w))
    out = fold(cols, full, (kh, kw), (dh, dw), 0, (sh, sw))
    # the whole image, cropped by ``padding`` on each side; ``output_padding`` gives back
    # that many rows/columns on the far side (zeros where the image ends)
    out = pad(out, (-pw, ow - pw, -ph, oh - ph))
    if bias is not None:
        out = out + bias.reshape(1, c_out, 1, 1)
    return out if input.ndim == 4 else out.squeeze(0)


def _grouped_conv_transpose2d(input, weight, bias, stride, padding, output_padding, groups,
                              dilation):
    """One ``conv_transpose2d`` per block of channels, the outputs side by side (dim 1)."""
    channels = input.shape[-3]
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    if weight.shape[0] != channels or channels % groups:
        raise RuntimeError(f"Given transposed=1, weight of size {list(weight.shape)}, expected "
                           f"input{list(input.shape)} to have {weight.shape[0]} channels, but "
                           f"got {channels} channels instead")
    step = channels // groups
    parts = [conv_transpose2d(input.narrow(-3, g * step, step), weight[g * step:(g + 1) * step],
                              None, stride, padding, output_padding, 1, dilation)
             for g in range(groups)]
    out = cat(parts, -3)
    return out if bias is None else out + bias.reshape(-1, 1, 1)


def conv1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0,
           dilation=1, groups: int = 1) -> Tensor:
    """A 1-d convolution: ``conv2d`` over images of height 1."""
    padding = padding if isinstance(padding, str) else (0, _single(padding))
    out = conv2d(input.unsqueeze(-2), weight.unsqueeze(-2), bias, (1, _single(stride)),
                 padding, (1, _single(dilation)), groups)
    return out.squeeze(-2)


def _single(value) -> int:
    return value if isinstance(value, int) else int(value[0])
