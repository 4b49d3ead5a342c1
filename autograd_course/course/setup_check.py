"""Is everything the course uses installed? One line per part, with the fix when it is missing.

Run it from a notebook (``check_installation()``) or a terminal::

    python -m autograd_course.course.setup_check

It never raises: a missing optional part only means that one feature falls back to something
simpler (graphs as text instead of pictures, the CPU instead of a GPU). It speaks the course's
language (``i18n.get_language()``): the Chinese chapters get Chinese lines, with the names of
programs, packages and commands left as they are.
"""

from __future__ import annotations

import importlib
import shutil
import sys
from typing import Callable

from .i18n import get_language

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


# The Chinese of every line the check prints; a "{...}" is filled in after the translation.
ZH = {
    "arrays on the CPU": "CPU 上的数组",
    "Python side of the drawings": "画图的 Python 部分",
    "plots (chapters 1, 2 and 7)": "绘图（第 1、2、7 章）",
    "progress bars (chapter 7)": "进度条（第 7 章）",
    "backward-pass slider": "反向传播的滑块",
    "not in the site: the backward pass shows every frame, one after another":
        "网站里没有：反向传播逐帧依次显示",
    "version {version}": "版本 {version}",
    "{why}, version {version}": "{why}，版本 {version}",
    "fix: ": "解决办法：",
    "run `pip install -e .` in the repository root (or `make install`)":
        "在仓库根目录运行 `pip install -e .`（或 `make install`）",
    "draws the graphs ({dot})": "画计算图（{dot}）",
    "graphs are shown as text instead": "计算图改为以文本显示",
    "Chinese in graphs: {graphs}; in plots: {plots}":
        "计算图中的中文：{graphs}；绘图中的中文：{plots}",
    "no font": "没有字体",
    "{count} CUDA device(s)": "{count} 个 CUDA 设备",
    "none: everything runs on the CPU, chapter 8 included":
        "没有：一切都在 CPU 上运行，第 8 章也是",
    "optional: with an NVIDIA GPU, `pip install cupy-cuda12x` (match your CUDA version)":
        "可选：有 NVIDIA GPU 时运行 `pip install cupy-cuda12x`（与你的 CUDA 版本一致）",
    "Python {python} in the browser (Pyodide {pyodide}); nothing is installed":
        "浏览器中的 Python {python}（Pyodide {pyodide}）；无需安装任何东西",
    "draws the graphs as SVG: {detail}": "把计算图画成 SVG：{detail}",
    "reload the page (the site ships it: static/pyodide/autograd_course_vizjs-*.whl)":
        "重新加载页面（网站自带它：static/pyodide/autograd_course_vizjs-*.whl）",
    "Chinese in graphs: the browser's own fonts; in plots: {plots}":
        "计算图中的中文：浏览器自己的字体；绘图中的中文：{plots}",
    "no font (Chinese labels in plots show as boxes)": "没有字体（绘图中的中文标签显示为方框）",
    "none in a browser: everything runs on the CPU, chapter 8 included":
        "浏览器里没有：一切都在 CPU 上运行，第 8 章也是",
}


def say(text: str, **fields) -> str:
    """``text`` in the course's language, with ``fields`` filled in."""
    if get_language() == "zh":
        text = ZH.get(text, text)
    return text.format(**fields)


def check_installation(show: Callable[[str], None] = print) -> dict[str, tuple[bool, str]]:
    """Return {part: (found, detail)}; ``show`` one line per part, with a fix if missing."""
    report: dict[str, tuple[bool, str]] = {}

    def part(name: str, found: bool, detail: str, fix: str = "", optional: bool = False):
        report[name] = (found, detail)
        mark = "ok  " if found else ("--  " if optional else "MISSING")
        line = f"{mark:8}{name:18}{detail}"
        if not found and fix:
            line += f"\n{'':26}{say('fix: ')}{fix}"
        show(line)

    try:
        ag = importlib.import_module("autograd_course")
        part("autograd_course", True, say("version {version}", version=ag.__version__))
    except Exception as e:  # the only part the course cannot do without
        part("autograd_course", False, f"{type(e).__name__}: {e}",
             say("run `pip install -e .` in the repository root (or `make install`)"))
        return report
    wasm = importlib.import_module("autograd_course.viz.wasm")
    for module, why, fix, optional in PARTS:
        if wasm.IN_BROWSER:  # nothing can be installed into the site's Python
            fix = say(BROWSER_FIXES[module]) if module in BROWSER_FIXES else ""
        try:
            mod = importlib.import_module(module)
            part(module, True, say("{why}, version {version}", why=say(why),
                                   version=getattr(mod, "__version__", "?")))
        except ImportError:
            part(module, False, say(why), fix, optional=optional)
    fonts = importlib.import_module("autograd_course.course.fonts")
    if wasm.IN_BROWSER:
        _browser_parts(part, wasm, fonts)
        return report
    dot = shutil.which("dot")
    part("Graphviz `dot`", dot is not None,
         say("draws the graphs ({dot})", dot=dot) if dot
         else say("graphs are shown as text instead"),
         "apt-get install graphviz | brew install graphviz | conda install -c conda-forge "
         "graphviz", optional=True)
    for_graphs, for_plots = fonts.fontconfig_cjk_font(), fonts.matplotlib_cjk_font()
    part("CJK font", for_graphs is not None or for_plots is not None,
         say("Chinese in graphs: {graphs}; in plots: {plots}", graphs=for_graphs or say("no font"),
             plots=for_plots or say("no font")),
         "bash scripts/ensure_cjk_font.sh | apt-get install fonts-noto-cjk | conda install "
         "-c conda-forge font-ttf-noto-cjk", optional=True)
    gpu = ag.cuda.is_available()
    part("GPU (CuPy)", gpu,
         say("{count} CUDA device(s)", count=ag.cuda.device_count()) if gpu
         else say("none: everything runs on the CPU, chapter 8 included"),
         say("optional: with an NVIDIA GPU, `pip install cupy-cuda12x` (match your CUDA version)"),
         optional=True)
    return report


def _browser_parts(part, wasm, fonts) -> None:
    """The static site (Python in Pyodide): what the browser provides instead of the OS."""
    pyodide = importlib.import_module("pyodide")  # exists only in the browser's Python
    python = ".".join(str(v) for v in sys.version_info[:3])
    part("browser", True, say("Python {python} in the browser (Pyodide {pyodide}); nothing is "
                              "installed", python=python, pyodide=pyodide.__version__))
    ready, detail = wasm.status()
    part("Graphviz (WASM)", ready, say("draws the graphs as SVG: {detail}", detail=detail),
         say("reload the page (the site ships it: static/pyodide/autograd_course_vizjs-*.whl)"),
         optional=True)
    for_plots = fonts.matplotlib_cjk_font()
    part("CJK font", True, say("Chinese in graphs: the browser's own fonts; in plots: {plots}",
                               plots=for_plots or say("no font (Chinese labels in plots show "
                                                      "as boxes)")), optional=True)
    part("GPU (CuPy)", False, say("none in a browser: everything runs on the CPU, chapter 8 "
                                  "included"), optional=True)


if __name__ == "__main__":
    check_installation()
