"""What chapters 5 to 8 say about PyTorch, checked against PyTorch itself (the oracle).

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
def lib(request, torch_oracle):
    return ag if request.param == "ag" else torch_oracle


def _name(fn):
    """A node's name, as PyTorch spells it (``AccumulateGrad`` without its namespace)."""
    return None if fn is None else fn.name().replace("torch::autograd::", "")


# --- chapter 5 ------------------------------------------------------------------------------
def test_ch05_no_grad_records_nothing_and_restores_the_mode(lib):
    w = lib.ones(5, 3, requires_grad=True)
    with lib.no_grad():
        inside = lib.matmul(lib.ones(5), w)
        assert not lib.is_grad_enabled()
    assert lib.is_grad_enabled() and w.requires_grad
    assert not inside.requires_grad and inside.grad_fn is None and inside.is_leaf


def test_ch05_the_three_other_switches(lib):
    x = lib.ones(2, requires_grad=True)

    @lib.no_grad()
    def predict(t):
        return t * 2

    with lib.set_grad_enabled(False):
        p2 = x * 2
    with lib.no_grad():
        with lib.enable_grad():
            p3 = x * 2
    assert (predict(x).requires_grad, p2.requires_grad, p3.requires_grad) == (False, False, True)


def test_ch05_in_place_update_of_a_leaf(lib):
    w = lib.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError,
                       match="a leaf Variable that requires grad is being used in an in-place"):
        w.sub_(0.1)
    with lib.no_grad():
        w.sub_(0.1)
    assert np.allclose(w.tolist(), [0.9, 1.9]) and w.is_leaf and w.requires_grad


def _node_names(root):
    seen, stack = [], [root.grad_fn]
    while stack:
        node = stack.pop()
        if node is not None:
            seen.append(_name(node))
            stack.extend(fn for fn, _ in node.next_functions)
    return seen


def test_ch05_matmul_of_a_vector_is_a_matrix_product_then_a_squeeze(lib):
    w = lib.ones(5, 3, requires_grad=True)
    assert _node_names(lib.matmul(lib.ones(5), w)) == \
        ["SqueezeBackward4", "MmBackward0", "AccumulateGrad"]
    # the unsqueeze of the vector is recorded only when the vector itself requires grad
    assert _node_names(lib.matmul(lib.ones(5, requires_grad=True), w)) == \
        ["SqueezeBackward4", "MmBackward0", "AccumulateGrad", "UnsqueezeBackward0",
         "AccumulateGrad"]


def test_ch05_detach_shares_memory_and_the_version_counter(lib):
    z = lib.ones(3, requires_grad=True) * 2
    d = z.detach()
    assert d.data_ptr() == z.data_ptr() and not d.requires_grad and d.grad_fn is None
    d[0] = 100.0
    assert z[0].item() == 100.0 and z._version == d._version == 1


def test_ch05_write_through_a_detached_alias_is_caught(lib):
    z = lib.matmul(lib.ones(5), lib.ones(5, 3, requires_grad=True)) + lib.ones(3)
    loss = lib.nn.functional.binary_cross_entropy_with_logits(z, lib.zeros(3))
    z.detach()[0] = 0.0
    with pytest.raises(RuntimeError, match="modified by an inplace operation") as err:
        loss.backward()
    assert "output 0 of Add" in str(err.value)


def test_ch05_clone_copies_but_stays_in_the_graph(lib):
    z = lib.ones(3, requires_grad=True) * 2
    c = z.clone()
    assert c.data_ptr() != z.data_ptr() and c.requires_grad and _name(c.grad_fn) == "CloneBackward0"
    snap = z.detach().clone()
    z.detach().mul_(3)
    assert snap.tolist() == [2.0, 2.0, 2.0] and not snap.requires_grad


