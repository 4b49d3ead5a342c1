"""``DataLoader`` (``torch.utils.data.dataloader``): feeding a model mini-batches.

A ``Dataset`` (dataset.py) answers two questions: how many samples (``len``) and what is
sample ``i`` (``dataset[i]``). A ``DataLoader`` walks over it in batches: it draws the order
(shuffled or not: sampler.py), groups indices into batches of ``batch_size`` and stacks the
samples of each batch into tensors.

Shuffling uses PyTorch's recipe with PyTorch's generator: each pass over the loader draws a
seed, seeds a fresh generator with it and takes ``randperm``. So after ``ag.manual_seed(s)``
the batches come out in the same order as ``torch.utils.data.DataLoader`` after
``torch.manual_seed(s)``; pass ``generator=`` to keep the order independent of other random
calls.
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np

from ... import dtypes
from ... import random as _random
from ...creation import tensor as _make_tensor
from ...ops import stack
from ...tensor import Tensor
from .dataset import Dataset, TensorDataset
from .sampler import BatchSampler, RandomSampler, SequentialSampler


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


def default_convert(data):
    """One sample as a batch-less ``DataLoader`` (``batch_size=None``) gives it: NumPy arrays
    become tensors, and a tuple becomes a list, as in PyTorch; the rest is left as it is."""
    if isinstance(data, np.ndarray):
        return _make_tensor(data)
    if isinstance(data, dict):
        return {key: default_convert(value) for key, value in data.items()}
    if isinstance(data, (tuple, list)):
        return [default_convert(d) for d in data]
    return data



_EXCLUSIVE = ("batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and "
              "drop_last")


class DataLoader:
    """Iterate over ``dataset`` in mini-batches.

    ``shuffle=True`` draws a new order on every pass (or give the order: ``sampler``, or the
    batches themselves: ``batch_sampler``); ``drop_last=True`` skips a final batch smaller
    than ``batch_size``. ``generator`` (an ``ag.random.Generator``) makes the order
    reproducible on its own. Worker processes are not used: with ``num_workers > 0`` the
    batches are loaded here, in the same order (``worker_init_fn`` is called with each worker
    id at the start of a pass, as each worker would); ``pin_memory``, ``timeout`` and
    ``prefetch_factor`` are accepted and checked as PyTorch checks them.
    """

    def __init__(self, dataset: Dataset, batch_size: int | None = 1, shuffle: bool | None = None,
                 sampler=None, batch_sampler=None, num_workers: int = 0, collate_fn=None,
                 pin_memory: bool = False, drop_last: bool = False, timeout: float = 0,
                 worker_init_fn=None, multiprocessing_context=None, generator=None, *,
                 prefetch_factor: int | None = None, persistent_workers: bool = False,
                 pin_memory_device: str = "", in_order: bool = True) -> None:
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to "
                             "disable multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if num_workers == 0 and prefetch_factor is not None:
            raise ValueError("prefetch_factor option could only be specified in multiprocessing."
                             "let num_workers > 0 to enable multiprocessing, otherwise set "
                             "prefetch_factor to None.")
        if persistent_workers and num_workers == 0:
            raise ValueError("persistent_workers option needs num_workers > 0")
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError(_EXCLUSIVE)
            batch_size, drop_last = None, False
        elif batch_size is not None and (not isinstance(batch_size, int) or batch_size <= 0):
            raise ValueError(
                f"batch_size should be a positive integer value, but got batch_size={batch_size}")
        if sampler is None:
            sampler = (RandomSampler(dataset, generator=generator) if shuffle
                       else SequentialSampler(dataset))
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.dataset, self.batch_size = dataset, batch_size
        self.shuffle, self.drop_last = bool(shuffle), drop_last
        self.sampler, self.batch_sampler = sampler, batch_sampler
        self.num_workers, self.collate_fn = num_workers, collate_fn
        self.pin_memory, self.timeout = pin_memory, timeout
        self.worker_init_fn, self.generator = worker_init_fn, generator
        self.multiprocessing_context = multiprocessing_context
        self.prefetch_factor, self.persistent_workers = prefetch_factor, persistent_workers
        self.pin_memory_device, self.in_order = pin_memory_device, in_order
        self._workers_started = False

    def __len__(self) -> int:
        if self.batch_sampler is not None:
            return len(self.batch_sampler)
        return len(self.sampler)

    def __iter__(self):
        """A new pass: its base seed is drawn (and workers set up) now, the batches later."""
        gen = self.generator or _random.default_generator
        gen.random_int64(())  # PyTorch draws a base seed (for worker processes) every pass
        if self.pin_memory:
            warnings.warn("'pin_memory' argument is set as true but no accelerator is found, "
                          "then device pinned memory won't be used.", UserWarning, stacklevel=2)
        if self.worker_init_fn is not None and self.num_workers > 0 and not (
                self.persistent_workers and self._workers_started):
            for worker_id in range(self.num_workers):
                self.worker_init_fn(worker_id)
        self._workers_started = True
        return self._batches()  # the draw above happens at iter(loader), as in PyTorch

    def _batches(self):
        if self.batch_sampler is None:  # samples one by one, converted but not collated
            for i in self.sampler:
                yield (self.collate_fn or default_convert)(self.dataset[i])
            return
        for batch in self.batch_sampler:
            yield self._fetch(batch)

    def _fetch(self, indices: list[int]):
        if self.collate_fn is None and type(self.dataset) is TensorDataset:
            # fast path, same result as stacking the samples: one gather per tensor
            index = np.asarray(indices, dtype=np.int64)
            return [t[index] for t in self.dataset.tensors]
        samples = [self.dataset[i] for i in indices]
        return (self.collate_fn or default_collate)(samples)
