"""The static site (build/site, `make site`) in headless Chromium, served on 127.0.0.1.

Every chapter and solutions notebook of both editions is opened in JupyterLite, its Pyodide
kernel started, and all its cells run: the test fails on any error, on stderr output other than
the few named harmless lines (HARMLESS_STDERR), on a cell left unrun, or on a request to any host
but the site's own. Every cell that shows a drawing on the desktop (a graph, a backward frame,
the backward slider) must show it here as SVG from the WASM Graphviz, rendered as an image (the
slider as its frame-by-frame fallback); chapter 0's setup_check must describe the browser; the
solutions notebooks' exercise checkers must give their verdicts. Seconds per notebook are printed
at the end.

The rule for slow chapters: every notebook must finish Run All within RUN_ALL_S (15 minutes) in
the browser, or the test fails; no chapter is skipped. Chapter 7 (it trains networks) and
chapter 5 (it times things) are the slowest at about a minute (README, "The course in a browser
tab", has the measured table).
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
ALL = sorted(str(p.relative_to(NOTEBOOKS)) for p in NOTEBOOKS.rglob("*.ipynb")
             if p.name != "index.ipynb" and ".ipynb_checkpoints" not in p.parts)
KERNEL_READY_S = 300  # a cold Pyodide kernel: ~20 s on a free 2-core machine, 100 s on a busy one
RUN_ALL_S = 900
VERDICT = {"en": "correct", "zh": "正确"}
# What the browser kernel writes to stderr that is not an error (README, "The course in a
# browser tab"), each line matched in full; any other stderr text fails the test.
HARMLESS_STDERR = [
    # Every kernel starts from an empty file system, so matplotlib builds its font cache on the
    # first import in each chapter (a second or two) and says so.
    r"Matplotlib is building the font cache; this may take a moment\.",
    # tqdm.auto finds no widget-capable kernel in the browser and draws its text bar, on stderr;
    # Pyodide has no threads, so tqdm warns once that its monitor thread is off.
    r"<ipython-input-\d+-[0-9a-f]+>:\d+: TqdmMonitorWarning: tqdm:disabling monitor support "
    r"\(monitor_interval = 0\) due to:",
    r"can't start new thread",
    r"  bar = tqdm\(.*\)",
    r"[^:]+: 100%\|█+\| \d+/\d+ \[[\d:]+<00:00, +[\d.]+(it/s|s/it)(, .*)?\]",
]

# The open notebook, read from JupyterLab's own model (window.jupyterapp in JupyterLite).
PANEL_JS = """
(path) => {
  const app = window.jupyterapp;
  const panel = app && app.shell.currentWidget;
  if (!panel || !panel.context || panel.context.path !== path) return null;
  const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
  return kernel ? {name: kernel.name, status: kernel.status} : {name: null, status: null};
}
"""
RUN_ALL_JS = """
() => {
  window.__runAll = 'running';
  window.jupyterapp.commands.execute('notebook:run-all-cells')
    .then(ok => { window.__runAll = 'done'; }, err => { window.__runAll = 'error: ' + err; });
}
"""
# Per code cell: execution count, and each output's type, stream name, MIME types and text.
CELLS_JS = """
() => {
  const panel = window.jupyterapp.shell.currentWidget;
  const out = [];
  for (const cell of panel.content.widgets) {
    if (cell.model.type !== 'code') continue;
    const outputs = [];
    for (let i = 0; i < cell.model.outputs.length; i++) {
      const o = cell.model.outputs.get(i).toJSON();
      outputs.push({type: o.output_type, name: o.name || null,
                    mimes: Object.keys(o.data || {}),
                    text: [].concat(o.text || (o.data && o.data['text/plain']) || []).join(''),
                    ename: o.ename || null, evalue: o.evalue || null});
    }
    const imgs = [...cell.node.querySelectorAll(
        '.jp-OutputArea-output[data-mime-type="image/svg+xml"] img')].map(i => i.naturalWidth);
    out.push({count: cell.model.executionCount, source: cell.model.sharedModel.getSource(),
              outputs, svgImages: imgs});
  }
  return out;
}
"""


def _lang(rel: str) -> str:
    return "zh" if rel.startswith("zh/") else "en"


def _committed(rel: str) -> dict:
    return json.loads((NOTEBOOKS / rel).read_text(encoding="utf-8"))


def _open(page, site_url: str, rel: str, deadline: float) -> dict:
    page.goto(f"{site_url}lab/index.html?path={rel}")
    while True:
        state = page.evaluate(PANEL_JS, rel)
        if state and state["status"] == "idle":
            return state
        if time.monotonic() > deadline:
            pytest.fail(f"{rel}: no idle kernel within {KERNEL_READY_S} s (last: {state})")
        time.sleep(0.5)


def _run_all(page, rel: str, deadline: float) -> list[dict]:
    page.evaluate(RUN_ALL_JS)
    while True:
        status = page.evaluate("() => window.__runAll")
        if status != "running":
            break
        if time.monotonic() > deadline:
            pytest.fail(f"{rel}: Run All did not finish within {RUN_ALL_S} s")
        time.sleep(0.5)
    assert status == "done", f"{rel}: Run All ended with {status}"
    page.wait_for_function("() => { const k = window.jupyterapp.shell.currentWidget"
                           ".sessionContext.session.kernel; return k.status === 'idle'; }")
    return page.evaluate(CELLS_JS)


def _problems(rel: str, cells: list[dict]) -> list[str]:
    problems = []
    for k, cell in enumerate(cells):
        first = cell["source"].splitlines()[0][:50] if cell["source"] else ""
        where = f"code cell {k + 1} ({first})"
        if cell["count"] is None:
            problems.append(f"{where}: not run")
        for o in cell["outputs"]:
            if o["type"] == "error":
                problems.append(f"{where}: {o['ename']}: {o['evalue']}")
            elif o["type"] == "stream" and o["name"] == "stderr":
                lines = [line for line in o["text"].splitlines()
                         if line.strip()
                         and not any(re.fullmatch(p, line) for p in HARMLESS_STDERR)]
                if lines:
                    problems.append(f"{where}: stderr: {chr(10).join(lines)[:300]}")
    return problems


@pytest.mark.parametrize("rel", ALL)
def test_notebook_runs_in_the_site(page, site_url, timings, rel):
    pg, hosts = page
    start = time.monotonic()
    state = _open(pg, site_url, rel, start + KERNEL_READY_S)
    ready = time.monotonic() - start
    assert state["name"] == "python", f"{rel}: kernel {state['name']!r}, not the Pyodide one"
    cells = _run_all(pg, rel, time.monotonic() + RUN_ALL_S)
    timings[rel] = (ready, time.monotonic() - start - ready)
    print(f"\n{rel}: kernel ready {ready:.1f} s, run all {timings[rel][1]:.1f} s")

    assert not _problems(rel, cells), f"{rel}:\n" + "\n".join(_problems(rel, cells))
    committed = [c for c in _committed(rel)["cells"] if c["cell_type"] == "code"]
    assert len(cells) == len(committed)
    # Each cell that shows a drawing on the desktop (a PNG whose text is a GraphView's or a
    # frame's repr) shows it here as an SVG image from the WASM Graphviz.
    drawn = [k for k, c in enumerate(committed) for o in c.get("outputs", [])
             if "image/png" in o.get("data", {})
             and re.match(r"<(GraphView|BackwardFrame|BackwardAnimation)\b",
                          "".join(o["data"].get("text/plain", "")))]
    for k in drawn:
        svg = [o for o in cells[k]["outputs"] if "image/svg+xml" in o["mimes"]]
        assert svg, f"{rel}: code cell {k + 1} drew no SVG: {cells[k]['outputs']}"
        assert cells[k]["svgImages"] and min(cells[k]["svgImages"]) > 0, \
            f"{rel}: code cell {k + 1}: the SVG is not shown as an image"
    if _lang(rel) == "zh":  # the site's Chinese font is found: no "no font" notice
        assert not any("未安装中文字体" in o["text"] for c in cells for o in c["outputs"]), rel
    if rel.endswith("00_welcome.ipynb"):  # setup_check, as the browser's Python sees itself
        report = "".join(o["text"] for o in cells[0]["outputs"] if o["name"] == "stdout")
        expected = {  # the check speaks the chapter's language (issue 46)
            "en": [r"ok +browser +Python 3\.12\.\d+ in the browser \(Pyodide 0\.27\.7\)",
                   r"ok +Graphviz \(WASM\) +draws the graphs as SVG: Graphviz 16\.1\.0 "
                   r"compiled to WebAssembly",
                   r"ok +CJK font +Chinese in graphs: the browser's own fonts; in plots: "
                   r"Noto Sans CJK SC",
                   r"-- +GPU \(CuPy\) +none in a browser"],
            "zh": [r"ok +browser +浏览器中的 Python 3\.12\.\d+（Pyodide 0\.27\.7）",
                   r"ok +Graphviz \(WASM\) +把计算图画成 SVG：Graphviz 16\.1\.0 "
                   r"compiled to WebAssembly",
                   r"ok +CJK font +计算图中的中文：浏览器自己的字体；绘图中的中文："
                   r"Noto Sans CJK SC",
                   r"-- +GPU \(CuPy\) +浏览器里没有"],
        }[_lang(rel)]
        for line in expected:
            assert re.search(line, report), f"{rel}: setup_check lacks {line!r}:\n{report}"
        fix = {"en": "fix:", "zh": "解决办法："}[_lang(rel)]
        assert "Graphviz `dot`" not in report and fix not in report.split("ipywidgets")[0]
    if "solutions/" in rel:
        verdicts = sum(o["text"].count(VERDICT[_lang(rel)]) for c in cells
                       for o in c["outputs"])
        expected = sum("".join(o.get("text", "")).count(VERDICT[_lang(rel)])
                       for c in committed for o in c.get("outputs", []))
        assert verdicts == expected, f"{rel}: {verdicts} verdicts, the desktop gives {expected}"
    foreign = {host: url for host, url in hosts.items()
               if host != site_url.split("/")[2]}
    assert not foreign, f"{rel}: requests to other hosts: {foreign}"


def test_landing_page_links_every_notebook(site_dir):
    """index.html (the site's first page) opens each notebook of both editions in JupyterLite,
    and every linked notebook is in the site."""
    page = (site_dir / "index.html").read_text(encoding="utf-8")
    linked = set(re.findall(r'href="lab/index\.html\?path=([^"]+)"', page))
    assert linked == set(ALL) | {"index.ipynb"}
    for rel in linked:
        assert (site_dir / "files" / rel).is_file(), rel
    assert 'id="jupyter-config-data"' in page  # JupyterLite reads its settings from this page
