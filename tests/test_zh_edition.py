"""The Chinese edition (notebooks/zh/) is the English course with its prose translated.

* every Chinese notebook has an English twin, and the two agree in number of cells, cell
  types, tags and code (comments and string literals aside): ``zh_compare.compare_notebooks``;
* every English chapter and solutions notebook has a Chinese twin (a separate test, so that
  "not translated yet" reads differently from "translated wrong");
* the Chinese notebooks' markdown is Chinese, and they are executed (strict nbval compares
  their outputs);
* the comparer itself catches a changed number, an extra cell, a changed tag and a changed
  cell type, and accepts translated comments, strings and f-strings.
"""

from __future__ import annotations

import json
import tokenize
from pathlib import Path

import pytest
from zh_compare import (
    NOTEBOOKS,
    chinese_course,
    chinese_twin,
    code_signature,
    compare_notebooks,
    english_course,
    english_twin,
    markdown_without_cjk,
    normalize_tokens,
)

nbformat = pytest.importorskip("nbformat")
new_code, new_markdown = nbformat.v4.new_code_cell, nbformat.v4.new_markdown_cell

ZH_NOTEBOOKS = chinese_course()
NO_ZH = pytest.param(None, marks=pytest.mark.skip(reason="notebooks/zh/ has no notebooks yet"))


def _rel(path) -> str:
    return path.relative_to(NOTEBOOKS).as_posix()


def _each_zh():
    return pytest.mark.parametrize(
        "path", [pytest.param(p, id=_rel(p)) for p in ZH_NOTEBOOKS] or [NO_ZH])


# --- the real notebooks ---------------------------------------------------------------------
@_each_zh()
def test_chinese_notebook_matches_its_english_twin(path):
    twin = english_twin(path)
    assert twin.is_file(), f"{_rel(path)} has no English twin {_rel(twin)}"
    problems = compare_notebooks(nbformat.read(twin, as_version=4),
                                 nbformat.read(path, as_version=4))
    assert not problems, f"{_rel(path)} differs from {_rel(twin)}:\n" + "\n".join(problems)


def test_every_english_notebook_has_a_chinese_twin():
    missing = [_rel(chinese_twin(p)) for p in english_course() if not chinese_twin(p).is_file()]
    assert not missing, (f"{len(missing)} English notebooks have no Chinese twin yet; missing: "
                         + ", ".join(missing))


@_each_zh()
def test_chinese_markdown_is_chinese(path):
    nb = nbformat.read(path, as_version=4)
    left = markdown_without_cjk(nb)
    assert not left, f"{_rel(path)}: markdown cells {left} have no Chinese text"
    assert any(c.cell_type == "markdown" for c in nb.cells), "no prose at all"


@_each_zh()
def test_chinese_notebook_is_executed(path):
    code = [c for c in nbformat.read(path, as_version=4).cells
            if c.cell_type == "code" and c.source.strip()]
    unrun = [i for i, c in enumerate(code) if c.get("execution_count") is None]
    assert not unrun, f"{_rel(path)}: code cells {unrun} never ran (make notebooks)"


# --- the comparer, on small synthetic notebooks ---------------------------------------------
CODE = '''import autograd_course as ag

def loss_of(x):
    """Mean squared error."""
    return ((x - 1) ** 2).mean()  # one number

x = ag.tensor([1.0, 2.0], requires_grad=True)
loss = loss_of(x)
print(f"loss = {loss.item():.3f}", "(should be 0.5)")
'''
CODE_ZH = '''import autograd_course as ag

def loss_of(x):
    """均方误差。"""
    return ((x - 1) ** 2).mean()  # 一个数

# 两个元素的张量（叶子节点）
x = ag.tensor([1.0, 2.0], requires_grad=True)
loss = loss_of(x)
print(f"损失 = {loss.item():.3f}",
      "（应为 " "0.5）")
'''


def _notebook(*cells):
    nb = nbformat.v4.new_notebook()
    nb.cells = list(cells)
    return nb


def _english():
    return _notebook(new_markdown("# Chapter\nSome prose."),
                     new_code(CODE, metadata={"tags": ["nbval-ignore-output"]}),
                     new_code("x.grad", metadata={"tags": []}))


def _chinese(code=CODE_ZH, tags=("nbval-ignore-output",), extra=()):
    return _notebook(new_markdown("# 第一章\n一些说明（prose）。"),
                     new_code(code, metadata={"tags": list(tags)}),
                     new_code("x.grad  # 梯度"), *extra)


def test_comparer_accepts_translated_comments_strings_and_fstrings():
    assert compare_notebooks(_english(), _chinese()) == []
    assert compare_notebooks(_english(), _english()) == []


def test_comparer_catches_a_changed_number():
    problems = compare_notebooks(_english(), _chinese(CODE_ZH.replace("- 1)", "- 2)")))
    assert len(problems) == 1 and "cell 1" in problems[0] and "'1'" in problems[0], problems


