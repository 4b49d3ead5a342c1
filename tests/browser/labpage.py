"""Driving a notebook in JupyterLab like a learner does: open it, run it, read what it shows.

Helpers for test_lab.py. Every wait is bounded by a `Budget`, so a hung page fails the test.
"""

from __future__ import annotations

import ast
import re
import time
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
SCREENSHOTS = ROOT / "build" / "screenshots"
CJK = re.compile(r"[\u4e00-\u9fff]")  # a Chinese character
PANEL = ".jp-NotebookPanel:not(.lm-mod-hidden)"
# An output that is the repr of a graph object (or of the slider) instead of its picture.
GRAPH_AS_TEXT = re.compile(
    r"<graphviz\.[\w.]+ (object )?at 0x|<GraphView\b|<autograd_course\.viz\b"
    r"|<BackwardAnimation\b|<BackwardFrame\b"
)
STDERR = "application/vnd.jupyter.stderr"

# Per cell of the open notebook, in order: what the browser shows.
CELL_STATE_JS = f"""
() => [...document.querySelectorAll('{PANEL} .jp-Notebook .jp-Cell')].map(cell => {{
  const outs = [...cell.querySelectorAll('.jp-OutputArea-output')];
  return {{
    prompt: (cell.querySelector('.jp-InputArea-prompt') || {{}}).textContent || '',
    stderr: outs.filter(o => o.dataset.mimeType === '{STDERR}').map(o => o.textContent),
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
  const errored = panel.querySelector('.jp-OutputArea-output[data-mime-type="{STDERR}"]');
  return prompts.every(p => /\\d/.test(p)) || errored !== null;
}}
"""

NO_NUMBERED_PROMPT_JS = f"""
() => ![...document.querySelectorAll('{PANEL} .jp-CodeCell .jp-InputArea-prompt')]
  .some(p => /\\d/.test(p.textContent))
"""

FAILED_SHOT = Path(__file__).resolve().parents[2] / "build" / "screenshots" / "_last_failure.png"
# A document JupyterLab considers changed (its tab shows the dot; closing asks to save).
DIRTY_JS = "() => document.querySelectorAll('.jp-mod-dirty').length"


