"""A fresh `git clone` has every file the README's set-up needs, and the set-up steps work there.

Only *committed* files reach a user, so we clone the repository (not copy the working tree) and
run the set-up from the clone: `make -n test` must plan the venv and the install, the Graphviz
and Chromium checks must pass, and the package built from the clone must import. A file someone
forgot to commit fails here before it fails a user.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# What `make test`, `make lab` and `make test-browser` read from the clone.
NEEDED = [
    "Makefile",
    "pyproject.toml",
    "requirements.txt",
    "requirements-dev.txt",
    "environment.yml",
    "README.md",
    "scripts/ensure_graphviz.sh",
    "scripts/ensure_browser.sh",
    "scripts/ensure_cjk_font.sh",
    "tests/conftest.py",
    "tests/nbval_sanitize.cfg",
    "tests/browser/conftest.py",
    "tests/browser/test_lab.py",
    "tests/browser/labpage.py",
    "notebooks/03_computation_graph.ipynb",
]
MAKE_FLAGS = {"MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "MAKE_TERMOUT", "MAKE_TERMERR"}


def _run(cmd: list[str], cwd: Path, timeout: float = 120, **kw) -> subprocess.CompletedProcess:
    # A parent `make` (make test-browser) must not leak its flags or jobserver into ours.
    env = {k: v for k, v in os.environ.items() if k not in MAKE_FLAGS}
    return subprocess.run(
        cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env, **kw
    )


@pytest.fixture(scope="module")
def clone(tmp_path_factory) -> Path:
    """The committed tree, cloned the way a user gets it."""
    if shutil.which("git") is None or shutil.which("make") is None:
        pytest.skip("git and make are required")
    if _run(["git", "rev-parse", "--verify", "-q", "HEAD"], cwd=ROOT).returncode != 0:
        pytest.skip("repository has no commits yet")
    dest = tmp_path_factory.mktemp("fresh") / "autograd_course"
    proc = _run(["git", "clone", "-q", "--no-hardlinks", str(ROOT), str(dest)], cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    return dest


def test_clone_has_the_setup_files(clone: Path):
    missing = [rel for rel in NEEDED if not (clone / rel).is_file()]
    assert not missing, f"not committed: {missing}"
    # Every `-r other.txt` a requirements file includes is committed too.
    for req in clone.glob("requirements*.txt"):
        for inc in re.findall(r"^\s*-r\s+(\S+)", req.read_text(), re.MULTILINE):
            assert (clone / inc).is_file(), f"{req.name} includes {inc}, which is not committed"


@pytest.mark.parametrize("target", ["test", "lab", "test-browser"])
def test_make_plans_the_setup(clone: Path, target: str):
    """`make -n <target>` in a fresh clone: creates .venv and installs before anything else."""
    proc = _run(["make", "-n", target], cwd=clone)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    plan = proc.stdout
    assert "-m venv .venv" in plan, plan
    assert "pip install -e ." in plan, plan
    assert plan.index("-m venv") < plan.index("pip install")
    if target != "test-browser":  # lab and test draw graphs: they need the `dot` program
        assert "ensure_graphviz.sh" in plan, plan


def test_graphviz_setup_step(clone: Path):
    """The README's Graphviz step, run from the clone, leaves a working `dot`."""
    proc = _run(["bash", "scripts/ensure_graphviz.sh"], cwd=clone, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    dot = _run(["dot", "-V"], cwd=clone)
    assert dot.returncode == 0, dot.stderr


def test_browser_setup_step(clone: Path):
    proc = _run(["bash", "scripts/ensure_browser.sh"], cwd=clone, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_package_built_from_clone_imports(clone: Path, tmp_path: Path):
    """`pip install` of the clone ships every subpackage (no deps fetched: offline-safe)."""
    pytest.importorskip("setuptools")
    wheels, site = tmp_path / "wheels", tmp_path / "site"
    build = _run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(wheels),
            str(clone),
        ],
        cwd=tmp_path,
        timeout=300,
    )
    assert build.returncode == 0, build.stdout + build.stderr
    (wheel,) = wheels.glob("*.whl")
    inst = _run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--target",
            str(site),
            str(wheel),
        ],
        cwd=tmp_path,
        timeout=300,
    )
    assert inst.returncode == 0, inst.stdout + inst.stderr
    code = (
        "import sys; sys.path.insert(0, sys.argv[1])\n"
        "import importlib, pkgutil, autograd_course as ag\n"
        "assert ag.__file__.startswith(sys.argv[1]), ag.__file__\n"
        "for m in pkgutil.walk_packages(ag.__path__, 'autograd_course.'):\n"
        "    try:\n"
        "        importlib.import_module(m.name)\n"
        "    except ImportError as e:\n"
        "        if (e.name or '').split('.')[0] not in ('cupy', 'cupyx'):\n"
        "            raise\n"
        "import autograd_course.viz\n"
    )
    proc = _run([sys.executable, "-c", code, str(site)], cwd=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
