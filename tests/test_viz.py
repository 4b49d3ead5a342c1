"""ag.viz: graph drawing (DOT source), text tree, backward step-through, Jupyter display."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from collections import deque
from pathlib import Path

import numpy as np
import pytest
from functions import mul_constant

import autograd_course as ag
from autograd_course import viz
from autograd_course.autograd import engine
from autograd_course.viz.dot import COLORS, DONE, RUNNING
from autograd_course.viz.graph import values_text

REPO = Path(__file__).resolve().parents[1]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


# --- helpers: read the DOT source back ------------------------------------------------------
def nodes_of(source: str) -> dict[str, str]:
    """node id -> its whole attribute text (label and style) for the graph's nodes."""
    return {m.group(1): m.group(2) for m in re.finditer(r"^\s*(n\d+) \[(.*)\]$", source, re.M)}


def title(attrs: str) -> str:
    return re.search(r"<b>(.*?)</b>", attrs).group(1)


def fill(attrs: str) -> str:
    return re.search(r'fillcolor="([^"]+)"', attrs).group(1)


def edges_of(source: str) -> list[tuple[str, str, str]]:
    """(src id, dst id, attribute text) for every edge between graph nodes, in order."""
    pattern = r"^\s*(n\d+) -> (n\d+)(?: \[(.*)\])?$"
    return [(m.group(1), m.group(2), m.group(3) or "") for m in re.finditer(pattern, source, re.M)]


def titled_edges(source: str) -> list[tuple[str, str]]:
    nodes = nodes_of(source)
    return sorted((title(nodes[a]), title(nodes[b])) for a, b, _ in edges_of(source))


def q_graph():
    a = ag.tensor([2.0, 3.0], requires_grad=True)
    b = ag.tensor([6.0, 4.0], requires_grad=True)
    a.name, b.name = "a", "b"
    q = 3 * a**3 - b**2
    return a, b, q


def bce_network():
    ag.manual_seed(0)
    x = ag.ones(5)
    y = ag.zeros(3)
    w = ag.randn(5, 3, requires_grad=True)
    b = ag.randn(3, requires_grad=True)
    z = ag.matmul(x, w) + b
    functional = getattr(getattr(ag, "nn", None), "functional", None)
    bce = getattr(functional, "binary_cross_entropy_with_logits", None)
    bce = bce or ag.ops.binary_cross_entropy_with_logits
    return x, y, w, b, z, bce(z, y)


Q_EDGES = sorted([
    ("SubBackward0", "Q"),
    ("MulBackward0", "SubBackward0"),
    ("PowBackward0", "SubBackward0"),
    ("PowBackward0", "MulBackward0"),
    ("constant", "MulBackward0"),
    ("a", "PowBackward0"),
    ("b", "PowBackward0"),
])


# --- the Q = 3a³ − b² graph --------------------------------------------------------------------
def test_q_graph_labels_colours_and_edges():
    a, b, q = q_graph()
    view = viz.draw_graph(q, params={"Q": q})
    src = view.source
    nodes = nodes_of(src)
    titles = sorted(title(attrs) for attrs in nodes.values())
    assert titles == sorted(["Q", "SubBackward0", "MulBackward0", "PowBackward0",
                             "PowBackward0", "constant", "a", "b"])
    by_title = {title(attrs): attrs for attrs in nodes.values()}
    assert fill(by_title["a"]) == COLORS["leaf"][0] == fill(by_title["b"])
    assert fill(by_title["Q"]) == COLORS["output"][0]
    assert fill(by_title["constant"]) == COLORS["frozen"][0]
    assert fill(by_title["SubBackward0"]) == COLORS["function"][0]
    assert "shape=ellipse" in by_title["MulBackward0"]
    # tensor nodes: shape, dtype, values; the constant 3 was found among Mul's saved tensors
    assert "[2] float32" in by_title["a"] and "data [2, 3]" in by_title["a"]
    assert "AccumulateGrad" in by_title["a"]
    assert "data [-12, 65]" in by_title["Q"]
    assert "scalar float32" in by_title["constant"] and "data 3" in by_title["constant"]
    # forward direction: from the leaves to the output; 7 edges; the constant's is dotted
    assert titled_edges(src) == Q_EDGES
    assert len(edges_of(src)) == 7
    constant_edge = [e for e in edges_of(src) if title(nodes[e[0]]) == "constant"]
    assert "style=dotted" in constant_edge[0][2]
    assert "rankdir=TB" in src
    # the legend lists exactly the kinds drawn
    legend = src[src.index("subgraph cluster_legend"):]
    for words in ("output (root)", "leaf, requires_grad", "no grad", "grad_fn node"):
        assert words in legend
    assert "saved for backward" not in legend and "intermediate" not in legend
    assert repr(view) == "<GraphView: 8 nodes, 7 edges>"
    assert view.n_nodes == 8 and view.n_edges == 7


