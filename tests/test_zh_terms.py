"""The Chinese edition writes one word per concept, as its term table says
(``autograd_course/course/zh_terms.py``), and its boilerplate one way.

* no variant the table rules out in any zh chapter or solutions notebook (markdown, comments and
  strings), in the checkers' Chinese messages or in the drawings' Chinese words — except a
  note's own word in a row or sentence that names the note;
* the appendix's glossary lists every term, and the notes that use each note's word; the
  English glossary has the same rows (word, note or Chinese, chapters);
* one review heading and first sentence, one solutions title and first paragraph, one way to
  label an exercise, one header style for the key-term tables, one package-only marker
  (*（本课程包专有：画图）*) where the English has *(package-only: the drawing)*, in the section
  of every tagged cell;
* where the prose quotes what a checker prints, it quotes the Chinese catalogue exactly.

The rules are also run on small texts, so that each can be seen to fail.
"""

from __future__ import annotations

import re

import pytest
from zh_compare import NOTEBOOKS, chinese_course, english_twin

from autograd_course.course import zh_terms
from autograd_course.course.exercises.messages_zh import MESSAGES as MESSAGES_ZH
from autograd_course.course.zh_terms import TERMS, variants_in
from autograd_course.viz.words import WORDS

nbformat = pytest.importorskip("nbformat")

ZH = NOTEBOOKS / "zh"
CHAPTERS = sorted(ZH.glob("[0-9][0-9]_*.ipynb"))
SOLUTIONS = sorted((ZH / "solutions").glob("*.ipynb"))


def _rel(path) -> str:
    return path.relative_to(NOTEBOOKS).as_posix()


def _read(path):
    return nbformat.read(path, as_version=4)


def _markdown(path):
    return [(i, c.source) for i, c in enumerate(_read(path).cells) if c.cell_type == "markdown"]


# --- one word per concept -----------------------------------------------------------------------
@pytest.mark.parametrize("path", chinese_course(), ids=_rel)
def test_notebook_uses_the_term_table(path):
    found = [f"cell {i}: {v}" for i, c in enumerate(_read(path).cells)
             for v in variants_in(c.source)]
    assert not found, f"{_rel(path)}:\n" + "\n".join(found)


def test_checker_messages_and_drawings_use_the_term_table():
    found = [f"{key}: {v}" for table in (MESSAGES_ZH, WORDS["zh"])
             for key, text in table.items() for v in variants_in(text)]
    assert not found, "\n".join(found)


def test_chinese_messages_have_no_markdown():
    """Checkers print plain text: *emphasis* would show its asterisks."""
    marked = {k: v for k, v in MESSAGES_ZH.items() if re.search(r"(?<![\w*])\*[^*\s][^*]*\*", v)}
    assert not marked, marked


@pytest.mark.parametrize("text, variant", [
    ("梯度下降的一步是*就地*修改参数", "就地"),
    ("权重矩阵 `w` 和偏差 `b` 都需要梯度", "偏差"),
    ("在等高线图上看清涅斯捷罗夫动量", "涅斯捷罗夫"),
    ("| device | 设备 / 中央处理器 / 图形处理器 |", "中央处理器"),
    ("本章把 note 000 的训练步搬到 GPU 上", "note 000"),
    ("运行其下方检验该说法的代码单元。", "单元"),
    ("运行下面的单元，看看会发生什么", "单元"),
    ("两个检查函数在没有 GPU 的机器上都能工作", "检查函数"),
    ("大多数反向传播需要前向传播中的张量", "前向"),
    ("*（画图是 package-only 的：`ag.viz` 是本课程自己的计算图查看器。）*", "package-only"),
    ("*（画图仅限本课程包：`ag.viz` 是本课程自己的计算图查看器。）*", "仅限本课程包"),
    ("这个单元格测的是引擎，所以仅限课程包", "仅限课程包"),
    ("用海森矩阵与向量的乘积", "海森"),
    ("梯度检查点用重新计算换内存", "梯度检查点"),
    ("累积梯度之后的钩子在 `.grad` 更新后触发", "累积梯度之后的钩子"),
])
def test_the_rules_catch_each_variant(text, variant):
    found = variants_in(text)
    assert found and found[0].startswith(variant), found


