"""The shortcuts of issue 48's MLP step, each checked against the general path it skips (bit
for bit) and against PyTorch (no timing here): SGD's update written straight into the
parameter; nll_loss without weight and without an ignored target; and the backward formulas
of Addmm, T, relu, log_softmax and nll_loss on the arrays in a plain backward (no
create_graph, no tangent, no profile), which keep their tensor ops otherwise.
"""

from __future__ import annotations

import numpy as np
import pytest

import autograd_course as ag
from autograd_course.autograd import profiler
from autograd_course.optim import sgd

RNG = np.random.default_rng(48)


def _param_and_grad(dtype=np.float32, shape=(7, 5)):
    p = ag.tensor(RNG.standard_normal(shape).astype(dtype), requires_grad=True)
    p.grad = ag.tensor(RNG.standard_normal(shape).astype(dtype))
    return p


# --- SGD: p -= lr·g written into p's memory -----------------------------------------------
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sgd_update_is_add_s_bits_and_bumps_the_version(dtype):
    p = _param_and_grad(dtype)
    q = ag.tensor(p.detach().numpy().copy(), requires_grad=True)
    q.grad = p.grad.clone()
    memory, version = p._data, p._version
    sgd._descend(p, p.grad, 0.037)
    with ag.no_grad():
        q.add_(q.grad, alpha=-0.037)  # the general path
    assert p._data is memory and p.dtype == q.dtype
    assert p._version == version + 1 == q._version
    np.testing.assert_array_equal(p.detach().numpy(), q.detach().numpy())


def test_sgd_step_matches_pytorch_in_float32(torch_oracle):
    p = _param_and_grad()
    tp = torch_oracle.tensor(p.detach().numpy(), requires_grad=True)
    tp.grad = torch_oracle.tensor(p.grad.numpy())
    ag.optim.SGD([p], lr=0.01).step()
    torch_oracle.optim.SGD([tp], lr=0.01).step()
    assert p.dtype == ag.float32
    np.testing.assert_allclose(p.detach().numpy(), tp.detach().numpy(), rtol=1e-6, atol=1e-7)


def test_sgd_view_parameter_writes_through_to_its_base():
    base = ag.zeros(4, 3)
    p = base[1]  # a view, made a leaf that requires grad
    p.requires_grad_()
    p.grad = ag.ones(3)
    ag.optim.SGD([p], lr=0.5).step()
    assert base.tolist()[1] == [-0.5, -0.5, -0.5] and base._version == p._version == 1


def test_sgd_falls_back_to_add_for_half_and_mixed_dtypes(torch_oracle):
    for dtype, grad_dtype in [(np.float16, np.float16), (np.float32, np.float64)]:
        p = ag.tensor(RNG.standard_normal(5).astype(dtype), requires_grad=True)
        p._grad = ag.tensor(RNG.standard_normal(5).astype(grad_dtype))  # (set as a hook may)
        tp = torch_oracle.tensor(p.detach().numpy())
        with torch_oracle.no_grad():
            tp.add_(torch_oracle.tensor(p._grad.numpy()), alpha=-0.25)
        ag.optim.SGD([p], lr=0.25).step()
        assert p.dtype == p.grad.dtype if dtype == grad_dtype else p.dtype == ag.float32
        np.testing.assert_array_equal(p.detach().numpy(), tp.numpy())


def test_sgd_under_the_profiler_records_add_as_before():
    p = _param_and_grad()
    with profiler.profile() as prof:
        ag.optim.SGD([p], lr=0.1).step()
    assert "aten::add_" in [e.name for e in prof.function_events]


def test_sgd_on_an_inference_parameter_refuses_as_add_does():
    with ag.inference_mode():
        p = ag.ones(3)
    p._grad = ag.ones(3)
    with pytest.raises(RuntimeError) as ours:
        ag.optim.SGD([p], lr=0.1).step()
    with ag.no_grad(), pytest.raises(RuntimeError) as general:
        p.add_(p._grad, alpha=-0.1)
    assert str(ours.value) == str(general.value)


