"""``ag.utils``: ``ag.utils.data`` holds Dataset, TensorDataset and DataLoader;
``ag.utils.checkpoint`` recomputes in backward instead of saving for it."""

from . import checkpoint, data

__all__ = ["checkpoint", "data"]