class Budget:
    """One time budget for all the waits of a test, so their sum stays bounded."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.end = time.monotonic() + seconds

    def ms(self, cap_s: float) -> float:
        """A Playwright timeout: at most cap_s, and never past the end of the budget."""
        left = self.end - time.monotonic()
        if left <= 0:
            pytest.fail(f"the browser test ran out of its {self.seconds} s budget")
        return min(cap_s, left) * 1000


def allowed_to_raise(cell) -> bool:
    return "raises-exception" in cell.get("metadata", {}).get("tags", [])


def has_picture(cell) -> bool:
    """The committed cell shows a picture (any image/* output)."""
    return any(k.startswith("image/") for o in cell.get("outputs", []) for k in o.get("data", {}))


def ends_with_draw_graph(cell) -> bool:
    """The cell's last statement is a bare `...draw_graph(...)`: Jupyter displays the graph."""
    try:
        body = ast.parse(cell.source).body
    except SyntaxError:
        return False
    if not body or not isinstance(body[-1], ast.Expr) or not isinstance(body[-1].value, ast.Call):
        return False
    func = body[-1].value.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return name in {"draw_graph", "animate_backward"}


def label(i: int, cell) -> str:
    first = cell.source.strip().splitlines()[0][:60] if cell.source.strip() else ""
    return f"cell {i} ({first!r})"


def menu(page, top: str, item: str, budget: Budget) -> None:
    """Click top > item in JupyterLab's menu bar (item: the start of its label)."""
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(f"^{re.escape(top)}$")).click(
        timeout=budget.ms(10)
    )
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(f"^{re.escape(item)}")).click(
        timeout=budget.ms(10)
    )


def open_notebook(page, server, relpath: str, n_cells: int, budget: Budget):
    """Open a served notebook; return its panel once every cell is in the page and the
    kernel has started (idle)."""
    # ?reset: a fresh workspace, not the tabs an earlier test left open on this server
    page.goto(server.url(f"lab/tree/{relpath}?reset"), wait_until="domcontentloaded",
              timeout=budget.ms(180))
    panel = page.locator(PANEL)
    panel.locator(".jp-Notebook .jp-Cell").first.wait_for(state="visible", timeout=budget.ms(180))
    panel.locator('.jp-Notebook-ExecutionIndicator[data-status="idle"]').wait_for(
        state="attached", timeout=budget.ms(180)
    )
    page.wait_for_function(
        f"n => document.querySelectorAll('{PANEL} .jp-Notebook .jp-Cell').length === n",
        arg=n_cells,
        timeout=budget.ms(30),
    )
    wait_kernel_idle(page, budget)
    return panel


def wait_kernel_idle(page, budget: Budget) -> None:
    """The status bar says the kernel is idle: started and connected (a restart requested
    while it is still starting can leave it "Starting" for good)."""
    status = "(document.querySelector('#jp-main-statusbar') || {}).textContent || ''"
    try:
        page.wait_for_function(f"() => /\\|\\s*Idle/.test({status})", timeout=budget.ms(180))
    except Exception as err:
        page.screenshot(path=str(FAILED_SHOT))
        raise AssertionError(f"kernel not idle; status bar: {page.evaluate('() => ' + status)!r}"
                             ) from err


def cells_in_browser(page, panel, budget: Budget) -> list[dict]:
    """What each cell shows, after every output image has been brought into view and loaded."""
    images = panel.locator(".jp-OutputArea-output img")
    for k in range(images.count()):
        images.nth(k).scroll_into_view_if_needed(timeout=budget.ms(10))
        images.nth(k).evaluate(
            "img => img.complete || new Promise(r => {"
            " img.onload = img.onerror = r; setTimeout(r, 5000); })",
            timeout=budget.ms(10),
        )
    return page.evaluate(CELL_STATE_JS)


def picture_problems(nb, cells, expected: set[int]) -> list[str]:
    """Graphs shown as text, cells without the picture they should show, broken images."""
    problems = []
    for i, (src, shown) in enumerate(zip(nb.cells, cells)):
        if GRAPH_AS_TEXT.search(shown["text"]):
            problems.append(f"{label(i, src)} shows a graph as text, not a picture")
        if i in expected and not any(w > 0 for w in shown["images"]):
            problems.append(f"{label(i, src)} shows no picture (img widths {shown['images']})")
        if any(w == 0 for w in shown["images"]):
            problems.append(f"{label(i, src)} has a broken image (widths {shown['images']})")
    return problems


def run_problems(nb, cells) -> list[str]:
    """Code cells that did not run, and any error or stderr output (a learner sees a pink
    block: a traceback, a warning, or a progress bar printed as text)."""
    problems = []
    for i, (src, shown) in enumerate(zip(nb.cells, cells)):
        if src.cell_type != "code":
            continue
        if not re.search(r"\d", shown["prompt"]):
            problems.append(f"{label(i, src)} did not run (prompt {shown['prompt']!r})")
        if shown["stderr"] and not allowed_to_raise(src):
            problems.append(f"{label(i, src)} shows error output:\n{shown['stderr'][0][-1500:]}")
    return problems


def restart_and_run_all(page, panel, n_code: int, budget: Budget, run_s: float) -> None:
    """Clear the outputs (so that "finished" cannot be confused with the committed results),
    then Kernel > Restart Kernel and Run All Cells, and wait until it is done."""
    menu(page, "Edit", "Clear Outputs of All Cells", budget)
    page.wait_for_function(NO_NUMBERED_PROMPT_JS, timeout=budget.ms(10))
    menu(page, "Kernel", "Restart Kernel and Run All Cells", budget)
    page.locator(".jp-Dialog .jp-mod-accept").click(timeout=budget.ms(10))
    try:
        page.wait_for_function(RUN_FINISHED_JS, arg=n_code, timeout=budget.ms(run_s))
    except Exception:
        page.screenshot(path=str(FAILED_SHOT))  # what the page showed when the wait ended
        raise


def editor_text(cell) -> str:
    """The source in a cell's editor (CodeMirror 6: one .cm-line per line)."""
    return cell.evaluate(
        "c => [...c.querySelectorAll('.cm-content .cm-line')].map(l => l.textContent)"
        ".join('\\n')"
    ).replace("\u200b", "")


def scratch_copy(server, source, cells, name: str) -> nbformat.NotebookNode:
    """A notebook of the given cells of `source` (outputs cleared, same metadata) in the
    served folder, as `name`: a test that edits or runs part of a chapter leaves the
    chapter's own copy as cloned."""
    nb = nbformat.v4.new_notebook()
    nb.metadata = nbformat.from_dict(dict(source.metadata))
    for cell in cells:
        copy = nbformat.from_dict(dict(cell))
        if copy.cell_type == "code":
            copy.outputs, copy.execution_count = [], None
        nb.cells.append(copy)
    nbformat.write(nb, server.root_dir / name)
    return nb


def screenshot_name(relpath: str) -> str:
    """``zh/03_x.ipynb`` -> ``zh_03_x.png`` (one file per notebook in build/screenshots)."""
    return relpath.replace("/", "_").removesuffix(".ipynb") + ".png"
