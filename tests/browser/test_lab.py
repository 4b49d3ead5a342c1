"""Every chapter as a learner meets it: opened in JupyterLab, in a real browser, and run.

Each notebook is opened as a fresh clone has it (untrusted, see conftest.py): it must open
unmodified, and its committed pictures must show as pictures. Then Kernel > Restart Kernel
and Run All Cells: every code cell runs, no error (or other stderr) output shows anywhere,
and every graph and plot is an image that loaded (naturalWidth > 0). A screenshot per
notebook goes to build/screenshots/, and the seconds per notebook are printed.

This catches what nbval cannot: a missing `dot` program, graphs that show as
`<graphviz.graphs.Digraph at 0x...>` text (SVG in an untrusted notebook), a widget that does
not come alive, a progress bar printed as a pink stderr block, a kernel that cannot import
the package, a notebook marked modified as soon as it opens.
"""

from __future__ import annotations

import ast
import re
import time

import nbformat
import pytest
from labpage import (
    CJK,
    DIRTY_JS,
    NOTEBOOKS,
    PANEL,
    SCREENSHOTS,
    Budget,
    allowed_to_raise,
    cells_in_browser,
    editor_text,
    ends_with_draw_graph,
    has_picture,
    open_notebook,
    picture_problems,
    restart_and_run_all,
    run_problems,
    scratch_copy,
    screenshot_name,
)

# Whatever exists when the tests are collected: chapters 00..09 and every solutions notebook,
# in English and in the Chinese edition (zh/).
COURSE = [p.relative_to(NOTEBOOKS).as_posix()
          for pattern in ("[0-9]*.ipynb", "solutions/*.ipynb", "zh/[0-9]*.ipynb",
                          "zh/solutions/*.ipynb")
          for p in sorted(NOTEBOOKS.glob(pattern))]
NOTEBOOK_BUDGET_S = 600  # open + run + checks of one notebook, on a slow shared CI machine
SLIDER_CHAPTER = "03_computation_graph.ipynb"
EXERCISE_CHAPTER = "01_tensors_and_grad_fn.ipynb"


def _check_opens_unmodified(page, budget: Budget) -> None:
    """Nothing marks the notebook modified once it is open and its kernel has started (e.g.
    a kernel display name that differs from the notebook's kernelspec)."""
    page.wait_for_timeout(1500)  # metadata updates arrive just after the kernel starts
    assert page.evaluate(DIRTY_JS) == 0, "the notebook is marked modified as soon as it opens"


@pytest.mark.parametrize("relpath", COURSE)
def test_notebook_runs_in_jupyterlab(lab_server, page, timings, relpath):
    page, blocked = page
    start = time.monotonic()
    budget = Budget(NOTEBOOK_BUDGET_S)
    path = lab_server.root_dir / relpath
    nb = nbformat.read(path, as_version=4)
    n_code = sum(c.cell_type == "code" for c in nb.cells)
    assert n_code, f"{relpath} has no code cells"
    committed_pictures = {i for i, c in enumerate(nb.cells) if has_picture(c)}
    draws = {
        i
        for i, c in enumerate(nb.cells)
        if c.cell_type == "code" and ends_with_draw_graph(c) and not allowed_to_raise(c)
    }

    # A fresh clone: the server does not trust the notebook (no signature database entry).
    model = lab_server.api(f"contents/{relpath}")
    served = [c for c in model["content"]["cells"] if c["cell_type"] == "code"]
    assert not any(c["metadata"].get("trusted") for c in served), "notebook is trusted already"

    panel = open_notebook(page, lab_server, relpath, len(nb.cells), budget)
    _check_opens_unmodified(page, budget)

    # 1. As cloned: every committed picture shows as a picture, although untrusted.
    problems = picture_problems(nb, cells_in_browser(page, panel, budget), committed_pictures)
    assert not problems, "committed outputs, untrusted notebook:\n" + "\n".join(problems)

    # 2. Restart the kernel and run everything.
    restart_and_run_all(page, panel, n_code, budget, run_s=NOTEBOOK_BUDGET_S)
    cells = cells_in_browser(page, panel, budget)
    assert len(cells) == len(nb.cells)
    problems = run_problems(nb, cells) + picture_problems(nb, cells, committed_pictures | draws)
    assert not problems, "after Restart Kernel and Run All Cells:\n" + "\n".join(problems)

    # The screenshot shows the first picture (JupyterLab scrolls inside the notebook panel,
    # so a "full page" is the window).
    first = panel.locator(".jp-OutputArea-output img").first
    if first.count():
        first.evaluate("img => img.scrollIntoView({block: 'center'})", timeout=budget.ms(10))
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shot = SCREENSHOTS / screenshot_name(relpath)
    page.screenshot(path=str(shot), timeout=budget.ms(30))
    assert shot.stat().st_size > 0
    timings[relpath] = time.monotonic() - start
    print(f"{relpath}: {timings[relpath]:.1f} s; screenshot {shot}; blocked: {blocked}")


