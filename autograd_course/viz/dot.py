"""Turn a ``GraphModel`` into Graphviz DOT: labels, colours, edge direction, legend.

Only this module knows how things look. The output is a ``GraphView`` (a ``graphviz.Digraph``)
whose source is a pure function of the model and the options: no memory addresses, ids from
the walk order, so drawing the same graph twice gives byte-identical DOT.

Colours (fill / border), one per kind of node; the legend shows the kinds present:

=================  ==========================================
output (root)      green     the tensors passed to draw_graph
leaf, requires     blue      what ``.backward()`` fills ``.grad`` of
no grad            grey      inputs and frozen leaves (named), constants
intermediate       yellow    non-leaf tensors named in ``params``
saved              orange    what a node saved for backward
grad_fn node       white     ``MulBackward0``... (ellipses)
=================  ==========================================

Edges: solid ones carry gradients; a dotted grey one comes from an input without gradient;
a dashed orange one (``show_saved``) joins a tensor to the node that saved it. The legend
shows a line sample for each of the last two kinds that is drawn.

The words (legend, "data"/"grad" lines) and the font follow the model's language
(``words.py``): English is drawn in Helvetica, Chinese in Noto Sans CJK SC.
"""

from __future__ import annotations

import html
import math
import re
from dataclasses import dataclass, field

import graphviz

from .display import GraphView, layout_plain
from .graph import (
    FROZEN,
    FUNCTION,
    INTERMEDIATE,
    LEAF,
    MORE,
    MORE_EDGE,
    NOGRAD,
    OUTPUT,
    SAVED,
    SAVED_EDGE,
    GraphModel,
)
from .words import FONTS, words

COLORS = {  # kind -> (fill, border)
    OUTPUT: ("#c8e6c9", "#2e7d32"),
    LEAF: ("#bbdefb", "#1565c0"),
    FROZEN: ("#eeeeee", "#9e9e9e"),
    INTERMEDIATE: ("#fff59d", "#f9a825"),
    SAVED: ("#ffe0b2", "#ef6c00"),
    FUNCTION: ("#ffffff", "#546e7a"),
    MORE: ("#ffffff", "#90a4ae"),
}
LEGEND = {  # kind -> its words in the legend (a key of the tables in words.py)
    OUTPUT: "legend_output",
    LEAF: "legend_leaf",
    FROZEN: "legend_frozen",
    INTERMEDIATE: "legend_intermediate",
    SAVED: "legend_saved",
    FUNCTION: "legend_function",
}
EDGE_LEGEND = {  # edge kind -> (words' key, line style, colour), drawn as a line sample
    SAVED_EDGE: ("legend_saved_edge", "dashed", COLORS[SAVED][1]),
    NOGRAD: ("legend_nograd_edge", "dotted", COLORS[FROZEN][1]),
}
RUNNING = ("#ffcdd2", "#c62828")  # the node the engine is running in a backward frame
DONE = ("#e1bee7", "#6a1b9a")  # nodes that already ran
GRAD_NOW, GRAD_PAST, INVISIBLE = "#c62828", "#37474f", "#00000000"
GREY = "#607d8b"

FONT = FONTS["en"]  # English; each language's font is in words.py
FRAME_DPI = 96  # backward frames: pixels per inch, fixed (Graphviz's PNG default, made explicit)
FRAME_MAX_IN = "10,7"  # ... and at most 960 x 672 pixels (a bigger graph is scaled down)


@dataclass
class FrameState:
    """What one backward frame changes on top of the plain picture.

    Every frame carries every gradient label (future ones invisible), so all frames have the
    same layout and a slider moves only the highlight.
    """

    current: str | None = None
    done: set = field(default_factory=set)
    edge_labels: dict = field(default_factory=dict)  # edge index -> (text, "now"|"past"|"later")
    leaf_grads: dict = field(default_factory=dict)  # node id -> (text, visible)
    caption: str = ""
    caption_width: int = 0  # points; 0: as wide as the caption


