"""Walk an autograd graph once, without recursion, into a plain list of nodes and edges.

Everything the viewer draws or prints comes from this model, so the picture, the text tree and
the backward step-through agree. What can be shown follows from what the graph keeps:

* ``tensor.grad_fn`` leads to the node that made a tensor; each node's ``next_functions``
  leads to the nodes that made its inputs, down to ``AccumulateGrad`` at the leaves that
  require grad (drawn as the leaf tensor itself, ``AccumulateGrad.variable``).
* An input that needs no gradient is a ``(None, 0)`` edge: only its shape and dtype are
  recorded (``node.input_info``). When the node saved exactly one grad-less tensor of that
  shape and dtype for backward, that tensor is the input, and its name and values are shown.
* Nodes keep no reference to the tensors they produced, so intermediate tensors appear only
  when they are roots, are passed in ``params`` (``dict(z=z)``), or were saved for backward
  (``show_saved``). torchviz has the same limits.

The walk is breadth-first from the roots with an explicit queue, so node ids (``n0``, ``n1``,
...) and the edge order depend only on the graph: the same graph gives the same model twice.
After ``max_nodes`` nodes the rest is counted (still iteratively) and drawn as one summary node.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

import numpy as np

from ..autograd.node import AccumulateGrad, gradient_edge
from ..tensor import Tensor
from .inputs import (
    constant_value,
    key_of,
    match_frozen_inputs,
    saved_entries,
    shares_memory,
    used_as,
)
from .values import (  # noqa: F401 (SMALL, grad_text: re-exported for the other modules)
    SMALL,
    dtype_text,
    grad_text,
    node_name,
    shape_text,
    values_text,
)
from .words import resolve, words

# Kinds of drawn node (each has its own colour in dot.py)
OUTPUT = "output"  # a root tensor passed to draw_graph
LEAF = "leaf"  # a leaf tensor that requires grad (its AccumulateGrad node)
FROZEN = "frozen"  # a tensor that needs no gradient
INTERMEDIATE = "intermediate"  # a non-leaf tensor named in params
SAVED = "saved"  # a tensor a node saved for backward (show_saved=True)
FUNCTION = "function"  # a grad_fn node: MulBackward0, ...
MORE = "more"  # the summary node standing for everything past max_nodes

# Kinds of edge. "data" edges carry gradients (in the backward direction).
DATA, NOGRAD, SAVED_EDGE, MORE_EDGE = "data", "nograd", "saved", "more"



@dataclass(eq=False)
class VizNode:
    id: str
    kind: str
    title: str
    shape: str = ""  # "[2]", "scalar"
    dtype: str = ""  # "float32"
    named: bool = False  # title is the user's name for the tensor (params or tensor.name)
    data: str | None = None  # compact values of a small tensor
    grad: str | None = None  # compact .grad of a small tensor
    note: str = ""  # small extra line: "AccumulateGrad", "saved tensors freed"...
    fn: object = None  # the autograd node run for this drawn node (frames highlight it)
    tensor: object = None  # the tensor shown (kept alive while the model exists)


@dataclass(eq=False)
class VizEdge:
    src: str  # data flows src -> dst (the forward direction)
    dst: str
    kind: str = DATA
    consumer: object = None  # the autograd node that takes src as input number `slot`
    slot: int = -1
    producer: object = None  # for the edge into a root/intermediate: the node that made it
    output_nr: int = 0


@dataclass
class GraphModel:
    nodes: list[VizNode]
    edges: list[VizEdge]
    roots: list[str]
    hidden: int = 0  # nodes folded into the summary node
    node_of_fn: dict = field(default_factory=dict)  # autograd node -> drawn node id
    lang: str = "en"  # the language of the words in titles and notes (viz/words.py)

    def by_id(self) -> dict[str, VizNode]:
        return {n.id: n for n in self.nodes}

    def inputs(self) -> dict[str, list[VizEdge]]:
        """Edges into each node, in a fixed order (the order of the node's inputs)."""
        result: dict[str, list[VizEdge]] = {n.id: [] for n in self.nodes}
        for e in self.edges:
            result[e.dst].append(e)
        return result


def _names(params) -> dict:
    """id(tensor) -> (name, tensor) from a dict or (name, tensor) pairs."""
    if params is None:
        return {}
    items = params.items() if hasattr(params, "items") else params
    return {id(t): (str(name), t) for name, t in items}


# --- the walk -----------------------------------------------------------------------------
class _Builder:
    def __init__(self, roots, params, show_saved: bool, max_nodes: int, lang: str) -> None:
        self.lang, self.words = lang, words(lang)
        self.names = _names(params)
        self.show_saved = show_saved
        self.max_nodes = max(1, int(max_nodes))
        self.nodes: list[VizNode] = []
        self.edges: list[VizEdge] = []
        self.tensor_ids: dict = {}  # tensor key -> node id
        self.node_of_fn: dict = {}  # autograd node -> node id
        self.edge_seen: set = set()
        self.queue: deque = deque()
        self.hidden_frontier: list = []  # autograd nodes reached but not drawn
        self.hidden_extra = 0  # grad-less inputs not drawn
        self.unknown: list = []  # (node id, (shape, dtype)) of grad-less inputs not held
        self.more_id: str | None = None
        self.roots = list(roots)
        # roots and named non-leaf tensors: consumers are linked through them
        self.known_outputs: dict = {}
        for t in self.roots + [t for _, t in self.names.values()]:
            if getattr(t, "grad_fn", None) is not None:
                self.known_outputs.setdefault((t.grad_fn, t._output_nr), t)

    # names and keys
    def name_of(self, t) -> str | None:
        hit = self.names.get(id(t))
        if hit is not None and hit[1] is t:
            return hit[0]
        return getattr(t, "name", None)

    key_of = staticmethod(key_of)

    def full(self) -> bool:
        return len(self.nodes) >= self.max_nodes

    def add_node(self, kind: str, title: str, **kw) -> str:
        node = VizNode(id=f"n{len(self.nodes)}", kind=kind, title=title, **kw)
        self.nodes.append(node)
        return node.id

    def add_edge(self, src: str, dst: str, kind: str = DATA, **kw) -> None:
        key = (src, dst, kind, kw.get("slot", -1))
        if key in self.edge_seen:
            return
        self.edge_seen.add(key)
        self.edges.append(VizEdge(src, dst, kind, **kw))

    def tensor_node(self, t, kind: str, title: str | None = None, note: str = "") -> str:
        key = self.key_of(t)
        if key in self.tensor_ids:
            return self.tensor_ids[key]
        data = t._data
        name = self.name_of(t)
        nid = self.add_node(
            kind,
            name or title or self.words["tensor"],
            named=name is not None,
            shape=shape_text(data.shape),
            dtype=dtype_text(data.dtype),
            data=values_text(data),
            grad=values_text(t._grad._data) if t._grad is not None else None,
            note=note,
            tensor=t,
        )
        self.tensor_ids[key] = nid
        return nid

    def fn_node(self, fn) -> str | None:
        """The drawn node for autograd node ``fn`` (queued for the walk when new)."""
        nid = self.node_of_fn.get(fn)
        if nid is not None:
            return nid
        if self.full():
            return None
        if isinstance(fn, AccumulateGrad):
            nid = self.tensor_node(fn.variable, LEAF, note="AccumulateGrad")
        else:
            nid = self.add_node(FUNCTION, node_name(fn), fn=fn)
            self.queue.append(fn)
        self.nodes[int(nid[1:])].fn = fn
        self.node_of_fn[fn] = nid
        return nid

    def more_node(self) -> str:
        if self.more_id is None:
            self.more_id = self.add_node(MORE, "")  # title set once the count is known
        return self.more_id

    # the walk
    def build(self) -> GraphModel:
        root_ids = []
        for t in self.roots:
            if t.grad_fn is not None:
                rid = self.tensor_node(t, OUTPUT, self.words["output"])
            elif t.requires_grad:
                rid = self.tensor_node(t, LEAF, note="AccumulateGrad")
                acc = gradient_edge(t)[0]
                self.node_of_fn[acc] = rid
                self.nodes[int(rid[1:])].fn = acc
            else:
                rid = self.tensor_node(t, FROZEN, self.words["constant"])
            root_ids.append(rid)
        for t, rid in zip(self.roots, root_ids):
            if t.grad_fn is not None:
                src = self.fn_node(t.grad_fn)
                if src is None:
                    src = self.more_node()
                    self.hidden_frontier.append(t.grad_fn)
                self.add_edge(src, rid, producer=t.grad_fn, output_nr=t._output_nr)
        while self.queue:
            fn = self.queue.popleft()
            self.visit(fn)
        self.name_unknown_inputs()
        model = GraphModel(self.nodes, self.edges, root_ids, node_of_fn=self.node_of_fn,
                           lang=self.lang)
        if self.more_id is not None:
            model.hidden = self.count_hidden()
            node = self.nodes[int(self.more_id[1:])]
            node.title = self.words["more_nodes"].format(count=model.hidden)
        return model

    def visit(self, fn) -> None:
        fid = self.node_of_fn[fn]
        metas = [m for m in getattr(fn, "input_info", ()) if m is not None]
        saved = saved_entries(fn)
        frozen_inputs = match_frozen_inputs(fn.next_functions, metas, saved)
        for i, (nxt, nr) in enumerate(fn.next_functions):
            if nxt is None:
                self.grad_less_input(fn, fid, i, metas, frozen_inputs.get(i))
                continue
            src = self.fn_node(nxt)
            if src is None:
                self.hidden_frontier.append(nxt)
                self.add_edge(self.more_node(), fid, MORE_EDGE)
                continue
            through = self.known_outputs.get((nxt, nr))
            if through is not None:  # a named intermediate (or a root) sits on this edge
                kind = OUTPUT if any(through is r for r in self.roots) else INTERMEDIATE
                tid = self.tensor_node(through, kind)
                self.add_edge(src, tid, producer=nxt, output_nr=nr)
                src = tid
            self.add_edge(src, fid, consumer=fn, slot=i)
        if self.show_saved:
            self.saved_tensors(fn, fid, saved)

    def grad_less_input(self, fn, fid: str, i: int, metas, tensor) -> None:
        meta = metas[i] if i < len(metas) else ((), np.float32)
        named = self.named_saved_input(tensor) if tensor is not None else None
        if named is not None:
            tensor = named
        if tensor is not None and self.key_of(tensor) in self.tensor_ids:
            self.add_edge(self.tensor_ids[self.key_of(tensor)], fid, NOGRAD, consumer=fn, slot=i)
            return
        if self.full():
            self.hidden_extra += 1
            self.add_edge(self.more_node(), fid, MORE_EDGE)
            return
        if tensor is not None:
            note = used_as(tensor, meta, self.words) if named is not None else ""
            nid = self.tensor_node(tensor, FROZEN, self.words["constant"], note=note)
        else:
            value = constant_value(fn, i)
            nid = self.add_node(FROZEN, self.words["constant"], shape=shape_text(meta[0]),
                                dtype=dtype_text(meta[1]),
                                data=values_text(value) if value is not None else None)
            if value is None:
                self.unknown.append((nid, meta))
        self.add_edge(nid, fid, NOGRAD, consumer=fn, slot=i)

    def named_grad_less(self) -> list:
        return [t for _, t in self.names.values() if t.grad_fn is None and not t.requires_grad]

    def named_saved_input(self, tensor):
        """The tensor named in ``params`` that a saved grad-less input is: the saved tensor
        itself, or the named tensor it is a view of (``matmul`` saves ``x.unsqueeze(0)``,
        which shares x's memory). None when it is neither."""
        for t in self.named_grad_less():
            if t is tensor or shares_memory(t, tensor):
                return t
        return None

    def name_unknown_inputs(self) -> None:
        """After the walk: name the grad-less inputs the graph does not hold (not saved, or
        saved tensors freed by ``backward()``) after a tensor in ``params``, when that is
        unambiguous: exactly one named grad-less tensor, not found in the graph otherwise,
        has the input's shape and dtype (or, failing that, its number of elements: a
        reshaped view), and it is the only such candidate for exactly one unknown input."""
        free = [t for t in self.named_grad_less() if self.key_of(t) not in self.tensor_ids]
        chosen: dict = {}  # id(named tensor) -> [(node, meta), ...]
        for nid, meta in self.unknown:
            shape, dtype = tuple(meta[0]), np.dtype(meta[1])
            same_dtype = [t for t in free if t._data.dtype == dtype]
            size = int(np.prod(shape, dtype=np.int64))
            same_shape = [t for t in same_dtype if tuple(t._data.shape) == shape]
            same_size = [t for t in same_dtype if t._data.size == size]
            for found in (same_shape, same_size):
                if found:
                    if len(found) == 1:
                        chosen.setdefault(id(found[0]), []).append((found[0], nid, meta))
                    break
        for matches in chosen.values():
            if len(matches) != 1:
                continue  # one name, several unknown inputs: which one is it? Say nothing.
            tensor, nid, meta = matches[0]
            node = self.nodes[int(nid[1:])]
            node.title, node.named, node.tensor = self.name_of(tensor), True, tensor
            node.shape, node.dtype = shape_text(tensor._data.shape), dtype_text(tensor._data.dtype)
            node.data = values_text(tensor._data)
            node.note = used_as(tensor, meta, self.words)
            self.tensor_ids[self.key_of(tensor)] = nid

    def saved_tensors(self, fn, fid: str, saved) -> None:
        if getattr(fn, "released", False):
            self.nodes[int(fid[1:])].note = self.words["saved_freed"]
            return
        for key, tensor, array in saved:
            nid = self.tensor_ids.get(key)
            if nid is None:
                if self.full():
                    continue
                if tensor is not None:
                    nid = self.tensor_node(tensor, SAVED, self.words["saved"])
                else:  # an output of fn, saved as its array
                    nid = self.add_node(
                        SAVED, self.words["saved"], shape=shape_text(array.shape),
                        dtype=dtype_text(array.dtype), data=values_text(array),
                        note=self.words["output_of"].format(name=node_name(fn)),
                    )
                    self.tensor_ids[key] = nid
            self.add_edge(nid, fid, SAVED_EDGE)

    def count_hidden(self) -> int:
        """How many nodes the summary stands for: walk the undrawn part (iteratively)."""
        seen = set()
        stack = [fn for fn in self.hidden_frontier if fn not in self.node_of_fn]
        count = self.hidden_extra
        while stack:
            fn = stack.pop()
            if fn in seen or fn in self.node_of_fn:
                continue
            seen.add(fn)
            count += 1
            for nxt, _ in fn.next_functions:
                if nxt is None:
                    count += 1
                elif nxt not in seen and nxt not in self.node_of_fn:
                    stack.append(nxt)
        return count


def build_model(roots, params=None, show_saved: bool = False, max_nodes: int = 200,
                lang: str | None = None) -> GraphModel:
    """The drawable model of the graph behind ``roots`` (tensors); ``lang``: the language of
    its titles and notes (default: the default language)."""
    flat = []
    for r in roots:
        flat.extend(r if isinstance(r, (list, tuple)) else [r])
    if not flat:
        raise TypeError("draw at least one tensor: draw_graph(loss) or draw_graph(y1, y2)")
    for r in flat:
        if not isinstance(r, Tensor):
            raise TypeError(f"expected Tensors to draw, got {type(r).__name__}")
    return _Builder(flat, params, show_saved, max_nodes, resolve(lang)).build()
