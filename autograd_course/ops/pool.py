"""Pooling: max, average and adaptive average over 2-d windows.

Max and average pooling reuse the convolution's window view (``conv.windows``): one strided
view of every window, then a reduction over its last axes. No loops over pixels.

* max pooling remembers where each maximum was; its gradient goes back to that pixel only.
* average pooling spreads each output's gradient evenly over its window (``col2im``).
* adaptive average pooling picks the windows from the output size; because a window is a
  rectangle, averaging over it is "average the rows, then average the columns": two small
  matrix products ``P_h · x · P_wᵀ``, whose gradient is ``P_hᵀ · dOut · P_w``.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from ..autograd import forward_ad
from ..autograd.function import Function
from .conv import FirstOrderOnly, col2im, pad_array, pair, windows
from .embedding import ConstantPad
from .promotion import not_implemented

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


def pool_out_size(size: int, kernel: int, stride: int, pad: int, dilation: int,
                  ceil_mode: bool) -> int:
    """PyTorch's ``pooling_output_shape``: with ``ceil_mode`` the last window may overhang,
    but it must start inside the input or the left padding."""
    span = size + 2 * pad - dilation * (kernel - 1) - 1 + (stride - 1 if ceil_mode else 0)
    out = span // stride + 1
    if ceil_mode and (out - 1) * stride >= size + pad:
        out -= 1
    return out


def pool_geometry(x: Tensor, kernel_size: int | tuple[int, int],
                  stride: int | tuple[int, int] | None, padding: int | tuple[int, int],
                  dilation: int | tuple[int, int], ceil_mode: bool) -> tuple:
    """Kernel, stride, padding, dilation as pairs, the output size, and PyTorch's errors."""
    kernel = pair(kernel_size)
    stride = kernel if stride is None or (not isinstance(stride, int) and len(stride) == 0) \
        else pair(stride)
    padding, dilation = pair(padding), pair(dilation)
    if 0 in stride:
        raise RuntimeError("stride should not be zero")
    if min(kernel) <= 0:
        raise RuntimeError("kernel size should be greater than zero, but got "
                           f"kH: {kernel[0]} kW: {kernel[1]}")
    if min(stride) <= 0:
        raise RuntimeError("stride should be greater than zero, but got "
                           f"dH: {stride[0]} dW: {stride[1]}")
    if min(dilation) <= 0:
        raise RuntimeError("dilation should be greater than zero, but got "
                           f"dilationH: {dilation[0]} dilationW: {dilation[1]}")
    if min(padding) < 0:
        raise RuntimeError(f"pad must be non-negative, but got pad: {min(padding)}")
    if x.ndim not in (3, 4):
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    if 0 in x.shape[-3:]:  # an empty batch (N = 0) is fine, an empty image is not
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with optional 0 dim batch "
                           f"size for input, but got:{list(x.shape)}")
    for k, p, d in zip(kernel, padding, dilation):
        if p > (d * (k - 1) + 1) // 2:
            raise RuntimeError(
                f"pad should be at most half of effective kernel size, but got pad={p}, "
                f"kernel_size={k} and dilation={d}")
    if padding[0] > kernel[0] // 2 or padding[1] > kernel[1] // 2:
        raise RuntimeError(
            "pad should be smaller than or equal to half of kernel size, but got "
            f"padW = {padding[1]}, padH = {padding[0]}, kW = {kernel[1]}, kH = {kernel[0]}")
    h, w = x.shape[-2:]
    out_hw = tuple(pool_out_size(s, k, st, p, d, ceil_mode)
                   for s, k, st, p, d in zip((h, w), kernel, stride, padding, dilation))
    if out_hw[0] < 1 or out_hw[1] < 1:
        raise RuntimeError(
            f"Given input size: ({x.shape[-3]}x{h}x{w}). Calculated output size: "
            f"({x.shape[-3]}x{out_hw[0]}x{out_hw[1]}). Output size is too small")
    # pad on the right as far as the last (possibly overhanging, ceil_mode) window reaches
    pads = []
    for s, k, st, p, d, o in zip((h, w), kernel, stride, padding, dilation, out_hw):
        pads += [p, max((o - 1) * st + d * (k - 1) + 1 - s - p, 0)]
    return kernel, stride, padding, dilation, out_hw, tuple(pads)


