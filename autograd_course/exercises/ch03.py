"""Chapter 3 exercises: walk a graph to its leaves; predict the graph a loop builds."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._common import Mismatch, call_learner, checker, random_inputs, require_attempt


def _graphs():
    """Graphs with the traps a walk can fall into: shared leaves, constants, diamonds."""
    from .. import tensor

    def chain():
        a, b = random_inputs((3,), (3,))
        return ((a * b).exp() + a).sum(), [a, b]

    def diamond():
        (x,) = random_inputs((2,))
        h = x * 2
        return (h.sin() * h.cos()).sum(), [x]

    def with_constants():
        w, bias = random_inputs((3, 2), (2,))
        data = tensor(np.ones((4, 3)))  # no requires_grad: not a leaf of the graph
        return ((data @ w + bias) ** 2).mean(), [w, bias]

    def deep():
        (x,) = random_inputs((1,))
        y = x
        for _ in range(3000):  # too deep for a recursive walk
            y = y * 1.0001
        return y.sum(), [x]

    return [("a * b chain", chain), ("diamond (x used twice)", diamond),
            ("layer with constant data", with_constants), ("3000-step chain", deep)]


def _same_set(found: list, expected: list) -> str | None:
    ids = [id(t) for t in found]
    if len(ids) != len(set(ids)):
        return "you returned the same leaf more than once: remember which nodes you visited"
    want = {id(t) for t in expected}
    if set(ids) - want:
        return "you returned a tensor that is not a leaf requiring grad"
    if want - set(ids):
        return f"you missed {len(want - set(ids))} leaf/leaves: follow every entry of " \
               "next_functions, not just the first"
    return None


@checker
def check_find_leaves(find_leaves: Any) -> None:
    """Exercise 3.1: ``find_leaves(t)`` returns each leaf tensor t depends on, once."""
    require_attempt(find_leaves)
    from ..autograd.function import Node
    from ..tensor import Tensor

    for description, build in _graphs():
        root, leaves = build()
        try:
            found = call_learner(find_leaves, root)
        except RecursionError as e:
            raise Mismatch(f"{description}: RecursionError; walk with an explicit stack "
                           "(a list you append to and pop from) instead of recursion") from e
        found = list(found)
        if any(isinstance(t, Node) for t in found):
            raise Mismatch("you returned graph nodes; the leaf tensor of an AccumulateGrad "
                           "node is node.variable")
        if not all(isinstance(t, Tensor) for t in found):
            raise Mismatch("return a list of tensors (the leaves)")
        problem = _same_set(found, leaves)
        if problem:
            raise Mismatch(f"{description}: {problem}")


def _loop(x):
    y = x
    while y.sum() < 100:
        y = y * 2
    return y


LOOP_X = [1.0, 2.0]


@checker
def check_loop_graph(n_mul_nodes: Any, x_grad: Any) -> None:
    """Exercise 3.2: how many MulBackward0 nodes does the loop record for x = [1., 2.], and
    what is x.grad after ``y.sum().backward()``?"""
    require_attempt(n_mul_nodes)
    require_attempt(x_grad)
    from .. import tensor
    from ._common import compare_tensors

    x = tensor(LOOP_X, requires_grad=True)
    y = _loop(x)
    n = 0
    node = y.grad_fn
    while node is not None and node.name() == "MulBackward0":
        n += 1
        node = node.next_functions[0][0]
    y.sum().backward()
    if not isinstance(n_mul_nodes, (int, np.integer)) or isinstance(n_mul_nodes, bool):
        raise Mismatch("n_mul_nodes should be a whole number")
    if n_mul_nodes != n:
        direction = "few" if n_mul_nodes < n else "many"
        raise Mismatch(f"too {direction} nodes: the loop keeps doubling while y.sum() < 100; "
                       "count the doublings (one MulBackward0 each)")
    compare_tensors(x_grad, x.grad, "your x.grad")
