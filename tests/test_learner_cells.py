"""A learner's cell holds what the learner should read (issue 46).

A *learner's cell* is a code cell not tagged ``package-only``. It holds no test machinery:

* no ``sys.path`` edits and no ``_backend`` (the package's device plumbing);
* no private name of the package: a module or attribute with a leading underscore reached
  from ``ag`` / ``autograd_course`` (``ag._backend``, ``from autograd_course._x import ...``,
  ``engine._run``). PyTorch's own underscore names on tensors and nodes (``_version``,
  ``_saved_self``, ``_sequence_nr()``) are what a learner meets in PyTorch and stay allowed.

And no cell, tagged or not, stores output that goes stale or means nothing:

* line counts of the package's own files (they change with every edit of the code);
* an unfinished progress bar (a bar below 100% in the stored text, the last frame of a stream).

Chapters other engineers are editing at the same time carry their current findings in
``PENDING_OTHER_CHAPTERS``, to be emptied when their fixes land; a finding that is fixed but
still listed fails too, so the list only shrinks.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
ALL = sorted(p for p in NOTEBOOKS.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
PACKAGE = {"ag", "autograd_course"}
BAR = re.compile(r"(\d{1,3})%\|")
LINE_COUNT = re.compile(r"\b\d+ lines? of code\b|\blines? of code: \d+|\b\d+ 行代码")

# Findings in chapters 1-3 and 10-12, which other engineers edit now (issue 46): "path cell: what".
PENDING_OTHER_CHAPTERS: set[str] = set()


def _code_cells(path: Path):
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [(i, c) for i, c in enumerate(cells) if c["cell_type"] == "code"]


def _tagged(cell) -> bool:
    return "package-only" in cell.get("metadata", {}).get("tags", [])


def _python(source: str) -> str:
    """The cell's source without IPython's magics and shell lines."""
    return "\n".join("" if line.lstrip().startswith(("%", "!")) else line
                     for line in source.splitlines())


def machinery(source: str) -> list[str]:
    """The test machinery in a cell's source (see the module docstring)."""
    found = []
    if "sys.path" in source:
        found.append("sys.path")
    if re.search(r"\b_backend\b", source):
        found.append("_backend")
    try:
        tree = ast.parse(_python(source))
    except SyntaxError:
        return found
    package_names = set(PACKAGE)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in PACKAGE:
            parts = node.module.split(".") + [a.name for a in node.names]
            found += [f"import of {p}" for p in parts if p.startswith("_") and not p.endswith("__")]
            package_names |= {a.asname or a.name for a in node.names}
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] in PACKAGE:
                    package_names.add(a.asname or a.name.split(".")[0])
                    found += [f"import of {p}" for p in a.name.split(".") if p.startswith("_")]
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") \
                and not node.attr.endswith("__"):
            base = node.value
            while isinstance(base, ast.Attribute):
                base = base.value
            if isinstance(base, ast.Name) and base.id in package_names:
                found.append(f"private name {node.attr}")
    return found


def stale_output(cell) -> list[str]:
    """Stored output that goes stale (line counts) or shows an unfinished progress bar."""
    found = []
    streams: dict[str, str] = {}  # consecutive stream outputs show as one text
    texts = []
    for out in cell.get("outputs", []):
        text = out.get("text", "")
        if text:
            name = out.get("name", "stdout")
            streams[name] = streams.get(name, "") + ("".join(text) if isinstance(text, list)
                                                      else text)
        texts.append(out.get("data", {}).get("text/plain", ""))
    for text in [*texts, *streams.values()]:
        text = "".join(text) if isinstance(text, list) else text
        for line in text.split("\n"):
            last = line.split("\r")[-1]  # what a terminal or notebook shows in the end
            bar = BAR.search(last)
            if bar and int(bar.group(1)) < 100:
                found.append(f"progress bar at {bar.group(1)}%")
        if LINE_COUNT.search(text):
            found.append("line count of package code")
    return found


def findings(path: Path) -> set[str]:
    rel = path.relative_to(NOTEBOOKS).as_posix()
    out = set()
    for i, cell in _code_cells(path):
        source = "".join(cell["source"])
        if not _tagged(cell):
            out |= {f"{rel} cell {i}: {what}" for what in machinery(source)}
        out |= {f"{rel} cell {i}: {what}" for what in stale_output(cell)}
    return out


def test_notebooks_are_found():
    assert len(ALL) >= 50, ALL


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.relative_to(NOTEBOOKS).as_posix())
def test_learner_cells_hold_no_machinery_and_no_stale_output(path):
    found = findings(path)
    assert not found - PENDING_OTHER_CHAPTERS, sorted(found - PENDING_OTHER_CHAPTERS)


def test_the_pending_list_only_lists_what_is_still_there():
    everything = set().union(*(findings(p) for p in ALL))
    assert not PENDING_OTHER_CHAPTERS - everything, sorted(PENDING_OTHER_CHAPTERS - everything)


# --- the rules catch what they are for ----------------------------------------------------------
@pytest.mark.parametrize("source, what", [
    ("import sys\nsys.path.insert(0, 'tests')", "sys.path"),
    ("from autograd_course import _backend", "_backend"),
    ("ag._backend._cupy = None", "_backend"),
    ("from autograd_course.autograd import engine\nengine._run(1)", "private name _run"),
    ("ag.autograd.engine._count_dependencies(x)", "private name _count_dependencies"),
    ("from autograd_course._messages import X", "import of _messages"),
])
def test_machinery_is_found(source, what):
    assert what in machinery(source)


@pytest.mark.parametrize("source", [
    "x._version, node._sequence_nr(), y.grad_fn._saved_self",  # PyTorch's own names
    "%matplotlib inline\nimport autograd_course as ag\nag.tensor(1.0).__class__",
    "from autograd_course.course import stand_in_gpu\nwith stand_in_gpu() as gpu:\n    pass",
])
def test_what_pytorch_has_is_not_machinery(source):
    assert machinery(source) == []


def test_stale_output_is_found():
    widget = {"outputs": [{"data": {"text/plain": ["training:   0%|          | 0/15"]}}]}
    finished = {"outputs": [{"name": "stderr", "text": "t:   0%|  | 0/15\rt: 100%|███| 15/15"}]}
    in_pieces = {"outputs": [{"name": "stderr", "text": ["\r", "t:  13%|█ | 2/15"]},
                             {"name": "stderr", "text": ["\r", "t: 100%|███| 15/15"]}]}
    counts = {"outputs": [{"name": "stdout", "text": "the Value: 77 lines of code\n"}]}
    assert stale_output(widget) == ["progress bar at 0%"]
    assert stale_output(finished) == [] and stale_output(in_pieces) == []
    assert stale_output(counts) == ["line count of package code"]