# Characters an XML document may not hold (C0 controls, surrogates, U+FFFE/U+FFFF): Graphviz
# rejects a label containing one. Other control characters (DEL, C1) are legal but invisible.
_UNSHOWABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
_NAMED_ESCAPES = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _visible(char: str) -> str:
    """``\\n``, ``\\t``, ``\\r`` or ``\\xNN`` / ``\\uNNNN``: how Python's repr writes it."""
    if char in _NAMED_ESCAPES:
        return _NAMED_ESCAPES[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _esc(text: str) -> str:
    """Text for an HTML-like Graphviz label: markup escaped, every control character (which
    Graphviz would reject or not show) written as its Python escape, e.g. ``a\\nb``."""
    return html.escape(_UNSHOWABLE.sub(lambda m: _visible(m.group()), str(text)), quote=False)


def _font(text: str, size: int | None = None, color: str | None = None,
          italic: bool = False) -> str:
    attrs = ""
    if size is not None:
        attrs += f' point-size="{size}"'
    if color is not None:
        attrs += f' color="{color}"'
    body = f"<i>{_esc(text)}</i>" if italic else _esc(text)
    return f"<font{attrs}>{body}</font>" if attrs else body


# Noto Sans CJK's glyphs fill their whole line: without a gap a Chinese title touches the
# line under it. A thin empty line (4 points) keeps them apart; English needs none.
_TITLE_GAP = {"en": "", "zh": '<br/><font point-size="4"> </font>'}


def _label(node, show_data: bool, show_grad: bool, frame: FrameState | None,
           w: dict, lang: str = "en") -> str:
    lines = [f"<b>{_esc(node.title)}</b>"] if node.title else []  # Graphviz refuses <b></b>
    if node.shape:
        shape = w["scalar"] if node.shape == "scalar" else node.shape
        lines.append(_font(f"{shape} {node.dtype}".strip(), 9, GREY))
    if show_data and node.data is not None:
        lines.append(_font(w["data"].format(values=node.data), 10))
    override = frame.leaf_grads.get(node.id) if frame is not None else None
    if override is not None:
        text, visible = override
        lines.append(_font(w["grad"].format(values=text), 10,
                           "#1a237e" if visible else INVISIBLE))
    elif show_grad and node.grad is not None:
        lines.append(_font(w["grad"].format(values=node.grad), 10, "#1a237e"))
    if node.note:
        lines.append(_font(node.note, 8, GREY, italic=True))
    if node.title and len(lines) > 1:
        lines[0] += _TITLE_GAP[lang]
    return "<" + "<br/>".join(lines) + ">" if lines else ""


def _node_attrs(node, frame: FrameState | None) -> dict:
    fill, border = COLORS[node.kind]
    attrs = {"fillcolor": fill, "color": border}
    if node.kind == FUNCTION:
        attrs.update(shape="ellipse", style="filled")
    elif node.kind == MORE:
        attrs.update(style="rounded,dashed")
    elif node.kind == FROZEN:
        attrs.update(style="rounded,filled,dashed")
    if frame is not None:
        if node.id == frame.current:
            attrs.update(fillcolor=RUNNING[0], color=RUNNING[1], penwidth="3")
        elif node.id in frame.done:
            attrs.update(color=DONE[1], penwidth="2")
            if node.kind == FUNCTION:
                attrs["fillcolor"] = DONE[0]
    return attrs


def _edge_attrs(edge, label) -> dict:
    attrs: dict = {}
    if edge.kind == NOGRAD:
        attrs.update(style="dotted", color=COLORS[FROZEN][1])
    elif edge.kind == SAVED_EDGE:
        attrs.update(style="dashed", color=COLORS[SAVED][1], arrowhead="none", constraint="false")
    elif edge.kind == MORE_EDGE:
        attrs.update(style="dashed", color=COLORS[MORE][1])
    if label is not None:
        text, state = label
        color = {"now": GRAD_NOW, "past": GRAD_PAST}.get(state, INVISIBLE)
        attrs["label"] = "<" + _font(text, 10, color) + ">"
        if state == "now":
            attrs.update(color=GRAD_NOW, penwidth="2.5")
    return attrs


def _legend(graph: GraphView, kinds: list[str], edge_kinds: set, frame: bool,
            w: dict) -> None:
    """One small table node: a colour swatch and a few words per kind of node drawn, and a
    line sample per kind of special edge drawn (dashed "saved", dotted "no gradient")."""
    entries = [(w[LEGEND[k]], COLORS[k]) for k in LEGEND if k in kinds]
    if frame:
        entries += [(w["legend_running"], RUNNING), (w["legend_done"], DONE)]
    rows = [f'<tr><td colspan="2">{_font(w["legend"], 9, GREY)}</td></tr>']
    for text, (fill, border) in entries:
        rows.append(
            f'<tr><td bgcolor="{fill}" color="{border}" border="1" width="18" height="10" '
            f'fixedsize="true"></td><td align="left">{_font(text, 9)}</td></tr>'
        )
    for kind, (key, style, color) in EDGE_LEGEND.items():
        if kind in edge_kinds:  # a line sample: the bottom border of an empty cell
            text = w[key]
            rows.append(
                f'<tr><td border="1" sides="b" style="{style}" color="{color}" width="18" '
                f'height="6" fixedsize="true"></td><td align="left">{_font(text, 9)}</td></tr>'
            )
    table = (
        '<table border="1" cellborder="0" cellspacing="3" cellpadding="1" color="#cfd8dc" '
        'style="rounded">' + "".join(rows) + "</table>"
    )
    with graph.subgraph(name="cluster_legend") as legend:
        legend.attr(style="invis", margin="0", label="")  # no copy of the heading
        legend.node("legend", f"<{table}>", shape="plaintext", style="", margin="0")


def _heading(title: str | None, frame: FrameState | None) -> str:
    """The label above the picture: the title (one line per line of it) and a frame's caption.

    A frame's caption sits in a cell of fixed width (``frame.caption_width`` points, the
    widest caption of the run), so every frame has the same size and the same layout.
    """
    lines = [f"<b>{_esc(line)}</b>" if line else "" for line in re.split(r"\r?\n", title)
             ] if title else []
    caption = frame.caption if frame is not None else ""
    if caption:
        text = _font(caption, 11)
        if frame.caption_width:
            text = ('<table border="0" cellborder="0" cellspacing="0" cellpadding="0"><tr>'
                    f'<td width="{frame.caption_width}" height="16" fixedsize="true">{text}'
                    "</td></tr></table>")
        lines.append(text)
    return "<" + "<br/>".join(lines) + ">" if lines else ""


def caption_width(captions: list[str], lang: str = "en") -> int:
    """Points needed by the widest caption, measured by Graphviz (one ``dot`` run, or the
    WASM Graphviz in the browser) in the font of ``lang``; 0 without Graphviz."""
    probe = graphviz.Digraph(node_attr={"fontname": FONTS[lang], "shape": "plaintext",
                                        "margin": "0"})
    for k, text in enumerate(captions):
        probe.node(f"c{k}", "<" + _font(text, 11) + ">")
    plain = layout_plain(probe)
    if plain is None:
        return 0
    widths = [float(line.split()[4]) for line in plain.splitlines() if line.startswith("node ")]
    return math.ceil(max(widths, default=0) * 72) + 6  # inches -> points, and a little air


def to_graph_view(model: GraphModel, *, direction: str = "forward", rankdir: str | None = None,
                  title: str | None = None, show_data: bool = True, show_grad: bool = True,
                  legend: bool = True, frame: FrameState | None = None,
                  text: str = "") -> GraphView:
    """DOT for ``model``. ``direction="backward"`` points data edges from root to leaves."""
    if direction not in ("forward", "backward"):
        raise ValueError(f'direction must be "forward" or "backward", got {direction!r}')
    backward = direction == "backward"
    rankdir = rankdir or ("BT" if backward else "TB")
    w, font = words(model.lang), FONTS[model.lang]
    graph_attr = {"rankdir": rankdir, "fontname": font, "nodesep": "0.3", "ranksep": "0.35",
                  "pad": "0.2", "bgcolor": "white"}
    heading = _heading(title, frame)
    if heading:
        graph_attr.update(label=heading, labelloc="t", fontsize="13")
    if frame is not None:  # one pixel size for every frame of a run, at most FRAME_MAX_IN
        graph_attr.update(dpi=str(FRAME_DPI), size=FRAME_MAX_IN)
    graph = GraphView(
        name="autograd",
        graph_attr=graph_attr,
        node_attr={"fontname": font, "fontsize": "11", "shape": "box",
                   "style": "rounded,filled", "penwidth": "1.2", "margin": "0.12,0.05"},
        edge_attr={"fontname": font, "fontsize": "10", "color": "#78909c", "arrowsize": "0.7"},
        summary=(len(model.nodes), len(model.edges)),
        text=text,
        lang=model.lang,
    )
    for node in model.nodes:
        graph.node(node.id, _label(node, show_data, show_grad, frame, w, model.lang),
                   **_node_attrs(node, frame))
    for i, edge in enumerate(model.edges):
        label = frame.edge_labels.get(i) if frame is not None else None
        src, dst = edge.src, edge.dst
        if backward and edge.kind != SAVED_EDGE:
            src, dst = dst, src
        graph.edge(src, dst, **_edge_attrs(edge, label))
    if legend:
        kinds = sorted({n.kind for n in model.nodes if n.kind != MORE}, key=list(LEGEND).index)
        edge_kinds = {e.kind for e in model.edges}
        _legend(graph, kinds, edge_kinds, frame is not None, w)
    return graph

