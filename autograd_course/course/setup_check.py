"""Is everything the course uses installed? One line per part, with the fix when it is missing.

Run it from a notebook (``check_installation()``) or a terminal::

    python -m autograd_course.course.setup_check

It never raises: a missing optional part only means that one feature falls back to something
simpler (graphs as text instead of pictures, the CPU instead of a GPU).
"""

from __future__ import annotations

import importlib
import shutil
import sys
from typing import Callable

# (module, what the course uses it for, how to install it, optional)
PARTS = [
    ("numpy", "arrays on the CPU", "pip install numpy", False),
    ("graphviz", "Python side of the drawings", "pip install graphviz", False),
    ("matplotlib", "plots (chapters 1, 2 and 7)", "pip install matplotlib", False),
    ("tqdm", "progress bars (chapter 7)", "pip install tqdm", False),
    ("ipywidgets", "backward-pass slider", "pip install ipywidgets", True),
]

# In the browser (the static site) a missing part cannot be installed: what happens instead.
BROWSER_FIXES = {
    "ipywidgets": "not in the site: the backward pass shows every frame, one after another",
}


def check_installation(show: Callable[[str], None] = print) -> dict[str, tuple[bool, str]]:
    """Return {part: (found, detail)}; ``show`` one line per part, with a fix if missing."""
    report: dict[str, tuple[bool, str]] = {}

    def part(name: str, found: bool, detail: str, fix: str = "", optional: bool = False):
        report[name] = (found, detail)
        mark = "ok  " if found else ("--  " if optional else "MISSING")
        line = f"{mark:8}{name:18}{detail}"
        if not found and fix:
            line += f"\n{'':26}fix: {fix}"
        show(line)

    try:
        ag = importlib.import_module("autograd_course")
        part("autograd_course", True, f"version {ag.__version__}")
    except Exception as e:  # the only part the course cannot do without
        part("autograd_course", False, f"{type(e).__name__}: {e}",
             "run `pip install -e .` in the repository root (or `make install`)")
        return report
    wasm = importlib.import_module("autograd_course.viz.wasm")
    for module, why, fix, optional in PARTS:
        if wasm.IN_BROWSER:  # nothing can be installed into the site's Python
            fix = BROWSER_FIXES.get(module, "")
        try:
            mod = importlib.import_module(module)
            part(module, True, f"{why}, version {getattr(mod, '__version__', '?')}")
        except ImportError:
            part(module, False, why, fix, optional=optional)
    fonts = importlib.import_module("autograd_course.course.fonts")
    if wasm.IN_BROWSER:
        _browser_parts(part, wasm, fonts)
        return report
    dot = shutil.which("dot")
    part("Graphviz `dot`", dot is not None,
         f"draws the graphs ({dot})" if dot else "graphs are shown as text instead",
         "apt-get install graphviz | brew install graphviz | conda install -c conda-forge "
         "graphviz", optional=True)
    for_graphs, for_plots = fonts.fontconfig_cjk_font(), fonts.matplotlib_cjk_font()
    part("CJK font", for_graphs is not None or for_plots is not None,
         f"Chinese in graphs: {for_graphs or 'no font'}; in plots: {for_plots or 'no font'}",
         "bash scripts/ensure_cjk_font.sh | apt-get install fonts-noto-cjk | conda install "
         "-c conda-forge font-ttf-noto-cjk", optional=True)
    gpu = ag.cuda.is_available()
    part("GPU (CuPy)", gpu,
         f"{ag.cuda.device_count()} CUDA device(s)" if gpu
         else "none: everything runs on the CPU, chapter 8 included",
         "optional: with an NVIDIA GPU, `pip install cupy-cuda12x` (match your CUDA version)",
         optional=True)
    return report


def _browser_parts(part, wasm, fonts) -> None:
    """The static site (Python in Pyodide): what the browser provides instead of the OS."""
    pyodide = importlib.import_module("pyodide")  # exists only in the browser's Python
    python = ".".join(str(v) for v in sys.version_info[:3])
    part("browser", True, f"Python {python} in the browser (Pyodide {pyodide.__version__}); "
         "nothing is installed")
    ready, detail = wasm.status()
    part("Graphviz (WASM)", ready, f"draws the graphs as SVG: {detail}",
         "reload the page (the site ships it: static/pyodide/autograd_course_vizjs-*.whl)",
         optional=True)
    for_plots = fonts.matplotlib_cjk_font()
    part("CJK font", True, "Chinese in graphs: the browser's own fonts; in plots: "
         + (for_plots or "no font (Chinese labels in plots show as boxes)"), optional=True)
    part("GPU (CuPy)", False, "none in a browser: everything runs on the CPU, chapter 8 "
         "included", optional=True)


if __name__ == "__main__":
    check_installation()