def _as_4d(array):
    """An unbatched (C, H, W) array as a batch of one (the ops below work on 4-d arrays)."""
    return array if array.ndim == 4 else array[None]


class MaxPool2D(Function):
    """out = max over each window (and where it was);  the gradient goes to the element that
    was the max."""

    node_name = "MaxPool2DWithIndicesBackward0"

    @staticmethod
    def forward(ctx, x, kernel, stride, dilation, out_hw, pads):
        xp = x._xp
        x4 = _as_4d(x._data)
        n, c = x4.shape[:2]
        low = -xp.inf if x4.dtype.kind == "f" else xp.iinfo(x4.dtype).min
        data = pad_array(xp, x4, pads, low)
        win = windows(xp, data, kernel, stride, dilation, out_hw)   # (N, C, kh, kw, Ho, Wo)
        flat = win.reshape(n, c, kernel[0] * kernel[1], *out_hw)   # copies the windows once
        out = flat.max(axis=2)
        inside = None
        if pads != (0, 0, 0, 0) and (out == low).any():  # the padding may hold the first max:
            ones = xp.ones((1, 1) + x4.shape[2:], dtype=bool)  # only real pixels may win
            inside = windows(xp, pad_array(xp, ones, pads, False), kernel, stride, dilation,
                             out_hw).reshape(1, 1, kernel[0] * kernel[1], *out_hw)
        tap = _first_tap(xp, flat, out, inside)                     # first maximum, like PyTorch
        # where each winner sits in the padded image, as a flat index per (n, c) plane
        rows = xp.arange(out_hw[0]).reshape(-1, 1) * stride[0] + (tap // kernel[1]) * dilation[0]
        cols = xp.arange(out_hw[1]) * stride[1] + (tap % kernel[1]) * dilation[1]
        ctx.where = rows * data.shape[3] + cols
        ctx.shapes = x.shape, data.shape, pads
        # the same places as flat indices into each unpadded (H, W) plane: PyTorch's indices
        flat = (ctx.where // data.shape[3] - pads[0]) * x4.shape[3] + ctx.where % data.shape[3] \
            - pads[2]
        indices = x._new(flat.astype(xp.int64).reshape(out.shape[4 - x.ndim:]))
        ctx.mark_non_differentiable(indices)
        ctx.out_shape = out.shape[4 - x.ndim:]
        return x._new(out.reshape(ctx.out_shape)), indices

    @staticmethod
    def backward(ctx, grad, _grad_indices):
        return MaxPool2DGrad.apply(grad, ctx.where, ctx.shapes), None, None, None, None, None

    @staticmethod
    def jvp(ctx, t, *_):
        """Each output is one input element (its window's max): its tangent is that element's,
        read at the same places in the (padded) tangent."""
        shape, padded, pads = ctx.shapes
        n, c = padded[:2]
        t4 = ConstantPad.apply(t.reshape(n, c, *shape[-2:]),
                               ((0, 0), (0, 0), pads[:2], pads[2:]), 0.0)
        where = t._new(ctx.where.reshape(n, c, -1))
        return t4.reshape(n, c, -1).gather(2, where).reshape(ctx.out_shape)


def _first_tap(xp, flat: np.ndarray, out: np.ndarray, inside=None) -> np.ndarray:
    """Which tap of each window holds its max ``out``: the first one equal to it, found tap by
    tap from the last (``flat.argmax(axis=2)`` gives the same, several times slower); with
    ``inside`` (True on real pixels), the first real pixel equal to it, as PyTorch's kernel
    never looks at the padding. A window holding NaN has no equal tap; PyTorch's kernel keeps
    a tap when it is greater or NaN, so there it is the window's last NaN."""
    taps = flat.shape[2]
    tap = xp.full(out.shape, -1, dtype=xp.intp)
    for t in reversed(range(taps)):
        hit = flat[:, :, t] == out
        tap = xp.where(hit if inside is None else hit & inside[:, :, t], t, tap)
    if tap.size and tap.min() < 0:
        last_nan = taps - 1 - xp.isnan(flat[:, :, ::-1]).argmax(axis=2)
        tap = xp.where(tap < 0, last_nan, tap)
    return tap


class MaxPool2DGrad(FirstOrderOnly):
    """Scatter each output gradient onto its window's winner (adding where windows share one)."""

    node_name = "MaxPool2DWithIndicesBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, where, shapes):
        xp = grad._xp
        x_shape, padded_shape, pads = shapes
        n, c, hp, wp = padded_shape
        plane = xp.arange(n * c).reshape(n, c, 1, 1) * (hp * wp)
        summed = xp.bincount((where + plane).ravel(), weights=grad._data.ravel(),
                             minlength=n * c * hp * wp)
        dx = summed.astype(grad._data.dtype, copy=False).reshape(padded_shape)
        h, w = x_shape[-2:]
        dx = dx[:, :, pads[0]: pads[0] + h, pads[2]: pads[2] + w]
        return grad._new(xp.ascontiguousarray(dx.reshape(x_shape)))


def max_pool2d(input: Tensor, kernel_size: int | tuple[int, int],
               stride: int | tuple[int, int] | None = None, padding: int | tuple[int, int] = 0,
               dilation: int | tuple[int, int] = 1, ceil_mode: bool = False,
               return_indices: bool = False) -> Tensor | tuple[Tensor, Tensor]:
    """PyTorch's ``F.max_pool2d``; with ``return_indices`` also where each maximum was, as a
    flat index into its (H, W) plane (what ``max_unpool2d`` takes)."""
    if input._data.dtype.kind == "b":
        raise not_implemented("max_pool2d", input)
    kernel, stride, _, dilation, out_hw, pads = pool_geometry(
        input, kernel_size, stride, padding, dilation, ceil_mode)
    out, indices = MaxPool2D.apply(input, kernel, stride, dilation, out_hw, pads)
    return (out, indices) if return_indices else out


def _avg_divisor(size, kernel, stride, pad, out, count_include_pad):
    """How many elements each output position averages, along one axis (PyTorch's rule:
    padding counts when ``count_include_pad``, the ceil_mode overhang never does)."""
    start = np.arange(out) * stride - pad
    end = np.minimum(start + kernel, size + pad)
    if not count_include_pad:
        start, end = np.maximum(start, 0), np.minimum(end, size)
    return end - start


class AvgPool2D(Function):
    """out = (sum over each window) / divisor;  each input gets grad / divisor per window."""

    node_name = "AvgPool2DBackward0"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, x, kernel, stride, out_hw, pads, divisor):
        xp = x._xp
        data = pad_array(xp, _as_4d(x._data), pads)
        win = windows(xp, data, kernel, stride, (1, 1), out_hw)
        out = win.sum(axis=(2, 3)) / xp.asarray(divisor, dtype=x._data.dtype)
        ctx.args = x.shape, kernel, stride, pads, divisor
        return x._new(out.astype(x._data.dtype, copy=False).reshape(out.shape[4 - x.ndim:]))

    @staticmethod
    def backward(ctx, grad):
        return AvgPool2DGrad.apply(grad, ctx.args), None, None, None, None, None


class AvgPool2DGrad(FirstOrderOnly):
    """Spread grad / divisor over every window (col2im with a constant patch)."""

    node_name = "AvgPool2DBackwardBackward0"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, grad, args):
        xp = grad._xp
        x_shape, kernel, stride, pads, divisor = args
        share = _as_4d(grad._data) / xp.asarray(divisor, dtype=grad._data.dtype)
        n, c, ho, wo = share.shape
        dwin = xp.broadcast_to(share[:, :, None, None], (n, c, *kernel, ho, wo))
        dx = col2im(xp, dwin, x_shape[-2:], stride, (1, 1), pads)
        return grad._new(dx.reshape(x_shape))


