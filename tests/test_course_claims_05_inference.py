"""What chapter 5's section on ``inference_mode`` and ``eval()`` says about PyTorch, checked
against PyTorch itself (the oracle).

Each test runs the chapter's example twice, once with ``torch`` and once with our package, and
asserts the claim the chapter makes for both, so the prose cannot drift from PyTorch.
"""

from __future__ import annotations

import pytest

import autograd_course as ag

SAVED = ("Inference tensors cannot be saved for backward. Please do not use Tensors created in "
         "inference mode in computation tracked by autograd. To work around this, you can make a "
         "clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead "
         "of `torch.inference_mode()`.")
IN_PLACE = ("Inplace update to inference tensor outside InferenceMode is not allowed.You can make "
            "a clone to get a normal tensor before doing inplace update.See "
            "https://github.com/pytorch/rfcs/pull/17 for more details.")
REQUIRES_GRAD = ("Setting requires_grad=True on inference tensor outside InferenceMode is not "
                 "allowed.")
VERSION = "Inference tensors do not track version counter."


@pytest.fixture(params=["ag", "torch"])
def lib(request):
    """Our package, then PyTorch (the second is skipped where torch is not installed)."""
    return ag if request.param == "ag" else request.getfixturevalue("torch_oracle")


def _inference_ones(lib):
    with lib.inference_mode():
        return lib.ones(3)


def _raises(exact, call):
    """The RuntimeError ``call`` raises has exactly this message."""
    with pytest.raises(RuntimeError) as info:
        call()
    assert str(info.value) == exact


def test_inside_nothing_is_recorded_and_results_are_inference_tensors(lib):
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with lib.inference_mode():
        y = x * 2
        assert lib.is_inference_mode_enabled() and not lib.is_grad_enabled()
    assert not lib.is_inference_mode_enabled() and lib.is_grad_enabled()
    assert not y.requires_grad and y.grad_fn is None and y.is_inference()
    assert not x.is_inference()


def test_an_inference_tensor_cannot_be_saved_for_backward(lib):
    w = _inference_ones(lib)
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    _raises(SAVED, lambda: (w * x).sum())


def test_outside_the_mode_no_in_place_update_and_no_requires_grad(lib):
    w = _inference_ones(lib)
    _raises(IN_PLACE, lambda: w.add_(1))
    _raises(REQUIRES_GRAD, lambda: w.requires_grad_())
    assert not w.requires_grad and w.is_inference()


def test_a_clone_made_outside_is_a_normal_tensor_autograd_can_use(lib):
    w = _inference_ones(lib).clone()
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (w * x).sum().backward()
    assert not w.is_inference() and x.grad.tolist() == [1.0, 1.0, 1.0]


def test_inside_the_mode_an_in_place_update_is_allowed(lib):
    t = _inference_ones(lib)
    with lib.inference_mode():
        t.add_(1)
    assert t.tolist() == [2.0, 2.0, 2.0]


def test_enable_grad_inside_says_enabled_but_records_nothing(lib):
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with lib.inference_mode():
        with lib.enable_grad():
            r = x * 2
            assert lib.is_grad_enabled()
    assert not r.requires_grad and r.grad_fn is None and r.is_inference()
    with lib.no_grad():  # the contrast the chapter draws: under no_grad, enable_grad records
        with lib.enable_grad():
            assert (x * 2).grad_fn is not None


def test_views_and_the_version_counter(lib):
    w = _inference_ones(lib)
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with lib.inference_mode():
        normal_view = x[:2]
    assert w[:2].is_inference() and w.view(3, 1).is_inference()
    assert not normal_view.is_inference()
    assert x._version == 0
    _raises(VERSION, lambda: w._version)


