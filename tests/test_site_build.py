"""The static site's pieces that can be checked without a browser (issue 33).

* scripts/build_site.py refuses a wasm wheel whose sha256 is not the official lock's, and
  takes the dependency closure from the lock.
* The package's browser route (``sys.platform == "emscripten"``), simulated on the desktop:
  ``autograd_course.viz.wasm.render`` is replaced by the desktop's own ``dot``, which speaks the
  same DOT and gives the same SVG/plain formats as the WASM Graphviz. The real thing runs in
  tests/site (make test-site).
* Off the browser nothing changes: the wasm module is inert and drawings are PNG.
"""

from __future__ import annotations

import hashlib
import importlib.util
import io
import shutil
import sys
import types
import zipfile
from pathlib import Path

import graphviz
import pytest

import autograd_course as ag
from autograd_course.course import fonts, setup_check
from autograd_course.viz import display, dot, steps, wasm
from autograd_course.viz.words import WORDS

ROOT = Path(__file__).resolve().parents[1]
HAS_DOT = shutil.which("dot") is not None


def _load_build_site():
    spec = importlib.util.spec_from_file_location("build_site", ROOT / "scripts" / "build_site.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


build_site = _load_build_site()


def _lock(**wheels: bytes) -> dict:
    return {name: {"file_name": f"{name}-1.0-py3-none-any.whl", "depends": [],
                   "sha256": hashlib.sha256(data).hexdigest()} for name, data in wheels.items()}


def _zip(tmp_path: Path, **wheels: bytes) -> Path:
    path = tmp_path / "copies.whl"
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in wheels.items():
            zf.writestr(build_site.WASM_WHEELS_DIR + f"{name}-1.0-py3-none-any.whl", data)
    return path


def test_build_takes_wheels_whose_sha256_is_the_official_one(tmp_path):
    packages = _lock(numpy=b"numpy wheel", six=b"six wheel")
    got = build_site.verified_wheels(_zip(tmp_path, numpy=b"numpy wheel", six=b"six wheel"),
                                     packages, ["numpy", "six"])
    assert got == {"numpy-1.0-py3-none-any.whl": b"numpy wheel",
                   "six-1.0-py3-none-any.whl": b"six wheel"}


def test_build_fails_loudly_on_a_sha256_mismatch(tmp_path, capsys):
    packages = _lock(numpy=b"numpy wheel", six=b"six wheel")
    source = _zip(tmp_path, numpy=b"numpy wheel, tampered", six=b"six wheel")
    with pytest.raises(SystemExit) as stop:
        build_site.verified_wheels(source, packages, ["numpy", "six"])
    assert stop.value.code == 1
    err = capsys.readouterr().err
    assert "BUILD FAILED" in err and "NOT the official Pyodide builds" in err
    assert "numpy-1.0-py3-none-any.whl" in err and "six-1.0" not in err


def test_build_fails_when_a_needed_wheel_is_missing(tmp_path, capsys):
    packages = _lock(numpy=b"numpy wheel")
    with pytest.raises(SystemExit):
        build_site.verified_wheels(_zip(tmp_path), packages, ["numpy"])
    assert "numpy-1.0-py3-none-any.whl (needed for numpy) is not in" in capsys.readouterr().err


def test_lock_closure_follows_depends_with_either_spelling():
    packages = {"matplotlib": {"depends": ["numpy", "python_dateutil"]},
                "numpy": {"depends": []}, "python-dateutil": {"depends": ["six"]},
                "six": {"depends": []}, "scipy": {"depends": ["numpy"]}}
    assert build_site.lock_closure(packages, ["matplotlib"]) == [
        "matplotlib", "numpy", "python-dateutil", "six"]


def test_font_subset_covers_gb2312_and_the_chapters_plot_labels():
    text = build_site.gb2312_text()
    assert len(text) > 7000
    for label in ["损失曲线上的前 7 步", "准确率", "中心差分", "训练集", "（应为 3）", "f(u, v)"]:
        assert set(label) <= set(text), label


def test_site_data_wheel_is_an_installable_wheel(tmp_path):
    lock = {"packages": {}}
    build_site.data_wheel(tmp_path, lock, "demo_data", "1.0", "X = 1\n", {"a.txt": b"hello"})
    entry = lock["packages"]["demo-data"]
    data = (tmp_path / entry["file_name"]).read_bytes()
    assert entry["sha256"] == hashlib.sha256(data).hexdigest()
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        assert zf.read("demo_data/a.txt") == b"hello"
        assert "demo_data-1.0.dist-info/RECORD" in zf.namelist()


# --- the package off the browser: unchanged ---------------------------------------------------

def test_wasm_is_inert_off_the_browser():
    assert wasm.IN_BROWSER is (sys.platform == "emscripten") is False
    wasm.start()
    assert wasm.render("digraph { a -> b }") is None and not wasm.ready()


@pytest.mark.skipif(not HAS_DOT, reason="Graphviz `dot` is not installed")
def test_desktop_drawing_is_still_png():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    bundle = ag.viz.draw_graph((x * 3).sum())._repr_mimebundle_()
    assert set(bundle) == {"image/png", "text/plain"}


# --- the browser route, simulated with the desktop's dot as the "WASM" Graphviz ----------------

def _dot_as_wasm(source: str, fmt: str = "svg") -> str:
    return graphviz.Source(source).pipe(format=fmt, encoding="utf-8")


@pytest.fixture
def browser(monkeypatch):
    """sys.platform == "emscripten" as the package sees it, with a ready Graphviz."""
    monkeypatch.setattr(wasm, "IN_BROWSER", True)
    monkeypatch.setattr(wasm, "render", _dot_as_wasm)
    return monkeypatch


def _graph():
    w = ag.tensor([1.0, -2.0], requires_grad=True)
    return ag.viz.draw_graph((w * w).sum(), params=dict(w=w))


@pytest.mark.skipif(not HAS_DOT, reason="Graphviz `dot` is not installed")
def test_browser_drawing_is_svg_from_the_same_dot(browser):
    view = _graph()
    bundle = view._repr_mimebundle_()
    assert set(bundle) == {"image/svg+xml", "text/plain"}
    svg = bundle["image/svg+xml"]
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    assert bundle["text/plain"] == repr(view)
    assert view.png() is None  # no rasteriser in the browser's Python
    assert view.pipe(format="svg", encoding="utf-8") == bundle["image/svg+xml"]
    assert view.pipe(format="svg") == bundle["image/svg+xml"].encode()


@pytest.mark.skipif(not HAS_DOT, reason="Graphviz `dot` is not installed")
def test_browser_render_writes_source_and_svg(browser, tmp_path):
    path = _graph().render(tmp_path / "g", format="svg")
    assert path == f"{tmp_path / 'g'}.svg"
    assert "<svg" in Path(path).read_text() and "digraph" in (tmp_path / "g").read_text()


def test_browser_drawing_before_graphviz_is_loaded_is_text_with_a_hint(monkeypatch, capsys):
    monkeypatch.setattr(wasm, "IN_BROWSER", True)  # render() answers None: not loaded yet
    view = _graph()
    bundle = view._repr_mimebundle_()
    assert set(bundle) == {"text/plain"}
    assert bundle["text/plain"].endswith(WORDS["en"]["wasm_hint"])
    assert view.pipe(format="svg") is None
    assert WORDS["en"]["wasm_hint"] in capsys.readouterr().out


def test_wasm_hint_exists_in_every_language():
    assert {lang for lang, table in WORDS.items() if "wasm_hint" in table} == set(WORDS)


@pytest.mark.skipif(not HAS_DOT, reason="Graphviz `dot` is not installed")
def test_browser_caption_width_is_measured_by_the_wasm_graphviz(browser):
    calls = []

    def plain(source, fmt="svg"):
        calls.append(fmt)
        return _dot_as_wasm(source, fmt)

    browser.setattr(wasm, "render", plain)
    assert dot.caption_width(["step 1 of 3: MulBackward0"]) > 0
    assert calls == ["plain"]


@pytest.mark.skipif(not HAS_DOT, reason="Graphviz `dot` is not installed")
def test_browser_backward_frames_show_as_svg_one_after_another(browser):
    w = ag.tensor([1.0, -2.0], requires_grad=True)
    shown = ag.viz.animate_backward((w * w).sum(), params=dict(w=w))
    assert isinstance(shown, steps.BackwardStrip)  # no PNG for a slider: frame by frame
    bundle = shown.frames[0]._repr_mimebundle_()
    assert set(bundle) == {"image/svg+xml", "text/plain"}


def test_setup_check_in_the_browser(browser):
    browser.setitem(sys.modules, "pyodide", types.SimpleNamespace(__version__="0.27.7"))
    browser.setattr(wasm, "status", lambda: (True, "Graphviz 16.1.0 compiled to WebAssembly"))
    lines = []
    report = setup_check.check_installation(lines.append)
    text = "\n".join(lines)
    assert report["browser"][0] and "Pyodide 0.27.7" in report["browser"][1]
    assert report["Graphviz (WASM)"] == (True, "draws the graphs as SVG: Graphviz 16.1.0 "
                                               "compiled to WebAssembly")
    assert "Graphviz `dot`" not in report
    assert "the browser's own fonts" in report["CJK font"][1]
    assert report["GPU (CuPy)"][0] is False and "pip install cupy" not in text
    assert "apt-get" not in text


def test_site_font_package_is_what_fonts_falls_back_to(monkeypatch):
    assert fonts._site_cjk_files() == {} or "autograd_course_cjkfont" in sys.modules
    shipped = types.ModuleType("autograd_course_cjkfont")
    shipped.FILES = {"Noto Sans CJK SC": ["/site/NotoSansCJKsc-Regular-gb2312.otf"]}
    monkeypatch.setitem(sys.modules, "autograd_course_cjkfont", shipped)
    assert fonts._site_cjk_files() == shipped.FILES
    assert display.wasm is wasm
