"""What the graph keeps about a node's inputs that need no gradient, read without unpacking.

A grad-less input is a ``(None, 0)`` edge: the node keeps only its shape and dtype
(``node.input_info``). These helpers find more where the graph holds it: a tensor the node saved
for backward that must be that input, a named tensor it is a view of, or the number an
``Add``/``Sub`` kept (``node.number``, their second input).
"""

from __future__ import annotations

from ..autograd import saved_tensor
from .values import shape_text


def key_of(t):
    """What identifies a drawn tensor: (its grad_fn, output number), or the leaf itself."""
    return (t.grad_fn, t._output_nr) if t.grad_fn is not None else ("leaf", id(t))


def saved_entries(fn) -> list:
    """(key, tensor or None, array) for each tensor ``fn`` saved, read without unpacking.

    Unpacking would check versions and rebuild tensors; the viewer only looks.
    """
    entries = []
    for i, kind in enumerate(getattr(fn, "saved_kinds", ()) if getattr(fn, "saved", None)
                             else ()):
        kept = fn.saved[i]
        if kind == "number":  # a Python number's 0-d array: the tensor it is read back as
            kept, kind = saved_tensor.unpack(fn, i), "leaf"
        if kind is None:
            continue  # a saved None
        if kind == "result":  # the node's own output, kept as its array
            entries.append(((fn, 0), None, kept))
        elif kind != "record":  # an input, kept as it is
            entries.append((key_of(kept), kept, kept._data))
        elif not kept.is_output:
            entries.append((key_of(kept.tensor), kept.tensor, kept.tensor._data))
        else:
            entries.append(((fn, kept.output_nr), None, kept.array))
    return entries


def shares_memory(a, b) -> bool:
    """Whether two tensors' arrays may overlap in memory (one is a view of the other)."""
    xa, xb = a._data, b._data
    if xa is xb:
        return True
    if type(xa) is not type(xb):
        return False
    may_share = getattr(a._xp, "may_share_memory", None)
    return bool(may_share(xa, xb)) if may_share is not None else False


def used_as(tensor, meta, words: dict | None = None) -> str:
    """A note when a named input entered the node reshaped (e.g. ``used as [1, 5]``), in the
    language of ``words`` (a table of viz/words.py; default English)."""
    shape = tuple(meta[0])
    if tuple(tensor._data.shape) == shape:
        return ""
    text = shape_text(shape)
    if words is None:
        return f"used as {text}"
    return words["used_as"].format(shape=words["scalar"] if text == "scalar" else text)


def constant_value(fn, i: int):
    """The value of grad-less input ``i`` when the node kept it (``fn.number``: the 0-d array
    of a number like the 2 in ``x + 2``, always input 1), else None."""
    return getattr(fn, "number", None) if i == 1 else None


def match_frozen_inputs(next_functions, metas, saved) -> dict:
    """Input index -> the saved tensor that must be that grad-less input, when unambiguous."""
    candidates = [t for _, t, _ in saved if t is not None and t.grad_fn is None
                  and not t.requires_grad]
    found = {}
    slots = [i for i, (nxt, _) in enumerate(next_functions) if nxt is None and i < len(metas)]
    for i in slots:
        shape, dtype = metas[i]
        same_slots = [j for j in slots if metas[j] == metas[i]]
        matches = [t for t in candidates if t.shape == shape and t._data.dtype == dtype]
        if len(same_slots) == 1 and len(matches) == 1:
            found[i] = matches[0]
    return found
