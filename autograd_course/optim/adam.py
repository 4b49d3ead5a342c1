"""Adam and AdamW, following PyTorch's single-tensor implementation step for step.

Adam keeps two running averages per parameter: of the gradient (m, "momentum") and of its
square (v, a per-weight scale). The update divides one by the square root of the other, so
every weight moves by roughly ``lr`` whatever the size of its gradient:

    m = β1·m + (1-β1)·g          v = β2·v + (1-β2)·g²
    p -= lr / (1-β1^t) · m / (sqrt(v) / sqrt(1-β2^t) + eps)

The ``1-β^t`` factors undo the bias of starting m and v at zero. Weight decay is added to the
gradient (Adam) or applied to the weights directly, ``p *= 1 - lr·wd`` (AdamW, "decoupled").
"""

from __future__ import annotations

import math

from .. import creation, dtypes, ops
from ..autograd import grad_mode
from .optimizer import Optimizer


class Adam(Optimizer):
    def __init__(self, params, lr: float = 1e-3, betas=(0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, amsgrad: bool = False, *, maximize: bool = False,
                 decoupled_weight_decay: bool = False) -> None:
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                        amsgrad=amsgrad, maximize=maximize,
                        decoupled_weight_decay=decoupled_weight_decay)
        super().__init__(params, defaults)

    def _init_state(self, p, amsgrad: bool) -> dict:
        state = self.state[p]
        if not state:
            state["step"] = creation.tensor(0.0, dtype=dtypes.float32)  # a tensor, as in PyTorch
            state["exp_avg"] = creation.zeros_like(p)
            state["exp_avg_sq"] = creation.zeros_like(p)
            if amsgrad:
                state["max_exp_avg_sq"] = creation.zeros_like(p)
        return state

    def step(self, closure=None):
        loss = self._closure_loss(closure)
        with grad_mode.no_grad():
            for group in self.param_groups:
                beta1, beta2 = group["betas"]
                lr, eps, wd = group["lr"], group["eps"], group["weight_decay"]
                for p in group["params"]:
                    if p._grad is None:
                        continue
                    self._update(p, p._grad if not group["maximize"] else -p._grad,
                                 self._init_state(p, group["amsgrad"]), lr, beta1, beta2, eps,
                                 wd, group["amsgrad"], group["decoupled_weight_decay"])
        return loss

    @staticmethod
    def _update(p, grad, state, lr, beta1, beta2, eps, wd, amsgrad, decoupled) -> None:
        state["step"].add_(1)
        if wd != 0:
            if decoupled:
                p.mul_(1 - lr * wd)
            else:
                grad = grad.add(p, alpha=wd)
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        exp_avg.add_(grad - exp_avg, alpha=1 - beta1)        # lerp towards grad by (1 - β1)
        exp_avg_sq.mul_(beta2).add_(grad * grad, alpha=1 - beta2)
        step = state["step"].item()
        bias_correction1 = 1 - beta1**step
        bias_correction2_sqrt = math.sqrt(1 - beta2**step)
        second = exp_avg_sq
        if amsgrad:
            state["max_exp_avg_sq"].copy_(ops.maximum(state["max_exp_avg_sq"], exp_avg_sq))
            second = state["max_exp_avg_sq"]
        denom = second.sqrt() / bias_correction2_sqrt + eps
        p.add_(exp_avg / denom, alpha=-lr / bias_correction1)


class AdamW(Adam):
    """Adam with decoupled weight decay (default 0.01): ``p *= 1 - lr·wd`` each step."""

    def __init__(self, params, lr: float = 1e-3, betas=(0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 1e-2, amsgrad: bool = False, *,
                 maximize: bool = False) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize,
                         decoupled_weight_decay=True)
