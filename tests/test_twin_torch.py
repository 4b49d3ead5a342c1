"""The twin test: what the course teaches is PyTorch, so every chapter's code runs on torch too.

Each English chapter (00-09) is run a second time by ``tests/twin_torch.py`` with
``import autograd_course as ag`` giving torch 2.13, and every code cell must print what the
notebook shows (the committed output, produced by the package):

* compared: the cell's stdout and the value of its last expression (``text/plain``); not
  compared: stderr (warnings name source files), images and HTML (graphs are package-only);
* cells whose output nbval ignores (tag ``nbval-ignore-output``: timings) must run, but
  their output is not compared;
* torch's warnings lose their "(Triggered internally at <C++ file>.)" tail, a figure's
  "<Figure size ...>" line is dropped (the notebook shows it as an image, not compared), and
  both sides are sanitized as nbval sanitizes them (``tests/nbval_sanitize.cfg``: addresses);
* numbers with a point or exponent are compared to a tolerance: equal within a relative 1e-4,
  or one unit of the last digit printed (whichever is larger); integers exactly. The package
  computes in NumPy, torch in its own kernels, and float32 sums in another order differ in
  the last bits;
* a cell tagged ``package-only`` (it uses ``viz``, ``exercises``, ``datasets`` or the
  engine's source) is not run, and the chapter's text says "package-only" there.

``test_report`` prints, per chapter, how many cells ran on torch and how many are tagged.
"""

from __future__ import annotations

import configparser
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RUNNER = ROOT / "tests" / "twin_torch.py"
CHAPTERS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
sys.path.insert(0, str(ROOT / "tests"))
from twin_torch import TAG, code_cells, is_package_only  # noqa: E402

NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")
RTOL = 1e-4
TRIGGERED = re.compile(r" \(Triggered internally at [^)]*\.\)")  # torch's C++ warnings
FIGURE = re.compile(r"(?m)^<Figure size \d+x\d+ with \d+ Axes>\n?")  # a figure's repr
RAN: dict[str, tuple[int, int]] = {}


def _sanitizers() -> list[tuple[re.Pattern, str]]:
    """The regex/replace pairs of tests/nbval_sanitize.cfg, in order."""
    config = configparser.ConfigParser()
    config.read(ROOT / "tests" / "nbval_sanitize.cfg", encoding="utf-8")
    return [(re.compile(config[s]["regex"]), config[s]["replace"]) for s in config.sections()]


SANITIZE = _sanitizers()


def _sanitized(text: str) -> str:
    for pattern, replace in SANITIZE:
        text = pattern.sub(replace, text)
    return text.rstrip()


def _committed(cell: dict) -> str:
    """What the notebook shows for a cell: its stdout streams and execute_result text."""
    parts = []
    for out in cell.get("outputs", []):
        if out["output_type"] == "stream" and out["name"] == "stdout":
            parts.append("".join(out["text"]))
        elif out["output_type"] == "execute_result":
            parts.append("".join(out["data"].get("text/plain", "")) + "\n")
    return _sanitized("".join(parts))


def _last_digit(token: str) -> float:
    """One unit of the last digit printed: 0.001 for '1.234', 1e-5 for '1.2e-04'."""
    mantissa, _, exponent = token.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    return 10.0 ** (-decimals + (int(exponent) if exponent else 0))


def same_up_to_numbers(ours: str, theirs: str) -> bool:
    """``ours`` and ``theirs`` read the same once every number is allowed its tolerance."""
    if NUMBER.split(ours) != NUMBER.split(theirs):
        return False
    for a, b in zip(NUMBER.findall(ours), NUMBER.findall(theirs)):
        if a.lstrip("+-").isdigit() or b.lstrip("+-").isdigit():  # counts, sizes, names: exact
            if a != b:
                return False
            continue
        x, y = float(a), float(b)
        allowed = max(RTOL * max(abs(x), abs(y)), _last_digit(a), _last_digit(b))
        if abs(x - y) > allowed * (1 + 1e-9):
            return False
    return True


def test_the_number_comparison_can_fail():
    assert same_up_to_numbers("loss 0.6931", "loss 0.6932")
    assert not same_up_to_numbers("loss 0.6931", "loss 0.6934")
    assert not same_up_to_numbers("grad 1.0", "grad -1.0")
    assert not same_up_to_numbers("MulBackward0", "MulBackward1")
    assert same_up_to_numbers("tensor([1.0000e-05])", "tensor([1.0001e-05])")


@pytest.mark.parametrize("path", CHAPTERS, ids=[p.stem[:2] for p in CHAPTERS])
def test_chapter_prints_the_same_on_torch(path, torch_oracle):
    env = dict(os.environ, PYTHONPATH=str(ROOT), MPLBACKEND="Agg")
    done = subprocess.run([sys.executable, str(RUNNER), str(path)], capture_output=True,
                          text=True, env=env, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    shown = json.loads(done.stdout.strip().splitlines()[-1])
    cells = dict(code_cells(path))
    tagged = sum(is_package_only(c) for c in cells.values())
    RAN[path.stem] = (len(shown), tagged)
    problems = []
    for seen in shown:
        cell = cells[seen["cell"]]
        if seen["error"]:
            problems.append(f"cell {seen['cell']} raised on torch: {seen['error'][:300]}")
            continue
        if "nbval-ignore-output" in cell.get("metadata", {}).get("tags", []):
            continue  # ran on torch without error; its output (timings) is not compared
        ours = _committed(cell)
        stdout = FIGURE.sub("", TRIGGERED.sub("", seen["stdout"]))
        theirs = _sanitized(stdout + (seen["value"] + "\n" if seen["value"] else ""))
        if not same_up_to_numbers(theirs, ours):
            problems.append(f"cell {seen['cell']} prints differently on torch:\n--- notebook\n"
                            f"{ours[:800]}\n--- torch\n{theirs[:800]}")
    assert not problems, "\n\n".join(problems)


def test_tagged_cells_say_so_in_the_text():
    """A package-only cell's section (from the heading above it) says "package-only" in its
    text before the cell."""
    missing = []
    for path in CHAPTERS:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for i, cell in enumerate(cells):
            if cell["cell_type"] == "code" and is_package_only(cell):
                text = []
                for above in reversed(cells[:i]):
                    if above["cell_type"] == "markdown":
                        text.append("".join(above["source"]))
                        if text[-1].lstrip().startswith("#"):  # the section's heading
                            break
                if not any(TAG in t for t in text):
                    missing.append(f"{path.name} cell {i}")
    assert not missing, missing


def test_report():
    """Print the per-chapter counts (run ``pytest -s`` to see them)."""
    if len(RAN) != len(CHAPTERS):
        pytest.skip("the chapters' twin runs did not all run in this session")
    lines = [f"{'chapter':28s} {'run on torch':>12s} {'package-only':>12s}"]
    for name, (ran, tagged) in RAN.items():
        lines.append(f"{name:28s} {ran:12d} {tagged:12d}")
    total = [sum(v[i] for v in RAN.values()) for i in (0, 1)]
    lines.append(f"{'total':28s} {total[0]:12d} {total[1]:12d}")
    print("\n" + "\n".join(lines))
