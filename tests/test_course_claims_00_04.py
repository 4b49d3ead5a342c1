"""What chapters 0-4 tell learners about PyTorch, checked against PyTorch itself.

Each snippet below is a statement a chapter makes (the chapter and cell topic are named). It is
run twice, with ``torch`` bound to PyTorch and to ``autograd_course``, and both must print the
same thing; the snippet's own asserts state the claim. A few claims are about PyTorch's node
objects only (what they save, in which order they run) and are checked on PyTorch directly.
The glossary checks at the end hold the chapters to their word: every word listed as the
notes' own appears in the note named, and no "standard term" is passed off as the notes'.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import warnings
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def run(code: str, lib: str) -> str:
    """Run ``code`` with ``torch`` meaning PyTorch (lib='torch') or our package; return stdout."""
    if lib == "ag":
        code = code.replace("import torch", "import autograd_course as torch")
    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(compile(code, f"<claim, {lib}>", "exec"), {"__name__": "__claim__"})
    return _ADDRESS.sub(" at 0x…", out.getvalue())


CLAIMS = {
    # chapter 0: the first graph, and the review questions
    "ch00 c = a * b: MulBackward0, a.grad = b, b.grad = a": """
import torch
a = torch.tensor(2.0, requires_grad=True); b = torch.tensor(3.0, requires_grad=True)
c = a * b
print(c, c.grad_fn.name()); c.backward(); print(a.grad, b.grad)
c = a * b; c.backward(); print(a.grad)
assert a.grad.item() == 6.0
""",
    "ch00 exercise 0.1/0.2: grads of a*b + a; grad_fn names of the five expressions": """
import torch
a = torch.tensor(2.0, requires_grad=True); b = torch.tensor(3.0, requires_grad=True)
(a * b + a).backward(); print(a.grad.item(), b.grad.item())
a = torch.tensor([1.0, 2.0], requires_grad=True); b = torch.tensor([3.0, 4.0], requires_grad=True)
names = [e.grad_fn.name() for e in (a + b, a * b, a ** 2, (a * b).sum(), a.exp() * 2)]
print(names)
assert names == ["AddBackward0", "MulBackward0", "PowBackward0", "SumBackward0", "MulBackward0"]
""",
    "ch00 review: nothing is recorded unless an input requires grad; p*p gives 2p": """
import torch
u, v = torch.tensor(2.0), torch.tensor(3.0)
print((u * v).grad_fn, (u * v).requires_grad, (u * v).is_leaf)
p = torch.tensor(4.0, requires_grad=True); q = p * p; q.backward(); print(q.grad_fn.name(), p.grad)
""",
    # chapter 1
    "ch01 flags of a leaf; AddBackward0; next_functions of y = x + 2": """
import torch
x = torch.ones(2, 2, requires_grad=True)
print(x, x.requires_grad, x.is_leaf, x.grad_fn, x.grad)
y = x + 2
print(y, y.grad_fn.name(), y.is_leaf, y.requires_grad)
names = [(n.name() if n is not None else None, i) for n, i in y.grad_fn.next_functions]
print(names)
assert names == [("torch::autograd::AccumulateGrad", 0), (None, 0)]
assert y.grad_fn.next_functions[0][0].variable is x
""",
    "ch01 the number in a grad_fn name tells overloads apart (pow)": """
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
print([(x ** 2).grad_fn.name(), (x ** x).grad_fn.name(), (2 ** x).grad_fn.name()])
""",
    "ch01 requires_grad_() switches recording on later; integers cannot require grad": """
import torch
a = torch.tensor([1.0, 2.0, 3.0]); before = a * a; a.requires_grad_(True); after = a * a
print(before.requires_grad, before.grad_fn, after.grad_fn.name())
try:
    torch.tensor([1, 2]).requires_grad_()
except RuntimeError as e:
    print("RuntimeError:", e)
else:
    raise AssertionError("expected a RuntimeError")
""",
    "ch01 the blitz lines: z = y*y*3, out = z.mean(), x.grad = 4.5; its graph": """
