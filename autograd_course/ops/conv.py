"""2-d convolution as ONE matrix multiply: im2col with NumPy stride tricks.

A convolution slides a ``kh x kw`` kernel over the image. Written naively that is six nested
loops. The standard trick (im2col) turns it into a single matrix product instead:

1. ``windows`` views the (padded) input as an array of shape ``(N, C, kh, kw, Ho, Wo)``: entry
   ``[n, c, i, j, y, x]`` is the pixel under kernel tap ``(i, j)`` when the kernel sits at output
   position ``(y, x)``. ``as_strided`` builds this view by choosing strides; nothing is copied.
2. Reshaping it to a matrix ``cols`` of shape ``(C·kh·kw, N·Ho·Wo)`` (this copies) puts one
   kernel-sized patch in each column.
3. The weight reshaped to ``(O, C·kh·kw)`` times ``cols`` is every output pixel at once.

The backward pass is the same idea in reverse: ``dW = dOut · colsᵀ`` and
``dcols = Wᵀ · dOut``; ``col2im`` adds each patch's gradient back onto the pixels it came from
(a loop over the kh·kw kernel taps, never over pixels or channels; the part of a patch that
lay on the padding is simply not added).
"""

from __future__ import annotations

import functools
from types import ModuleType
from typing import TYPE_CHECKING

import numpy as np

from ..autograd import forward_ad
from ..autograd.function import Function
from .devices import same_device

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


def pair(value: int | tuple[int, int]) -> tuple:
    """``3`` -> ``(3, 3)``; a pair stays a pair (PyTorch's ``_pair``), and a one-element
    sequence ``(3,)`` counts for both dims, as PyTorch's kernels expand it."""
    if isinstance(value, int):
        return value, value
    value = tuple(value)
    return value * 2 if len(value) == 1 else value


def out_size(size: int, kernel: int, stride: int, pad_total: int, dilation: int) -> int:
    """Output length of a sliding window: (size + pads - dilation·(kernel-1) - 1) // stride + 1."""
    return (size + pad_total - dilation * (kernel - 1) - 1) // stride + 1


def windows(xp: ModuleType, data: np.ndarray, kernel: tuple[int, int], stride: tuple[int, int],
            dilation: tuple[int, int], out_hw: tuple[int, int]) -> np.ndarray:
    """A view ``(N, C, kh, kw, Ho, Wo)`` of every kernel window of ``data`` (no copy).

    Moving one kernel tap down means moving ``dilation`` rows; moving one output position
    down means moving ``stride`` rows. Those two facts are the strides of the view.
    """
    (kh, kw), (sh, sw), (dh, dw), (ho, wo) = kernel, stride, dilation, out_hw
    n, c = data.shape[:2]
    s_n, s_c, s_h, s_w = data.strides
    # the view aliases memory (windows overlap): only ever read from it, never write
    return xp.lib.stride_tricks.as_strided(
        data, (n, c, kh, kw, ho, wo), (s_n, s_c, s_h * dh, s_w * dw, s_h * sh, s_w * sw))


def pad_array(xp: ModuleType, data: np.ndarray, pads: tuple[int, ...],
              value: float = 0.0) -> np.ndarray:
    """Pad the last two dims by ``pads = (top, bottom, left, right)``: a new array filled with
    ``value``, the data copied into its middle (one allocation and one copy)."""
    if not any(pads):
        return data
    top, bottom, left, right = pads
    h, w = data.shape[-2:]
    shape = data.shape[:-2] + (h + top + bottom, w + left + right)
    out = xp.zeros(shape, data.dtype) if value == 0 else xp.full(shape, value, data.dtype)
    out[..., top: top + h, left: left + w] = data
    return out