def test_comparer_catches_a_changed_name_or_operator():
    for old, new in [("loss_of(x)\nprint", "loss_of(x + 0)\nprint"), ("** 2", "** 3"),
                     (".mean()", ".sum()"), ("requires_grad=True", "requires_grad=False")]:
        assert old in CODE_ZH
        problems = compare_notebooks(_english(), _chinese(CODE_ZH.replace(old, new)))
        assert problems and "code differs" in problems[0], (old, new, problems)


def test_comparer_catches_an_extra_cell():
    problems = compare_notebooks(_english(), _chinese(extra=[new_markdown("多出来的一段")]))
    assert problems == ["number of cells: English 3, Chinese 4"]
    problems = compare_notebooks(_english(), _chinese(extra=[new_code("")]))
    assert problems == ["number of cells: English 3, Chinese 4"]


def test_comparer_catches_a_changed_tag():
    for tags in [(), ("raises-exception",), ("nbval-ignore-output", "raises-exception")]:
        problems = compare_notebooks(_english(), _chinese(tags=tags))
        assert len(problems) == 1 and "cell 1: tags" in problems[0], (tags, problems)


def test_comparer_catches_a_changed_cell_type():
    zh = _chinese()
    zh.cells[2] = new_markdown("x.grad")
    assert compare_notebooks(_english(), zh) == ["cell 2: English code, Chinese markdown"]


def test_comparer_compares_ipython_lines_as_written():
    assert code_signature("%matplotlib inline\nx = 1") == code_signature(
        "%matplotlib inline\nx = 1  # 一")
    assert code_signature("%matplotlib inline") != code_signature("%matplotlib widget")


def test_untokenizable_cells_are_compared_as_written():
    assert code_signature('x = "open') != code_signature('x = "打开')


def test_fstrings_are_one_placeholder_in_any_python():
    same = ['f"loss {loss:.3f}"', 'f"损失 {loss:.3f}，很好"', '"plain"', "'a' f'b{c}' \"d\"",
            'f"{x!r:>{width}} {f"{y}"}"' if _nested_fstrings_parse() else '"nested"']
    sigs = {tuple(code_signature(f"print({s}, 1)")) for s in same}
    assert len(sigs) == 1, sigs


def _nested_fstrings_parse() -> bool:
    try:
        compile('f"{f"{1}"}"', "<test>", "eval")
    except SyntaxError:
        return False
    return True


def test_python_312_fstring_tokens_become_one_placeholder(monkeypatch):
    """Python 3.12 tokenizes f"a{x}b" as FSTRING_START, FSTRING_MIDDLE, OP '{', NAME x, OP '}',
    FSTRING_MIDDLE, FSTRING_END. Whatever Python runs this test, feed such a stream (nested
    too) and check it becomes one placeholder and the code around it stays."""
    names = {}
    for k, name in enumerate(["FSTRING_START", "FSTRING_MIDDLE", "FSTRING_END"]):
        number = getattr(tokenize, name, None)
        if number is None:
            number = 9000 + k
            monkeypatch.setitem(tokenize.tok_name, number, name)
        names[name] = number

    def tok(kind, text):
        number = names.get(kind, getattr(tokenize, kind, None))
        return tokenize.TokenInfo(number, text, (1, 0), (1, 0), "")

    stream = [tok("NAME", "print"), tok("OP", "("), tok("FSTRING_START", 'f"'),
              tok("FSTRING_MIDDLE", "loss "), tok("OP", "{"), tok("NAME", "x"),
              tok("OP", ":"), tok("FSTRING_START", 'f"'), tok("FSTRING_MIDDLE", ".3f"),
              tok("FSTRING_END", '"'), tok("OP", "}"), tok("FSTRING_END", '"'),
              tok("OP", ","), tok("NAME", "y"), tok("OP", ")"), tok("NEWLINE", "\n")]
    assert normalize_tokens(stream) == [("NAME", "print"), ("OP", "("), ("STRING", "<str>"),
                                        ("OP", ","), ("NAME", "y"), ("OP", ")"),
                                        ("NEWLINE", "\n")]


def test_markdown_check_finds_english_prose_only():
    nb = _notebook(new_markdown("# 第一章 (Chapter 1)"), new_markdown("Left in English."),
                   new_markdown("$$Q = 3a^3 - b^2$$"), new_markdown("`x.grad` [链接](a.ipynb)"),
                   new_markdown("```python\nx = 1\n```\nSee above"), new_code("x = 1"))
    assert markdown_without_cjk(nb) == [1, 4]


def test_no_committed_output_is_missing_a_glyph():
    """A plot whose font lacks a character prints matplotlib's warning into the cell (e.g. a
    Chinese title inside mathtext, which ignores the CJK fallback font)."""
    root = Path(__file__).resolve().parent.parent / "notebooks"
    bad = []
    for path in sorted(root.rglob("*.ipynb")):
        for i, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"]):
            for out in cell.get("outputs", []):
                if "does not have a glyph" in "".join(out.get("text", "")):
                    bad.append(f"{path.relative_to(root)} cell {i}")
    assert not bad, bad
