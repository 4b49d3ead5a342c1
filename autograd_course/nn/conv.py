"""``Conv2d``: a 2-d convolution layer (the computation is ``ops.conv``: im2col + one GEMM)."""

from __future__ import annotations

from .. import _backend, dtypes
from ..ops.conv import conv2d_check, conv2d_geometry, convolve, pair, refuse_operands
from ..tensor import Tensor
from . import init
from .module import Module, layer_error
from .parameter import add_weight_and_bias


class Conv2d(Module):
    """``out_channels`` filters of size ``in_channels/groups x kh x kw`` slid over the input.

    ``weight`` is (out_channels, in_channels/groups, kh, kw); initialised like Linear
    (``kaiming_uniform_(a=sqrt(5))``, fan_in = in_channels/groups · kh · kw).
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int | tuple[int, int],
                 stride: int | tuple[int, int] = 1, padding: int | tuple[int, int] | str = 0,
                 dilation: int | tuple[int, int] = 1, groups: int = 1, bias: bool = True,
                 padding_mode: str = "zeros", device: str | _backend.device | None = None,
                 dtype: dtypes.dtype | None = None) -> None:
        super().__init__()
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        if isinstance(padding, str):
            if padding not in ("same", "valid"):
                raise ValueError(
                    f"Invalid padding string {padding!r}, should be one of {{'valid', 'same'}}")
            if padding == "same" and pair(stride) != (1, 1):
                raise ValueError("padding='same' is not supported for strided convolutions")
        if padding_mode != "zeros":
            raise NotImplementedError("only padding_mode='zeros' is implemented")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride = pair(kernel_size), pair(stride)
        self.padding = padding if isinstance(padding, str) else pair(padding)
        self.dilation, self.groups = pair(dilation), groups
        self.padding_mode = padding_mode
        add_weight_and_bias(self, (out_channels, in_channels // groups, *self.kernel_size),
                            bias, device, dtype)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        init.default_layer_init_(self.weight, self.bias)

    def forward(self, input: Tensor) -> Tensor:
        batched = input if input.ndim != 3 else input.unsqueeze(0)
        stride, pads, dilation = conv2d_geometry(batched.shape, self.weight.shape, self.stride,
                                                 self.padding, self.dilation)
        message = conv2d_check(batched, self.weight, self.bias, stride, pads, dilation,
                               self.groups)
        if message:
            raise layer_error(self, message)
        refuse_operands(input, self.weight, self.bias)  # the rest F.conv2d would check
        return convolve(batched, self.weight, self.bias, stride, pads, dilation, self.groups,
                        batched is not input)

    def extra_repr(self) -> str:
        s = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
             f"stride={self.stride}")
        if self.padding != (0, 0):
            s += f", padding={self.padding}"
        if self.dilation != (1, 1):
            s += f", dilation={self.dilation}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        return s
