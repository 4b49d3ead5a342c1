"""Chapter 9 exercises: order a graph for the backward pass; add an operation to ``Value``."""

from __future__ import annotations

import math
import random
from typing import Any, Callable

from ._common import (
    Mismatch,
    NotAttempted,
    call_learner,
    checker,
    has_placeholder_body,
    random_inputs,
    require_attempt,
    returned_none,
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


def _exp_of(value_cls: Any, v: Any) -> Any:
    """``v.exp()``; a placeholder is NotAttempted, a body without ``return`` a Mismatch."""
    try:
        e = v.exp()
    except NotImplementedError as err:
        raise NotAttempted from err
    if e is Ellipsis:
        raise NotAttempted
    if e is None:
        if has_placeholder_body(getattr(value_cls, "exp", None)):
            raise NotAttempted
        raise returned_none(value_cls.exp)
    return e


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-6 * max(1.0, abs(b))
