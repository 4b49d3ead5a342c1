"""The backward engine: run the graph from the outputs to the leaves, applying the chain rule.

``backward`` and ``grad`` both come down to ``_run``, which works as PyTorch's engine does:

1. **Count** for every node how many edges point at it (an iterative walk, no recursion):
   that is how many gradients it will receive.
2. **Run** nodes from a ready queue, starting at a ``GraphRoot`` that hands out the
   starting gradients. A node is ready when all its gradients have arrived (Kahn's
   algorithm); among ready nodes the newest runs first, exactly as in PyTorch.
   Running a node means: its tensors' hooks, its pre-hooks, ``node.apply(grads)``, its
   post-hooks (hooks.py).
3. **Deliver** each gradient ``apply`` returns down the matching edge of
   ``next_functions``, adding up gradients that meet at the same input.

Leaves need nothing special: a leaf's node is its ``AccumulateGrad``, whose ``apply`` adds
into ``.grad``. ``grad`` (and ``backward(inputs=...)``) only run the nodes that lead to the
requested inputs, and catch the gradients arriving there.
"""

from __future__ import annotations

import warnings

from .. import _messages
from ..tensor_base import TensorBase
from . import anomaly, arguments, batched_grad, grad_mode, hooks, profiler
from .hooks import trace  # noqa: F401  (ag.autograd.trace: a callback after every node)
from .node import Node
from .ready_queue import ReadyQueue


class GraphRoot(Node):
    """Where a backward pass starts: it passes the starting gradients on to the outputs."""

    def __init__(self, outputs: tuple) -> None:
        self.set_next_edges([arguments.edge(t) for t in outputs])  # tensors or edges
        self.output_info = (None,) * len(outputs)

    def apply(self, grads: list) -> list:
        return grads


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    """Compute gradients of ``tensors`` and add them into the ``.grad`` of the leaves."""
    tensors, grads = arguments.roots(tensors, grad_tensors)
    if create_graph:
        _messages.warn_once(_messages.CREATE_GRAPH_IN_BACKWARD, stacklevel=3)  # as PyTorch
    targets = None
    if inputs is not None:
        inputs = arguments.inputs(inputs, "backward")
        for t in inputs:
            if isinstance(t, TensorBase) and t.grad_fn is not None:
                t.retain_grad()  # as in PyTorch: a non-leaf input gets its .grad this way
        targets = [arguments.edge(t) for t in inputs]
    _run(tensors, grads, retain_graph, create_graph, targets, run_targets=True)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         only_inputs=True, allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """Return d(outputs)/d(inputs) without touching any ``.grad`` (``is_grads_batched``: the
    first dimension of each of ``grad_outputs`` is a batch of them, batched_grad.py;
    ``only_inputs`` is ignored, as in PyTorch, which warns when it is False)."""
    if materialize_grads and allow_unused is False:
        raise ValueError(arguments.MATERIALIZE_NOT_UNUSED)
    if not only_inputs:
        warnings.warn(_messages.ONLY_INPUTS_IGNORED, FutureWarning, stacklevel=2)
    if is_grads_batched:
        return batched_grad.grad_per_row(grad, outputs, inputs, grad_outputs, retain_graph,
                                         create_graph, allow_unused=allow_unused,
                                         materialize_grads=materialize_grads)
    outputs, grads = arguments.roots(outputs, grad_outputs)
    inputs = arguments.inputs(inputs, "grad")
    targets = [arguments.edge(t) for t in inputs]
    caught = _run(outputs, grads, retain_graph, create_graph, targets, run_targets=False)
    results = []
    for i, (t, edge) in enumerate(zip(inputs, targets)):
        g = caught.get(edge)
        if g is None and materialize_grads:
            g = arguments.zeros_for(t, create_graph)
        elif g is None and not allow_unused:
            raise RuntimeError(_messages.unused_input(i))
        results.append(g)
    return tuple(results)


def _count_dependencies(root: Node) -> dict:
    """For every node below ``root``: how many edges point at it (gradients it will get)."""
    dependencies = {}
    stack = [root]
    while stack:  # an explicit stack instead of recursion: 100,000-node chains are fine
        for node in stack.pop().next_nodes():
            if node in dependencies:
                dependencies[node] += 1
            elif node is not None:  # (None: an input without gradient)
                dependencies[node] = 1  # first seen: walk on below it
                stack.append(node)
    return dependencies


