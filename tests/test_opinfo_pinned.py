"""The OpInfo runner's agreeing set stays agreeing (issue 44).

``scripts/opinfo_suite.py`` runs PyTorch's own per-operator samples (the OpInfo database in
the torch wheel) on torch and on the package. The ops listed in ``data/opinfo_agreeing.txt``
agree with torch on every sample (values, dtypes, shapes, gradients, error types); this test
runs the runner on them (float64 and int64, the first 6 samples of each, and every error
input: under a minute on a busy 2-core machine) and fails if one stops agreeing. It also keeps
every op of that run free of wrong values, gradients, dtypes and shapes and of crashes where
torch runs: the only differences allowed there are the README's (ties, error types).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "opinfo_suite.py"
PINNED = Path(__file__).resolve().parent / "data" / "opinfo_agreeing.txt"
NEVER = {"FAIL-VALUE", "FAIL-GRAD", "FAIL-DTYPE", "FAIL-SHAPE", "RAISES"}


def _pinned() -> list[str]:
    lines = PINNED.read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


@pytest.fixture(scope="module")
def run(torch_oracle, tmp_path_factory):
    """Every OpInfo the package has, its first samples in float64 and int64, and its error
    inputs (the whole run, ``make``-free, is the README's: about 15 s on an idle machine)."""
    out = tmp_path_factory.mktemp("opinfo") / "results.json"
    done = subprocess.run([sys.executable, str(SCRIPT), "--json", str(out),
                           "--dtypes", "float64,int64", "--limit", "6"],
                          capture_output=True, text=True, cwd=ROOT, timeout=600,
                          env={**os.environ,
                               "PYTHONPATH": f"{ROOT}:{ROOT / 'scripts'}"})
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(out.read_text(encoding="utf-8"))


def test_the_pinned_list_is_a_real_list():
    pinned = _pinned()
    assert len(pinned) >= 200 and len(set(pinned)) == len(pinned)


def test_every_pinned_op_still_agrees(run):
    missing = [op for op in _pinned() if op not in run]
    assert not missing, f"pinned ops the runner no longer finds: {missing}"
    broken = {op: [row for row in run[op] if row[2] not in ("PASS", "SKIP")]
              for op in _pinned()}
    broken = {op: rows[:3] for op, rows in broken.items() if rows}
    assert not broken, broken
    assert all(any(row[2] == "PASS" for row in run[op]) for op in _pinned())


def test_no_wrong_value_and_no_crash_anywhere(run):
    bad = {op: [row for row in rows if row[2] in NEVER][:3] for op, rows in run.items()}
    assert not {op: rows for op, rows in bad.items() if rows}


def test_the_readme_check_can_fail(torch_oracle):
    """``--readme`` compares the README's totals row and list with a run: a made-up run with
    other counts and an unlisted failing op is refused, naming both."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import opinfo_suite
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    made_up = {"made_up_op": [("float64", 0, "FAIL-VALUE", "")]}
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    problems = opinfo_suite.readme_problems(made_up, readme)
    assert any("totals row" in p for p in problems)
    assert any("made_up_op" in p for p in problems)
    assert opinfo_suite.README_SECTION in readme
