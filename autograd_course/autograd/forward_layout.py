"""A tangent laid out like its primal: PyTorch's rule for what ``make_dual`` keeps.

An op's forward-mode rule applies the same view to the tangent as to the primal
(``x.as_strided(size, stride, offset)``: ``t.as_strided(size, stride, offset)``), and
``as_strided`` reads *storage* positions. So the tangent must address its storage as the primal
does, or the same positions would mean other elements (or lie out of bounds). PyTorch checks
this when a tangent is set (``has_same_meta``) and, where it fails, copies the tangent into a
fresh tensor laid out as the primal: a storage of zeros as long as the primal's, viewed with the
primal's sizes, strides and storage offset (ATen's ``_new_zeros_with_same_feature_meta``).
"""

from __future__ import annotations

import math

from .. import storage


def _has_same_storage_numel(base, other) -> bool:
    """Whether the two storages hold as many elements (``torch._has_same_storage_numel``)."""
    return storage.numel(base._data) == storage.numel(other._data)


def has_same_meta(base, other) -> bool:
    """Same storage length, same sizes and, unless both are empty, the same storage offset and
    the same strides along every dim longer than 1 (a step never taken does not count)."""
    if not _has_same_storage_numel(base, other) or base.shape != other.shape:
        return False
    if base.numel() == 0 and other.numel() == 0:
        return True
    return base.storage_offset() == other.storage_offset() and all(
        a == b or n in (0, 1) for a, b, n in zip(base.stride(), other.stride(), base.shape))


def _new_zeros_with_same_feature_meta(self, other, *, self_num_batch_dims: int = 0):
    """Zeros laid out as ``other`` (its sizes, strides, storage offset, a storage as long as
    its own, its dtype), with ``self``'s first ``self_num_batch_dims`` dims in front as batch
    dims: each batch entry gets a whole storage of ``other``'s length, one after another."""
    k = self_num_batch_dims
    batch = tuple(self.shape[:k])
    feature_numel = storage.numel(other._data)
    batch_strides = tuple(feature_numel * math.prod(batch[i + 1:]) for i in range(k))
    memory = other.new_zeros(feature_numel * math.prod(batch))
    return memory.as_strided(batch + tuple(other.shape), batch_strides + other.stride(),
                             other.storage_offset())


def laid_out_like(tangent, primal):
    """``tangent`` itself when it addresses its storage as ``primal`` does, else a copy of it
    in a tensor that does (PyTorch's ``set_fw_grad``)."""
    if has_same_meta(tangent, primal):
        return tangent
    return _new_zeros_with_same_feature_meta(tangent, primal).copy_(tangent)
