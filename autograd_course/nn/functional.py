"""``nn.functional``: the layers as plain functions (``F.relu(x)``, ``F.cross_entropy(...)``).

A module such as ``nn.Linear`` only holds the parameters; the computation is the function
here. Each one is the op that PyTorch's function of the same name records, so ``grad_fn``
names match (``AddmmBackward0``, ``ConvolutionBackward0``, ``NllLossBackward0``...).
"""

from __future__ import annotations

import numpy as np

from .. import ops
from ..autograd.profiler import recorded_as
from ..ops.activations import (
    elu,
    gelu,
    glu,
    hardswish,
    hardtanh,
    leaky_relu,
    log_softmax,
    logsigmoid,
    mish,
    prelu,
    silu,
    softmax,
    softplus,
    threshold,
)
from ..ops.attention import cosine_similarity, normalize, scaled_dot_product_attention
from ..ops.batch_norm import batch_norm, instance_norm
from ..ops.binary_loss import binary_cross_entropy, binary_cross_entropy_with_logits
from ..ops.classification_loss import cross_entropy, kl_div, nll_loss
from ..ops.conv import conv2d
from ..ops.dropout import dropout, dropout2d
from ..ops.embedding import embedding, pad
from ..ops.fold import conv1d, conv_transpose2d, fold, unfold
from ..ops.inplace import unary_
from ..ops.layer_norm import group_norm, layer_norm
from ..ops.pool import adaptive_avg_pool2d, avg_pool1d, avg_pool2d, max_pool2d
from ..ops.regression_loss import huber_loss, l1_loss, mse_loss, smooth_l1_loss
from ..ops.resize import interpolate
from ..ops.scaled_products import addmm
from ..tensor import Tensor

__all__ = [
    "adaptive_avg_pool2d", "avg_pool1d", "avg_pool2d", "batch_norm", "binary_cross_entropy",
    "binary_cross_entropy_with_logits", "conv2d", "cross_entropy", "dropout", "dropout2d",
    "elu", "gelu",
    "huber_loss", "kl_div", "l1_loss", "leaky_relu", "linear", "log_softmax", "max_pool2d",
    "mse_loss", "nll_loss", "one_hot", "relu", "sigmoid", "silu", "smooth_l1_loss",
    "softmax", "tanh", "cosine_similarity", "embedding", "glu", "group_norm", "hardswish",
    "hardtanh", "layer_norm", "logsigmoid", "mish", "normalize", "pad",
    "scaled_dot_product_attention", "softplus", "conv1d", "conv_transpose2d", "fold",
    "instance_norm", "interpolate", "prelu", "threshold", "unfold",
]


def _dtype_name(t) -> str:
    """PyTorch's C++ type name: Float, Double, Half..."""
    names = {"float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long"}
    return names.get(t.dtype.name, t.dtype.name.capitalize())


@recorded_as("aten::linear")  # one operator in PyTorch: one event of the profiler here too
# PyTorch's argument name
def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """y = x Wᵀ + b. A 2-d input is one ``addmm`` (PyTorch's ``AddmmBackward0``); other
    inputs are flattened to 2-d and back (``ViewBackward0``)."""
    if input._data.dtype != weight._data.dtype:
        raise RuntimeError(
            f"mat1 and mat2 must have the same dtype, but got {_dtype_name(input)} and "
            f"{_dtype_name(weight)}")
    if input.ndim != 2:
        flat = input.reshape(-1, input.shape[-1]) if input.ndim else input.reshape(1, -1)
        out = _linear_2d(flat, weight, bias)
        return out.reshape(*input.shape[:-1], weight.shape[0])
    return _linear_2d(input, weight, bias)


def _linear_2d(input: Tensor, weight: Tensor, bias: Tensor | None) -> Tensor:
    if bias is None:
        return input.mm(weight.t())
    return addmm(bias, input, weight.t())


def relu(input: Tensor, inplace: bool = False) -> Tensor:
    """max(x, 0). ``inplace=True`` overwrites ``input`` (and records ``ReluBackward0`` on it)."""
    if inplace:
        return unary_(input, "relu")  # relu saves its output: x itself, after
    return ops.relu(input)


def sigmoid(input: Tensor) -> Tensor:
    return ops.sigmoid(input)


def tanh(input: Tensor) -> Tensor:
    return ops.tanh(input)


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    """Class indices -> rows of 0/1 (int64), e.g. to build a target for ``mse_loss``."""
    idx = tensor._data
    if idx.dtype.kind not in "iu":
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    n = int(idx.max()) + 1 if num_classes == -1 else num_classes
    if idx.size and (idx.min() < 0 or idx.max() >= n):
        raise RuntimeError("Class values must be smaller than num_classes.")
    eye = tensor._xp.eye(n, dtype=np.int64)
    return tensor._new(eye[idx])