def test_q_graph_backward_direction_and_grads():
    a, b, q = q_graph()
    q.backward(ag.tensor([1.0, 1.0]))
    view = viz.draw_graph(q, params={"Q": q}, direction="backward")
    src = view.source
    assert titled_edges(src) == sorted((dst, src_) for src_, dst in Q_EDGES)
    assert "rankdir=BT" in src  # leaves stay at the top
    by_title = {title(attrs): attrs for attrs in nodes_of(src).values()}
    assert f"grad {values_text(a.grad._data)}" in by_title["a"]
    assert "grad [36, 81]" in by_title["a"] and "grad [-12, -8]" in by_title["b"]
    assert "grad [" not in viz.draw_graph(q, show_grad=False).source
    assert "data [" not in viz.draw_graph(q, show_data=False).source
    assert "rankdir=LR" in viz.draw_graph(q, rankdir="LR").source
    with pytest.raises(ValueError, match="direction"):
        viz.draw_graph(q, direction="sideways")


def test_several_roots_and_named_intermediates():
    a, b, q = q_graph()
    cube = a**3
    r = cube + 1.0
    view = viz.draw_graph(q, r, params={"Q": q, "cube": cube})
    nodes = nodes_of(view.source)
    by_title = {}
    for attrs in nodes.values():
        by_title.setdefault(title(attrs), []).append(attrs)
    assert fill(by_title["cube"][0]) == COLORS["intermediate"][0]
    assert [fill(x) for x in by_title["output"]] == [COLORS["output"][0]]  # r has no name
    # a is drawn once although both roots reach it; cube sits between Pow and its users
    assert len(by_title["a"]) == 1
    pairs = titled_edges(view.source)
    assert ("PowBackward0", "cube") in pairs
    assert ("cube", "AddBackward0") in pairs and ("cube", "MulBackward0") not in pairs


def test_show_saved_draws_saved_tensors():
    a, b, q = q_graph()
    src = viz.draw_graph(q, show_saved=True).source
    nodes = nodes_of(src)
    saved = [(nodes[s], nodes[d]) for s, d, attrs in edges_of(src) if "style=dashed" in attrs]
    # PowBackward0 saved its input (the leaf a, resp. b); MulBackward0 saved the constant 3
    assert sorted((title(s), title(d)) for s, d in saved) == sorted(
        [("a", "PowBackward0"), ("b", "PowBackward0"), ("constant", "MulBackward0")]
    )
    q.backward(ag.tensor([1.0, 1.0]))
    assert "saved tensors freed" in viz.draw_graph(q, show_saved=True).source

    x = ag.tensor([0.5, 1.0], requires_grad=True)
    y = x.exp()  # ExpBackward0 saves its own output
    src = viz.draw_graph(y.sum(), show_saved=True).source
    saved_nodes = [a for a in nodes_of(src).values() if fill(a) == COLORS["saved"][0]]
    assert len(saved_nodes) == 1 and "output of ExpBackward0" in saved_nodes[0]
    assert "saved for backward" in src