def _leading_to(targets: set, nodes) -> set:
    """The nodes with a path down to one of ``targets`` (they must run to reach them)."""
    parents = {}  # node -> the nodes whose next_functions point at it
    for node in nodes:
        for child in node.next_nodes():
            if child is not None:
                parents.setdefault(child, []).append(node)
    found, stack = set(), [t for t in targets if t in parents]
    while stack:
        for parent in parents.get(stack.pop(), ()):
            if parent not in found:
                found.add(parent)
                stack.append(parent)
    return found


def _run(outputs, grads, retain_graph, create_graph, targets, run_targets) -> dict:
    """Run the backward pass; return the gradients that arrived at the ``targets`` edges.

    ``targets`` (``(node, input_nr)`` pairs) limits the run to the nodes leading to them;
    their own nodes run too with ``run_targets`` (``backward(inputs=)``), else (``grad``) their
    gradients are only caught.
    """
    retain_graph = create_graph if retain_graph is None else retain_graph
    root = GraphRoot(outputs)
    dependencies = _count_dependencies(root)
    to_run = wanted = None  # None: every node runs
    if targets is not None:
        targets = set(targets)
        target_nodes = {node for node, _ in targets}
        to_run = _leading_to(target_nodes, [root, *dependencies]) | {root}
        if run_targets:
            to_run |= target_nodes
        wanted = to_run | target_nodes  # the nodes that run or have a gradient to catch
    caught = {}
    buffers = {root: list(grads)}  # node -> the gradients received so far, one per output
    ready = ReadyQueue()
    ready.push(root)
    task = hooks.GraphTask(dependencies, wanted, not run_targets)  # for hooks to ask about
    with grad_mode.set_grad_enabled(create_graph), task:  # record backward formulas if asked
        try:
            while ready:
                node = ready.pop()
                grads = buffers.pop(node, None)  # None: no gradient reached this node
                hooked = node.hooked or hooks.tracers  # any hooks to run around this node?
                if grads is not None:
                    if hooked:
                        grads = node.call_pre_hooks(grads)
                    if targets is not None:
                        for nr, g in enumerate(grads):
                            if (node, nr) in targets:
                                caught[(node, nr)] = g
                if to_run is not None and node not in to_run:
                    continue
                if grads is None:
                    grad_inputs = [None] * len(node._next_nrs)  # none flows on from it
                else:
                    if hooked:
                        grads = hooks.call_pre_hooks(node, grads)  # the node's own hooks
                    # as PyTorch, keep the incoming gradients only for post-hooks registered
                    # before the node runs (one registered while it runs gets none of them)
                    kept = grads if node._post_hooks else []
                    task.node = node
                    if profiler.state.enabled:  # the node's run is an event of the profiler
                        grad_inputs = profiler.record_node(node, grads)
                    else:
                        grad_inputs = node.apply(grads)
                    task.node = None
                    if (hooked or node.hooked) and node is not root:  # (the root: no node)
                        grad_inputs = hooks.call_post_hooks(node, grads, grad_inputs, kept)
                    if anomaly.state.enabled and anomaly.state.check_nan:
                        anomaly.check_nan(node, grad_inputs)
                if not retain_graph:
                    node.release_saved_tensors()
                # down each edge of its next_functions
                for g, child, nr in zip(grad_inputs, node.next_nodes(), node._next_nrs):
                    if child is None:
                        continue
                    dependencies[child] -= 1
                    if wanted is None or child in wanted:
                        _add_to_buffer(buffers, child, nr, g)
                        if dependencies[child] == 0:
                            ready.push(child)
            task.run_callbacks()  # what queue_callback asked for, now that every node ran
        except Exception:
            if anomaly.state.enabled:  # warn with the forward stack that made the node
                anomaly.report(node)
            raise
    return caught


def _add_to_buffer(buffers: dict, node: Node, nr: int, grad) -> None:
    """Collect ``grad`` for input ``nr`` of ``node``; gradients for one input add up."""
    if grad is None:
        return
    slots = buffers.get(node)
    if slots is None:
        slots = buffers[node] = [None] * len(node.output_info)
    slots[nr] = grad if slots[nr] is None else slots[nr] + grad
