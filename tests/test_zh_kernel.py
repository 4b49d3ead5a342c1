"""A notebook under notebooks/zh/ speaks Chinese when `make notebooks` (nbconvert --inplace) and
`make test` (nbval) run it from the repository root: both start the kernel in the notebook's
own folder, and ``i18n.get_language()`` reads the language from there.

Runs real kernels on three tiny notebooks in a temporary tree: zh/, zh/solutions/ and an
English one next to them (which must say "en", so the check can fail).

A Chinese notebook copied anywhere else speaks Chinese too: every notebook of the edition
carries ``{"autograd_course": {"language": "zh"}}`` in its metadata, and a front end that names
the notebook to its kernel (JupyterLab and Notebook 7 through ``JPY_SESSION_NAME``, VS Code
through ``__vsc_ipynb_file__``) lets ``get_language()`` read it.
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
CODE = ("import autograd_course as ag\nimport autograd_course.course\n"
        "print(ag.course.i18n.get_language())")


def _env() -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in ("AUTOGRAD_COURSE_LANG", "JPY_SESSION_NAME")}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in env.get(
        "PYTHONPATH", "").split(os.pathsep) if p])
    env["JUPYTER_PREFER_ENV_PATH"] = "1"  # kernel "python3" is this interpreter's, as in make
    env["JUPYTER_PLATFORM_DIRS"] = "1"
    return env


def _write(path: Path, output: str | None = None, language: str | None = None) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    nb = nbformat.v4.new_notebook()
    if language is not None:
        nb.metadata["autograd_course"] = {"language": language}
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


# --- the language from the notebook's metadata --------------------------------------------------
def test_every_chinese_notebook_says_so_in_its_metadata():
    from zh_compare import NOTEBOOKS, chinese_course, english_course

    for path in chinese_course():
        meta = nbformat.read(path, as_version=4).metadata
        assert meta.get("autograd_course") == {"language": "zh"}, path.relative_to(NOTEBOOKS)
    for path in english_course():
        meta = nbformat.read(path, as_version=4).metadata
        assert meta.get("autograd_course", {}).get("language", "en") == "en", path


def _metadata_language(monkeypatch, path, cwd) -> str:
    from autograd_course.course import i18n

    monkeypatch.delenv("AUTOGRAD_COURSE_LANG", raising=False)
    monkeypatch.setattr(i18n, "_chosen", None)
    monkeypatch.chdir(cwd)
    monkeypatch.setenv("JPY_SESSION_NAME", str(path))
    return i18n.get_language()


def test_metadata_decides_wherever_the_notebook_is(tmp_path, monkeypatch):
    copied, english_in_zh = tmp_path / "copy" / "ch.ipynb", tmp_path / "zh" / "en.ipynb"
    plain = tmp_path / "copy" / "plain.ipynb"
    _write(copied, language="zh")
    _write(english_in_zh, language="en")
    _write(plain)
    assert _metadata_language(monkeypatch, copied, copied.parent) == "zh"
    assert _metadata_language(monkeypatch, english_in_zh, english_in_zh.parent) == "en"
    assert _metadata_language(monkeypatch, plain, plain.parent) == "en"  # no metadata: folder
    assert _metadata_language(monkeypatch, plain.parent / "gone.ipynb", english_in_zh.parent) \
        == "zh"  # a file that is not there: the folder decides
    # a relative name (jupyter_server without a root): found next to where the kernel started
    assert _metadata_language(monkeypatch, "some/dir/ch.ipynb", copied.parent) == "zh"


def test_metadata_named_by_vs_code(tmp_path, monkeypatch):
    import types

    from autograd_course.course import i18n

    copied = tmp_path / "ch.ipynb"
    _write(copied, language="zh")
    shell = types.SimpleNamespace(user_ns={"__vsc_ipynb_file__": str(copied)})
    monkeypatch.setitem(sys.modules, "IPython", types.SimpleNamespace(get_ipython=lambda: shell))
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    monkeypatch.delenv("AUTOGRAD_COURSE_LANG", raising=False)
    monkeypatch.setattr(i18n, "_chosen", None)
    monkeypatch.chdir(tmp_path)
    assert i18n.get_language() == "zh"
    shell.user_ns.clear()
    assert i18n.get_language() == "en"


def test_a_copied_chapter_speaks_chinese_in_a_real_kernel(tmp_path):
    """What JupyterLab does: start the kernel in the notebook's folder with JPY_SESSION_NAME set
    to the notebook's path. The copy lies outside any zh/ folder; without the variable (nbconvert
    alone) it falls back to the folder and speaks English."""
    copied = tmp_path / "Downloads" / "chapter.ipynb"
    _write(copied, language="zh")
    printed = []
    for session in (str(copied), None):
        env = _env()
        if session is not None:
            env["JPY_SESSION_NAME"] = session
        proc = subprocess.run(
            [sys.executable, "-m", "nbconvert", "--to", "notebook", "--execute", "--inplace",
             "--ExecutePreprocessor.kernel_name=python3", "--ExecutePreprocessor.timeout=300",
             str(copied)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr
        printed.append(_printed(copied))
    assert printed == ["zh", "en"]