# --- the one-layer BCE network (note 002) --------------------------------------------------
def test_bce_network_graph():
    x, y, w, b, z, loss = bce_network()
    view = viz.draw_graph(loss, params=dict(x=x, y=y, w=w, b=b, z=z, loss=loss))
    src = view.source
    nodes = nodes_of(src)
    by_title = {title(attrs): attrs for attrs in nodes.values()}
    assert fill(by_title["w"]) == COLORS["leaf"][0] and fill(by_title["b"]) == COLORS["leaf"][0]
    assert fill(by_title["z"]) == COLORS["intermediate"][0]
    assert fill(by_title["loss"]) == COLORS["output"][0]
    assert fill(by_title["y"]) == COLORS["frozen"][0]  # named: found among BCE's saved tensors
    assert "data [0, 0, 0]" in by_title["y"]
    assert "[5, 3] float32" in by_title["w"] and "data" not in by_title["w"]  # 15 > 6 values
    assert f"data {values_text(b._data)}" in by_title["b"]
    pairs = titled_edges(src)
    assert pairs == sorted([
        ("BinaryCrossEntropyWithLogitsBackward0", "loss"),
        ("z", "BinaryCrossEntropyWithLogitsBackward0"),
        ("y", "BinaryCrossEntropyWithLogitsBackward0"),
        ("AddBackward0", "z"),
        ("SqueezeBackward4", "AddBackward0"),
        ("b", "AddBackward0"),
        ("MmBackward0", "SqueezeBackward4"),
        ("x", "MmBackward0"),  # x.unsqueeze(0) was saved: a view of x, so it is x
        ("w", "MmBackward0"),
    ])
    assert fill(by_title["x"]) == COLORS["frozen"][0] and "used as [1, 5]" in by_title["x"]
    loss.backward()
    assert f"grad {values_text(b.grad._data)}" in viz.draw_graph(loss, params={"b": b}).source


def test_graph_nodes_match_pytorch(torch_oracle):
    """The picture shows the nodes PyTorch records, found in the same order."""
    torch = torch_oracle

    def torch_names(root):
        names, queue, seen = [root.grad_fn.name()], deque([root.grad_fn]), set()
        while queue:
            for nxt, _ in queue.popleft().next_functions:
                if nxt is None:
                    names.append("constant")
                elif nxt not in seen:
                    seen.add(nxt)
                    names.append(nxt.name().replace("torch::autograd::", ""))
                    if nxt.next_functions:
                        queue.append(nxt)
        return names

    def our_names(root):
        model = viz.build_model([root])
        kinds = {"function": None, "leaf": "AccumulateGrad", "frozen": "constant"}
        return [kinds[n.kind] or n.title for n in model.nodes if n.kind in kinds]

    a, b, q = q_graph()
    ta = torch.tensor([2.0, 3.0], requires_grad=True)
    tb = torch.tensor([6.0, 4.0], requires_grad=True)
    assert our_names(q) == torch_names(3 * ta**3 - tb**2)
    *_, loss = bce_network()
    tw = torch.randn(5, 3, requires_grad=True)
    tbias = torch.randn(3, requires_grad=True)
    tz = torch.matmul(torch.ones(5), tw) + tbias
    tloss = torch.nn.functional.binary_cross_entropy_with_logits(tz, torch.zeros(3))
    assert our_names(loss) == torch_names(tloss)


# --- a custom Function ------------------------------------------------------------------------
MulConstant = mul_constant(ag)


def test_custom_function_graph():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    y = MulConstant.apply(x, 5.0)
    out = y.sum()
    src = viz.draw_graph(out, params={"x": x, "out": out}).source
    nodes = nodes_of(src)
    by_title = {title(attrs): attrs for attrs in nodes.values()}
    assert set(by_title) == {"out", "SumBackward0", "MulConstantBackward", "x"}
    assert fill(by_title["MulConstantBackward"]) == COLORS["function"][0]
    assert titled_edges(src) == sorted([
        ("SumBackward0", "out"), ("MulConstantBackward", "SumBackward0"),
        ("x", "MulConstantBackward"),
    ])  # the python float 5.0 is not a tensor: no node, no edge
    frames = viz.backward_steps(out, params={"x": x})
    assert [f.node_name for f in frames] == ["SumBackward0", "MulConstantBackward",
                                             "AccumulateGrad"]
    assert np.array_equal(frames[1].grad_inputs[0], [5.0, 5.0])
    assert "[5, 5]" in frames[-1].graph.source


# --- determinism and size --------------------------------------------------------------------
def test_same_graph_same_source():
    a, b, q = q_graph()
    first = viz.draw_graph(q, show_saved=True).source
    assert viz.draw_graph(q, show_saved=True).source == first
    a2, b2, q2 = q_graph()  # a second, identical graph: byte-identical DOT too
    assert viz.draw_graph(q2, show_saved=True).source == first
    assert "0x" not in first
    assert viz.graph_text(q) == viz.graph_text(q2)