import torch
x = torch.ones(2, 2, requires_grad=True); y = x + 2
z = y * y * 3; out = z.mean()
print(z, out, z.grad_fn.next_functions[1])
first_mul = z.grad_fn.next_functions[0][0]
assert first_mul.next_functions[0][0] is first_mul.next_functions[1][0] is y.grad_fn
out.backward(); print(x.grad)
""",
    "ch01 backward() = backward(tensor(1.)) = backward(tensor(1)); 3 triples; accumulation": """
import torch
def x_grad_after(*args):
    x = torch.ones(2, 2, requires_grad=True)
    ((x + 2) * (x + 2) * 3).mean().backward(*args)
    return x.grad
print(x_grad_after(), x_grad_after(torch.tensor(1.0)), x_grad_after(torch.tensor(1)))
print(x_grad_after(torch.tensor(3.0)))
w = torch.ones(2, requires_grad=True)
(w * 4.5).sum().backward(); (w * 4.5).sum().backward(); print(w.grad)
x = torch.ones(2, 2, requires_grad=True)
with torch.no_grad():
    e = x * 2
print(e.requires_grad, e.grad_fn)
""",
    "ch01 one backward of f(x).sum() gives every slope f'(x_i)": """
import torch
x = torch.linspace(-2, 2, 41, requires_grad=True)
(x ** 3 - 2 * x).sum().backward()
assert torch.allclose(x.grad, 3 * x.detach() ** 2 - 2, atol=1e-5)
print(x.grad[:3], x.grad[20])
""",
    "ch01 review: t*t grads, accumulation, no grad_fn means leaf": """
import torch
t = torch.tensor([1.0, 2.0], requires_grad=True)
(t * t).sum().backward(); print(t.grad); (t * 2).sum().backward(); print(t.grad)
m = torch.tensor(2.0) * 3; print(m.grad_fn, m.is_leaf)
""",
    # chapter 2
    "ch02 Q = 3a^3 - b^2: graph, the implicit-gradient error, external_grad, sum": """
import torch
a = torch.tensor([2.0, 3.0], requires_grad=True); b = torch.tensor([6.0, 4.0], requires_grad=True)
Q = 3 * a**3 - b**2
print(Q, Q.grad_fn.name(), [n.name() for n, _ in Q.grad_fn.next_functions])
try:
    Q.backward()
except RuntimeError as e:
    print("RuntimeError:", e)
else:
    raise AssertionError("expected a RuntimeError")
print(a.grad)
Q.backward(gradient=torch.tensor([1.0, 1.0])); print(a.grad, b.grad)
a2 = torch.tensor([2.0, 3.0], requires_grad=True)
try:
    (3 * a2**3).backward(torch.tensor([1.0, 1.0, 1.0]))
except RuntimeError as e:
    print("RuntimeError:", str(e)[:17])
else:
    raise AssertionError("expected a RuntimeError")
a3 = torch.tensor([2.0, 3.0], requires_grad=True); (3 * a3**3).backward(torch.tensor([1.0, 0.5]))
print(a3.grad)
""",
    "ch02 the gradient must have exactly the output's shape (no broadcasting either way)": """
import torch
a = torch.tensor([2.0, 3.0], requires_grad=True)
for g in (torch.tensor([1.0]), torch.ones(2, 2), torch.tensor(1.0), torch.ones(3)):
    try:
        (3 * a**3).backward(g)
    except RuntimeError as e:
        print("RuntimeError:", e)
    else:
        raise AssertionError("expected a RuntimeError")
""",
    "ch02 one-hot rows build J; backward(v) is v^T J; grad() returns it; L = sum y^2": """
import torch
def f(x):
    return torch.stack([x[0] * x[1], x[1] * x[2] + x[0] ** 2])
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True); y = f(x)
rows = []
for i in range(2):
    x.grad = None
    y.backward(torch.eye(2, dtype=y.dtype)[i], retain_graph=True)
    rows.append(x.grad.clone())
print(torch.stack(rows))
x.grad = None; y.backward(torch.tensor([1.0, 0.5])); print(x.grad)
print(torch.autograd.grad(f(x), x, torch.tensor([1.0, 0.5]))[0])
xb = torch.tensor([1.0, 2.0, 3.0], requires_grad=True); yb = f(xb); yb.backward(2 * yb.detach())
print(xb.grad)
""",
    "ch02 a broadcast bias gets the gradient summed over the batch; sum_to_size": """