def test_ch05_detach_in_the_middle_of_a_graph(lib):
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    out = ((a * 3).detach() * a).sum()
    names = [_name(fn) for fn, _ in out.grad_fn.next_functions[0][0].next_functions]
    out.backward()
    a2 = lib.tensor([1.0, 2.0], requires_grad=True)
    ((a2 * 3) * a2).sum().backward()
    assert a.grad.tolist() == [3.0, 6.0] and a2.grad.tolist() == [6.0, 12.0]
    assert names == [None, "AccumulateGrad"]


def test_ch05_a_frozen_input_has_no_edge(lib):
    w = lib.tensor([1.0, 2.0])
    x = lib.tensor([3.0, 4.0], requires_grad=True)
    y = w * x
    assert [(_name(fn), nr) for fn, nr in y.grad_fn.next_functions] == \
        [(None, 0), ("AccumulateGrad", 0)]
    y.sum().backward()
    assert w.grad is None and x.grad.tolist() == [1.0, 2.0]


def test_ch05_only_leaves_can_be_frozen(lib):
    hidden = lib.ones(4, 3) @ lib.ones(3, 5, requires_grad=True)
    with pytest.raises(RuntimeError) as err:
        hidden.requires_grad_(False)
    assert "only change requires_grad flags of leaf variables" in str(err.value)
    assert "detach()" in str(err.value)


def test_ch05_straight_through_clamp(lib):
    x = lib.tensor([-0.5, 0.25, 1.5], requires_grad=True)
    y = x + (x.clamp(0, 1) - x).detach()
    y.sum().backward()
    assert y.tolist() == [0.0, 0.25, 1.0] and x.grad.tolist() == [1.0, 1.0, 1.0]
    x2 = lib.tensor([-0.5, 0.25, 1.5], requires_grad=True)
    x2.clamp(0, 1).sum().backward()
    assert x2.grad.tolist() == [0.0, 1.0, 0.0]


def test_ch05_review_no_grad_decorator_with_enable_grad_inside(lib):
    @lib.no_grad()
    def doubled(t):
        with lib.enable_grad():
            return t * 2

    assert doubled(lib.tensor([1.0], requires_grad=True)).requires_grad
    assert lib.is_grad_enabled()


# --- chapter 6 ------------------------------------------------------------------------------
def _function_base(lib):
    return lib.autograd.Function


def _mul_constant(lib, fixed: bool):
    class MulConstant(_function_base(lib)):
        @staticmethod
        def forward(ctx, tensor, constant):
            ctx.constant = constant
            return tensor * constant

        @staticmethod
        def backward(ctx, grad_output):
            return (grad_output * ctx.constant if fixed else grad_output), None

    return MulConstant


def _my_exp(lib, sloppy: bool = False):
    class MyExp(_function_base(lib)):
        @staticmethod
        def forward(ctx, x):
            y = x.exp()
            if sloppy:
                ctx.y = y
            else:
                ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, grad_output):
            y = ctx.y if sloppy else ctx.saved_tensors[0]
            return grad_output * y

    return MyExp


def test_ch06_the_notes_mul_constant_gives_ones_and_fails_gradcheck(lib):
    note = _mul_constant(lib, fixed=False)
    a = lib.rand(3, 3, requires_grad=True)
    b = note.apply(a, 5)
    assert b.grad_fn.name() == "MulConstantBackward"
    assert [_name(fn) for fn, _ in b.grad_fn.next_functions] == ["AccumulateGrad"]
    b.backward(lib.ones_like(a))
    assert (a.grad == 1).all()
    a64 = lib.rand(3, dtype=lib.float64, requires_grad=True)
    error = ag.autograd.GradcheckError if lib is ag else RuntimeError  # torch's is a subclass
    with pytest.raises(error, match="Jacobian mismatch for output 0 with respect to input 0"):
        lib.autograd.gradcheck(note.apply, (a64, 5))
    assert lib.autograd.gradcheck(note.apply, (a64, 5), raise_exception=False) is False
    assert lib.autograd.gradcheck(_mul_constant(lib, fixed=True).apply, (a64, 5))


