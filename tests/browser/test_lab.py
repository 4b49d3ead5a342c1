"""`make lab` really serves the course: chapter 3 opened in JupyterLab, in a real browser.

The notebook is opened as a fresh clone has it (untrusted, see conftest.py): its committed
pictures must show as pictures. Then it is run with the menu's Run > Run All Cells and must
show its computation graphs as images and no errors. This catches what unit tests cannot:
a missing `dot` program, graphs that show as `<graphviz.graphs.Digraph at 0x...>` text
(SVG in an untrusted notebook), a kernel that cannot import the package.
"""

from __future__ import annotations

import ast
import re
import time
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = "03_computation_graph.ipynb"
SCREENSHOT = ROOT / "build" / "screenshots" / "chapter03.png"
# Time for everything the browser does (the server start and shut-down have their own bounds
# in conftest.py): together well under the 3 minutes a CI step may take.
BROWSER_BUDGET_S = 120
# An output that is the repr of a graph object instead of its picture.
GRAPH_AS_TEXT = re.compile(
    r"<graphviz\.[\w.]+ (object )?at 0x|<GraphView\b|<autograd_course\.viz\b"
)
# The last line of an error output: "NameError: ...", "SyntaxError: ...", "ag.SomeError: ...".
ERROR_LINE = re.compile(r"^\s*[\w.]*(Error|Exception)\b.*:", re.MULTILINE)
PANEL = ".jp-NotebookPanel:not(.lm-mod-hidden)"

# Per cell of the open notebook, in order: what the browser shows.
CELL_STATE_JS = f"""
() => [...document.querySelectorAll('{PANEL} .jp-Notebook .jp-Cell')].map(cell => {{
  const outs = [...cell.querySelectorAll('.jp-OutputArea-output')];
  return {{
    prompt: (cell.querySelector('.jp-InputArea-prompt') || {{}}).textContent || '',
    stderr: outs.filter(o => o.dataset.mimeType === 'application/vnd.jupyter.stderr')
                .map(o => o.textContent),
    text: outs.map(o => o.textContent).join('\\n'),
    images: [...cell.querySelectorAll('.jp-OutputArea-output img')].map(img => img.naturalWidth),
  }};
}})
"""

# Done = nothing queued or running, the kernel idle, and every code cell numbered, or an
# error shown (Run All stops at the first one and leaves the rest unrun).
RUN_FINISHED_JS = f"""
(nCode) => {{
  const panel = document.querySelector('{PANEL}');
  if (!panel) return false;
  const prompts = [...panel.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')]
    .map(p => p.textContent.trim());
  if (prompts.length !== nCode || prompts.some(p => p.includes('*'))) return false;
  const status = panel.querySelector('.jp-Notebook-ExecutionIndicator');
  if (status && status.dataset.status !== 'idle') return false;
  const errored = panel.querySelector(
    '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]');
  return prompts.every(p => /\\d/.test(p)) || errored !== null;
}}
"""

NO_NUMBERED_PROMPT_JS = f"""
() => ![...document.querySelectorAll('{PANEL} .jp-CodeCell .jp-InputArea-prompt')]
  .some(p => /\\d/.test(p.textContent))
"""


def _allowed_to_raise(cell: nbformat.NotebookNode) -> bool:
    return "raises-exception" in cell.get("metadata", {}).get("tags", [])


def _has_picture(cell: nbformat.NotebookNode) -> bool:
    """The committed cell shows a picture (any image/* output)."""
    return any(k.startswith("image/") for o in cell.get("outputs", []) for k in o.get("data", {}))


def _ends_with_draw_graph(cell: nbformat.NotebookNode) -> bool:
    """The cell's last statement is a bare `...draw_graph(...)`: Jupyter displays the graph."""
    try:
        body = ast.parse(cell.source).body
    except SyntaxError:
        return False
    if not body or not isinstance(body[-1], ast.Expr) or not isinstance(body[-1].value, ast.Call):
        return False
    func = body[-1].value.func
    return (func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")) in {
        "draw_graph"
    }


def _label(i: int, cell: nbformat.NotebookNode) -> str:
    first = cell.source.strip().splitlines()[0][:60] if cell.source.strip() else ""
    return f"cell {i} ({first!r})"


class _Budget:
    """One time budget for all the waits of a test, so their sum stays bounded."""

    def __init__(self, seconds: float) -> None:
        self.end = time.monotonic() + seconds

    def ms(self, cap_s: float) -> float:
        """A Playwright timeout: at most cap_s, and never past the end of the budget."""
        left = self.end - time.monotonic()
        if left <= 0:
            pytest.fail(f"the browser test ran out of its {BROWSER_BUDGET_S} s budget")
        return min(cap_s, left) * 1000


def _menu(page, menu: str, item: str, budget: _Budget) -> None:
    """Click menu > item in JupyterLab's menu bar, like a reader would."""
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(f"^{menu}$")).click(
        timeout=budget.ms(10)
    )
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(f"^{item}$")).click(
        timeout=budget.ms(10)
    )