def avg_pool2d(input: Tensor, kernel_size: int | tuple[int, int],
               stride: int | tuple[int, int] | None = None, padding: int | tuple[int, int] = 0,
               ceil_mode: bool = False, count_include_pad: bool = True,
               divisor_override: int | None = None) -> Tensor:
    """PyTorch's ``F.avg_pool2d`` (integers: int64 only, as in PyTorch)."""
    kind = input._data.dtype
    if kind.kind == "b" or kind.kind in "iu" and kind.itemsize < 8:
        raise not_implemented("avg_pool2d", input)
    kernel, stride, padding, _, out_hw, pads = pool_geometry(
        input, kernel_size, stride, padding, 1, ceil_mode)
    if divisor_override is not None:
        if divisor_override == 0:
            raise RuntimeError("divisor must be not zero")
        divisor = float(divisor_override)
    else:
        dh, dw = (_avg_divisor(s, k, st, p, o, count_include_pad)
                  for s, k, st, p, o in zip(input.shape[-2:], kernel, stride, padding, out_hw))
        divisor = (dh[:, None] * dw[None, :]).astype(np.float64)
        if input._device.type != "cpu":
            divisor = input._xp.asarray(divisor)
    return AvgPool2D.apply(input, kernel, stride, out_hw, pads, divisor)


