"""Project-infrastructure checks: packaging, pins, CI entry point, fresh-clone set-up."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TORCH_PIN = "torch==2.13.0"
# pip name -> conda-forge name, where they differ.
CONDA_NAMES = {"graphviz": "python-graphviz"}


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _requirement_lines(path: Path) -> list[str]:
    """Requirement specifiers of a requirements file (no comments, no -r/-e options)."""
    lines = (ln.split("#", 1)[0].strip() for ln in path.read_text().splitlines())
    return [ln for ln in lines if ln and not ln.startswith("-")]


def _requirement_names(path: Path) -> list[str]:
    return [_norm(re.match(r"[A-Za-z0-9_.\-]+", ln).group(0)) for ln in _requirement_lines(path)]


def _clean_env() -> dict[str, str]:
    """Environment for child `make`s: drop the parent make's flags/jobserver."""
    drop = {"MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "MAKE_TERMOUT", "MAKE_TERMERR"}
    return {k: v for k, v in os.environ.items() if k not in drop}


def test_import_never_imports_torch():
    code = (
        "import importlib, pkgutil, sys\n"
        "import autograd_course\n"
        "assert 'torch' not in sys.modules, 'import autograd_course imported torch'\n"
        "for m in pkgutil.walk_packages(autograd_course.__path__, 'autograd_course.'):\n"
        "    try:\n"
        "        importlib.import_module(m.name)\n"
        "    except ImportError as e:\n"
        "        if (e.name or '').split('.')[0] not in ('cupy', 'cupyx'):\n"
        "            raise\n"
        "    assert 'torch' not in sys.modules, m.name + ' imported torch'\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr


def test_environment_yml_lists_every_requirement():
    env_text = (ROOT / "environment.yml").read_text()
    conda = {
        _norm(m.group(1))
        for m in re.finditer(r"^\s*-\s+([A-Za-z][A-Za-z0-9_.\-]*)", env_text, re.MULTILINE)
    }
    wanted = [CONDA_NAMES.get(n, n) for n in _requirement_names(ROOT / "requirements.txt")]
    missing = [n for n in wanted if n not in conda]
    assert not missing, f"environment.yml lacks {missing}"
    assert "graphviz" in conda, "environment.yml must also install the `dot` program (graphviz)"


def test_torch_is_pinned_exactly():
    dev = _requirement_lines(ROOT / "requirements-dev.txt")
    assert [ln for ln in dev if _norm(re.split(r"[<>=!~ \[;]", ln)[0]) == "torch"] == [TORCH_PIN]
    tomllib = pytest.importorskip("tomllib")  # Python >= 3.11
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert not any(_norm(d).startswith("torch") for d in project["dependencies"]), (
        "torch must never be a runtime dependency"
    )
    assert TORCH_PIN in project["optional-dependencies"]["dev"]


def test_ci_runs_make_test_with_oracle_required():
    ci = ROOT / ".ci" / "run"
    text = ci.read_text()
    assert "set -euo pipefail" in text
    assert re.search(r"^export AUTOGRAD_COURSE_REQUIRE_ORACLE=1$", text, re.MULTILINE)
    assert re.search(r"^make test$", text, re.MULTILINE)
    assert os.access(ci, os.X_OK)


def _git(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def test_fresh_clone_make_dry_run(tmp_path):
    """A clone of the *committed* tree has everything `make test` needs, and the venv stamp
    makes the second run install nothing."""
    if shutil.which("git") is None or shutil.which("make") is None:
        pytest.skip("git and make are required")
    if _git("rev-parse", "--verify", "-q", "HEAD").returncode != 0:
        pytest.skip("repository has no commits yet")
    clone = tmp_path / "clone"
    proc = _git("clone", "-q", "--no-hardlinks", str(ROOT), str(clone))
    assert proc.returncode == 0, proc.stderr

    for rel in [
        "Makefile",
        "pyproject.toml",
        "requirements.txt",
        "requirements-dev.txt",
        "scripts/ensure_graphviz.sh",
        "tests/nbval_sanitize.cfg",
        "tests/conftest.py",
    ]:
        assert (clone / rel).is_file(), f"{rel} is not committed"
    assert os.access(clone / ".ci" / "run", os.X_OK), ".ci/run must be committed executable"

    def make(*args: str) -> str:
        p = subprocess.run(
            ["make", *args],
            cwd=clone,
            capture_output=True,
            text=True,
            env=_clean_env(),
            timeout=120,
        )
        assert p.returncode == 0, p.stdout + p.stderr
        return p.stdout

    first = make("-n", "test")  # fresh clone: must create the venv and install
    assert "-m venv .venv" in first and "pip install -e . -r requirements-dev.txt" in first
    assert "-m pytest" in first and "--nbval" in first

    stamp = clone / make("-s", "print-stamp").strip()
    stamp.parent.mkdir(parents=True, exist_ok=True)
    stamp.touch()
    second = make("-n", "test")  # stamp present: nothing to install
    assert "pip install" not in second and "-m venv" not in second
    assert "-m pytest" in second

    (clone / "requirements.txt").write_text((clone / "requirements.txt").read_text() + "\n")
    assert "pip install" in make("-n", "test"), "changing requirements must reinstall"


def test_every_entry_point_makes_sure_of_the_system_first():
    """`make test`, `lab`, `notebooks` and `html` check Graphviz and the Chinese font before
    anything else runs (issue: a new machine failed `make test` for want of the font)."""
    dry = {}
    for target in ("test", "lab", "notebooks", "html"):
        proc = subprocess.run(["make", "-n", target], cwd=ROOT, capture_output=True,
                              text=True, env=_clean_env(), timeout=120)
        assert proc.returncode == 0, proc.stderr
        dry[target] = proc.stdout
    for target, out in dry.items():
        graphviz = out.find("scripts/ensure_graphviz.sh")
        font = out.find("scripts/ensure_cjk_font.sh")
        assert graphviz >= 0 and font >= 0, f"make {target} does not check both"
        first_python_step = min(i for i in (out.find("-m pytest"), out.find("-m jupyterlab"),
                                             out.find("-m nbconvert")) if i >= 0)
        assert max(graphviz, font) < first_python_step, f"make {target} checks too late"
        # Without a font the chapters still run: a failed font check must not stop make.
        font_line = next(ln for ln in out.splitlines() if "ensure_cjk_font.sh" in ln)
        assert "||" in font_line, font_line


def test_ci_runs_in_a_fresh_home_and_requires_the_font():
    text = (ROOT / ".ci" / "run").read_text()
    assert re.search(r'^export HOME="\$fresh_home"$', text, re.MULTILINE)
    assert 'fresh_home="$(mktemp -d)"' in text
    assert re.search(r"^export AUTOGRAD_COURSE_REQUIRE_CJK_FONT=1$", text, re.MULTILINE)
    assert text.index("export HOME=") < text.index("\nmake test")


def test_readme_no_longer_asks_anyone_to_delete_a_cache():
    readme = (ROOT / "README.md").read_text()
    assert ".cache/matplotlib" not in readme
