"""The backward pass, node by node, as the engine really runs it.

``backward_steps`` draws nothing of its own about the chain rule: it runs a real
``root.backward()`` with a post-hook (``node.register_hook``, as in PyTorch) on every node of
the graph, which the engine calls after running the node with the gradients that came in
(``grad_outputs``) and went out (``grad_inputs``).
Each record becomes one frame of the same picture: the node being run is red, the gradients it
sends to its inputs label the edges out of it, the nodes that already ran are purple, and a
leaf's ``grad`` line appears when its ``AccumulateGrad`` runs.

Every frame carries every gradient label (the ones not computed yet are transparent), and its
caption sits in a box as wide as the widest caption, so all frames have the same layout and
the same pixel size: stepping through them moves only the highlight, never the picture.
"""

from __future__ import annotations

from .._backend import to_numpy
from ..autograd.node import AccumulateGrad, gradient_edge
from .display import png_size
from .dot import FrameState, caption_width, to_graph_view
from .graph import LEAF, GraphModel, build_model, grad_text, node_name
from .text import model_text
from .words import drawing_language, words


def _array(g):
    return None if g is None else to_numpy(g._data).copy()


def _values(arrays) -> str:
    return ", ".join(grad_text(a) for a in arrays)


class BackwardFrame:
    """One step of the backward pass: which node ran, and the gradients in and out of it.

    ``grad_outputs`` (what reached the node) and ``grad_inputs`` (what it sent on, one per
    entry of ``node.next_functions``; empty for ``AccumulateGrad``) are NumPy copies taken at
    that moment. ``graph`` is the picture (a ``GraphView``), drawn on first use.
    """

    def __init__(self, index: int, total: int, node, grad_outputs: tuple, grad_inputs: tuple,
                 steps: _Steps) -> None:
        self.index, self.total = index, total
        self.node = node
        self.node_name = node_name(node)
        self.grad_outputs, self.grad_inputs = grad_outputs, grad_inputs
        self._steps = steps
        self._graph = None
        self._png = None

    @property
    def caption(self) -> str:
        return self._steps.caption(self.index)

    @property
    def graph(self):
        if self._graph is None:
            self._graph = self._steps.draw(self.index)
        return self._graph

    def png(self) -> bytes | None:
        if self._png is None:
            self._png = self.graph.png()
        return self._png

    def __repr__(self) -> str:
        return f"<BackwardFrame {self.index + 1}/{self.total}: {self.node_name}>"

    def _repr_mimebundle_(self, include=None, exclude=None, **_) -> dict:
        png = self.png()
        picture = self.graph.picture() if png is None else {"image/png": png}  # browser: SVG
        if picture is None:
            return {"text/plain": f"{self.caption}\n{self.graph.hint()}"}
        return {**picture, "text/plain": repr(self)}


class _Steps:
    """The shared state of all frames of one backward run: the model and the records."""

    def __init__(self, model: GraphModel, records: list, before: dict) -> None:
        self.model, self.records, self.before = model, records, before
        self.frame_of = {rec[0]: k for k, rec in enumerate(records)}
        self.text = model_text(model)  # what a frame's graph shows without `dot`
        self.words = words(model.lang)
        self._caption_width: int | None = None

    def caption_width(self) -> int:
        """Points for the caption box of every frame: the widest caption (measured once)."""
        if self._caption_width is None:
            self._caption_width = caption_width([self.caption(k)
                                                 for k in range(len(self.records))],
                                                self.model.lang)
        return self._caption_width

    def caption(self, k: int) -> str:
        node, grad_outputs, grad_inputs, _ = self.records[k]
        w = self.words
        step = w["step"].format(k=k + 1, n=len(self.records), name=node_name(node))
        if isinstance(node, AccumulateGrad):
            nid = self.model.node_of_fn.get(node)
            name = self.model.nodes[int(nid[1:])].title if nid is not None else w["leaf"]
            return w["adds"].format(step=step, grads=_values(grad_outputs), name=name)
        return w["gets_sends"].format(step=step, grads_in=_values(grad_outputs),
                                      grads_out=_values(grad_inputs))

    def draw(self, k: int):
        model, records, frame_of = self.model, self.records, self.frame_of
        state = FrameState(caption=self.caption(k), caption_width=self.caption_width())
        state.current = model.node_of_fn.get(records[k][0])
        state.done = {model.node_of_fn[r[0]] for r in records[:k] if r[0] in model.node_of_fn}
        for i, edge in enumerate(model.edges):
            if edge.consumer is not None and edge.consumer in frame_of:  # an input's gradient
                j = frame_of[edge.consumer]
                grads = records[j][2]
                g = grads[edge.slot] if edge.slot < len(grads) else None
            elif edge.producer is not None and edge.producer in frame_of:  # into a tensor
                j = frame_of[edge.producer]
                grads = records[j][1]
                g = grads[edge.output_nr] if edge.output_nr < len(grads) else None
            else:
                continue
            if g is not None:
                when = "now" if j == k else ("past" if j < k else "later")
                state.edge_labels[i] = (grad_text(g), when)
        for node in model.nodes:
            if node.kind != LEAF or node.fn not in frame_of:
                continue
            j = frame_of[node.fn]
            final = grad_text(records[j][3])
            prior = self.before.get(node.id)
            if j <= k:
                state.leaf_grads[node.id] = (final, True)
            elif prior is not None:
                state.leaf_grads[node.id] = (grad_text(prior), True)
            else:
                state.leaf_grads[node.id] = (final, False)
        return to_graph_view(model, direction="backward", frame=state, show_grad=False,
                             text=self.text)


