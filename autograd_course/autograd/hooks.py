"""Hooks: your own functions, called by the engine around the nodes it runs.

PyTorch has three kinds on a node, run in this order each time the engine runs it:

1. **Tensor hooks** (``tensor.register_hook(fn)``): ``fn(grad)`` on the gradient of one output,
   then ``retain_grad`` stores what they made (see ``Node.call_pre_hooks``);
2. **pre-hooks** (``node.register_prehook(fn)``): ``fn(grad_outputs)`` with the tuple of all the
   gradients that reached the node; it may return a replacement tuple;
3. **post-hooks** (``node.register_hook(fn)``): ``fn(grad_inputs, grad_outputs)`` after the node
   ran, with what it computed for its inputs; it may return a replacement for those.

Each call runs the hooks registered at that moment, so a hook removed by another hook during a
backward still runs this once (as in PyTorch). ``GraphTask`` tells a hook which backward pass is
running and whether a node will run in it (what ``register_multi_grad_hook`` needs), and
keeps the callbacks ``queue_callback`` asks it to run once all its nodes have run.
"""

from __future__ import annotations

import itertools

from .. import _messages
from ..tensor_base import RemovableHandle
from . import saved_tensor_hooks


def add(hooks: list | None, hook) -> tuple:
    """Append ``hook`` to ``hooks`` (made if ``None``): the list, and the handle to remove it."""
    hooks = [] if hooks is None else hooks
    entry = (hook,)  # a fresh tuple: the same function twice gets two separate entries
    hooks.append(entry)
    return hooks, RemovableHandle(hooks, entry)


def call_pre_hooks(node, grad_outputs: list) -> list:
    """``node``'s pre-hooks, in order; each may return a new tuple of gradients."""
    if not node._pre_hooks:
        return grad_outputs
    for (hook,) in list(node._pre_hooks):
        result = hook(tuple(grad_outputs))
        if result is not None:
            grad_outputs = _checked(hook, grad_outputs, result)
    return grad_outputs


def call_post_hooks(node, grad_outputs: list, grad_inputs: list, kept=None) -> list:
    """``node``'s post-hooks, then the tracers; a hook may return new ``grad_inputs``.
    ``kept``: the incoming gradients the post-hooks see (the engine's choice, as PyTorch's)."""
    if node._post_hooks:
        for (hook,) in list(node._post_hooks):
            result = hook(tuple(grad_inputs), tuple(grad_outputs if kept is None else kept))
            if result is not None:
                grad_inputs = _checked(hook, grad_inputs, result)
    for tracer in tracers:
        tracer(node, grad_outputs, grad_inputs)
    return grad_inputs


def _checked(hook, grads: list, result) -> list:
    """A replacement tuple of gradients, checked as PyTorch checks it."""
    if not isinstance(result, tuple):
        raise TypeError(f"expected tuple, but hook returned '{type(result).__name__}'")
    if len(result) != len(grads):
        raise RuntimeError(f"hook '{_name(hook)}' has returned an incorrect number of values "
                           f"(got {len(result)}, but expected {len(grads)})")
    checked = []
    for old, new in zip(grads, result):
        if new is not None and old is None:
            raise RuntimeError("can't replace a None gradient with a non-None value")
        checked.append(new if new is None else checked_tensor_hook_result(hook, old, new))
    return checked


def checked_tensor_hook_result(hook, grad, result):
    """What a tensor hook returned, checked as PyTorch checks it: ``None`` keeps ``grad``."""
    if result is None:
        return grad
    if grad is None:
        raise RuntimeError("can't replace a None gradient with a non-None value")
    if not hasattr(result, "_data"):
        raise TypeError(_messages.hook_returned(result))
    if result._data.shape != grad._data.shape:
        raise RuntimeError(_messages.hook_changed_size(hook))
    if result._data.dtype != grad._data.dtype:
        raise RuntimeError(_messages.hook_changed_type(hook, grad._data.dtype,
                                                       result._data.dtype))
    return result


def _name(hook) -> str:
    return getattr(hook, "__name__", type(hook).__name__)


# --- the backward pass running now --------------------------------------------------------------
_tasks: list = []  # the backward passes running now, the innermost last
_task_ids = itertools.count()


class GraphTask:
    """One backward pass while it runs (``with GraphTask(...)`` in the engine): its id, and
    which nodes it will run (``will_run``): those below the outputs, and, when the pass was
    given ``inputs``, only those leading to them and the inputs' own nodes; and whether it is
    a call of ``grad``."""

    def __init__(self, nodes, wanted, is_grad: bool) -> None:
        self.id, self.nodes, self.wanted = next(_task_ids), nodes, wanted
        self.is_grad = is_grad  # autograd.grad(): nothing is accumulated into .grad
        self.callbacks = []  # queue_callback's functions, run when the pass has run every node
        self.node = None  # the node whose backward is running now (_current_autograd_node)

    def run_callbacks(self) -> None:
        """The queued callbacks in order; one may queue more, which run after it."""
        while self.callbacks:
            self.callbacks.pop(0)()

    def will_run(self, node) -> bool:
        return node in self.nodes and (self.wanted is None or node in self.wanted)

    def __enter__(self):
        _tasks.append(self)
        self.saved_hooks = saved_tensor_hooks.active()  # as PyTorch keeps its thread state,
        return self  # saved-tensor hooks entered or left inside the pass end with it

    def __exit__(self, *exc) -> None:
        saved_tensor_hooks.restore(self.saved_hooks)
        _tasks.pop()


def current_graph_task():
    """The innermost backward pass running now, or ``None`` outside backward."""
    return _tasks[-1] if _tasks else None


def queue_callback(callback) -> None:
    """Run ``callback()`` once the backward pass running now has run all its nodes
    (PyTorch's ``Variable._execution_engine.queue_callback``)."""
    if not _tasks:
        raise RuntimeError("Final callbacks can only be installed during backward pass.")
    _tasks[-1].callbacks.append(callback)


# --- tracing every node (the chapters' look inside the engine) ----------------------------------
tracers: list = []


class trace:
    """Context manager: call ``callback(node, grad_outputs, grad_inputs)`` after every node the
    engine runs (a hook on all nodes at once; no PyTorch API, ``register_hook`` is PyTorch's)."""

    def __init__(self, callback) -> None:
        self.callback = callback

    def __enter__(self):
        tracers.append(self.callback)
        return self

    def __exit__(self, *exc) -> None:
        tracers.remove(self.callback)
