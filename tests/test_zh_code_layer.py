"""The Chinese edition's code speaks Chinese too, and writes "accumulate" two fixed ways.

``tests/test_zh_edition.py`` checks that a zh code cell is its English twin's code; this file
checks what the reader of a zh code cell reads in it:

* comments and docstrings are Chinese (contain CJK) unless they hold no English word (math such
  as ``# R^3 -> R^4``, code such as ``# diag(6x)``);
* strings the reader sees — passed to ``print``, ``set_title``/``set_xlabel``/``set_ylabel``/
  ``suptitle``/``text``, as ``label=``/``title=``/``xlabel=``/``ylabel=``, and every f-string —
  are Chinese unless they hold no English word once program names (``x.grad``, ``RuntimeError``,
  ``float32``), placeholders and format specs are taken out;
* any other string that reads as English prose (two English words in a row: a log label, an
  ``AssertionError`` message) is Chinese;
* except PyTorch's own messages (``ALLOWED``), quoted as PyTorch prints them;
* "accumulate": 累积 for the concept, 累加 for the ``+=`` act (``zh_terms.ACCUMULATE_TERMS``),
  in every cell, in the checkers' messages and in the drawings' words.

Every zh notebook, chapters and solutions, follows these rules with no exception list. The
rules run on small texts too, so each can be seen to fail.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize

import pytest
from zh_compare import NOTEBOOKS, chinese_course

from autograd_course.course.exercises.messages_zh import MESSAGES as MESSAGES_ZH
from autograd_course.course.zh_terms import ACCUMULATE_TERMS, CJK, variants_in
from autograd_course.viz.words import WORDS

nbformat = pytest.importorskip("nbformat")

HAS_CJK = re.compile(f"[{CJK}]")
DISPLAY_CALLS = {"print", "set_title", "set_xlabel", "set_ylabel", "suptitle", "text"}
DISPLAY_KEYWORDS = {"label", "title", "xlabel", "ylabel"}
ALLOWED = (
    # PyTorch's own messages and warnings, as the cells compare or filter them
    r"returned nan values in its \d+th output", r"^Error detected in \w+$",
    r"^expected tuple, but hook returned", r"does not require grad",
    r"^Anomaly Detection has been enabled", r"implicitly created only for scalar outputs",
    r"^Mismatch in shape", r"^floating point$", r"backward through the graph a second time",
    r"^second time$",
    r"used in an in-place operation", r"modified by an inplace operation", r"^output 0 of Add$",
    r"only change requires_grad flags of leaf variables", r"^Inference tensors ",
    r"inference tensor outside InferenceMode", r"non-static forward method is deprecated",
    r"^Jacobian mismatch for output", r"^not a double precision",
    r"^incorrect number of gradients", r"^Expected all tensors to be on the same device",
    r"to copy the tensor to host memory first",
    # Python's own messages
    r"object has no attribute",
    # matplotlib's option values (loc=, textcoords=, xycoords=)
    r"^(upper|lower|center) (left|right|center)$", r"^(offset points|axes fraction)$",
    # linters' markers
    r"^# noqa\b",
)
"""Strings and comments that stay English: PyTorch's (and Python's, matplotlib's) own words."""



# --- what a reader reads in a code cell -------------------------------------------------------
def _code_ish(word: str) -> bool:
    """A program name rather than an English word: x.grad, float32, RuntimeError, {x:.3f}, NaN."""
    return bool(re.search(r"[._()\[\]{}=<>*/^`'\"\\:0-9]", word.rstrip(".,;:!?"))
                or re.search(r"[a-z][A-Z]|^[A-Z]{2,}|[A-Z]\w*[A-Z]", word))


