"""``Parameter``: a tensor that a ``Module`` learns.

It is an ordinary leaf tensor with ``requires_grad=True``; what makes it special is that
assigning one to a module attribute (``self.weight = Parameter(...)``) registers it, so
``module.parameters()`` finds it and an optimizer can update it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .. import _backend, creation, dtypes
from ..tensor import Tensor

if TYPE_CHECKING:  # for the type hints only (module.py imports this file)
    from .module import Module


class Parameter(Tensor):
    """A tensor registered as a learnable parameter when assigned to a ``Module``.

    ``Parameter(t)`` shares ``t``'s memory (no copy), as in PyTorch.
    """

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True) -> None:
        if data is None:
            array, device = np.empty(0, dtype=np.float32), _backend.CPU
        elif isinstance(data, Tensor):
            array, device = data._data, data._device
        else:
            array, device = np.asarray(data), _backend.CPU
        self._init(array, device)
        self.requires_grad = requires_grad

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    __str__ = __repr__

    def __reduce_ex__(self, protocol):
        # copy.deepcopy / pickle: rebuild a Parameter, not a plain tensor
        return (_rebuild_parameter,
                (_backend.to_numpy(self._data), str(self._device), self._requires_grad))


class _BufferMeta(type):
    """``isinstance(t, Buffer)``: a tensor that ``Buffer(...)`` marked (as PyTorch's)."""

    def __instancecheck__(cls, instance) -> bool:
        return isinstance(instance, Tensor) and instance.__dict__.get("_is_buffer", False)


class Buffer(metaclass=_BufferMeta):
    """``self.stats = nn.Buffer(t)`` registers a buffer (state saved with the module but not
    learned), as ``register_buffer`` does; ``persistent=False`` keeps it out of state_dict.
    ``Buffer(t)`` is a plain tensor, ``t`` detached, keeping its ``requires_grad``."""

    def __new__(cls, data: Tensor | None = None, *, persistent: bool = True) -> Tensor:
        data = creation.empty(0) if data is None else data
        buffer = data.detach().requires_grad_(data.requires_grad)
        buffer.persistent, buffer._is_buffer = persistent, True
        return buffer


def _rebuild_parameter(array, device, requires_grad) -> Parameter:
    dev = _backend.as_device(device)
    return Parameter(Tensor._wrap(_backend.to_device(array, dev), dev), requires_grad)


def add_weight_and_bias(module: Module, weight_shape: tuple[int, ...], bias: bool,
                        device: str | _backend.device | None = None,
                        dtype: dtypes.dtype | None = None) -> None:
    """The parameter block ``Linear`` and ``Conv2d`` share: ``module.weight`` of shape
    ``weight_shape``, and ``module.bias`` with one entry per output (``weight_shape[0]``), or
    ``None`` registered in its place when ``bias=False``. Both are left uninitialised: the
    layer's ``reset_parameters()`` fills them."""
    module.weight = Parameter(creation.empty(*weight_shape, device=device, dtype=dtype))
    if bias:
        module.bias = Parameter(creation.empty(weight_shape[0], device=device, dtype=dtype))
    else:
        module.register_parameter("bias", None)
