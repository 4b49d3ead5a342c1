"""``zero_grads``: what ``Module.zero_grad()`` and ``Optimizer.zero_grad()`` both do, clear
the gradients the last backward left in the parameters' ``.grad``, before the next one."""

from __future__ import annotations


def zero_grads(params, set_to_none: bool = True) -> None:
    """Clear each parameter's ``.grad``: set it to None (the default), or, with
    ``set_to_none=False``, cut it out of any graph and fill it with zeros in place, so that
    code holding a reference to it sees the zeros (as in PyTorch). Parameters whose ``.grad``
    is None (frozen ones, or ones the loss did not reach) are skipped."""
    for param in params:
        grad = param._grad
        if grad is None:
            continue
        if set_to_none:
            param._grad = None
            continue
        if grad.grad_fn is not None:
            grad.detach_()
        else:
            grad.requires_grad_(False)
        grad.zero_()