# --- the backward-pass slider ---------------------------------------------------------------
IMAGE_BYTES_JS = """
async img => {
  const data = new Uint8Array(await (await fetch(img.src)).arrayBuffer());
  let h = 0;
  for (const b of data) h = (h * 31 + b) >>> 0;
  return {hash: h, length: data.length, natural: [img.naturalWidth, img.naturalHeight],
          shown: [img.clientWidth, img.clientHeight]};
}
"""


def _expected_frames(cell_source: str, monkeypatch) -> list:
    """The frames the slider cell makes, computed here with the same package."""
    import autograd_course as ag

    made = []

    def record(*args, **kwargs):
        kwargs.pop("widget", None)
        made.append(ag.viz.backward_steps(*args, **kwargs))

    monkeypatch.setattr(ag.viz, "animate_backward", record)
    exec(compile("import autograd_course as ag\n" + cell_source, "<slider cell>", "exec"), {})
    assert len(made) == 1, "the slider cell should call animate_backward once"
    return made[0]


def test_backward_slider_is_live_and_steps(lab_server, page, monkeypatch):
    """Chapter 3's `animate_backward` output, after running the chapter up to it, is a live
    ipywidgets slider: moving it to the last step shows another picture (other image data,
    same size, shown at its natural size) and a caption naming the last node; the readout
    counts like the caption (1 / N ... N / N)."""
    page, _ = page
    budget = Budget(NOTEBOOK_BUDGET_S)
    chapter = nbformat.read(NOTEBOOKS / SLIDER_CHAPTER, as_version=4)
    at = next((i for i, c in enumerate(chapter.cells)
               if c.cell_type == "code" and "animate_backward(" in c.source), None)
    assert at is not None, f"{SLIDER_CHAPTER} has no animate_backward cell"
    frames = _expected_frames(chapter.cells[at].source, monkeypatch)
    n = len(frames)
    nb = scratch_copy(lab_server, chapter, chapter.cells[: at + 1], "_check_slider.ipynb")
    n_code = sum(c.cell_type == "code" for c in nb.cells)

    panel = open_notebook(page, lab_server, "_check_slider.ipynb", len(nb.cells), budget)
    restart_and_run_all(page, panel, n_code, budget, run_s=300)
    cell = panel.locator(".jp-Notebook .jp-Cell").nth(at)
    slider = cell.locator(".widget-slider")
    slider.wait_for(state="visible", timeout=budget.ms(30))  # a widget, not text or a strip
    texts = cell.locator("div.widget-label")  # the Label widgets: readout, caption
    image = cell.locator("img.widget-image")
    assert texts.all_inner_texts() == [f"1 / {n}", frames[0].caption]

    image.scroll_into_view_if_needed(timeout=budget.ms(10))
    before = image.evaluate(IMAGE_BYTES_JS, timeout=budget.ms(10))
    assert before["natural"][0] > 0
    assert before["shown"] == before["natural"], "the frame is scaled, not at natural size"
    box = cell.locator(".jp-OutputArea-output").bounding_box()
    assert box["height"] <= page.viewport_size["height"], "slider and picture exceed the window"

    handle = cell.locator(".noUi-handle")
    handle.focus(timeout=budget.ms(10))
    for _ in range(n - 1):
        page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "([el, text]) => el.textContent === text",
        arg=[texts.first.element_handle(), f"{n} / {n}"],
        timeout=budget.ms(15),
    )
    page.wait_for_function(
        "([el, text]) => el.textContent === text",
        arg=[texts.nth(1).element_handle(), frames[-1].caption],
        timeout=budget.ms(15),
    )
    assert frames[-1].caption.startswith(f"step {n} of {n}: {frames[-1].node_name}")
    page.wait_for_function(
        "([img, hash]) => fetch(img.src).then(r => r.arrayBuffer()).then(b => {"
        " let h = 0; for (const x of new Uint8Array(b)) h = (h * 31 + x) >>> 0;"
        " return h !== hash; })",
        arg=[image.element_handle(), before["hash"]],
        timeout=budget.ms(15),
    )
    after = image.evaluate(IMAGE_BYTES_JS, timeout=budget.ms(10))
    assert after["hash"] != before["hash"]
    assert after["natural"] == before["natural"] and after["shown"] == before["shown"]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "slider_last_step.png"), timeout=budget.ms(30))


