"""Run a chapter's code cells a second time, with PyTorch where the course's package was.

``python tests/twin_torch.py notebooks/02_vector_outputs.ipynb`` runs every code cell of the
notebook in order, in one IPython shell, after ``import autograd_course as ag`` has been made
to give ``torch`` (2.13), and prints one JSON line: per cell, its index and what it showed
(stdout, and the value of its last expression as Jupyter's ``text/plain``), or the error it
raised. Cells tagged ``package-only`` (they use the package's own parts: ``viz``,
``exercises``, ``datasets``, the engine's source) are not run. ``tests/test_twin_torch.py``
compares what each cell showed with the output committed in the notebook.

The stand-in module, ``autograd_course`` -> ``torch``:

* every attribute is torch's (``ag.tensor``, ``ag.no_grad``, ``ag.autograd.Function``...), and
  ``autograd_course.nn`` / ``.nn.functional`` / ``.optim`` / ``.autograd`` /
  ``.autograd.gradcheck`` / ``.utils.data`` are torch's modules of those names;
* ``ag.models.resnet18`` is torchvision's ResNet-18, which this venv does not install: the
  package's own ``models/resnet.py`` (written to torchvision's layout) compiled over
  ``torch.nn``, so the network is built from torch's layers and initialised by torch;
* ``autograd_course.course``, the course layer, as an empty module;
* nothing else: any other part of the package (``ag.viz``, ``ag.course.exercises``...) does not
  exist, so a cell that uses one fails unless it is tagged.
"""

from __future__ import annotations

import io
import json
import os
import sys
import types
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

TAG = "package-only"
PACKAGE = Path(__file__).resolve().parent.parent / "autograd_course"


def _resnet_module(torch):
    """torchvision's ``resnet18`` stand-in: the package's resnet.py over ``torch.nn``."""
    source = (PACKAGE / "models" / "resnet.py").read_text(encoding="utf-8")
    source = source.replace("from .. import nn\n", "from torch import nn\n")
    source = source.replace("from ..serialization import load\n", "from torch import load\n")
    module = types.ModuleType("autograd_course.models")
    exec(compile(source, "resnet.py (over torch.nn)", "exec"), module.__dict__)
    return module


def _from(torch):
    def __getattr__(name: str):
        if name.startswith("__"):  # no __path__: the stand-in has no submodules of its own
            raise AttributeError(name)
        return getattr(torch, name)

    return __getattr__


def install_torch_as_the_package():
    """Make ``import autograd_course`` (and its submodules chapters use) give torch's."""
    import torch
    import torch.autograd.gradcheck
    import torch.nn.functional
    import torch.utils.data

    stand_in = types.ModuleType("autograd_course")
    stand_in.__dict__["__getattr__"] = _from(torch)
    models = _resnet_module(torch)
    stand_in.models = models
    # The course layer has no counterpart in PyTorch: a chapter's first cell imports it (for
    # its checkers and the notebook's language), so here it is an empty module; every cell
    # that uses it is tagged package-only and not run. One helper stays: chapter 9's
    # ``standard_recursion_limit()`` only lowers the browser edition's raised limit, so in
    # CPython it is ``sys.getrecursionlimit``.
    course = types.ModuleType("autograd_course.course")
    course.standard_recursion_limit = sys.getrecursionlimit
    stand_in.course = course
    modules = {
        "autograd_course": stand_in,
        "autograd_course.nn": torch.nn,
        "autograd_course.nn.functional": torch.nn.functional,
        "autograd_course.optim": torch.optim,
        "autograd_course.autograd": torch.autograd,
        "autograd_course.autograd.gradcheck": sys.modules["torch.autograd.gradcheck"],
        "autograd_course.utils": torch.utils,
        "autograd_course.utils.data": torch.utils.data,
        "autograd_course.models": models,
        "autograd_course.course": course,
    }
    for name in list(sys.modules):  # nothing of the real package may be reachable
        if name == "autograd_course" or name.startswith("autograd_course."):
            del sys.modules[name]
    sys.modules.update(modules)


def code_cells(path: Path) -> list[tuple[int, dict]]:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    return [(i, c) for i, c in enumerate(notebook["cells"]) if c["cell_type"] == "code"]


def is_package_only(cell: dict) -> bool:
    return TAG in cell.get("metadata", {}).get("tags", [])


def run(path: Path) -> list[dict]:
    os.environ.setdefault("MPLBACKEND", "Agg")
    install_torch_as_the_package()
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance(colors="nocolor")
    os.chdir(path.parent)
    shell.enable_gui = lambda gui=None: None  # %matplotlib inline outside a kernel: Agg
    shell.displayhook.write_output_prompt = lambda: None  # the value is read from the result
    shell.displayhook.write_format_data = lambda *args, **kwargs: None
    results = []
    for index, cell in code_cells(path):
        if is_package_only(cell):
            continue
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            result = shell.run_cell("".join(cell["source"]), store_history=False, silent=False)
        shown = {"cell": index, "stdout": out.getvalue(), "value": None, "error": None}
        if result.error_before_exec or result.error_in_exec:
            error = result.error_before_exec or result.error_in_exec
            shown["error"] = f"{type(error).__name__}: {error}"
        elif result.result is not None:
            data, _ = shell.display_formatter.format(result.result)
            shown["value"] = data.get("text/plain")
        results.append(shown)
    return results


if __name__ == "__main__":
    print(json.dumps(run(Path(sys.argv[1]).resolve())))
