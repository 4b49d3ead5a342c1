"""Issue 32's exercises in chapters 1-3: the best step of a finite difference (1.7), the
``Value`` operators (2.5), a loss that knows the labels (2.6), a training step on the learner's
network (3.5). Each checker is tried with a right answer, its placeholder, and one wrong answer
per hint. Also: the learner's network takes the same step as the package's on the same weights,
and ``ag.viz.draw_graph`` draws a scalar ``Value``.
"""

from __future__ import annotations

import numpy as np
import pytest
from exercise_helpers import assert_correct, assert_hint, assert_not_attempted

import autograd_course as ag
from autograd_course.course.exercises import ch01, ch02, ch03, value
from autograd_course.course.exercises.value import MLP, Value, ValueOps, ValuePowTanh, mse


# --- 1.7: the best step ------------------------------------------------------------------------
def test_ex_1_7_best_step_is_measured_not_assumed():
    errors = [ch01.difference_error(h) for h in ch01.STEPS]
    assert ch01.best_step() == ch01.STEPS[int(np.argmin(errors))]
    # round-off on the small side, truncation on the large side of the minimum
    assert ch01.difference_error(1e-12) > 1e3 * ch01.difference_error(ch01.best_step())
    assert ch01.difference_error(1e-1) > 1e3 * ch01.difference_error(ch01.best_step())
    assert ch01.best_step(np.float32) > 100 * ch01.best_step()
    assert ch01.best_step(central=False) < ch01.best_step()


def test_ex_1_7_best_step(capsys):
    for h in (1e-4, 1e-5, 1e-6, 3e-6, np.float64(1e-5), ag.tensor(1e-5, dtype=ag.float64)):
        assert_correct(capsys, ch01.check_best_step, h)
    assert_not_attempted(capsys, ch01.check_best_step, ...)
    assert_hint(capsys, ch01.check_best_step, "small", "one number")
    assert_hint(capsys, ch01.check_best_step, -1e-5, "positive")
    assert_hint(capsys, ch01.check_best_step, ch01.best_step(np.float32), "float32")
    assert_hint(capsys, ch01.check_best_step, ch01.best_step(central=False), "*forward*")
    assert_hint(capsys, ch01.check_best_step, 1e-13, "round-off")
    assert_hint(capsys, ch01.check_best_step, 1.0, "truncation")


# --- 2.5: operators ----------------------------------------------------------------------------
def test_ex_2_5_operators(capsys):
    assert_correct(capsys, ch02.check_value_operators, ValueOps)
    assert_correct(capsys, ch02.check_value_operators, Value)

    class Blank(ValuePowTanh):
        def __neg__(self):
            ...

        def __sub__(self, other):
            ...

    assert_not_attempted(capsys, ch02.check_value_operators, Blank)
    assert_not_attempted(capsys, ch02.check_value_operators, ...)


def _ops(**methods):
    return type("Value", (ValueOps,), methods)


def test_ex_2_5_each_hint(capsys):
    def no_graph_sub(self, other):
        return type(self)(self.data - other.data)

    assert_hint(capsys, ch02.check_value_operators, _ops(__sub__=no_graph_sub),
                "sends no gradient back")

    def swapped_rsub(self, other):
        return self + (-self._lift(other))

    assert_hint(capsys, ch02.check_value_operators, _ops(__rsub__=swapped_rsub),
                "other way round")

    def swapped_rdiv(self, other):
        return self * self._lift(other) ** -1

    assert_hint(capsys, ch02.check_value_operators, _ops(__rtruediv__=swapped_rdiv),
                "other way round")

    class NoRadd(ValuePowTanh):
        __radd__ = None

    def neg(self):
        return self * -1

    def sub(self, other):
        return self + (-self._lift(other))

    no_radd = type("Value", (NoRadd,), {
        "__neg__": neg, "__sub__": sub, "__rsub__": ValueOps.__rsub__,
        "__truediv__": ValueOps.__truediv__, "__rtruediv__": ValueOps.__rtruediv__})
    assert_hint(capsys, ch02.check_value_operators, no_radd, "raised TypeError")

    def neg_forward_wrong(self):
        return self * 1

    assert_hint(capsys, ch02.check_value_operators, _ops(__neg__=neg_forward_wrong),
                "expected -3")

    def div_wrong_grad(self, other):
        other = self._lift(other)
        out = type(self)(self.data / other.data, (self, other), "/")

        def _backward():
            self.grad += out.grad / other.data
            other.grad += out.grad / self.data  # should be -self / other**2

        out._backward = _backward
        return out

    assert_hint(capsys, ch02.check_value_operators, _ops(__truediv__=div_wrong_grad),
                "backward gave")

    def forgot_return(self):
        self * -1

    assert_hint(capsys, ch02.check_value_operators, _ops(__neg__=forgot_return),
                "returned None")


