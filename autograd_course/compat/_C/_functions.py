"""``torch._C._functions``: node classes PyTorch names there. ``AccumulateGrad`` is the
package's leaf node; ``UndefinedGrad()(t)`` is ``t`` passed through a node whose backward
hands no gradient on (PyTorch's way to test what a node does without one);
``DelayedError(message, n)(t)`` is ``t`` passed through a node whose backward raises
``RuntimeError(message)`` (a way to check that a backward pass does not run a node)."""

from __future__ import annotations

from ...autograd.function import Function
from ...autograd.node import AccumulateGrad

__all__ = ["AccumulateGrad", "DelayedError", "UndefinedGrad"]


class _NoGradient(Function):
    node_name = "UndefinedGradBackward"

    @staticmethod
    def forward(ctx, tensor):
        return tensor.detach()

    @staticmethod
    def backward(ctx, grad):
        return None


class UndefinedGrad:
    """Call it on tensors: each comes back through a node that passes no gradient on."""

    def __call__(self, *tensors):
        outputs = tuple(_NoGradient.apply(t) for t in tensors)
        return outputs[0] if len(outputs) == 1 else outputs


class _Raises(Function):
    node_name = "torch::autograd::Error"

    @staticmethod
    def forward(ctx, message, *tensors):
        ctx.message = message
        outputs = tuple(t.detach() for t in tensors)  # new tensors on the same memory
        return outputs if len(outputs) > 1 else outputs[0]

    @staticmethod
    def backward(ctx, *grads):
        raise RuntimeError(ctx.message)


class DelayedError:
    """``DelayedError(message, num_inputs)``; call it on that many tensors: each comes back
    through one node whose backward raises ``RuntimeError(message)``."""

    def __init__(self, message: str, num_inputs: int) -> None:
        self.message, self.num_inputs = message, num_inputs

    def __call__(self, *tensors):
        if len(tensors) != self.num_inputs:
            raise TypeError(f"expected {self.num_inputs} arguments, got {len(tensors)} instead")
        return _Raises.apply(self.message, *tensors)
