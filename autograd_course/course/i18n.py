"""The course's two languages: English (``"en"``) and Simplified Chinese (``"zh"``).

Exercise verdicts and hints, and the words in graph drawings, follow one setting:

1. ``set_language("zh")`` (also ``autograd_course.course.set_language``) chooses it for this
   process;
2. otherwise the environment variable ``AUTOGRAD_COURSE_LANG`` (``en`` or ``zh``);
3. otherwise the notebook's own metadata, ``{"autograd_course": {"language": "zh"}}``, which
   every notebook of the Chinese edition carries: the front end tells the kernel which file it
   runs (JupyterLab and Notebook 7 through the environment variable ``JPY_SESSION_NAME``, VS
   Code through ``__vsc_ipynb_file__``), so a Chinese chapter copied anywhere still speaks
   Chinese;
4. otherwise the notebook's place: Jupyter, nbval and nbconvert start a notebook's kernel in
   the notebook's folder, so a chapter under ``notebooks/zh/`` (or ``notebooks/zh/solutions/``)
   speaks Chinese even where no front end names the file (nbconvert, nbval);
5. otherwise English.

Either way no code cell says so: the Chinese chapters' code stays identical to the English.

When the language is Chinese, matplotlib also gets a Chinese font (``fonts.py``): when the
course layer is imported (``apply_fonts()``, called by ``course/__init__.py``) and on
``set_language("zh")``. matplotlib is imported only then, inside ``fonts``. The library's
drawings ask ``get_language`` for their default language (``course/__init__.py`` installs it
with ``viz.words.use_default_language``).
"""

from __future__ import annotations

import json
import os
import sys
from functools import lru_cache
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
    lang = _metadata_language()
    if lang is not None:
        return lang
    try:
        here = Path.cwd().parts[-2:]
    except OSError:  # the working directory was deleted: no place to read the language from
        here = ()
    if "zh" in here:
        return "zh"
    return "en"


def notebook_path() -> Path | None:
    """The notebook file this kernel runs, when the front end says which: jupyter_server
    (JupyterLab, Notebook 7) puts its path in ``JPY_SESSION_NAME``, VS Code puts it in the
    variable ``__vsc_ipynb_file__``. None in a plain Python process, nbconvert or nbval."""
    names = [os.environ.get("JPY_SESSION_NAME", "")]
    ipython = sys.modules.get("IPython")  # loaded only inside a kernel: never imported here
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is not None:
        names.append(str(shell.user_ns.get("__vsc_ipynb_file__", "")))
    for name in names:
        if not name.endswith(".ipynb"):
            continue
        try:  # an absolute path, or one relative to where the kernel started (the folder)
            for path in (Path(name), Path.cwd() / Path(name).name):
                if path.is_file():
                    return path
        except OSError:
            continue
    return None


def _metadata_language() -> str | None:
    path = notebook_path()
    try:
        return None if path is None else notebook_language(str(path), path.stat().st_mtime)
    except OSError:  # the file went away since the front end named it
        return None


@lru_cache(maxsize=8)
def notebook_language(path: str, mtime: float = 0.0) -> str | None:
    """``metadata["autograd_course"]["language"]`` of the notebook at ``path`` (read once per
    version of the file, ``mtime``), or None when it has none or cannot be read."""
    try:
        with open(path, encoding="utf-8") as f:
            metadata = json.load(f).get("metadata", {})
    except (OSError, ValueError, AttributeError):
        return None
    lang = metadata.get("autograd_course", {}).get("language") if isinstance(metadata, dict) \
        else None
    return lang if lang in LANGUAGES else None


def apply_fonts() -> str | None:
    """Give matplotlib a Chinese font when the language is Chinese (see ``fonts.py``);
    returns the font's name, or None when nothing was needed or possible."""
    return fonts.use_cjk_if_needed(get_language())
