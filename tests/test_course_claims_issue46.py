"""What chapters 0, 4, 7 and 9 say about PyTorch after issue 46, checked against PyTorch itself
(the oracle) and against our package: each test runs once with ``ag`` and once with ``torch``.
"""

from __future__ import annotations

import numpy as np
import pytest

import autograd_course as ag


@pytest.fixture(params=["ag", "torch"])
def lib(request):
    """Our package, then PyTorch (the second is skipped where torch is not installed)."""
    return ag if request.param == "ag" else request.getfixturevalue("torch_oracle")


# --- chapter 0: "a scalar is a 0-d tensor; backward() without an argument accepts any
# one-element output" ------------------------------------------------------------------------
def test_a_scalar_is_0_d_and_backward_takes_any_one_element_output(lib):
    s = lib.tensor(3.0)
    assert s.dim() == 0 and tuple(s.shape) == () and s.numel() == 1
    for shape in [(), (1,), (1, 1), (1, 1, 1)]:
        x = lib.ones(shape, requires_grad=True)
        (x * 2).backward()  # no argument: fine for every one-element output
        assert x.grad.item() == 2.0
    x = lib.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar"):
        (x * 2).backward()  # two elements: an argument is needed


# --- chapter 4: float32 BCE at z = -15 is exactly 0, by cancellation ----------------------------
def test_bce_with_logits_cancels_to_zero_at_minus_15_in_float32(lib):
    true_loss = np.log1p(np.exp(-15.0))
    assert np.float32(true_loss) > 0  # the true loss is an ordinary float32 number
    z = lib.tensor([-15.0])
    assert lib.nn.functional.logsigmoid(z).item() == -15.0  # -15 - 3.06e-07 rounds to -15
    loss = lib.nn.functional.binary_cross_entropy_with_logits(z, lib.tensor([0.0]))
    assert loss.item() == 0.0  # (1 - y) z - log σ(z) = -15 - (-15)
    z64 = lib.tensor([-15.0], dtype=lib.float64)
    loss64 = lib.nn.functional.binary_cross_entropy_with_logits(
        z64, lib.tensor([0.0], dtype=lib.float64))
    assert loss64.item() == pytest.approx(true_loss, rel=1e-9)


# --- chapter 7: one step from accumulated micro-batch gradients is the full batch's step --------
def test_accumulated_micro_batches_make_the_full_batch_step(lib):
    rng = np.random.default_rng(0)
    w0, x, y = rng.normal(size=(3, 2)), rng.normal(size=(8, 3)), rng.normal(size=(8, 2))

    def step(batches):
        w = lib.tensor(w0, requires_grad=True)
        optimizer = lib.optim.SGD([w], lr=0.1)
        optimizer.zero_grad()
        for xb, yb in batches:
            loss = lib.nn.functional.mse_loss(lib.tensor(xb) @ w, lib.tensor(yb))
            (loss / len(batches)).backward()
        optimizer.step()
        return w.detach().numpy()

    whole = step([(x, y)])
    np.testing.assert_allclose(step([(x[k:k + 2], y[k:k + 2]) for k in range(0, 8, 2)]), whole,
                               rtol=1e-12)


# --- chapter 9: what the engine's order is, and what it is not -----------------------------------
def test_accumulate_grad_has_the_largest_sequence_number(lib):
    a = lib.tensor([2.0], requires_grad=True)
    b = lib.tensor([6.0], requires_grad=True)
    c = a * b
    acc_a, acc_b = (node for node, _ in c.grad_fn.next_functions)
    assert acc_a._sequence_nr() == acc_b._sequence_nr() == 2**64 - 1


def test_tied_leaves_fire_in_no_creation_order_today(lib):
    """A record of today's behaviour, not a guarantee: PyTorch documents no order among
    independent leaves. torch 2.x fires the hooks of cat's five leaves out of creation order,
    and the package does the same (tests/test_ready_queue.py compares the orders in full)."""
    log = []
    leaves = [lib.ones(2, requires_grad=True) for _ in range(5)]
    for i, leaf in enumerate(leaves):
        leaf.register_hook(lambda g, i=i: log.append(i))
    lib.cat(leaves).sum().backward()
    assert sorted(log) == [0, 1, 2, 3, 4] and log != sorted(log)


def test_engine_is_kahn_with_dependency_counts_and_newest_first(lib):
    """Every node runs after all the nodes that send it a gradient (with a diamond), and among
    the ready nodes the newest runs first (SinBackward0 before MulBackward0)."""
    x = lib.tensor([0.5, -1.0], requires_grad=True)
    h = x.exp()
    L = (h * 2 + h.sin()).sum()
    ran = []
    seen, stack = set(), [L.grad_fn]
    while stack:
        node = stack.pop()
        if node is not None and node not in seen:
            seen.add(node)
            node.register_hook(lambda gi, go, node=node: ran.append(node.name()))
            stack.extend(nxt for nxt, _ in node.next_functions)
    L.backward()
    names = [n.replace("torch::autograd::", "") for n in ran]
    assert names == ["SumBackward0", "AddBackward0", "SinBackward0", "MulBackward0",
                     "ExpBackward0", "AccumulateGrad"]
