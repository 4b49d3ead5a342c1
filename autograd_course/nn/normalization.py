"""Batch normalisation: ``BatchNorm1d`` and ``BatchNorm2d``; and ``InstanceNorm2d``.

In training mode each channel is normalised with the mean and variance of the current batch,
and exponential running averages of those statistics are kept in buffers. In evaluation
mode (``model.eval()``) the running averages are used instead, so the output for a sample no
longer depends on the rest of the batch.
"""

from __future__ import annotations

from .. import creation, dtypes
from . import functional as F
from .module import Module, layer_error
from .parameter import Parameter


class _BatchNorm(Module):
    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1,
                 affine: bool = True, track_running_stats: bool = True, device=None,
                 dtype=None, *, bias: bool = True) -> None:
        super().__init__()
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        if affine:
            self.weight = Parameter(creation.ones(num_features, device=device, dtype=dtype))
            if bias:
                self.bias = Parameter(creation.zeros(num_features, device=device, dtype=dtype))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if track_running_stats:
            self.register_buffer("running_mean",
                                 creation.zeros(num_features, device=device, dtype=dtype))
            self.register_buffer("running_var",
                                 creation.ones(num_features, device=device, dtype=dtype))
            self.register_buffer("num_batches_tracked",
                                 creation.tensor(0, dtype=dtypes.int64, device=device))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)

    def reset_running_stats(self) -> None:
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            self.num_batches_tracked.zero_()

    def _check_input_dim(self, input) -> None:
        raise NotImplementedError

    def forward(self, input):
        self._check_input_dim(input)
        if input.shape[1] != self.num_features:
            raise layer_error(
                self, f"expected input with {self.num_features} channels (dim 1), got input "
                f"of shape {list(input.shape)}: running_mean should contain {input.shape[1]} "
                f"elements not {self.num_features}")
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            self.num_batches_tracked.add_(1)
            if self.momentum is None:  # cumulative moving average
                factor = 1.0 / float(self.num_batches_tracked)
        use_batch_stats = self.training or (self.running_mean is None and
                                            self.running_var is None)
        track = not self.training or self.track_running_stats
        try:
            return F.batch_norm(input, self.running_mean if track else None,
                                self.running_var if track else None, self.weight, self.bias,
                                use_batch_stats, factor, self.eps)
        except ValueError as err:  # one value per channel in training
            raise layer_error(self, str(err), ValueError) from None

    def extra_repr(self) -> str:
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"affine={self.affine}, bias={self.bias is not None}, "
                f"track_running_stats={self.track_running_stats}")


class BatchNorm1d(_BatchNorm):
    """Batch norm over (N, C) or (N, C, L) inputs."""

    def _check_input_dim(self, input) -> None:
        if input.ndim not in (2, 3):
            raise layer_error(self, f"expected 2D or 3D input (got {input.ndim}D input)",
                              ValueError)


class BatchNorm2d(_BatchNorm):
    """Batch norm over (N, C, H, W) inputs: one mean and variance per channel."""

    def _check_input_dim(self, input) -> None:
        if input.ndim != 4:
            raise layer_error(self, f"expected 4D input (got {input.ndim}D input)", ValueError)


class InstanceNorm2d(_BatchNorm):
    """Instance norm over (N, C, H, W) or (C, H, W) inputs: each sample's channel normalised
    over its own H·W positions. PyTorch's defaults differ from batch norm's: no affine
    parameters and no running statistics unless asked for."""

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1,
                 affine: bool = False, track_running_stats: bool = False, device=None,
                 dtype=None) -> None:
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device,
                         dtype)

    def forward(self, input):
        if input.ndim not in (3, 4):
            raise layer_error(self, f"expected 3D or 4D input (got {input.ndim}D input)",
                              ValueError)
        if input.ndim == 3:  # one sample without its batch dimension
            return self.forward(input.unsqueeze(0)).squeeze(0)
        momentum = 0.1 if self.momentum is None else self.momentum
        return F.instance_norm(input, self.running_mean, self.running_var, self.weight,
                               self.bias, self.training or not self.track_running_stats,
                               momentum, self.eps)
