"""The constructors old PyTorch code still uses: ``FloatTensor``, ``LongTensor``... and
``Tensor.new``'s argument rules.

``torch.FloatTensor(2, 3)`` makes a 2×3 tensor (uninitialized in PyTorch; zeros here),
``torch.FloatTensor([1, 2])`` one holding the data, ``torch.FloatTensor()`` an empty one, and
``torch.FloatTensor(t)`` returns ``t``'s memory when ``t`` already has that dtype. They are not
subclasses of ``Tensor``: ``isinstance(t, torch.FloatTensor)`` asks whether ``t`` is a float32
tensor on the CPU. New code writes ``torch.zeros(2, 3)`` and ``torch.tensor([1., 2.])``.
"""

from __future__ import annotations

import numpy as np

from .. import _backend, creation, dtypes
from ..tensor import Size, Tensor

__all__ = ["BoolTensor", "ByteTensor", "DoubleTensor", "FloatTensor", "HalfTensor", "IntTensor",
           "LongTensor", "ShortTensor"]

# the names PyTorch's messages give each dtype in "expected TensorOptions(dtype=...)"
_OPTION_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half",
                 "int64": "long int", "int32": "int", "int16": "short int",
                 "uint8": "unsigned char", "bool": "bool"}


def _options(d) -> str:
    name = _OPTION_NAMES[d.name]
    return (f"TensorOptions(dtype={name}, device=cpu, layout=Strided, requires_grad=false "
            "(default), pinned_memory=false (default), memory_format=(nullopt))")


def construct(args: tuple, d, device) -> Tensor:
    """What the legacy constructors do with their arguments, for dtype ``d``."""
    if not args:
        return creation.empty(0, dtype=d, device=device)
    if len(args) == 1 and isinstance(args[0], Tensor):
        t = args[0]
        if t.dtype is not d:
            raise TypeError(f"expected {_options(d)} (got {_options(t.dtype)})")
        return t.detach()
    if len(args) == 1 and not isinstance(args[0], (int, Size, np.integer)):
        return creation.tensor(args[0], dtype=d, device=device)  # data: a list, an array...
    size = tuple(args[0]) if isinstance(args[0], Size) else args
    return creation.empty(*size, dtype=d, device=device)


class _TensorType(type):
    """The type of ``FloatTensor`` and friends (PyTorch's ``torch.tensortype``)."""

    __module__, __qualname__ = "torch", "tensortype"  # its repr, as PyTorch prints it

    def __call__(cls, *args, device=None):
        return construct(args, cls.dtype, device)

    def __instancecheck__(cls, obj) -> bool:
        return (isinstance(obj, Tensor) and obj.dtype is cls.dtype
                and obj.device == _backend.CPU)


def _tensor_type(name: str, d):
    return _TensorType(name, (), {"dtype": d, "__module__": "torch", "__qualname__": name,
                                  "__doc__": f"The legacy constructor of {d!r} tensors."})


FloatTensor = _tensor_type("FloatTensor", dtypes.float32)
DoubleTensor = _tensor_type("DoubleTensor", dtypes.float64)
HalfTensor = _tensor_type("HalfTensor", dtypes.float16)
LongTensor = _tensor_type("LongTensor", dtypes.int64)
IntTensor = _tensor_type("IntTensor", dtypes.int32)
ShortTensor = _tensor_type("ShortTensor", dtypes.int16)
ByteTensor = _tensor_type("ByteTensor", dtypes.uint8)
BoolTensor = _tensor_type("BoolTensor", dtypes.bool)
