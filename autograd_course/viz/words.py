"""Every word the viewer draws or prints, one table per language, and the font to draw it in.

``draw_graph``, ``graph_text``, ``backward_steps`` and ``animate_backward`` take ``lang=``
(``"en"`` or ``"zh"``). Without it they use the default language: English, unless a
function was installed with ``use_default_language`` (the course layer installs its own, so
a chapter under ``notebooks/zh/`` draws Chinese with no code of its own).

Names from the program itself stay as they are in every language: ``MulBackward0``,
``AccumulateGrad``, ``.grad``, ``grad_fn``; a tensor's state is a word of the language: a leaf
"needs grad" (需要梯度, with ``requires_grad`` beside it in the legend), a constant has "no grad"
(无梯度).

Graphviz draws Chinese only with a font that has the glyphs: ``FONTS["zh"]`` is Noto Sans CJK
SC (Debian: ``fonts-noto-cjk``; conda-forge: ``font-ttf-noto-cjk``; see
``scripts/ensure_cjk_font.sh``). English keeps Helvetica, so its DOT is what it always was.
"""

from __future__ import annotations

from typing import Callable

from . import cjk_font

FONTS = {"en": "Helvetica", "zh": "Noto Sans CJK SC"}

WORDS: dict[str, dict[str, str]] = {
    "en": {
        # legend: kinds of node, kinds of edge, backward frames
        "legend": "legend",
        "legend_output": "output (root)",
        "legend_leaf": "leaf, requires_grad",
        "legend_frozen": "no grad (input, frozen, constant)",
        "legend_intermediate": "intermediate tensor",
        "legend_saved": "saved tensor",
        "legend_function": "grad_fn node",
        "legend_saved_edge": "saved for backward",
        "legend_nograd_edge": "input without gradient",
        "legend_running": "running now",
        "legend_done": "already ran",
        # lines inside a tensor's box
        "data": "data {values}",
        "grad": "grad {values}",
        "scalar": "scalar",
        # titles of tensors that have no name of their own
        "output": "output",
        "tensor": "tensor",
        "constant": "constant",
        "saved": "saved",
        "leaf": "leaf",
        "more_nodes": "… {count:,} more nodes",
        # small notes under a title
        "saved_freed": "saved tensors freed",
        "output_of": "output of {name}",
        "used_as": "used as {shape}",
        # the text tree
        "no_grad": "no grad",
        "requires_grad": "requires_grad",
        "shown_above": "(shown above)",
        # backward frames
        "step": "step {k} of {n}: {name}",
        "adds": "{step} adds {grads} into {name}.grad",
        "gets_sends": "{step} gets {grads_in}, sends {grads_out}",
        "slider": "step",
        "install_hint": (
            "(Graphviz's `dot` program was not found, so the graph is shown as text. Install "
            "it with `apt-get install graphviz`, `brew install graphviz` or `conda install -c "
            "conda-forge graphviz`.)"
        ),
        # in the browser (the static site): the WASM Graphviz is not ready
        "wasm_hint": (
            "(The browser's Graphviz is still loading, so the graph is shown as text: run "
            "this cell again.)"
        ),
    },
    "zh": {
        "legend": "图例",
        "legend_output": "输出（根）",
        "legend_leaf": "叶子节点，需要梯度（requires_grad）",
        "legend_frozen": "无梯度（输入、冻结参数、常量）",
        "legend_intermediate": "中间张量",
        "legend_saved": "保存的张量",
        "legend_function": "grad_fn 节点",
        "legend_saved_edge": "为反向传播保存",
        "legend_nograd_edge": "不需要梯度的输入",
        "legend_running": "正在运行",
        "legend_done": "已运行",
        "data": "数据 {values}",
        "grad": "梯度 {values}",
        "scalar": "标量",
        "output": "输出",
        "tensor": "张量",
        "constant": "常量",
        "saved": "已保存",
        "leaf": "叶子节点",
        "more_nodes": "… 另有 {count:,} 个节点",
        "saved_freed": "保存的张量已释放",
        "output_of": "{name} 的输出",
        "used_as": "以形状 {shape} 参与运算",
        "no_grad": "无梯度",
        "requires_grad": "需要梯度",
        "shown_above": "（见上文）",
        "step": "第 {k}/{n} 步：{name}",
        "adds": "{step} 把 {grads} 累加进 {name}.grad",
        "gets_sends": "{step} 收到 {grads_in}，传出 {grads_out}",
        "slider": "步骤",
        "install_hint": (
            "（没有找到 Graphviz 的 `dot` 程序，所以计算图以文本显示。安装方法："
            "`apt-get install graphviz`、`brew install graphviz` 或 `conda install -c "
            "conda-forge graphviz`。）"
        ),
        "wasm_hint": (
            "（浏览器中的 Graphviz 还在加载，所以计算图暂以文本显示：请再运行一次这个单元格。）"
        ),
    },
}


LANGUAGES = tuple(WORDS)


def _english() -> str:
    return "en"


_default_language: Callable[[], str] = _english


def use_default_language(language: Callable[[], str] | None) -> None:
    """Make ``language()`` ("en" or "zh") the language of drawings that name none; None goes
    back to English. The course layer (``autograd_course.course``) installs the notebook's
    language here when it is imported."""
    global _default_language
    _default_language = _english if language is None else language


def resolve(lang: str | None) -> str:
    """``lang``, or the default language when it is None; an unknown one is a ValueError."""
    lang = _default_language() if lang is None else lang
    if lang not in LANGUAGES:
        raise ValueError(f"lang must be one of {LANGUAGES}, not {lang!r}")
    return lang


def drawing_language(lang: str | None) -> str:
    """The language a drawing uses: ``lang`` when given; otherwise the default language,
    except that Chinese falls back to English words when Graphviz has no font for Chinese (it
    would draw boxes; the course layer says so once, ``course.fonts.NO_FONT_NOTICE``)."""
    if lang is not None:
        return resolve(lang)
    lang = resolve(None)
    return "en" if lang == "zh" and not cjk_font.graphs_can_draw_chinese() else lang


def words(lang: str | None = None) -> dict[str, str]:
    """The table of words for ``lang`` (default: the default language)."""
    return WORDS[resolve(lang)]


def font(lang: str | None = None) -> str:
    """The font name Graphviz is told to draw ``lang`` with."""
    return FONTS[resolve(lang)]
