"""``Dataset``, ``TensorDataset`` and ``DataLoader``: feeding a model mini-batches.

A ``Dataset`` answers two questions: how many samples (``len``) and what is sample ``i``
(``dataset[i]``). A ``DataLoader`` walks over it in batches: it draws the order (shuffled or
not), groups indices into batches of ``batch_size`` and stacks the samples of each batch
into tensors.

Shuffling uses PyTorch's recipe with PyTorch's generator: each pass over the loader draws a
seed, seeds a fresh generator with it and takes ``randperm``. So after ``ag.manual_seed(s)``
the batches come out in the same order as ``torch.utils.data.DataLoader`` after
``torch.manual_seed(s)``; pass ``generator=`` to keep the order independent of other random
calls.
"""

from __future__ import annotations

import numbers

import numpy as np

from .. import dtypes
from .. import random as _random
from ..creation import tensor as _make_tensor
from ..ops import stack
from ..tensor import Tensor


class Dataset:
    """Base class for map-style datasets: implement ``__getitem__`` and ``__len__``."""

    def __getitem__(self, index):
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __len__(self) -> int:
        raise NotImplementedError("Subclasses of Dataset should implement __len__.")


class TensorDataset(Dataset):
    """Samples are rows: ``dataset[i] = (t[i] for t in tensors)`` (e.g. images and labels)."""

    def __init__(self, *tensors: Tensor) -> None:
        if any(t.shape[0] != tensors[0].shape[0] for t in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].shape[0]


def default_collate(batch):
    """A list of samples -> one batch: tensors are stacked, numbers become a tensor (floats
    as float64, like PyTorch), and tuples/lists/dicts are collated field by field (a tuple
    sample gives a list of batched fields)."""
    first = batch[0]
    if isinstance(first, Tensor):
        return stack(batch, 0)
    if isinstance(first, np.ndarray):
        return _make_tensor(np.stack(batch))
    if isinstance(first, bool):
        return _make_tensor(batch)
    if isinstance(first, numbers.Integral):
        return _make_tensor(batch, dtype=dtypes.int64)
    if isinstance(first, numbers.Real):
        return _make_tensor(batch, dtype=dtypes.float64)  # Python floats are doubles
    if isinstance(first, str):
        return list(batch)
    if isinstance(first, dict):
        return {key: default_collate([sample[key] for sample in batch]) for key in first}
    if isinstance(first, (tuple, list)):
        if any(len(sample) != len(first) for sample in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        return [default_collate(list(field)) for field in zip(*batch)]  # a list, as PyTorch
    raise TypeError(
        "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; "
        f"found {type(first).__name__}")


class DataLoader:
    """Iterate over ``dataset`` in mini-batches.

    ``shuffle=True`` draws a new order on every pass; ``drop_last=True`` skips a final batch
    smaller than ``batch_size``. ``generator`` (an ``ag.random.Generator``) makes the order
    reproducible on its own.
    """

    def __init__(self, dataset: Dataset, batch_size: int | None = 1, shuffle: bool = False,
                 drop_last: bool = False, collate_fn=None, generator=None) -> None:
        if batch_size is not None and (not isinstance(batch_size, int) or batch_size <= 0):
            raise ValueError(
                f"batch_size should be a positive integer value, but got batch_size={batch_size}")
        self.dataset, self.batch_size = dataset, batch_size
        self.shuffle, self.drop_last = shuffle, drop_last
        self.collate_fn = collate_fn
        self.generator = generator

    def __len__(self) -> int:
        n = len(self.dataset)
        if self.batch_size is None:
            return n
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)

    def _indices(self, gen):
        """The sample order, drawn lazily the way PyTorch's RandomSampler draws it."""
        n = len(self.dataset)
        if not self.shuffle:
            yield from range(n)
            return
        if self.generator is None:  # PyTorch: a fresh generator seeded from the global one
            seed = int(gen.random_int64(()))
            gen = _random.Generator()
            gen.manual_seed(seed)
        yield from gen.randperm(n).tolist()
        gen.randperm(n)  # PyTorch's sampler draws one more permutation (and uses 0 of it)

    def _batches(self, indices):
        """Group indices like PyTorch's BatchSampler (so the generator is used at the same
        moments: the extra permutation is drawn when the order runs out)."""
        size = self.batch_size
        if self.drop_last:
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

    def __iter__(self):
        gen = self.generator or _random.default_generator
        gen.random_int64(())  # PyTorch draws a base seed (for worker processes) every pass
        indices = self._indices(gen)
        if self.batch_size is None:
            for i in indices:
                yield self.dataset[i]
            return
        for batch in self._batches(indices):
            yield self._fetch(batch)

    def _fetch(self, indices: list[int]):
        if self.collate_fn is None and type(self.dataset) is TensorDataset:
            # fast path, same result as stacking the samples: one gather per tensor
            index = np.asarray(indices, dtype=np.int64)
            return [t[index] for t in self.dataset.tensors]
        samples = [self.dataset[i] for i in indices]
        return (self.collate_fn or default_collate)(samples)
