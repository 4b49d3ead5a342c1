"""The core a learner reads stays small and plain (issue 12), checked on the source files.

Limits: ``autograd/engine.py`` at most 220 lines, ``autograd/function.py`` at most 300, the
tensor class and its base together at most 350, and no module of the package over 400. And
none of the tricks the redesign removed may come back.
"""

from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "autograd_course"


def _lines(relative: str) -> int:
    return len((PACKAGE / relative).read_text(encoding="utf-8").splitlines())


def test_the_core_files_stay_within_their_line_limits():
    assert _lines("autograd/engine.py") <= 220
    assert _lines("autograd/function.py") <= 300
    assert _lines("tensor.py") + _lines("tensor_base.py") <= 350


def test_no_module_over_400_lines():
    too_long = {str(p.relative_to(PACKAGE)): n for p in PACKAGE.rglob("*.py")
                if (n := len(p.read_text(encoding="utf-8").splitlines())) > 400}
    assert not too_long, too_long


def _source(pattern: str) -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(PACKAGE.glob(pattern)))


INJECTED = r"^[\w.]*\.\w+\s*=\s*Tensor\b"  # a lower module handed the Tensor class
TYPE_TEST = r"(\bis\s+(not\s+)?|isinstance\([^)]*)\bAccumulateGrad\b"


def test_the_removed_tricks_stay_out():
    everything = _source("**/*.py")
    assert "getrefcount" not in everything  # no reference-count games
    assert "_tensor_class" not in everything  # no injected Tensor class
    assert not re.search(INJECTED, everything, re.M)  # under any name
    assert "_input_meta" not in _source("ops/**/*.py")  # ops use the public ctx API only
    engine = (PACKAGE / "autograd/engine.py").read_text(encoding="utf-8")
    assert not re.search(TYPE_TEST, engine)  # leaves are nodes like any other


def test_the_check_can_fail(tmp_path):
    """The patterns above do match what they must refuse."""
    assert re.search(TYPE_TEST, "if type(node) is AccumulateGrad:")
    assert re.search(TYPE_TEST, "isinstance(node, AccumulateGrad)")
    assert not re.search(TYPE_TEST, "a leaf's node is its ``AccumulateGrad``, whose apply")
    assert "getrefcount" in "sys.getrefcount(x)"
    assert re.search(INJECTED, "x = 1\nautograd_state.state.tensor_type = Tensor  # set", re.M)
    assert not re.search(INJECTED, "    out.tensor = Tensor(3)\nt = Tensor", re.M)
