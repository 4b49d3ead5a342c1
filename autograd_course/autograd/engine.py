"""The backward engine: walk the graph from the outputs to the leaves, applying the chain rule.

``backward`` and ``grad`` do the same three things:

1. **Order** the nodes once, without recursion: count how many edges point at each node, then
   release a node when all the gradients it will receive have arrived (Kahn's algorithm). Among
   nodes ready at the same time, the one created last runs first, as in PyTorch.
2. **Run** each node's ``backward`` on the sum of the gradients that reached it, and hand each
   result down the matching edge of ``next_functions``.
3. **Deliver**: at a leaf, ``AccumulateGrad`` adds into ``.grad`` (``backward``), or the
   gradient is handed back to the caller (``grad``). Saved tensors are freed as each node
   finishes, unless ``retain_graph=True``.
"""

from __future__ import annotations

import heapq
import warnings

from .._backend import array_module
from . import grad_mode
from .function import AccumulateGrad

_tracers: list = []  # callbacks that watch the engine run: viz.backward_steps uses this


class trace:  # noqa: N801
    """Context manager: call ``callback(node, grad_outputs, grad_inputs)`` after every node.

    This is how the graph viewer shows the backward pass: it records the engine's real run.
    """

    def __init__(self, callback) -> None:
        self.callback = callback

    def __enter__(self):
        _tracers.append(self.callback)
        return self

    def __exit__(self, *exc) -> None:
        _tracers.remove(self.callback)


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    """Compute gradients of ``tensors`` and add them into the ``.grad`` of the leaves."""
    tensors, grads = _roots(tensors, grad_tensors)
    if create_graph:
        warnings.warn(
            "Using backward() with create_graph=True will create a reference cycle between the "
            "parameter and its gradient which can cause a memory leak. We recommend using "
            "autograd.grad when creating the graph to avoid this. If you have to use this "
            "function, make sure to reset the .grad fields of your parameters to None after "
            "use to break the cycle and avoid the leak.",
            UserWarning,
            stacklevel=3,
        )
    if retain_graph is None:
        retain_graph = create_graph
    capture = None
    if inputs is not None:
        inputs = (inputs,) if not isinstance(inputs, (list, tuple)) else tuple(inputs)
        capture = {_capture_point(t): t for t in inputs}
    _run(tensors, grads, retain_graph, create_graph, capture=capture, accumulate=True)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         allow_unused=None, materialize_grads=False):
    """Return d(outputs)/d(inputs) without touching any ``.grad``."""
    outputs, grads = _roots(outputs, grad_outputs)
    single = not isinstance(inputs, (list, tuple))
    inputs = (inputs,) if single else tuple(inputs)
    for t in inputs:
        if not t.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    if retain_graph is None:
        retain_graph = create_graph
    points = [_capture_point(t) for t in inputs]
    captured = _run(outputs, grads, retain_graph, create_graph,
                    capture=dict.fromkeys(points), accumulate=False)
    results = []
    for i, (t, point) in enumerate(zip(inputs, points)):
        g = captured.get(point)
        if g is None:
            if materialize_grads:
                g = t._wrap(t._xp.zeros(t.shape, dtype=t._data.dtype), t._device)
            elif not allow_unused:
                raise RuntimeError(
                    f"The differentiated Tensor at index {i} appears to not have been used in "
                    "the graph. Set allow_unused=True if this is the desired behavior."
                )
        results.append(g)
    return tuple(results)


# --- the roots ------------------------------------------------------------------------------
def _roots(tensors, grads):
    """Check the outputs and the gradients given for them; make the implicit ones."""
    from ..tensor import Tensor, Size

    tensors = (tensors,) if isinstance(tensors, Tensor) else tuple(tensors)
    if grads is None or isinstance(grads, Tensor):
        grads = (grads,) * len(tensors) if grads is None else (grads,)
    grads = tuple(grads)
    made = []
    for i, (t, g) in enumerate(zip(tensors, grads)):
        if not t.requires_grad:
            raise RuntimeError(
                f"element {i} of tensors does not require grad and does not have a grad_fn"
            )
        if g is None:
            if t.numel() != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            g = t._wrap(t._xp.ones(t.shape, dtype=t._data.dtype), t._device)
        elif not isinstance(g, Tensor):
            kind = type(g[0] if isinstance(g, (list, tuple)) and g else g).__name__
            raise TypeError(f"gradients can be either Tensors or None, but got {kind}")
        elif g.shape != t.shape:
            raise RuntimeError(
                f"Mismatch in shape: grad_output[{i}] has a shape of {Size(g.shape)!r} and "
                f"output[{i}] has a shape of {Size(t.shape)!r}."
            )
        elif g._data.dtype != t._data.dtype:
            g = g.to(t.dtype)
        made.append(g)
    return tensors, made


def _capture_point(t):
    """Where the gradient of ``t`` can be caught: its AccumulateGrad, or (grad_fn, output_nr)."""
    return (t._accumulator(), 0) if t.grad_fn is None else (t.grad_fn, t._output_nr)


# --- ordering --------------------------------------------------------------------------------
def _topological_order(root_nodes):
    """Every node reachable from the roots, each after all the nodes that feed it gradients."""
    dependencies = {}
    stack = list(root_nodes)
    seen = set(stack)
    while stack:  # an explicit stack instead of recursion: 100,000-node chains are fine
        node = stack.pop()
        for nxt, _ in node.next_functions:
            if nxt is None:
                continue
            dependencies[nxt] = dependencies.get(nxt, 0) + 1
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    ready = [(-n._seq, id(n), n) for n in seen if n not in dependencies]
    heapq.heapify(ready)
    order = []
    while ready:
        node = heapq.heappop(ready)[2]
        order.append(node)
        for nxt, _ in node.next_functions:
            if nxt is None:
                continue
            dependencies[nxt] -= 1
            if dependencies[nxt] == 0:
                heapq.heappush(ready, (-nxt._seq, id(nxt), nxt))
    return order


