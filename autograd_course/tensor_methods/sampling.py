"""``Tensor``'s methods that draw random values from it: ``p.bernoulli()`` (0 or 1 with the
probabilities in ``p``), ``x.bernoulli_(0.5)`` (written into ``x``), ``p.multinomial(n)``
(indices drawn with the weights in ``p``).
"""

from __future__ import annotations

from ..ops import draws
from ..ops.sampling import multinomial


class TensorSampling:
    """Mixed into ``Tensor``: random draws."""

    __slots__ = ()

    def bernoulli(self, p=None, *, generator=None):
        return draws.bernoulli(self, p, generator=generator)

    def bernoulli_(self, p=0.5, *, generator=None):
        return draws.bernoulli_(self, p, generator=generator)

    def multinomial(self, num_samples, replacement=False, *, generator=None):
        return multinomial(self, num_samples, replacement, generator=generator)
