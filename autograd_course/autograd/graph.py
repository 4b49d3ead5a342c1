"""The graph's nodes: ``Node``, and ``AccumulateGrad``, the node at a leaf.

Every node has ``next_functions``: one ``(node, input_nr)`` pair per tensor input, naming the
node that made that input and which of its outputs it was. Following these pairs from the
loss reaches every leaf. A node's ``apply(grads)`` takes the gradients of its outputs and
returns the gradients of its inputs, in the order of ``next_functions``.

A leaf has no node that made it; what the graph links to instead is its ``AccumulateGrad``,
whose ``apply`` adds the gradient into ``leaf.grad``. So the engine runs leaves like any node.
"""

from __future__ import annotations

import itertools
import weakref

from .. import _messages
from ..tensor_base import RemovableHandle
from . import grad_mode

_sequence_nrs = itertools.count()


def next_sequence_nr() -> int:
    """Numbers nodes in the order they are made: among ready nodes the newest runs first."""
    return next(_sequence_nrs)


class Node:
    """A step of the recorded computation, run backwards by the engine."""

    next_functions: tuple = ()  # ((node, input_nr), ...): one pair per tensor input
    output_info: tuple = (None,)  # one entry per output: its (shape, dtype)
    pre_hooks: list | None = None  # [(output_nr, hook), ...]: hooks on the outputs' grads
    retained: dict | None = None  # output_nr -> weak reference to a tensor that retains grad
    sequence_nr: int = 0  # set when the node joins a graph (see next_sequence_nr)

    def name(self) -> str:
        return type(self).__name__

    def _sequence_nr(self) -> int:
        return self.sequence_nr

    def apply(self, grads: list) -> tuple:
        """Gradients of the inputs (one per ``next_functions`` entry) from the outputs'."""
        raise NotImplementedError

    def register_prehook(self, hook, output_nr: int = 0) -> RemovableHandle:
        """Call ``hook(grad)`` on the gradient of output ``output_nr`` before this node runs."""
        if self.pre_hooks is None:
            self.pre_hooks = []
        entry = (output_nr, hook)
        self.pre_hooks.append(entry)
        return RemovableHandle(self.pre_hooks, entry)

    def retain_grad(self, tensor, output_nr: int) -> None:
        """Store the gradient of output ``output_nr`` in ``tensor.grad`` when it arrives."""
        if self.retained is None:
            self.retained = {}
        self.retained[output_nr] = weakref.ref(tensor)  # weak: a graph keeps no output alive

    def call_pre_hooks(self, grads: list) -> list:
        """Run the tensor hooks on the incoming gradients, then store retained gradients.

        Hooks run in the order they were registered; each may return a replacement. As in
        PyTorch, ``retain_grad`` sees the gradient after every hook has run.
        """
        if self.pre_hooks:
            for output_nr, hook in self.pre_hooks:
                grad = grads[output_nr]
                if grad is not None:
                    grads[output_nr] = _checked_hook_result(hook, grad, hook(grad))
        if self.retained:
            for output_nr, ref in self.retained.items():
                tensor, grad = ref(), grads[output_nr]
                if tensor is not None and grad is not None:
                    if tensor._grad is None:
                        tensor._grad = grad.detach().clone()
                    else:
                        tensor._grad = tensor._grad + grad.detach()
        return grads

    def release_saved_tensors(self) -> None:
        """Free what the node saved for backward (nothing, unless it saved something)."""

    def __repr__(self) -> str:
        return f"<{self.name()} object at {hex(id(self))}>"


def _checked_hook_result(hook, grad, result):
    """What a hook returned, checked as PyTorch checks it: ``None`` keeps ``grad``."""
    if result is None:
        return grad
    if not hasattr(result, "_data"):
        raise TypeError(_messages.hook_returned(result))
    if result._data.shape != grad._data.shape:
        raise RuntimeError(_messages.hook_changed_size(hook))
    if result._data.dtype != grad._data.dtype:
        raise RuntimeError(_messages.hook_changed_type(hook, grad._data.dtype,
                                                       result._data.dtype))
    return result


class AccumulateGrad(Node):
    """The node at a leaf that requires grad: ``apply`` adds the gradient into ``.grad``."""

    def __init__(self, variable) -> None:
        self.variable = variable
        self.sequence_nr = 2**64 - 1  # PyTorch's: the largest, so a leaf's grad is stored first

    def name(self) -> str:
        return "torch::autograd::AccumulateGrad"

    @property
    def pre_hooks(self) -> list:
        """A leaf's hooks are kept on the tensor (its AccumulateGrad is made when needed)."""
        return [(0, hook) for hook in self.variable._hooks or ()]

    def register_prehook(self, hook, output_nr: int = 0) -> RemovableHandle:
        return self.variable.register_hook(hook)

    def apply(self, grads: list) -> tuple:
        """``leaf.grad += grad``, or ``leaf.grad = copy of grad`` the first time.

        The first gradient is copied, because the backward that produced it may hand the
        same tensor to other inputs too. Under ``create_graph`` (grad mode is on during the
        backward) the copy and the sum are recorded, so ``.grad`` can itself be differentiated;
        otherwise the sum is made in place and ``.grad`` stays the same tensor.
        """
        leaf, grad = self.variable, grads[0]
        if leaf._grad is None:
            if grad_mode.is_grad_enabled():  # record the copy, as PyTorch's CopyBackwards
                leaf._grad = grad.new_empty(grad.shape).copy_(grad)
            else:
                leaf._grad = grad.clone()
        elif grad_mode.is_grad_enabled():
            leaf._grad = leaf._grad + grad
        else:
            leaf._grad.add_(grad)
        return ()

    def __repr__(self) -> str:
        return f"<AccumulateGrad object at {hex(id(self))}>"


def gradient_edge(tensor) -> tuple:
    """The ``(node, input_nr)`` pair an operation on ``tensor`` links to.

    A computed tensor: its ``grad_fn`` and which output it is. A leaf that requires grad: its
    ``AccumulateGrad`` (one per leaf, made on first use and held weakly by the leaf, so the
    graph, not the tensor, keeps it alive). Anything else: ``(None, 0)``, no gradient.
    """
    if tensor.grad_fn is not None:
        return (tensor.grad_fn, tensor._output_nr)
    if not tensor._requires_grad:
        return (None, 0)
    node = tensor._accumulate_grad() if tensor._accumulate_grad is not None else None
    if node is None:
        node = AccumulateGrad(tensor)
        tensor._accumulate_grad = weakref.ref(node)
    return (node, 0)
