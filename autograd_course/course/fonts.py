"""A Chinese font for matplotlib, so that plots in the Chinese chapters show glyphs, not boxes.

matplotlib's default font (DejaVu Sans) has no Chinese glyphs. Since matplotlib 3.6 a list of
families in ``rcParams["font.family"]`` is a per-glyph fallback chain: the first family draws
every character it has, the next ones the rest. ``use_cjk_if_needed("zh")`` appends one
installed CJK font to that chain, so Latin text, digits and minus signs look exactly as
before and Chinese characters come from the CJK font.

matplotlib lists the fonts it knows in a cache file (``~/.cache/matplotlib``) written the first
time it runs, and never looks again. A font installed after that is invisible to it, so when
the cache knows no CJK font we ask fontconfig (``fc-list``, which also serves Graphviz and the
browser; ``viz/cjk_font.py``) for the font's file and register that file with matplotlib, in
this process only: no learner ever deletes a cache by hand. In the static site (Python in the
browser, no fontconfig) the font is the one the site ships, ``autograd_course_cjkfont``
(scripts/build_site.py).

The course layer's ``i18n`` calls it when the language is Chinese (when the course layer is
imported, and from ``set_language("zh")``), so a notebook under ``notebooks/zh/`` needs no code
for it.
matplotlib is optional: without it nothing happens. Without any CJK font the Chinese chapters
still run quietly: matplotlib's "Glyph missing" warnings are silenced, the graph drawings use
their English words, and one notice says how to install a font (``NO_FONT_NOTICE``).
"""

from __future__ import annotations

import importlib
import warnings

from ..viz.cjk_font import _best, _fontconfig_cjk_files, fontconfig_cjk_font

__all__ = ["NO_FONT_NOTICE", "fontconfig_cjk_font", "matplotlib_cjk_font", "use_cjk_if_needed"]

INSTALL_HINT = ("bash scripts/ensure_cjk_font.sh  (Debian/Ubuntu: sudo apt-get install "
                "fonts-noto-cjk; conda: conda install -c conda-forge font-ttf-noto-cjk)")
NO_FONT_NOTICE = ("autograd_course: no font with Chinese characters is installed, so Chinese "
                  "text in plots shows as boxes and graph drawings use English words. "
                  f"Install one with: {INSTALL_HINT}; then restart the kernel.\n"
                  "autograd_course：未安装中文字体，图中的中文会显示为方框，计算图暂用英文标注。"
                  "安装字体后重启内核即可。")
_MISSING_GLYPH = r"Glyph \d+ .* missing from (current )?font"
_noticed = False


def _site_cjk_files() -> dict[str, list[str]]:
    """{family: [font files]} of the Chinese font the static site ships for matplotlib (the
    package ``autograd_course_cjkfont``: the browser's Python has no fontconfig and no system
    fonts); empty where that package is not installed (everywhere but the site)."""
    try:
        shipped = importlib.import_module("autograd_course_cjkfont")
    except ImportError:
        return {}
    return shipped.FILES


def matplotlib_cjk_font() -> str | None:
    """The name of a font matplotlib knows that draws Chinese, or None (also without
    matplotlib). When matplotlib's font cache predates the font, the font's file (as
    fontconfig reports it) is registered with matplotlib first."""
    try:
        from matplotlib import font_manager
    except ImportError:
        return None
    name = _best(f.name for f in font_manager.fontManager.ttflist)
    if name is not None:
        return name
    families = _fontconfig_cjk_files() or _site_cjk_files()
    chosen = _best(families) or (sorted(families)[0] if families else None)
    if chosen is None:
        return None
    for path in families[chosen]:
        try:
            font_manager.fontManager.addfont(path)
        except (OSError, RuntimeError, ValueError):  # a file matplotlib cannot read
            continue
    return _best(f.name for f in font_manager.fontManager.ttflist)


def quiet_without_cjk_font() -> None:
    """No CJK font: silence matplotlib's per-glyph warnings (each Chinese character of each
    plot would print one) and print ``NO_FONT_NOTICE`` once per process instead."""
    global _noticed
    warnings.filterwarnings("ignore", message=_MISSING_GLYPH, category=UserWarning)
    if not _noticed:
        _noticed = True
        print(NO_FONT_NOTICE)


def use_cjk_if_needed(lang: str) -> str | None:
    """When ``lang == "zh"``: append a CJK font to matplotlib's ``font.family`` chain (once).

    Returns the font's name, or None when nothing was done (another language, no
    matplotlib, no CJK font: then ``quiet_without_cjk_font()``). Safe to call any number of
    times.
    """
    if lang != "zh":
        return None
    try:
        import matplotlib
    except ImportError:
        return None
    name = matplotlib_cjk_font()
    if name is None:
        quiet_without_cjk_font()
        return None
    family = matplotlib.rcParams["font.family"]
    family = [family] if isinstance(family, str) else list(family)
    if name not in family:
        matplotlib.rcParams["font.family"] = family + [name]
    return name
