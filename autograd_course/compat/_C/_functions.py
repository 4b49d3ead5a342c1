"""``torch._C._functions``: node classes PyTorch names there. ``AccumulateGrad`` is the
package's leaf node; ``UndefinedGrad()(t)`` is ``t`` passed through a node whose backward
hands no gradient on (PyTorch's way to test what a node does without one)."""

from __future__ import annotations

from ...autograd.function import Function
from ...autograd.node import AccumulateGrad

__all__ = ["AccumulateGrad", "UndefinedGrad"]


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
