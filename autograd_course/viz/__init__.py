"""See the autograd graph: draw it, print it, and watch the backward pass run through it.

* ``draw_graph(loss)``: the graph as a picture (a ``graphviz.Digraph`` that shows as PNG in
  Jupyter): tensors with their name, shape, dtype and small values/grads, the ``grad_fn``
  nodes between them, colours for each kind of tensor, and a legend.
* ``graph_text(loss)``: the same graph as an indented text tree.
* ``backward_steps(loss)`` / ``animate_backward(loss)``: the engine's real backward pass, one
  frame per node it runs, showing the gradients flowing out of each node.

``draw_graph`` also draws a scalar engine of the micrograd kind (the ``Value`` of chapters 1-3):
any object with ``data``, ``grad``, ``_prev`` and ``_op`` has the same graph shape (``scalar``).

Each takes ``lang="en"`` or ``lang="zh"`` for the words it draws (``words``: one table per
language); by default English, or the notebook's language once the course layer is imported
(``words.use_default_language``: a chapter under ``notebooks/zh/`` is Chinese).

Layers: ``graph`` walks the graph into a model (iteratively; ``inputs`` identifies the inputs
that need no gradient, ``values`` writes numbers and shapes), ``dot`` draws the model,
``text`` prints it, ``steps`` records the backward pass, ``display`` decides what Jupyter
shows (and what happens when Graphviz's ``dot`` program is missing).
"""

from __future__ import annotations

from . import wasm
from .display import INSTALL_HINT, GraphView
from .dot import to_graph_view
from .graph import build_model
from .recorder import GradientRecorder, progress
from .scalar import is_scalar_value, value_model, value_text
from .steps import (
    BackwardAnimation,
    BackwardFrame,
    BackwardStrip,
    animate_backward,
    backward_steps,
)
from .text import graph_text, model_text
from .words import drawing_language

# In the browser (the static site) start loading the WASM Graphviz now, so that it is ready
# when the cell that imported the package ends; elsewhere this does nothing.
wasm.start()


def draw_graph(*roots, params=None, show_data: bool = True, show_grad: bool = True,
               show_saved: bool = False, direction: str = "forward", rankdir: str | None = None,
               max_nodes: int = 200, title: str | None = None,
               legend: bool = True, lang: str | None = None) -> GraphView:
    """Draw the graph that produced ``roots`` (one or more tensors).

    Args:
        params: names for tensors, e.g. ``dict(w=w, b=b)`` or ``model.named_parameters()``
            (a tensor's own ``.name`` is used too). Naming a non-leaf tensor puts it into
            the picture between the node that made it and the nodes that use it.
        show_data / show_grad: print the values / ``.grad`` of tensors with at most 6
            elements.
        show_saved: also draw what each node saved for backward (dashed orange edges).
        direction: ``"forward"`` draws data flow, leaves -> output; ``"backward"`` draws
            the engine's direction, output -> leaves (the layout stays the same way up).
        rankdir: Graphviz's ``TB``/``BT``/``LR``/``RL`` (default: leaves at the top).
        max_nodes: draw at most this many nodes; the rest becomes one "… N more nodes".
        title: a heading above the picture.
        legend: show the colour legend.
        lang: ``"en"`` or ``"zh"``, the language of every word drawn (legend, titles such as
            "constant", the "data"/"grad" lines; Chinese is drawn in Noto Sans CJK SC).
            Default: ``words.use_default_language``'s (the course layer: the notebook's).

    Returns a ``GraphView``: ``.source`` is the DOT text (the same for the same graph),
    ``.text`` the text tree, and Jupyter shows it as PNG.

    The roots may instead be values of a scalar engine, objects with ``data``, ``grad``,
    ``_prev`` (the values each was made from) and ``_op`` (the operation's name), such as the
    ``Value`` of chapters 1-3: each value is a box with its data and grad, each operation an
    ellipse; ``params`` names values; the legend (about tensors) is left out.
    """
    if roots and all(is_scalar_value(r) for r in roots):
        model = value_model(roots, params=params, max_nodes=max_nodes,
                            lang=drawing_language(lang))
        return to_graph_view(model, direction=direction, rankdir=rankdir, title=title,
                             show_data=show_data, show_grad=show_grad, legend=False,
                             text=value_text(model))
    model = build_model(roots, params=params, show_saved=show_saved, max_nodes=max_nodes,
                        lang=drawing_language(lang))
    return to_graph_view(model, direction=direction, rankdir=rankdir, title=title,
                         show_data=show_data, show_grad=show_grad, legend=legend,
                         text=model_text(model))


__all__ = [
    "draw_graph", "graph_text", "backward_steps", "animate_backward", "GraphView",
    "BackwardFrame", "BackwardAnimation", "BackwardStrip", "INSTALL_HINT",
    "GradientRecorder", "progress",
]