def avg_pool1d(input: Tensor, kernel_size: int | tuple[int], stride: int | tuple[int] | None = None,
               padding: int | tuple[int] = 0, ceil_mode: bool = False,
               count_include_pad: bool = True) -> Tensor:
    """PyTorch's ``F.avg_pool1d`` (it has no ``divisor_override``): ``avg_pool2d`` over rows
    of height 1, as PyTorch computes it."""
    if input.ndim not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.ndim}-dimensional tensor "
                           "for argument #1 'self' (while checking arguments for avg_pool1d)")
    kernel = _single(kernel_size)
    step = kernel if stride is None or stride == () or stride == [] else _single(stride)
    out = avg_pool2d(input.unsqueeze(-2), (1, kernel), (1, step), (0, _single(padding)),
                     ceil_mode, count_include_pad)
    return out.squeeze(-2)


def _single(value) -> int:
    return value if isinstance(value, int) else int(value[0])


def adaptive_matrix(xp, size: int, out: int, dtype):
    """Row i averages input positions floor(i·size/out) .. ceil((i+1)·size/out) - 1."""
    m = np.zeros((out, size))
    for i in range(out):  # one row per output position (out is small: 1, 7...)
        start, end = (i * size) // out, math.ceil((i + 1) * size / out)
        m[i, start:end] = 1.0 / (end - start)
    return xp.asarray(m, dtype=dtype)


class AdaptiveAvgPool2D(Function):
    """out = P_h · x · P_wᵀ (average rows, then columns);  dx = P_hᵀ · dOut · P_w."""

    node_name = "AdaptiveAvgPool2DBackward0"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, x, p_h, p_w):
        ctx.mats = p_h, p_w
        return x._new(p_h @ x._data @ p_w.T)

    @staticmethod
    def backward(ctx, grad):
        p_h, p_w = ctx.mats
        return AdaptiveAvgPool2DGrad.apply(grad, p_h.T, p_w.T), None, None


class AdaptiveAvgPool2DGrad(AdaptiveAvgPool2D):
    """The same linear map with transposed matrices (so it differentiates again, too)."""

    node_name = "AdaptiveAvgPool2DBackwardBackward0"


def _adaptive_output_size(input: Tensor, output_size) -> tuple:
    """``output_size`` as PyTorch's ``F.adaptive_avg_pool2d`` reads it: an int for both dims,
    or a sequence whose ``None`` keeps the input's size there (the input needs more dims than
    the sequence has); then it must hold exactly two sizes."""
    if isinstance(output_size, int):
        return output_size, output_size
    sizes = tuple(output_size)
    if input.ndim <= len(sizes):
        raise ValueError(f"Input dimension should be at least {len(sizes) + 1}")
    sizes = tuple(d if s is None else s for s, d in zip(sizes, input.shape[-len(sizes):]))
    if len(sizes) != 2:
        raise RuntimeError("adaptive_avg_pool2d: output_size must be 2")
    return sizes


def adaptive_avg_pool2d(input: Tensor, output_size: int | tuple[int, int]) -> Tensor:
    """PyTorch's ``F.adaptive_avg_pool2d``; a 1x1 output is a plain ``mean`` over the last two
    dims (as in PyTorch, which then checks no more)."""
    oh, ow = _adaptive_output_size(input, output_size)
    if (oh, ow) == (1, 1):
        return input.mean((-2, -1), keepdim=True)
    if input.ndim not in (3, 4):
        raise RuntimeError(
            f"adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got {list(input.shape)}")
    h, w = input.shape[-2:]
    if oh < 0 or ow < 0:
        raise RuntimeError("adaptive_avg_pool2d: elements of output_size must be greater than "
                           f"or equal to 0 but received {{{oh}, {ow}}}")
    if input._data.dtype.kind not in "fc":
        raise not_implemented("adaptive_avg_pool2d", input)
    dtype = input._data.dtype
    return AdaptiveAvgPool2D.apply(input, adaptive_matrix(input._xp, h, oh, dtype),
                                   adaptive_matrix(input._xp, w, ow, dtype))
