"""Graph drawings speak the course's language: ``lang="zh"`` draws every word in Chinese, in
Noto Sans CJK SC; ``lang="en"`` (and the default in an English setting) is the English picture.

The rendered Chinese graph goes to build/zh_graph.png (when Graphviz's ``dot`` exists), to look
at by eye; fontconfig must know a font (Noto Sans CJK SC) with every Chinese character the
word table draws.
"""

from __future__ import annotations

import re
import shutil
import string
import subprocess
import sys
from pathlib import Path

import pytest

import autograd_course as ag
from autograd_course import viz
from autograd_course.course import i18n
from autograd_course.viz import words as viz_words

ROOT = Path(__file__).resolve().parents[1]
CJK = re.compile(r"[\u4e00-\u9fff]")
HAS_DOT = shutil.which("dot") is not None
ZH, EN = viz_words.WORDS["zh"], viz_words.WORDS["en"]


@pytest.fixture(autouse=True)
def english_setting(monkeypatch):
    """Every test starts from the English default and leaves the setting as it found it."""
    monkeypatch.delenv("AUTOGRAD_COURSE_LANG", raising=False)
    monkeypatch.setattr(i18n, "_chosen", None)
    assert i18n.get_language() == "en"


def _q_graph():
    a = ag.tensor([2., 3.], requires_grad=True)
    b = ag.tensor([6., 4.], requires_grad=True)
    return a, b, 3 * a**3 - b**2


def _fields(text: str) -> set:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f is not None}


def test_word_tables_have_the_same_keys_and_fields():
    assert set(ZH) == set(EN)
    for key in EN:
        assert _fields(ZH[key]) == _fields(EN[key]), key
        assert CJK.search(ZH[key]), f"zh word {key!r} is not Chinese: {ZH[key]!r}"
        assert not CJK.search(EN[key]), key
    assert viz_words.FONTS == {"en": "Helvetica", "zh": "Noto Sans CJK SC"}


def _saving_graph():
    x = ag.tensor([1., 2.], requires_grad=True)
    w = ag.tensor([3., 4.], requires_grad=True)
    return (x.exp() * w).sum()  # saves exp(x), a tensor drawn nowhere else


def test_draw_graph_zh_uses_chinese_words_and_the_cjk_font():
    a, b, q = _q_graph()
    dot = viz.draw_graph(q, params={"a": a}, show_saved=True, lang="zh").source
    saving = viz.draw_graph(_saving_graph(), show_saved=True, lang="zh").source
    for text in (dot, saving):
        assert 'fontname="Noto Sans CJK SC"' in text and "Helvetica" not in text
    for key in ["legend", "legend_output", "legend_leaf", "legend_frozen", "legend_function",
                "legend_saved_edge", "legend_nograd_edge", "output", "constant", "tensor",
                "scalar"]:
        assert ZH[key] in dot, (key, ZH[key])
    for key in ["legend_saved", "saved", "legend_saved_edge"]:
        assert f">{ZH[key]}<" in saving, (key, ZH[key])
    assert ZH["data"].format(values="[2, 3]") in dot  # a's values
    for key in ["legend", "legend_output", "legend_frozen", "constant", "scalar", "saved"]:
        for text in (dot, saving):
            assert f">{EN[key]}<" not in text and f">{EN[key]} " not in text, key
    assert "MulBackward0" in dot and "AccumulateGrad" in dot  # program names stay


def test_draw_graph_en_is_the_english_default():
    a, b, q = _q_graph()
    default = viz.draw_graph(q, params={"a": a, "b": b}, show_saved=True).source
    english = viz.draw_graph(q, params={"a": a, "b": b}, show_saved=True, lang="en").source
    assert default == english
    assert not CJK.search(english)
    assert 'fontname=Helvetica' in english and "Noto" not in english
    for key in ["legend", "legend_output", "legend_leaf", "legend_frozen", "output", "constant"]:
        assert EN[key] in english, key


@pytest.mark.needs_cjk_font  # without one, default drawings fall back to English words
def test_the_setting_chooses_the_default(monkeypatch):
    a, b, q = _q_graph()
    zh = viz.draw_graph(q, lang="zh").source
    i18n.set_language("zh")
    try:
        assert viz.draw_graph(q).source == zh
        assert viz.graph_text(q) == viz.graph_text(q, lang="zh")
    finally:
        i18n.set_language(None)
    monkeypatch.setenv("AUTOGRAD_COURSE_LANG", "zh")
    assert viz.draw_graph(q).source == zh
    with pytest.raises(ValueError, match="lang must be one of"):
        viz.draw_graph(q, lang="fr")


def test_graph_text_and_fallback_in_chinese():
    x = ag.tensor([1., 2.], requires_grad=True)
    y = (x * 3).sum()
    text = viz.graph_text(y, params={"x": x}, lang="zh")
    assert f"{ZH['constant']}  {ZH['scalar']}  {ZH['no_grad']}  = 3" in text
    assert f"AccumulateGrad  x  [2]  {ZH['requires_grad']}" in text
    assert ZH["requires_grad"] == "需要梯度"
    assert "requires_grad" not in text  # a leaf's state and a constant's are both Chinese words
    view = viz.draw_graph(y, lang="zh")
    assert view.lang == "zh" and view.copy().lang == "zh"
    assert view.fallback_text().endswith(ZH["install_hint"])
    assert viz.draw_graph(y).fallback_text().endswith(viz.INSTALL_HINT)


