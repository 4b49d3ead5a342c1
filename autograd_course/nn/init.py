"""Weight initialisation, with PyTorch's formulas and PyTorch's random numbers.

Why initialisation matters: if the weights of a layer are too large, activations grow layer
after layer; too small, they shrink to nothing. Kaiming (He) initialisation picks the spread
so that the variance of the activations stays about the same through ReLU layers:
``std = gain / sqrt(fan_in)``.

The numbers come from ``autograd_course.random`` (PyTorch's own generator), so after
``ag.manual_seed(0)`` a freshly built layer holds exactly the weights PyTorch would give it.
Every function changes the tensor in place, outside autograd, and returns it.
"""

from __future__ import annotations

import math

from .. import _backend
from .. import random as _random
from ..tensor import Tensor


def _write(tensor: Tensor, array) -> Tensor:
    """Put ``array`` into ``tensor``'s memory in place (not recorded by autograd)."""
    tensor._data[...] = _backend.to_device(array, tensor._device) \
        if tensor._device.type != "cpu" else array
    tensor._bump_version()
    return tensor


def _gen(generator):
    return _random.default_generator if generator is None else generator


def calculate_gain(nonlinearity: str, param: float | None = None) -> float:
    """The factor that keeps activations' variance steady through ``nonlinearity``."""
    linear = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
              "conv_transpose3d")
    if nonlinearity in linear or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif not isinstance(param, bool) and isinstance(param, (int, float)):
            slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor: Tensor) -> tuple[int, int]:
    """fan_in = inputs feeding one output unit (in_features, or C_in·kh·kw for a conv)."""
    if tensor.ndim < 2:
        raise ValueError(
            "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    receptive = math.prod(tensor.shape[2:]) if tensor.ndim > 2 else 1
    return tensor.shape[1] * receptive, tensor.shape[0] * receptive


def _calculate_correct_fan(tensor: Tensor, mode: str) -> int:
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of ['fan_in', 'fan_out']")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0,
             generator: _random.Generator | None = None) -> Tensor:
    """Fill with samples from U(a, b)."""
    return _write(tensor, _gen(generator).uniform(tuple(tensor.shape), tensor._data.dtype, a, b))


def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0,
            generator: _random.Generator | None = None) -> Tensor:
    """Fill with samples from N(mean, std²)."""
    return _write(tensor, _gen(generator).normal(tuple(tensor.shape), tensor._data.dtype,
                                                 mean, std))


def constant_(tensor: Tensor, val: float) -> Tensor:
    tensor._data[...] = val
    tensor._bump_version()
    return tensor


def zeros_(tensor: Tensor) -> Tensor:
    return constant_(tensor, 0.0)


def ones_(tensor: Tensor) -> Tensor:
    return constant_(tensor, 1.0)


def kaiming_uniform_(tensor: Tensor, a: float = 0, mode: str = "fan_in",
                     nonlinearity: str = "leaky_relu",
                     generator: _random.Generator | None = None) -> Tensor:
    """U(-bound, bound) with bound = gain·sqrt(3 / fan): the default for Linear and Conv2d
    (with ``a = sqrt(5)``, which works out to bound = 1/sqrt(fan_in))."""
    fan = _calculate_correct_fan(tensor, mode)
    std = calculate_gain(nonlinearity, a) / math.sqrt(fan)
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor: Tensor, a: float = 0, mode: str = "fan_in",
                    nonlinearity: str = "leaky_relu",
                    generator: _random.Generator | None = None) -> Tensor:
    """N(0, std²) with std = gain / sqrt(fan) (torchvision's ResNet uses fan_out, relu)."""
    fan = _calculate_correct_fan(tensor, mode)
    std = calculate_gain(nonlinearity, a) / math.sqrt(fan)
    return normal_(tensor, 0.0, std, generator)


def xavier_uniform_(tensor: Tensor, gain: float = 1.0,
                    generator: _random.Generator | None = None) -> Tensor:
    """U(-a, a) with a = gain·sqrt(6 / (fan_in + fan_out)) (Glorot, for tanh/sigmoid nets)."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound, generator)


def xavier_normal_(tensor: Tensor, gain: float = 1.0,
                   generator: _random.Generator | None = None) -> Tensor:
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return normal_(tensor, 0.0, std, generator)


def default_layer_init_(weight: Tensor, bias: Tensor | None) -> None:
    """PyTorch's default for ``Linear`` and ``Conv2d``: kaiming-uniform with a = √5 for the
    weight, U(-1/√fan_in, 1/√fan_in) for the bias. Drawn in this order from the PyTorch-identical
    generator, so a seeded layer gets exactly PyTorch's numbers."""
    kaiming_uniform_(weight, a=math.sqrt(5))
    if bias is not None:
        fan_in, _ = _calculate_fan_in_and_fan_out(weight)
        bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
        uniform_(bias, -bound, bound)
