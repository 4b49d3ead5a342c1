"""``tensor.untyped_storage()`` and ``tensor.storage()``: the memory under a tensor.

A tensor is a window (shape, strides, offset) on a block of memory that its views share; that
block is its *storage*. Here a tensor's data is a NumPy (or CuPy) array, and a view's array
is a view of another array: the storage is the array at the root of that chain, the one that
owns the memory. So ``x[1:].untyped_storage().data_ptr() == x.untyped_storage().data_ptr()``
and ``len(torch.randn(5)[:4].storage()) == 5``, as in PyTorch.

``UntypedStorage`` counts bytes; ``TypedStorage`` (what ``storage()`` returns, deprecated in
PyTorch, which warns once) counts elements of the tensor's dtype.
"""

from __future__ import annotations

from . import _backend, _messages

TYPED_DEPRECATED = (
    "TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be "
    "the only storage class. This should only matter to you if you are using storages "
    "directly.  To access UntypedStorage directly, use tensor.untyped_storage() instead of "
    "tensor.storage()")


def root(array):
    """The array that owns ``array``'s memory (``array`` itself if it owns it). NumPy's
    ``as_strided`` puts a small holder object between its result and the array it reads
    (the holder's ``base``), which this looks through."""
    while True:
        base = array.base
        if not isinstance(base, type(array)):
            base = getattr(base, "base", None)
        if not isinstance(base, type(array)):
            return array
        array = base


def offset(array) -> int:
    """How many elements of ``array``'s dtype lie in its storage before its first element
    (``tensor.storage_offset()``)."""
    return (_backend.data_ptr(array) - _backend.data_ptr(root(array))) // array.itemsize


def numel(array) -> int:
    """The storage's length in elements of ``array``'s dtype (``len(tensor.storage())``)."""
    return root(array).nbytes // array.itemsize


def flat(array, xp):
    """The whole storage under ``array`` as a 1-D array of ``array``'s dtype (a view of it, so
    that a window chosen in it by position shares memory with ``array``); ``xp``: NumPy or
    CuPy, the array's module."""
    owner = root(array)
    if owner.dtype != array.dtype:
        owner = owner.reshape(-1).view(array.dtype)
    return xp.lib.stride_tricks.as_strided(owner, shape=(numel(array),),
                                           strides=(array.itemsize,))


class UntypedStorage:
    """The memory under a tensor and its views, in bytes."""

    def __init__(self, array) -> None:
        self._array = root(array)

    def data_ptr(self) -> int:
        """The address of the first byte (equal for every view of the same memory)."""
        return _backend.data_ptr(self._array)

    def nbytes(self) -> int:
        return int(self._array.nbytes)

    size = nbytes

    def element_size(self) -> int:
        return 1

    def __len__(self) -> int:
        return self.nbytes()


class TypedStorage:
    """The same memory, counted in elements of the tensor's dtype."""

    def __init__(self, array, dtype) -> None:
        _messages.warn_once(TYPED_DEPRECATED, stacklevel=3)
        self._untyped, self.dtype = UntypedStorage(array), dtype
        self._itemsize = array.itemsize

    def untyped(self) -> UntypedStorage:
        return self._untyped

    def data_ptr(self) -> int:
        return self._untyped.data_ptr()

    def nbytes(self) -> int:
        return self._untyped.nbytes()

    def element_size(self) -> int:
        return self._itemsize

    def size(self) -> int:
        return self.nbytes() // self._itemsize

    def __len__(self) -> int:
        return self.size()
