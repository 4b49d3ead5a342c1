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

import sys
import warnings

import numpy as np

from .._backend import array_module
from . import function as _function
from . import grad_mode
from .function import AccumulateGrad, Function
from .function import _Tensor as _tensor_class
from .ready_queue import ReadyQueue

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
        for t in inputs:
            if t.grad_fn is not None:
                t.retain_grad()  # PyTorch: a non-leaf in ``inputs`` gets its .grad this way
        capture = {_capture_point(t): t for t in inputs}
    _run(tensors, grads, retain_graph, create_graph, capture=capture, accumulate=True)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         allow_unused=None, materialize_grads=False):
    """Return d(outputs)/d(inputs) without touching any ``.grad``."""
    outputs, grads = _roots(outputs, grad_outputs)
    single = isinstance(inputs, _tensor_class())
    inputs = (inputs,) if single else tuple(inputs)
    for t in inputs:
        if not isinstance(t, _tensor_class()):
            raise RuntimeError("all inputs have to be Tensors or GradientEdges, but got "
                               f"{type(t).__module__}.{type(t).__name__}")
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
    Tensor = _tensor_class()
    tensors = (tensors,) if isinstance(tensors, Tensor) else tuple(tensors)
    for t in tensors:
        if not isinstance(t, Tensor):
            raise AssertionError("Expected output to be a torch.Tensor")
    if grads is None or isinstance(grads, Tensor):
        grads = (grads,) * len(tensors) if grads is None else (grads,)
    grads = tuple(grads)
    if len(grads) != len(tensors) and all(isinstance(g, Tensor) or g is None for g in grads):
        raise RuntimeError(f"got {len(tensors)} tensors and {len(grads)} gradients")
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
        elif g._data.shape != t._data.shape:
            raise RuntimeError(
                f"Mismatch in shape: grad_output[{i}] has a shape of {g.shape!r} and "
                f"output[{i}] has a shape of {t.shape!r}."
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
    """Every node reachable from the roots, each after all the nodes that feed it gradients.

    A node is ready when every gradient it will receive has arrived; the ready queue then
    picks the next one exactly as PyTorch's does (newest node first, a leaf's
    ``AccumulateGrad`` before any of them, ties broken like C++'s priority queue), so hooks
    fire in the same order as in PyTorch.
    """
    dependencies = {}  # node -> how many edges point at it (its key: seen by the walk)
    roots = set(root_nodes)
    stack = list(roots)
    while stack:  # an explicit stack instead of recursion: 100,000-node chains are fine
        for nxt in stack.pop()._next_nodes:
            if nxt is None:
                continue
            if nxt in dependencies:
                dependencies[nxt] += 1
            else:
                dependencies[nxt] = 1
                if nxt not in roots:  # a root is walked from the start
                    stack.append(nxt)
    ready = ReadyQueue()
    for node in root_nodes:
        if node not in dependencies:
            ready.push(node)
    order = []
    while ready:
        node = ready.pop()
        order.append(node)
        for nxt in node._next_nodes:
            if nxt is None:
                continue
            dependencies[nxt] -= 1
            if dependencies[nxt] == 0:  # every gradient for nxt is in: it is ready
                ready.push(nxt)
    return order


def _needed(order, targets):
    """With ``inputs`` given: the nodes that must run, those with a target below them.

    A target's own node need not run (its gradient is caught on the way in), so graphs
    above a caught non-leaf keep their saved tensors, as in PyTorch.
    """
    needed = set()
    for node in reversed(order):
        for nxt in node._next_nodes:
            if nxt is not None and (nxt in targets or nxt in needed):
                needed.add(node)
                break
    return needed


# --- running ---------------------------------------------------------------------------------
def _run(roots, root_grads, retain_graph, create_graph, capture, accumulate):
    """Run the backward pass; return the gradients caught at the ``capture`` points."""
    buffers: dict = {}  # node -> [gradient per output], summed as they arrive
    for t, g in zip(roots, root_grads):
        node, nr = _capture_point(t)
        _add_to_buffer(buffers, node, nr, g)
    order = _topological_order(list(buffers))
    targets = needed = None
    if capture is not None:
        targets = {node for node, _ in capture}
        needed = _needed(order, targets)
    captured = {}
    enabled = grad_mode.state.enabled
    grad_mode.state.enabled = create_graph  # backward formulas are recorded only if asked
    try:
        for node in order:
            grads = buffers.pop(node, None)
            if grads is None or (needed is not None and node not in needed
                                 and node not in targets):
                continue
            if node._pre_hooks:
                grads = _run_prehooks(node, grads)
            if type(node) is AccumulateGrad:
                _leaf(node, grads, capture, captured, accumulate, create_graph)
                continue
            if capture is not None:
                for nr, g in enumerate(grads):
                    if (node, nr) in capture:
                        captured[(node, nr)] = g
                if node not in needed:
                    continue
            grad_inputs = _call_backward(node, grads)
            if not retain_graph and node._saved:
                node._release()
            for tracer in _tracers:
                tracer(node, grads, grad_inputs)
            _deliver(buffers, node._next_nodes, node._next_nrs, grad_inputs)
            del grad_inputs  # so that a leaf can see it is the only holder (_unshared)
    finally:
        grad_mode.state.enabled = enabled
    return captured


def _deliver(buffers, nodes, nrs, grad_inputs) -> None:
    """Hand each input's gradient down its edge (a helper, so no loop variable outlives it).

    ``_add_to_buffer``'s work, written out: this runs for every edge of the graph.
    """
    for nxt, nr, g in zip(nodes, nrs, grad_inputs):
        if nxt is None or g is None:
            continue
        slots = buffers.get(nxt)
        if slots is None:
            if type(nxt) is AccumulateGrad or len(nxt._output_meta) == 1:
                buffers[nxt] = [g]
                continue
            slots = buffers[nxt] = [None] * len(nxt._output_meta)
        old = slots[nr]
        slots[nr] = g if old is None else old + g


def _leaf(node, grads, capture, captured, accumulate, create_graph) -> None:
    """At a leaf: run its hooks, then hand the gradient back (``grad``) or into ``.grad``."""
    leaf = node.variable
    if (accumulate and leaf._grad is None and capture is None and not create_graph
            and not leaf._hooks and not _tracers and _unshared(grads)):
        leaf._grad = grads[0]  # nobody else can see it: it becomes .grad without a copy
        return
    grad = grads[0]
    for hook in leaf._hooks or ():
        result = hook(grad)
        if result is not None:
            grad = result
    wanted = capture is None or (node, 0) in capture
    if capture is not None and wanted:
        captured[(node, 0)] = grad
    if accumulate and wanted:
        _accumulate(leaf, grad, create_graph)
    for tracer in _tracers:
        tracer(node, grads, ())


def _add_to_buffer(buffers, node, nr, grad) -> None:
    """Collect ``grad`` for output ``nr`` of ``node``; gradients for one output add up."""
    slots = buffers.get(node)
    if slots is None:
        slots = buffers[node] = [None] * len(node._output_meta)
    old = slots[nr]
    slots[nr] = grad if old is None else old + grad


def _run_prehooks(node, grads):
    """A tensor's hooks in registration order; ``retain_grad``'s last, to see their result."""
    grads = list(grads)
    hooks = sorted(node._pre_hooks, key=lambda entry: getattr(entry[1], "runs_last", False))
    for nr, hook in hooks:
        if grads[nr] is not None:
            result = hook(grads[nr])
            if result is not None:
                grads[nr] = result
    return grads


def _call_backward(node, grads):
    """Run one node's backward and check what it returned against its inputs.

    Runs once per node, so the checks are plain comparisons on the arrays' own shapes.
    """
    for g in grads:
        if g is None:  # an output that received no gradient gets zeros, as in PyTorch
            grads = _zeros_for_missing(node, grads)
            break
    result = node._forward_cls.backward(node, *grads)
    if type(result) is not tuple:
        result = (result,)
    meta = node._input_meta
    if len(result) != len(meta):
        if len(result) > len(meta) and all(r is None for r in result[len(meta):]):
            result = result[: len(meta)]  # extra trailing Nones are allowed
        else:
            raise RuntimeError(
                f"function {node.name()} returned an incorrect number of gradients "
                f"(expected {len(meta)}, got {len(result)})"
            )
    Tensor = _function._tensor_class
    grad_inputs = []
    for i, g in enumerate(result):
        m = meta[i]
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
        data = g._data
        if data.shape != shape:
            if not _can_sum_to(data.shape, shape):
                raise RuntimeError(
                    f"Function {node.name()} returned an invalid gradient at index {i} - got "
                    f"{list(data.shape)} but expected shape compatible with {list(shape)}"
                )
            g = g.sum_to_size(shape)
        if data.dtype != dtype:
            g = g.to(dtype)
        grad_inputs.append(g)
    return grad_inputs


def _zeros_for_missing(node, grads):
    xp = array_module(node._device)
    wrap = _tensor_class()._wrap
    return [
        wrap(xp.zeros(meta[0], dtype=meta[1]), node._device) if g is None and meta else g
        for g, meta in zip(grads, node._output_meta)
    ]


def _can_sum_to(shape, target) -> bool:
    """True when ``target`` broadcasts to ``shape``, so a gradient of ``shape`` sums to it."""
    if len(target) > len(shape):
        return False
    tail = shape[len(shape) - len(target):]
    return all(t == s or t == 1 for t, s in zip(target, tail))


class _CopyGrad(Function):
    """``.grad = copy of grad`` under ``create_graph``: PyTorch records it as CopyBackwards."""

    node_name = "CopyBackwards"

    @staticmethod
    def forward(ctx, destination, grad):
        return grad._detached_copy()

    @staticmethod
    def backward(ctx, grad):
        return None, grad


def _accumulate(leaf, grad, create_graph):
    """``AccumulateGrad``: add into ``leaf.grad`` (in place, so it stays the same object)."""
    if leaf._grad is None:
        # the gradient may be seen elsewhere (see _unshared): keep a private copy (recorded,
        # as PyTorch's CopyBackwards, when the gradient is itself differentiable)
        if create_graph and grad._requires_grad:
            leaf._grad = _CopyGrad.apply(None, grad)
        else:
            leaf._grad = grad._detached_copy()
    elif create_graph:
        leaf._grad = leaf._grad + grad
    else:
        leaf._grad._data += grad._data


# --- taking a gradient over without a copy ----------------------------------------------------
def _refcount(obj) -> int:
    return sys.getrefcount(obj)


# What _refcount reports for an object that exactly one container or attribute holds, measured
# the same way the checks below measure (so it is right for this Python version). None where
# there are no reference counts (PyPy): then gradients are always copied.
_HOLDER = [object()]
_ONE_HOLDER = _refcount(_HOLDER[0]) if hasattr(sys, "getrefcount") else None
del _HOLDER


def _unshared(grads) -> bool:
    """True when nothing but the engine's ``grads`` list holds ``grads[0]`` or its memory.

    A leaf's first gradient could then become its ``.grad`` as it is, instead of as a copy
    (for a weight matrix the copy costs as much as a large part of the backward pass). It is
    not safe in general: a backward may return the same tensor for two inputs (``AddBackward0``
    does), or a view of it, or a tensor the user holds, and a later in-place accumulation into
    one ``.grad`` would change the other. PyTorch's ``AccumulateGrad`` decides it the same
    way, by the tensor's reference count: here, of the tensor, of its array, and of the array
    that owns the memory when it is a view. The array must also be a plain, writable,
    C-contiguous NumPy array (not a broadcast view, and laid out like a fresh copy).
    """
    if _ONE_HOLDER is None or _refcount(grads[0]) != _ONE_HOLDER:
        return False
    data = grads[0]._data  # from here on, this local holds one more reference
    if type(data) is not np.ndarray or not (data.flags.c_contiguous and data.flags.writeable):
        return False
    if _refcount(data) != _ONE_HOLDER + 1:
        return False
    base = data.base
    return base is None or (type(base) is np.ndarray and base.base is None
                            and _refcount(base) == _ONE_HOLDER + 1)
