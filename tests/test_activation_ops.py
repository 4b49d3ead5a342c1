"""The ops added for issue 14, against PyTorch: values, gradients, node names, second
derivatives, and our own finite-difference checks (gradcheck / gradgradcheck) in float64.

Activations: leaky_relu, elu, gelu (exact and tanh), silu. Losses: huber_loss, smooth_l1_loss,
kl_div (and xlogy under it). Rounding division: remainder, div(rounding_mode=), floor_divide.
Masks and index writes: masked_fill, index_put_ (accumulate).
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from ops_helpers import array, assert_grads, assert_same, backward_both, graph, leaves

import autograd_course as ag
from autograd_course.autograd import gradcheck, gradgradcheck


def _f(m):
    return m.nn.functional


# (id, fn(m, *inputs), shapes, domain). Points are kept away from kinks (|x| near 0, |d| near
# the Huber threshold) so finite differences are meaningful; "spread" spans both sides.
UNARY = [
    ("leaky_relu", lambda m, x: _f(m).leaky_relu(x)),
    ("leaky_relu-0.2", lambda m, x: _f(m).leaky_relu(x, 0.2)),
    ("elu", lambda m, x: _f(m).elu(x)),
    ("elu-alpha", lambda m, x: _f(m).elu(x, alpha=0.7)),
    ("gelu", lambda m, x: _f(m).gelu(x)),
    ("gelu-tanh", lambda m, x: _f(m).gelu(x, approximate="tanh")),
    ("silu", lambda m, x: _f(m).silu(x)),
]

BINARY = [
    ("huber", lambda m, x, y: _f(m).huber_loss(x, y)),
    ("huber-delta-sum", lambda m, x, y: _f(m).huber_loss(x, y, reduction="sum", delta=0.6)),
    ("huber-none", lambda m, x, y: _f(m).huber_loss(x, y, reduction="none", delta=1.5)),
    ("smooth_l1", lambda m, x, y: _f(m).smooth_l1_loss(x, y)),
    ("smooth_l1-beta", lambda m, x, y: _f(m).smooth_l1_loss(x, y, beta=0.5)),
    ("smooth_l1-none", lambda m, x, y: _f(m).smooth_l1_loss(x, y, reduction="none", beta=2.0)),
    ("kl_div-batchmean",
     lambda m, x, y: _f(m).kl_div(x.log_softmax(1), y.softmax(1), reduction="batchmean")),
    ("kl_div-sum", lambda m, x, y: _f(m).kl_div(x.log_softmax(1), y.softmax(1),
                                                reduction="sum")),
    ("kl_div-none", lambda m, x, y: _f(m).kl_div(x.log_softmax(1), y.softmax(1),
                                                 reduction="none")),
    ("kl_div-log_target",
     lambda m, x, y: _f(m).kl_div(x, y.log_softmax(1), reduction="sum", log_target=True)),
    ("xlogy", lambda m, x, y: m.xlogy(x, y.exp())),
    ("remainder", lambda m, x, y: m.remainder(x * 3.0, y.abs() + 0.5)),
    ("remainder-op", lambda m, x, y: (x * 3.0) % (y.abs() + 0.5) + x % 0.7),
    ("div-floor", lambda m, x, y: m.div(x * 3.0, y.abs() + 0.5, rounding_mode="floor") + x),
    ("div-trunc", lambda m, x, y: m.div(x * 3.0, y - 3.0, rounding_mode="trunc") * y),
    ("masked_fill", lambda m, x, y: x.masked_fill(y > 0, 0.25) * y),
    ("masked_fill-tensor", lambda m, x, y: x.masked_fill(y > 0, y.sum()) * y),
]


def _spread(shape, seed):
    """Values on both sides of 0 and well away from it (|x| in [0.3, 2.5])."""
    rng = np.random.default_rng(seed)
    return rng.choice([-1.0, 1.0], shape) * rng.uniform(0.3, 2.5, shape)


def _pair(data):
    return (ag.tensor(data.copy(), requires_grad=True),
            torch.tensor(data.copy(), requires_grad=True))


@pytest.mark.parametrize("name,fn", UNARY, ids=[c[0] for c in UNARY])
def test_activation_matches_torch(name, fn):
    ours, theirs = _pair(_spread((3, 4), 1))
    out_o, out_t = fn(ag, ours), fn(torch, theirs)
    assert_same(out_o, out_t, rtol=1e-12, atol=1e-14)
    assert out_o.grad_fn.name() == out_t.grad_fn.name()
    backward_both(out_o, out_t)
    assert_grads([ours], [theirs], rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("name,fn", UNARY, ids=[c[0] for c in UNARY])
def test_activation_second_derivative_matches_torch(name, fn):
    ours, theirs = _pair(_spread((5,), 2))
    upstream = array((5,), 3)
    results = []
    for m, x in ((ag, ours), (torch, theirs)):
        y = fn(m, x)
        (g,) = m.autograd.grad(y, x, m.tensor(upstream), create_graph=True)
        (h,) = m.autograd.grad((g * g).sum(), x)
        results.append((g, h))
    (g_o, h_o), (g_t, h_t) = results
    assert g_o.grad_fn.name() == g_t.grad_fn.name()  # e.g. GeluBackwardBackward0
    assert_same(g_o, g_t, rtol=1e-12, atol=1e-14)
    assert_same(h_o, h_t, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name,fn", UNARY, ids=[c[0] for c in UNARY])
def test_activation_gradcheck_and_gradgradcheck(name, fn):
    x = ag.tensor(_spread((2, 3), 4), requires_grad=True)
    assert gradcheck(lambda t: fn(ag, t), (x,))
    assert gradgradcheck(lambda t: fn(ag, t), (x,))


@pytest.mark.parametrize("name,fn", BINARY, ids=[c[0] for c in BINARY])
def test_binary_op_matches_torch(name, fn):
    (x_o, y_o), (x_t, y_t) = leaves([(3, 4), (3, 4)], seed=5)
    out_o, out_t = fn(ag, x_o, y_o), fn(torch, x_t, y_t)
    assert_same(out_o, out_t)
    assert graph(out_o.grad_fn) == graph(out_t.grad_fn)
    backward_both(out_o, out_t)
    assert_grads([x_o, y_o], [x_t, y_t])


@pytest.mark.parametrize("name,fn", BINARY, ids=[c[0] for c in BINARY])
def test_binary_op_gradcheck(name, fn):
    (x, y), _ = leaves([(2, 3), (2, 3)], seed=6)
    assert gradcheck(lambda a, b: fn(ag, a, b), (x, y))


@pytest.mark.parametrize("name,fn", [c for c in BINARY if "loss" in c[0] or "huber" in c[0]
                                     or "smooth" in c[0] or "kl" in c[0] or "xlogy" in c[0]],
                         ids=lambda c: c if isinstance(c, str) else "")
def test_loss_second_derivative_matches_torch(name, fn):
    (x_o, y_o), (x_t, y_t) = leaves([(3, 4), (3, 4)], seed=7)
    results = []
    for m, x, y in ((ag, x_o, y_o), (torch, x_t, y_t)):
        out = fn(m, x, y)
        gx, gy = m.autograd.grad(out.sum(), (x, y), create_graph=True)
        hx, hy = m.autograd.grad((gx * gx).sum() + (gx * gy).sum(), (x, y))
        results.append((gx, gy, hx, hy))
    for ours, theirs in zip(*results):
        assert_same(ours, theirs, rtol=1e-10, atol=1e-12)
    assert gradgradcheck(lambda a, b: fn(ag, a, b), (x_o, y_o))


def test_loss_node_names_for_second_derivative():
    for m in (ag, torch):
        x = m.tensor([0.3, -2.0, 1.2], dtype=m.float64, requires_grad=True)
        y = m.zeros(3, dtype=m.float64)
        names = []
        for loss in (m.nn.functional.huber_loss(x, y), m.nn.functional.smooth_l1_loss(x, y)):
            (g,) = m.autograd.grad(loss, x, create_graph=True)
            names.append((loss.grad_fn.name(), g.grad_fn.name()))
        if m is ag:
            ours = names
    assert ours == names == [("HuberLossBackward0", "HuberLossBackwardBackward0"),
                             ("SmoothL1LossBackward0", "SmoothL1LossBackwardBackward0")]


@pytest.mark.parametrize("target_dtype", ["int64", "float64", "float32"])
@pytest.mark.parametrize("loss", ["huber_loss", "smooth_l1_loss"])
def test_new_losses_promote_like_torch(loss, target_dtype):
    results = []
    for m in (ag, torch):
        x = m.tensor([0.5, -1.5, 3.0], requires_grad=True)  # float32
        y = m.tensor([1, 0, 1], dtype=getattr(m, target_dtype))
        out = getattr(m.nn.functional, loss)(x, y)
        results.append((str(out.dtype), round(out.item(), 5)))
        # PyTorch 2.13's huber_loss backward fails on a target of another dtype ("Found dtype
        # Long but expected Float"); ours returns the gradient, which smooth_l1 checks:
        if loss == "smooth_l1_loss" or m is ag or target_dtype == "float32":
            out.backward()
            results.append((str(x.grad.dtype), [round(v, 5) for v in x.grad.tolist()]))
    assert results[: len(results) // 2] == results[len(results) // 2:] or (
        loss == "huber_loss" and target_dtype != "float32" and results[0] == results[2])


def test_smooth_l1_beta_zero_is_l1_and_kl_div_mean_warns():
    for m in (ag, torch):
        x = m.tensor([0.5, -1.5, 3.0], requires_grad=True)
        out = m.nn.functional.smooth_l1_loss(x, m.zeros(3), beta=0.0)
        assert out.grad_fn.name() == "MeanBackward0"
        assert abs(out.item() - 5.0 / 3.0) < 1e-6
        with pytest.warns(UserWarning, match="batchmean"):
            m.nn.functional.kl_div(x, m.ones(3) / 3)
    for m in (ag, torch):
        with pytest.raises(RuntimeError, match="Integral inputs not supported"):
            m.nn.functional.kl_div(m.ones(2), m.tensor([1, 2]))


def test_floor_divide_is_recorded_but_not_differentiable():
    errors = []
    for m in (ag, torch):
        a = m.tensor([5.0, -3.0, 7.0], requires_grad=True)
        for out in (a // 2, 7 // a, 7 % a):
            assert out.grad_fn.name().removeprefix("torch::autograd::") == "NotImplemented"
            with pytest.raises(RuntimeError) as info:
                out.sum().backward()
            errors.append(str(info.value))
    assert errors[:3] == errors[3:] == [
        "derivative for aten::floor_divide is not implemented",
        "derivative for aten::floor_divide is not implemented",
        "derivative for aten::remainder is not implemented",
    ]


@pytest.mark.parametrize("expr", [
    "a // b", "a % b", "a // 2", "a % 2.5", "7 // b", "-7 % b", "i // 2", "i % 3", "i // j",
    "i % j", "i // 2.5", "i % 2.5", "m.div(a, b, rounding_mode='floor')",
    "m.div(a, b, rounding_mode='trunc')", "m.div(i, 2, rounding_mode='trunc')",
    "m.div(i, j, rounding_mode='floor')", "m.div(i, -3, rounding_mode='trunc')", "i / j",
    "m.remainder(a, -1.5)", "a.remainder(b)", "a.floor_divide(b)",
])
def test_rounding_division_values_and_dtypes(expr):
    results = []
    for m in (ag, torch):
        a = m.tensor([5.5, -3.25, 7.0, -0.5, 0.0])
        b = m.tensor([2.0, 2.0, -3.0, 0.75, -1.5])
        i = m.tensor([7, -7, 6, -1, 0])
        j = m.tensor([2, 2, -4, 3, -5])
        results.append(eval(expr, {"m": m, "a": a, "b": b, "i": i, "j": j}))
    assert_same(*results)


def test_in_place_floor_divide_and_remainder():
    for m in (ag, torch):
        x = m.tensor([7, -7, 9])
        x //= 2
        y = m.tensor([7.5, -7.5])
        y %= 2
        if m is ag:
            ours = (x, y)
    assert_same(ours[0], x)
    assert_same(ours[1], y)


def test_index_put_accumulate_matches_torch():
    results = []
    for m in (ag, torch):
        x = m.tensor(np.arange(6.0).reshape(2, 3), requires_grad=True)
        v = m.tensor([1.0, 2.0, 3.0], dtype=m.float64, requires_grad=True)
        y = x * 1.0
        y.index_put_((m.tensor([0, 1, 0]), m.tensor([2, 2, 2])), v, accumulate=True)
        z = x * 1.0
        z.index_put_((m.tensor([1]),), m.tensor(9.0, dtype=m.float64))
        (y * m.tensor([[1.0, 2, 3], [4, 5, 6]])).sum().backward()
        results.append((y, z, x.grad, v.grad, y.grad_fn.name(), z.grad_fn))
    (y_o, z_o, gx_o, gv_o, n_o, _), (y_t, z_t, gx_t, gv_t, n_t, _) = results
    assert_same(y_o, y_t)
    assert_same(z_o, z_t)
    assert_same(gx_o, gx_t)
    assert_same(gv_o, gv_t)
    assert n_o == n_t == "IndexPutBackward0"


def test_masked_fill_errors_and_in_place():
    for m in (ag, torch):
        x = m.zeros(3)
        with pytest.raises(RuntimeError, match="only supports boolean masks"):
            x.masked_fill(m.tensor([1, 0, 1]), 1.0)
        with pytest.raises(RuntimeError, match="0-dimensional value tensor"):
            x.masked_fill(m.tensor([True, False, True]), m.ones(2))
        assert x.masked_fill_(m.tensor([True, False, True]), 2.5).tolist() == [2.5, 0.0, 2.5]
        leaf = m.zeros(3, requires_grad=True)
        with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
            leaf.masked_fill_(m.tensor([True, False, True]), 1.0)


@pytest.mark.parametrize("expr", [
    "F.gelu(i)", "F.elu(i)", "F.silu(i)", "F.leaky_relu(i)",
    "F.gelu(m.ones(2), approximate='x')", "F.huber_loss(m.ones(2), m.ones(2), reduction='x')",
    "F.smooth_l1_loss(m.ones(2), m.ones(2), beta=-1.)", "m.div(m.ones(2), 2, rounding_mode='x')",
    "m.tensor([3]) // 0", "m.tensor([3]) % 0", "m.tensor([3, 4]) % m.tensor([1, 0])",
])
def test_errors_match_torch(expr):
    from ops_helpers import error_of

    def run(m):
        env = {"m": m, "F": m.nn.functional, "i": m.tensor([1, -2])}
        return error_of(lambda: eval(expr, env))

    ours, theirs = run(ag), run(torch)
    assert ours == theirs and ours is not None
