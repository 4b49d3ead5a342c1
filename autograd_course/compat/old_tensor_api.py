"""What old PyTorch code still touches on a tensor, answered as PyTorch answers it today:
``x.volatile`` (always False, with a warning), ``x._grad_fn`` (``grad_fn``; cannot be
deleted), and ``x._backward_hooks``: a dict of gradient hooks that old code assigns (a leaf runs
them after those of ``register_hook``); deleting it is refused.
"""

from __future__ import annotations

import warnings

from ..autograd.variable import VOLATILE


class TensorOldAPI:
    """Mixed into ``Tensor``: old attributes."""

    __slots__ = ()

    @property
    def volatile(self) -> bool:
        """Old code's flag (before ``no_grad`` existed): always False now, with a warning."""
        warnings.warn("volatile was removed (Variable.volatile is always False)", UserWarning,
                      stacklevel=2)
        return False

    @volatile.setter
    def volatile(self, value) -> None:
        warnings.warn(VOLATILE, UserWarning, stacklevel=2)

    @property
    def _grad_fn(self):
        """PyTorch's other name for ``grad_fn``; it cannot be deleted (detach instead)."""
        return self.grad_fn

    @_grad_fn.deleter
    def _grad_fn(self) -> None:
        raise RuntimeError("Deletion of _grad_fn not allowed. Detach tensor instead!")

    @property
    def _backward_hooks(self):
        """The dict of gradient hooks assigned to this tensor (``None`` until one is)."""
        return self.__dict__.get("_assigned_hooks")

    @_backward_hooks.setter
    def _backward_hooks(self, hooks) -> None:
        self.__dict__["_assigned_hooks"] = hooks

    @_backward_hooks.deleter
    def _backward_hooks(self) -> None:
        raise RuntimeError("Deletion of _backwards_hooks not allowed!")
