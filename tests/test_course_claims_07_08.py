"""What chapters 7 and 8 say about PyTorch, checked against PyTorch itself (the oracle); and
the glossaries and note titles of chapters 5 to 8, checked against the notes.

Each test runs the chapter's example twice, once with ``torch`` and once with our package, and
asserts the claim the chapter makes for both, so the prose cannot drift from PyTorch.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import numpy as np
import pytest

import autograd_course as ag

nbformat = pytest.importorskip("nbformat")


@pytest.fixture(params=["ag", "torch"])
def lib(request):
    """Our package, then PyTorch (the second is skipped where torch is not installed)."""
    return ag if request.param == "ag" else request.getfixturevalue("torch_oracle")


def _name(fn):
    """A node's name, as PyTorch spells it (``AccumulateGrad`` without its namespace)."""
    return None if fn is None else fn.name().replace("torch::autograd::", "")


# --- chapter 7 ------------------------------------------------------------------------------
def _sgd_run(lib, p0, loss_fn, steps, **options):
    p = lib.tensor(p0, dtype=lib.float64, requires_grad=True)
    optimizer = lib.optim.SGD([p], **options)
    history = []
    for _ in range(steps):
        optimizer.zero_grad()
        loss_fn(p).backward()
        optimizer.step()
        history.append(p.tolist())
    return np.array(history)


def _momentum_by_hand(p0, grad_fn, steps, lr, momentum, nesterov=False):
    """SGD with momentum as chapter 7 (and exercise 7.1's solution) writes it, in NumPy."""
    p, buf, history = np.array(p0, dtype=np.float64), None, []
    for _ in range(steps):
        g = grad_fn(p)
        buf = g.copy() if buf is None else momentum * buf + g
        p = p - lr * ((g + momentum * buf) if nesterov else buf)
        history.append(p.copy())
    return np.array(history)


@pytest.mark.parametrize("nesterov", [False, True])
def test_ch07_momentum_and_nesterov_as_the_chapter_writes_them(lib, nesterov):
    a = np.array([[2.0, 0.5], [0.3, 1.5]])
    got = _sgd_run(lib, [1.0, -2.0], lambda p: ((lib.tensor(a) @ p) ** 2).sum() / 2, 6,
                   lr=0.05, momentum=0.9, nesterov=nesterov)
    want = _momentum_by_hand([1.0, -2.0], lambda p: a.T @ (a @ p), 6, 0.05, 0.9, nesterov)
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_ch07_the_first_momentum_step_is_plain_gradient_descent(lib):
    got = _sgd_run(lib, [1.0, 2.0], lambda p: (p ** 2).sum(), 3, lr=0.01, momentum=0.9)
    np.testing.assert_allclose(got[:2], [[0.98, 1.96], [0.9424, 1.8848]], rtol=1e-12)
    np.testing.assert_allclose(got[2], [0.889712, 1.779424], rtol=1e-12)


def test_ch07_step_skips_parameters_without_grad_and_accumulation(lib):
    used = lib.tensor([1.0], requires_grad=True)
    unused = lib.tensor([1.0], requires_grad=True)
    opt = lib.optim.SGD([used, unused], lr=0.1, momentum=0.9)
    (used * 3).sum().backward()
    opt.step()
    assert unused.item() == 1.0 and unused.grad is None and used.item() != 1.0
    p = lib.tensor([1.0], dtype=lib.float64, requires_grad=True)
    opt = lib.optim.SGD([p], lr=0.1)
    (p ** 2).sum().backward()
    (p ** 2).sum().backward()
    opt.step()
    assert np.isclose(p.grad.item(), 4.0) and np.isclose(p.item(), 0.6)


def test_ch07_learning_rates(lib):
    for lr, factor in ((0.01, 0.98), (0.3, 0.4), (1.05, -1.1), (1.0, -1.0)):
        got = _sgd_run(lib, [2.0], lambda p: (p ** 2).sum(), 20, lr=lr)[:, 0]
        np.testing.assert_allclose(got, 2.0 * factor ** np.arange(1, 21), rtol=1e-9, atol=1e-15)


def test_ch07_step_lr(lib):
    opt = lib.optim.SGD([lib.tensor([1.0], requires_grad=True)], lr=0.05)
    sched = lib.optim.lr_scheduler.StepLR(opt, step_size=10, gamma=0.1)
    for _ in range(15):
        opt.step()
        sched.step()
    assert np.isclose(opt.param_groups[0]["lr"], 0.005)


def test_ch07_fine_tuning_head_only_backward(lib):
    """Freezing everything below a new last layer: only that layer moves."""
    lib.manual_seed(0)
    body = lib.nn.Linear(4, 3)
    for p in body.parameters():
        p.requires_grad_(False)
    head = lib.nn.Linear(3, 2)
    model = lib.nn.Sequential(body, head)
    opt = lib.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    before = [p.detach().clone() for p in model.parameters()]
    lib.nn.functional.cross_entropy(model(lib.rand(5, 4)), lib.tensor([0, 1, 0, 1, 1])).backward()
    opt.step()
    moved = [not lib.equal(p, q) for p, q in zip(model.parameters(), before)]
    assert moved == [False, False, True, True] and body.weight.grad is None


