"""The landing notebook (notebooks/index.ipynb, opened by `make lab`) links every chapter and
solutions notebook of both editions, and is what scripts/make_index.py writes today."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

from zh_compare import NOTEBOOKS, chinese_course, english_course

ROOT = Path(__file__).resolve().parents[1]
INDEX = NOTEBOOKS / "index.ipynb"
LINK = re.compile(r"\]\(([^)\s]+\.ipynb)\)")


def _make_index():
    spec = importlib.util.spec_from_file_location("make_index", ROOT / "scripts" / "make_index.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _links(text: str) -> list[str]:
    notebook = json.loads(text)
    prose = "".join("".join(c["source"]) for c in notebook["cells"])
    return LINK.findall(prose)


def test_index_is_current():
    assert INDEX.is_file(), "notebooks/index.ipynb is missing: python scripts/make_index.py"
    assert INDEX.read_text(encoding="utf-8") == _make_index().build(), (
        "notebooks/index.ipynb is out of date: run `python scripts/make_index.py`")


def test_index_links_every_notebook_of_both_editions():
    links = _links(INDEX.read_text(encoding="utf-8"))
    course = english_course() + english_course(NOTEBOOKS / "zh")  # chapters, solutions
    expected = [p.relative_to(NOTEBOOKS).as_posix() for p in course]
    assert set(chinese_course()) >= set(english_course(NOTEBOOKS / "zh"))
    assert expected, "no notebooks at all"
    assert sorted(links) == sorted(expected)
    assert all((NOTEBOOKS / link).is_file() for link in links)
    assert all(c["cell_type"] == "markdown" for c in json.loads(INDEX.read_text())["cells"])


def test_index_of_a_tree_with_both_editions(tmp_path):
    """On a small tree with Chinese chapters too: both sections list their notebooks."""
    make_index = _make_index()

    def notebook(path: Path, heading: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        cells = [{"cell_type": "markdown", "metadata": {}, "source": [f"# {heading}\n", "text"]}]
        path.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4,
                                    "nbformat_minor": 5}))

    notebook(tmp_path / "00_welcome.ipynb", "Chapter 0 — Welcome")
    notebook(tmp_path / "solutions" / "00_solutions.ipynb", "Solutions — Chapter 0")
    notebook(tmp_path / "zh" / "00_welcome.ipynb", "第 0 章 — 欢迎")
    notebook(tmp_path / "zh" / "solutions" / "00_solutions.ipynb", "参考答案 — 第 0 章")
    notebook(tmp_path / "zh" / "scratch.ipynb", "not a chapter")
    text = make_index.build(tmp_path)
    assert sorted(_links(text)) == ["00_welcome.ipynb", "solutions/00_solutions.ipynb",
                                    "zh/00_welcome.ipynb", "zh/solutions/00_solutions.ipynb"]
    assert "[第 0 章 — 欢迎](zh/00_welcome.ipynb)" in text
    assert make_index.NO_CHINESE_YET not in text
    assert make_index.build(tmp_path) == text  # the same bytes twice
    assert json.loads(text)["metadata"]["kernelspec"]["name"] == "python3"


def test_make_lab_opens_the_index():
    makefile = (ROOT / "Makefile").read_text()
    recipe = makefile.split("\nlab:", 1)[1].split("\n\n", 1)[0]
    assert "--LabApp.default_url=/lab/tree/index.ipynb" in recipe
    assert "--ServerApp.root_dir=notebooks" in recipe


def test_readme_has_a_chinese_section_with_the_two_commands():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "\n## 中文\n" in readme
    section = readme.split("\n## 中文\n", 1)[1].split("\n## ", 1)[0]
    for needed in ["make lab", "make test", "notebooks/zh/", "set_language", "ensure_cjk_font"]:
        assert needed in section, needed
    assert len(re.findall(r"[\u4e00-\u9fff]", section)) > 100  # written in Chinese