def test_no_grad_and_inference_mode_results_no_graph_same_values(lib):
    lib.manual_seed(0)
    weight = lib.randn(4, 3, requires_grad=True)
    data = lib.randn(5, 4)
    recorded = lib.tanh(data @ weight).sum()
    with lib.no_grad():
        plain = lib.tanh(data @ weight).sum()
    with lib.inference_mode():
        inference = lib.tanh(data @ weight).sum()
    assert recorded.grad_fn is not None
    assert plain.grad_fn is None and inference.grad_fn is None
    assert plain._version == 0 and not plain.is_inference() and inference.is_inference()
    assert abs(plain.item() - recorded.item()) < 1e-6
    assert abs(inference.item() - recorded.item()) < 1e-6


def _model(lib):
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(4, 3), lib.nn.BatchNorm1d(3), lib.nn.Dropout(0.5))
    return model, lib.randn(8, 4)


def test_train_and_no_grad_dropout_still_random_running_stats_still_updated(lib):
    model, batch = _model(lib)
    bn = model[1]
    model.train()
    with lib.no_grad():
        first = model(batch)
        stats = bn.running_mean.clone()
        second = model(batch)
    assert not lib.equal(first, second) and first.grad_fn is None
    assert not lib.equal(stats, bn.running_mean) and bn.num_batches_tracked.item() == 2


def test_eval_changes_the_layers_no_grad_the_recording(lib):
    model, batch = _model(lib)
    bn = model[1]
    with lib.no_grad():
        model(batch)
        model(batch)
    model.eval()
    stats = bn.running_mean.clone()
    with_graph = model(batch)
    with lib.no_grad():
        out1, out2 = model(batch), model(batch)
        by_hand = ((model[0](batch) - bn.running_mean) / (bn.running_var + bn.eps).sqrt()
                   * bn.weight + bn.bias)
    with lib.inference_mode():
        out3 = model(batch)
    assert with_graph.grad_fn is not None and with_graph.requires_grad
    assert lib.equal(out1, out2) and out1.grad_fn is None and lib.allclose(with_graph, out1)
    assert lib.equal(out1, out3) and out3.is_inference() and lib.allclose(out1, by_hand)
    assert lib.equal(stats, bn.running_mean) and bn.num_batches_tracked.item() == 2


def test_review_dropout_under_no_grad_then_eval(lib):
    lib.manual_seed(0)
    net = lib.nn.Sequential(lib.nn.Linear(4, 4), lib.nn.Dropout(0.5))
    data = lib.ones(2, 4)
    with lib.no_grad():
        same = lib.equal(net(data), net(data))
    net.eval()
    with lib.no_grad():
        same_in_eval = lib.equal(net(data), net(data))
    assert not same and same_in_eval


def test_a_view_taken_inside_the_mode_of_an_inference_tensor_is_one_too(lib):
    w = _inference_ones(lib)
    with lib.inference_mode():
        inside = w[:1]
    assert inside.is_inference()


def test_a_no_grad_result_may_later_be_saved_for_backward_and_updated_in_place(lib):
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with lib.no_grad():
        plain = x * 2
    (plain * x).sum().backward()  # saved for backward: allowed
    assert x.grad.tolist() == [2.0, 4.0, 6.0]
    plain.add_(1)  # in place, outside no_grad: allowed, counted
    assert plain.tolist() == [3.0, 5.0, 7.0] and plain._version == 1


def test_batch_norm_in_training_mode_uses_the_batchs_own_statistics(lib):
    lib.manual_seed(0)
    linear, bn = lib.nn.Linear(4, 3), lib.nn.BatchNorm1d(3)
    batch = lib.randn(8, 4)
    with lib.no_grad():
        z = linear(batch)
        out = bn(z)
        mean, var = z.mean(0), ((z - z.mean(0)) ** 2).mean(0)
        by_hand = (z - mean) / (var + bn.eps).sqrt() * bn.weight + bn.bias
    assert lib.allclose(out, by_hand, atol=1e-6)
    assert bn.num_batches_tracked.item() == 1 and not lib.equal(bn.running_mean, lib.zeros(3))
