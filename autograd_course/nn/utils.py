"""``nn.utils``: clipping gradients before ``optimizer.step()``.

``clip_grad_norm_`` scales all gradients together so that their joint norm (the norm of the
vector of every gradient's norm) is at most ``max_norm``, as PyTorch does, and returns that
norm as it was before clipping.
"""

from __future__ import annotations

import math

from .. import creation, ops
from ..autograd.grad_mode import no_grad
from ..tensor import Tensor


def _grads(parameters):
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    return [p.grad for p in parameters if p.grad is not None]


def clip_grad_norm_(parameters, max_norm: float, norm_type: float = 2.0,
                    error_if_nonfinite: bool = False, foreach: bool | None = None) -> Tensor:
    """Scale the gradients in place so that their joint ``norm_type``-norm is at most
    ``max_norm``; return the joint norm before scaling."""
    grads = _grads(parameters)
    if not grads:
        return creation.tensor(0.0)
    norm_type = float(norm_type)
    with no_grad():
        norms = [ops.norm(g, norm_type) for g in grads]
        total = ops.norm(ops.stack([n.to(norms[0].dtype) for n in norms]), norm_type)
        if error_if_nonfinite and not math.isfinite(total.item()):
            raise RuntimeError(
                f"The total norm of order {norm_type} for gradients from `parameters` is "
                "non-finite, so it cannot be clipped. To disable this error and scale the "
                "gradients by the non-finite norm anyway, set `error_if_nonfinite=False`")
        scale = ops.clamp(max_norm / (total + 1e-6), max=1.0)
        for g in grads:
            g.mul_(scale.to(g.dtype))
    return total


def clip_grad_value_(parameters, clip_value: float, foreach: bool | None = None) -> None:
    """Clamp every gradient element into ``[-clip_value, clip_value]``, in place."""
    with no_grad():
        for g in _grads(parameters):
            g.clamp_(-clip_value, clip_value)
