"""Checks on the committed notebooks themselves (not their code): executed, kernel, ignore ratio.

nbval compares every output cell except those marked ``NBVAL_IGNORE_OUTPUT`` / ``NBVAL_SKIP``
(as a comment line or a cell tag) and except images, which it never compares. The course
promises that at most 10% of output cells escape comparison; this test counts them.
"""

from __future__ import annotations

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
