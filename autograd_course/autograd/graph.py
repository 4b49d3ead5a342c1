"""``torch.autograd.graph``: the Python API over the recorded graph.

The nodes themselves are in ``node.py``; this module holds what PyTorch's
``torch.autograd.graph`` offers on top of them: ``GradientEdge`` and ``get_gradient_edge``
(an edge as a value, usable as ``inputs=`` of ``autograd.grad``), ``register_multi_grad_hook``
(one hook for a group of tensors), ``increment_version``, and the saved-tensor hooks'
context managers (``saved_tensors_hooks.py``).
"""

from __future__ import annotations

from typing import NamedTuple

from . import hooks
from .node import AccumulateGrad, Node, gradient_edge
from .saved_tensor_hooks import disable_saved_tensors_hooks, save_on_cpu, saved_tensors_hooks

__all__ = ["GradientEdge", "Node", "disable_saved_tensors_hooks", "get_gradient_edge",
           "increment_version", "register_multi_grad_hook", "save_on_cpu",
           "saved_tensors_hooks"]


class GradientEdge(NamedTuple):
    """An edge of the graph: a node, and which of its outputs (``torch.autograd.graph``'s)."""

    node: Node
    output_nr: int
    ownership_token: object = None


def get_gradient_edge(tensor) -> GradientEdge:
    """The edge a gradient for ``tensor`` flows along; usable as an ``inputs=`` of ``grad``."""
    if not tensor.requires_grad:
        raise RuntimeError("It is not possible to get the gradient edge for a Tensor that "
                           "does not require gradients")
    return GradientEdge(*gradient_edge(tensor))


class _MultiHandle:
    """The handle of several hooks at once: ``remove()`` removes them all."""

    def __init__(self, handles: tuple) -> None:
        self.handles = handles

    def remove(self) -> None:
        for handle in self.handles:
            handle.remove()


def register_multi_grad_hook(tensors, fn, *, mode: str = "all"):
    """Call ``fn`` once per backward pass for a group of tensors (a tensor hook on each).

    ``mode="all"``: ``fn(grads)`` when the gradients of all the tensors this pass computes have
    arrived (``None`` for the others); ``mode="any"``: ``fn(grad)`` with the first to arrive.
    """
    if mode not in ("all", "any"):
        raise ValueError(f"Expects mode to be one of ('all', 'any') but got {mode}")
    tensors = tuple(tensors)
    if mode == "any":
        ran = set()  # the ids of the passes where fn already ran

        def first_only(grad) -> None:
            task = hooks.current_graph_task()
            if task.id not in ran:
                ran.add(task.id)
                fn(grad)

        return _MultiHandle(tuple(t.register_hook(first_only) for t in tensors
                                  if t.requires_grad))
    nodes = [gradient_edge(t)[0] for t in tensors]  # held: a leaf's AccumulateGrad stays
    waiting = {}  # pass id -> [the gradients so far, how many more will come]

    def hook_for(i: int):
        def collect(grad) -> None:
            task = hooks.current_graph_task()
            if task.id not in waiting:
                if task.is_grad and any(isinstance(n, AccumulateGrad) and task.will_run(n)
                                        for n in nodes):  # a leaf that grad() catches
                    raise RuntimeError(
                        "A leaf node was passed to _will_engine_execute_node but we are "
                        "currently running autograd.grad(). This is currently not supported.")
                waiting[task.id] = [[None] * len(tensors),
                                    sum(n is not None and task.will_run(n) for n in nodes)]
            entry = waiting[task.id]
            entry[0][i] = grad
            entry[1] -= 1
            if entry[1] == 0:
                del waiting[task.id]
                fn(entry[0])
        return collect

    return _MultiHandle(tuple(t.register_hook(hook_for(i)) for i, t in enumerate(tensors)))


def increment_version(tensor) -> None:
    """Count an in-place change autograd did not see (a write into a tensor's memory behind
    its back), so that a saved copy of the old values is refused; a tensor or a list."""
    for t in (tensor,) if hasattr(tensor, "_bump_version") else tensor:
        if not t._inference:  # as PyTorch: an inference tensor has no version counter
            t._bump_version()
