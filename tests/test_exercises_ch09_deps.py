"""Exercise 9.2: ``count_dependencies(t)``, the number of edges pointing at every node below
``t.grad_fn``. Two different correct solutions pass; the usual mistakes get their own hint."""

from __future__ import annotations

from collections import Counter, deque

from exercise_helpers import assert_correct, assert_hint, assert_not_attempted

import autograd_course as ag
from autograd_course.autograd import engine
from autograd_course.course.exercises import ch09

HINTS = {  # a fixed part of each hint (the catalogue's English)
    "ch09.deps.recursion": "RecursionError on a chain of 3000 nodes",
    "ch09.deps.none_edge": "your dict has None as a key",
    "ch09.deps.root": "no edge of the graph points at the node you start from",
    "ch09.deps.missing": "follow next_functions all the way down",
    "ch09.deps.type": "return a dict {node: number of edges pointing at it}",
    "ch09.deps.revisit": "count them once, the first time",
    "ch09.deps.parents": "you counted the nodes that point at it, not the edges",
}


def _hint(key: str) -> str:
    return HINTS[key]


def stack_walk(t):
    """The chapter's solution: an explicit stack, each node's edges counted once."""
    counts, seen, stack = {}, {t.grad_fn}, [t.grad_fn]
    while stack:
        for nxt, _ in stack.pop().next_functions:
            if nxt is None:
                continue
            counts[nxt] = counts.get(nxt, 0) + 1
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return counts


def breadth_first(t):
    """A second solution: breadth first, a Counter over the edges of every node found."""
    found, queue = [t.grad_fn], deque([t.grad_fn])
    known = {t.grad_fn}
    while queue:
        for nxt, _ in queue.popleft().next_functions:
            if nxt is not None and nxt not in known:
                known.add(nxt)
                found.append(nxt)
                queue.append(nxt)
    counts = Counter(nxt for node in found for nxt, _ in node.next_functions if nxt is not None)
    return {node: counts[node] for node in found if node is not t.grad_fn}


def test_two_correct_solutions_are_accepted(capsys):
    assert_correct(capsys, ch09.check_count_dependencies, stack_walk)
    assert_correct(capsys, ch09.check_count_dependencies, breadth_first)


def test_the_root_may_be_counted_zero(capsys):
    assert_correct(capsys, ch09.check_count_dependencies,
                   lambda t: {**stack_walk(t), t.grad_fn: 0})


def test_counting_parents_instead_of_edges_is_refused(capsys):
    def parents(t):
        counts, seen, stack = {}, {t.grad_fn}, [t.grad_fn]
        while stack:
            for nxt in {nxt for nxt, _ in stack.pop().next_functions if nxt is not None}:
                counts[nxt] = counts.get(nxt, 0) + 1
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        return counts
    assert_hint(capsys, ch09.check_count_dependencies, parents, _hint("ch09.deps.parents"))


def test_counting_a_node_each_time_it_is_reached_is_refused(capsys):
    def revisits(t):
        counts, stack = {}, [t.grad_fn]
        while stack:
            for nxt, _ in stack.pop().next_functions:
                if nxt is not None:
                    counts[nxt] = counts.get(nxt, 0) + 1
                    stack.append(nxt)  # no "seen": a shared node's edges are counted again
        return counts
    assert_hint(capsys, ch09.check_count_dependencies, revisits, _hint("ch09.deps.revisit"))


def test_recursion_none_edges_root_and_missing_nodes_get_their_hints(capsys):
    def recursive(t):
        counts = {}

        def visit(node):
            for nxt, _ in node.next_functions:
                if nxt is not None:
                    first = nxt not in counts
                    counts[nxt] = counts.get(nxt, 0) + 1
                    if first:
                        visit(nxt)
        visit(t.grad_fn)
        return counts

    def with_none(t):
        counts, seen, stack = {}, {t.grad_fn}, [t.grad_fn]
        while stack:
            for nxt, _ in stack.pop().next_functions:
                counts[nxt] = counts.get(nxt, 0) + 1
                if nxt is not None and nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        return counts

    def only_first_level(t):
        return {nxt: 1 for nxt, _ in t.grad_fn.next_functions if nxt is not None}

    assert_hint(capsys, ch09.check_count_dependencies, recursive, _hint("ch09.deps.recursion"))
    assert_hint(capsys, ch09.check_count_dependencies, with_none, _hint("ch09.deps.none_edge"))
    assert_hint(capsys, ch09.check_count_dependencies,
                lambda t: {**stack_walk(t), t.grad_fn: 1}, _hint("ch09.deps.root"))
    assert_hint(capsys, ch09.check_count_dependencies, only_first_level,
                _hint("ch09.deps.missing"))
    assert_hint(capsys, ch09.check_count_dependencies, lambda t: list(stack_walk(t)),
                _hint("ch09.deps.type"))


def test_the_placeholder_is_not_attempted(capsys):
    def count_dependencies(t):
        raise NotImplementedError
    assert_not_attempted(capsys, ch09.check_count_dependencies, count_dependencies)


def test_the_counts_are_the_engines():
    """The checker's answer is what the engine itself counts (its GraphRoot adds the root's 1)."""
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    h = x.exp()
    L = (h * 2 + h.sin() + x * x).sum()
    counts = engine._count_dependencies(engine.GraphRoot((L,)))
    assert {n: c for n, c in counts.items() if n is not L.grad_fn} == stack_walk(L)
    assert counts[L.grad_fn] == 1
