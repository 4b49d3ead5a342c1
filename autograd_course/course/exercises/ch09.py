"""Chapter 9 exercises: order a graph for the backward pass; count each node's incoming edges
(the first step of Kahn's algorithm); write the engine's loop."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ... import float64, tensor
from ...autograd.engine import grad
from ._common import (
    Mismatch,
    call_learner,
    checker,
    random_inputs,
    require_attempt,
    to_numpy,
)
from .messages import msg


def _graphs() -> list[tuple[str, Callable[[], Any]]]:
    """Graphs whose order matters: a diamond, a shared leaf, a 3000-step chain (each with the
    key of its description in the message catalogues)."""

    def diamond() -> Any:
        (x,) = random_inputs((2,))
        h = x.exp()
        return (h * 2 + h.sin()).sum()

    def shared() -> Any:
        a, b = random_inputs((3,), (3,))
        c = a * b
        return (c * a + c.exp() * b).sum()

    def deep() -> Any:
        (x,) = random_inputs((1,))
        y = x
        for _ in range(3000):
            y = y * 1.0001
        return y.sum()

    return [("ch09.graph.diamond", diamond), ("ch09.graph.shared", shared),
            ("ch03.graph.deep", deep)]


def _reachable(root_node: Any) -> set:
    seen, stack = {root_node}, [root_node]
    while stack:
        for nxt, _ in stack.pop().next_functions:
            if nxt is not None and nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return seen


@checker
def check_topo_order(topo_order: Any) -> None:
    """Exercise 9.1: ``topo_order(t)`` lists every node reachable from ``t.grad_fn`` once, each
    before all the nodes it sends gradients to (so the root comes first)."""
    require_attempt(topo_order)
    for key, build in _graphs():
        description = msg(key)
        root = build()
        try:
            order = call_learner(topo_order, root)
        except RecursionError as e:
            raise Mismatch(msg("ch09.topo.recursion", graph=description)) from e
        order = list(order)
        nodes = _reachable(root.grad_fn)
        if len({id(n) for n in order}) != len(order):
            raise Mismatch(msg("ch09.topo.twice", graph=description))
        if set(order) != nodes:
            missing, extra = len(nodes - set(order)), len(set(order) - nodes)
            raise Mismatch(msg("ch09.topo.missing", graph=description, missing=missing,
                               extra=extra))
        position = {n: i for i, n in enumerate(order)}
        for node in order:
            for nxt, _ in node.next_functions:
                if nxt is not None and position[nxt] < position[node]:
                    raise Mismatch(msg("ch09.topo.before", graph=description, early=nxt.name(),
                                       late=node.name()))


@checker
def check_count_dependencies(count_dependencies: Callable[[Any], Any]) -> None:
    """Exercise 9.2: ``count_dependencies(t)`` maps every node below ``t.grad_fn`` to the number
    of edges of ``next_functions`` that point at it (the counts Kahn's algorithm starts from).

    Judged on 8 random graphs (diamonds, a constant's ``None`` edges, ``x * x``), on ``x * x``
    alone and on a chain of 3000 nodes. ``t.grad_fn`` itself may be left out or counted 0.
    """
    require_attempt(count_dependencies)
    cases = [_random_graph(seed)[0] for seed in range(8)] + [_square(), _chain(8)[0]]
    for root in cases:
        try:
            got = call_learner(count_dependencies, root)
        except RecursionError as e:
            raise Mismatch(msg("ch09.deps.recursion")) from e
        if not isinstance(got, dict):
            raise Mismatch(msg("ch09.deps.type", type=type(got).__name__))
        if None in got:
            raise Mismatch(msg("ch09.deps.none_edge"))
        want, parents = _edge_counts(root.grad_fn)
        if got.get(root.grad_fn, 0) != 0:
            raise Mismatch(msg("ch09.deps.root", got=got[root.grad_fn]))
        missing = [n for n in want if n not in got]
        if missing:
            raise Mismatch(msg("ch09.deps.missing", node=missing[0].name(), missing=len(missing)))
        for node, n in want.items():
            if got[node] > n:
                raise Mismatch(msg("ch09.deps.revisit", node=node.name(), got=got[node], want=n))
            if got[node] < n:
                key = "ch09.deps.parents" if got[node] == parents[node] else "ch09.deps.few"
                raise Mismatch(msg(key, node=node.name(), got=got[node], want=n))


def _square() -> Any:
    """``(x * x).sum()``: MulBackward0 sends both its edges to the same AccumulateGrad."""
    (x,) = random_inputs((3,))
    return (x * x).sum()


def _edge_counts(start: Any) -> tuple[dict, dict]:
    """({node: edges pointing at it}, {node: distinct nodes pointing at it}) below ``start``."""
    edges: dict = {}
    parents: dict = {}
    seen, stack = {start}, [start]
    while stack:
        node = stack.pop()
        children = [nxt for nxt, _ in node.next_functions if nxt is not None]
        for nxt in children:
            edges[nxt] = edges.get(nxt, 0) + 1
        for nxt in set(children):
            parents[nxt] = parents.get(nxt, 0) + 1
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return edges, parents


def _fmt(a: np.ndarray) -> str:
    return np.array2string(a, precision=4, separator=", ", max_line_width=10**6)


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-6 * max(1.0, abs(b))


# --- 9.3 the engine's loop ---------------------------------------------------------------------
_UNARY = (lambda a: a.sin(), lambda a: a.tanh(), lambda a: a * 0.5, lambda a: a.exp())
_BINARY = (lambda a, b: a + b, lambda a, b: a * b, lambda a, b: a - b)


def _random_graph(seed: int, leaf: Callable[..., Any] | None = None) -> tuple[Any, list, Any]:
    """(root, leaves, starting gradient) of a random graph: 2-4 leaves that require grad and a
    constant (``None`` edges), ops that reuse earlier results (shared subexpressions and
    diamonds) and sometimes the same leaf twice (``x * x``); every result flows into the
    root, a vector of 3 (so the starting gradient is a random vector, not 1). ``leaf(values,
    requires_grad)`` makes the tensors (default: the package's, float64)."""
    if leaf is None:
        def leaf(values: Any, requires_grad: bool = False) -> Any:
            return tensor(values, dtype=float64, requires_grad=requires_grad)
    rng = np.random.default_rng(seed)
    leaves = [leaf(rng.uniform(-1, 1, 3), True) for _ in range(int(rng.integers(2, 5)))]
    pool = [*leaves, leaf(rng.uniform(-1, 1, 3))]
    unused = set(range(len(pool) - 1))
    for _ in range(int(rng.integers(5, 11))):
        i = int(rng.integers(len(pool)))
        if rng.random() < 0.4:
            out = _UNARY[int(rng.integers(len(_UNARY)))](pool[i].tanh() if i < len(leaves)
                                                         else pool[i])
        else:
            j = i if rng.random() < 0.2 else int(rng.integers(len(pool)))
            out = _BINARY[int(rng.integers(len(_BINARY)))](pool[i], pool[j])
            unused.discard(j)
        unused.discard(i)
        if out.requires_grad:
            unused.add(len(pool))
        pool.append(out)
    root = pool[-1]
    for k in sorted(unused - {len(pool) - 1}):
        root = root + pool[k]
    if not root.requires_grad:  # only constants met: add a leaf
        root = root + leaves[0]
    return root, leaves, leaf(rng.uniform(0.5, 1.5, 3))


def _chain(seed: int) -> tuple[Any, list, Any]:
    """A chain of 3000 multiplications: a loop is fine, a recursive walk is too deep."""
    (x,) = random_inputs((3,), seed=seed)
    y = x
    for _ in range(3000):
        y = y * 1.0001
    return y, [x], tensor([1.0, -0.5, 2.0], dtype=float64)


def _watch_accumulation(leaves: list) -> tuple[dict, list]:
    """How often each leaf's AccumulateGrad runs (seen by a hook, whatever the learner's list
    says), and the hooks' handles."""
    seen: dict = {}

    def count(leaf: Any) -> None:
        seen[leaf] = seen.get(leaf, 0) + 1

    return seen, [leaf.register_post_accumulate_grad_hook(count) for leaf in leaves]


def _accumulate_node(root: Any, leaf: Any) -> Any:
    """The AccumulateGrad node of ``leaf`` in the graph below ``root``."""
    return next(n for n in _reachable(root.grad_fn) if getattr(n, "variable", None) is leaf)


def _engine_order(root: Any, start: Any) -> list:
    """The nodes in the order the engine runs them (a post-hook on every node records it)."""
    ran = []
    handles = [node.register_hook(lambda gi, go, node=node: ran.append(node))
               for node in _reachable(root.grad_fn)]
    root.backward(start, retain_graph=True)
    for handle in handles:
        handle.remove()
    return ran


@checker
def check_run_backward(run_backward: Callable[[Any, Any], Any]) -> Any:
    """Exercise 9.3: ``run_backward(root, grad)`` runs the backward pass of ``root`` itself:
    counts dependencies, calls each node once (``node(*grads)``) when all its gradients have
    arrived and been summed, delivers the results down ``next_functions``, and returns the
    nodes in the order it called them. The leaves' ``.grad`` must be the engine's."""
    require_attempt(run_backward)
    same_order = True
    for seed in range(9):
        root, leaves, start = _random_graph(seed) if seed < 8 else _chain(seed)
        want = grad(root, leaves, start, retain_graph=True, allow_unused=True)
        ones = grad(root, leaves, start * 0 + 1, retain_graph=True, allow_unused=True)
        engine_order = _engine_order(root, start)
        for leaf in leaves:
            leaf.grad = None
        accumulated, handles = _watch_accumulation(leaves)
        try:
            order = call_learner(run_backward, root, start.clone())
        except RecursionError as e:
            raise Mismatch(msg("ch09.loop.recursion")) from e
        except AttributeError as e:
            if "NoneType" in str(e):
                raise Mismatch(msg("ch09.loop.none_edge")) from e
            raise
        finally:
            for handle in handles:
                handle.remove()
        if not isinstance(order, (list, tuple)):
            raise Mismatch(msg("ch09.loop.type", type=type(order).__name__))
        counts = {}
        for node in order:
            counts[node] = counts.get(node, 0) + 1
        for leaf in leaves:
            if accumulated.get(leaf, 0) > 1:
                counts[_accumulate_node(root, leaf)] = accumulated[leaf]
        twice = [(n, c) for n, c in counts.items() if c > 1]
        if twice:
            raise Mismatch(msg("ch09.loop.twice", node=twice[0][0].name(), times=twice[0][1]))
        nodes = _reachable(root.grad_fn)
        if set(order) != nodes:
            raise Mismatch(msg("ch09.loop.missing", missing=len(nodes - set(order)),
                               extra=len(set(order) - nodes)))
        position = {n: i for i, n in enumerate(order)}
        for node in order:
            for nxt, _ in node.next_functions:
                if nxt is not None and position[nxt] < position[node]:
                    raise Mismatch(msg("ch09.loop.early", early=nxt.name(), late=node.name()))
        for k, (leaf, g, g1) in enumerate(zip(leaves, want, ones)):
            if g is None:
                continue
            if leaf.grad is None:
                raise Mismatch(msg("ch09.loop.no_grad", k=k))
            if leaf.grad.requires_grad:
                raise Mismatch(msg("ch09.loop.recorded"))
            got = to_numpy(leaf.grad)
            if got.ndim < len(g.shape):  # one element of a gradient delivered as a whole one
                raise Mismatch(msg("ch09.loop.tuple", k=k, got=got.shape, want=tuple(g.shape)))
            if got.shape != tuple(g.shape) or not np.allclose(got, to_numpy(g)):
                if got.shape == tuple(g.shape) and np.allclose(got, to_numpy(g1)):
                    raise Mismatch(msg("ch09.loop.start"))
                raise Mismatch(msg("ch09.loop.sum", k=k, got=_fmt(got), want=_fmt(to_numpy(g))))
        same_order = same_order and list(order) == engine_order
    return msg("ch09.loop.same_order" if same_order else "ch09.loop.other_order")