# --- nll_loss without weight and without an ignored target ----------------------------------
def _nll(lib, scores, labels, **kw):
    x = lib.tensor(scores, requires_grad=True)
    loss = lib.nn.functional.nll_loss(x, lib.tensor(labels), **kw)
    loss.backward(lib.ones_like(loss))
    return loss.detach().numpy(), x.grad.numpy()


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(6, 4), (4,)])
def test_nll_loss_usual_case_gives_the_weighted_forms_bits(reduction, dtype, shape, torch_oracle):
    scores = RNG.standard_normal(shape).astype(dtype)
    labels = RNG.integers(0, 4, shape[:-1]) if len(shape) == 2 else np.array(2)
    usual = _nll(ag, scores, labels, reduction=reduction)
    ones = ag.ones(4, dtype=ag.float32 if dtype == np.float32 else ag.float64)
    weighted = _nll(ag, scores, labels, reduction=reduction, weight=ones)  # the general form
    theirs = _nll(torch_oracle, scores, labels, reduction=reduction)
    for ours, general, torchs in zip(usual, weighted, theirs):
        assert ours.dtype == general.dtype == torchs.dtype and ours.shape == torchs.shape
        np.testing.assert_array_equal(ours, general)
        np.testing.assert_allclose(ours, torchs, rtol=1e-6, atol=0)
    assert usual[1].flags.c_contiguous


def test_nll_loss_ignored_and_out_of_bounds_targets_as_pytorch(torch_oracle):
    scores = RNG.standard_normal((3, 4)).astype(np.float32)
    ignored = _nll(ag, scores, np.array([1, -100, 3]))
    theirs = _nll(torch_oracle, scores, np.array([1, -100, 3]))
    for ours, torchs in zip(ignored, theirs):
        np.testing.assert_allclose(ours, torchs, rtol=1e-6, atol=0)
    assert ignored[1][1].tolist() == [0, 0, 0, 0]
    for labels in ([1, 4, 3], [-1, 0, 0], [-100, 7, 0]):
        messages = []
        for lib in (ag, torch_oracle):
            with pytest.raises(IndexError) as error:
                _nll(lib, scores, np.array(labels))
            messages.append(str(error.value))
        assert messages[0] == messages[1]


# --- AddmmBackward0 in a plain backward: the products on the arrays ----------------------------
def _addmm_case(a_layout, b_layout, need_a):
    a = RNG.standard_normal((3, 4) if a_layout == "C" else (4, 3)).astype(np.float32)
    b = RNG.standard_normal((4, 5) if b_layout == "C" else (5, 4)).astype(np.float32)
    a = ag.tensor(a, requires_grad=need_a)
    b = ag.tensor(b, requires_grad=True)
    bias = ag.tensor(RNG.standard_normal(5).astype(np.float32), requires_grad=True)
    return ag.addmm(bias, a if a_layout == "C" else a.t(), b if b_layout == "C" else b.t())


@pytest.mark.parametrize("a_layout", ["C", "F"])
@pytest.mark.parametrize("b_layout", ["C", "F"])
@pytest.mark.parametrize("need_a", [True, False])
def test_addmm_plain_backward_gives_the_tensor_formulas_bits_and_layouts(a_layout, b_layout,
                                                                         need_a):
    out = _addmm_case(a_layout, b_layout, need_a)
    grad = ag.tensor(RNG.standard_normal((3, 5)).astype(np.float32))
    with ag.no_grad():
        plain = out.grad_fn(grad)  # the arrays
    # grad mode on and a grad that requires grad, as under create_graph: the tensor ops
    recorded = out.grad_fn(grad.detach().requires_grad_())
    assert recorded[2].grad_fn is not None  # (so this really ran the other path)
    for ours, general in zip(plain, recorded):
        if general is None:
            assert ours is None
            continue
        assert ours.grad_fn is None and ours.dtype == general.dtype
        assert ours._data.strides == general._data.strides
        np.testing.assert_array_equal(ours.numpy(), general.detach().numpy())


def test_linear_double_backward_still_goes_through_the_tensor_formulas(torch_oracle):
    results = []
    for lib in (ag, torch_oracle):
        x = lib.tensor(np.linspace(-1, 1, 12).reshape(3, 4), requires_grad=True)
        w = lib.tensor(np.linspace(0.5, -0.5, 20).reshape(5, 4), requires_grad=True)
        b = lib.tensor(np.linspace(0, 1, 5), requires_grad=True)
        y = lib.nn.functional.linear(x, w, b)
        (gx,) = lib.autograd.grad((y * y).sum(), x, create_graph=True)
        (gw,) = lib.autograd.grad(gx.pow(2).sum(), w)
        results.append(gw.detach().numpy())
    np.testing.assert_allclose(results[0], results[1], rtol=1e-12, atol=1e-12)


def test_addmm_backward_under_the_profiler_records_its_products():
    out = _addmm_case("C", "F", True)
    with profiler.profile() as prof:
        out.sum().backward()
    assert "aten::mm" in [e.name for e in prof.function_events]


