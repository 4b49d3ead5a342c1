"""More layers: ``Conv1d``, ``ConvTranspose2d``, ``Unfold``/``Fold``, ``Upsample``, ``PReLU``
and ``MultiheadAttention``, each a thin module around its ``nn.functional`` op, with
PyTorch's parameters, shapes and initialisation (drawn in PyTorch's order, so a seeded layer
gets PyTorch's numbers)."""

from __future__ import annotations

import math

from .. import creation
from ..ops.conv import pair
from . import functional as F
from . import init
from .linear import Linear
from .module import Module
from .parameter import Parameter, add_weight_and_bias


class Conv1d(Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1,
                 padding: int | str = 0, dilation: int = 1, groups: int = 1, bias: bool = True,
                 padding_mode: str = "zeros", device=None, dtype=None) -> None:
        super().__init__()
        if in_channels % groups or out_channels % groups:
            raise ValueError("in_channels must be divisible by groups" if in_channels % groups
                             else "out_channels must be divisible by groups")
        single = (lambda v: (v,) if isinstance(v, int) else tuple(v))
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride = single(kernel_size), single(stride)
        self.padding = padding if isinstance(padding, str) else single(padding)
        self.dilation, self.groups, self.padding_mode = single(dilation), groups, padding_mode
        add_weight_and_bias(self, (out_channels, in_channels // groups, *self.kernel_size),
                            bias, device, dtype)
        init.default_layer_init_(self.weight, self.bias)

    def forward(self, input):
        padding = self.padding if isinstance(self.padding, str) else self.padding[0]
        return F.conv1d(input, self.weight, self.bias, self.stride[0], padding,
                        self.dilation[0], self.groups)

    def extra_repr(self) -> str:
        s = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
             f"stride={self.stride}")
        if self.padding != (0,):
            s += f", padding={self.padding}"
        return s + (", bias=False" if self.bias is None else "")


