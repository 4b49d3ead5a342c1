"""Exercise 3.1's guard against a walk with no visited set: every node of the learner's graph
counts how often ``next_functions`` is read, and a walk that reads it far more often than the
graph has nodes is stopped (``y = y + y`` repeated 18 times would take 524,287 visits)."""

from __future__ import annotations

import functools
from typing import Any

VISITS_PER_NODE = 20  # reads of next_functions a walk may make per node before it is stopped


class TooManyVisits(BaseException):
    """Stops a walk that reads ``next_functions`` far more often than the graph has nodes (a
    BaseException, so that the learner's ``except Exception`` does not swallow it)."""


class _CountedEdges(tuple):
    """A node's ``next_functions`` that counts how often a walk reads it, in ``visits`` (a list
    shared by all the nodes of a graph: [reads so far, limit])."""

    visits: list

    def __iter__(self) -> Any:
        self._read()
        return super().__iter__()

    def __getitem__(self, index: Any) -> Any:
        self._read()
        return super().__getitem__(index)

    def _read(self) -> None:
        self.visits[0] += 1
        if self.visits[0] > self.visits[1]:
            raise TooManyVisits


def count_visits(root: Any) -> int:
    """Make every node below ``root`` count the reads of its ``next_functions``; the number
    of nodes."""
    nodes, stack = {root.grad_fn}, [root.grad_fn]
    while stack:
        for node, _ in stack.pop().next_functions:
            if node is not None and node not in nodes:
                nodes.add(node)
                stack.append(node)
    visits = [0, VISITS_PER_NODE * len(nodes)]
    for node in nodes:  # (next_functions is built when read: the node's class counts reads)
        node.__class__, node.edge_visits = _counting(type(node)), visits
    return len(nodes)


@functools.cache
def _counting(node_class: type) -> type:
    """A subclass of ``node_class`` (with its name) whose ``next_functions`` counts reads."""

    def next_functions(node: Any) -> _CountedEdges:
        edges = _CountedEdges(node_class.next_functions.fget(node))
        edges.visits = node.edge_visits
        return edges

    return type(node_class.__name__, (node_class,), {"next_functions": property(next_functions),
                                                     "__qualname__": node_class.__qualname__})
