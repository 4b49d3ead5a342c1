"""Stand-ins the notebooks use where this machine lacks what a chapter talks about.

- ``stand_in_gpu()``: chapter 8 shows PyTorch's device errors without a GPU. It plugs the fake
  CuPy of the course's tests (``tests/fake_cupy.py``: NumPy arrays labelled "cuda" that refuse
  to mix with host arrays where CuPy refuses) into the package's backend for one ``with``
  block, and puts the real backend back afterwards. Nothing runs on a GPU.
- ``standard_recursion_limit()``: chapter 9 shows a recursive walk failing at Python's standard
  depth of 1000. The browser edition raises the limit to 3000, deeper than its WebAssembly stack
  holds, so there it is put back to 1000 first.
"""

from __future__ import annotations

import importlib.util
import sys
from contextlib import contextmanager
from pathlib import Path

from .. import _backend

STANDARD_RECURSION_LIMIT = 1000
"""``sys.getrecursionlimit()`` in a standard CPython."""

FAKE_CUPY = Path(__file__).resolve().parents[2] / "tests" / "fake_cupy.py"
"""The stand-in GPU of the course's tests; only a checkout of the repository has it."""


def _load_fake_cupy():
    spec = importlib.util.spec_from_file_location("fake_cupy", FAKE_CUPY)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.make_module()


@contextmanager
def stand_in_gpu():
    """Inside the block, ``device="cuda"`` lives on the fake CuPy of the course's tests.

    Yields ``True`` when the stand-in is in place, ``False`` where this installation has no
    ``tests/`` folder (an installed package, the browser edition): then nothing is swapped.
    """
    if not FAKE_CUPY.exists():
        yield False
        return
    real = _backend._cupy
    _backend._cupy = _load_fake_cupy()
    try:
        yield True
    finally:
        _backend._cupy = real


def standard_recursion_limit() -> int:
    """Set Python's recursion limit to the standard 1000 if it is higher (the browser edition's
    3000), and return the limit now in force."""
    if sys.platform == "emscripten" and sys.getrecursionlimit() > STANDARD_RECURSION_LIMIT:
        sys.setrecursionlimit(STANDARD_RECURSION_LIMIT)
    return sys.getrecursionlimit()
