"""``Linear``: y = x Wᵀ + b, the fully connected layer."""

from __future__ import annotations

from .. import _backend, dtypes
from ..tensor import Tensor
from . import functional as F
from . import init
from .module import Module, layer_error
from .parameter import add_weight_and_bias


class Linear(Module):
    """``in_features`` inputs to ``out_features`` outputs; ``weight`` is (out, in).

    Initialised like PyTorch: weight ~ U(-1/sqrt(in), 1/sqrt(in)) via
    ``kaiming_uniform_(a=sqrt(5))``, and the bias from the same range.
    """

    def __init__(self, in_features: int, out_features: int, bias: bool = True,
                 device: str | _backend.device | None = None,
                 dtype: dtypes.dtype | None = None) -> None:
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        add_weight_and_bias(self, (out_features, in_features), bias, device, dtype)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        init.default_layer_init_(self.weight, self.bias)

    def forward(self, input: Tensor) -> Tensor:
        if input._data.shape[-1:] != (self.in_features,):  # (a 0-d input has no last dim)
            rows = input.numel() // input.shape[-1] if input.ndim and input.shape[-1] else 1
            cols = input.shape[-1] if input.ndim else 1
            raise layer_error(
                self,
                f"expected input of shape (*, {self.in_features}), got {list(input.shape)}: "
                f"mat1 and mat2 shapes cannot be multiplied ({rows}x{cols} and "
                f"{self.in_features}x{self.out_features})")
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class Flatten(Module):
    """Flatten dims ``start_dim..end_dim`` into one: (N, C, H, W) -> (N, C·H·W) before a
    Linear layer."""

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def forward(self, input: Tensor) -> Tensor:
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"