import torch
torch.manual_seed(0)
X = torch.randn(4, 3)
bias = torch.zeros(3, requires_grad=True)
G = torch.arange(12.0).reshape(4, 3)
(X + bias).backward(G); print(bias.grad, G.sum_to_size(3))
bias13 = torch.zeros(1, 3, requires_grad=True); (X + bias13).backward(G)
print(bias13.grad, G.sum_to_size(1, 3))
print(torch.ones(2, 3, 4).sum_to_size(3, 1))
b8 = torch.zeros(3, requires_grad=True); (torch.ones(8, 3) + b8).sum().backward(); print(b8.grad)
r = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
(r * r).backward(torch.tensor([1.0, 0.0, 2.0])); print(r.grad)
""",
    # chapter 3
    "ch03 leaves and roots; the walk reaches a's AccumulateGrad twice, the same node": """
import torch
a = torch.tensor([2.0, 3.0], requires_grad=True); b = torch.tensor([6.0, 4.0], requires_grad=True)
c = a * b; d = c + a; L = d.sum()
print([t.is_leaf for t in (a, b, c, d, L)], [t.grad_fn.name() for t in (c, d, L)])
assert c.grad_fn.next_functions[0][0] is d.grad_fn.next_functions[1][0]
visited, stack = [], [L.grad_fn]
while stack:
    node = stack.pop(); visited.append(node.name())
    stack.extend(n for n, _ in reversed(node.next_functions) if n is not None)
print(visited, len(set(map(id, [c.grad_fn.next_functions[0][0], d.grad_fn.next_functions[1][0]]))))
L.backward(); print(a.grad, b.grad)
""",
    "ch03 dynamic graphs: loop and branch follow the data; a new graph per call": """
import torch
def f(x):
    h = x
    while h.norm() < 10:
        h = h * 3
    if h.sum() > 0:
        return h.sum()
    return (h * h).mean()
x1 = torch.tensor([1.0, 2.0], requires_grad=True)
x2 = torch.tensor([-0.1, 0.05], requires_grad=True)
out1, out2 = f(x1), f(x2)
print(out1.grad_fn.name(), out2.grad_fn.name())
out1.backward(); out2.backward(); print(x1.grad, x2.grad)
x4 = torch.tensor([4.0, 4.0], requires_grad=True); f(x4).backward(); print(x4.grad)
first, second = (x1 * x1).sum(), (x1 * x1).sum()
first.backward()
try:
    first.backward()
except RuntimeError as e:
    print("RuntimeError:", str(e)[:50])
else:
    raise AssertionError("expected a RuntimeError")
second.backward(); print(x1.grad)
""",
    "ch03 shapes that change between iterations: w.grad keeps w's shape": """
import torch
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
torch.manual_seed(0)
for n in [1, 4, 2]:
    X = torch.randn(n, 3)
    scores = X @ w
    w.grad = None
    scores.tanh().sum().backward()
    print(tuple(scores.shape), tuple(w.grad.shape), w.grad)
""",
    "ch03 hooks: None keeps the gradient, a returned tensor replaces it": """
import torch
a = torch.tensor([2.0, 3.0], requires_grad=True); b = torch.tensor([6.0, 4.0], requires_grad=True)
c = a * b; d = c + a
seen = {}
c.register_hook(lambda grad: seen.setdefault("c", grad.clone()))
d.register_hook(lambda grad: grad * 2)
d.sum().backward(); print(seen["c"], a.grad, b.grad)
u = torch.tensor([1.0, 2.0], requires_grad=True); t = u * 5
t.register_hook(lambda grad: grad * 0); (t * t).sum().backward(); print(u.grad)
p = torch.tensor(1.0, requires_grad=True); q = p * 2; r = q * q
print(r.grad_fn.next_functions[0][0] is r.grad_fn.next_functions[1][0]); r.backward(); print(p.grad)
""",
    # chapter 4
    "ch04 note 002's network with seed 0: values, graph, gradients": """
import torch
torch.manual_seed(0)
x = torch.ones(5); y = torch.zeros(3)
w = torch.randn(5, 3, requires_grad=True); b = torch.randn(3, requires_grad=True)
z = torch.matmul(x, w) + b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
print(z, loss)
def edge_names(node):
    return [(fn.name() if fn is not None else None) for fn, _ in node.next_functions]
