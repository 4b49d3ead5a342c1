"""What chapter 11 (backprop by hand, at matrix scale) says about PyTorch, checked against
PyTorch itself.

Each test runs the chapter's example with our package and with ``torch`` (the oracle) and
asserts the claim for both: every gradient has its tensor's shape; a linear layer's gradients
are X.T @ G, G @ W.T and G summed over the batch; tanh's backward is 1 - h² from the output its
node saved; the mean cross-entropy's gradient is (softmax - onehot) / B (P - Y with
``reduction="sum"``), each row summing to 0; ``F.cross_entropy`` records two nodes where the
written-out loss records seven; training-mode BatchNorm normalises with the biased variance,
updates ``running_var`` with the unbiased one, ignores a constant added before it, and its
backward is the three-path formula of the chapter; ``gradcheck`` passes a hand-written backward
in float64 and answers False for one without the 1/B.
"""

from __future__ import annotations

import pytest

import autograd_course as ag

B, D, H, C = 8, 10, 16, 5
EPS = 1e-5


@pytest.fixture(params=["ag", "torch"])
def lib(request):
    """Our package, then PyTorch (the second is skipped where torch is not installed)."""
    return ag if request.param == "ag" else request.getfixturevalue("torch_oracle")


def _mlp(lib):
    lib.manual_seed(0)
    X = lib.randn(B, D)
    y = lib.randint(0, C, (B,))
    p = {"W1": lib.randn(D, H) * 0.3, "b1": lib.randn(H) * 0.1,
         "W2": lib.randn(H, C) * 0.3, "b2": lib.randn(C) * 0.1}
    for t in p.values():
        t.requires_grad_()
    z1 = X @ p["W1"] + p["b1"]
    h = z1.tanh()
    logits = h @ p["W2"] + p["b2"]
    c = {"z1": z1, "h": h, "logits": logits}
    for t in c.values():
        t.retain_grad()
    lib.nn.functional.cross_entropy(logits, y).backward()
    return X, y, p, c


def _nodes(t):
    found, todo = [], [t.grad_fn]
    while todo:
        node = todo.pop()
        if node is None or node in found:
            continue
        found.append(node)
        todo += [fn for fn, _ in node.next_functions]
    return [n.name() for n in found if "AccumulateGrad" not in n.name()]


# --- sections 1-3: shapes, the logits, a linear layer, tanh ---------------------------------------
def test_every_gradient_has_its_tensors_shape_and_retain_grad_keeps_intermediates(lib):
    X, y, p, c = _mlp(lib)
    for t in [*p.values(), *c.values()]:
        assert t.grad is not None and t.grad.shape == t.shape


def test_the_mean_cross_entropy_gradient_is_softmax_minus_onehot_over_b(lib):
    X, y, p, c = _mlp(lib)
    F = lib.nn.functional
    P = c["logits"].detach().softmax(dim=1)
    Y = F.one_hot(y, C)
    assert lib.allclose(c["logits"].grad, (P - Y) / B, atol=1e-7)
    assert c["logits"].grad.sum(1).abs().max().item() < 1e-7  # each row sums to 0
    summed = c["logits"].detach().requires_grad_()
    F.cross_entropy(summed, y, reduction="sum").backward()
    assert lib.allclose(summed.grad, P - Y, atol=1e-6)
    shifted = c["logits"].detach().clone()
    shifted[0] += 1  # one example's logits all up by 1: the loss does not change
    assert lib.allclose(F.cross_entropy(shifted, y), F.cross_entropy(c["logits"].detach(), y))


def test_a_linear_layers_gradients_come_from_the_shapes(lib):
    X, y, p, c = _mlp(lib)
    G, h = c["logits"].grad, c["h"].detach()
    assert lib.allclose(p["W2"].grad, h.T @ G, atol=1e-6)
    assert lib.allclose(p["b2"].grad, G.sum(0), atol=1e-6)
    assert lib.allclose(c["h"].grad, G @ p["W2"].detach().T, atol=1e-6)
    assert (G.T @ h).shape == (C, H) and p["W2"].shape == (H, C)  # the other order: transposed
    dz1 = c["z1"].grad
    assert lib.allclose(p["W1"].grad, X.T @ dz1, atol=1e-6)
    assert lib.allclose(p["b1"].grad, dz1.sum(0), atol=1e-6)


def test_tanh_saves_its_result_and_its_backward_is_one_minus_h_squared(lib):
    lib.manual_seed(1)
    a = lib.randn(3, 4, requires_grad=True)
    out = a.tanh()
    g = lib.randn(3, 4)
    assert out.grad_fn.name() == "TanhBackward0" and lib.equal(out.grad_fn._saved_result, out)
    (out * g).sum().backward()
    assert lib.allclose(a.grad, g * (1 - out.detach() ** 2))
    X, y, p, c = _mlp(lib)
    assert lib.allclose(c["z1"].grad, c["h"].grad * (1 - c["h"].detach() ** 2), atol=1e-7)