def test_more_nodes_and_notes_in_chinese():
    x = ag.tensor(1.0, requires_grad=True)
    t = x
    for _ in range(6):
        t = t * 1.5
    dot = viz.draw_graph(t, max_nodes=3, lang="zh").source
    assert re.search(r"… 另有 \d+ 个节点", dot)
    y = _saving_graph()
    y.backward()
    assert ZH["saved_freed"] in viz.draw_graph(y, show_saved=True, lang="zh").source
    assert EN["saved_freed"] in viz.draw_graph(y, show_saved=True).source


def test_backward_frames_in_chinese():
    a, b, q = _q_graph()
    frames = viz.backward_steps(q, gradient=ag.tensor([1., 1.]), params={"a": a, "b": b},
                                lang="zh")
    n = len(frames)
    assert frames[0].caption.startswith(f"第 1/{n} 步：SubBackward0 收到 [1, 1]，传出 ")
    leaf = [f for f in frames if f.node_name == "AccumulateGrad"]
    assert leaf and all(" 累加进 " in f.caption and f.caption.endswith(".grad") for f in leaf)
    dot = frames[1].graph.source
    assert ZH["legend_running"] in dot and ZH["legend_done"] in dot
    assert 'fontname="Noto Sans CJK SC"' in dot


def test_backward_frames_default_to_english():
    a, b, q = _q_graph()
    frames = viz.backward_steps(q, gradient=ag.tensor([1., 1.]))
    assert frames[0].caption.startswith(f"step 1 of {len(frames)}: SubBackward0 gets [1, 1]")
    assert not CJK.search(frames[-1].graph.source)


@pytest.mark.skipif(not HAS_DOT, reason="Graphviz's dot program is not installed")
def test_slider_speaks_chinese():
    pytest.importorskip("ipywidgets")
    x = ag.tensor([1., 2.], requires_grad=True)
    anim = viz.animate_backward((x * 2).sum(), lang="zh")
    assert anim.slider.description == ZH["slider"]
    assert anim.label.value.startswith("第 1/3 步：")


@pytest.mark.skipif(not HAS_DOT, reason="Graphviz's dot program is not installed")
def test_zh_graph_renders():
    """Render one Chinese graph to build/zh_graph.png (look at it: Chinese glyphs, no boxes)."""
    a, b, q = _q_graph()
    view = viz.draw_graph(q, params={"a": a, "b": b}, show_saved=True,
                          title="Q = 3a³ − b² 的计算图", lang="zh")
    png = view.png()
    assert png is not None and png.startswith(b"\x89PNG")
    out = ROOT / "build" / "zh_graph.png"
    out.parent.mkdir(exist_ok=True)
    out.write_bytes(png)


@pytest.mark.skipif(not HAS_DOT or shutil.which("fc-list") is None,
                    reason="needs Graphviz's dot and fontconfig's fc-list")
@pytest.mark.needs_cjk_font
def test_fontconfig_has_every_chinese_glyph_the_graphs_draw():
    """Graphviz (through Pango and fontconfig) draws a character missing from the named font
    with any installed font that has it, and as a box when none has: so one installed font
    must cover every Chinese character of the word table, and Noto Sans CJK SC should."""
    chars = sorted({c for text in ZH.values() for c in text if CJK.match(c)})
    charset = " ".join(f"{ord(c):x}" for c in chars)
    found = subprocess.run(["fc-list", f":charset={charset}", "family"], capture_output=True,
                           text=True, timeout=60).stdout
    assert found.strip(), ("no installed font has all of " + "".join(chars)
                           + ": run scripts/ensure_cjk_font.sh (fonts-noto-cjk)")
    families = {name.strip() for line in found.splitlines() for name in line.split(",")}
    if sys.platform.startswith("linux"):  # macOS draws them in PingFang SC just as well
        assert viz_words.FONTS["zh"] in families, (
            f"{viz_words.FONTS['zh']} is not installed (found {sorted(families)[:5]})")


def test_chinese_box_titles_keep_apart_from_the_line_below():
    """Noto Sans CJK fills its line: a Chinese title gets a thin empty line under it; English
    boxes are drawn as they always were."""
    x = ag.tensor([1., 2.], requires_grad=True)
    y = (x * 3).sum()
    gap = '<br/><font point-size="4"> </font>'
    zh, en = viz.draw_graph(y, lang="zh").source, viz.draw_graph(y, lang="en").source
    assert f"<b>{ZH['constant']}</b>{gap}<br/>" in zh and f"<b>{ZH['output']}</b>{gap}<br/>" in zh
    assert "<b>MulBackward0</b>>" in zh  # a title alone needs no gap
    assert gap not in en and "<b>constant</b><br/>" in en
