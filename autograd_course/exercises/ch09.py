"""Chapter 9 exercises: order a graph for the backward pass; add an operation to ``Value``."""

from __future__ import annotations

import math
from typing import Any

from ._common import Mismatch, NotAttempted, call_learner, checker, random_inputs, require_attempt


def _graphs():
    """Graphs whose order matters: a diamond, a shared leaf, a 3000-step chain."""

    def diamond():
        (x,) = random_inputs((2,))
        h = x.exp()
        return (h * 2 + h.sin()).sum()

    def shared():
        a, b = random_inputs((3,), (3,))
        c = a * b
        return (c * a + c.exp() * b).sum()

    def deep():
        (x,) = random_inputs((1,))
        y = x
        for _ in range(3000):
            y = y * 1.0001
        return y.sum()

    return [("diamond", diamond), ("shared leaves", shared), ("3000-step chain", deep)]


def _reachable(root_node) -> set:
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
    for description, build in _graphs():
        root = build()
        try:
            order = call_learner(topo_order, root)
        except RecursionError as e:
            raise Mismatch(f"{description}: RecursionError; use an explicit stack or queue "
                           "instead of recursion") from e
        order = list(order)
        nodes = _reachable(root.grad_fn)
        if len({id(n) for n in order}) != len(order):
            raise Mismatch(f"{description}: a node appears more than once in your order")
        if set(order) != nodes:
            missing, extra = len(nodes - set(order)), len(set(order) - nodes)
            raise Mismatch(f"{description}: {missing} reachable node(s) missing and {extra} "
                           "unexpected item(s); list grad_fn nodes, AccumulateGrad included")
        position = {n: i for i, n in enumerate(order)}
        for node in order:
            for nxt, _ in node.next_functions:
                if nxt is not None and position[nxt] < position[node]:
                    raise Mismatch(
                        f"{description}: {nxt.name()} comes before {node.name()}, which sends "
                        f"it a gradient; a node may run only after everything that feeds it. "
                        "Hint: count each node's incoming edges first (Kahn's algorithm)")


@checker
def check_value_exp(value_cls: Any) -> None:
    """Exercise 9.2: a ``Value`` subclass whose ``exp()`` records its local derivative.

    Uses the chapter's ``Value`` interface: ``Value(data)``, ``.data``, ``.grad``, ``+``,
    ``*`` and ``.backward()``.
    """
    require_attempt(value_cls)
    import random

    for _ in range(3):
        x0 = random.uniform(-1.5, 1.5)
        v = value_cls(x0)
        try:
            e = v.exp()
        except NotImplementedError as err:
            raise NotAttempted from err
        if e is None or e is Ellipsis:
            raise NotAttempted
        if abs(e.data - math.exp(x0)) > 1e-9 * max(1.0, math.exp(x0)):
            raise Mismatch(f"exp() computes the wrong value: got {e.data:.6g} for x = {x0:.4g}, "
                           f"expected {math.exp(x0):.6g}")
        out = e * v + e  # uses e twice: gradients must be added, not overwritten
        out.backward()
        expected = math.exp(x0) * (x0 + 2)  # d/dx (x e^x + e^x)
        if not _close(v.grad, expected):
            ex = math.exp(x0)
            if _close(v.grad, ex * (x0 + 1)) or _close(v.grad, ex):
                raise Mismatch("the gradient of a value used twice must be added up: use "
                               "`self.grad += ...` in your _backward, not `=`")
            if _close(v.grad, ex + x0 + 1) or _close(v.grad, x0 + 1):
                raise Mismatch("your _backward forgot the local derivative: d/dx e^x = e^x, so "
                               "multiply out.grad by out.data")
            raise Mismatch(f"x.grad is {v.grad:.6g} for out = x*exp(x) + exp(x) at x = {x0:.4g}; "
                           f"expected {expected:.6g}")


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-6 * max(1.0, abs(b))
