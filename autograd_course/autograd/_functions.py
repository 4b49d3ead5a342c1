"""``torch.autograd._functions``: PyTorch's oldest Python-written Functions, kept there for
old code. Only ``Resize`` is here: a reshape written as a ``Function`` (forward and backward
side by side), which PyTorch's tests use as a plain Python-defined node."""

from __future__ import annotations

import math

from .function import Function

__all__ = ["Resize"]


class Resize(Function):
    """out = x with the shape ``sizes`` (the same number of elements);
    d out / dx: the gradient takes x's shape back."""

    @staticmethod
    def forward(ctx, tensor, sizes):
        ctx.numel = math.prod(sizes)
        if tensor.numel() != ctx.numel:
            raise RuntimeError(
                f"requested resize to {'x'.join(map(str, sizes))} ({ctx.numel} elements in "
                f"total), but the given tensor has a size of "
                f"{'x'.join(map(str, tensor.size()))} ({tensor.numel()} elements). autograd's "
                "resize can only change the shape of a given tensor, while preserving the "
                "number of elements. ")
        ctx.input_sizes = tensor.size()
        # on the same memory, as PyTorch's (tensor.new(tensor)), but not a view of the input
        return tensor.detach().contiguous().view(*sizes)

    @staticmethod
    def backward(ctx, grad_output):
        if grad_output.numel() != ctx.numel:
            raise AssertionError(f"Expected grad_output to have {ctx.numel} elements, but got "
                                 f"{grad_output.numel()}")
        return grad_output.contiguous().view(ctx.input_sizes), None