def _tap_span(offset: int, step: int, n_out: int, size: int) -> tuple | None:
    """The output positions ``y`` whose pixel ``offset + step·y`` lies inside ``[0, size)``,
    and those pixels, as two slices; None when there are none (the tap only sees padding)."""
    first = max(0, -(offset // step))               # ceil(-offset / step), at least 0
    last = min(n_out - 1, (size - 1 - offset) // step)
    if last < first:
        return None
    return slice(offset + step * first, offset + step * last + 1, step), slice(first, last + 1)


def col2im(xp: ModuleType, dwin: np.ndarray, image_hw: tuple[int, int],
           stride: tuple[int, int], dilation: tuple[int, int],
           pads: tuple[int, ...] = (0, 0, 0, 0)) -> np.ndarray:
    """Add window gradients ``(N, C, kh, kw, Ho, Wo)`` back onto an ``image_hw`` image (the
    adjoint of ``windows`` over the image padded by ``pads``): overlapping windows add up,
    what fell on the padding is dropped. One slice-add per kernel tap; for a small image, one
    matrix product instead (``window_matrix``), cheaper than the kh·kw strided adds."""
    n, c, kh, kw, ho, wo = dwin.shape
    (sh, sw), (dh, dw) = stride, dilation
    matrix_size = kh * kw * ho * wo * image_hw[0] * image_hw[1]
    if matrix_size <= SMALL_MATRIX and 0 < n * c * matrix_size <= SMALL_COL2IM:
        m = window_matrix((kh, kw), tuple(stride), tuple(dilation), tuple(pads),
                          tuple(image_hw), (ho, wo), str(dwin.dtype))
        return (dwin.reshape(n * c, -1) @ xp.asarray(m)).reshape((n, c) + tuple(image_hw))
    out = xp.zeros((n, c) + tuple(image_hw), dtype=dwin.dtype)
    for i in range(kh):
        rows = _tap_span(i * dh - pads[0], sh, ho, image_hw[0])
        for j in range(kw):
            cols = _tap_span(j * dw - pads[2], sw, wo, image_hw[1])
            if rows is not None and cols is not None:
                out[:, :, rows[0], cols[0]] += dwin[:, :, i, j, rows[1], cols[1]]
    return out


SMALL_COL2IM = 2**23  # multiply-adds of col2im as a matrix product worth doing (~50 µs)
SMALL_MATRIX = 2**18  # entries of a window matrix worth keeping (1 MiB in float32; 64 kept)


@functools.lru_cache(maxsize=64)
def window_matrix(kernel: tuple[int, int], stride: tuple[int, int], dilation: tuple[int, int],
                  pads: tuple[int, ...], image_hw: tuple[int, int], out_hw: tuple[int, int],
                  dtype: str) -> np.ndarray:
    """The 0/1 matrix ``M`` with ``windows(pad(x)) = M · x`` per channel: row ``(i, j, y, x)``
    has a 1 at the pixel that kernel tap ``(i, j)`` sees at output ``(y, x)`` (none where it
    sees padding). Its transpose is col2im: ``dx = dwin · M``. Built once per geometry by
    taking the windows of an image of pixel numbers (read-only: it is shared)."""
    h, w = image_hw
    numbers = pad_array(np, np.arange(h * w).reshape(1, 1, h, w), pads, -1)
    pixel = windows(np, numbers, kernel, stride, dilation, out_hw).reshape(-1)
    m = np.zeros((pixel.size, h * w), dtype=dtype)
    rows = np.flatnonzero(pixel >= 0)
    m[rows, pixel[rows]] = 1
    m.flags.writeable = False
    return m


class FirstOrderOnly(Function):
    """A gradient computed directly on arrays, packaged as an op of its own.

    Differentiating it again (``create_graph=True`` then a second backward) is not supported,
    and says so instead of silently returning a wrong second derivative.
    """

    @staticmethod
    def backward(ctx, *grads):
        raise RuntimeError(
            f"double backward through {ctx.name()} is not implemented in autograd_course; "
            "only first derivatives of this operation are available"
        )


def im2col(x, w_shape, stride, pads, dilation, groups) -> tuple:
    """``cols[g, (c, i, j), (n, y, x)]``: one kernel-sized patch of the padded input per
    column, one matrix per group; with the output (height, width)."""
    n, c, h, w = x.shape
    c_g, kh, kw = w_shape[1:]
    data = pad_array(x._xp, x._data, pads)
    out_hw = (out_size(h, kh, stride[0], pads[0] + pads[1], dilation[0]),
              out_size(w, kw, stride[1], pads[2] + pads[3], dilation[1]))
    win = windows(x._xp, data, (kh, kw), stride, dilation, out_hw)
    cols = win.transpose(1, 2, 3, 0, 4, 5).reshape(groups, c_g * kh * kw, -1)
    return cols, out_hw


class Convolution(Function):
    """out[n, o] = Σ_c W[o, c] ⋆ x[n, c] + b[o], computed as one matrix multiply (im2col)."""

    node_name = "ConvolutionBackward0"
    saved_names = (None, "weight")

    @staticmethod
    def forward(ctx, x, weight, bias, stride, pads, dilation, groups):
        xp = x._xp
        n = x.shape[0]
        o, c_g, kh, kw = weight.shape
        cols, out_hw = im2col(x, weight.shape, stride, pads, dilation, groups)
        w_mat = weight._data.reshape(groups, o // groups, c_g * kh * kw)
        out = xp.matmul(w_mat, cols)  # (groups, O/groups, N·Ho·Wo): the one matrix multiply
        out = xp.ascontiguousarray(out.reshape(o, n, *out_hw).transpose(1, 0, 2, 3))
        if bias is not None:
            out += bias._data.reshape(1, o, 1, 1)
        need_x, need_w = ctx.needs_input_grad[:2]
        ctx.save_for_backward(x._new(cols) if need_w else None, weight if need_x else None)
        ctx.geometry = (x.shape, weight.shape, stride, pads, dilation, groups)
        return x._new(out)

    @staticmethod
    def backward(ctx, grad):
        cols, weight = ctx.saved_tensors
        dx, dw, db = ConvolutionGrad.apply(grad, cols, weight, ctx.geometry,
                                           ctx.needs_input_grad[:3])
        return dx, dw, db, None, None, None, None

    @staticmethod
    def jvp(ctx, t_x, t_w, t_b, *_):
        """Bilinear in (x, W), plus b: conv(t_x, W) + conv(x, t_W) + t_b (per channel)."""
        x, weight, _, *geometry = ctx.fw_args
        return forward_ad.add_tangents(
            None if t_x is None else Convolution.apply(t_x, weight, None, *geometry),
            None if t_w is None else Convolution.apply(x, t_w, None, *geometry),
            None if t_b is None else t_b.reshape(1, -1, 1, 1))


class ConvolutionGrad(FirstOrderOnly):
    """dx = col2im(Wᵀ · dOut),  dW = dOut · colsᵀ,  db = Σ dOut over (N, H, W)."""

    node_name = "ConvolutionBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, cols, weight, geometry, needs):
        xp = grad._xp
        x_shape, w_shape, stride, pads, dilation, groups = geometry
        n, o, ho, wo = grad.shape
        c_g, kh, kw = w_shape[1:]
        g = xp.ascontiguousarray(grad._data.transpose(1, 0, 2, 3)).reshape(groups, o // groups, -1)
        dx = dw = db = None
        if needs[0]:
            w_mat = weight._data.reshape(groups, o // groups, c_g * kh * kw)
            dcols = xp.matmul(w_mat.transpose(0, 2, 1), g)  # (groups, C/groups·kh·kw, N·Ho·Wo)
            dwin = dcols.reshape(c_g * groups, kh, kw, n, ho, wo).transpose(3, 0, 1, 2, 4, 5)
            dx = grad._new(col2im(xp, dwin, x_shape[2:], stride, dilation, pads))
        if needs[1]:
            dw_mat = xp.matmul(g, cols._data.transpose(0, 2, 1))  # (groups, O/groups, C_g·kh·kw)
            dw = grad._new(dw_mat.reshape(w_shape))
        if needs[2]:
            db = grad._new(grad._data.sum(axis=(0, 2, 3)))
        return dx, dw, db


def conv2d_geometry(x_shape: tuple[int, ...], w_shape: tuple[int, ...],
                    stride: int | tuple[int, int], padding: int | tuple[int, int] | str,
                    dilation: int | tuple[int, int],
                    groups: int = 1) -> tuple[tuple[int, int], tuple[int, ...], tuple[int, int]]:
    """Stride, dilation and the four paddings as tuples; ``padding`` may be 'same' or 'valid'.
    Arguments PyTorch refuses get its errors (checked in its order)."""
    stride, dilation = pair(stride), pair(dilation)
    if len(w_shape) != 4:
        raise RuntimeError(
            f"expected stride to be a single integer value or a list of {len(w_shape) - 2} "
            f"values to match the convolution dimensions, but got stride={list(stride)}")
    if isinstance(padding, str):
        if padding not in ("valid", "same"):
            raise RuntimeError(f"Invalid padding string: '{padding}'")
        if padding == "same" and stride != (1, 1):
            raise RuntimeError("padding='same' is not supported for strided convolutions")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    if not isinstance(padding, str) and min(pair(padding)) < 0:
        raise RuntimeError("negative padding is not supported")
    if min(stride) <= 0:
        raise RuntimeError("non-positive stride is not supported")
    if min(dilation) <= 0:
        raise RuntimeError(f"dilation should be greater than zero, but got {list(dilation)}")
    if isinstance(padding, str):
        if padding == "valid":
            return stride, (0, 0, 0, 0), dilation
        pads = []
        for k, d in zip(w_shape[2:], dilation):
            total = d * (k - 1)
            pads += [total // 2, total - total // 2]
        return stride, tuple(pads), dilation
    ph, pw = pair(padding)
    return stride, (ph, ph, pw, pw), dilation


def conv2d_check(x: Tensor, weight: Tensor, bias: Tensor | None, stride: tuple[int, int],
                 pads: tuple[int, ...], dilation: tuple[int, int], groups: int) -> str | None:
    """PyTorch's message for an input conv2d cannot take, or None when it is fine."""
    if x.ndim != 4:
        return ("Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of "
                f"size: {list(x.shape)}")
    if weight.shape[0] % groups:
        return (f"Given groups={groups}, expected weight to be divisible by {groups} at "
                f"dimension 0, but got weight of size [{list(weight.shape)}] instead")
    if x.shape[1] != weight.shape[1] * groups:
        return (f"Given groups={groups}, weight of size {list(weight.shape)}, expected "
                f"input{list(x.shape)} to have {weight.shape[1] * groups} channels, but got "
                f"{x.shape[1]} channels instead")
    padded = (x.shape[2] + pads[0] + pads[1], x.shape[3] + pads[2] + pads[3])
    eff = tuple(d * (k - 1) + 1 for k, d in zip(weight.shape[2:], dilation))
    if padded[0] < eff[0] or padded[1] < eff[1]:
        return (f"Calculated padded input size per channel: ({padded[0]} x {padded[1]}). "
                f"Kernel size: ({eff[0]} x {eff[1]}). Kernel size can't be greater than actual "
                "input size")
    if bias is not None and (bias.ndim != 1 or bias.shape[0] != weight.shape[0]):
        return (f"Given weight of size {list(weight.shape)}, expected bias to be 1-dimensional "
                f"with {weight.shape[0]} elements, but got bias of size {list(bias.shape)} "
                "instead")
    if bias is not None and bias._data.dtype != x._data.dtype:
        return f"Input type ({_name(x, str.lower)}) and bias type ({_name(bias, str.lower)}) " \
            "should be the same"
    if weight._data.dtype != x._data.dtype:
        return f"expected scalar type {_name(x)} but found {_name(weight)}"
    return None


def _name(t, case=str) -> str:
    """PyTorch's C++ scalar type name: Float, Double, Half."""
    names = {"float32": "Float", "float64": "Double", "float16": "Half"}
    return case(names.get(str(t._data.dtype), str(t._data.dtype)))


def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None,
           stride: int | tuple[int, int] = 1,
           padding: int | tuple[int, int] | str = 0, dilation: int | tuple[int, int] = 1,
           groups: int = 1) -> Tensor:
    """PyTorch's ``F.conv2d``: (N, C, H, W) or unbatched (C, H, W) input."""
    refuse_operands(input, weight, bias)
    stride, pads, dilation = conv2d_geometry(input.shape, weight.shape, stride, padding, dilation,
                                             groups)
    batched = input.unsqueeze(0) if input.ndim == 3 else input
    message = conv2d_check(batched, weight, bias, stride, pads, dilation, groups)
    if message:
        raise RuntimeError(message)
    return convolve(batched, weight, bias, stride, pads, dilation, groups, batched is not input)


def refuse_operands(input: Tensor, weight: Tensor, bias: Tensor | None) -> None:
    """PyTorch's errors for tensors on different devices and for a bool input."""
    same_device(input, weight, bias)
    if input._data.dtype.kind == "b":
        raise NotImplementedError('"slow_conv2d_cpu" not implemented for \'Bool\'')


def convolve(batched: Tensor, weight: Tensor, bias: Tensor | None, stride: tuple[int, int],
             pads: tuple[int, ...], dilation: tuple[int, int], groups: int,
             unbatched: bool) -> Tensor:
    """The convolution of arguments already checked (by ``conv2d``, or by ``nn.Conv2d``,
    which checks them itself to name the layer in its messages); ``batched``: the (N, C, H, W)
    input, made from an unbatched (C, H, W) one when ``unbatched``."""
    out = Convolution.apply(batched, weight, bias, stride, pads, dilation, groups)
    return out.squeeze(0) if unbatched else out
