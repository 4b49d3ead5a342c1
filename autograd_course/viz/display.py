"""How a drawn graph shows up in Jupyter, and what happens without Graphviz's ``dot``.

Three constraints decide the output of ``GraphView._repr_mimebundle_``:

* **Untrusted notebooks.** A freshly cloned notebook is untrusted; JupyterLab hides SVG outputs
  there but shows PNG. So the bundle carries ``image/png`` (and no SVG).
* **nbval on another machine.** Different Graphviz versions lay out and rasterise differently,
  so the PNG bytes differ between machines. nbval (0.11) leaves ``image/png`` out of the
  comparison unless run with ``--nbdime``, and compares ``text/plain``: ours is
  ``<GraphView: 8 nodes, 7 edges>``, counted from our own model, never from Graphviz, and
  without a memory address. No SVG is emitted, since nbval *would* compare that.
  Metadata chunks (time stamps, software names) are stripped from the PNG, so one machine
  writes the same bytes every run and re-executed notebooks give clean diffs.
* **No ``dot`` program.** Showing the graph, ``render`` and ``pipe`` print the text tree plus
  one line saying how to install Graphviz, instead of a traceback (DeZero silently showed
  nothing, which is worse).
* **In the browser** (the static site, Python in Pyodide: ``sys.platform == "emscripten"``) no
  program can be run. The same DOT source is laid out by the WASM build of Graphviz
  (``wasm.py``) and shown as SVG (JupyterLab shows SVG from a cell run in this session);
  ``pipe`` and ``render`` use it too. PNG needs a rasteriser the browser's Python has not got.
"""

from __future__ import annotations

import struct
import zlib

import graphviz

from . import wasm
from .words import WORDS, words

INSTALL_HINT = WORDS["en"]["install_hint"]  # each language's is in words.py

_KEEP_CHUNKS = {b"IHDR", b"PLTE", b"tRNS", b"IDAT", b"IEND", b"bKGD", b"gAMA", b"sRGB"}


def strip_png_metadata(png: bytes) -> bytes:
    """Drop PNG chunks that carry no pixels (tIME, tEXt, iTXt, pHYs...): stable bytes."""
    if not png.startswith(b"\x89PNG\r\n\x1a\n"):
        return png
    out = [png[:8]]
    pos = 8
    while pos + 8 <= len(png):
        (length,) = struct.unpack(">I", png[pos:pos + 4])
        kind = png[pos + 4:pos + 8]
        chunk = png[pos:pos + 12 + length]
        if kind in _KEEP_CHUNKS:
            crc = struct.unpack(">I", chunk[-4:])[0]
            if zlib.crc32(chunk[4:-4]) & 0xFFFFFFFF != crc:
                return png  # not a PNG we understand: leave it alone
            out.append(chunk)
        pos += 12 + length
    return b"".join(out)


def layout_plain(graph: graphviz.Digraph) -> str | None:
    """``dot -Tplain`` of ``graph`` (sizes and positions; the WASM Graphviz in the browser), or
    None when there is no Graphviz to ask."""
    if wasm.IN_BROWSER:
        return wasm.render(graph.source, "plain")
    try:
        return graph.pipe(format="plain", encoding="utf-8")
    except graphviz.ExecutableNotFound:
        return None


def png_size(png: bytes) -> tuple[int, int]:
    """(width, height) in pixels, read from the PNG header (the IHDR chunk)."""
    if not png.startswith(b"\x89PNG\r\n\x1a\n") or png[12:16] != b"IHDR":
        raise ValueError("not a PNG image")
    return struct.unpack(">II", png[16:24])