# --- chapter 8 ------------------------------------------------------------------------------
NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def _cell_containing(path: Path, text: str) -> str:
    cells = [c.source for c in nbformat.read(path, as_version=4).cells
             if c.cell_type == "code" and text in c.source]
    assert len(cells) == 1, cells
    return cells[0]


@pytest.fixture
def fake_gpu(monkeypatch):
    from fake_cupy import make_module

    from autograd_course import _backend

    module = make_module()
    monkeypatch.setattr(_backend, "_cupy", module)
    monkeypatch.setitem(sys.modules, "cupy", module)
    return "cuda"


def test_ch08_the_device_errors_cell_checks_both_messages_on_a_gpu(fake_gpu):
    """Chapter 8's cell with the two device errors, run with device = 'cuda' (simulated)."""
    source = _cell_containing(NOTEBOOKS / "08_gpu.ipynb", "Expected all tensors to be on")
    exec(compile(source, "<ch08 device errors>", "exec"), {"ag": ag, "np": np, "device": "cuda"})
    # and its else branches fail when no error comes
    tampered = source.replace("a + b\n", "a.cpu() + b\n", 1)
    with pytest.raises(AssertionError, match="should raise"):
        exec(compile(tampered, "<tampered>", "exec"), {"ag": ag, "np": np, "device": "cuda"})


def test_ch08_numpy_message_is_pytorchs(torch_oracle):
    with pytest.raises(TypeError) as err:
        torch_oracle.ones(3, device="meta").numpy()
    assert str(err.value) == ("can't convert meta device type tensor to numpy. Use Tensor.cpu() "
                              "to copy the tensor to host memory first.")


def test_ch08_mixed_device_message_is_pytorchs(torch_oracle):
    """A CPU build of PyTorch cannot raise it, but the message text is in its library."""
    lib = Path(torch_oracle.__file__).parent / "lib"
    text = b"Expected all tensors to be on the same device, but found at least two devices"
    found = [p.name for p in lib.glob("libtorch_cpu*") if text in p.read_bytes()]
    assert found, f"PyTorch's library in {lib} lacks the message"


def test_ch08_to_and_module_to(lib):
    t = lib.ones(3)
    assert t.to("cpu") is t and t.cpu() is t
    net = lib.nn.Linear(2, 2)
    assert net.to("cpu") is net
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    (x * x).sum().backward()
    assert x.grad.device == x.device and x.grad.tolist() == [2.0, 4.0]
    value = (lib.ones(4) * 0.25).sum().item()
    assert type(value) is float and value == 1.0


# --- the glossaries and note titles of chapters 5 to 8 ---------------------------------------
SEEDS = Path(os.environ.get("AUTOGRAD_COURSE_SEEDS", "/work/shared/seeds"))
CHAPTERS = sorted(NOTEBOOKS.glob("0[5-8]_*.ipynb"))


def _notes() -> dict[str, str]:
    files = {p.name[:3]: p.read_text(encoding="utf-8") for p in SEEDS.glob("00[0-2]_*.txt")}
    if len(files) != 3:
        pytest.skip(f"the three notes are not in {SEEDS} (set AUTOGRAD_COURSE_SEEDS)")
    return files


def _table_rows(path: Path, header: str) -> list[list[str]]:
    rows, inside = [], False
    for cell in nbformat.read(path, as_version=4).cells:
        for line in cell.source.splitlines() if cell.cell_type == "markdown" else ():
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not line.startswith("|"):
                inside = False
            elif cells[0].lower().startswith(header):
                inside = True
            elif inside and not set(cells[0]) <= set("-: "):
                rows.append(cells)
    return rows


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_ch05_08_the_notes_own_words_are_in_the_notes(path):
    notes = _notes()
    rows = _table_rows(path, "the notes' own words")
    assert rows, f"{path.name} has no table of the notes' own words"
    missing = []
    for row in rows:
        words = [w.strip() for w in row[0].split("/")]
        groups = [g.strip() for g in row[1].split("/")]
        groups = groups * len(words) if len(groups) == 1 else groups
        assert len(groups) == len(words), row
        missing += [(w, n) for w, g in zip(words, groups)
                    for n in (x.strip() for x in g.split(",")) if w not in notes[n]]
    assert not missing, f"listed as the notes' words but not in that note: {missing}"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_ch05_08_standard_terms_are_not_the_notes_words(path):
    notes = _notes()
    rows = _table_rows(path, "standard term")
    assert rows, f"{path.name} has no table of standard terms"
    for row in rows:
        for word in re.split(r"[,/(), ]+", row[1]):
            if re.search(r"[\u4e00-\u9fff]", word):
                assert not any(word in text for text in notes.values()), word


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_ch05_08_note_titles_are_the_notes_own(path):
    text = "\n".join(c.source for c in nbformat.read(path, as_version=4).cells)
    wrong_titles = ("torch.autograd 学习笔记", "*Ch01-02 自动求导*",
                    "pytorch学习笔记 — torch.autograd")
    for wrong in wrong_titles:
        assert wrong not in text
    for title in re.findall(r"note 00\d \(\*([^*]+)\*\)", text):
        assert title in ("Ch01-02.自动求导(Pytorch入门)", "pytorch学习笔记（5）--Autograd"), title
    if "note 000" in text:
        assert "note 000 (untitled; it opens with 前言)" in text
