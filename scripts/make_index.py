#!/usr/bin/env python3
"""Write notebooks/index.ipynb: the landing page `make lab` opens, linking both editions.

The page lists, from the files present, every English chapter (notebooks/NN_*.ipynb) and
solutions notebook (notebooks/solutions/*.ipynb), and every Chinese one (notebooks/zh/ and
notebooks/zh/solutions/), each under the title of its first heading. It has no code cells, so
there is nothing to execute; the output depends only on the notebooks present, so running it
twice writes the same bytes (tests/test_zh_index.py checks the committed page is current).

    python scripts/make_index.py           # write notebooks/index.ipynb
    python scripts/make_index.py --check   # exit 1 when the committed page is out of date
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
INDEX = NOTEBOOKS / "index.ipynb"

INTRO = """\
# autograd_course — start here · 从这里开始

One course in two languages: the same code, the same checks and the same pictures; only the
prose differs (a test keeps the two editions identical in everything else).

同一门课程，两种语言：代码、检查和图完全相同，只有讲解文字不同\
（有测试保证两个版本在其他方面完全一致）。

**Language / 语言.** A notebook in `zh/` speaks Chinese: its exercise checkers, hints and
graph drawings are in Chinese, with no code of its own to say so (each chapter's first cell
imports the course layer, `autograd_course.course`, which reads the notebook's language). In
any notebook, `ag.course.set_language("zh")` or `ag.course.set_language("en")` switches;
`ag.viz.draw_graph(..., lang="zh")` draws one graph in Chinese.
`zh/` 文件夹里的笔记本自动使用中文：练习检查、提示和计算图都是中文，不需要写任何代码。\
（每章第一个代码单元格都会导入课程层 `autograd_course.course`，由它读出笔记本的语言。）\
在任何笔记本里都可以用 `ag.course.set_language("zh")` 或 `ag.course.set_language("en")` 切换语言。
"""

NO_CHINESE_YET = "*中文章节正在翻译中，完成后会出现在这里（`notebooks/zh/`）。*"


def title_of(path: Path) -> str:
    """The first markdown heading of a notebook, without its #'s (the file name if none)."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") != "markdown":
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else source
        for line in source.splitlines():
            if line.startswith("#"):
                return line.lstrip("#").strip()
    return path.stem


def chapters(folder: Path) -> list[Path]:
    return sorted(folder.glob("[0-9][0-9]_*.ipynb"))


def appendices(folder: Path) -> list[Path]:
    """The appendix notebooks (``appendix_*.ipynb``: the map of the course and the glossary)."""
    return sorted(folder.glob("appendix_*.ipynb"))


def solutions(folder: Path) -> list[Path]:
    return sorted((folder / "solutions").glob("*.ipynb"))


def link_list(paths: list[Path], notebooks: Path) -> str:
    return "\n".join(f"- [{title_of(p)}]({p.relative_to(notebooks).as_posix()})" for p in paths)


def edition(heading: str, chapters_word: str, solutions_word: str, folder: Path,
            notebooks: Path, empty: str, appendix_word: str = "Appendix") -> str:
    found_chapters, found_solutions = chapters(folder), solutions(folder)
    parts = [f"## {heading}"]
    if not found_chapters and not found_solutions:
        parts.append(empty)
    if found_chapters:
        parts += [f"**{chapters_word}**", link_list(found_chapters, notebooks)]
    if appendices(folder):
        parts += [f"**{appendix_word}**", link_list(appendices(folder), notebooks)]
    if found_solutions:
        parts += [f"**{solutions_word}**", link_list(found_solutions, notebooks)]
    return "\n\n".join(parts) + "\n"


def _metadata(notebooks: Path) -> dict:
    """The English chapters' kernel metadata (so JupyterLab opens the page unmodified)."""
    for path in chapters(notebooks):
        meta = json.loads(path.read_text(encoding="utf-8")).get("metadata", {})
        if "kernelspec" in meta:
            return {k: meta[k] for k in ("kernelspec", "language_info") if k in meta}
    return {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}}


def build(notebooks: Path = NOTEBOOKS) -> str:
    """The landing notebook's JSON text, from the notebooks present under ``notebooks``."""
    sections = [
        ("index-intro", INTRO),
        ("index-english", edition("English", "Chapters", "Solutions", notebooks, notebooks,
                                  "*No chapters yet.*")),
        ("index-chinese", edition("中文版", "章节", "参考答案", notebooks / "zh", notebooks,
                                  NO_CHINESE_YET, "附录")),
    ]
    cells = [{"cell_type": "markdown", "id": cell_id, "metadata": {},
              "source": text.splitlines(keepends=True)} for cell_id, text in sections]
    notebook = {"cells": cells, "metadata": _metadata(notebooks), "nbformat": 4,
                "nbformat_minor": 5}
    return json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="do not write; exit 1 when notebooks/index.ipynb is out of date")
    args = parser.parse_args(argv)
    text = build()
    if args.check:
        current = INDEX.read_text(encoding="utf-8") if INDEX.exists() else ""
        if current != text:
            print(f"{INDEX.relative_to(ROOT)} is out of date: run `python scripts/make_index.py`")
            return 1
        print(f"{INDEX.relative_to(ROOT)} is up to date")
        return 0
    INDEX.write_text(text, encoding="utf-8")
    print(f"wrote {INDEX.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