@pytest.mark.slow
def test_long_chain_draws_and_is_summarised():
    n = 100_000
    x = ag.tensor([1.0], requires_grad=True)
    y = x
    for _ in range(n):
        y = y + 1.0
    view = viz.draw_graph(y, max_nodes=200)
    src = view.source
    nodes = nodes_of(src)
    assert len(nodes) == 201  # 200 nodes and the summary
    # the whole graph: the output, n AddBackward0, n grad-less constants, the leaf x
    hidden = (1 + n + n + 1) - 200
    summary = [attrs for attrs in nodes.values() if "more nodes" in attrs]
    assert len(summary) == 1 and f"… {hidden:,} more nodes" in summary[0]
    assert repr(view) == "<GraphView: 201 nodes, 200 edges>"
    text = viz.graph_text(y, max_nodes=50)
    assert f"… {(1 + n + n + 1) - 50:,} more nodes" in text
    assert text.splitlines()[0] == "AddBackward0"


# --- the text tree -------------------------------------------------------------------------
def test_graph_text_tree():
    a, b, q = q_graph()
    assert viz.graph_text(q) == textwrap.dedent("""\
        SubBackward0
        ├── MulBackward0
        │   ├── PowBackward0
        │   │   └── AccumulateGrad  a  [2]  requires_grad
        │   └── constant  scalar  no grad  = 3
        └── PowBackward0
            └── AccumulateGrad  b  [2]  requires_grad""")
    shared = a * 2.0
    out = shared * shared + shared
    lines = viz.graph_text(out, params={"out": out}).splitlines()
    assert lines[0] == "AddBackward0  → out  [2]"
    assert sum("(shown above)" in line for line in lines) == 2  # shared printed once


# --- display in Jupyter, and without `dot` -------------------------------------------------
def test_mimebundle_png_and_plain_text():
    from IPython.core.formatters import DisplayFormatter

    a, b, q = q_graph()
    view = viz.draw_graph(q)
    bundle = view._repr_mimebundle_()
    assert set(bundle) == {"image/png", "text/plain"}  # no SVG: hidden when untrusted
    assert bundle["image/png"].startswith(PNG_SIGNATURE)
    assert bundle["text/plain"] == "<GraphView: 8 nodes, 7 edges>"
    assert viz.draw_graph(q)._repr_mimebundle_()["image/png"] == bundle["image/png"]
    data, _ = DisplayFormatter().format(view)
    assert data["text/plain"] == "<GraphView: 8 nodes, 7 edges>"
    assert "image/png" in data and "image/svg+xml" not in data
    assert view.copy().source == view.source and repr(view.copy()) == repr(view)


def test_png_metadata_is_stripped():
    from autograd_course.viz.display import strip_png_metadata

    a, b, q = q_graph()
    png = viz.draw_graph(q).png()
    chunks, pos = [], 8
    while pos < len(png):
        length = int.from_bytes(png[pos:pos + 4], "big")
        chunks.append(png[pos + 4:pos + 8])
        pos += 12 + length
    assert not {b"tIME", b"tEXt", b"iTXt", b"zTXt"} & set(chunks)
    stamped = png[:33] + _chunk(b"tIME", b"\x07\xe8\x01\x01\x00\x00\x00") + png[33:]
    assert strip_png_metadata(stamped) == png


def _chunk(kind: bytes, data: bytes) -> bytes:
    import zlib

    crc = zlib.crc32(kind + data) & 0xFFFFFFFF
    return len(data).to_bytes(4, "big") + kind + data + crc.to_bytes(4, "big")


@pytest.fixture
def no_dot(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))