# --- section 4: one node for softmax and cross-entropy --------------------------------------------
def test_cross_entropy_records_two_nodes_the_written_out_loss_seven(lib):
    lib.manual_seed(0)
    logits = lib.randn(B, C, requires_grad=True)
    y = lib.randint(0, C, (B,))
    fused = lib.nn.functional.cross_entropy(logits, y)
    counts = logits.exp()
    chain = -(counts / counts.sum(1, keepdim=True)).log()[lib.arange(B), y].mean()
    assert _nodes(fused) == ["NllLossBackward0", "LogSoftmaxBackward0"]
    assert _nodes(chain) == ["NegBackward0", "MeanBackward0", "IndexBackward0", "LogBackward0",
                             "DivBackward0", "SumBackward1", "ExpBackward0"]
    g_fused, = lib.autograd.grad(fused, logits)
    g_chain, = lib.autograd.grad(chain, logits)
    assert lib.allclose(fused, chain) and lib.allclose(g_fused, g_chain, atol=1e-7)


# --- section 5: BatchNorm -------------------------------------------------------------------------
def test_batchnorm_training_mode_uses_the_biased_variance_running_var_the_unbiased(lib):
    layer = lib.nn.BatchNorm1d(1)
    assert layer.training and layer.eps == EPS and layer.momentum == 0.1
    col = lib.tensor([[1.0], [2.0], [3.0], [4.0]])
    out = layer(col)
    assert lib.allclose(out, (col - 2.5) / (1.25 + EPS) ** 0.5)
    assert lib.allclose(layer.running_var, lib.tensor([0.9 + 0.1 * 5 / 3]))


def test_a_constant_before_batchnorm_changes_nothing(lib):
    lib.manual_seed(2)
    z = lib.randn(B, H)
    layer = lib.nn.BatchNorm1d(H)
    assert lib.allclose(layer(z + 3.0), layer(z), atol=1e-5)
    b1 = lib.zeros(H, requires_grad=True)
    (layer(z + b1).tanh() * lib.randn(B, H)).sum().backward()
    assert b1.grad.abs().max().item() < 1e-5


def test_batchnorm_backward_is_the_three_path_formula(lib):
    lib.manual_seed(2)
    z1 = lib.randn(B, H, dtype=lib.float64, requires_grad=True)
    gamma = 1 + 0.1 * lib.randn(H, dtype=lib.float64)
    beta = 0.1 * lib.randn(H, dtype=lib.float64)
    g = lib.randn(B, H, dtype=lib.float64)
    mu = z1.mean(0)
    var = ((z1 - mu) ** 2).mean(0)
    xhat = (z1 - mu) / (var + EPS).sqrt()
    for t in (mu, var, xhat):
        t.retain_grad()
    zbn = gamma * xhat + beta
    (zbn * g).sum().backward()
    layer = lib.nn.BatchNorm1d(H, dtype=lib.float64)
    with lib.no_grad():
        layer.weight.copy_(gamma)
        layer.bias.copy_(beta)
    assert lib.allclose(layer(z1.detach()), zbn.detach())
    s = (var.detach() + EPS).sqrt()
    centred = (z1 - mu).detach()
    dxhat = g * gamma
    dvar = (dxhat * centred).sum(0) * -0.5 * s ** -3
    dmu = -(dxhat / s).sum(0) + dvar * -2 * centred.sum(0) / B
    dz1 = dxhat / s + dvar * 2 * centred / B + dmu / B
    assert lib.allclose(xhat.grad, dxhat) and lib.allclose(var.grad, dvar)
    assert lib.allclose(mu.grad, dmu) and lib.allclose(z1.grad, dz1)
    assert not lib.allclose(z1.grad, dxhat / s + dmu / B)  # the variance path matters
    zr = z1.detach().requires_grad_()
    (layer(zr) * g).sum().backward()
    assert lib.allclose(zr.grad, dz1)  # BatchNorm1d's own backward agrees


# --- section 6: gradcheck on a hand-written backward ----------------------------------------------
def _head(lib, scale_without_mean: bool):
    F = lib.nn.functional

    class Head(lib.autograd.Function):
        @staticmethod
        def forward(ctx, h, W, b, y):
            logits = h @ W + b
            ctx.save_for_backward(h, W, logits, y)
            return F.cross_entropy(logits, y)

        @staticmethod
        def backward(ctx, grad_output):
            h, W, logits, y = ctx.saved_tensors
            n, classes = logits.shape
            dlogits = grad_output * (logits.softmax(dim=1) - F.one_hot(y, classes)) / n
            if scale_without_mean:
                dlogits = dlogits * n
            return dlogits @ W.T, h.T @ dlogits, dlogits.sum(0), None

    return Head


def test_gradcheck_passes_a_hand_written_backward_and_fails_one_without_the_mean(lib):
    lib.manual_seed(3)
    y = lib.randint(0, C, (B,))
    inputs = (lib.randn(B, H, dtype=lib.float64, requires_grad=True),
              lib.randn(H, C, dtype=lib.float64, requires_grad=True),
              lib.randn(C, dtype=lib.float64, requires_grad=True))
    good, slipped = _head(lib, False), _head(lib, True)
    assert lib.autograd.gradcheck(lambda h, W, b: good.apply(h, W, b, y), inputs) is True
    assert lib.autograd.gradcheck(lambda h, W, b: slipped.apply(h, W, b, y), inputs,
                                  raise_exception=False) is False
