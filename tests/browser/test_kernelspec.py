"""Every notebook names the kernel `make venv` installs, display name included.

JupyterLab writes the running kernel's display name into a notebook's metadata when it opens
it; if the two differ, every notebook opens "modified" and asks to be saved when closed
unedited. The browser test checks the symptom; this checks the cause, without a browser.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb")) + \
    sorted((ROOT / "notebooks").glob("solutions/*.ipynb"))


def _makefile_kernel() -> dict:
    """The kernelspec the Makefile installs: KERNEL_NAME / KERNEL_DISPLAY, used by the one
    `ipykernel install` line of the venv recipe."""
    text = (ROOT / "Makefile").read_text()
    values = dict(re.findall(r"^(KERNEL_NAME|KERNEL_DISPLAY)\s*:=\s*(.+?)\s*$", text, re.M))
    installs = re.findall(r"ipykernel install .*", text)
    assert installs and all(
        '--name $(KERNEL_NAME) --display-name "$(KERNEL_DISPLAY)"' in line for line in installs
    ), installs
    return {"name": values["KERNEL_NAME"], "display_name": values["KERNEL_DISPLAY"]}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_notebook_kernelspec_is_the_installed_one(path: Path):
    spec = nbformat.read(path, as_version=4).metadata.get("kernelspec", {})
    expected = _makefile_kernel()
    assert {k: spec.get(k) for k in expected} == expected, path.name
    assert spec.get("language") == "python"
