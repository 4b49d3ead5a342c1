"""A notebook under notebooks/zh/ speaks Chinese when `make notebooks` (nbconvert --inplace) and
`make test` (nbval) run it from the repository root: both start the kernel in the notebook's
own folder, and ``i18n.get_language()`` reads the language from there.

Runs real kernels on three tiny notebooks in a temporary tree: zh/, zh/solutions/ and an
English one next to them (which must say "en", so the check can fail).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
pytest.importorskip("nbconvert")
pytest.importorskip("nbval")

ROOT = Path(__file__).resolve().parents[1]
CODE = "import autograd_course as ag\nprint(ag.i18n.get_language())"


def _env() -> dict:
    env = {k: v for k, v in os.environ.items() if k != "AUTOGRAD_COURSE_LANG"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in env.get(
        "PYTHONPATH", "").split(os.pathsep) if p])
    env["JUPYTER_PREFER_ENV_PATH"] = "1"  # kernel "python3" is this interpreter's, as in make
    env["JUPYTER_PLATFORM_DIRS"] = "1"
    return env


def _write(path: Path, output: str | None = None) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    cell = nbformat.v4.new_code_cell(CODE)
    if output is not None:
        cell.execution_count = 1
        cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=output + "\n")]
    nb.cells = [cell]
    nbformat.write(nb, path)


def _printed(path: Path) -> str:
    cell = nbformat.read(path, as_version=4).cells[0]
    return "".join(o.get("text", "") for o in cell.outputs).strip()


@pytest.mark.needs_cjk_font
def test_nbconvert_and_nbval_run_zh_notebooks_in_chinese(tmp_path):
    notebooks = tmp_path / "notebooks"
    zh, zh_solution, en = (notebooks / "zh" / "t.ipynb", notebooks / "zh" / "solutions" / "t.ipynb",
                           notebooks / "t.ipynb")
    for path in (zh, zh_solution, en):
        _write(path)
    proc = subprocess.run(
        [sys.executable, "-m", "nbconvert", "--to", "notebook", "--execute", "--inplace",
         "--ExecutePreprocessor.kernel_name=python3", "--ExecutePreprocessor.timeout=300",
         str(zh.relative_to(tmp_path)), str(zh_solution.relative_to(tmp_path)),
         str(en.relative_to(tmp_path))],
        cwd=tmp_path, env=_env(), capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert [_printed(p) for p in (zh, zh_solution, en)] == ["zh", "zh", "en"]

    # nbval, collecting notebooks/ recursively as `make test` does: the stored outputs match.
    _write(en, output="zh")  # ...except this one, which must fail: it runs in English
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--nbval",
         "--nbval-current-env", "notebooks", "-o", "python_files=nothing_here.py"],
        cwd=tmp_path, env=_env(), capture_output=True, text=True, timeout=600)
    out = proc.stdout + proc.stderr
    assert "1 failed, 2 passed" in out, out
    assert "notebooks/t.ipynb" in out.split("short test summary")[-1], out
