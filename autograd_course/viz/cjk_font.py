"""Which font Graphviz can draw Chinese with, asked of fontconfig (``fc-list``).

Graphviz finds its fonts through fontconfig on Linux. A drawing in Chinese needs a font with
the glyphs; without one Graphviz draws boxes, so ``words.drawing_language`` falls back to
English words when ``graphs_can_draw_chinese()`` is False. The same list serves matplotlib's
Chinese font in the course layer (``autograd_course.course.fonts``).
"""

from __future__ import annotations

import functools
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


def _best(names) -> str | None:
    """The first of PREFERRED among ``names``, else the first name that looks CJK."""
    names = set(names)
    for name in PREFERRED:
        if name in names:
            return name
    others = sorted(n for n in names if any(h in n for h in _CJK_HINTS))
    return others[0] if others else None


def _fontconfig_cjk_files() -> dict[str, list[str]]:
    """{family: [font files]} for every font fontconfig lists for Chinese; empty without
    ``fc-list`` or when it fails."""
    if shutil.which("fc-list") is None:
        return {}
    try:
        out = subprocess.run(["fc-list", ":lang=zh", "--format", "%{file}\t%{family}\n"],
                             capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return {}
    files: dict[str, list[str]] = {}
    for line in out.splitlines():
        path, _, families = line.partition("\t")
        for name in families.split(","):
            if name.strip() and path:
                files.setdefault(name.strip(), [])
                if path not in files[name.strip()]:
                    files[name.strip()].append(path)
    return files


def fontconfig_cjk_font() -> str | None:
    """A font family fontconfig (which Graphviz and browsers on Linux use) lists for Chinese,
    preferring Noto Sans CJK SC; None when there is none or no ``fc-list``."""
    families = _fontconfig_cjk_files()
    return _best(families) or (sorted(families)[0] if families else None)


@functools.cache
def graphs_can_draw_chinese() -> bool:
    """Whether Graphviz (through fontconfig) has a font for Chinese; asked once per process.
    Without fontconfig (macOS, Windows) Graphviz finds the system's own CJK font: True."""
    return shutil.which("fc-list") is None or fontconfig_cjk_font() is not None
