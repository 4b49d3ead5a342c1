"""PyTorch's names for what a built-in node saved: ``_saved_self``, ``_saved_result``, ...

PyTorch's built-in nodes have no ``saved_tensors`` (only a custom ``Function``'s ctx has it).
Each shows what it saved under the name its derivative formula gives it: ``MulBackward0``
has ``_saved_self`` and ``_saved_other``, ``ExpBackward0`` has ``_saved_result`` (its own
output), ``MmBackward0`` has ``_saved_self`` and ``_saved_mat2``. A built-in op declares these
names in the order it hands tensors to ``save_for_backward``::

    class Mul(Function):
        node_name = "MulBackward0"
        saved_names = ("self", "other")

and each name becomes two read-only properties of its node: ``_saved_<name>``, the tensor
(read like ``saved_tensors``: ``None`` where the op did not need it, PyTorch's error once
backward has freed it), and ``_raw_saved_<name>``, its ``SavedTensor`` record (saved_tensor.py).
"""

from __future__ import annotations

import functools

from . import saved_tensor


def node_properties(function_cls) -> dict:
    """``{"_saved_self": property, "_raw_saved_self": property, ...}`` for a Function's node."""
    properties = {}
    for position, name in enumerate(getattr(function_cls, "saved_names", ())):
        if name is not None:  # None: a saved tensor PyTorch does not keep under any name
            properties["_saved_" + name] = property(functools.partial(_saved, position))
            properties["_raw_saved_" + name] = property(functools.partial(_raw_saved, position))
    return properties


def _saved(position: int, node):
    return node.saved_tensors[position]


def _raw_saved(position: int, node):
    return saved_tensor.raw(node, position) if node.saved else None
