"""The Chinese font on a machine set up in the wrong order, or with no Chinese font at all.

Two situations a learner meets and must never fix by hand:

* **stale cache** — matplotlib ran once (and wrote its font list to its cache folder) before a
  CJK font was installed. matplotlib never looks again, so it believes there is no Chinese font
  although fontconfig lists one. ``fonts.matplotlib_cjk_font()`` registers the file fontconfig
  reports, so plots get the font without anyone deleting the cache.
* **no font at all** (not root, no package manager) — the Chinese chapters still run with no
  error output: matplotlib's per-glyph warnings are silenced, graph drawings use English words,
  and one notice says how to install a font.

Each case runs in a fresh Python process with its own matplotlib cache folder
(``MPLCONFIGDIR``); "no font" also hides every font but DejaVu from fontconfig
(``FONTCONFIG_FILE``), which is what Graphviz and ``fc-list`` read.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from autograd_course.course import fonts
from autograd_course.viz import cjk_font

ROOT = Path(__file__).resolve().parents[1]
pytest.importorskip("matplotlib")
needs_fc_cjk = pytest.mark.skipif(
    fonts.fontconfig_cjk_font() is None,
    reason="fontconfig lists no Chinese font (bash scripts/ensure_cjk_font.sh installs one)")

PLOT_AND_DRAW = textwrap.dedent("""
    import warnings
    warnings.simplefilter("always")
    import autograd_course as ag
    import autograd_course.course
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots()
    ax.set_title("损失随迭代下降")  # a missing glyph would print a warning to stderr
    fig.canvas.draw()
    print("FAMILY", list(matplotlib.rcParams["font.family"]))
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    view = ag.viz.draw_graph((x * x).sum())
    print("DRAWN_IN", view.lang)
    ag.course.i18n.set_language("zh")  # a second time in the same process: no second notice
""")


def _matplotlib_cache(folder: Path, env: dict) -> Path:
    """Let matplotlib write its font cache into ``folder``; return the cache file."""
    subprocess.run([sys.executable, "-c", "import matplotlib.font_manager"], env=env,
                   check=True, capture_output=True, timeout=600)
    (cache,) = folder.glob("fontlist-*.json")
    return cache


def _forget_cjk_fonts(cache: Path) -> None:
    """Make the cache look as if it had been written before any CJK font was installed."""
    data = json.loads(cache.read_text())
    data["ttflist"] = [f for f in data["ttflist"]
                       if not any(h in f["name"] for h in cjk_font._CJK_HINTS)]
    cache.write_text(json.dumps(data))


def _env(tmp_path: Path, **extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("AUTOGRAD_COURSE_LANG",)}
    env.update(PYTHONPATH=str(ROOT), MPLCONFIGDIR=str(tmp_path / "mpl"), MPLBACKEND="Agg",
               AUTOGRAD_COURSE_LANG="zh", **extra)
    (tmp_path / "mpl").mkdir(exist_ok=True)
    return env


def _run(env: dict, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", PLOT_AND_DRAW], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=600)


@needs_fc_cjk
def test_font_installed_after_matplotlib_wrote_its_cache(tmp_path):
    env = _env(tmp_path)
    cache = _matplotlib_cache(tmp_path / "mpl", env)
    _forget_cjk_fonts(cache)
    proc = _run(env, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "", "no 'Glyph missing' warning, nothing else on stderr"
    out = proc.stdout
    assert fonts.fontconfig_cjk_font() in out.split("FAMILY", 1)[1].splitlines()[0]
    assert "DRAWN_IN zh" in out
    assert fonts.NO_FONT_NOTICE.splitlines()[0] not in out


@pytest.mark.skipif(shutil.which("fc-list") is None, reason="needs fontconfig's fc-list")
def test_no_chinese_font_anywhere_runs_quietly(tmp_path):
    dejavu = [d for d in ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/TTF")
              if Path(d).is_dir()]
    if not dejavu:
        pytest.skip("no DejaVu folder to build a CJK-free fontconfig from")
    conf = tmp_path / "fonts.conf"
    conf.write_text('<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n'
                    f"<fontconfig><dir>{dejavu[0]}</dir>"
                    f"<cachedir>{tmp_path / 'fc-cache'}</cachedir></fontconfig>\n")
    env = _env(tmp_path, FONTCONFIG_FILE=str(conf))
    cjk = subprocess.run(["fc-list", ":lang=zh"], env=env, capture_output=True, text=True,
                         timeout=60).stdout
    assert cjk.strip() == "", "the premise: fontconfig sees no Chinese font"
    _forget_cjk_fonts(_matplotlib_cache(tmp_path / "mpl", env))
    proc = _run(env, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "", "no error output without a Chinese font"
    out = proc.stdout
    assert "DRAWN_IN en" in out, "graph drawings fall back to English words"
    assert out.count(fonts.NO_FONT_NOTICE.splitlines()[0]) == 1, "the notice comes once"
    assert "ensure_cjk_font.sh" in out


def test_the_notice_names_the_commands():
    assert "fonts-noto-cjk" in fonts.NO_FONT_NOTICE
    assert "font-ttf-noto-cjk" in fonts.NO_FONT_NOTICE
    assert "restart the kernel" in fonts.NO_FONT_NOTICE