def _needed(order, capture):
    """For ``grad``: the nodes on some path to a captured input (the rest need not run)."""
    targets = {node for node, _ in capture}
    needed = set()
    for node in reversed(order):
        if node in targets or any(n in needed for n, _ in node.next_functions if n is not None):
            needed.add(node)
    return needed


# --- running ---------------------------------------------------------------------------------
def _run(roots, root_grads, retain_graph, create_graph, capture, accumulate):
    buffers: dict = {}
    for t, g in zip(roots, root_grads):
        node, nr = _capture_point(t)
        _add_to_buffer(buffers, node, nr, g, len(getattr(node, "_output_meta", (None,))))
    order = _topological_order(list(buffers))
    needed = _needed(order, capture) if not accumulate and capture else None
    captured = {}
    enabled = grad_mode.state.enabled
    grad_mode.state.enabled = create_graph  # backward formulas are recorded only if asked
    try:
        for node in order:
            grads = buffers.pop(node, None)
            if needed is not None and node not in needed:
                continue
            if grads is None:
                continue
            if node._pre_hooks:
                grads = _run_prehooks(node, grads)
            if capture is not None:
                for nr, g in enumerate(grads):
                    if (node, nr) in capture:
                        captured[(node, nr)] = g
            if type(node) is AccumulateGrad:
                if accumulate and (capture is None or (node, 0) in capture):
                    _accumulate(node.variable, grads[0], create_graph)
                for tracer in _tracers:
                    tracer(node, grads, ())
                continue
            grad_inputs = _call_backward(node, grads)
            if not retain_graph:
                node._release()
            for tracer in _tracers:
                tracer(node, grads, grad_inputs)
            for (nxt, nr), g in zip(node.next_functions, grad_inputs):
                if nxt is not None and g is not None:
                    _add_to_buffer(buffers, nxt, nr, g, len(getattr(nxt, "_output_meta", (0,))))
    finally:
        grad_mode.state.enabled = enabled
    return captured


def _add_to_buffer(buffers, node, nr, grad, n_outputs):
    slots = buffers.get(node)
    if slots is None:
        slots = buffers[node] = [None] * n_outputs
    slots[nr] = grad if slots[nr] is None else slots[nr] + grad


def _run_prehooks(node, grads):
    grads = list(grads)
    for nr, hook in list(node._pre_hooks):
        if grads[nr] is not None:
            result = hook(grads[nr])
            if result is not None:
                grads[nr] = result
    return grads


def _call_backward(node, grads):
    """Run one node's backward and check what it returned against its inputs."""
    from ..tensor import Tensor

    if any(g is None for g in grads):  # an output that received no gradient gets zeros, as in PyTorch
        xp = array_module(node._device)
        grads = [
            g if g is not None else Tensor._wrap(xp.zeros(meta[0], dtype=meta[1]), node._device)
            for g, meta in zip(grads, node._output_meta)
        ]
    result = node._forward_cls.backward(node, *grads)
    result = result if isinstance(result, tuple) else (result,)
    meta = node._input_meta
    if len(result) > len(meta) and all(r is None for r in result[len(meta):]):
        result = result[: len(meta)]  # extra trailing Nones are allowed
    if len(result) != len(meta):
        raise RuntimeError(
            f"function {node.name()} returned an incorrect number of gradients "
            f"(expected {len(meta)}, got {len(result)})"
        )
    grad_inputs = []
    for i, (g, m) in enumerate(zip(result, meta)):
        if g is None:
            if m is not None:
                grad_inputs.append(None)
            continue
        if not isinstance(g, Tensor):
            raise RuntimeError(f"expected Variable or None (got {type(g).__name__})")
        if m is None:
            raise RuntimeError(
                f"function {node.name()} returned a gradient different than None at position "
                f"{i + 1}, but the corresponding forward input was not a Variable"
            )
        shape, dtype = m
        if g.shape != shape:
            if not _can_sum_to(g.shape, shape):
                raise RuntimeError(
                    f"Function {node.name()} returned an invalid gradient at index {i} - got "
                    f"{list(g.shape)} but expected shape compatible with {list(shape)}"
                )
            g = g.sum_to_size(shape)
        if g._data.dtype != dtype:
            g = g.to(dtype)
        grad_inputs.append(g)
    return grad_inputs


def _can_sum_to(shape, target) -> bool:
    """True when ``target`` broadcasts to ``shape``, so a gradient of ``shape`` sums to it."""
    if len(target) > len(shape):
        return False
    tail = shape[len(shape) - len(target):]
    return all(t == s or t == 1 for t, s in zip(target, tail))


def _accumulate(leaf, grad, create_graph):
    """``AccumulateGrad``: run the leaf's hooks, then add into ``leaf.grad`` (in place)."""
    for hook in leaf._hooks or ():
        result = hook(grad)
        if result is not None:
            grad = result
    if leaf._grad is None:
        # the engine may hand the same gradient tensor to several places: keep a private copy
        leaf._grad = grad if create_graph else grad._detached_copy()
    elif create_graph:
        leaf._grad = leaf._grad + grad
    else:
        leaf._grad._data += grad._data
