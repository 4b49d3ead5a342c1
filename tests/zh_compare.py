"""Compare a Chinese notebook with its English twin: everything but the prose must agree.

The Chinese edition lives in ``notebooks/zh/`` (chapters) and ``notebooks/zh/solutions/``;
``notebooks/zh/X.ipynb`` is the twin of ``notebooks/X.ipynb``, and
``notebooks/zh/solutions/X.ipynb`` of ``notebooks/solutions/X.ipynb``. Twins must have

* the same number of cells, and the same type of cell at each place;
* the same tags on each cell (``raises-exception``, ``nbval-ignore-output``, ...);
* the same code in each code cell, once comments are removed and every string literal is one
  placeholder (f-strings included, whichever way the running Python tokenizes them: one
  ``STRING`` token up to 3.11, ``FSTRING_START`` ... ``FSTRING_END`` from 3.12, and
  ``TSTRING_*`` for 3.14's t-strings). Neighbouring literals (implicit concatenation) count as
  one, so a translated message may be split differently. IPython lines (``%matplotlib
  inline``, ``!pip ...``) are compared as written.

Markdown cells are free prose; ``markdown_without_cjk`` finds the ones that were left in English.
Used by tests/test_zh_edition.py, which also tests this module on small synthetic notebooks.
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

from autograd_course.course.zh_terms import CJK as CJK_HAN
from autograd_course.course.zh_terms import CJK_PUNCTUATION

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
ZH = NOTEBOOKS / "zh"
PLACEHOLDER = "<str>"
_DROPPED = {"COMMENT", "NL", "ENCODING", "ENDMARKER"}
_STRING_STARTS = {"FSTRING_START": "FSTRING_END", "TSTRING_START": "TSTRING_END"}
_MAGIC = re.compile(r"^\s*[%!]")
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


# --- which notebooks -------------------------------------------------------------------------
def english_course(notebooks: Path = NOTEBOOKS) -> list[Path]:
    """The English chapters (``NN_*.ipynb``), the appendices (``appendix_*.ipynb``) and every
    solutions notebook."""
    return sorted(notebooks.glob("[0-9][0-9]_*.ipynb")) + sorted(
        notebooks.glob("appendix_*.ipynb")) + sorted(notebooks.glob("solutions/*.ipynb"))


def chinese_course(notebooks: Path = NOTEBOOKS) -> list[Path]:
    """Every notebook of the Chinese edition: ``zh/*.ipynb`` and ``zh/solutions/*.ipynb``."""
    zh = notebooks / "zh"
    return sorted(zh.glob("*.ipynb")) + sorted(zh.glob("solutions/*.ipynb"))


def english_twin(zh_path: Path, notebooks: Path = NOTEBOOKS) -> Path:
    """``notebooks/zh/[solutions/]X.ipynb`` -> ``notebooks/[solutions/]X.ipynb``."""
    return notebooks / zh_path.relative_to(notebooks / "zh")


def chinese_twin(en_path: Path, notebooks: Path = NOTEBOOKS) -> Path:
    """``notebooks/[solutions/]X.ipynb`` -> ``notebooks/zh/[solutions/]X.ipynb``."""
    return notebooks / "zh" / en_path.relative_to(notebooks)


# --- code with the prose taken out ---------------------------------------------------------
def _token_name(tok: tokenize.TokenInfo) -> str:
    return tokenize.tok_name.get(tok.type, str(tok.type))


def normalize_tokens(tokens) -> list[tuple[str, str]]:
    """(kind, text) of the code tokens: comments and blank lines dropped, every string
    literal (an f-string or t-string with all its parts) one placeholder, a run of
    neighbouring literals one placeholder, indentation by its kind only."""
    out: list[tuple[str, str]] = []
    closing: list[str] = []  # the END token names of the f-/t-strings we are inside
    for tok in tokens:
        name = _token_name(tok)
        if closing:  # inside an f-string: skip its parts (nested ones too) up to its end
            if name in _STRING_STARTS:
                closing.append(_STRING_STARTS[name])
            elif name == closing[-1]:
                closing.pop()
            continue
        if name in _DROPPED:
            continue
        if name in _STRING_STARTS:
            closing.append(_STRING_STARTS[name])
            name = "STRING"
        if name == "STRING":
            if out and out[-1] == ("STRING", PLACEHOLDER):
                continue  # implicit concatenation: "a" "b" is one literal
            out.append(("STRING", PLACEHOLDER))
        elif name in ("INDENT", "DEDENT"):
            out.append((name, ""))
        else:
            out.append((name, tok.string))
    return out


def code_signature(source: str) -> list[tuple[str, str]]:
    """What must agree between twin code cells (see the module docstring)."""
    lines, magics = [], []
    for line in source.splitlines():
        if _MAGIC.match(line):  # IPython syntax: compared as written, tokenized as `pass`
            magics.append(("MAGIC", line.strip()))
            lines.append(line[: len(line) - len(line.lstrip())] + "pass")
        else:
            lines.append(line)
    text = "\n".join(lines) + "\n"
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError) as err:  # compare such a cell as written
        return magics + [("UNTOKENIZABLE", f"{type(err).__name__}"), ("SOURCE", source)]
    return magics + normalize_tokens(tokens)


def _first_difference(a: list, b: list) -> str:
    for k, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"token {k}: English {x[1]!r}, Chinese {y[1]!r}"
    return f"English has {len(a)} tokens, Chinese {len(b)}"


def _tags(cell) -> list[str]:
    return sorted(cell.get("metadata", {}).get("tags", []))


def _source(cell) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def compare_notebooks(english, chinese) -> list[str]:
    """Every way the two notebooks (nbformat nodes or dicts) differ beyond their prose; an
    empty list when they are twins."""
    en_cells, zh_cells = english["cells"], chinese["cells"]
    problems = []
    if len(en_cells) != len(zh_cells):
        problems.append(f"number of cells: English {len(en_cells)}, Chinese {len(zh_cells)}")
    for i, (en, zh) in enumerate(zip(en_cells, zh_cells)):
        if en["cell_type"] != zh["cell_type"]:
            problems.append(f"cell {i}: English {en['cell_type']}, Chinese {zh['cell_type']}")
            continue
        if _tags(en) != _tags(zh):
            problems.append(f"cell {i}: tags English {_tags(en)}, Chinese {_tags(zh)}")
        if en["cell_type"] == "code":
            a, b = code_signature(_source(en)), code_signature(_source(zh))
            if a != b:
                first = _source(en).strip().splitlines()[:1]
                problems.append(f"cell {i} ({first[0][:50] if first else ''!r}): code differs,"
                                f" {_first_difference(a, b)}")
    return problems


# --- prose ----------------------------------------------------------------------------------
_NOT_PROSE = [
    re.compile(r"```.*?```", re.DOTALL),  # code blocks
    re.compile(r"`[^`]*`"),  # inline code
    re.compile(r"\$\$.*?\$\$", re.DOTALL),  # display math
    re.compile(r"\$[^$]*\$"),  # inline math
    re.compile(r"\]\([^)]*\)"),  # link targets
    re.compile(r"https?://\S+"),  # bare addresses
    re.compile(r"<[^>]+>"),  # HTML tags
]
_WORD = re.compile(r"[A-Za-z]{2,}")


def markdown_without_cjk(notebook) -> list[int]:
    """Indices of markdown cells with words (outside code, math, links) but no Chinese."""
    found = []
    for i, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] != "markdown":
            continue
        prose = _source(cell)
        for pattern in _NOT_PROSE:
            prose = pattern.sub(" ", prose)
        if _WORD.search(prose) and not CJK.search(prose):
            found.append(i)
    return found


# --- what the prose of the two editions must share --------------------------------------------
_FENCED = re.compile(r"```.*?```", re.DOTALL)
_SPAN = re.compile(r"(?<!`)`([^`]+?)`(?!`)", re.DOTALL)  # one backtick pair, may wrap a line
_LINK = re.compile(r"\]\(([^)\s]+)\)")
_ADDRESS = re.compile(r"https?://[^\s)>]+")
_MATH = re.compile(r"\$\$.*?\$\$|\$[^$]+?\$", re.DOTALL)
_NUMBER = re.compile(r"(?<![\w.])(\d+(?:[.,]\d+)*)(?:st|nd|rd|th)?(?!\w)")


def prose_facts(markdown: str, translated: dict[str, str] | None = None) -> dict[str, set[str]]:
    """The parts of a markdown cell a translation keeps as they are: its inline code spans
    (``translated`` maps an English span to the span the Chinese edition writes instead, e.g.
    what a checker prints), the targets of its links and bare addresses, and the numbers of its
    prose (outside code and math) from 10 up or with a fraction: English spells the small ones
    out ("three zeros") where Chinese writes digits ("三个 0")."""
    text = _FENCED.sub(" ", markdown)
    spans = {" ".join(s.split()) for s in _SPAN.findall(text)}
    if translated:
        spans = {translated.get(s, s) for s in spans}
    text = _SPAN.sub(" ", text)
    links = set(_LINK.findall(text)) | set(_ADDRESS.findall(text))
    text = _ADDRESS.sub(" ", _LINK.sub(" ", text))
    text = re.sub(r"<[^>]+>", " ", _MATH.sub(" ", text))
    numbers = {n.replace(",", "") for n in _NUMBER.findall(text)}
    numbers = {n for n in numbers if len(n) > 1}
    return {"code": spans, "links": links, "numbers": numbers}


def prose_drift(english, chinese, translated: dict[str, str] | None = None) -> list[str]:
    """For each pair of markdown cells, what one edition's prose has and the other's lacks."""
    problems = []
    for i, (en, zh) in enumerate(zip(english["cells"], chinese["cells"])):
        if en["cell_type"] != "markdown" or zh["cell_type"] != "markdown":
            continue
        a, b = prose_facts(_source(en), translated), prose_facts(_source(zh))
        for kind in a:
            if a[kind] != b[kind]:
                problems.append(f"cell {i} {kind}: only English {sorted(a[kind] - b[kind])}, "
                                f"only Chinese {sorted(b[kind] - a[kind])}")
    return problems


_CJK_CHAR = CJK_HAN + CJK_PUNCTUATION
_CJK_BREAK = re.compile(f"[{_CJK_CHAR}][*_]*\n[ \t]*[*_]*[{_CJK_CHAR}]")


def cjk_line_breaks(notebook) -> list[str]:
    """Line breaks between two Chinese characters (or Chinese punctuation) in markdown cells,
    outside fenced code: each renders as a stray space in the middle of a Chinese sentence."""
    found = []
    for i, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] != "markdown":
            continue
        for match in _CJK_BREAK.finditer(_FENCED.sub(" ", _source(cell))):
            found.append(f"cell {i}: {match.group(0)!r}")
    return found