@pytest.mark.parametrize("text", [
    "| 参数 / 权重 / 偏差 | 002 | parameters / weights / bias |",  # a note's key-term row
    "权重矩阵 `w` 和偏置 `b`（笔记里叫“偏差”）都需要梯度",  # the note's word, named as such
    "| 前向传播 / 后向传播 | 001 | forward pass / backward pass |",
    "GPU 能同时运行成千上万个运算单元",  # compute units, not notebook cells
    "原地修改、Nesterov 动量、笔记 000、单元格、检查器、偏置、视图、设备、CPU 与 GPU",
    "*（本课程包专有：画图）*",  # the one short marker (issue 46)
    "| Hessian | 黑塞矩阵（也译海森矩阵） | 标量函数全部二阶导数组成的矩阵 |",
    "激活检查点（也叫梯度检查点）用重新计算换内存",
])
def test_the_rules_accept_the_table_and_the_notes_words(text):
    assert variants_in(text) == []


# --- the glossary ---------------------------------------------------------------------------
def _glossary() -> str:
    cells = [s for _, s in _markdown(ZH / "appendix_map.ipynb") if "## 术语表" in s]
    assert len(cells) == 1, "the appendix has one glossary cell (## 术语表)"
    return cells[0]


def _items(row: str) -> set[str]:
    """The words of a table row: "| a / b | c, d |" -> {"a", "b", "c", "d", "a / b", "c, d"}."""
    cells = [c.strip() for c in row.strip("|").split("|")]
    return set(cells) | {w.strip() for c in cells for w in re.split(r"[,/]", c)}


@pytest.mark.parametrize("term", [t for t in TERMS if t.glossary], ids=lambda t: t.en)
def test_glossary_lists_the_term(term):
    rows = [line for line in _glossary().splitlines() if line.startswith("|")]
    assert any(term.en in _items(row) and term.zh in row for row in rows), (
        f"no glossary row gives {term.en!r} as {term.zh!r}")
    if term.note_word:
        row = next((r for r in rows if re.match(rf"\|[^|]*{term.note_word}", r)), None)
        assert row is not None, f"the glossary does not list the notes' word {term.note_word}"
        words = [w.strip() for w in row.split("|")[1].split("/")]
        notes = [n.strip() for n in row.split("|")[2].split("/")]
        assert len(words) == len(notes), row
        assert notes[words.index(term.note_word)] == term.in_notes, (
            f"{term.note_word} is used by notes {term.in_notes}: {row}")


def _glossary_rows(glossary: str) -> list[tuple[str, str, str]]:
    """(word, its note or its Chinese, chapters) of each row of a glossary's tables: the columns
    both editions write alike (the headers and the meaning are each edition's own words)."""
    rows = [[c.strip() for c in line.strip().strip("|").split("|")]
            for line in glossary.splitlines() if line.startswith("|")]
    headers = {k - 1 for k, r in enumerate(rows) if set("".join(r)) <= set("-: ")}
    return [(r[0], r[1], r[-1]) for k, r in enumerate(rows)
            if k not in headers and not set("".join(r)) <= set("-: ")]


def test_both_editions_list_the_same_glossary():
    cells = [s for _, s in _markdown(NOTEBOOKS / "appendix_map.ipynb") if "## Glossary" in s]
    assert len(cells) == 1, "the English appendix has one glossary cell (## Glossary)"
    english = _glossary_rows(cells[0].split("## Glossary", 1)[1])
    chinese = _glossary_rows(_glossary().split("## 术语表", 1)[1])
    assert english and english == chinese, (
        f"only English: {sorted(set(english) - set(chinese))}, "
        f"only Chinese: {sorted(set(chinese) - set(english))}")


