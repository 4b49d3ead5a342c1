"""Shared pytest set-up for the autograd_course test suite.

* A deterministic Hypothesis profile (no deadlines, fixed seed, 40 examples) so runs are
  reproducible and never flaky on slow machines. Override with HYPOTHESIS_PROFILE=<name>.
* `torch_oracle` fixture: PyTorch is our *test oracle only* (the package never imports it).
* AUTOGRAD_COURSE_REQUIRE_ORACLE=1 (set by .ci/run) turns "torch missing" into a hard error,
  so CI can never go green by silently skipping every comparison against PyTorch.
* Without a font for Chinese (not root, no package manager: `make test` could not install
  one), the Chinese edition's notebooks and the tests marked `needs_cjk_font` are skipped with
  a reason that says how to get one; AUTOGRAD_COURSE_REQUIRE_CJK_FONT=1 (set by .ci/run)
  makes a missing font an error instead.

This directory is on sys.path (rootdir conftest, no __init__.py), so test modules share
helpers with a plain import: `functions.py` (custom Functions used by several tests: Square,
MulConstant, identity), `ops_helpers.py`, `oracle_helpers.py`, `exercise_helpers.py` and
`fake_cupy.py`.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from autograd_course.course import fonts
from autograd_course.viz import cjk_font

settings.register_profile(
    "autograd_course",
    deadline=None,
    derandomize=True,
    max_examples=40,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "autograd_course"))

REQUIRE_ORACLE = os.environ.get("AUTOGRAD_COURSE_REQUIRE_ORACLE") == "1"
_MENTIONS_TORCH = re.compile(r"\btorch\b", re.IGNORECASE)
TORCH_MISSING = "torch not installed (test oracle)"


REQUIRE_CJK_FONT = os.environ.get("AUTOGRAD_COURSE_REQUIRE_CJK_FONT") == "1"
NO_CJK_FONT = ("no font with Chinese characters is installed: run "
               "`bash scripts/ensure_cjk_font.sh` (it prints the command for this machine)")
ZH_NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks" / "zh"


def cjk_font_installed() -> bool:
    """Whether both Graphviz (fontconfig) and matplotlib can draw Chinese here."""
    return cjk_font.graphs_can_draw_chinese() and fonts.matplotlib_cjk_font() is not None


def pytest_configure(config: pytest.Config) -> None:
    """Fail before collecting anything when the oracle (or, in CI, the Chinese font) is
    required but unavailable."""
    config.addinivalue_line("markers", "needs_cjk_font: skipped where no Chinese font is "
                            "installed (" + NO_CJK_FONT + ")")
    if REQUIRE_CJK_FONT and not cjk_font_installed():
        raise pytest.UsageError("AUTOGRAD_COURSE_REQUIRE_CJK_FONT=1 but " + NO_CJK_FONT)
    if not REQUIRE_ORACLE:
        return
    try:
        import torch  # noqa: F401
    except Exception as exc:  # ImportError, or a broken install raising something else
        raise pytest.UsageError(
            "AUTOGRAD_COURSE_REQUIRE_ORACLE=1 but torch cannot be imported "
            f"({exc!r}). Install the oracle with `make venv` or "
            "`pip install torch==2.13.0`."
        ) from exc


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """No Chinese font: skip the Chinese notebooks (their committed pictures were drawn with
    one) and the tests that need it, saying why, instead of failing on "Glyph missing"."""
    if cjk_font_installed():
        return
    skip = pytest.mark.skip(reason=NO_CJK_FONT)
    for item in items:
        if item.get_closest_marker("needs_cjk_font") or ZH_NOTEBOOKS in item.path.parents:
            item.add_marker(skip)


@pytest.fixture(autouse=True, scope="session")
def _font_notice_already_given():
    """Without a Chinese font the package prints its notice once per process, at the first
    switch to Chinese; tests that compare printed verdicts must not see it. The notice itself
    is tested in fresh processes (test_fonts_fresh_machine.py)."""
    fonts._noticed = True
    yield


def _skip_reason(report: pytest.TestReport | pytest.CollectReport) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:  # (path, lineno, reason)
        return str(longrepr[2])
    return str(longrepr)


def _fail_torch_skip(report: pytest.TestReport | pytest.CollectReport) -> None:
    """With the oracle required, a skip that mentions torch is a failure, not a skip."""
    if not (REQUIRE_ORACLE and report.skipped) or hasattr(report, "wasxfail"):
        return
    reason = _skip_reason(report)
    if _MENTIONS_TORCH.search(reason):
        report.outcome = "failed"
        report.longrepr = (
            f"skipped for a torch-related reason while AUTOGRAD_COURSE_REQUIRE_ORACLE=1: {reason}"
        )


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    outcome = yield
    _fail_torch_skip(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector):
    # Module-level `pytest.importorskip("torch")` skips at collection time, not in runtest.
    outcome = yield
    _fail_torch_skip(outcome.get_result())


@pytest.fixture(scope="session")
def torch_oracle():
    """The `torch` module, or skip the test when it is not installed."""
    try:
        import torch
    except ImportError:
        pytest.skip(TORCH_MISSING)
    return torch
