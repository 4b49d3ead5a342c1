"""Stochastic gradient descent, with PyTorch's exact update rule.

For each parameter p with gradient g (after ``g += weight_decay · p``):

    buf = g                                  on the first step (no dampening then!)
    buf = momentum · buf + (1 - dampening) · g   afterwards
    g   = g + momentum · buf   if nesterov   else   buf
    p  -= lr · g

The last line is ``p.add_(g, alpha=-lr)``; for the usual parameter (a float array of its own,
its gradient of the same dtype and shape) ``_descend`` writes it into p's memory directly.
"""

from __future__ import annotations

import numpy as np

from ..autograd import forward_ad, grad_mode, profiler
from .optimizer import Optimizer


def _descend(p, g, lr: float) -> None:
    """p -= lr·g: what ``p.add_(g, alpha=-lr)`` computes (g scaled by -lr in p's dtype, then
    added; the same bits), written into p's memory with one temporary array instead of two,
    and without add_'s checks, which a float parameter and its own gradient always pass.
    Anything else (another dtype or layout, an inference tensor, a tangent, a profile that
    records ``aten::add_``) goes through ``add_`` itself."""
    data, step = p._data, g._data
    if (type(lr) not in (int, float) or type(data) is not np.ndarray or type(step) is not np.ndarray
            or data.dtype != step.dtype or data.dtype not in (np.float32, np.float64)
            or data.shape != step.shape or not data.flags.c_contiguous
            or not data.flags.writeable or p._inference or profiler.state.enabled
            or forward_ad.any_dual((p, g))):
        p.add_(g, alpha=-lr)
        return
    np.add(data, step * np.asarray(-lr, dtype=data.dtype), out=data)
    p._bump_version()


class SGD(Optimizer):
    def __init__(self, params, lr: float = 1e-3, momentum: float = 0, dampening: float = 0,
                 weight_decay: float = 0, nesterov: bool = False, *,
                 maximize: bool = False) -> None:
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening,
                        weight_decay=weight_decay, nesterov=nesterov, maximize=maximize)
        super().__init__(params, defaults)

    def step(self, closure=None):
        """One update of every parameter that has a gradient."""
        loss = self._closure_loss(closure)
        with grad_mode.no_grad():
            for group in self.param_groups:
                lr, momentum = group["lr"], group["momentum"]
                dampening, weight_decay = group["dampening"], group["weight_decay"]
                for p in group["params"]:
                    if p._grad is None:
                        continue  # frozen, or not reached by the loss: leave it alone
                    g = p._grad if not group["maximize"] else -p._grad
                    if weight_decay != 0:
                        g = g.add(p, alpha=weight_decay)
                    if momentum != 0:
                        state = self.state[p]
                        buf = state.get("momentum_buffer")
                        if buf is None:
                            buf = state["momentum_buffer"] = g.clone().detach()
                        else:
                            buf.mul_(momentum).add_(g, alpha=1 - dampening)
                        g = g.add(buf, alpha=momentum) if group["nesterov"] else buf
                    _descend(p, g, lr)
        return loss