class GraphView(graphviz.Digraph):
    """A ``graphviz.Digraph`` that displays as PNG in Jupyter and degrades to text.

    ``str(view)`` / ``view.source`` is the DOT source; ``view.text`` the text tree;
    ``view.n_nodes`` / ``view.n_edges`` count the drawn graph (the legend is not counted);
    ``view.lang`` is the language of its words.
    """

    def __init__(self, *args, summary: tuple[int, int] = (0, 0), text: str = "",
                 lang: str = "en", **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.n_nodes, self.n_edges = summary
        self.text = text
        self.lang = lang

    def copy(self) -> GraphView:
        twin = super().copy()
        twin.n_nodes, twin.n_edges, twin.text = self.n_nodes, self.n_edges, self.text
        twin.lang = self.lang
        return twin

    def __repr__(self) -> str:
        return f"<{type(self).__name__}: {self.n_nodes} nodes, {self.n_edges} edges>"

    def hint(self) -> str:
        """The line saying why there is no picture: how to install Graphviz (in the browser:
        the WASM Graphviz is still loading, run the cell again)."""
        return words(self.lang)["wasm_hint" if wasm.IN_BROWSER else "install_hint"]

    def fallback_text(self) -> str:
        """What is shown instead of the picture when there is no Graphviz to draw it."""
        hint = self.hint()
        return f"{self.text}\n{hint}" if self.text else hint

    def png(self) -> bytes | None:
        """The picture as PNG bytes (metadata stripped), or None when ``dot`` is missing (and
        always in the browser, which has no ``dot`` to run: see ``picture``)."""
        if wasm.IN_BROWSER:
            return None
        try:
            data = super().pipe(format="png")
        except graphviz.ExecutableNotFound:
            return None
        return strip_png_metadata(data)

    def picture(self) -> dict | None:
        """The picture as a MIME bundle part: ``{"image/png": ...}`` from ``dot``, or in the
        browser ``{"image/svg+xml": ...}`` from the WASM Graphviz; None when neither draws."""
        if wasm.IN_BROWSER:
            svg = wasm.render(self.source, "svg")
            return None if svg is None else {"image/svg+xml": svg}
        png = self.png()
        return None if png is None else {"image/png": png}

    def _repr_mimebundle_(self, include=None, exclude=None, **_) -> dict:
        picture = self.picture()
        if picture is None:
            bundle = {"text/plain": self.fallback_text()}
        else:
            bundle = {**picture, "text/plain": repr(self)}
        if include:
            bundle = {k: v for k, v in bundle.items() if k in include}
        if exclude:
            bundle = {k: v for k, v in bundle.items() if k not in exclude}
        return bundle

    def pipe(self, format: str | None = None, *args, encoding: str | None = None, **kwargs):
        """``graphviz``'s ``pipe``; without ``dot`` it prints the text tree and returns None.
        In the browser the WASM Graphviz makes the text formats (``svg``, ``plain``, ``dot``,
        ``json``...); ``renderer``/``formatter`` options do not apply there."""
        if wasm.IN_BROWSER:
            out = wasm.render(self.source, format or self.format)
            if out is None:
                print(self.fallback_text())
                return None
            return out if encoding else out.encode()
        try:
            return super().pipe(format, *args, encoding=encoding, **kwargs)
        except graphviz.ExecutableNotFound:
            print(self.fallback_text())
            return None

    def render(self, *args, **kwargs):
        """``graphviz``'s ``render``; without ``dot`` it prints the text tree and returns None.
        In the browser it writes the DOT source and ``<source>.<format>`` from ``pipe``
        (arguments: ``filename``, ``directory``, ``format``)."""
        if wasm.IN_BROWSER:
            return self._render_in_browser(*args, **kwargs)
        try:
            return super().render(*args, **kwargs)
        except graphviz.ExecutableNotFound:
            print(self.fallback_text())
            return None

    def _render_in_browser(self, filename=None, directory=None, *, format=None, **_):
        out = self.pipe(format=format, encoding="utf-8")
        if out is None:
            return None
        source_path = self.save(filename, directory=directory)
        path = f"{source_path}.{format or self.format}"
        with open(path, "w", encoding="utf-8") as f:
            f.write(out)
        return path
