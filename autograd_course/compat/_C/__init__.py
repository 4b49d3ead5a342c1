"""``torch._C``: the names of PyTorch's C++ core that Python code (PyTorch's own tests among
it) reaches for, each over the package's own pieces. Not part of the course's surface; the
chapters use the public names (``torch.is_grad_enabled``, ``Node``, ...).

``_will_engine_execute_node(node)``, ``_current_graph_task_id()`` and
``_current_autograd_node()`` ask the backward pass running now (``autograd/hooks.py``'s
``GraphTask``) whether it will run a node, its id, and the node whose backward is running.
"""

from __future__ import annotations

import weakref

from ...autograd import hooks
from ...autograd.forward_switch import _is_fwd_grad_enabled, _set_fwd_grad_enabled
from ...autograd.grad_mode import is_grad_enabled
from ...autograd.node import AccumulateGrad, Node
from . import _autograd, _functions
from ._cached_tensors import (
    _add_cached_tensor,
    _is_cached_tensor,
    _remove_cached_tensor,
    _set_cached_tensors_enabled,
)

__all__ = ["_WeakTensorRef", "_add_cached_tensor", "_autograd", "_current_autograd_node",
           "_current_graph_task_id", "_functions", "_is_cached_tensor", "_is_fwd_grad_enabled",
           "_remove_cached_tensor", "_set_cached_tensors_enabled", "_set_fwd_grad_enabled",
           "_will_engine_execute_node", "is_grad_enabled"]


class _WeakTensorRef:
    """A weak reference to a tensor: ``expired()`` once nothing else keeps it alive."""

    def __init__(self, tensor) -> None:
        self._ref = weakref.ref(tensor)

    def expired(self) -> bool:
        return self._ref() is None


def _current_graph_task_id() -> int:
    """The id of the backward pass running now; -1 outside backward."""
    task = hooks.current_graph_task()
    return -1 if task is None else task.id


def _current_autograd_node():
    """The node whose backward is running now (e.g. asked from an unpack hook); else None."""
    task = hooks.current_graph_task()
    return None if task is None else task.node


def _will_engine_execute_node(node) -> bool:
    """Whether the backward pass running now will run ``node`` (a ``grad_fn``)."""
    if not isinstance(node, Node):
        raise RuntimeError(f"_will_engine_execute_node expects an grad_fn, but got "
                           f"{type(node).__name__}")
    task = hooks.current_graph_task()
    if task is None:
        raise RuntimeError(
            "_get_should_execute_nodes should only be called during the backward pass")
    if task.is_grad and isinstance(node, AccumulateGrad):
        raise RuntimeError(
            "A leaf node was passed to _will_engine_execute_node but we are currently running "
            "autograd.grad(). This is currently not supported.")
    return task.will_run(node)
