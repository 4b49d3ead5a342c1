"""``bernoulli``: 0 or 1 at random, 1 with the probability given (PyTorch's draws).

``p.bernoulli()`` takes each element of ``p`` as its probability; ``x.bernoulli_(0.3)`` fills
``x`` in place with 1s drawn with probability 0.3. The draws follow PyTorch's CPU generator
(see ``autograd_course.random``), so the same seed gives PyTorch's zeros and ones.

A sample does not change smoothly with ``p``: its gradient is zero (``BernoulliBackward0``),
as in PyTorch, where the result of ``p.bernoulli()`` still records a node.
"""

from __future__ import annotations

from .. import _backend
from .. import random as _random
from ..autograd.function import Function


def _generator(generator):
    return _random.default_generator if generator is None else generator


class Bernoulli(Function):
    """out ~ Bernoulli(p) element-wise;  d p: zeros (a draw has no slope)."""

    node_name = "BernoulliBackward0"

    @staticmethod
    def forward(ctx, p, generator):
        if not p.dtype.is_floating_point:
            name = {"int64": "Long", "int32": "Int", "int16": "Short", "uint8": "Byte",
                    "bool": "Bool", "int8": "Char"}[p.dtype.name]
            raise NotImplementedError(f'"bernoulli_tensor_cpu_p_" not implemented for '
                                      f"'{name}'")
        probabilities = _backend.to_numpy(p._data)  # the generator draws on the CPU
        return p._new(p._xp.asarray(_generator(generator).bernoulli_of(probabilities)))

    @staticmethod
    def backward(ctx, grad):
        return grad * 0, None


def bernoulli(input, p=None, *, generator=None):
    """A new tensor of 0s and 1s: with probabilities ``input`` (or the number ``p``)."""
    if p is None:
        return Bernoulli.apply(input, generator)
    if not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p}")
    draws = _generator(generator).bernoulli(tuple(input.shape), float(p), input._data.dtype)
    return input._new(input._xp.asarray(draws))


def bernoulli_(input, p=0.5, *, generator=None):
    """Fill ``input`` in place with 1s drawn with probability ``p`` (a number or a tensor)."""
    if hasattr(p, "_data"):  # one uniform per element, as wide as p's dtype
        draws = _generator(generator).bernoulli_of(_backend.to_numpy(p._data))
        value = input._new(input._xp.asarray(draws.astype(input._data.dtype)))
    else:
        value = bernoulli(input, p, generator=generator)
    return input.copy_(value)