def test_missing_dot_shows_text_tree_and_hint(no_dot, capsys, tmp_path):
    from IPython.core.formatters import DisplayFormatter

    a, b, q = q_graph()
    view = viz.draw_graph(q)
    bundle = view._repr_mimebundle_()
    assert set(bundle) == {"text/plain"}
    text = bundle["text/plain"]
    assert text.startswith(viz.graph_text(q) + "\n")
    hint = text.splitlines()[-1]
    for command in ("apt-get install graphviz", "brew install graphviz",
                    "conda install -c conda-forge graphviz"):
        assert command in hint
    assert len(text.splitlines()) == len(viz.graph_text(q).splitlines()) + 1
    data, _ = DisplayFormatter().format(view)
    assert data == {"text/plain": text}
    assert view.pipe(format="png") is None
    assert view.render(tmp_path / "q.gv") is None
    printed = capsys.readouterr().out
    assert printed.count(viz.INSTALL_HINT) == 2 and "SubBackward0" in printed
    frames = viz.backward_steps(q, ag.tensor([1.0, 1.0]))
    frame_text = frames[0]._repr_mimebundle_()["text/plain"]
    assert frame_text.startswith("step 1 of 6: SubBackward0") and viz.INSTALL_HINT in frame_text
    assert isinstance(viz.animate_backward(*q_graph()[2:], ag.tensor([1.0, 1.0])),
                      viz.BackwardStrip)


# --- backward step-through --------------------------------------------------------------------
def engine_order(root, gradient):
    names = []
    with engine.trace(lambda node, go, gi: names.append(node)):
        root.backward(gradient)
    return names


def test_backward_steps_follow_the_engine():
    gradient = ag.tensor([1.0, 1.0])
    a, b, q = q_graph()
    frames = viz.backward_steps(q, gradient, params={"Q": q})
    a2, b2, q2 = q_graph()
    expected = engine_order(q2, gradient)
    assert [f.node_name for f in frames] == [
        "AccumulateGrad" if "AccumulateGrad" in n.name() else n.name() for n in expected
    ]
    assert [f.index for f in frames] == list(range(6)) and frames[0].total == 6
    # it was a real backward: .grad is filled, 9a² and -2b
    assert np.allclose(a.grad._data, 9 * a._data**2) and np.allclose(b.grad._data, -2 * b._data)
    mul = next(f for f in frames if f.node_name == "MulBackward0")
    assert np.array_equal(mul.grad_outputs[0], [1.0, 1.0])
    assert np.array_equal(mul.grad_inputs[0], [3.0, 3.0]) and mul.grad_inputs[1] is None
    assert repr(frames[0]) == "<BackwardFrame 1/6: SubBackward0>"

    # every frame highlights the node running; the labels out of it are "now" (red)
    sources = [f.graph.source for f in frames]
    for frame, src in zip(frames, sources):
        nodes = nodes_of(src)
        running = [n for n, attrs in nodes.items() if f'fillcolor="{RUNNING[0]}"' in attrs]
        assert len(running) == 1
        assert title(nodes[running[0]]) in (frame.node_name, "a", "b")
        assert "rankdir=BT" in src
    # all frames have the same nodes and edges (same layout); only styles change
    skeleton = [[(s, d) for s, d, _ in edges_of(src)] for src in sources]
    assert all(s == skeleton[0] for s in skeleton)
    assert all(len(re.findall(r"label=<", src)) == len(re.findall(r"label=<", sources[0]))
               for src in sources)

    # the last frame: the gradients on the edges into a and b are a.grad and b.grad
    last = sources[-1]
    nodes = nodes_of(last)
    ids = {title(attrs): n for n, attrs in nodes.items()}
    into = {title(nodes[d]): attrs for s, d, attrs in edges_of(last) if d in (ids["a"], ids["b"])}
    assert values_text(a.grad._data) in into["a"] and values_text(b.grad._data) in into["b"]
    assert f"grad {values_text(a.grad._data)}" in nodes[ids["a"]]
    assert "#00000000" not in nodes[ids["a"]]  # after its AccumulateGrad: visible
    # before a's AccumulateGrad ran, its grad line was there but invisible
    first_a = nodes_of(sources[0])[ids["a"]]
    assert "#00000000" in first_a
    assert f'fillcolor="{DONE[0]}"' in nodes[ids["SubBackward0"]]


