"""A Chinese font for matplotlib, so that plots in the Chinese chapters show glyphs, not boxes.

matplotlib's default font (DejaVu Sans) has no Chinese glyphs. Since matplotlib 3.6 a list of
families in ``rcParams["font.family"]`` is a per-glyph fallback chain: the first family draws
every character it has, the next ones the rest. ``use_cjk_if_needed("zh")`` appends one
installed CJK font to that chain, so Latin text, digits and minus signs look exactly as
before and Chinese characters come from the CJK font.

``autograd_course.i18n`` calls it when the language is Chinese (at import, and from
``set_language("zh")``), so a notebook under ``notebooks/zh/`` needs no code for it.
matplotlib is optional: without it, or without a CJK font, nothing happens (plots then show
boxes for Chinese; ``scripts/ensure_cjk_font.sh`` installs Noto Sans CJK).
"""

from __future__ import annotations

import shutil
import subprocess

# Preferred first: Simplified Chinese forms (Noto / Source Han are the same design), then
# fonts that ship with macOS and Windows, then any other CJK font.
PREFERRED = (
    "Noto Sans CJK SC",
    "Source Han Sans SC",
    "Noto Sans SC",
    "PingFang SC",
    "Hiragino Sans GB",
    "Microsoft YaHei",
    "SimHei",
    "WenQuanYi Zen Hei",
    "WenQuanYi Micro Hei",
    "Noto Sans CJK JP",
    "Noto Sans CJK TC",
    "Noto Serif CJK SC",
)
_CJK_HINTS = ("CJK", "Han Sans", "Hei", "PingFang", "YaHei", "Ming", "Song", "Kai")


def matplotlib_cjk_font() -> str | None:
    """The name of a font matplotlib knows that draws Chinese, or None (also without
    matplotlib)."""
    try:
        from matplotlib import font_manager
    except ImportError:
        return None
    names = {f.name for f in font_manager.fontManager.ttflist}
    for name in PREFERRED:
        if name in names:
            return name
    others = sorted(n for n in names if any(h in n for h in _CJK_HINTS))
    return others[0] if others else None


def fontconfig_cjk_font() -> str | None:
    """A font family fontconfig (which Graphviz and browsers on Linux use) lists for Chinese,
    preferring Noto Sans CJK SC; None when there is none or no ``fc-list``."""
    if shutil.which("fc-list") is None:
        return None
    try:
        out = subprocess.run(["fc-list", ":lang=zh", "family"], capture_output=True,
                             text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    families = sorted({name.strip() for line in out.splitlines() for name in line.split(",")
                       if name.strip()})
    for name in PREFERRED:
        if name in families:
            return name
    return families[0] if families else None


def use_cjk_if_needed(lang: str) -> str | None:
    """When ``lang == "zh"``: append a CJK font to matplotlib's ``font.family`` chain (once).

    Returns the font's name, or None when nothing was done (another language, no
    matplotlib, no CJK font). Safe to call any number of times.
    """
    if lang != "zh":
        return None
    name = matplotlib_cjk_font()
    if name is None:
        return None
    import matplotlib

    family = matplotlib.rcParams["font.family"]
    family = [family] if isinstance(family, str) else list(family)
    if name not in family:
        matplotlib.rcParams["font.family"] = family + [name]
    return name
