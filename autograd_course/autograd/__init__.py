"""``ag.autograd``: Function, the backward engine, grad mode and gradient checks."""

from .engine import backward, grad, trace
from .function import AccumulateGrad, BackwardNode, Function, Node
from .grad_mode import enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled
from .gradcheck import GradcheckError, gradcheck, gradgradcheck

__all__ = [
    "AccumulateGrad", "BackwardNode", "Function", "GradcheckError", "Node", "backward",
    "enable_grad", "grad", "gradcheck", "gradgradcheck", "inference_mode", "is_grad_enabled",
    "no_grad", "set_grad_enabled", "trace",
]