def backward_steps(root, gradient=None, retain_graph: bool = False, params=None,
                   lang: str | None = None) -> list[BackwardFrame]:
    """Run ``root.backward(gradient)`` for real and return one frame per node it executed.

    The frames are in the engine's own order. Like ``root.backward()``, this accumulates
    into the leaves' ``.grad`` and frees the graph unless ``retain_graph=True``. ``lang``:
    the language of the captions and pictures (default: the default language).
    """
    # before backward frees the saved tensors
    model = build_model([root], params=params, lang=drawing_language(lang))
    before = {}
    for node in model.nodes:
        if node.kind == LEAF and node.tensor is not None and node.tensor._grad is not None:
            before[node.id] = _array(node.tensor._grad)
    records: list = []

    def recorder(node):
        def record(grad_inputs, grad_outputs) -> None:
            after = None
            if isinstance(node, AccumulateGrad) and node.variable._grad is not None:
                after = _array(node.variable._grad)
            records.append((node, tuple(_array(g) for g in grad_outputs),
                            tuple(_array(g) for g in grad_inputs), after))
        return record

    handles = [node.register_hook(recorder(node)) for node in _graph_nodes(root)]
    try:
        root.backward(gradient, retain_graph=retain_graph)
    finally:
        for handle in handles:
            handle.remove()
    steps = _Steps(model, records, before)
    return [BackwardFrame(k, len(records), rec[0], rec[1], rec[2], steps)
            for k, rec in enumerate(records)]


def _graph_nodes(root) -> list:
    """Every node below ``root`` (an iterative walk along ``next_functions``)."""
    top = gradient_edge(root)[0]  # a leaf's own AccumulateGrad, when root is a leaf
    found, stack = [], [] if top is None else [top]
    seen = set(stack)
    while stack:
        node = stack.pop()
        found.append(node)
        for child, _ in node.next_functions:
            if child is not None and child not in seen:
                seen.add(child)
                stack.append(child)
    return found


class BackwardAnimation:
    """A slider over the frames (ipywidgets): drag it to watch the gradients flow.

    The readout next to the slider counts like the captions, ``1 / N`` ... ``N / N`` (the
    slider's own value is the frame index, 0 ... N-1, and its built-in readout is hidden).
    The picture is shown at its natural size in a box of the frames' size (all frames have
    one size), so moving the slider neither zooms the graph nor moves the page.
    Where no widget can be shown (a notebook opened before its kernel runs, nbconvert's
    HTML), the first frame's PNG, stored next to the widget in the output, is shown instead.
    """

    def __init__(self, frames: list[BackwardFrame], widgets) -> None:
        self.frames = frames
        self.slider = widgets.IntSlider(value=0, min=0, max=len(frames) - 1,
                                        description=frames[0]._steps.words["slider"],
                                        readout=False, continuous_update=True)
        self.readout = widgets.Label()
        self.label = widgets.Label()
        width, height = png_size(frames[0].png())
        self.image = widgets.Image(format="png", layout=widgets.Layout(
            width=f"{width}px", height=f"{height}px", max_width="100%", object_fit="contain"))
        self.slider.observe(self._show, names="value")
        self.widget = widgets.VBox([widgets.HBox([self.slider, self.readout]), self.label,
                                    self.image])
        self._show()

    def _show(self, change=None) -> None:
        frame = self.frames[self.slider.value]
        self.readout.value = f"{frame.index + 1} / {frame.total}"
        self.label.value = frame.caption
        self.image.value = frame.png()

    def __repr__(self) -> str:
        return f"<BackwardAnimation: {len(self.frames)} frames>"

    def _repr_mimebundle_(self, include=None, exclude=None, **kwargs) -> dict:
        bundle = self.widget._repr_mimebundle_(include=include, exclude=exclude, **kwargs)
        bundle["image/png"] = self.frames[self.slider.value].png()  # where no widget can show
        bundle["text/plain"] = repr(self)  # the widget's own repr would hold the image bytes
        if include:
            bundle = {k: v for k, v in bundle.items() if k in include}
        if exclude:
            bundle = {k: v for k, v in bundle.items() if k not in exclude}
        return bundle


class BackwardStrip:
    """All frames one after the other: what ``animate_backward`` shows without ipywidgets."""

    def __init__(self, frames: list[BackwardFrame]) -> None:
        self.frames = frames

    def __repr__(self) -> str:
        return f"<BackwardStrip: {len(self.frames)} frames>"

    def _ipython_display_(self) -> None:
        from IPython.display import display

        for frame in self.frames:
            display(frame)


def animate_backward(root, gradient=None, retain_graph: bool = False, params=None,
                     widget: bool | None = None, lang: str | None = None):
    """Step through ``root.backward()`` in Jupyter with a slider.

    Falls back to a strip of all frames (one output each) when ipywidgets is not installed,
    when ``widget=False``, or when Graphviz's ``dot`` is missing (the frames then print as
    text). Like ``backward_steps`` this runs the real backward pass. ``lang``: the language
    of the captions and pictures (default: the default language).
    """
    frames = backward_steps(root, gradient, retain_graph=retain_graph, params=params,
                            lang=lang)
    if widget is not False:
        try:
            import ipywidgets
        except ImportError:
            ipywidgets = None
        if ipywidgets is not None and frames[0].png() is not None:
            return BackwardAnimation(frames, ipywidgets)
        if widget:
            raise ImportError("animate_backward(widget=True) needs ipywidgets and Graphviz")
    return BackwardStrip(frames)
