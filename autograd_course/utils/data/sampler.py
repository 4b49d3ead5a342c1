"""``torch.utils.data.sampler``: the orders in which a ``DataLoader`` visits a dataset's
indices, drawn with PyTorch's own recipes so that the same seed gives the same order.

* ``SequentialSampler``: 0, 1, 2, ...
* ``RandomSampler``: a fresh generator per pass, seeded from the global one (or the
  ``generator`` given); without replacement it walks ``randperm(n)`` (whole permutations,
  then the first ``num_samples % n`` of one more), with replacement it draws
  ``randint(high=n, size=(32,))`` at a time and then the remaining ``num_samples % 32``.
* ``BatchSampler``: groups another sampler's indices into lists of ``batch_size``.
"""

from __future__ import annotations

from ... import random as _random


class Sampler:
    """Base class of the index orders a ``DataLoader`` can walk: implement ``__iter__``."""

    def __iter__(self):
        raise NotImplementedError


class SequentialSampler(Sampler):
    """0, 1, 2... in order."""

    def __init__(self, data_source) -> None:
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(Sampler):
    """Random indices, drawn as PyTorch's ``RandomSampler`` draws them: each pass seeds a fresh
    generator from the global one (unless ``generator`` is given), then takes permutations
    (``replacement=False``) or uniform draws with replacement, ``num_samples`` in all (the
    dataset's length unless given)."""

    def __init__(self, data_source, replacement: bool = False, num_samples: int | None = None,
                 generator=None) -> None:
        self.data_source, self.replacement = data_source, replacement
        self._num_samples, self.generator = num_samples, generator
        if not isinstance(replacement, bool):
            raise TypeError(
                f"replacement should be a boolean value, but got replacement={replacement}")
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError("num_samples should be a positive integer value, but got "
                             f"num_samples={self.num_samples}")

    @property
    def num_samples(self) -> int:
        """How many indices one pass gives (read at each pass: a dataset may grow)."""
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        n = len(self.data_source)
        gen = self.generator
        if gen is None:
            seed = int(_random.default_generator.random_int64(()))
            gen = _random.Generator()
            gen.manual_seed(seed)
        if self.replacement:  # 32 draws at a time, then the rest
            for _ in range(self.num_samples // 32):
                yield from gen.randint(0, n, (32,)).tolist()
            yield from gen.randint(0, n, (self.num_samples % 32,)).tolist()
        else:  # whole permutations, then the start of one more (drawn even when 0 is used)
            for _ in range(self.num_samples // n):
                yield from gen.randperm(n).tolist()
            yield from gen.randperm(n).tolist()[:self.num_samples % n]

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(Sampler):
    """Groups the indices of ``sampler`` into lists of ``batch_size`` (the last one smaller,
    unless ``drop_last``)."""

    def __init__(self, sampler, batch_size: int, drop_last: bool) -> None:
        self.sampler, self.batch_size, self.drop_last = sampler, batch_size, drop_last

    def __iter__(self):
        indices, size = iter(self.sampler), self.batch_size
        if self.drop_last:  # draws as PyTorch does: the order's end is seen at the same time
            while True:
                try:
                    yield [next(indices) for _ in range(size)]
                except StopIteration:
                    return
        batch = []
        for i in indices:
            batch.append(i)
            if len(batch) == size:
                yield batch
                batch = []
        if batch:
            yield batch

    def __len__(self) -> int:
        n = len(self.sampler)
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)