def english_words(text: str, names: frozenset = frozenset(), labels_only=False) -> list[str]:
    """The English words of ``text`` once placeholders and program names are taken out:
    ``names`` are those the cell's code uses (``atol``, ``gradcheck``, a dict key); with
    ``labels_only`` (text the reader sees) a name counts as one only where it labels a value
    (``atol =``, ``gradcheck:``), so ``print(n, "parameters")`` is still English."""
    text = re.sub(r"\{[^{}]*\}", " ", text)
    words = [w.strip(".,;:!?()（）“”\"'") for w in text.split() if not _code_ish(w)]

    def a_name(w):
        return w in names and (not labels_only or re.search(rf"\b{w}\s*[=:：]", text))
    return [w for w in words if re.fullmatch(r"[A-Za-z][A-Za-z-]*[A-Za-z]", w or "")
            and len(w) >= 3 and not a_name(w)]


def reads_as_prose(text: str, names: frozenset = frozenset()) -> bool:
    """Two English words in a row: "tensor hook on y", "a pre-hook returning a list"."""
    return bool(re.search(r"\b[A-Za-z][a-z-]*[a-z] +[A-Za-z][a-z-]*[a-z]\b", text)) and bool(
        english_words(text, names))


def _allowed(text: str) -> bool:
    return bool(HAS_CJK.search(text)) or any(re.search(p, text) for p in ALLOWED)


def _literal_text(node) -> str:
    """A string literal's text; an f-string's literal parts, placeholders as {}."""
    if isinstance(node, ast.Constant):
        return node.value
    return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)


def _python(source: str) -> str:
    """IPython lines (%magic, !shell) blanked, so the cell parses as Python."""
    return "\n".join("" if re.match(r"\s*[%!]", line) else line for line in source.splitlines())


def untranslated(source: str) -> list[str]:
    """Each comment, docstring or string of a code cell that should be Chinese and is not."""
    source = _python(source)
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    names = frozenset(tok.string for tok in tokens if tok.type == tokenize.NAME) | frozenset(
        node.value for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Constant)
        and isinstance(node.value, str) and node.value.isidentifier())
    found = []
    for tok in tokens:
        if tok.type == tokenize.COMMENT:
            text = tok.string.lstrip("#").strip()
            if english_words(text, names) and not _allowed(tok.string):
                found.append(tok.string)
    tree = ast.parse(source)
    shown, docstrings = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Module)):
            if node.body and isinstance(node.body[0], ast.Expr) and isinstance(
                    node.body[0].value, ast.Constant) and isinstance(node.body[0].value.value, str):
                docstrings.add(id(node.body[0].value))
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name in DISPLAY_CALLS:
                shown.update(id(a) for a in node.args)
            shown.update(id(k.value) for k in node.keywords if k.arg in DISPLAY_KEYWORDS)
    inside_fstring = {id(v) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr)
                      for v in ast.walk(node) if v is not node}
    for node in ast.walk(tree):
        if id(node) in inside_fstring:
            continue
        if isinstance(node, ast.JoinedStr) or (
                isinstance(node, ast.Constant) and isinstance(node.value, str)):
            text = _literal_text(node)
            seen = (id(node) in shown or id(node) in docstrings
                    or isinstance(node, ast.JoinedStr))
            needs = (english_words(text, names, labels_only=True) if seen
                     else reads_as_prose(text, names))
            if needs and not _allowed(text):
                found.append(text)
    return found


# --- the notebooks ----------------------------------------------------------------------------
def _rel(path) -> str:
    return path.relative_to(NOTEBOOKS).as_posix()


ZH_NOTEBOOKS = [p for p in chinese_course() if not p.name.startswith("index")]


def _cells(path):
    return list(enumerate(nbformat.read(path, as_version=4).cells))


def code_layer_violations(path) -> list[tuple[int, str]]:
    """(cell index, text) of each comment or string left in English in a zh notebook."""
    return [(i, text) for i, cell in _cells(path) if cell.cell_type == "code"
            for text in untranslated(cell.source)]


def accumulate_violations(path) -> list[tuple[int, str]]:
    """(cell index, "variant → word: line") where "accumulate" is written the other way."""
    return [(i, found) for i, cell in _cells(path)
            for found in variants_in(cell.source, ACCUMULATE_TERMS)]


def _report(path, violations) -> str:
    return "\n".join(f"{_rel(path)} cell {i}: {t!r}" for i, t in violations)


