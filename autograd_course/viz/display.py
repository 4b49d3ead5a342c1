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
"""

from __future__ import annotations

import struct
import zlib

import graphviz

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

    def fallback_text(self) -> str:
        """What is shown instead of the picture when ``dot`` is missing."""
        hint = words(self.lang)["install_hint"]
        return f"{self.text}\n{hint}" if self.text else hint

    def png(self) -> bytes | None:
        """The picture as PNG bytes (metadata stripped), or None when ``dot`` is missing."""
        try:
            data = super().pipe(format="png")
        except graphviz.ExecutableNotFound:
            return None
        return strip_png_metadata(data)

    def _repr_mimebundle_(self, include=None, exclude=None, **_) -> dict:
        png = self.png()
        if png is None:
            bundle = {"text/plain": self.fallback_text()}
        else:
            bundle = {"image/png": png, "text/plain": repr(self)}
        if include:
            bundle = {k: v for k, v in bundle.items() if k in include}
        if exclude:
            bundle = {k: v for k, v in bundle.items() if k not in exclude}
        return bundle

    def pipe(self, *args, **kwargs):
        """``graphviz``'s ``pipe``; without ``dot`` it prints the text tree and returns None."""
        try:
            return super().pipe(*args, **kwargs)
        except graphviz.ExecutableNotFound:
            print(self.fallback_text())
            return None

    def render(self, *args, **kwargs):
        """``graphviz``'s ``render``; without ``dot`` it prints the text tree and returns None."""
        try:
            return super().render(*args, **kwargs)
        except graphviz.ExecutableNotFound:
            print(self.fallback_text())
            return None

