"""The graph as an indented text tree: for terminals, and for machines without Graphviz.

Read it like the engine walks: from the output down to the leaves::

    SubBackward0
    ├── MulBackward0
    │   ├── PowBackward0
    │   │   └── AccumulateGrad  a  [2]  requires_grad
    │   └── constant  scalar  no grad  = 3
    └── PowBackward0
        └── AccumulateGrad  b  [2]  requires_grad

A node reached a second time (a shared subgraph) is printed once; later it says
``(shown above)``. The tree is printed with an explicit stack, never by recursion.
Its words follow the model's language (``words.py``).
"""

from __future__ import annotations

from .graph import (
    DATA,
    FROZEN,
    FUNCTION,
    INTERMEDIATE,
    LEAF,
    MORE,
    OUTPUT,
    SAVED_EDGE,
    GraphModel,
    build_model,
)
from .words import words

_TENSOR_WITH_PRODUCER = (OUTPUT, INTERMEDIATE)


def _shape(node, w: dict) -> str:
    return w["scalar"] if node.shape == "scalar" else node.shape


def _tensor_line(node, w: dict) -> str:
    if node.kind == LEAF:
        return f"AccumulateGrad  {node.title}  {_shape(node, w)}  {w['requires_grad']}"
    parts = [node.title, _shape(node, w)]
    if node.kind == FROZEN:
        parts.append(w["no_grad"])
    if node.data is not None:
        parts.append(f"= {node.data}")
    return "  ".join(p for p in parts if p)


def model_text(model: GraphModel) -> str:
    """The text tree of a model built by ``graph.build_model``."""
    nodes = model.by_id()
    inputs = model.inputs()
    w = words(model.lang)

    def producer(node_id: str):
        """A root/intermediate tensor is printed on its producer's line: that producer."""
        node = nodes[node_id]
        if node.kind in _TENSOR_WITH_PRODUCER:
            for e in inputs[node_id]:
                if e.kind == DATA:
                    return e.src
        return None

    lines: list[str] = []
    printed: set[str] = set()
    for root in model.roots:
        stack = [(root, "", "")]  # (node id, prefix of its line, prefix of its children)
        while stack:
            node_id, prefix, child_prefix = stack.pop()
            annotation = ""
            made_by = producer(node_id)
            if made_by is not None:
                tensor = nodes[node_id]
                if tensor.named or tensor.kind == INTERMEDIATE:
                    annotation = f"  → {tensor.title}  {_shape(tensor, w)}"
                node_id = made_by
            node = nodes[node_id]
            text = node.title if node.kind in (FUNCTION, MORE) else _tensor_line(node, w)
            children = [e.src for e in inputs[node_id] if e.kind != SAVED_EDGE]
            if node_id in printed and children:
                lines.append(f"{prefix}{text}{annotation}  {w['shown_above']}")
                continue
            printed.add(node_id)
            lines.append(f"{prefix}{text}{annotation}")
            for k in range(len(children) - 1, -1, -1):
                last = k == len(children) - 1
                stack.append((children[k], child_prefix + ("└── " if last else "├── "),
                              child_prefix + ("    " if last else "│   ")))
    return "\n".join(lines)


def graph_text(*roots, params=None, max_nodes: int = 200, lang: str | None = None) -> str:
    """The graph behind ``roots`` as an indented text tree (output first, leaves last).

    ``params`` names tensors, like ``draw_graph``'s; past ``max_nodes`` nodes the rest is one
    ``… N more nodes`` line. ``lang``: ``"en"`` or ``"zh"`` (default: the default language).
    """
    return model_text(build_model(roots, params=params, max_nodes=max_nodes, lang=lang))