@pytest.mark.parametrize("path", ZH_NOTEBOOKS, ids=_rel)
def test_code_layer_is_chinese(path):
    report = _report(path, code_layer_violations(path))
    assert not report, "comments, docstrings or strings left in English:\n" + report


@pytest.mark.parametrize("path", ZH_NOTEBOOKS, ids=_rel)
def test_accumulate_is_written_two_fixed_ways(path):
    report = _report(path, accumulate_violations(path))
    assert not report, "累积 (the concept) / 累加 (the += act):\n" + report


def test_checker_messages_and_drawings_write_accumulate_two_ways():
    found = [f"{key}: {v}" for table in (MESSAGES_ZH, WORDS["zh"])
             for key, text in table.items() for v in variants_in(text, ACCUMULATE_TERMS)]
    assert not found, "\n".join(found)


# --- the rules, on small texts ------------------------------------------------------------------
@pytest.mark.parametrize("source, left", [
    ('print("with the pre-hook:", x)', "with the pre-hook:"),
    ('print(f"loss {loss:.3f}")', "loss {}"),
    ('print(len(model.parameters()), "parameters")', "parameters"),
    ('ax.set_title("memory")', "memory"),
    ('ax.set(xlabel="segments", xscale="log")', "segments"),
    ('plt.plot(x, y, label="train loss")', "train loss"),
    ('log.append(("tensor hook on y", g))', "tensor hook on y"),
    ('raise AssertionError("anomaly mode should stop at the NaN")',
     "anomaly mode should stop at the NaN"),
    ("x = 1  # used and freed at once", "# used and freed at once"),
    ('def f():\n    """Count the passes."""\n', "Count the passes."),
])
def test_the_rules_catch_english(source, left):
    assert untranslated(source) == [left]


@pytest.mark.parametrize("source", [
    'print("损失：", loss.item(), " x.grad:", x.grad)',
    'print(f"{name:9} {fwd:7d}")',
    'print("J =", J)',
    'print("RuntimeError:", err)',
    'left.set(xscale="log", xlabel="段数")',
    'plt.plot(x, y, "o-", color="C1")',
    "warnings.simplefilter(\"ignore\")  # 忽略 NumPy 的提示",
    "y = W @ x  # R^3 -> R^4",
    "H = h(x)  # diag(6x)",
    'assert str(err) == "expected tuple, but hook returned \'list\'"',
    'assert error == "Function \'SqrtBackward0\' returned nan values in its 0th output."',
    'reached = {"0.weight": True, "2.bias": False}',
    'path = "model.pt"',
    'print(" atol =", defaults["atol"])',
    'print("gradcheck:", ag.autograd.gradcheck(f, (x,)))',
    "def __sub__(self, other):\n    return self + (-other)  # self - other",
    "z = f(x)  # noqa: E731",
    "%matplotlib inline\nx = 1",
])
def test_the_rules_accept_chinese_program_names_and_pytorchs_words(source):
    assert untranslated(source) == []


@pytest.mark.parametrize("text, variant", [
    ("梯度会累计到 `.grad` 中", "累计"),
    ("这就是梯度累加。", "梯度累加"),
    ("反向传播会累积到 `.grad` 中。", "累积"),
    ("x.grad += g  # 用 += 累积", "+= 累积"),
])
def test_the_accumulate_rules_catch_each_variant(text, variant):
    found = variants_in(text, ACCUMULATE_TERMS)
    assert found and found[0].startswith(variant), found


@pytest.mark.parametrize("text", [
    "梯度会累积，所以每次比较都从新的叶子开始。",
    "`AccumulateGrad` 把梯度累加进 `x.grad`（`+=`）。",
    "| 累积 / 累计 | 000, 002 / 001, 002 | accumulate |",
    "笔记 001 说梯度会“累计”到 `.grad` 中",
    "把梯度累加到 `w.grad` 上（梯度累积）",
])
def test_the_accumulate_rules_accept_the_two_words(text):
    assert variants_in(text, ACCUMULATE_TERMS) == []
