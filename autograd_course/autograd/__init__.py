"""``ag.autograd``: Function, the backward engine, grad mode and gradient checks."""

from . import forward_ad, graph, profiler, profiler_util
from .anomaly import (
                      detect_anomaly,
                      is_anomaly_check_nan_enabled,
                      is_anomaly_enabled,
                      set_detect_anomaly,
)
from .engine import backward, grad, trace
from .function import BackwardNode, Function, once_differentiable
from .grad_mode import enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled
from .gradcheck import GradcheckError, gradcheck, gradgradcheck
from .node import AccumulateGrad, Node
from .profiler import _profiler_enabled, kineto_available
from .saved_tensor import SavedTensor
from .variable import Variable
from .version_counter import _unsafe_preserve_version_counter

__all__ = [
    "AccumulateGrad", "BackwardNode", "Function", "GradcheckError", "Node", "backward",
    "detect_anomaly", "forward_ad", "is_anomaly_check_nan_enabled", "is_anomaly_enabled",
    "set_detect_anomaly",
    "enable_grad", "grad", "gradcheck", "gradgradcheck", "graph", "inference_mode",
    "is_grad_enabled", "no_grad", "once_differentiable", "SavedTensor", "set_grad_enabled", "trace",
    "Variable", "kineto_available", "profiler", "profiler_util",
]