def _cells_in_browser(page, panel, budget: _Budget) -> list[dict]:
    """What each cell shows, after every output image has been brought into view and loaded
    (JupyterLab skips rendering cells that are off screen)."""
    images = panel.locator(".jp-OutputArea-output img")
    for k in range(images.count()):
        images.nth(k).scroll_into_view_if_needed(timeout=budget.ms(10))
        images.nth(k).evaluate(
            "img => img.complete || new Promise(r => {"
            " img.onload = img.onerror = r; setTimeout(r, 5000); })",
            timeout=budget.ms(10),
        )
    return page.evaluate(CELL_STATE_JS)


def _picture_problems(nb, cells, expected: set[int]) -> list[str]:
    problems = []
    for i, (src, shown) in enumerate(zip(nb.cells, cells)):
        if GRAPH_AS_TEXT.search(shown["text"]):
            problems.append(f"{_label(i, src)} shows a graph as text, not a picture")
        if i in expected and not any(w > 0 for w in shown["images"]):
            problems.append(f"{_label(i, src)} shows no picture (img widths {shown['images']})")
    return problems


@pytest.mark.browser
def test_chapter3_runs_and_draws_graphs_in_jupyterlab(lab_server, browser_page):
    page, blocked = browser_page
    budget = _Budget(BROWSER_BUDGET_S)
    path = lab_server.root_dir / NOTEBOOK
    assert path.is_file(), f"notebooks/{NOTEBOOK} is missing"
    nb = nbformat.read(path, as_version=4)
    n_code = sum(c.cell_type == "code" for c in nb.cells)
    assert n_code, f"{NOTEBOOK} has no code cells"
    committed_pictures = {i for i, c in enumerate(nb.cells) if _has_picture(c)}
    draws = {
        i
        for i, c in enumerate(nb.cells)
        if c.cell_type == "code" and _ends_with_draw_graph(c) and not _allowed_to_raise(c)
    }

    # A fresh clone: the server does not trust the notebook (no signature database entry).
    model = lab_server.api(f"contents/{NOTEBOOK}")
    served = [c for c in model["content"]["cells"] if c["cell_type"] == "code"]
    assert not any(c["metadata"].get("trusted") for c in served), "notebook is trusted already"

    page.goto(
        lab_server.url(f"lab/tree/{NOTEBOOK}"), wait_until="domcontentloaded", timeout=budget.ms(30)
    )
    panel = page.locator(PANEL)
    panel.locator(".jp-Notebook .jp-Cell").first.wait_for(state="visible", timeout=budget.ms(60))
    panel.locator('.jp-Notebook-ExecutionIndicator[data-status="idle"]').wait_for(
        state="attached", timeout=budget.ms(60)
    )  # the kernel has started
    # Cells are attached in batches; all of them must end up in the page.
    page.wait_for_function(
        f"n => document.querySelectorAll('{PANEL} .jp-Notebook .jp-Cell').length === n",
        arg=len(nb.cells),
        timeout=budget.ms(30),
    )

    # 1. As cloned: every committed picture shows as a picture, although untrusted.
    problems = _picture_problems(nb, _cells_in_browser(page, panel, budget), committed_pictures)
    assert not problems, "committed outputs, untrusted notebook:\n" + "\n".join(problems)

    # 2. Run it all on a fresh kernel. Clear first, so that "finished" cannot be confused
    #    with the committed results.
    _menu(page, "Edit", "Clear Outputs of All Cells", budget)
    page.wait_for_function(NO_NUMBERED_PROMPT_JS, timeout=budget.ms(10))
    _menu(page, "Run", "Run All Cells", budget)
    page.wait_for_function(RUN_FINISHED_JS, arg=n_code, timeout=budget.ms(BROWSER_BUDGET_S))

    cells = _cells_in_browser(page, panel, budget)
    assert len(cells) == len(nb.cells)
    problems = []
    for i, (src, shown) in enumerate(zip(nb.cells, cells)):
        if src.cell_type != "code":
            continue
        if not re.search(r"\d", shown["prompt"]):
            problems.append(f"{_label(i, src)} did not run (prompt {shown['prompt']!r})")
        errors = [t for t in shown["stderr"] if "Traceback" in t or ERROR_LINE.search(t)]
        if errors and not _allowed_to_raise(src):
            problems.append(f"{_label(i, src)} shows an error:\n{errors[0][-1500:]}")
    problems += _picture_problems(nb, cells, committed_pictures | draws)
    assert not problems, "after Run All Cells:\n" + "\n".join(problems)
    assert any(w > 0 for c in cells for w in c["images"]), "no graph rendered as an image"

    # The screenshot shows the first graph (JupyterLab scrolls inside the notebook panel, so
    # a "full page" is the window).
    panel.locator(".jp-OutputArea-output img").first.evaluate(
        "img => img.scrollIntoView({block: 'center'})", timeout=budget.ms(10)
    )
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOT), full_page=True, timeout=budget.ms(30))
    assert SCREENSHOT.stat().st_size > 0
    print(f"screenshot: {SCREENSHOT}; non-local requests blocked: {blocked}")
