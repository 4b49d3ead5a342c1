"""The arguments of ``backward`` and ``grad``, checked as PyTorch checks them.

The outputs to start from and the gradient given for each (``roots``; a one-element output
gets an implicit gradient of one), and the ``inputs`` to stop at: tensors, or
``GradientEdge``\\ s (``autograd.graph.get_gradient_edge``) that name a place in the graph.
"""

from __future__ import annotations

import math

from .. import _messages
from ..tensor_base import TensorBase
from .graph import GradientEdge
from .node import gradient_edge

MATERIALIZE_NOT_UNUSED = ("Expected allow_unused to be True or not passed when "
                          "materialize_grads=True, but got: allow_unused=False.")


def roots(tensors, grads) -> tuple:
    """Check the outputs (tensors, or ``GradientEdge``\\ s: a place in the graph) and the
    gradients given for them; make the implicit ones."""
    tensors = (tensors,) if isinstance(tensors, (TensorBase, GradientEdge)) else tuple(tensors)
    for t in tensors:
        if not isinstance(t, (TensorBase, GradientEdge)):
            raise AssertionError("Expected output to be a torch.Tensor")
    if grads is None or isinstance(grads, TensorBase):
        grads = (grads,) * len(tensors) if grads is None else (grads,)
    grads = tuple(grads)
    if len(grads) < len(tensors) and all(isinstance(g, TensorBase) or g is None for g in grads):
        raise RuntimeError(f"got {len(tensors)} tensors and {len(grads)} gradients")
    made = []
    for i, (t, g) in enumerate(zip(tensors, grads)):  # extra gradients are ignored, as there
        if isinstance(t, TensorBase) and not t.requires_grad:
            raise RuntimeError(_messages.no_grad_fn(i))
        shape, dtype = shape_and_dtype(t)
        if g is None:
            if math.prod(shape) != 1:
                raise RuntimeError(_messages.IMPLICIT_GRAD)
            g = _ones(t, shape, dtype)
        elif not isinstance(g, TensorBase):
            kind = type(g[0] if isinstance(g, (list, tuple)) and g else g).__name__
            raise TypeError(f"gradients can be either Tensors or None, but got {kind}")
        elif g._data.shape != shape:
            raise RuntimeError(_messages.shape_mismatch(i, g.shape, type(g.shape)(shape)))
        elif g._data.dtype != dtype:
            g = g.to(dtype)
        made.append(g)
    return tensors, made


def shape_and_dtype(output) -> tuple:
    """A tensor's shape and dtype; for a ``GradientEdge``, those its node recorded for it."""
    if isinstance(output, GradientEdge):
        return output.node.output_info[output.output_nr]
    return output._data.shape, output._data.dtype


def _ones(output, shape, dtype):
    """The implicit starting gradient: ones shaped as the output. A tensor is made only from
    another tensor here, and a ``GradientEdge`` holds none: its gradient must be given."""
    if isinstance(output, TensorBase):
        return output._new(output._xp.ones(shape, dtype=dtype))
    raise RuntimeError(_messages.EDGE_ROOT_NEEDS_GRAD)


def inputs(given, where: str) -> tuple:
    """``inputs`` as a tuple of tensors and gradient edges; none may be missing."""
    given = (given,) if isinstance(given, (TensorBase, GradientEdge)) else tuple(given)
    if not given:
        raise RuntimeError(f"`inputs` argument to `{where}()` cannot be empty.")
    for t in given:
        if isinstance(t, GradientEdge):
            continue
        if not isinstance(t, TensorBase):
            kind = type(t)
            name = kind.__name__ if kind.__module__ == "builtins" else (
                f"{kind.__module__}.{kind.__name__}")
            raise RuntimeError(f"all inputs have to be Tensors or GradientEdges, but got {name}")
        if not t.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    return given


def edge(t) -> tuple:
    """Where the gradient for an input arrives: ``(node, input_nr)``."""
    return (t.node, t.output_nr) if isinstance(t, GradientEdge) else gradient_edge(t)


def zeros_for(t, create_graph: bool):
    """``materialize_grads``: zeros for an input no gradient reached (a tensor, not an edge)."""
    if isinstance(t, GradientEdge):
        raise RuntimeError("materialize_grads cannot be used when the given input is a "
                           "GradientEdge")
    zeros = t._new(t._xp.zeros(t._data.shape, dtype=t._data.dtype))
    return zeros.requires_grad_(create_graph)
