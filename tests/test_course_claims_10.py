"""What chapter 10 (autograd's power tools) says about PyTorch, checked against PyTorch itself.

Each test runs the chapter's example with our package and with ``torch`` (the oracle) and
asserts the claim for both, so the prose cannot drift from PyTorch: the order in which the four
kinds of hooks run and what they may return, what a forward saves (in bytes), offloading, the
numbers of checkpoint_sequential, anomaly mode's error and warnings, and what each tool of
``autograd.functional`` costs in backward passes.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import autograd_course as ag


@pytest.fixture(params=["ag", "torch"])
def lib(request):
    """Our package, then PyTorch (the second is skipped where torch is not installed)."""
    return ag if request.param == "ag" else request.getfixturevalue("torch_oracle")


def _listed(grads):
    return [None if g is None else g.tolist() for g in grads]


# --- 1. hooks -------------------------------------------------------------------------------------
def test_the_four_hooks_run_in_the_engine_order_and_see_these_gradients(lib):
    x = lib.tensor([1.0, -2.0, 3.0], requires_grad=True)
    w = lib.tensor([0.5, 4.0, -1.0], requires_grad=True)
    y = x * w
    loss = (y ** 2).sum()
    assert [loss.grad_fn.name(), loss.grad_fn.next_functions[0][0].name(), y.grad_fn.name()] == [
        "SumBackward0", "PowBackward0", "MulBackward0"]
    log = []
    y.register_hook(lambda g: log.append(("y", g.tolist())))
    y.grad_fn.register_prehook(lambda go: log.append(("pre", _listed(go))))
    y.grad_fn.register_hook(lambda gi, go: log.append(("post", _listed(gi), _listed(go))))
    x.register_hook(lambda g: log.append(("x", g.tolist())))
    x.register_post_accumulate_grad_hook(lambda leaf: log.append(("acc", leaf.grad.tolist())))
    loss.backward()
    two_y = (2 * y).tolist()
    assert log == [("y", two_y), ("pre", [two_y]),
                   ("post", [(2 * y * w).tolist(), (2 * y * x).tolist()], [two_y]),
                   ("x", (2 * y * w).tolist()), ("acc", (2 * y * w).tolist())]


def test_a_prehook_tuple_replaces_and_remove_takes_it_off(lib):
    x = lib.tensor([1.0, -2.0, 3.0], requires_grad=True)
    w = lib.tensor([0.5, 4.0, -1.0], requires_grad=True)
    y = x * w
    loss = (y ** 2).sum()
    handle = y.grad_fn.register_prehook(lambda grads: tuple(g * 0.5 for g in grads))
    loss.backward(retain_graph=True)
    halved = x.grad.clone()
    handle.remove()
    x.grad = None
    loss.backward()
    assert halved.tolist() == [0.25, -32.0, 3.0] and x.grad.tolist() == [0.5, -64.0, 6.0]


def test_returning_none_keeps_the_gradients(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    y.register_hook(lambda g: None)
    y.grad_fn.register_prehook(lambda go: None)
    y.grad_fn.register_hook(lambda gi, go: None)
    y.sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]


def test_sgd_in_post_accumulate_grad_hooks_and_grad_fires_none(lib):
    lib.manual_seed(0)
    model = lib.nn.Linear(3, 1)
    fired = []

    def sgd_step(param):
        fired.append(param.shape)
        with lib.no_grad():
            param -= 0.1 * param.grad
        param.grad = None

    for p in model.parameters():
        p.register_post_accumulate_grad_hook(sgd_step)
    before = [p.detach().clone() for p in model.parameters()]
    data = lib.tensor([[1.0, 2.0, 3.0], [0.0, -1.0, 1.0]])
    loss = ((model(data) - lib.tensor([[1.0], [0.0]])) ** 2).mean()
    grads = lib.autograd.grad(loss, list(model.parameters()), retain_graph=True)
    assert fired == [] and all(p.grad is None for p in model.parameters())
    loss.backward()
    assert len(fired) == 2
    for p, old, g in zip(model.parameters(), before, grads):
        assert lib.allclose(p, old - 0.1 * g) and p.grad is None


# --- 2. saved tensors ---------------------------------------------------------------------------
def test_what_the_mlp_saves_in_bytes(lib):
    lib.manual_seed(0)
    nn = lib.nn
    mlp = nn.Sequential(nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 64), nn.ReLU(),
                        nn.Linear(64, 1))
    seen, distinct = [], {}

    def pack(t):
        seen.append((tuple(t.shape), str(t.dtype), t.numel() * t.element_size()))
        distinct[t.data_ptr()] = (t.shape[0], t.numel() * t.element_size())
        return t

    with lib.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        mlp(lib.randn(32, 64)).sum()
    assert len(distinct) == 5 and sum(b for _, b in distinct.values()) == 41216
    assert sum(b for rows, b in distinct.values() if rows == 32) == 24576
    assert seen == [((32, 64), "torch.float32", 8192)] * 3 + [
        ((64, 64), "torch.float32", 16384)] + [((32, 64), "torch.float32", 8192)] * 2 + [
        ((64, 1), "torch.float32", 256)]
    assert sum(b for *_, b in seen) == 57600
    assert sum(b for s, _, b in seen if s[0] == 32) == 40960


def test_the_shelf_and_save_on_cpu_give_the_same_gradient(lib):
    shelf = {}

    def to_shelf(t):
        shelf[len(shelf)] = t.detach().numpy().copy()
        return len(shelf) - 1

    lib.manual_seed(0)
    x = lib.randn(1000, requires_grad=True)
    with lib.autograd.graph.saved_tensors_hooks(to_shelf, lambda k: lib.from_numpy(shelf.pop(k))):
        loss = (x.exp() * x).sin().sum()
    assert len(shelf) == 4 and sum(a.nbytes for a in shelf.values()) == 16000
    loss.backward()
    assert shelf == {}
    shelved = x.grad.clone()
    x.grad = None
    with lib.autograd.graph.save_on_cpu():
        (x.exp() * x).sin().sum().backward()
    assert lib.allclose(x.grad, shelved)
    x.grad = None
    (x.exp() * x).sin().sum().backward()
    assert lib.allclose(x.grad, shelved)


def test_mul_saves_only_what_the_wanted_gradient_needs(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    c = lib.tensor([3.0, 4.0])
    kept = []
    with lib.autograd.graph.saved_tensors_hooks(lambda t: kept.append(t) or t, lambda t: t):
        x * c
    assert len(kept) == 1 and kept[0] is c


# --- 3. checkpointing ---------------------------------------------------------------------------
def _deep(lib, calls):
    class Counted(lib.nn.Module):
        def __init__(self, block):
            super().__init__()
            self.block = block

        def forward(self, h):
            calls[0] += 1
            return self.block(h)

    lib.manual_seed(0)
    return lib.nn.Sequential(*[Counted(lib.nn.Sequential(lib.nn.Linear(64, 64), lib.nn.Tanh()))
                               for _ in range(16)])


def _activation_bytes(lib, run, rows=32):
    """Bytes of the distinct saved tensors (by data_ptr) with one row per example."""
    kept = {}

    def pack(t):
        if t.dim() == 2 and t.shape[0] == rows:
            kept[t.data_ptr()] = t.numel() * t.element_size()
        return t

    with lib.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = run()
    return sum(kept.values()), out


def test_checkpoint_sequential_numbers(lib):
    calls = [0]
    deep = _deep(lib, calls)
    batch = lib.randn(32, 64, requires_grad=True)
    results, first = {}, None
    for segments in (1, 2, 4, 8, 16):
        calls[0], batch.grad = 0, None
        if segments == 1:
            saved, out = _activation_bytes(lib, lambda: deep(batch))
        else:
            saved, out = _activation_bytes(lib, lambda s=segments: lib.utils.checkpoint
                                           .checkpoint_sequential(deep, s, batch,
                                                                  use_reentrant=False))
        forward_calls = calls[0]
        out.sum().backward()
        results[segments] = (saved, forward_calls, calls[0])
        first = batch.grad.clone() if first is None else first
        assert lib.allclose(batch.grad, first, atol=1e-6)
    assert results == {1: (139264, 16, 16), 2: (81920, 16, 24), 4: (65536, 16, 28),
                       8: (81920, 16, 30), 16: (139264, 16, 31)}
    assert {s: saved // 8192 for s, (saved, _, _) in results.items()} == {
        s: s + 16 // s for s in results}  # s + 16/s tensors of 8 KiB


def test_leaving_use_reentrant_out_warns(lib):
    x = lib.ones(2, requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        lib.utils.checkpoint.checkpoint(lambda a: a.exp(), x)
        lib.utils.checkpoint.checkpoint_sequential([lib.nn.Tanh(), lib.nn.Tanh()], 2, x)
    said = [str(w.message) for w in caught if "use_reentrant" in str(w.message)]
    assert len(said) == 2 and all("use_reentrant=False is recommended" in s for s in said)


def test_each_block_checkpointed_keeps_only_its_input(lib):
    calls = [0]
    deep = _deep(lib, calls)
    batch = lib.randn(32, 64, requires_grad=True)

    def run():
        h = batch
        for block in deep:
            h = lib.utils.checkpoint.checkpoint(block, h, use_reentrant=False)
        return h

    saved, out = _activation_bytes(lib, run)
    out.sum().backward()
    assert saved == 16 * 32 * 64 * 4 and calls[0] == 32


# --- 4. anomaly detection -----------------------------------------------------------------------
def test_the_nan_passes_silently_without_anomaly_mode(lib):
    x = lib.tensor([0.0, 1.0, 4.0], requires_grad=True)
    loss = (x.sqrt() * lib.tensor([0.0, 1.0, 1.0])).sum()
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        loss.backward()
    assert loss.item() == 3.0 and x.grad.isnan().tolist() == [True, False, False]


def test_anomaly_mode_names_the_node_and_the_forward_line(lib):
    with warnings.catch_warnings(record=True) as caught, np.errstate(all="ignore"):
        warnings.simplefilter("always")
        with lib.autograd.detect_anomaly():
            assert lib.is_anomaly_enabled()
            x = lib.tensor([0.0, 1.0, 4.0], requires_grad=True)
            y = x.sqrt()
            loss = (y * lib.tensor([0.0, 1.0, 1.0])).sum()
            with pytest.raises(RuntimeError) as err:
                loss.backward()
    assert str(err.value) == "Function 'SqrtBackward0' returned nan values in its 0th output."
    said = [str(w.message) for w in caught if issubclass(w.category, UserWarning)]
    assert said[0] == ("Anomaly Detection has been enabled. This mode will increase the runtime "
                       "and should only be enabled for debugging.")
    assert said[-1].startswith("Error detected in SqrtBackward0. Traceback of forward call that "
                               "caused the error:")
    code = [line.strip() for line in said[-1].splitlines() if line.startswith("    ")]
    assert code[-1] == "y = x.sqrt()"
    assert not lib.is_anomaly_enabled()


def test_no_nan_no_error_and_set_detect_anomaly(lib):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with lib.autograd.detect_anomaly():
            x = lib.tensor([1.0, 4.0], requires_grad=True)
            x.sqrt().sum().backward()
        assert x.grad.tolist() == [0.5, 0.25] and not lib.is_anomaly_enabled()
        lib.autograd.set_detect_anomaly(True)
        try:
            assert lib.is_anomaly_enabled()
        finally:
            lib.autograd.set_detect_anomaly(False)


@pytest.mark.parametrize("case", ["log", "div"])
def test_the_exercise_losses_name_these_nodes(lib, case):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        if case == "log":
            x = lib.tensor([0.0, 2.0], requires_grad=True)
            loss, want = (x.log() * lib.tensor([0.0, 1.0])).sum(), "LogBackward0"
        else:
            a = lib.tensor([0.0, 3.0], requires_grad=True)
            b = lib.tensor([0.0, 1.0], requires_grad=True)
            loss, want = ((a * 2).tanh() / (b * 1) * lib.tensor([0.0, 1.0])).mean(), "DivBackward0"
        with lib.autograd.detect_anomaly(), pytest.raises(RuntimeError) as err:
            loss.backward()
    assert str(err.value).split("'")[1] == want


# --- 5. autograd.functional ---------------------------------------------------------------------
def _costs(lib):
    passes = {"forward": 0, "backward": 0, "backward of backward": 0}

    def counter(name):
        def hook(*grads):
            passes[name] += 1
        return hook

    def watch(node):
        node.register_prehook(counter("backward"))

        def on_result(grad_inputs, grad_outputs):
            for g in grad_inputs:
                if g is not None and g.grad_fn is not None:
                    g.grad_fn.register_prehook(counter("backward of backward"))

        node.register_hook(on_result)

    W = lib.tensor([[1.0, 2.0, 0.0], [0.0, -1.0, 3.0], [2.0, 0.0, 1.0], [1.0, 1.0, 1.0]])

    def f(x):
        passes["forward"] += 1
        y = W @ x.tanh()
        watch(y.grad_fn)
        return y

    def f_t(x):
        passes["forward"] += 1
        y = W.T @ x.tanh()
        watch(y.grad_fn)
        return y

    def g(x):
        passes["forward"] += 1
        cube = x ** 3
        watch(cube.grad_fn)
        return cube.sum()

    def cost(tool, *args):
        for key in passes:
            passes[key] = 0
        tool(*args)
        return tuple(passes.values())

    F = lib.autograd.functional
    x = lib.tensor([1.0, 2.0, 3.0])
    return {"vjp": cost(F.vjp, f, x, lib.ones(4)), "jvp": cost(F.jvp, f, x, lib.ones(3)),
            "jacobian": cost(F.jacobian, f, x), "hessian": cost(F.hessian, g, x),
            "vhp": cost(F.vhp, g, x, lib.ones(3)), "hvp": cost(F.hvp, g, x, lib.ones(3)),
            "jacobian of the transpose": cost(F.jacobian, f_t, lib.ones(4))}


def test_what_each_functional_tool_costs(lib):
    assert _costs(lib) == {"vjp": (1, 1, 0), "jvp": (1, 1, 1), "jacobian": (1, 4, 0),
                           "hessian": (1, 1, 3), "vhp": (1, 1, 1), "hvp": (1, 1, 1),
                           "jacobian of the transpose": (1, 3, 0)}


def test_jacobian_hessian_and_their_products(lib):
    F = lib.autograd.functional
    W = lib.tensor([[1.0, 2.0, 0.0], [0.0, -1.0, 3.0], [2.0, 0.0, 1.0], [1.0, 1.0, 1.0]])
    x, v = lib.tensor([1.0, 2.0, 3.0]), lib.tensor([1.0, -1.0, 2.0])

    def f(t):
        return W @ t.tanh()

    def g(t):
        return (t ** 3).sum()

    J, H = F.jacobian(f, x), F.hessian(g, x)
    _, Jv = F.jvp(f, x, v)
    _, Hv = F.hvp(g, x, v)
    rows = [F.vjp(f, x, lib.eye(4)[i])[1] for i in range(4)]
    assert J.shape == (4, 3) and lib.allclose(J, lib.stack(rows))
    assert lib.allclose(Jv, J @ v) and lib.allclose(Hv, H @ v)
    assert lib.allclose(H, lib.eye(3) * (6 * x)) and lib.allclose(H, H.T)
    np.testing.assert_allclose(J.numpy(), W.numpy() * (1 - np.tanh(x.numpy()) ** 2), rtol=1e-5)


# --- review questions ---------------------------------------------------------------------------
def test_a_tensor_hook_on_a_leaf_replaces_before_accumulating(lib):
    x = lib.zeros(3, requires_grad=True)
    x.register_hook(lambda grad: grad * 2)
    (3 * x).sum().backward()
    assert x.grad.tolist() == [6.0, 6.0, 6.0]


def test_a_prehook_returning_a_list_is_a_type_error(lib):
    x = lib.ones(2, requires_grad=True)
    y = x * 2
    y.grad_fn.register_prehook(lambda grads: list(grads))
    with pytest.raises(TypeError) as err:
        y.sum().backward()
    assert str(err.value) == "expected tuple, but hook returned 'list'"