# --- 2.6: a loss ---------------------------------------------------------------------------------
def test_ex_2_6_loss(capsys):
    assert_correct(capsys, ch02.check_loss, lambda p, y: ((p - y) ** 2).mean())
    assert_correct(capsys, ch02.check_loss, lambda p, y: (p - y).abs().sum())
    assert_not_attempted(capsys, ch02.check_loss, ...)

    def blank(prediction, labels):
        ...

    assert_not_attempted(capsys, ch02.check_loss, blank)


def test_ex_2_6_each_hint(capsys):
    assert_hint(capsys, ch02.check_loss, lambda p, y: (p - y) ** 2, "one number")
    assert_hint(capsys, ch02.check_loss, lambda p, y: ((p - y).abs() < 0.1).float().mean(),
                "does not require grad")
    assert_hint(capsys, ch02.check_loss, lambda p, y: (p.round() - y).abs().sum(),
                "gradient 0 for every prediction")
    assert_hint(capsys, ch02.check_loss, lambda p, y: (p - y).sum(), "whatever the labels")
    assert_hint(capsys, ch02.check_loss, lambda p, y: -((p - y) ** 2).mean(), "*away*")
    assert_hint(capsys, ch02.check_loss, lambda p, y: (p - y) @ (p - y).flip(0),
                "some predictions")
    assert_hint(capsys, ch02.check_loss, lambda p, y: ((p - y) ** 2).mean() + 1, "should be 0")


def test_note_000_sum_is_not_a_loss():
    """The chapter's claim, on the package: d/dprediction of (prediction - labels).sum() is 1
    everywhere, for any labels."""
    p = ag.rand(1, 1000, requires_grad=True)
    for labels in (ag.rand(1, 1000), ag.zeros(1, 1000), p.detach()):
        p.grad = None
        (p - labels).sum().backward()
        assert ag.equal(p.grad, ag.ones(1, 1000))


# --- 3.5: a training step ---------------------------------------------------------------------
def _step(zero=True, zero_after_backward=False, sign=-1.0, use_lr=True, give=True):
    def train_step(model, xs, ys, lr):
        if zero:
            for p in model.parameters():
                p.grad = 0.0
        loss = mse(model, xs, ys)
        loss.backward()
        if zero_after_backward:
            for p in model.parameters():
                p.grad = 0.0
        for p in model.parameters():
            p.data += sign * (lr if use_lr else 1.0) * p.grad
        return loss if give else loss.data * 2

    return train_step


def test_ex_3_5_train_step(capsys):
    assert_correct(capsys, ch03.check_train_step, _step())
    assert_correct(capsys, ch03.check_train_step, value.train_step)
    assert_not_attempted(capsys, ch03.check_train_step, ...)

    def blank(model, xs, ys, lr):
        ...

    assert_not_attempted(capsys, ch03.check_train_step, blank)


def test_ex_3_5_each_hint(capsys):
    assert_hint(capsys, ch03.check_train_step, _step(zero=False), "previous step left")
    assert_hint(capsys, ch03.check_train_step, _step(zero=False, zero_after_backward=True),
                "after backward()")
    assert_hint(capsys, ch03.check_train_step, _step(sign=0.0), "did not change")
    assert_hint(capsys, ch03.check_train_step, _step(sign=1.0), "uphill")
    assert_hint(capsys, ch03.check_train_step, _step(use_lr=False), "multiply it by lr")
    assert_hint(capsys, ch03.check_train_step, _step(sign=-2.0), "did not move by")
    assert_hint(capsys, ch03.check_train_step, _step(give=False), "return the loss")


