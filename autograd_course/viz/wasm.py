"""Graphviz in the browser: the course's drawings when Python runs in Pyodide (the static site).

In the browser (``sys.platform == "emscripten"``) there is no ``dot`` program to run. The site
ships the WASM build of Graphviz (``@viz-js/viz``'s ``viz-global.js``, installed as the small
package ``autograd_course_vizjs``); this module loads it into the kernel's worker and renders the
same DOT source the desktop hands to ``dot``, as SVG.

Loading Graphviz is asynchronous (its WebAssembly is compiled in the page), and a drawing is
asked for synchronously (``_repr_mimebundle_``). So ``start()`` runs when ``autograd_course.viz``
is imported and the instance is ready as soon as that cell ends: every chapter imports the
package in a cell before its first drawing. The WebAssembly is compiled with the synchronous
API (a worker may), so nothing but the end of the cell is waited for. A drawing asked for in the
very cell that imports the package finds it not ready yet: ``render`` returns None and the
drawing shows as text with a line saying to run the cell again.

Off the browser nothing here runs: ``IN_BROWSER`` is False and the desktop path is unchanged.
"""

from __future__ import annotations

import importlib.resources
import sys

IN_BROWSER = sys.platform == "emscripten"

if IN_BROWSER:
    # Pyodide's own modules exist only in the browser's Python, so they are imported under the
    # platform check (on the desktop there is nothing to import).
    from pyodide.code import run_js

# Runs the UMD script with a stand-in for the global WebAssembly whose ``instantiate`` compiles
# synchronously, so the Graphviz instance is made by promise callbacks alone (no waiting for a
# compile task), and keeps the instance in the returned state object, not in a global.
_LOADER = """
(source) => {
  const state = {viz: null, error: null, version: null};
  const wasm = Object.create(WebAssembly);
  wasm.instantiate = async (bytes, imports) => {
    const module = new WebAssembly.Module(bytes);
    return {module, instance: new WebAssembly.Instance(module, imports)};
  };
  const exports = {};
  new Function("WebAssembly", "exports", "module", "define", source)(
    wasm, exports, {exports}, undefined);
  state.version = exports.graphvizVersion;
  exports.instance().then(viz => { state.viz = viz; },
                          err => { state.error = String(err); });
  return state;
}
"""

_state = None  # the JS state object once start() ran; None off the browser
_load_error: str | None = None


def start() -> None:
    """Begin loading the WASM Graphviz (once). Off the browser: nothing."""
    global _state, _load_error
    if not IN_BROWSER or _state is not None or _load_error is not None:
        return
    try:
        script = importlib.resources.files("autograd_course_vizjs") / "viz-global.js"
        _state = run_js(_LOADER)(script.read_text(encoding="utf-8"))
    except Exception as e:  # no such package (Pyodide outside the course's site), a JS error
        _load_error = f"{type(e).__name__}: {e}"


def status() -> tuple[bool, str]:
    """(ready, what to tell the learner): for ``setup_check``."""
    if not IN_BROWSER:
        return False, "not in a browser"
    if _load_error is not None:
        return False, f"WASM Graphviz could not be loaded ({_load_error})"
    if _state is not None and _state.error is not None:
        return False, f"WASM Graphviz failed to start ({_state.error})"
    if _state is not None and _state.viz is not None:
        return True, f"Graphviz {_state.viz.graphvizVersion} compiled to WebAssembly (viz.js)"
    return True, f"Graphviz {_state.version if _state else '?'} compiled to WebAssembly " \
                 "(viz.js), loading"


def ready() -> bool:
    return _state is not None and _state.viz is not None


def render(source: str, fmt: str = "svg") -> str | None:
    """``source`` laid out by the WASM Graphviz in ``fmt`` (``"svg"``, ``"plain"``...), or None
    when it is not loaded (yet). A DOT error raises ``RuntimeError`` with Graphviz's message."""
    if not ready():
        return None
    try:
        return _state.viz.renderString(source, run_js("({format: '%s'})" % fmt))
    except Exception as e:  # a JsException carrying Graphviz's own error message
        raise RuntimeError(f"Graphviz (WASM): {e}") from None
