"""Chapter 9 exercises: order a graph for the backward pass; add an operation to ``Value``;
write the engine's loop."""

from __future__ import annotations

import math
import random
from contextlib import contextmanager
from typing import Any, Callable, Iterator

import numpy as np

from ... import float64, tensor
from ...autograd.engine import grad
from ._common import (
    Mismatch,
    NotAttempted,
    call_learner,
    checker,
    has_placeholder_body,
    not_attempted_or_error,
    random_inputs,
    require_attempt,
    returned_none,
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
def check_value_exp(value_cls: Any) -> None:
    """Exercise 9.2: a ``Value`` subclass whose ``exp()`` records its local derivative.

    Uses the chapter's ``Value`` interface: ``Value(data)``, ``.data``, ``.grad``, ``+``,
    ``*`` and ``.backward()``.
    """
    require_attempt(value_cls)
    try:
        with _exp_taken_away(value_cls):
            _check_exp(value_cls)
    except _TakenAway as e:
        raise Mismatch(msg("ch09.exp.taken_away")) from e


class _TakenAway(BaseException):
    """Raised by the ``exp`` of the class the learner's inherits from, while it is taken away
    (a BaseException, so that the learner's ``except Exception`` does not swallow it)."""


def _refuse(*args: Any, **kwargs: Any) -> Any:
    raise _TakenAway


@contextmanager
def _exp_taken_away(value_cls: Any) -> Iterator[None]:
    """Take ``exp`` away from the classes ``value_cls`` inherits from (the chapter's ``Value``
    has one): an ``exp`` that calls ``super().exp()`` or ``Value.exp`` raises _TakenAway."""
    bases = [c for c in getattr(value_cls, "__mro__", ())[1:] if "exp" in vars(c)]
    originals = [vars(c)["exp"] for c in bases]
    try:
        for c in bases:
            c.exp = _refuse
        yield
    finally:
        for c, original in zip(bases, originals):
            c.exp = original


def _check_exp(value_cls: Any) -> None:
    """Exercise 9.2's checks, on a class whose bases have no ``exp`` now."""
    for _ in range(3):
        x0 = random.uniform(-1.5, 1.5)
        v = value_cls(x0)
        e = _exp_of(value_cls, v)
        if abs(e.data - math.exp(x0)) > 1e-9 * max(1.0, math.exp(x0)):
            raise Mismatch(msg("ch09.exp.forward", got=e.data, x0=x0, want=math.exp(x0)))
        # exp's own _backward, alone: it must send something to x (it was attached to out)
        e.grad = 1.0
        step = getattr(e, "_backward", None)
        if callable(step):
            step()
        if not callable(step) or v.grad == 0.0:
            raise Mismatch(msg("ch09.exp.not_attached"))
        v = value_cls(x0)
        e = _exp_of(value_cls, v)
        out = e * v + e  # uses e twice: gradients must be added, not overwritten
        out.backward()
        expected = math.exp(x0) * (x0 + 2)  # d/dx (x e^x + e^x)
        if not _close(v.grad, expected):
            ex = math.exp(x0)
            if _close(v.grad, ex * (x0 + 1)):
                raise Mismatch(msg("ch09.exp.overwrites"))
            if _close(v.grad, ex + x0 + 1) or _close(v.grad, x0 + 1):
                raise Mismatch(msg("ch09.exp.no_local"))
            raise Mismatch(msg("ch09.exp.wrong", got=v.grad, x0=x0, want=expected))
    # exp of a value that is not a leaf: backward() reaches x only through exp's children
    x0 = random.uniform(-1.0, 1.0)
    v = value_cls(x0)
    out = _exp_of(value_cls, _exp_of(value_cls, v))
    out.backward()
    want = math.exp(math.exp(x0)) * math.exp(x0)
    if not _close(v.grad, want):
        raise Mismatch(msg("ch09.exp.no_child", got=v.grad, want=want))


def _exp_of(value_cls: Any, v: Any) -> Any:
    """``v.exp()``; a placeholder is NotAttempted, a body without ``return`` a Mismatch."""
    try:
        e = v.exp()
    except NotImplementedError as err:
        raise not_attempted_or_error(err) from err
    if e is Ellipsis:
        raise NotAttempted
    if e is None:
        if has_placeholder_body(getattr(value_cls, "exp", None)):
            raise NotAttempted
        raise returned_none(value_cls.exp)
    return e


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