# --- an exercise, answered as a learner does ---------------------------------------------------
PLACEHOLDER = re.compile(r"^(?:(\w+)\s*=\s*)?\.\.\.\s*(?:#.*)?$")


def _exercise_cell(nb) -> tuple[int, str, str, str]:
    """The first exercise: the first code cell with a placeholder line (exactly `...`, or
    `name = ...`, a comment allowed) that calls a `check_...` function.

    Returns (cell index, placeholder line, variable to assign, checker name); the variable
    is the placeholder's, or for a bare `...` the checker's first argument.
    """
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        lines = [ln for ln in cell.source.splitlines() if PLACEHOLDER.match(ln.strip())]
        calls = [node for node in ast.walk(ast.parse(cell.source))
                 if isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute))
                 and (getattr(node.func, "attr", None) or getattr(node.func, "id", "")
                      ).startswith("check_")]
        if lines and calls:
            call = calls[0]
            checker = getattr(call.func, "attr", None) or call.func.id
            name = PLACEHOLDER.match(lines[0].strip()).group(1)
            if name is None:
                assert call.args and isinstance(call.args[0], ast.Name), cell.source
                name = call.args[0].id
            return i, lines[0], name, checker
    raise AssertionError(f"{EXERCISE_CHAPTER}: no exercise cell with a placeholder")


def _answers(checker: str) -> tuple[str, str]:
    """(right, wrong) answers as Python literals, from the checker's own reference.

    Chapter 1's first exercise estimates a slope (exercises/ch01.py knows the exact one); an
    older version predicted x.grad by hand (18 * x). The wrong answer is off by one.
    """
    from autograd_course.course.exercises import ch01

    if checker == "check_slope":  # exercise 1.1: the slope of f at x = SLOPE_AT, measured
        f, a, h = ch01.slope_function, ch01.SLOPE_AT, 1e-3  # a central difference, as asked
        right = float((f(a + h) - f(a - h)) / (2 * h))  # (the exact 10 gets a hint: measure it)
        return repr(right), repr(right + 1.0)
    if checker != "check_predict_grad":
        raise AssertionError(f"the exercise test knows check_slope and check_predict_grad, "
                             f"not {checker}: update _answers in tests/browser/test_lab.py")
    right = ch01._predict_reference().tolist()
    wrong = [[v + 1.0 for v in row] for row in right]
    return repr(right), repr(wrong)


def _answer_and_run(page, cell, source: str, budget: Budget, expect: re.Pattern) -> str:
    """Replace the cell's text by typing, run it in place (Ctrl+Enter), return its output."""
    editor = cell.locator(".cm-content")
    editor.click(timeout=budget.ms(10))
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(source)
    assert editor_text(cell) == source, "the editor did not take the answer as typed"
    page.keyboard.press("Control+Enter")
    output = cell.locator(".jp-OutputArea-output").first
    page.wait_for_function(
        "([cell, pattern]) => new RegExp(pattern, 'm').test("
        " [...cell.querySelectorAll('.jp-OutputArea-output')].map(o => o.textContent).join(''))",
        arg=[cell.element_handle(), expect.pattern],
        timeout=budget.ms(60),
    )
    return output.inner_text()


def test_exercise_answered_wrong_then_right(lab_server, page):
    """Chapter 1, first exercise: type a wrong answer over the placeholder and run the cell
    ("not quite: ..."), then the right one ("correct")."""
    page, _ = page
    budget = Budget(NOTEBOOK_BUDGET_S)
    chapter = nbformat.read(NOTEBOOKS / EXERCISE_CHAPTER, as_version=4)
    at, placeholder, name, checker = _exercise_cell(chapter)
    right, wrong = _answers(checker)
    nb = scratch_copy(lab_server, chapter, chapter.cells, "_check_exercise.ipynb")
    n_code = sum(c.cell_type == "code" for c in nb.cells)
    panel = open_notebook(page, lab_server, "_check_exercise.ipynb", len(nb.cells), budget)
    restart_and_run_all(page, panel, n_code, budget, run_s=300)  # the chapter so far, run
    cell = panel.locator(".jp-Notebook .jp-Cell").nth(at)
    assert "not attempted yet" in cell.locator(".jp-OutputArea").inner_text()

    original = nb.cells[at].source
    wrong_shown, right_shown = re.compile(r"^not quite: \S"), re.compile(r"^correct")
    for answer, expect in ((wrong, wrong_shown), (right, right_shown)):
        source = original.replace(placeholder, f"{name} = {answer}", 1)
        shown = _answer_and_run(page, cell, source, budget, expect)
        assert expect.search(shown), shown
        if expect is right_shown:
            assert "not quite" not in shown, shown


