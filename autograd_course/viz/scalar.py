"""Draw a scalar engine of the micrograd kind, such as the ``Value`` learners build in
chapters 1-3: any object with ``data``, ``grad`` and ``_prev`` (the values it was made from),
and optionally ``_op`` (the name of the operation that made it).

A tensor keeps its history on its ``grad_fn`` node; such a value keeps it on itself. The graph
has the same shape, so :func:`value_model` turns it into the ``GraphModel`` that tensors give
and ``dot`` draws it the same way: one box per value (leaves blue, the roots green, the values
in between yellow), with its ``data`` and ``grad``, and one ellipse per operation between a
value and its inputs, titled with ``_op``. A value used twice (``a + a``) has two edges into
the operation, as a tensor used twice does.

The walk is breadth-first from the roots with an explicit queue, so the node ids (``n0``,
``n1``, ...) depend only on the graph: drawing the same graph twice gives the same DOT.
"""

from __future__ import annotations

from collections import deque

from ..tensor import Tensor
from .graph import (
    FUNCTION,
    INTERMEDIATE,
    LEAF,
    MORE,
    MORE_EDGE,
    OUTPUT,
    GraphModel,
    VizEdge,
    VizNode,
)
from .values import values_text
from .words import words


def is_scalar_value(obj) -> bool:
    """Does ``obj`` have the graph shape of a scalar engine's value (not a tensor)?"""
    return not isinstance(obj, Tensor) and all(hasattr(obj, a) for a in ("data", "grad", "_prev"))


def _names(params) -> dict:
    """id(value) -> name, from a dict or (name, value) pairs."""
    if params is None:
        return {}
    items = params.items() if hasattr(params, "items") else params
    return {id(v): str(name) for name, v in items}


def value_model(roots, params=None, max_nodes: int = 200, lang: str = "en") -> GraphModel:
    """The drawable model of the graph behind ``roots``, values with ``data``/``grad``/``_prev``.

    ``params`` names values (``dict(a=a, b=b)``); past ``max_nodes`` drawn nodes the rest is one
    summary node, as for tensors.
    """
    names = _names(params)
    nodes: list[VizNode] = []
    edges: list[VizEdge] = []
    drawn: dict = {}  # id(value) -> node id
    root_ids = {id(r) for r in roots}

    def add(kind: str, title: str, **kw) -> str:
        node = VizNode(id=f"n{len(nodes)}", kind=kind, title=title, **kw)
        nodes.append(node)
        return node.id

    def value_node(v) -> str:
        if id(v) not in drawn:
            kind = OUTPUT if id(v) in root_ids else (INTERMEDIATE if v._prev else LEAF)
            name = names.get(id(v))
            drawn[id(v)] = add(kind, name or "", named=name is not None,
                               data=values_text(float(v.data)), grad=values_text(float(v.grad)),
                               tensor=v)
        return drawn[id(v)]

    queue: deque = deque()
    for r in roots:
        value_node(r)
        queue.append(r)
    expanded: set = set()
    frontier: list = []  # values whose inputs were not drawn (past max_nodes)
    more: list = []  # the one summary node, once needed
    while queue:
        v = queue.popleft()
        if id(v) in expanded or not v._prev:
            continue
        expanded.add(id(v))
        if len(nodes) >= max_nodes:
            if not more:
                more.append(add(MORE, ""))
            edges.append(VizEdge(more[0], drawn[id(v)], MORE_EDGE))
            frontier.append(v)
            continue
        op = add(FUNCTION, str(getattr(v, "_op", "") or "?"))
        edges.append(VizEdge(op, drawn[id(v)]))
        for slot, child in enumerate(v._prev):
            edges.append(VizEdge(value_node(child), op, slot=slot))
            queue.append(child)
    model = GraphModel(nodes, edges, [drawn[id(r)] for r in roots], lang=lang)
    if more:
        model.hidden = _count_hidden(frontier, drawn)
        model.by_id()[more[0]].title = words(lang)["more_nodes"].format(count=model.hidden)
    return model


def _count_hidden(frontier: list, drawn: dict) -> int:
    """The operations and values below ``frontier`` that were not drawn (iteratively)."""
    seen: set = set()
    stack = list(frontier)
    count = 0
    while stack:
        v = stack.pop()
        if id(v) in seen:
            continue
        seen.add(id(v))
        if v._prev:
            count += 1  # its operation
        for child in v._prev:
            if id(child) not in drawn and id(child) not in seen:
                count += 1  # the value itself
                stack.append(child)
    return count


def value_text(model: GraphModel) -> str:
    """One line per drawn value, output first: its name, data and grad, and what made it."""
    by_id, inputs = model.by_id(), model.inputs()
    lines = []
    for node in model.nodes:
        if node.kind in (FUNCTION, MORE):
            continue
        line = f"{node.title or node.id}: data {node.data}, grad {node.grad}"
        made_by = [e.src for e in inputs[node.id] if by_id[e.src].kind == FUNCTION]
        if made_by:
            children = [by_id[e.src] for e in inputs[made_by[0]]]
            line += f"  <- {by_id[made_by[0]].title}(" + \
                ", ".join(c.title or c.id for c in children) + ")"
        lines.append(line)
    return "\n".join(lines)