def test_backward_steps_accumulate_like_backward():
    a, b, q = q_graph()
    q.backward(ag.tensor([1.0, 1.0]), retain_graph=True)
    frames = viz.backward_steps(q, ag.tensor([1.0, 1.0]), retain_graph=True)
    assert np.allclose(a.grad._data, 2 * 9 * a._data**2)
    acc_a = [f for f in frames if f.node_name == "AccumulateGrad"][-1]
    assert "into a.grad" in acc_a.caption
    viz.backward_steps(q, ag.tensor([1.0, 1.0]))  # retain_graph=False frees the graph
    with pytest.raises(RuntimeError, match="second time"):
        viz.backward_steps(q, ag.tensor([1.0, 1.0]))


def test_animate_backward_with_and_without_widgets(monkeypatch):
    pytest.importorskip("ipywidgets")
    a, b, q = q_graph()
    anim = viz.animate_backward(q, ag.tensor([1.0, 1.0]))
    assert isinstance(anim, viz.BackwardAnimation)
    assert anim.slider.max == 5 and anim.image.value == anim.frames[0].png()
    anim.slider.value = 3
    assert anim.image.value == anim.frames[3].png()
    assert anim.label.value == anim.frames[3].caption
    bundle = anim._repr_mimebundle_()
    assert bundle["text/plain"] == "<BackwardAnimation: 6 frames>"
    assert "application/vnd.jupyter.widget-view+json" in bundle

    monkeypatch.setitem(sys.modules, "ipywidgets", None)  # import fails
    a, b, q = q_graph()
    strip = viz.animate_backward(q, ag.tensor([1.0, 1.0]))
    assert isinstance(strip, viz.BackwardStrip) and repr(strip) == "<BackwardStrip: 6 frames>"
    shown = []
    monkeypatch.setattr("IPython.display.display", shown.append)
    strip._ipython_display_()
    assert shown == strip.frames


# --- nbval: stored notebooks pass on a machine with another Graphviz --------------------------
def _notebook(cell_source: str, outputs: list) -> dict:
    return {
        "nbformat": 4, "nbformat_minor": 5,
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                    "language": "python"}},
        "cells": [{"cell_type": "code", "id": "c1", "metadata": {}, "execution_count": 1,
                   "source": cell_source, "outputs": outputs}],
    }


@pytest.mark.slow
def test_nbval_ignores_png_bytes_but_checks_text(tmp_path):
    """A stored PNG from another Graphviz (other bytes) passes; a wrong text/plain fails."""
    pytest.importorskip("nbval")
    pytest.importorskip("ipykernel")
    import base64

    cell = ("import autograd_course as ag\n"
            "a = ag.tensor([2.0, 3.0], requires_grad=True)\n"
            "b = ag.tensor([6.0, 4.0], requires_grad=True)\n"
            "ag.viz.draw_graph(3 * a**3 - b**2)")
    other_png = base64.b64encode(PNG_SIGNATURE + b"drawn by another graphviz").decode()

    def result(plain):
        return [{"output_type": "execute_result", "execution_count": 1, "metadata": {},
                 "data": {"image/png": other_png, "text/plain": plain}}]

    good = tmp_path / "good.ipynb"
    bad = tmp_path / "bad.ipynb"
    good.write_text(json.dumps(_notebook(cell, result("<GraphView: 8 nodes, 7 edges>"))))
    bad.write_text(json.dumps(_notebook(cell, result("<GraphView: 9 nodes, 7 edges>"))))
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    env = {**__import__("os").environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "--nbval", "--nbval-current-env", "-p",
         "no:cacheprovider", "-q", "-rA", "good.ipynb", "bad.ipynb"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
    )
    out = proc.stdout + proc.stderr
    assert re.search(r"PASSED good\.ipynb::Cell 0", out), out
    assert re.search(r"FAILED bad\.ipynb::Cell 0", out), out


# --- issue 15: what the pictures say about inputs, constants and edges ---------------------------
def test_named_inputs_are_drawn_by_name_before_and_after_backward():
    """x and y named in params are inputs, drawn by name (grey, no grad), never as "constant":
    x reaches MmBackward0 as x.unsqueeze(0) (a view), and after backward() the saved tensors
    are freed, so there the names are matched by shape."""
    x, y, w, b, z, loss = bce_network()
    params = dict(x=x, y=y, w=w, b=b)
    for when in ("before backward", "after backward"):
        src = viz.draw_graph(loss, params=params, show_data=False).source
        by_title = {title(attrs): attrs for attrs in nodes_of(src).values()}
        assert "constant" not in by_title, (when, sorted(by_title))
        assert fill(by_title["x"]) == COLORS["frozen"][0] == fill(by_title["y"]), when
        assert "used as [1, 5]" in by_title["x"], when
        pairs = titled_edges(src)
        assert ("x", "MmBackward0") in pairs and ("y", "BinaryCrossEntropyWithLogitsBackward0") \
            in pairs, when
        if when == "before backward":
            loss.backward()


