"""The Chinese prose says what the English prose says, and renders without stray spaces.

* drift: for each pair of markdown cells (``notebooks/[solutions/]X`` and its twin under
  ``notebooks/zh/``), the inline code spans, the link targets and the numbers (10 and up, or
  with a fraction) of the two editions are the same — a Chinese bullet about ``sum_to`` beside an
  English one about ``backward`` fails here. Where the English quotes what a checker prints
  (`correct`), the Chinese quotes the Chinese message (`正确`).
* line breaks: no markdown cell of the Chinese edition breaks a line between two Chinese
  characters (or Chinese punctuation): Markdown renders such a break as a space in the middle
  of a sentence.

Both checks also run on small synthetic cells, to show they fail.
"""

from __future__ import annotations

import pytest
from zh_compare import (
    NOTEBOOKS,
    chinese_course,
    cjk_line_breaks,
    english_twin,
    prose_drift,
    prose_facts,
)

from autograd_course.course.exercises.messages_en import MESSAGES as MESSAGES_EN
from autograd_course.course.exercises.messages_zh import MESSAGES as MESSAGES_ZH
from autograd_course.course.zh_terms import HINT, VERDICTS

nbformat = pytest.importorskip("nbformat")
new_markdown = nbformat.v4.new_markdown_cell


def _rel(path) -> str:
    return path.relative_to(NOTEBOOKS).as_posix()


def translated_spans() -> dict[str, str]:
    """English code span -> the Chinese edition's span: the verdicts a checker prints."""
    spans = {}
    for english, key in VERDICTS.items():
        assert english == MESSAGES_EN[key].format(hint="<a hint>"), (english, key)
        spans[english] = MESSAGES_ZH[key].format(hint=HINT)
    return spans


@pytest.mark.parametrize("path", chinese_course(), ids=_rel)
def test_prose_keeps_the_english_code_numbers_and_links(path):
    problems = prose_drift(nbformat.read(english_twin(path), as_version=4),
                           nbformat.read(path, as_version=4), translated_spans())
    assert not problems, f"{_rel(path)}:\n" + "\n".join(problems)


@pytest.mark.parametrize("path", chinese_course(), ids=_rel)
def test_no_line_break_between_chinese_characters(path):
    breaks = cjk_line_breaks(nbformat.read(path, as_version=4))
    assert not breaks, f"{_rel(path)}: {len(breaks)} line breaks inside Chinese text\n" + \
        "\n".join(breaks[:20])


# --- the checks themselves -------------------------------------------------------------------
def _notebook(*sources):
    nb = nbformat.v4.new_notebook()
    nb.cells = [new_markdown(s) for s in sources]
    return nb


def test_drift_is_found_in_code_spans_numbers_and_links():
    english = _notebook("* `backward` returns gradients of the output's shape (chapter 2).",
                        "Step 2 gives $(0.9424,\n1.8848)$ after 15 calls, see [ch 2](02_x.ipynb).",
                        "Each checker should print `correct`.")
    same = _notebook("* `backward` 返回与输出形状相同的梯度（第 2 章）。",
                     "调用 15 次之后，第 2 步得到 $(0.9424, 1.8848)$，见[第 2 章](02_x.ipynb)。",
                     "每个检查器都应当打印 `正确`。")
    assert prose_drift(english, same, translated_spans()) == []
    drifted = _notebook("* `sum_to` 把经过广播的梯度折叠回每个输入的形状（第 2 章）。",
                        "调用 16 次之后，第 2 步得到 $(0.9424, 1.8848)$，见[第 2 章](02_y.ipynb)。",
                        "每个检查器都应当判定为正确。")
    problems = prose_drift(english, drifted, translated_spans())
    assert [p.split(":")[0] for p in problems] == ["cell 0 code", "cell 1 links",
                                                   "cell 1 numbers", "cell 2 code"], problems


def test_prose_facts_ignore_math_code_blocks_and_small_numbers():
    facts = prose_facts("three zeros, five ones and `x`:\n```python\ny = 12345\n```\n"
                        "$z = 1000 w$ and 60-minute blitz, the 10th call, 5×3, 3.5 ms")
    assert facts == {"code": {"x"}, "links": set(), "numbers": {"60", "10", "3.5"}}


def test_line_breaks_between_chinese_characters_are_found():
    nb = _notebook("第一行写到这里，\n第二行接着写。", "中文后面接 English\nwords 没问题。",
                   "标题\n\n新段落", "```\n代码块里的中文\n换行不算\n```", "**加粗**\n  继续",
                   "列表项：\n* 第一项")
    assert [b.split(":")[0] for b in cjk_line_breaks(nb)] == ["cell 0", "cell 4"]