def test_ch06_gradcheck_in_float32_warns_and_fails(lib):
    a32 = lib.rand(3, requires_grad=True)
    with pytest.warns(UserWarning, match="not a double precision"):
        ok = lib.autograd.gradcheck(lambda t: t * 5, (a32,), raise_exception=False)
    assert ok is False


def test_ch06_needs_input_grad(lib):
    seen = []

    class ShowNeeds(_function_base(lib)):
        @staticmethod
        def forward(ctx, x, y, k):
            seen.append(tuple(ctx.needs_input_grad))
            return x * y * k

        @staticmethod
        def backward(ctx, grad_output):
            return None, None, None

    ShowNeeds.apply(lib.ones(2, requires_grad=True), lib.ones(2), 3)
    ShowNeeds.apply(lib.ones(2), lib.ones(2, requires_grad=True), 3)
    assert seen == [(True, False, False), (False, True, False)]


def test_ch06_saved_output_modified_in_place(lib):
    y = _my_exp(lib).apply(lib.tensor([0.0, 1.0], requires_grad=True))
    y.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation") as err:
        y.sum().backward()
    assert "output 0 of MyExp" in str(err.value)
    x = lib.tensor([0.0, 1.0], requires_grad=True)
    y = _my_exp(lib, sloppy=True).apply(x)
    y.add_(1)
    y.sum().backward()                      # no error, and a wrong gradient
    assert not np.allclose(x.grad.tolist(), x.detach().exp().tolist())


def test_ch06_saved_tensors_freed_and_retain_graph(lib):
    exp = _my_exp(lib)
    y = exp.apply(lib.tensor([0.0, 1.0], requires_grad=True))
    y.sum().backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        y.grad_fn.saved_tensors  # noqa: B018
    x = lib.tensor([0.0, 1.0], requires_grad=True)
    y = exp.apply(x)
    y.sum().backward(retain_graph=True)
    y.sum().backward()
    assert np.allclose(x.grad.tolist(), (2 * x.detach().exp()).tolist())


def test_ch06_storing_the_output_on_ctx_makes_a_cycle(lib):
    import gc
    import weakref

    def node_outlives_output(function):
        gc.disable()
        try:
            out = function.apply(lib.tensor([0.0, 1.0], requires_grad=True))
            node = weakref.ref(out.grad_fn)
            del out
            return node() is not None
        finally:
            gc.enable()

    assert not node_outlives_output(_my_exp(lib))
    assert node_outlives_output(_my_exp(lib, sloppy=True))
    gc.collect()


def test_ch06_mul_saves_only_what_backward_needs(torch_oracle):
    p = torch_oracle.tensor([1.0, 2.0], requires_grad=True)
    node = (p * torch_oracle.tensor([3.0, 4.0])).grad_fn
    assert node._saved_self is None and node._saved_other.tolist() == [3.0, 4.0]
    saved = (ag.tensor([1.0, 2.0], requires_grad=True) * ag.tensor([3.0, 4.0])).grad_fn
    assert saved.saved_tensors[0] is None and saved.saved_tensors[1].tolist() == [3.0, 4.0]


def test_ch06_one_gradient_for_two_inputs(lib):
    class OneGrad(_function_base(lib)):
        @staticmethod
        def forward(ctx, a, b):
            return a * b

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output

    out = OneGrad.apply(lib.ones(2, requires_grad=True), lib.ones(2, requires_grad=True))
    with pytest.raises(RuntimeError, match=r"incorrect number of gradients \(expected 2, got 1\)"):
        out.sum().backward()


def test_ch06_softplus_derivative_is_the_sigmoid(torch_oracle):
    x = torch_oracle.linspace(-3, 3, 7, dtype=torch_oracle.float64, requires_grad=True)
    torch_oracle.nn.functional.softplus(x).sum().backward()
    assert torch_oracle.allclose(x.grad, torch_oracle.sigmoid(x.detach()))


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
