"""The shortcuts the performance work takes, checked for safety (no timing here).

* A leaf's first gradient becomes a private ``.grad``: whatever else holds the gradient (a
  second input fed the same tensor, a view, the user, a hook), each leaf's ``.grad`` is its own.
* The fused backward ops (tanh, sigmoid, relu, log_softmax) record PyTorch's node names and
  give PyTorch's second derivatives.
* Work that is skipped when nothing is recorded: no_grad keeps no nodes and no saved tensors.
"""

from __future__ import annotations

import gc

import numpy as np
import pytest
from functions import identity

import autograd_course as ag
from autograd_course.autograd import engine
from autograd_course.autograd.graph import Node
from autograd_course.autograd.saved_tensor import SavedTensor


def _alive(kind) -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if issubclass(type(o), kind))


def _saved_alive() -> int:
    """Saved tensors kept for backward: the entries of the nodes alive (a node keeps them in
    its own fields; a ``SavedTensor`` record is one such entry, made only when needed)."""
    gc.collect()
    return sum(sum(1 for kept in o.saved if kept is not None) for o in gc.get_objects()
               if issubclass(type(o), Node) and getattr(o, "saved", None))


# --- .grad without a copy ------------------------------------------------------------------
def test_two_leaves_fed_the_same_gradient_get_private_grads():
    a = ag.tensor([1.0, 2.0], requires_grad=True)
    b = ag.tensor([3.0, 4.0], requires_grad=True)
    (a + b).sum().backward()  # AddBackward0 hands one tensor to both sides
    assert not np.shares_memory(a.grad.numpy(), b.grad.numpy())
    a.grad.mul_(10)
    assert b.grad.tolist() == [1.0, 1.0] and a.grad.tolist() == [10.0, 10.0]
    (a + b).sum().backward()  # and accumulating in place keeps them apart
    assert b.grad.tolist() == [2.0, 2.0] and a.grad.tolist() == [11.0, 11.0]


def test_a_gradient_and_a_view_of_it_are_not_shared():
    a = ag.zeros(2, 3, requires_grad=True)
    b = ag.zeros(3, 2, requires_grad=True)
    (a + b.t()).sum().backward()  # b's gradient is a transposed view of a's
    assert not np.shares_memory(a.grad.numpy(), b.grad.numpy())


def test_a_gradient_the_user_holds_is_copied():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    g = ag.tensor([5.0, 6.0])
    y = x * 1
    y.backward(g)
    x.grad.zero_()
    assert g.tolist() == [5.0, 6.0]

    held = []

    def backward(ctx, grad):
        out = grad * 3
        held.append(out)  # the custom backward keeps its result
        return out

    Passthrough = identity(ag, backward, name="Passthrough")

    w = ag.tensor([1.0, 1.0], requires_grad=True)
    Passthrough.apply(w).sum().backward()
    w.grad.add_(1)
    assert held[0].tolist() == [3.0, 3.0]


def test_a_hook_that_keeps_the_gradient_sees_it_unchanged():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    kept = []
    x.register_hook(kept.append)  # a leaf's hook sees the very tensor .grad would take
    (x * 3).sum().backward()
    x.grad.mul_(0)
    assert kept[0].tolist() == [3.0, 3.0]


def test_taken_gradients_accumulate_in_place_and_stay_the_same_object():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    (x * x).sum().backward()
    first = x.grad
    (x * x).sum().backward()
    assert x.grad is first and x.grad.tolist() == [4.0, 8.0]


def test_the_trace_keeps_what_it_saw():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    seen = []
    with engine.trace(lambda node, g_out, g_in: seen.extend(g for g in g_in if g is not None)):
        (x * 2).sum().backward()
    x.grad.mul_(100)
    assert [g.tolist() for g in seen] == [[1.0, 1.0], [2.0, 2.0]]


def test_linear_weight_gradient_is_row_major_like_the_weight():
    layer = ag.nn.Linear(5, 3)
    layer(ag.randn(4, 5)).sum().backward()
    assert layer.weight.grad.numpy().flags.c_contiguous


def test_linear_gradients_match_the_formula():
    layer = ag.nn.Linear(5, 3)
    x = ag.randn(4, 5)
    upstream = ag.randn(4, 3)
    (layer(x) * upstream).sum().backward()
    np.testing.assert_allclose(layer.weight.grad.numpy(), upstream.numpy().T @ x.numpy(),
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(layer.bias.grad.numpy(), upstream.numpy().sum(0), rtol=1e-5)


# --- fused backward ops --------------------------------------------------------------------
FUSED = {
    "TanhBackwardBackward0": lambda m, x: m.tanh(x),
    "SigmoidBackwardBackward0": lambda m, x: m.sigmoid(x),
    "ThresholdBackwardBackward0": lambda m, x: m.relu(x),
    "LogSoftmaxBackwardDataBackward0": lambda m, x: m.nn.functional.log_softmax(x, 1),
}


@pytest.mark.parametrize("name", list(FUSED))
def test_fused_backward_names_and_second_derivatives(name):
    torch = pytest.importorskip("torch")
    values = np.array([[0.3, -1.2, 2.0], [-0.4, 0.9, -2.5]])
    weights = np.array([[1.0, -2.0, 0.5], [3.0, 0.25, -1.0]])
    results = []
    for m in (ag, torch):
        x = m.tensor(values, requires_grad=True)
        (g,) = m.autograd.grad((FUSED[name](m, x) * m.tensor(weights)).sum(), x,
                               create_graph=True)
        (gg,) = m.autograd.grad((g * g).sum(), x)
        results.append((g.grad_fn.name(), g.detach().numpy(), gg.numpy()))
    (ours_name, ours_g, ours_gg), (torch_name, torch_g, torch_gg) = results
    assert ours_name == torch_name == name
    np.testing.assert_allclose(ours_g, torch_g, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(ours_gg, torch_gg, rtol=1e-12, atol=1e-12)


# --- nothing kept when nothing is recorded -------------------------------------------------
def test_no_grad_inference_keeps_no_nodes_and_no_saved_tensors():
    model = ag.nn.Sequential(ag.nn.Linear(8, 16), ag.nn.ReLU(), ag.nn.Linear(16, 2))
    x = ag.randn(4, 8)
    nodes, saved, records = _alive(Node), _saved_alive(), _alive(SavedTensor)
    with ag.no_grad():
        out = model(x)
        assert out.grad_fn is None and not out.requires_grad
        assert _alive(Node) == nodes and _saved_alive() == saved
        assert _alive(SavedTensor) == records
    recorded = model(x)
    assert _alive(Node) > nodes and _saved_alive() > saved
    del recorded


def test_version_counters_follow_memory():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    assert y._version == 0 and y.detach()._version_counter is y._version_counter
    assert (x * 3).detach()._version_counter is not y._version_counter
    z = y.tanh()  # saves its output, checked at backward
    z.add_(1)
    assert z._version == 1
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        z.sum().backward()
