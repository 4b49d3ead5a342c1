"""The course's two languages: English (``"en"``) and Simplified Chinese (``"zh"``).

Exercise verdicts and hints, and the words in graph drawings, follow one setting:

1. ``set_language("zh")`` (also ``ag.exercises.set_language``) chooses it for this process;
2. otherwise the environment variable ``AUTOGRAD_COURSE_LANG`` (``en`` or ``zh``);
3. otherwise the notebook's place: Jupyter, nbval and nbconvert start a notebook's kernel in
   the notebook's folder, so a chapter under ``notebooks/zh/`` (or ``notebooks/zh/solutions/``)
   speaks Chinese with no code of its own to say so, and its code cells stay identical to the
   English chapter's;
4. otherwise English.

When the language is Chinese, matplotlib also gets a Chinese font (``fonts.py``): at package
import (``apply_fonts()``, called by ``autograd_course/__init__.py``) and on
``set_language("zh")``. matplotlib is imported only then, inside ``fonts``.
"""

from __future__ import annotations

import os
from pathlib import Path

from . import fonts

LANGUAGES = ("en", "zh")
_chosen: str | None = None


def set_language(lang: str | None) -> None:
    """Choose ``"en"`` or ``"zh"`` for this process; ``None`` goes back to detection."""
    global _chosen
    if lang is not None and lang not in LANGUAGES:
        raise ValueError(f"language must be one of {LANGUAGES}, not {lang!r}")
    _chosen = lang
    apply_fonts()


def get_language() -> str:
    """The language in use now (see the module docstring for how it is chosen)."""
    if _chosen is not None:
        return _chosen
    env = os.environ.get("AUTOGRAD_COURSE_LANG", "").strip().lower()
    if env in LANGUAGES:
        return env
    try:
        here = Path.cwd().parts[-2:]
    except OSError:  # the working directory was deleted: no place to read the language from
        here = ()
    if "zh" in here:
        return "zh"
    return "en"


def apply_fonts() -> str | None:
    """Give matplotlib a Chinese font when the language is Chinese (see ``fonts.py``);
    returns the font's name, or None when nothing was needed or possible."""
    return fonts.use_cjk_if_needed(get_language())