def test_the_glossary_comparison_can_fail():
    english = ("| standard term | 中文 | meaning | chapter |\n|---|---|---|---|\n"
               "| view | 视图 | a tensor sharing memory | 5 |\n| device | 设备 | CPU or GPU | 8 |")
    chinese = ("| 标准术语（英文） | 中文（通行译法） | 含义 | 章 |\n|---|---|---|---|\n"
               "| view | 视图 | 共享内存的张量 | 5 |\n| device | 设备 | CPU 或 GPU | 8 |")
    assert _glossary_rows(english) == _glossary_rows(chinese) == [
        ("view", "视图", "5"), ("device", "设备", "8")]
    assert _glossary_rows(english) != _glossary_rows(chinese.rsplit("\n", 1)[0])


# --- one way to write the boilerplate ----------------------------------------------------------
@pytest.mark.parametrize("path", CHAPTERS, ids=_rel)
def test_review_section_is_introduced_one_way(path):
    reviews = [s for _, s in _markdown(path) if s.startswith("## 复习")]
    assert len(reviews) == 1, f"{_rel(path)}: {len(reviews)} review sections"
    heading, _, rest = reviews[0].partition("\n\n")
    assert heading == zh_terms.REVIEW_HEADING
    assert rest.split("\n\n")[0] == zh_terms.REVIEW_INTRO, rest[:200]


@pytest.mark.parametrize("path", SOLUTIONS, ids=_rel)
def test_solutions_title_and_first_paragraph(path):
    title, _, rest = _read(path).cells[0].source.partition("\n\n")
    m = zh_terms.SOLUTIONS_TITLE.match(title)
    assert m and m.group(1) == str(int(path.name[:2])), title
    m = zh_terms.SOLUTIONS_INTRO.fullmatch(rest.strip())
    assert m and m.group(1) == path.name[:2], rest
    assert "`正确`" in rest and MESSAGES_ZH["verdict.correct"] == "正确"


@pytest.mark.parametrize("path", CHAPTERS + SOLUTIONS, ids=_rel)
def test_exercises_are_labelled_one_way(path):
    bad = []
    for i, source in _markdown(path):
        for start in zh_terms.EXERCISE_START.finditer(source):
            if not zh_terms.EXERCISE_LABEL.match(source, start.start()):
                bad.append(f"cell {i}: {source[start.start():start.start() + 40]!r}")
            elif "solutions" in path.parts and " — " in source[start.start():start.start() + 12]:
                bad.append(f"cell {i}: a solution names the exercise by number only")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("path", [p for p in CHAPTERS if not p.name.startswith("00")], ids=_rel)
def test_key_term_tables_have_one_header_style(path):
    first = _read(path).cells[0].source
    assert zh_terms.KEY_TERMS_TITLE + "\n" in first, "the key terms are titled **关键术语**"
    lines = first.split(zh_terms.KEY_TERMS_TITLE, 1)[1].splitlines()
    headers = [lines[k - 1] for k in range(1, len(lines)) if re.match(r"^\|(-+\|)+$", lines[k])]
    assert headers, "no key-term table"
    assert all(h in zh_terms.KEY_TERMS_HEADERS for h in headers), headers


def test_the_rules_for_boilerplate_can_fail():
    assert not zh_terms.SOLUTIONS_TITLE.match("# 解答 — 第 0 章：欢迎")
    assert not zh_terms.SOLUTIONS_INTRO.fullmatch(
        "`07_training.ipynb` 中练习的完整解答（note 000）。运行后，每个检查函数都应报告答案正确。")
    assert not zh_terms.EXERCISE_LABEL.match("**练习 0.1.** 乘积贡献")
    assert zh_terms.EXERCISE_LABEL.match("**练习 3.1。** 用一个列表当栈")
    assert zh_terms.EXERCISE_LABEL.match("**练习 7.1 — Nesterov 动量。** 补全")
    assert "| 笔记里的说法 | 出处 | English |" not in zh_terms.KEY_TERMS_HEADERS


