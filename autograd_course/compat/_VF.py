"""``torch._VF``: the module of PyTorch's C++ operator bindings that ``torch.functional``
calls. Only ``unique_dim`` is here, the one PyTorch's tests reach for (it is not offered as
``torch.unique_dim``; ``torch.unique(x, dim=d)`` is the public way to it)."""

from __future__ import annotations

from ..ops.distinct import unique_dim

__all__ = ["unique_dim"]