# --- opened and closed unedited: no save prompt --------------------------------------------------
def test_notebook_opens_and_closes_unmodified(lab_server, page):
    """A notebook opened and closed without an edit is not modified: no "save changes?"
    dialog. (It was: the notebooks name their kernel "Python 3" and `make venv` installed
    "Python 3 (autograd-course)", so JupyterLab rewrote the metadata on opening.)"""
    page, _ = page
    budget = Budget(120)
    relpath = COURSE[0]
    nb = nbformat.read(lab_server.root_dir / relpath, as_version=4)
    specs = lab_server.api("kernelspecs")
    installed = specs["kernelspecs"][nb.metadata.kernelspec["name"]]["spec"]
    assert installed["display_name"] == nb.metadata.kernelspec["display_name"], (
        "the installed kernel's display name differs from the notebooks' (run `make venv`)"
    )
    open_notebook(page, lab_server, relpath, len(nb.cells), budget)
    _check_opens_unmodified(page, budget)
    # Close it as a learner does: the x on its tab.
    page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab.lm-mod-current .lm-TabBar-tabCloseIcon"
                 ).click(timeout=budget.ms(10))
    page.wait_for_function(
        f"() => document.querySelector('.jp-Dialog') !== null"
        f" || document.querySelector('{PANEL}') === null",
        timeout=budget.ms(20),
    )
    page.wait_for_timeout(500)
    assert page.locator(".jp-Dialog").count() == 0, page.locator(".jp-Dialog").inner_text()
    assert page.locator(PANEL).count() == 0, "the notebook did not close"


# --- Chinese text renders as Chinese -------------------------------------------------------------
GLYPHS_JS = r"""
async () => {
  await document.fonts.ready;
  const el = [...document.querySelectorAll('.jp-RenderedMarkdown *')]
    .find(e => /[\u4e00-\u9fff]/.test([...e.childNodes].filter(n => n.nodeType === 3)
                                      .map(n => n.textContent).join('')));
  if (!el) return null;
  const style = getComputedStyle(el);
  const font = `${style.fontStyle} ${style.fontWeight} 48px ${style.fontFamily}`;
  const chars = [...new Set([...el.textContent].filter(c => /[\u4e00-\u9fff]/.test(c)))];
  const draw = ch => {
    const c = document.createElement('canvas');
    c.width = 80; c.height = 80;
    const ctx = c.getContext('2d');
    ctx.font = font; ctx.fillStyle = '#000'; ctx.textBaseline = 'top';
    ctx.fillText(ch, 8, 8);
    return {width: ctx.measureText(ch).width, pixels: c.toDataURL()};
  };
  const [a, b] = [draw(chars[0]), draw(chars[1])];
  const [tofu1, tofu2] = [draw('\u0378'), draw('\u0379')];  // unassigned code points
  return {text: el.textContent.slice(0, 80), font, chars: chars.slice(0, 2),
          widths: [a.width, b.width, tofu1.width],
          aIsB: a.pixels === b.pixels, tofuIsTofu: tofu1.pixels === tofu2.pixels,
          aIsTofu: a.pixels === tofu1.pixels};
}
"""


def test_chinese_text_renders_with_a_cjk_font(lab_server, page, cjk_font):
    """The notes' Chinese terms show as Chinese glyphs, not as boxes: two different Chinese
    characters draw differently and unlike the box of an unassigned code point (two of
    which draw alike: that is what a missing glyph looks like)."""
    page, _ = page
    budget = Budget(120)
    relpath = next(p for p in COURSE if CJK.search(
        "".join(c.source for c in nbformat.read(NOTEBOOKS / p, as_version=4).cells
                if c.cell_type == "markdown")))
    nb = nbformat.read(lab_server.root_dir / relpath, as_version=4)
    open_notebook(page, lab_server, relpath, len(nb.cells), budget)
    found = page.evaluate(GLYPHS_JS)
    assert found is not None, f"no rendered Chinese text in {relpath}"
    assert len(found["chars"]) == 2, found
    assert found["tofuIsTofu"], found  # the method: missing glyphs all look alike
    assert not found["aIsB"] and not found["aIsTofu"], f"Chinese drawn as boxes: {found}"
    assert found["widths"][0] != found["widths"][2], found
    print(f"{cjk_font}; {relpath}: {found['chars']} in {found['font']!r}, widths "
          f"{found['widths']}")
