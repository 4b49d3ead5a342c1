"""matplotlib gets a Chinese font when the course speaks Chinese, and only then.

``fonts.use_cjk_if_needed("zh")`` appends a CJK font to ``rcParams["font.family"]`` (a per-glyph
fallback chain), so Chinese titles render without "Glyph missing" warnings while Latin text
keeps its font. ``i18n`` applies it at package import and on ``set_language("zh")``; an English
import never imports matplotlib.
"""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from autograd_course.course import fonts, i18n

ROOT = Path(__file__).resolve().parents[1]
mpl = pytest.importorskip("matplotlib")
HAS_CJK = fonts.matplotlib_cjk_font() is not None
needs_cjk = pytest.mark.skipif(not HAS_CJK, reason="matplotlib knows no CJK font "
                               "(scripts/ensure_cjk_font.sh installs Noto Sans CJK)")


@pytest.fixture(autouse=True)
def fresh_rc(monkeypatch):
    """Each test sees matplotlib's own family setting and leaves rcParams as it found them."""
    monkeypatch.delenv("AUTOGRAD_COURSE_LANG", raising=False)
    monkeypatch.setattr(i18n, "_chosen", None)
    with mpl.rc_context({"font.family": ["sans-serif"]}):
        yield


def _missing_glyph_warnings(text: str) -> list[str]:
    mpl.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    ax.set_title(text)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            fig.canvas.draw()
    finally:
        plt.close(fig)
    return [str(w.message) for w in caught if "missing from" in str(w.message)]


def test_english_changes_nothing():
    assert fonts.use_cjk_if_needed("en") is None
    assert list(mpl.rcParams["font.family"]) == ["sans-serif"]


@needs_cjk
def test_chinese_appends_one_cjk_font_once():
    name = fonts.use_cjk_if_needed("zh")
    assert name == fonts.matplotlib_cjk_font()
    assert list(mpl.rcParams["font.family"]) == ["sans-serif", name]
    assert fonts.use_cjk_if_needed("zh") == name
    assert list(mpl.rcParams["font.family"]) == ["sans-serif", name]  # not twice


@needs_cjk
def test_chinese_titles_render_with_the_fallback():
    title = "损失随迭代下降 (loss)"
    assert _missing_glyph_warnings(title), "the test's premise: the default font has no CJK"
    fonts.use_cjk_if_needed("zh")
    assert _missing_glyph_warnings(title) == []


@needs_cjk
def test_set_language_zh_applies_it():
    i18n.set_language("zh")
    try:
        assert fonts.matplotlib_cjk_font() in mpl.rcParams["font.family"]
    finally:
        i18n.set_language(None)


def _import_in(cwd: Path, env_lang: str | None = None) -> list[str]:
    code = ("import sys, autograd_course as ag\n"
            "import autograd_course.course\n"
            "print(ag.course.i18n.get_language())\n"
            "print('matplotlib' in sys.modules)\n"
            "import matplotlib\n"
            "print(list(matplotlib.rcParams['font.family']))\n")
    env = {k: v for k, v in os.environ.items() if k != "AUTOGRAD_COURSE_LANG"}
    env["PYTHONPATH"] = str(ROOT)
    env["MPLBACKEND"] = "Agg"
    if env_lang:
        env["AUTOGRAD_COURSE_LANG"] = env_lang
    proc = subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.splitlines()


@needs_cjk
def test_a_notebook_under_zh_gets_the_font_at_import(tmp_path):
    """A kernel started in notebooks/zh/ (or zh/solutions/) speaks Chinese and has the font,
    with no code of its own; an English one does not even import matplotlib."""
    for folder in (tmp_path / "notebooks" / "zh", tmp_path / "notebooks" / "zh" / "solutions"):
        folder.mkdir(parents=True, exist_ok=True)
        lang, imported, family = _import_in(folder)
        assert lang == "zh" and imported == "True"
        assert fonts.matplotlib_cjk_font() in family
    english = tmp_path / "notebooks"
    assert _import_in(english)[:2] == ["en", "False"]
    lang, _, family = _import_in(english, env_lang="zh")
    assert lang == "zh" and fonts.matplotlib_cjk_font() in family


def test_fontconfig_lookup_never_raises():
    found = fonts.fontconfig_cjk_font()
    assert found is None or isinstance(found, str)


def test_import_in_a_deleted_working_directory(tmp_path):
    """The language is read from the working directory at import: a deleted one means English,
    not an import error."""
    gone = tmp_path / "zh"
    gone.mkdir()
    code = (f"import os; os.chdir({str(gone)!r}); os.rmdir({str(gone)!r})\n"
            "import autograd_course as ag\n"
            "import autograd_course.course\n"
            "print(ag.course.i18n.get_language())\n")
    env = {k: v for k, v in os.environ.items() if k != "AUTOGRAD_COURSE_LANG"}
    env["PYTHONPATH"] = str(ROOT)
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "en"
