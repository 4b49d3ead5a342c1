"""``ag.utils.data``, as ``torch.utils.data``: datasets (dataset.py), the orders to visit
them in (sampler.py) and the ``DataLoader`` that batches them (dataloader.py). The three
submodules carry PyTorch's submodule names, so ``from torch.utils.data.dataloader import
DataLoader`` (as minGPT and makemore write it) finds the same class."""

from .dataloader import DataLoader, default_collate, default_convert
from .dataset import Dataset, TensorDataset
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler

__all__ = ["BatchSampler", "DataLoader", "Dataset", "RandomSampler", "Sampler",
           "SequentialSampler", "TensorDataset", "default_collate", "default_convert"]
