"""``docs/reading_the_core.md`` names real code: every reference in it still resolves.

The reading path names code as `` `path.py:Name` `` or `` `path.py:Class.method` `` (the path
relative to ``autograd_course/``), or a file alone as `` `path.py` ``. This test reads each
named file with ``ast`` (it imports nothing from the package) and checks that the file exists
and that the name is defined there: a function, a class, or an assignment at module level,
then a method or class attribute for each further part. When a file moves or a name changes,
the failure lists each broken reference with its line in the doc, so the doc can be updated.

Backticked text that mentions ``.py`` in any other form is reported too, so that a reference
cannot escape the check by a typo. Paths that start with ``torch/`` are PyTorch's and are not
checked; paths that start with ``tests/`` or ``autograd_course/`` are relative to the
repository root.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "reading_the_core.md"

_IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
REFERENCE = re.compile(rf"(?P<path>[A-Za-z0-9_./]+\.py)(?::(?P<name>{_IDENT}(?:\.{_IDENT})*))?")
INLINE_CODE = re.compile(r"`([^`\n]+)`")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def _definitions(body: list) -> dict:
    """The names a module or class body defines, each with its node (a class's, to look
    inside). Statements under ``if``/``try``/``with`` at that level count too."""
    names = {}
    for stmt in body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.setdefault(stmt.name, stmt)
        elif isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                for node in ast.walk(target):
                    if isinstance(node, ast.Name):
                        names.setdefault(node.id, stmt)
        elif isinstance(stmt, ast.AnnAssign):
            if isinstance(stmt.target, ast.Name):
                names.setdefault(stmt.target.id, stmt)
        elif isinstance(stmt, (ast.If, ast.Try, ast.With)):
            blocks = [stmt.body, getattr(stmt, "orelse", []), getattr(stmt, "finalbody", [])]
            blocks += [handler.body for handler in getattr(stmt, "handlers", [])]
            for block in blocks:
                for name, node in _definitions(block).items():
                    names.setdefault(name, node)
    return names


def _resolve(path: str, name: str | None, root: Path = ROOT) -> str | None:
    """``None`` if ``path`` (and ``name`` in it) exists, else what is wrong."""
    base = root if path.startswith(("tests/", "autograd_course/")) else root / "autograd_course"
    file = base / path
    if not file.is_file():
        return f"{file.relative_to(root)} does not exist"
    if name is None:
        return None
    body = ast.parse(file.read_text(encoding="utf-8"), filename=str(file)).body
    where, sep = str(file.relative_to(root)), ":"
    for part in name.split("."):
        found = _definitions(body).get(part)
        if found is None:
            return f"{where} defines no `{part}`"
        # inside a class: its methods and attributes; inside anything else: nothing to look up
        body = found.body if isinstance(found, ast.ClassDef) else []
        where, sep = f"{where}{sep}{part}", "."
    return None


def broken_references(text: str, root: Path = ROOT) -> list[str]:
    """Every reference in ``text`` (markdown) that does not resolve, with its line number."""
    problems = []
    text = FENCE.sub(lambda m: "\n" * m.group().count("\n"), text)  # code blocks: not references
    for lineno, line in enumerate(text.splitlines(), start=1):
        for match in INLINE_CODE.finditer(line):
            code = match.group(1)
            if ".py" not in code or code.startswith("torch/"):
                continue
            ref = REFERENCE.fullmatch(code)
            if ref is None:
                problems.append(f"line {lineno}: `{code}` is not a `path.py:Name` reference")
                continue
            error = _resolve(ref["path"], ref["name"], root)
            if error:
                problems.append(f"line {lineno}: `{code}`: {error}")
    return problems


def _references(text: str) -> list[str]:
    text = FENCE.sub("", text)
    return [code for code in INLINE_CODE.findall(text)
            if REFERENCE.fullmatch(code) and ":" in code]


def test_the_doc_names_code_to_read():
    references = _references(DOC.read_text(encoding="utf-8"))
    assert len(references) >= 60, references  # the check below is not vacuous


def test_every_reference_in_the_reading_path_resolves():
    problems = broken_references(DOC.read_text(encoding="utf-8"))
    assert not problems, (
        f"{DOC.relative_to(ROOT)} names code that is not there (a file moved or a name "
        "changed? update the reference):\n  " + "\n  ".join(problems))


def test_the_table_pairs_at_least_twenty_names():
    text = DOC.read_text(encoding="utf-8")
    table = text.split("## Ours ↔ PyTorch", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in table.splitlines()
            if line.startswith("| `") and line.count("|") >= 4]
    assert len(rows) >= 20, rows


def test_a_broken_reference_is_reported_by_name():
    text = "\n".join([
        "Fine: `autograd/engine.py:_run`, `autograd/node.py:Node.__lt__`, `tensor.py`,",
        "`autograd/function.py:BackwardNode.needs_input_grad`, `torch/autograd/function.py`.",
        "```python",
        "`not/checked.py:Inside` a code block",
        "```",
        "Missing file: `ops/no_such_module.py:Mul`.",
        "Missing name: `autograd/engine.py:run_everything`.",
        "Missing method: `autograd/node.py:AccumulateGrad.steal`.",
        "Missing file alone: `autograd/gone.py`.",
        "Malformed: `autograd/engine.py: _run`.",
    ])
    problems = broken_references(text)
    assert len(problems) == 5, problems
    missing_file, missing_name, missing_method, missing_alone, malformed = problems
    assert missing_file.startswith("line 6: `ops/no_such_module.py:Mul`")
    assert "autograd_course/ops/no_such_module.py does not exist" in missing_file
    assert missing_name.startswith("line 7: `autograd/engine.py:run_everything`")
    assert "defines no `run_everything`" in missing_name
    assert missing_method.startswith("line 8: `autograd/node.py:AccumulateGrad.steal`")
    assert "autograd_course/autograd/node.py:AccumulateGrad defines no `steal`" in missing_method
    assert "autograd_course/autograd/gone.py does not exist" in missing_alone
    assert malformed.startswith("line 10: `autograd/engine.py: _run` is not")
