"""Every checker in ``autograd_course/course/exercises/chNN.py`` is used by chapter NN's notebook
(and its solution), in both editions: a checker no chapter calls is an exercise the course lost
(issue 29 found ``ch05.check_freeze_all_but_last`` unused)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXERCISES = sorted((ROOT / "autograd_course" / "course" / "exercises").glob("ch[0-9][0-9].py"))


def _code(path: Path) -> str:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")


def test_the_checker_modules_are_found():
    """The parametrised test below would be skipped, not failed, if the glob found nothing."""
    assert len(EXERCISES) >= 10, EXERCISES


@pytest.mark.parametrize("module", EXERCISES, ids=[p.stem for p in EXERCISES])
def test_every_checker_is_called_by_its_chapter_and_solution(module):
    number = module.stem[2:]
    checkers = re.findall(r"^def (check_\w+)\(", module.read_text(encoding="utf-8"), re.M)
    assert checkers
    notebooks = [next((ROOT / "notebooks" / sub).glob(f"{number}_*.ipynb"))
                 for sub in (".", "zh", "solutions", "zh/solutions")]
    for path in notebooks:
        code = _code(path)
        unused = [name for name in checkers if f"{module.stem}.{name}(" not in code]
        assert not unused, f"{path.relative_to(ROOT)} never calls {unused}"
