"""The Chinese edition's term table: one Chinese word per concept, as data.

The chapters and solutions in ``notebooks/zh/``, the checkers' Chinese messages
(``exercises/messages_zh.py``) and the drawings' Chinese words (``viz/words.py``) all follow it;
``tests/test_zh_terms.py`` fails on any variant the table rules out. The appendix's glossary
(``notebooks/zh/appendix_map.ipynb``, 术语表) shows the same table to the reader.

Each :class:`Term` names the English concept, the one Chinese word the course writes for it, the
variants the course does not write (regular expressions) and, where a study note uses one of
those variants, the places it may still appear: a key-term table row that names the note, or a
sentence that quotes the note's word in quotation marks (“偏差”).

The edition's repeated boilerplate is also fixed here: the review section's heading and first
sentence, the solutions' title and first paragraph, the header of the key-term tables, and the
words the checkers print (so the prose quotes them exactly).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
"""Chinese characters (the unified ideographs and their extensions in the basic plane)."""
CJK_PUNCTUATION = ("\u3000-\u303f\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65"
                   "\u2014\u2018\u2019\u201c\u201d\u2026")
"""Chinese punctuation: 、。「」《》（）！，：；？ — ‘’ “” … (the full-width forms but letters
and digits)."""

# A key-term table row that names the note the word comes from: "| 偏差 | 000, 002 | bias |".
_NOTE_ROW = r"^\|.*\|\s*0\d\d\b"
# A sentence that quotes a note's word: 笔记 002 叫它“偏差”, 笔记里的“前向传播”.
_QUOTED = r"笔记[^。；\n]*“{word}”|“{word}”[^。；\n]*笔记"
# The alias given next to the course's word: 激活检查点（也叫梯度检查点）.
_ALIAS = r"（也(?:叫|译|称)作?{word}）"


@dataclass(frozen=True)
class Term:
    en: str
    zh: str
    variants: tuple[str, ...] = ()
    """Regular expressions for words the course does not write for this concept."""
    note_word: str | None = None
    """A variant a study note uses: allowed in a note's key-term row or quoted as the note's."""
    in_notes: str = ""
    """The notes that use ``note_word`` ("001, 002"), as the glossary's row must list them."""
    glossary: bool = True
    """Whether the appendix's glossary lists the term (a test checks it does)."""
    alias: str | None = None
    """The community's other name, given once next to the term: 黑塞矩阵（也译海森矩阵）."""

    def allowed_contexts(self) -> list[re.Pattern]:
        contexts = []
        if self.alias is not None:
            contexts.append(re.compile(_ALIAS.format(word=re.escape(self.alias))))
        if self.note_word is not None:
            contexts += [re.compile(_NOTE_ROW),
                         re.compile(_QUOTED.format(word=re.escape(self.note_word)))]
        return contexts


TERMS: tuple[Term, ...] = (
    Term("in place", "原地", variants=("就地",)),
    Term("view", "视图", variants=("视窗",)),
    Term("bias", "偏置", variants=("偏差",), note_word="偏差", in_notes="000, 002"),
    Term("forward pass", "正向传播", variants=("前向",), note_word="前向传播",
         in_notes="001, 002"),
    Term("backward pass", "反向传播", variants=("后向",), note_word="后向传播",
         in_notes="001, 002"),
    Term("Nesterov momentum", "Nesterov 动量", variants=("涅斯捷罗夫", "内斯特罗夫")),
    Term("device", "设备", variants=("装置",)),
    Term("CPU", "CPU", variants=("中央处理器",), glossary=False),
    Term("GPU", "GPU", variants=("图形处理器", "显卡"), glossary=False),
    Term("note 000 (001, 002)", "笔记 000", variants=(r"\b[Nn]otes? \d{3}\b",), glossary=False),
    Term("cell", "单元格", variants=(r"(?<!运算)单元(?!格)",)),
    Term("checker", "检查器", variants=("检查函数",)),
    Term("package-only (a cell the twin test does not run on torch)", "本课程包专有",
         variants=(r"package-only", "仅限本?课程包"), glossary=False),
    Term("post-accumulate-grad hook", "累加梯度之后的钩子", variants=("累积梯度之后的钩子",)),
    Term("activation checkpointing", "激活检查点", variants=("梯度检查点",), alias="梯度检查点"),
    Term("Hessian", "黑塞矩阵", variants=("海森",), alias="海森矩阵"),
)
"""Every rule of the table; ``zh`` is the word the course writes."""