def test_an_unnamed_constant_is_not_taken_for_a_named_input():
    x = ag.tensor([1.0, 2.0, 3.0])
    w = ag.tensor([0.5, 0.5, 0.5], requires_grad=True)
    c = ag.tensor([7.0, 8.0, 9.0])  # same shape as x, not named
    out = (w * x + c).sum()
    src = viz.draw_graph(out, params={"x": x, "w": w}).source
    by_title = {title(attrs): attrs for attrs in nodes_of(src).values()}
    assert ("x", "MulBackward0") in titled_edges(src)  # found exactly: Mul saved x
    assert ("constant", "AddBackward0") in titled_edges(src)  # c stays a constant
    # two named candidates of the constant's shape: no guess at all
    src = viz.draw_graph((w + c).sum(), params={"x": x, "c2": c * 1}).source
    assert ("constant", "AddBackward0") in titled_edges(src)
    assert "data [1, 2, 3]" in by_title["x"]


def test_number_constants_show_their_value():
    """The 2 of `y = x + 2` (AddBackward0 saves nothing) and the 3 of `y * 3` (saved)."""
    x = ag.ones(2, 2, requires_grad=True)
    y = x + 2
    out = (y * y * 3).mean()
    src = viz.draw_graph(out, params={"x": x}).source
    constants = {d: attrs for s, d, _ in edges_of(src)
                 for n, attrs in nodes_of(src).items() if n == s and title(attrs) == "constant"}
    nodes = nodes_of(src)
    by_consumer = {title(nodes[d]): attrs for d, attrs in constants.items()}
    assert "data 2" in by_consumer["AddBackward0"] and "data 3" in by_consumer["MulBackward0"]
    src = viz.draw_graph((x - 0.5).sum()).source
    assert "data 0.5" in [a for a in nodes_of(src).values() if title(a) == "constant"][0]
    assert "constant  scalar  no grad" in viz.graph_text(out)


def _legend_of(src: str) -> str:
    return src[src.index("subgraph cluster_legend"):]


def test_legend_explains_dashed_saved_and_dotted_edges():
    a, b, q = q_graph()
    legend = _legend_of(viz.draw_graph(q, show_saved=True).source)
    # a and b were saved by PowBackward0: no "saved" node, but dashed edges, in the legend
    assert 'style="dashed"' in legend and "saved for backward" in legend
    assert 'style="dotted"' in legend and "input without gradient" in legend  # the 3
    legend = _legend_of(viz.draw_graph(q).source)
    assert 'style="dashed"' not in legend and "saved for backward" not in legend
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    assert 'style="dotted"' not in _legend_of(viz.draw_graph((x * x).sum()).source)
    assert viz.draw_graph(q, show_saved=True).png().startswith(PNG_SIGNATURE)


# --- issue 13: names and titles that Graphviz would reject ---------------------------------------
@pytest.mark.parametrize("name", ["a\x01b", "line\nbreak", "tab\there", "nul\x00", "\x7f\x85",
                                  "bad\ud800", "non\ufffechar", "<b>&amp;</b>", "中文"])
def test_control_characters_in_names_and_titles_are_shown_escaped(name):
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    x.name = name
    view = viz.draw_graph((x * 2).sum(), title=f"{name}\nsecond line")
    png = view.png()  # dot accepted the DOT (it rejects control characters in labels)
    assert png is not None and png.startswith(PNG_SIGNATURE)
    src = view.source
    assert not re.search(r"[\x00-\x08\x0b-\x1f\ud800-\udfff\ufffe]", src)
    shown = {"a\x01b": r"a\x01b", "line\nbreak": r"line\nbreak", "tab\there": r"tab\there",
             "nul\x00": r"nul\x00", "\x7f\x85": r"\x7f\x85", "bad\ud800": r"bad\ud800",
             "non\ufffechar": r"non\ufffechar", "<b>&amp;</b>": "&lt;b&gt;&amp;amp;&lt;/b&gt;",
             "中文": "中文"}[name]
    assert f"<b>{shown}</b>" in src  # the node title
    # the title: a newline in it breaks the line, any other control character is escaped
    heading = "<b>line</b><br/><b>break</b>" if name == "line\nbreak" else f"<b>{shown}</b>"
    assert f"label=<{heading}<br/><b>second line</b>>" in src
    assert viz.draw_graph((x * 2).sum(), title=f"{name}\nsecond line").source == src


