"""``Tensor``'s methods that describe or convert it: shape, dtype, device, ``to()``,
``type_as()``, ``item()``, ``numpy()``, and the Python protocols (``float(t)``, ``len(t)``,
``iter(t)``); and ``Size``, the type of ``x.shape``.

Error messages are PyTorch's, so a learner's mistakes read the same in both libraries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .. import _backend, _messages, dtypes, storage
from ..autograd import grad_mode
from ..memory_formats import check_memory_format
from ..ops.shape import ToCopy

if TYPE_CHECKING:
    from ..tensor import Tensor


class Size(tuple):
    """A tensor's shape: a tuple that prints as ``torch.Size([2, 3])``; its slices and what
    ``+`` and ``*`` make of it are ``Size`` too, as in PyTorch (``x.shape[1:] + (1,)``)."""

    def __getitem__(self, key):
        item = tuple.__getitem__(self, key)
        return Size(item) if isinstance(key, slice) else item

    def __add__(self, other):
        if not isinstance(other, tuple):
            raise TypeError(f"can only concatenate tuple (not {type(other).__name__}) to "
                            "torch.Size")
        return Size(tuple(self) + other)

    def __radd__(self, other):
        return Size(other + tuple(self)) if isinstance(other, tuple) else NotImplemented

    def __mul__(self, times):
        return Size(tuple(self) * times) if isinstance(times, int) else NotImplemented

    __rmul__ = __mul__

    def __repr__(self) -> str:
        return f"torch.Size({list(self)})"

    __str__ = __repr__

    def numel(self) -> int:
        return int(np.prod(self, dtype=np.int64))


class TensorConversions:
    """Mixed into ``Tensor``; works on its ``_data`` array and ``_device``."""

    __slots__ = ()

    @property
    def shape(self) -> Size:
        return Size(self._data.shape)

    def size(self, dim: int | None = None):
        return self.shape if dim is None else self._data.shape[dim]

    def dim(self) -> int:
        return self._data.ndim

    @property
    def ndim(self) -> int:
        return self._data.ndim

    def numel(self) -> int:
        return int(self._data.size)

    nelement = numel

    def element_size(self) -> int:
        return self._data.itemsize

    @property
    def dtype(self) -> dtypes.dtype:
        return dtypes.from_numpy(self._data.dtype)

    @property
    def grad_dtype(self) -> dtypes.dtype | None:
        """The dtype a leaf's ``.grad`` has: its own dtype unless set apart (a gradient that
        arrives in another dtype is cast to it); ``None``: any dtype, kept as it arrives."""
        if self.grad_fn is not None:
            raise RuntimeError("grad_dtype can only be accessed on leaf tensors.")
        allowed = self._grad_numpy_dtype()
        return None if allowed is None else dtypes.from_numpy(allowed)

    @grad_dtype.setter
    def grad_dtype(self, value: dtypes.dtype | None) -> None:
        if self.grad_fn is not None:
            raise RuntimeError("grad_dtype can only be set on leaf tensors.")
        if value is not None and not isinstance(value, dtypes.dtype):
            raise RuntimeError("grad_dtype must be a torch.dtype or None, but got "
                               f"{type(value).__name__}")
        wanted = None if value is None else value.numpy
        if self._grad is not None and wanted is not None and self._grad._data.dtype != wanted:
            raise RuntimeError(_messages.grad_dtype_with_grad(wanted, self._grad._data.dtype))
        self._grad_dtype = wanted
        if self._accumulate_grad is not None and self._accumulate_grad() is not None:
            self._accumulate_grad().output_info = ((self._data.shape, wanted),)  # what it casts to

    def is_floating_point(self) -> bool:
        return self._data.dtype.kind == "f"

    def is_complex(self) -> bool:
        return self._data.dtype.kind == "c"

    @property
    def device(self) -> _backend.device:
        return self._device

    @property
    def is_cuda(self) -> bool:
        return self._device.type == "cuda"

    @property
    def _xp(self):
        """NumPy or CuPy: the array module for this tensor's device (every op asks)."""
        return np if self._device is _backend.CPU else _backend.array_module(self._device)

    def data_ptr(self) -> int:
        """Address of the first element: equal for tensors that share memory."""
        return _backend.data_ptr(self._data)

    def untyped_storage(self) -> storage.UntypedStorage:
        """The memory this tensor and its views share, in bytes (storage.py)."""
        return storage.UntypedStorage(self._data)

    def storage_offset(self) -> int:
        """Where in its storage this tensor's first element lies, in elements (``x[1:]``: 1).
        A ``vmap`` example reads its batch's (func/vmap.py)."""
        return storage.offset(self._data) - getattr(self, "_vmap_shift", 0)

    def storage(self) -> storage.TypedStorage:
        """The same memory counted in elements of this dtype (deprecated in PyTorch)."""
        return storage.TypedStorage(self._data, self.dtype)

    def to(self, *args, dtype=None, device=None, non_blocking: bool = False,
           copy: bool = False, memory_format=None) -> Tensor:
        """Move and/or cast: ``to('cuda')``, ``to(ag.float64)``, ``to(other_tensor)``; after
        them, PyTorch's positional flags ``non_blocking`` (nothing to wait for here) and
        ``copy``: ``to('cpu', ag.float64, False, True)``."""
        check_memory_format("to", memory_format)
        flags = [arg for arg in args if isinstance(arg, bool)]
        copy = copy or (len(flags) > 1 and flags[1])
        for arg in (arg for arg in args if not isinstance(arg, bool)):
            if isinstance(arg, (dtypes.dtype, np.dtype)) or arg is float or arg is int \
                    or arg is bool:
                dtype = arg
            elif isinstance(arg, TensorConversions):  # a Tensor: take its dtype and device
                dtype, device = arg.dtype, arg.device
            else:
                device = arg
        dev = self._device if device is None else _backend.as_device(device)
        np_dtype = self._data.dtype if dtype is None else dtypes.to_numpy(dtype)
        if dev == self._device and np_dtype == self._data.dtype and not copy:
            return self
        return ToCopy.apply(self, np_dtype, dev)

    def type_as(self, other):
        return self.to(other.dtype)

    def cpu(self) -> Tensor:
        return self.to("cpu")

    def cuda(self, device=None) -> Tensor:
        return self.to("cuda" if device is None else _backend.device("cuda", device))

    def float(self, memory_format=None) -> Tensor:
        return self.to(dtypes.float32, memory_format=memory_format)

    def double(self, memory_format=None) -> Tensor:
        return self.to(dtypes.float64, memory_format=memory_format)

    def half(self, memory_format=None) -> Tensor:
        return self.to(dtypes.float16, memory_format=memory_format)

    def long(self, memory_format=None) -> Tensor:
        return self.to(dtypes.int64, memory_format=memory_format)

    def int(self, memory_format=None) -> Tensor:
        return self.to(dtypes.int32, memory_format=memory_format)

    def bool(self, memory_format=None) -> Tensor:
        return self.to(dtypes.bool, memory_format=memory_format)

    def type(self, dtype=None, non_blocking=False):
        """The legacy type name ('torch.LongTensor'), or a copy converted to ``dtype``: a
        dtype or a legacy name (``'torch.DoubleTensor'``, ``'torch.cuda.FloatTensor'``)."""
        if dtype is None:
            return _messages.type_name(self._data.dtype)
        if isinstance(dtype, str):
            return self._to_legacy_type(dtype)
        if isinstance(getattr(dtype, "dtype", None), dtypes.dtype):  # a class: DoubleTensor
            dtype = dtype.dtype
        if not isinstance(dtype, dtypes.dtype):
            raise TypeError("dtype must be a type, str, or dtype object")
        return self.to(dtype)

    def _to_legacy_type(self, name: str):
        parts = name.split(".")
        legacy = {_messages.type_name(d.numpy): d for d in dtypes._ALL}
        dtype = legacy.get(".".join(p for p in parts if p != "cuda"))
        if name == "torch.Tensor":
            dtype = dtypes.default_float
        if dtype is None or parts[0] != "torch":
            raise ValueError(f"invalid type: '{name}'")
        return self.to("cuda" if "cuda" in parts else self._device, dtype)

    # --- leaving the tensor world -----------------------------------------------------------
    def numpy(self) -> np.ndarray:
        """The NumPy array itself (shared memory), for tensors outside autograd on the CPU."""
        if self._requires_grad and grad_mode.state.enabled:
            raise RuntimeError(
                "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() "
                "instead."
            )
        if self._device is not _backend.CPU:
            raise TypeError(
                f"can't convert {self._device} device type tensor to numpy. Use Tensor.cpu() "
                "to copy the tensor to host memory first."
            )
        return self._data

    def item(self):
        """The single value of a one-element tensor, as a Python number."""
        if self._data.size != 1:
            raise RuntimeError(
                f"a Tensor with {self._data.size} elements cannot be converted to Scalar"
            )
        return _backend.to_numpy(self._data).reshape(()).item()

    def tolist(self):
        return _backend.to_numpy(self._data).tolist()

    def __float__(self) -> float:
        return float(self._one_value("float"))

    def __int__(self) -> int:
        return int(self._one_value("int"))

    def __index__(self) -> int:
        if self._data.dtype.kind not in "iub" or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    def __bool__(self) -> bool:
        if self._data.size != 1:
            amount = "no values" if self._data.size == 0 else "more than one value"
            raise RuntimeError(f"Boolean value of Tensor with {amount} is ambiguous")
        return bool(self.item())

    def _one_value(self, kind: str):
        if self._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return self.item()

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(self._data.shape[0]))

    def __array__(self, dtype=None, copy=None):
        if self._requires_grad:  # NumPy would otherwise silently leave autograd
            raise RuntimeError(
                "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() "
                "instead."
            )
        array = _backend.to_numpy(self._data)
        return array if dtype is None else array.astype(dtype)
