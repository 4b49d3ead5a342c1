"""Checks on the committed notebooks themselves (not their code): executed, kernel, ignore ratio,
the shape every chapter shares, and expected errors that are really expected.

nbval compares every output cell except those marked ``NBVAL_IGNORE_OUTPUT`` / ``NBVAL_SKIP``
(as a comment line or a cell tag) and except images, which it never compares. The course
promises that at most 10% of output cells escape comparison; this test counts them, tags and
comments alike, over every notebook (chapters and solutions). Markers are written as the cell
tag ``nbval-ignore-output``, never as a comment.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
ALL = sorted(p for p in NOTEBOOKS.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
CHAPTERS = sorted(p for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
MAX_IGNORED = 0.10

# What nbval (0.11) reads from a cell: comment markers anywhere in the source, or tags.
IGNORE_MARKERS = {"NBVAL_IGNORE_OUTPUT", "PYTEST_VALIDATE_IGNORE_OUTPUT", "NBVAL_SKIP"}
IGNORE_TAGS = {"nbval-ignore-output", "pytest-validate-ignore-output", "nbval-skip"}
# Output keys nbval never compares (without --nbdime).
UNCOMPARED_KEYS = {"image/png", "image/jpeg", "application/vnd.jupyter.widget-view+json"}
NOTE_NAME = re.compile(r"\bnotes?\s+00[0-2]\b", re.IGNORECASE)
TIME = re.compile(r"\*Time: about (\d+) minutes\.\*")
# Handlers for optional imports may fall back silently; any other expected error may not.
OPTIONAL_IMPORT_ERRORS = {"ImportError", "ModuleNotFoundError"}


def _read(path: Path):
    return nbformat.read(path, as_version=4)


def _marked_ignored(cell) -> bool:
    for line in cell.source.splitlines():
        line = line.strip()
        if line.startswith("#") and line.lstrip("#").strip() in IGNORE_MARKERS:
            return True
    return bool(IGNORE_TAGS & set(cell.get("metadata", {}).get("tags", [])))


def _has_compared_content(cell) -> bool:
    """True when at least one output carries something nbval compares (text, html, errors)."""
    for out in cell.outputs:
        if out.output_type in ("stream", "error"):
            return True
        if set(out.get("data", {})) - UNCOMPARED_KEYS:
            return True
    return False


def count_output_cells(paths) -> tuple[int, int, list[str]]:
    """(compared, ignored, ignored cell locations) over the code cells that have outputs."""
    compared, ignored, where = 0, 0, []
    for path in paths:
        for i, cell in enumerate(_read(path).cells):
            if cell.cell_type != "code" or not cell.get("outputs"):
                continue
            if _marked_ignored(cell) or not _has_compared_content(cell):
                ignored += 1
                where.append(f"{path.relative_to(NOTEBOOKS)} cell {i}")
            else:
                compared += 1
    return compared, ignored, where


def test_notebooks_exist():
    assert CHAPTERS, f"no chapter notebooks found in {NOTEBOOKS}"


def test_at_most_ten_percent_of_output_cells_are_ignored():
    compared, ignored, where = count_output_cells(ALL)
    total = compared + ignored
    assert total > 0, "no output cells at all: are the notebooks executed?"
    ratio = ignored / total
    assert ratio <= MAX_IGNORED, (
        f"{ignored} of {total} output cells ({ratio:.1%}) escape nbval's comparison; at most "
        f"{MAX_IGNORED:.0%} may. Ignored: {where}"
    )


@pytest.mark.parametrize("path", ALL, ids=lambda p: str(p.relative_to(NOTEBOOKS)))
def test_kernel_is_python3(path):
    assert _read(path).metadata.get("kernelspec", {}).get("name") == "python3"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_chapter_is_executed(path):
    code_cells = [c for c in _read(path).cells if c.cell_type == "code" and c.source.strip()]
    assert code_cells, "a chapter without code"
    unexecuted = [i for i, c in enumerate(code_cells) if c.get("execution_count") is None]
    assert not unexecuted, f"code cells {unexecuted} were never run: execute the notebook"
    assert any(c.get("outputs") for c in code_cells), "no code cell has an output"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_first_markdown_cell_names_a_note(path):
    first = next((c for c in _read(path).cells if c.cell_type == "markdown"), None)
    assert first is not None, "a chapter must open with a markdown cell"
    assert NOTE_NAME.search(first.source), (
        "the first markdown cell must say which note(s) it mirrors, e.g. 'note 001'"
    )


def test_ignore_counting_follows_nbval_rules():
    """The counter itself: markers, tags and image-only outputs count as ignored."""
    v4 = nbformat.v4
    text = v4.new_output("execute_result", data={"text/plain": "1"})
    image = v4.new_output("display_data", data={"image/png": "iVBORw0KGgo="})
    cells = [
        v4.new_code_cell("1", outputs=[text]),
        v4.new_code_cell("# NBVAL_IGNORE_OUTPUT\n1", outputs=[text]),
        v4.new_code_cell("x = 1\n# NBVAL_SKIP", outputs=[text]),
        v4.new_code_cell("1", outputs=[text], metadata={"tags": ["nbval-ignore-output"]}),
        v4.new_code_cell("plot()", outputs=[image]),
        v4.new_code_cell("# not a marker: NBVAL_IGNORE_OUTPUT later in a comment\n1",
                         outputs=[text]),
        v4.new_code_cell("quiet = 1"),
    ]
    assert [_marked_ignored(c) or not _has_compared_content(c)
            for c in cells if c.outputs] == [False, True, True, True, True, False]


def _comment_markers(cell) -> list[str]:
    return [line.strip() for line in cell.source.splitlines()
            if line.strip().startswith("#") and line.strip().lstrip("#").strip() in IGNORE_MARKERS]


@pytest.mark.parametrize("path", ALL, ids=lambda p: str(p.relative_to(NOTEBOOKS)))
def test_ignore_markers_are_tags_not_comments(path):
    found = [i for i, c in enumerate(_read(path).cells)
             if c.cell_type == "code" and _comment_markers(c)]
    assert not found, (f"cells {found} mark ignored output with a comment; use the cell tag "
                       "'nbval-ignore-output' instead")


def _code_tree(source: str) -> ast.Module:
    """The cell's Python, without IPython's %magics and !shell lines."""
    lines = ["" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines()]
    return ast.parse("\n".join(lines))


def silent_excepts(source: str) -> list[int]:
    """Lines of ``try`` statements whose success would pass silently.

    A ``try`` around an expected error must fail when the error does not come: it needs an
    ``else:`` branch that raises. Handlers that only catch a missing optional import are exempt.
    """
    lines = []
    for node in ast.walk(_code_tree(source)):
        if not isinstance(node, ast.Try) or not node.handlers:
            continue
        caught = {ast.unparse(h.type) if h.type is not None else "" for h in node.handlers}
        names = set()
        for expr in caught:
            names |= {part.strip(" ()") for part in expr.split(",")}
        if names and names <= OPTIONAL_IMPORT_ERRORS:
            continue
        if not any(isinstance(n, ast.Raise) for stmt in node.orelse for n in ast.walk(stmt)):
            lines.append(node.lineno)
    return lines


@pytest.mark.parametrize("path", ALL, ids=lambda p: str(p.relative_to(NOTEBOOKS)))
def test_expected_errors_fail_when_they_do_not_come(path):
    bad = {i: silent_excepts(c.source) for i, c in enumerate(_read(path).cells)
           if c.cell_type == "code"}
    bad = {i: lines for i, lines in bad.items() if lines}
    assert not bad, ("cells {cell: [try lines]} catch an expected error without an `else:` "
                     f"branch that raises, so they pass when nothing is raised: {bad}")


def test_silent_except_rule():
    assert silent_excepts("try:\n    f()\nexcept RuntimeError as e:\n    msg = e\n") == [1]
    assert silent_excepts("try:\n    f()\nexcept RuntimeError:\n    pass\n"
                          "else:\n    raise AssertionError\n") == []
    assert silent_excepts("try:\n    import cupy\nexcept ImportError:\n    cupy = None\n") == []
    assert silent_excepts("x = 1\ntry:\n    f()\nfinally:\n    g()\n") == []
    assert silent_excepts("%matplotlib inline\ntry:\n    f()\nexcept (TypeError, ValueError):"
                          "\n    pass\nelse:\n    print('no raise here')\n") == [2]


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_chapter_states_its_time(path):
    first = next(c for c in _read(path).cells if c.cell_type == "markdown")
    match = TIME.search(first.source)
    assert match, "the first cell must state the time, as '*Time: about N minutes.*'"
    assert 10 <= int(match.group(1)) <= 90


def _review_questions(nb) -> list[int]:
    """Indices of review-question cells: markdown with a <details> answer, then a code cell."""
    return [i for i, c in enumerate(nb.cells[:-1])
            if c.cell_type == "markdown" and "<details>" in c.source
            and nb.cells[i + 1].cell_type == "code" and "assert" in nb.cells[i + 1].source]


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_chapter_ends_with_review_questions(path):
    nb = _read(path)
    found = _review_questions(nb)
    assert 4 <= len(found) <= 8, f"{len(found)} review questions; each chapter has 4-8"
    assert any("predict, then run" in c.source.lower() for c in nb.cells
               if c.cell_type == "markdown"), "introduce them as 'predict, then run'"


CHECKER_CALL = re.compile(r"\bch\d\d\.check_\w+\(")


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_chapter_has_two_exercises_with_checkers(path):
    calls = {m.group(0) for c in _read(path).cells if c.cell_type == "code"
             for m in CHECKER_CALL.finditer(c.source)}
    assert len(calls) >= 2, f"checkers called: {sorted(calls)}; each chapter needs at least 2"


@pytest.mark.parametrize("path", sorted(NOTEBOOKS.glob("solutions/*.ipynb")),
                         ids=lambda p: p.name)
def test_solutions_show_correct_for_every_checker(path):
    for i, cell in enumerate(_read(path).cells):
        if cell.cell_type != "code" or not CHECKER_CALL.search(cell.source):
            continue
        text = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
        verdicts = [line for line in text.splitlines()
                    if line.startswith(("correct", "not quite", "not attempted"))]
        assert verdicts and all(v.startswith("correct") for v in verdicts), (i, verdicts)


def _code_cells(path: Path) -> list:
    return [c for c in _read(path).cells if c.cell_type == "code"]


def test_solutions_exist_for_every_chapter_with_exercises():
    have = {p.name[:2] for p in NOTEBOOKS.glob("solutions/*_solutions.ipynb")}
    need = {p.name[:2] for p in CHAPTERS
            if any(CHECKER_CALL.search(c.source) for c in _code_cells(p))}
    assert need <= have, f"chapters without a solutions notebook: {sorted(need - have)}"