add = loss.grad_fn.next_functions[0][0]; squeeze = add.next_functions[0][0]
mm = squeeze.next_functions[0][0]
for node in (loss.grad_fn, add, squeeze, mm):
    print(node.name(), edge_names(node))
loss.backward(); print(w.grad, b.grad)
assert torch.allclose(b.grad, torch.sigmoid(z.detach()) / 3)
print(torch.equal(w.detach(), (torch.manual_seed(0), torch.randn(5, 3))[1]))
with torch.no_grad():
    new = torch.nn.functional.binary_cross_entropy_with_logits(x @ (w - w.grad) + (b - b.grad), y)
print(new < loss)
""",
    "ch04 only leaves keep .grad; retain_grad; a second backward; retain_graph adds": """
import warnings
import torch
torch.manual_seed(0)
x = torch.ones(5); y = torch.zeros(3)
w = torch.randn(5, 3, requires_grad=True); b = torch.randn(3, requires_grad=True)
z = x @ w + b
torch.nn.functional.binary_cross_entropy_with_logits(z, y).backward()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(z.grad, "retain_grad()" in str(caught[0].message))
z = x @ w + b; z.retain_grad()
torch.nn.functional.binary_cross_entropy_with_logits(z, y).backward(); print(z.retains_grad, z.grad)
loss = torch.nn.functional.binary_cross_entropy_with_logits(x @ w + b, y); loss.backward()
try:
    loss.backward()
except RuntimeError as e:
    print(str(e))
else:
    raise AssertionError("expected a RuntimeError")
w.grad = None
loss = torch.nn.functional.binary_cross_entropy_with_logits(x @ w + b, y)
loss.backward(retain_graph=True); first = w.grad.clone(); loss.backward()
print(torch.allclose(w.grad, 2 * first))
s = torch.tensor([1.0, 2.0], requires_grad=True); total = (s + 2).sum()
total.backward(); total.backward(); print(s.grad)
""",
    "ch04 accumulation; zero_() before the first backward fails; zero_() keeps the tensor": """
import torch
inp = torch.eye(5, requires_grad=True)
out = (inp + 1).pow(2)
try:
    inp.grad.zero_()
except AttributeError as e:
    print("AttributeError:", e)
else:
    raise AssertionError("expected an AttributeError")
out.backward(torch.ones_like(inp), retain_graph=True)
out.backward(torch.ones_like(inp), retain_graph=True)
g = inp.grad; inp.grad.zero_(); out.backward(torch.ones_like(inp), retain_graph=True)
print(inp.grad, inp.grad is g)
inp.grad = None; out.backward(torch.ones_like(inp), retain_graph=True); print(inp.grad is not g)
opt = torch.optim.SGD([inp], lr=0.1); opt.zero_grad(); print(inp.grad)
q = torch.tensor([3.0], requires_grad=True); sq = (q * q).sum()
sq.backward(retain_graph=True); sq.backward(); print(q.grad)
""",
    "ch04 exercise 4.3: the second backward through a shared graph needs retain_graph": """
import torch
torch.manual_seed(0)
w = torch.randn(3, 2, requires_grad=True); x = torch.randn(4, 3)
h = x @ w
first, second = (h.tanh() ** 2).sum(), (h * h).mean()
first.backward()
try:
    second.backward()
except RuntimeError as e:
    print("RuntimeError:", str(e)[:50])
else:
    raise AssertionError("expected a RuntimeError")
