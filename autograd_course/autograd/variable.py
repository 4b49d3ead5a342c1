"""``Variable``: the name tensors had before PyTorch 0.4, kept for old code.

Today ``Variable(t)`` returns a tensor: a new leaf sharing ``t``'s memory (as ``t.detach()``),
requiring grad when asked. ``volatile=True`` once meant "no graph"; it now only warns (use
``with torch.no_grad():``). ``isinstance(t, Variable)`` is true of every tensor.
``Variable._execution_engine`` is where PyTorch keeps ``queue_callback`` (a function to run at
the end of the backward pass).
"""

from __future__ import annotations

import warnings

from ..tensor_base import TensorBase
from . import hooks

VOLATILE = ("volatile was removed and now has no effect. Use `with torch.no_grad():` "
            "instead.")


class _VariableMeta(type):
    def __instancecheck__(cls, obj) -> bool:
        return isinstance(obj, TensorBase)


class _EngineBase:
    """PyTorch's engine object, as far as Python code reaches it."""

    queue_callback = staticmethod(hooks.queue_callback)


class Variable(metaclass=_VariableMeta):
    _execution_engine = _EngineBase()

    def __new__(cls, data, requires_grad=False, volatile=False):
        if volatile:
            warnings.warn(VOLATILE, UserWarning, stacklevel=2)
        if not isinstance(data, TensorBase):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        return data.detach().requires_grad_(requires_grad)