# --- ReluBackward0, LogSoftmaxBackward0, NllLossBackward0 in a plain backward --------------------
SCORES = RNG.standard_normal((5, 4)).astype(np.float32)
PLAIN_CASES = {
    "relu": (lambda x: x.relu(), (5, 4)),
    "log_softmax": (lambda x: x.log_softmax(1), (5, 4)),
    "log_softmax_dim0": (lambda x: x.log_softmax(0), (5, 4)),
    "nll_loss": (lambda x: ag.nn.functional.nll_loss(x, ag.tensor([0, 3, 1, 1, 2])), ()),
    "nll_loss_sum": (lambda x: ag.nn.functional.nll_loss(
        x, ag.tensor([0, 3, 1, 1, 2]), reduction="sum"), ()),
    "nll_loss_1d": (lambda x: ag.nn.functional.nll_loss(x[0], ag.tensor(2)), ()),
}


@pytest.mark.parametrize("name", sorted(PLAIN_CASES))
def test_plain_backward_gives_the_recorded_formulas_bits(name):
    fn, grad_shape = PLAIN_CASES[name]
    x = ag.tensor(SCORES, requires_grad=True)
    out = fn(x)
    grad = ag.tensor(RNG.standard_normal(grad_shape).astype(np.float32))
    with ag.no_grad():
        (plain, *_) = out.grad_fn(grad)  # the arrays
    (recorded, *_) = out.grad_fn(grad.detach().requires_grad_())  # the tensor ops
    assert recorded.grad_fn is not None and plain.grad_fn is None
    assert plain.dtype == recorded.dtype and plain.shape == recorded.shape
    np.testing.assert_array_equal(plain.numpy(), recorded.detach().numpy())


def test_mlp_step_gradients_match_pytorch_and_second_derivatives_still_work(torch_oracle):
    data = RNG.standard_normal((6, 8)).astype(np.float32)
    labels = np.array([0, 2, 1, 2, 0, 1])
    grads, second = [], []
    for lib in (ag, torch_oracle):
        lib.manual_seed(0)
        w1 = lib.tensor(np.linspace(-0.5, 0.5, 40, dtype=np.float32).reshape(5, 8),
                        requires_grad=True)
        w2 = lib.tensor(np.linspace(0.3, -0.3, 15, dtype=np.float32).reshape(3, 5),
                        requires_grad=True)
        b1, b2 = lib.zeros(5, requires_grad=True), lib.zeros(3, requires_grad=True)
        x = lib.tensor(data, requires_grad=True)
        F = lib.nn.functional
        loss = F.cross_entropy(F.linear(F.linear(x, w1, b1).relu(), w2, b2), lib.tensor(labels))
        gs = lib.autograd.grad(loss, (x, w1, b1, w2, b2), create_graph=True)
        loss.backward(retain_graph=True)  # a plain backward, on the same graph
        for g, leaf in zip(gs, (x, w1, b1, w2, b2)):
            np.testing.assert_array_equal(leaf.grad.numpy(), g.detach().numpy())
        grads.append([g.detach().numpy() for g in gs])
        (gx,) = lib.autograd.grad(gs[0].pow(2).sum(), (w2,))
        second.append(gx.detach().numpy())
    for ours, theirs in zip(grads[0] + second[:1], grads[1] + second[1:]):
        assert ours.dtype == theirs.dtype == np.float32
        np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)


def test_t_plain_backward_is_the_transposed_array_and_hooks_see_it(torch_oracle):
    seen = []
    for lib in (ag, torch_oracle):
        w = lib.tensor(np.arange(6.0).reshape(2, 3), requires_grad=True)
        w.register_hook(lambda g: seen.append(g.numpy().copy()))
        w.t().backward(lib.tensor(np.arange(6.0).reshape(3, 2)))
        seen.append(w.grad.numpy())
    np.testing.assert_array_equal(seen[0], seen[2])
    np.testing.assert_array_equal(seen[1], seen[3])
    out = ag.tensor(np.arange(6.0).reshape(2, 3), requires_grad=True).t()
    grad = ag.tensor(np.arange(6.0).reshape(3, 2))
    with ag.no_grad():
        plain = out.grad_fn(grad)
    recorded = out.grad_fn(grad.detach().requires_grad_())
    assert recorded.grad_fn is not None and plain.grad_fn is None
    assert plain._data.strides == recorded._data.strides
    np.testing.assert_array_equal(plain.numpy(), recorded.detach().numpy())