# --- the learner's network takes the package's step --------------------------------------------
def package_twin(model: MLP):
    """The same network in the package (float64), with the same weights."""
    layers = []
    for k, layer in enumerate(model.layers):
        linear = ag.nn.Linear(len(layer.neurons[0].w), len(layer.neurons), dtype=ag.float64)
        with ag.no_grad():
            linear.weight.copy_(ag.tensor([[w.data for w in n.w] for n in layer.neurons],
                                              dtype=ag.float64))
            linear.bias.copy_(ag.tensor([n.b.data for n in layer.neurons], dtype=ag.float64))
        layers.append(linear)
        if k < len(model.layers) - 1:
            layers.append(ag.nn.Tanh())
    return ag.nn.Sequential(*layers)


@pytest.mark.parametrize("sizes", [[3, 1], [4, 4, 1]])
def test_one_step_of_the_value_mlp_equals_the_package(sizes):
    rng = np.random.default_rng(7)
    xs = rng.normal(size=(10, 2))
    ys = np.where(xs[:, 0] > xs[:, 1], 1.0, -1.0)
    model = MLP(2, sizes, rng)
    net = package_twin(model)
    opt = ag.optim.SGD(net.parameters(), lr=0.1)
    loss = value.train_step(model, xs, ys, 0.1)
    opt.zero_grad()
    pkg_loss = ((net(ag.tensor(xs)).squeeze(1) - ag.tensor(ys)) ** 2).mean()
    pkg_loss.backward()
    opt.step()
    assert abs(loss.data - pkg_loss.item()) < 1e-12
    after = package_twin(model)
    for ours, theirs in zip(after.parameters(), net.parameters()):
        np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), atol=1e-12)
    # ...and a step in the other order of operations would not be equal: the test can fail
    value.train_step(model, xs, ys, 0.1)
    moved = package_twin(model)
    assert not all(np.allclose(a.detach().numpy(), b.detach().numpy())
                   for a, b in zip(moved.parameters(), net.parameters()))


# --- drawing a Value ---------------------------------------------------------------------------
def test_draw_graph_accepts_a_scalar_value():
    a, b = Value(2.0), Value(-3.0)
    out = (a * b + a).tanh()
    out.backward()
    view = ag.viz.draw_graph(out, params={"a": a, "b": b})
    assert view.source == ag.viz.draw_graph(out, params={"a": a, "b": b}).source  # stable
    for text in ("<b>a</b>", "<b>b</b>", "<b>tanh</b>", "<b>*</b>", "<b>+</b>", "data -0.9993",
                 "grad 1"):
        assert text in view.source, text
    assert view.source.count("shape=ellipse") == 3  # one per operation
    assert view.source.count("n5 -> n") == 2  # a feeds both * and +
    assert "a: data 2" in view.text


def test_draw_graph_draws_any_object_of_the_same_shape():
    class Mini:
        def __init__(self, data, prev=(), op=""):
            self.data, self.grad, self._prev, self._op = data, 0.0, prev, op

    x = Mini(1.0)
    y = Mini(2.0, (x, x), "+")
    source = ag.viz.draw_graph(y, params={"x": x}).source
    assert source.count("n2 -> n1") == 2  # x used twice: two edges, as for a tensor
    assert "<b>x</b>" in source and "<b>+</b>" in source


def test_draw_graph_of_a_long_value_chain_stops_at_max_nodes_and_counts_the_rest():
    x = Value(1.0)
    y = x
    for _ in range(3000):  # deeper than Python's recursion limit: the walks are iterative
        y = y * 1.0
    source = ag.viz.draw_graph(y, max_nodes=20).source
    # 3000 operations, 3001 values along the chain and 3000 constants 1.0: 9001 nodes
    drawn = source.count("[label=")  # the summary node included
    assert f"… {9001 - (drawn - 1):,} more nodes" in source
    assert ag.viz.draw_graph(y, max_nodes=20, lang="zh").source.count("另有") == 1
