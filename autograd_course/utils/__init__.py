"""``ag.utils``: ``ag.utils.data`` holds Dataset, TensorDataset and DataLoader."""

from . import data

__all__ = ["data"]
