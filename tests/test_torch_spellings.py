"""The chapters use only PyTorch's spellings (issue 29).

Names PyTorch does not have must not appear in any notebook (chapters, solutions, both
editions) or the README:

* ``autograd.trace`` / ``engine.trace``: PyTorch code watches backward with node hooks
  (``node.register_hook(fn(grad_inputs, grad_outputs))``, ``node.register_prehook``);
* ``ag.autograd.GradcheckError``: PyTorch has it only as
  ``torch.autograd.gradcheck.GradcheckError``;
* ``saved_tensors`` read from a built-in node: PyTorch's built-in nodes expose ``_saved_self``,
  ``_saved_result``, ...; only a custom Function's node has ``saved_tensors``. A cell may read
  ``<node>.saved_tensors`` (rather than ``ctx.saved_tensors``) only if the twin test runs it on
  torch (it is not tagged package-only), where a built-in node would fail.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted(p for p in (ROOT / "notebooks").rglob("*.ipynb")
                   if ".ipynb_checkpoints" not in p.parts)
FORBIDDEN = re.compile(r"\b(autograd|engine)\.trace\b|\bag\.autograd\.GradcheckError\b|"
                       r"[\"']saved_tensors[\"']")
NODE_SAVED_TENSORS = re.compile(r"(?<!ctx)\.saved_tensors\b")


def problems_in(cells) -> list[str]:
    found = []
    for i, cell in enumerate(cells):
        source = "".join(cell["source"])
        for match in FORBIDDEN.finditer(source):
            found.append(f"cell {i}: {match.group(0)}")
        tagged = "package-only" in cell.get("metadata", {}).get("tags", [])
        if NODE_SAVED_TENSORS.search(source) and (cell["cell_type"] == "markdown" or tagged):
            found.append(f"cell {i}: a node's saved_tensors outside the cells run on torch")
    return found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[str(p.relative_to(ROOT)) for p in NOTEBOOKS])
def test_notebook_uses_only_pytorchs_spellings(path):
    assert not problems_in(json.loads(path.read_text(encoding="utf-8"))["cells"])


def test_readme_uses_only_pytorchs_spellings():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert not FORBIDDEN.findall(text)
    assert not re.findall(r"grad_fn\.saved_tensors", text)


def test_the_scan_can_fail():
    def cell(source, kind="code", tags=()):
        return {"cell_type": kind, "source": [source], "metadata": {"tags": list(tags)}}

    assert problems_in([cell("with ag.autograd.trace(f):\n    L.backward()")])
    assert problems_in([cell("with ag.autograd.engine.trace(f): pass")])
    assert problems_in([cell("except ag.autograd.GradcheckError as e: pass")])
    assert problems_in([cell('getattr(node, "saved_tensors", ())')])
    assert problems_in([cell("c.grad_fn.saved_tensors", tags=["package-only"])])
    assert problems_in([cell("read `L.grad_fn.saved_tensors`", kind="markdown")])
    assert not problems_in([cell("(x,) = ctx.saved_tensors")])
    assert not problems_in([cell("y.grad_fn.saved_tensors  # a custom Function's node")])