class ConvTranspose2d(Module):
    """weight (in_channels, out_channels, kh, kw): each input pixel spreads over a window."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0,
                 output_padding=0, groups: int = 1, bias: bool = True, dilation=1,
                 padding_mode: str = "zeros", device=None, dtype=None) -> None:
        super().__init__()
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride = pair(kernel_size), pair(stride)
        self.padding, self.output_padding = pair(padding), pair(output_padding)
        self.groups, self.dilation, self.padding_mode = groups, pair(dilation), padding_mode
        self.weight = Parameter(creation.empty(in_channels, out_channels // groups,
                                               *self.kernel_size, device=device, dtype=dtype))
        if bias:
            self.bias = Parameter(creation.empty(out_channels, device=device, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        init.default_layer_init_(self.weight, self.bias)

    def forward(self, input, output_size=None):
        if output_size is not None:
            raise NotImplementedError("ConvTranspose2d(output_size=...) is not supported here")
        return F.conv_transpose2d(input, self.weight, self.bias, self.stride, self.padding,
                                  self.output_padding, self.groups, self.dilation)

    def extra_repr(self) -> str:
        s = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
             f"stride={self.stride}")
        if self.padding != (0, 0):
            s += f", padding={self.padding}"
        if self.output_padding != (0, 0):
            s += f", output_padding={self.output_padding}"
        return s + (", bias=False" if self.bias is None else "")


class Unfold(Module):
    def __init__(self, kernel_size, dilation=1, padding=0, stride=1) -> None:
        super().__init__()
        self.kernel_size, self.dilation = kernel_size, dilation
        self.padding, self.stride = padding, stride

    def forward(self, input):
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, dilation={self.dilation}, "
                f"padding={self.padding}, stride={self.stride}")


class Fold(Unfold):
    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1) -> None:
        super().__init__(kernel_size, dilation, padding, stride)
        self.output_size = output_size

    def forward(self, input):
        return F.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding,
                      self.stride)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}, " + super().extra_repr()


class Upsample(Module):
    def __init__(self, size=None, scale_factor=None, mode: str = "nearest",
                 align_corners: bool | None = None,
                 recompute_scale_factor: bool | None = None) -> None:
        super().__init__()
        self.size, self.mode, self.align_corners = size, mode, align_corners
        self.scale_factor = float(scale_factor) if isinstance(scale_factor, (int, float)) \
            else scale_factor
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input):
        return F.interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                             recompute_scale_factor=self.recompute_scale_factor)

    def extra_repr(self) -> str:
        info = (f"size={self.size!r}" if self.size is not None
                else f"scale_factor={self.scale_factor!r}")
        return info + f", mode={self.mode!r}"


class PReLU(Module):
    """Leaky ReLU whose negative slope is learnt (``num_parameters`` of them, initialised to
    ``init``)."""

    def __init__(self, num_parameters: int = 1, init: float = 0.25, device=None,
                 dtype=None) -> None:
        super().__init__()
        self.num_parameters, self.init = num_parameters, init
        self.weight = Parameter(creation.full((num_parameters,), init, device=device,
                                              dtype=dtype))

    def forward(self, input):
        return F.prelu(input, self.weight)

    def extra_repr(self) -> str:
        return f"num_parameters={self.num_parameters}"


class NonDynamicallyQuantizableLinear(Linear):
    """``Linear`` under the name PyTorch gives ``MultiheadAttention.out_proj``."""


class MultiheadAttention(Module):
    """Attention with ``num_heads`` heads: queries, keys and values projected by one
    (3·E, E) matrix, scaled dot-product attention per head, the heads joined and projected
    by ``out_proj``. Returns (output, attention weights averaged over the heads)."""

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0, bias: bool = True,
                 add_bias_kv: bool = False, add_zero_attn: bool = False, kdim=None, vdim=None,
                 batch_first: bool = False, device=None, dtype=None) -> None:
        super().__init__()
        if embed_dim % num_heads:
            raise AssertionError("embed_dim must be divisible by num_heads")
        if dropout or add_bias_kv or add_zero_attn or (kdim or embed_dim) != embed_dim or \
                (vdim or embed_dim) != embed_dim:
            raise NotImplementedError("MultiheadAttention: dropout, add_bias_kv, add_zero_attn "
                                      "and kdim/vdim are not supported here")
        self.embed_dim, self.num_heads, self.dropout = embed_dim, num_heads, dropout
        self.head_dim, self.batch_first = embed_dim // num_heads, batch_first
        self.in_proj_weight = Parameter(creation.empty(3 * embed_dim, embed_dim, device=device,
                                                       dtype=dtype))
        if bias:
            self.in_proj_bias = Parameter(creation.empty(3 * embed_dim, device=device,
                                                         dtype=dtype))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias,
                                                        device=device, dtype=dtype)
        init.xavier_uniform_(self.in_proj_weight)  # PyTorch's _reset_parameters, in its order
        if bias:
            init.constant_(self.in_proj_bias, 0.0)
            init.constant_(self.out_proj.bias, 0.0)

    def forward(self, query, key, value, key_padding_mask=None, need_weights: bool = True,
                attn_mask=None, average_attn_weights: bool = True, is_causal: bool = False):
        batched = query.ndim == 3
        if not batched:
            query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        elif self.batch_first:
            query, key, value = (t.transpose(0, 1) for t in (query, key, value))
        length, batch, e = query.shape
        w, b = self.in_proj_weight.chunk(3), (None,) * 3
        if self.in_proj_bias is not None:
            b = self.in_proj_bias.chunk(3)
        q, k, v = (F.linear(t, wi, bi) for t, wi, bi in zip((query, key, value), w, b))

        def heads(t):  # (L, N, E) -> (N, heads, L, head_dim)
            return t.reshape(t.shape[0], batch, self.num_heads, self.head_dim).permute(1, 2, 0, 3)

        q, k, v = heads(q), heads(k), heads(v)
        scores = q.matmul(k.transpose(-2, -1)) / math.sqrt(self.head_dim)
        if attn_mask is not None:
            scores = (scores.masked_fill(attn_mask, float("-inf"))
                      if attn_mask.dtype == creation.tensor(True).dtype else scores + attn_mask)
        if key_padding_mask is not None:
            scores = scores.masked_fill(key_padding_mask.reshape(batch, 1, 1, -1), float("-inf"))
        weights = F.softmax(scores, dim=-1)
        out = weights.matmul(v).permute(2, 0, 1, 3).reshape(length, batch, e)
        out = self.out_proj(out)
        if not batched:
            out, weights = out.squeeze(1), weights.squeeze(0)
        elif self.batch_first:
            out = out.transpose(0, 1)
        if not need_weights:
            return out, None
        return out, (weights.mean(-3) if average_attn_weights else weights)
