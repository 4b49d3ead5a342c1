"""One chapter of the Chinese edition, as a learner meets it in JupyterLab in a real browser.

It opens notebooks/zh/03_computation_graph.ipynb (or the first Chinese chapter there is),
restarts the kernel and runs every cell: every code cell runs, no error or stderr output shows
(a "Glyph missing" warning from matplotlib would be one), every graph and plot is an image that
loaded, and the kernel, started by JupyterLab in zh/, speaks Chinese.

Until the translations land there is no Chinese chapter: then the test writes a tiny one into
the served copy only (zh/_zh_probe.ipynb: the language, a graph and a plot with a Chinese
title) and runs that, so the machinery is checked either way.
"""

from __future__ import annotations

import re
import time

import nbformat
from labpage import (
    CJK,
    NOTEBOOKS,
    SCREENSHOTS,
    Budget,
    allowed_to_raise,
    cells_in_browser,
    ends_with_draw_graph,
    has_picture,
    open_notebook,
    picture_problems,
    restart_and_run_all,
    run_problems,
    screenshot_name,
)

PREFERRED = "03_computation_graph.ipynb"  # graphs, the slider and exercises
# plt.show() at the start of a line: a cell that draws inside a block (chapter 3's payoff cells,
# `if ready:`, wait for the learner's exercises) is held to a picture only where it stored one
DRAWS_AT_TOP_LEVEL = re.compile(r"^plt\.show\(\)", re.M)
BUDGET_S = 600

PROBE = "zh/_zh_probe.ipynb"
PROBE_CELLS = [
    ("markdown", "# 试运行\n\n一个临时的中文笔记本：语言、计算图和带中文标题的图。"),
    ("code", "import autograd_course as ag\nimport autograd_course.course\n\n"
             "print(ag.course.i18n.get_language())"),
    ("code", "a = ag.tensor([2., 3.], requires_grad=True)\n"
             "b = ag.tensor([6., 4.], requires_grad=True)\n"
             "Q = 3 * a**3 - b**2\n"
             "ag.viz.draw_graph(Q, params={'a': a, 'b': b})"),
    ("code", "import matplotlib.pyplot as plt\n\n"
             "fig, ax = plt.subplots(figsize=(4, 2.5))\n"
             "ax.plot([0, 1, 2], [3, 1, 0.5])\n"
             "ax.set_title('损失随迭代下降')\n"
             "plt.show()"),
]


def _chapter() -> str | None:
    """The Chinese chapter to open (relative to notebooks/), or None when there is none."""
    found = sorted(p.name for p in (NOTEBOOKS / "zh").glob("[0-9][0-9]_*.ipynb"))
    if not found:
        return None
    return f"zh/{PREFERRED if PREFERRED in found else found[0]}"


def _write_probe(server) -> str:
    english = nbformat.read(next(iter(sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")))),
                            as_version=4)
    nb = nbformat.v4.new_notebook(metadata=dict(english.metadata))
    for kind, source in PROBE_CELLS:
        nb.cells.append(nbformat.v4.new_markdown_cell(source) if kind == "markdown"
                        else nbformat.v4.new_code_cell(source))
    path = server.root_dir / PROBE
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)
    return PROBE


def test_a_chinese_chapter_runs_in_jupyterlab(lab_server, page, timings):
    page, blocked = page
    start = time.monotonic()
    budget = Budget(BUDGET_S)
    relpath = _chapter() or _write_probe(lab_server)
    nb = nbformat.read(lab_server.root_dir / relpath, as_version=4)
    n_code = sum(c.cell_type == "code" for c in nb.cells)
    assert n_code, f"{relpath} has no code cells"
    expected_pictures = {
        i for i, c in enumerate(nb.cells)
        if has_picture(c) or (c.cell_type == "code" and not allowed_to_raise(c)
                              and (ends_with_draw_graph(c) or DRAWS_AT_TOP_LEVEL.search(c.source)))
    }

    panel = open_notebook(page, lab_server, relpath, len(nb.cells), budget)
    prose = page.evaluate(
        "() => [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) "
        ".jp-MarkdownOutput')].map(m => m.textContent).join(' ')")
    assert CJK.search(prose), f"{relpath}: no Chinese in the rendered markdown"

    restart_and_run_all(page, panel, n_code, budget, run_s=BUDGET_S)
    cells = cells_in_browser(page, panel, budget)
    assert len(cells) == len(nb.cells)
    problems = run_problems(nb, cells) + picture_problems(nb, cells, expected_pictures)
    assert not problems, f"{relpath}, after Restart Kernel and Run All Cells:\n" + "\n".join(
        problems)
    if relpath == PROBE:
        assert cells[1]["text"].strip() == "zh", "the kernel in zh/ does not speak Chinese"

    first = panel.locator(".jp-OutputArea-output img").first
    if first.count():
        first.evaluate("img => img.scrollIntoView({block: 'center'})", timeout=budget.ms(10))
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shot = SCREENSHOTS / screenshot_name(relpath)
    page.screenshot(path=str(shot), timeout=budget.ms(30))
    timings[relpath] = time.monotonic() - start
    print(f"{relpath}: {timings[relpath]:.1f} s; screenshot {shot}; blocked: {blocked}")