# --- the package-only marker ------------------------------------------------------------------
EN_MARKER = re.compile(r"\*\(package-only(?:: [^()\n]+)?\)\*")


def _marker_problems(english_cells, chinese_cells, sections: bool = True) -> list[str]:
    """Where the zh edition's package-only marker is missing or written another way: 本课程包专有
    is only ever written as the marker (*（本课程包专有：画图）*); each markdown cell has as many
    markers as its English twin; and, with ``sections``, a code cell tagged package-only has the
    marker in its section (the markdown above it, up to the section's heading; the solutions
    notebooks, whose tagged cells are all checkers, carry no markers). Cells are
    (type, source, tags)."""
    problems = []
    for i, ((en_type, en, _), (_, zh, tags)) in enumerate(zip(english_cells, chinese_cells)):
        if en_type == "markdown":
            rest = zh_terms.PACKAGE_ONLY_MARKER.sub(" ", zh)
            problems += [f"cell {i}: not the marker: {ln.strip()[:80]}"
                         for ln in rest.splitlines() if zh_terms.PACKAGE_ONLY in ln]
            en_n = len(EN_MARKER.findall(en))
            zh_n = len(zh_terms.PACKAGE_ONLY_MARKER.findall(zh))
            if en_n != zh_n:
                problems.append(f"cell {i}: {en_n} English markers, {zh_n} zh")
        elif sections and "package-only" in tags:
            section = []
            for kind, above, _ in reversed(chinese_cells[:i]):
                if kind == "markdown":
                    section.append(above)
                    if above.lstrip().startswith("#"):
                        break
            if not any(zh_terms.PACKAGE_ONLY_MARKER.search(t) for t in section):
                problems.append(f"cell {i}: package-only, and its section has no marker")
    return problems


def _cells(path):
    return [(c.cell_type, c.source, c.metadata.get("tags", [])) for c in _read(path).cells]


@pytest.mark.parametrize("path", CHAPTERS + SOLUTIONS, ids=_rel)
def test_package_only_cells_are_marked_one_way(path):
    problems = _marker_problems(_cells(english_twin(path)), _cells(path),
                                sections="solutions" not in path.parts)
    assert not problems, f"{_rel(path)}:\n" + "\n".join(problems)


def test_the_marker_rule_can_fail():
    code = ("code", "ag.viz.draw(y)", ["package-only"])
    english = [("markdown", "## 1. A graph\n\nThe graph:\n\n*(package-only: the drawing)*", []),
               code]
    good = "## 1. 计算图\n\n计算图：\n\n*（本课程包专有：画图）*"
    assert _marker_problems(english, [("markdown", good, []), code]) == []
    old = "## 1. 计算图\n\n计算图（画图本课程包专有：`ag.viz` 是本课程的查看器）："
    assert _marker_problems(english, [("markdown", old, []), code]) == [
        "cell 0: not the marker: 计算图（画图本课程包专有：`ag.viz` 是本课程的查看器）：",
        "cell 0: 1 English markers, 0 zh", "cell 1: package-only, and its section has no marker"]
    assert _marker_problems(english, [("markdown", "## 1. 计算图\n\n计算图：", []), code]) == [
        "cell 0: 1 English markers, 0 zh", "cell 1: package-only, and its section has no marker"]
    assert _marker_problems(english, [("markdown", "## 1. 计算图\n\n计算图：", []), code],
                            sections=False) == ["cell 0: 1 English markers, 0 zh"]


# --- what the checkers print, quoted --------------------------------------------------------
def test_chapter_0_quotes_the_verdicts_the_checkers_print():
    """Chapter 0 tells the reader the three verdicts; they must be the catalogue's words."""
    intro = next(s for _, s in _markdown(ZH / "00_welcome.ipynb") if s.startswith("## 怎样使用"))
    for key in zh_terms.VERDICTS.values():
        quoted = MESSAGES_ZH[key].format(hint=zh_terms.HINT)
        assert f"`{quoted}`" in intro, quoted
