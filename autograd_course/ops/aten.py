"""PyTorch's low-level ATen operators by their ATen names, for code that calls
``torch.ops.aten.NAME`` directly (``ag.ops.aten.NAME`` here).

Most code never needs them: they are the pieces PyTorch's own functions are built from, and
its tests call some of them by name. Each takes ATen's arguments in ATen's order.

* ``_new_zeros_with_same_feature_meta(t, target, self_num_batch_dims=k)``: zeros laid out as
  ``target`` in its storage, with ``t``'s first ``k`` dims in front (forward_layout.py).
* ``_has_same_storage_numel(a, b)``: whether the storages of ``a`` and ``b`` are as long.
* ``convolution_backward(grad_out, input, weight, bias_sizes, stride, padding, dilation,
  transposed, output_padding, groups, output_mask)``: the three gradients of a convolution,
  ``(grad_input, grad_weight, grad_bias)``, each computed only where ``output_mask`` says
  (``None`` elsewhere). Here for 1-d and 2-d convolutions, not transposed.
"""

from __future__ import annotations

from ..autograd import forward_ad
from ..autograd.forward_layout import _has_same_storage_numel, _new_zeros_with_same_feature_meta
from .conv import ConvolutionGrad, FirstOrderOnly, im2col

__all__ = ["_has_same_storage_numel", "_new_zeros_with_same_feature_meta",
           "convolution_backward"]


class ConvolutionBackward(FirstOrderOnly):
    """With W·x the convolution: grad_input = Wᵀ·g (col2im), grad_weight = g·colsᵀ (cols: the
    input's patches), grad_bias = Σ g over (N, H, W). Each is linear in g and in one of x, W,
    which gives the forward-mode rule below."""

    node_name = "ConvolutionBackwardBackward0"

    @staticmethod
    def forward(ctx, grad_out, x, weight, geometry, mask):
        stride, pads, dilation, groups = geometry
        cols, _ = im2col(x, weight.shape, stride, pads, dilation, groups)
        full = (x.shape, weight.shape, stride, pads, dilation, groups)
        return ConvolutionGrad.forward(None, grad_out, x._new(cols), weight, full, mask)

    @staticmethod
    def jvp(ctx, t_g, t_x, t_w, *_):
        """d grad_input = Wᵀ·t_g + t_Wᵀ·g;  d grad_weight = t_g·colsᵀ + g·cols(t_x)ᵀ;
        d grad_bias = Σ t_g: the op itself, once per input that carries a tangent."""
        g, x, weight, geometry, mask = ctx.fw_args
        parts = []
        if t_g is not None:
            parts.append(ConvolutionBackward.apply(t_g, x, weight, geometry, mask))
        if t_x is not None:  # only grad_weight reads x
            parts.append(ConvolutionBackward.apply(g, t_x, weight, geometry,
                                                   (False, mask[1], False)))
        if t_w is not None:  # only grad_input reads W
            parts.append(ConvolutionBackward.apply(g, x, t_w, geometry,
                                                   (mask[0], False, False)))
        return tuple(forward_ad.add_tangents(*column) for column in zip(*parts))


def convolution_backward(grad_output, input, weight, bias_sizes, stride, padding, dilation,
                         transposed, output_padding, groups, output_mask):
    """ATen's ``convolution_backward``: ``(grad_input, grad_weight, grad_bias)``, ``None``
    where ``output_mask`` is False (``bias_sizes`` only says whether there is a bias)."""
    if transposed:
        raise NotImplementedError("convolution_backward: transposed convolutions are not "
                                  "implemented in autograd_course")
    if input.ndim == 3:  # 1-d: a 2-d convolution over rows of height 1
        grad_input, grad_weight, grad_bias = convolution_backward(
            grad_output.unsqueeze(2), input.unsqueeze(2), weight.unsqueeze(2), bias_sizes,
            (1, *stride), (0, *padding), (1, *dilation), transposed, (0, *output_padding),
            groups, output_mask)
        return _without_row(grad_input), _without_row(grad_weight), grad_bias
    if input.ndim != 4:
        raise NotImplementedError("convolution_backward: only 1-d and 2-d convolutions are "
                                  "implemented in autograd_course")
    ph, pw = padding
    geometry = (tuple(stride), (ph, ph, pw, pw), tuple(dilation), groups)
    return ConvolutionBackward.apply(grad_output, input, weight, geometry, tuple(output_mask))


def _without_row(grad):
    return None if grad is None else grad.squeeze(2)
