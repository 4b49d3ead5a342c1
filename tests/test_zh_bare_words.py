"""The Chinese prose does not use the bare English words ``backward``, ``loss`` and ``forward``
as Chinese nouns (issue 46: "第二次 backward 需要 …", "从 loss 出发", "这里只给出了 forward").

Where the word means the pass or the value, the prose writes the term table's word
(``autograd_course/course/zh_terms.py``: 反向传播, 正向传播, 损失); where it means the method or
the code, it writes a code span (`` `backward()` ``, `` `forward` ``, `` `loss` ``).

Not prose, so not checked: code (fenced blocks and inline spans), math, HTML tags, link
targets and addresses, table rows (the key-term tables give the English names), an English
gloss in parentheses right after a Chinese word (反向传播（backpropagation，即 backward pass）),
and a quoted English message (*"... non-static forward method is deprecated"*).

The rule also runs on small texts, so that it can be seen to fail.
"""

from __future__ import annotations

import re

import pytest
from zh_compare import NOTEBOOKS, chinese_course

from autograd_course.course.zh_terms import CJK

nbformat = pytest.importorskip("nbformat")

WORDS = ("backward", "loss", "forward")
_BARE = re.compile(rf"(?<![A-Za-z_.]){'|'.join(f'(?:{w})' for w in WORDS)}(?![A-Za-z_])",
                   re.IGNORECASE)
_NOT_PROSE = [
    re.compile(r"```.*?```", re.DOTALL),  # code blocks
    re.compile(r"(?<!`)`[^`]+?`(?!`)", re.DOTALL),  # inline code
    re.compile(r"\$\$.*?\$\$|\$[^$]+?\$", re.DOTALL),  # math
    re.compile(r"<[^>]+>"),  # HTML tags
    re.compile(r"\]\([^)]*\)"),  # link targets
    re.compile(r"https?://\S+"),  # bare addresses
    re.compile(rf"\"[^\"\n{CJK}]*\"|“[^”\n{CJK}]*”"),  # a quoted English message
]
_PHRASE = r"[A-Za-z][A-Za-z' -]*"
# An English gloss right after a Chinese word (bold or not): 反向传播（backward pass）,
# **反向传播**（backpropagation，即 backward pass）.
_GLOSS = re.compile(rf"(?<=[{CJK}])([*_]*)（{_PHRASE}(?:[，,、]\s*(?:即|也叫|或|又称)?\s*"
                    rf"{_PHRASE})*）")


def _blank(match: re.Match) -> str:
    """The match as spaces (line breaks kept), so that what is left keeps its lines."""
    return re.sub(r"[^\n]", " ", match.group(0))


def bare_words(markdown: str) -> list[str]:
    """Each bare ``backward`` / ``loss`` / ``forward`` in the prose of a markdown cell, with the
    line it stands in."""
    text = markdown
    for pattern in _NOT_PROSE:
        text = pattern.sub(_blank, text)
    text = _GLOSS.sub(lambda m: m.group(1) + _blank(m)[len(m.group(1)):], text)
    found = []
    for shown, line in zip(markdown.splitlines(), text.splitlines()):
        if line.lstrip().startswith("|"):  # a table row
            continue
        found += [f"{m.group(0)}: {shown.strip()[:120]}" for m in _BARE.finditer(line)]
    return found


def _rel(path) -> str:
    return path.relative_to(NOTEBOOKS).as_posix()


@pytest.mark.parametrize("path", chinese_course(), ids=_rel)
def test_no_bare_backward_loss_or_forward(path):
    cells = nbformat.read(path, as_version=4).cells
    found = [f"cell {i}: {w}" for i, c in enumerate(cells) if c.cell_type == "markdown"
             for w in bare_words(c.source)]
    assert not found, f"{_rel(path)}:\n" + "\n".join(found)


# --- the rule itself ---------------------------------------------------------------------------
@pytest.mark.parametrize("text, word", [
    ("## 4. 第二次 backward 需要 `retain_graph=True`", "backward"),
    ("从 loss 出发沿着 `next_functions` 走", "loss"),
    ("这里只给出了 forward。请想清楚 `backward` 需要什么", "forward"),
    ("正确的顺序是：Backward，使用梯度", "Backward"),
    ("重置 `w.grad`（backward 是往里加的）", "backward"),  # a Chinese sentence, not a gloss
    ("反向传播（backward pass）之后，loss 变小了", "loss"),  # the gloss is fine, the noun not
    ("| 损失 | loss |\n每次 forward 都记录计算图", "forward"),  # a table row, then prose
    ("见[第 4 章的 backward](04_one_layer_network.ipynb)", "backward"),  # link text is prose
])
def test_the_rule_finds_a_bare_word(text, word):
    found = bare_words(text)
    assert len(found) == 1 and found[0].startswith(word + ":"), found


@pytest.mark.parametrize("text", [
    "第二次 `backward()` 需要 `retain_graph=True`；从损失出发；这里只给出了 `forward`。",
    "每次反向传播加上 $2q$；正向传播记录计算图；`loss.backward()` 之后读 `w.grad`。",
    "**反向传播**（backpropagation，即 backward pass）只负责*计算*梯度",
    "跑通你的第一次反向传播（backward pass）；",
    "| 正向传播 / 反向传播 | 000 | forward pass / backward pass |",
    "```python\nloss = model(x).sum()\nloss.backward()\n```",
    "$L = \\text{loss}(z, y)$",
    "报错 *\"Legacy autograd function with non-static forward method is deprecated\"*。",
    "<details><summary>答案</summary>",
    "见[第 4 章](04_backward_loss.ipynb)",
])
def test_the_rule_passes_code_math_tables_glosses_and_quotes(text):
    assert bare_words(text) == []
