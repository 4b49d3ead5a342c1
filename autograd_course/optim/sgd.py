"""Stochastic gradient descent, with PyTorch's exact update rule.

For each parameter p with gradient g (after ``g += weight_decay · p``):

    buf = g                                  on the first step (no dampening then!)
    buf = momentum · buf + (1 - dampening) · g   afterwards
    g   = g + momentum · buf   if nesterov   else   buf
    p  -= lr · g
"""

from __future__ import annotations

from ..autograd import grad_mode
from .optimizer import Optimizer


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
                    p.add_(g, alpha=-lr)
        return loss