""",
}


@pytest.mark.parametrize("claim", sorted(CLAIMS))
def test_claim_holds_in_pytorch_and_here(claim, torch_oracle):
    code = CLAIMS[claim]
    theirs = run(code, "torch")
    assert run(code, "ag") == theirs


def test_ch03_nodes_save_what_the_chapter_says(torch_oracle):
    torch = torch_oracle
    a = torch.tensor([2.0, 3.0], requires_grad=True)
    b = torch.tensor([6.0, 4.0], requires_grad=True)
    c = a * b
    d = c + a
    total = d.sum()
    saved = {n: sorted(k for k in dir(t.grad_fn) if k.startswith("_saved"))
             for n, t in (("mul", c), ("add", d), ("sum", total))}
    assert saved == {"mul": ["_saved_other", "_saved_self"], "add": ["_saved_alpha"],
                     "sum": ["_saved_self_sym_sizes"]}  # Add keeps a number, Sum a shape
    assert torch.equal(c.grad_fn._saved_self, a) and torch.equal(c.grad_fn._saved_other, b)


def test_ch04_nodes_keep_what_the_chapter_says(torch_oracle):
    """Section 4: the loss node keeps z and y; the matrix product keeps x (w is not needed)."""
    torch = torch_oracle
    torch.manual_seed(0)
    x, y = torch.ones(5), torch.zeros(3)
    w = torch.randn(5, 3, requires_grad=True)
    b = torch.randn(3, requires_grad=True)
    z = x @ w + b
    loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
    assert torch.equal(loss.grad_fn._saved_self, z) and torch.equal(loss.grad_fn._saved_target, y)
    mm = z.grad_fn.next_functions[0][0].next_functions[0][0]
    assert mm.name() == "MmBackward0"
    assert torch.equal(mm._saved_self, x.unsqueeze(0)) and mm._saved_mat2 is None


def test_ch03_backward_order_and_gradients_per_node(torch_oracle):
    """Chapter 3, section 4: Sum, Add, Mul, a's AccumulateGrad (once, with [7, 5]), b's."""
    torch = torch_oracle
    a = torch.tensor([2.0, 3.0], requires_grad=True)
    b = torch.tensor([6.0, 4.0], requires_grad=True)
    c = a * b
    d = c + a
    total = d.sum()
    nodes = {"Sum": total.grad_fn, "Add": d.grad_fn, "Mul": c.grad_fn,
             "a": c.grad_fn.next_functions[0][0], "b": c.grad_fn.next_functions[1][0]}
    fired = []
    for name, node in nodes.items():
        node.register_prehook(lambda grads, name=name: fired.append(
            (name, [g.tolist() for g in grads if g is not None])))
    total.backward()
    assert fired == [("Sum", [1.0]), ("Add", [[1.0, 1.0]]), ("Mul", [[1.0, 1.0]]),
                     ("a", [[7.0, 5.0]]), ("b", [[2.0, 3.0]])]
    import autograd_course as ag

    a2 = ag.tensor([2.0, 3.0], requires_grad=True)
    b2 = ag.tensor([6.0, 4.0], requires_grad=True)
    frames = ag.viz.backward_steps((a2 * b2 + a2).sum(), params={"a": a2, "b": b2})
    ours = [f.node.name() for f in frames]
    assert ours == ["SumBackward0", "AddBackward0", "MulBackward0",
                    "torch::autograd::AccumulateGrad", "torch::autograd::AccumulateGrad"]
    assert [f.node.name() for f in frames] == [n.name() for n in nodes.values()]


# --- the chapters' glossaries ----------------------------------------------------------------
SEEDS = Path(os.environ.get("AUTOGRAD_COURSE_SEEDS", "/work/shared/seeds"))
OWN_WORDS_HEADER = "the notes' own words"
STANDARD_HEADER = "standard term"
CHAPTERS = sorted(NOTEBOOKS.glob("0[0-4]_*.ipynb"))


def _notes() -> dict[str, str]:
    files = {p.name[:3]: p.read_text(encoding="utf-8") for p in SEEDS.glob("00[0-2]_*.txt")}
    if len(files) != 3:
        pytest.skip(f"the three notes are not in {SEEDS} (set AUTOGRAD_COURSE_SEEDS)")
    return files


def _tables(path: Path, header: str) -> list[list[list[str]]]:
    """Rows (as cell lists) of every markdown table whose first header cell starts with header."""
    tables = []
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type != "markdown":
            continue
        rows = None
        for line in cell.source.splitlines():
            if not line.startswith("|"):
                rows = None
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if rows is None:
                rows = [] if cells[0].lower().startswith(header) else False
                if rows is not False:
                    tables.append(rows)
            elif rows is not False and not set(cells[0]) <= set("-: "):
                rows.append(cells)
    return tables


def _own_words(path: Path) -> list[tuple[str, list[str]]]:
    """(word, notes it is claimed to be in) for each word of each 'notes' own words' row."""
    pairs = []
    for table in _tables(path, OWN_WORDS_HEADER):
        for row in table:
            words = [w.strip() for w in row[0].split("/")]
            in_note = row[1] if re.fullmatch(r"[\d,/ ]+", row[1]) else None
            if in_note is None:  # chapter 1's table names its one note in the header
                notes = [["001"]] * len(words)
            else:
                groups = [g.strip() for g in in_note.split("/")]
                if len(groups) == 1:
                    groups = groups * len(words)
                notes = [[n.strip() for n in g.split(",")] for g in groups]
            assert len(notes) == len(words), row
            pairs += [(w, n) for w, n in zip(words, notes)]
    return pairs


