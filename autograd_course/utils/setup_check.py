"""Is everything the course uses installed? One line per part, with the fix when it is missing.

Run it from a notebook (``check_installation()``) or a terminal::

    python -m autograd_course.utils.setup_check

It never raises: a missing optional part only means that one feature falls back to something
simpler (graphs as text instead of pictures, the CPU instead of a GPU).
"""

from __future__ import annotations

import importlib
import shutil
from typing import Callable

# (module, what the course uses it for, how to install it, optional)
PARTS = [
    ("numpy", "arrays on the CPU", "pip install numpy", False),
    ("graphviz", "Python side of the drawings", "pip install graphviz", False),
    ("matplotlib", "plots (chapters 1, 2 and 7)", "pip install matplotlib", False),
    ("tqdm", "progress bars (chapter 7)", "pip install tqdm", False),
    ("ipywidgets", "backward-pass slider", "pip install ipywidgets", True),
]


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
    for module, why, fix, optional in PARTS:
        try:
            mod = importlib.import_module(module)
            part(module, True, f"{why}, version {getattr(mod, '__version__', '?')}")
        except ImportError:
            part(module, False, why, fix, optional=optional)
    dot = shutil.which("dot")
    part("Graphviz `dot`", dot is not None,
         f"draws the graphs ({dot})" if dot else "graphs are shown as text instead",
         "apt-get install graphviz | brew install graphviz | conda install -c conda-forge "
         "graphviz", optional=True)
    fonts = importlib.import_module("autograd_course.fonts")
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


if __name__ == "__main__":
    check_installation()