ACCUMULATE_TERMS: tuple[Term, ...] = (
    Term("accumulate", "累积", variants=("累计", r"梯度累加(?![到进在])"), note_word="累计",
         in_notes="001, 002"),
    Term("add into (`+=`)", "累加", variants=(r"累积(?=[到进在])", r"\+=\s*累积")),
)
"""Two words for "accumulate": 累积 names the concept (gradients add up over backward passes until
someone zeroes them: 梯度累积, 梯度会累积), 累加 the act (one backward pass adds into ``.grad``
with ``+=``: 累加进 ``.grad``, 用 += 累加). 累计 is the notes' word (allowed where a row or a
quoted word names the note). Kept apart from ``TERMS`` while chapters 0–9 are being edited:
``tests/test_zh_code_layer.py`` enforces them, with a temporary list of the places still to fix;
they join ``TERMS`` once that list is empty."""

VERDICTS = {"correct": "verdict.correct", "not quite: <a hint>": "verdict.not_quite",
            "not attempted yet": "verdict.not_attempted"}
"""The English chapters quote what a checker prints (`correct`); the Chinese ones quote the
Chinese message of the same key (`正确`), filled in with ``HINT`` where it takes a hint."""
HINT = "<提示>"

REVIEW_HEADING = "## 复习：先预测，再运行"
REVIEW_INTRO = "每道题先写下你的预测，再展开答案，并运行答案下面的单元格——它会用库来核对答案。"
"""The heading and first paragraph of every chapter's review section."""

KEY_TERMS_TITLE = "**关键术语**"
KEY_TERMS_HEADERS = (
    "| 笔记原词 | 出自笔记 | 英文 |",
    "| 笔记原词 | 出自笔记 | 英文 | 本章含义 |",
    "| 标准术语（英文） | 中文（通行译法，笔记中没有） |",
    "| 标准术语（英文） | 中文（通行译法，笔记中没有） | 本章含义 |",
)
"""The key-term tables at the top of chapters 1–9: their title line, and each table's header is
one of these (the notes' own words first, then the standard terms the course adds)."""

SOLUTIONS_TITLE = re.compile(r"# 参考答案 — 第 (\d+) 章：\S")
SOLUTIONS_INTRO = re.compile(
    r"`(\d\d)_\w+\.ipynb` 中练习的参考答案(（笔记 [^）\n]+）)?。"
    r"(不论有没有 GPU，)?每个检查器都应当打印 `正确`。")
"""The solutions' title ("# 参考答案 — 第 3 章：计算图") and first paragraph."""
EXERCISE_LABEL = re.compile(r"\*\*练习 (\d+)\.(\d+[a-z]?)"
                            r"(?: — (?:`[^`\n]*`|[^*`\n])+?[。？]|。)\*\*")
"""How an exercise is named in bold: **练习 3.1 — 找出叶子。** (chapters), **练习 3.1。**
(solutions); a letter may follow the number of an exercise added between two others
(**练习 1.4b — ……。**)."""
EXERCISE_START = re.compile(r"\*\*练习 \d+\.\d+")

PACKAGE_ONLY = next(t.zh for t in TERMS if t.en.startswith("package-only"))
PACKAGE_ONLY_MARKER = re.compile(rf"\*（{PACKAGE_ONLY}(?:：[^（）\n]+)?）\*")
"""The one line that marks a package-only cell (in the markdown cell above it, once per section):
*（本课程包专有）* or, with one short clause saying what is package-only, *（本课程包专有：画图）*;
the English edition writes *(package-only)* / *(package-only: the drawing)* in the same cell."""


def variants_in(text: str, terms: tuple[Term, ...] = TERMS) -> list[str]:
    """Each variant the table (or ``terms``) rules out in ``text``, as "变体 → 用词: the line it
    stands in"; a note's word in a context that names the note, or an alias given once in
    parentheses, is not one."""
    found = []
    for term in terms:
        allowed = term.allowed_contexts()
        for pattern in term.variants:
            for match in re.finditer(pattern, text):
                start = text.rfind("\n", 0, match.start()) + 1
                end = text.find("\n", match.end())
                line = text[start:] if end < 0 else text[start:end]
                if any(context.search(line) for context in allowed):
                    continue
                found.append(f"{match.group(0)} → {term.zh}: {line.strip()[:120]}")
    return found
