"""``torch.utils.data.dataset``'s two basic classes: ``Dataset`` (the interface a
``DataLoader`` reads: ``len(ds)`` and ``ds[i]``) and ``TensorDataset`` (rows of tensors)."""

from __future__ import annotations

from ...tensor import Tensor


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

