"""What PyTorch keeps in C++ below the tensor (in ``c10``), which ``tensor_base.py`` uses.

- ``VersionCounter`` (``c10::VariableVersion``): how many times a block of memory was changed
  in place; a saved tensor compares it at backward.
- ``state`` (``c10::AutogradState``): the grad mode and inference mode switches. They live
  this low because the tensor itself checks them: an inference tensor may be changed in place,
  or set to require grad, only inside inference mode. ``autograd/grad_mode.py`` sets them
  (``no_grad``, ``enable_grad``, ``set_grad_enabled``, ``inference_mode``).
"""

from __future__ import annotations


class AutogradState:
    """Grad mode and inference mode, one object for the whole program (PyTorch's are per
    thread)."""

    __slots__ = ("enabled", "inference", "user")

    def __init__(self) -> None:
        self.enabled = True  # grad mode: record operations on tensors that require grad
        # inference mode: new tensors are inference tensors, and built-in ops record nothing
        # even with grad mode on (a learner's Function follows grad mode alone)
        self.inference = False
        # the grad mode the blocks set; ``Function.apply`` turns ``enabled`` off around a
        # forward, not this (a view remembers whether it was taken under no_grad, views.py)
        self.user = True


class VersionCounter:
    """Counts in-place changes to a block of memory; tensors sharing memory share one."""

    __slots__ = ("value",)

    def __init__(self) -> None:
        self.value = 0


state = AutogradState()