# Chapter 0's glossary moved to the appendix (issue 46): its tables are checked there.
GLOSSARIES = [p for p in CHAPTERS if not p.name.startswith("00_")] + [
    NOTEBOOKS / "appendix_map.ipynb"]


@pytest.mark.parametrize("path", GLOSSARIES, ids=lambda p: p.name)
def test_the_notes_own_words_are_in_the_notes(path):
    notes = _notes()
    pairs = _own_words(path)
    assert pairs, f"{path.name} has no table of the notes' own words"
    missing = [(w, n) for w, ns in pairs for n in ns if w not in notes[n]]
    assert not missing, f"listed as the notes' words but not in that note: {missing}"


@pytest.mark.parametrize("path", GLOSSARIES, ids=lambda p: p.name)
def test_standard_terms_are_not_the_notes_words(path):
    notes = _notes()
    for table in _tables(path, STANDARD_HEADER):
        for row in table:
            for phrase in re.split(r"[,/()]+", row[1]):
                # A standard term may qualify a note's word with a Latin name: the notes say
                # 动量, never "Nesterov 动量". Such a phrase is checked whole; every other
                # phrase word by word.
                words = [phrase.strip()] if re.search("[A-Za-z]", phrase) else phrase.split()
                for word in words:
                    if re.search(r"[\u4e00-\u9fff]", word):
                        assert not any(word in text for text in notes.values()), (
                            f"{word!r} is in a note: list it with the notes' own words")


def test_the_note_titles_are_the_notes_own():
    notes = _notes()
    titles = (NOTEBOOKS.parent / "docs" / "NOTES_TITLES.md").read_text(encoding="utf-8")
    assert notes["001"].startswith("Ch01-02.自动求导(Pytorch入门)")
    assert "*Ch01-02.自动求导(Pytorch入门)*" in titles
    assert "pytorch学习笔记（5）--Autograd" in notes["002"].splitlines()[0]
    assert "*pytorch学习笔记（5）--Autograd*" in titles
    assert notes["000"].startswith("前言") and "untitled (it opens with the heading 前言)" in titles
    for path in CHAPTERS:
        text = "\n".join(c.source for c in nbformat.read(path, as_version=4).cells)
        assert "pytorch学习笔记 — torch.autograd" not in text  # the old invented title


@pytest.mark.parametrize("edition, stated, unit", [
    ("", r"\*Time: about (\d+) minutes\.\*", "min"),
    ("zh", r"\*用时：约 (\d+) 分钟。\*", "分钟"),
])
def test_chapter_0_map_states_each_chapters_own_time(edition, stated, unit):
    """The map (moved from chapter 0 to the appendix) gives each chapter its own time."""
    folder = NOTEBOOKS / edition
    cells = nbformat.read(folder / "appendix_map.ipynb", as_version=4).cells
    table = next(c.source for c in cells if re.search(r"^\| 1 \|", c.source, re.M))
    chapters = sorted(folder.glob("[0-9][0-9]_*.ipynb"))[1:]
    assert len(chapters) == 13
    for path in chapters:
        first = nbformat.read(path, as_version=4).cells[0].source
        minutes = re.search(stated, first).group(1)
        number = int(path.name[:2])
        row = next((line for line in table.splitlines() if line.startswith(f"| {number} |")),
                   None)
        assert row is not None, f"chapter 0's map has no row for chapter {number}"
        assert f"| {minutes} {unit} |" in row, (path.name, row)