# --- the slider: frames of one size, readout and caption alike, a picture when stored ----------
def test_backward_frames_have_one_pixel_size_and_fixed_layout():
    from autograd_course.viz.display import png_size

    a = ag.tensor([2.0, 3.0], requires_grad=True)
    b = ag.tensor([6.0, 4.0], requires_grad=True)
    frames = viz.backward_steps((a * b + a).sum(), params={"a": a, "b": b})
    captions = [f.caption for f in frames]
    assert len({len(c) for c in captions}) > 1  # captions of different widths...
    sizes = {png_size(f.png()) for f in frames}
    assert len(sizes) == 1, sizes  # ...and still one picture size
    (width, height), = sizes
    assert width <= 960 and height <= 672  # fits a laptop window at natural size
    assert all('dpi=96' in f.graph.source for f in frames)


def test_slider_readout_caption_and_picture():
    pytest.importorskip("ipywidgets")
    from autograd_course.viz.display import png_size

    a = ag.tensor([2.0, 3.0], requires_grad=True)
    b = ag.tensor([6.0, 4.0], requires_grad=True)
    anim = viz.animate_backward((a * b + a).sum(), params={"a": a, "b": b})
    n = len(anim.frames)
    assert n == 5 and anim.slider.readout is False  # the built-in 0-based readout is hidden
    assert anim.readout.value == "1 / 5" and anim.label.value.startswith("step 1 of 5: ")
    first = bytes(anim.image.value)
    width, height = png_size(first)
    assert (anim.image.layout.width, anim.image.layout.height) == (f"{width}px", f"{height}px")
    assert anim.image.layout.object_fit == "contain"  # never stretched: natural size or less
    bundle = anim._repr_mimebundle_()
    assert bundle["image/png"] == first == anim.frames[0].png()  # shown before the kernel runs
    assert bundle["text/plain"] == "<BackwardAnimation: 5 frames>"
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert set(anim._repr_mimebundle_(include={"image/png"})) == {"image/png"}
    anim.slider.value = anim.slider.max  # the last step
    assert anim.readout.value == "5 / 5"
    assert anim.label.value == anim.frames[-1].caption
    assert anim.label.value.startswith("step 5 of 5: AccumulateGrad")
    assert "into b.grad" in anim.label.value
    last = bytes(anim.image.value)
    assert last != first and png_size(last) == (width, height)
    for k in range(n):  # readout and caption count alike, 1..N
        anim.slider.value = k
        assert anim.label.value.startswith(f"step {anim.readout.value.replace(' / ', ' of ')}: ")


def test_strip_fallback_without_widgets(monkeypatch):
    """No ipywidgets (or widget=False): every frame, in order, each one a picture."""
    monkeypatch.setitem(sys.modules, "ipywidgets", None)
    a = ag.tensor([2.0, 3.0], requires_grad=True)
    b = ag.tensor([6.0, 4.0], requires_grad=True)
    strip = viz.animate_backward((a * b + a).sum(), params={"a": a, "b": b})
    assert isinstance(strip, viz.BackwardStrip) and len(strip.frames) == 5
    shown = []
    monkeypatch.setattr("IPython.display.display", shown.append)
    strip._ipython_display_()
    bundles = [f._repr_mimebundle_() for f in shown]
    assert all(b["image/png"].startswith(PNG_SIGNATURE) for b in bundles)
    assert [b["text/plain"] for b in bundles] == [f"<BackwardFrame {k}/5: {f.node_name}>"
                                                  for k, f in enumerate(shown, 1)]
    with pytest.raises(ImportError, match="needs ipywidgets"):
        viz.animate_backward((a * b).sum(), widget=True)
