"""The exercise checkers of chapters 4 to 7.

Each checker is tried with a correct answer, a typical wrong answer (its hint is asserted) and
the untouched placeholder. A checker prints exactly one line and never raises.
"""

from __future__ import annotations

import pytest
from exercise_helpers import (
    assert_correct,
    assert_hint,
    assert_not_attempted,
    batch_gradients,
    verdict_of,
)

import autograd_course as ag
from autograd_course.autograd import Function
from autograd_course.course.exercises import ch04, ch05, ch06, ch07


def todo(*args, **kwargs):
    raise NotImplementedError


# --- chapter 4 --------------------------------------------------------------------------------


def _batch_gradients_no_zero(w, batches):
    grads = []
    for x, y in batches:
        ((x @ w - y) ** 2).mean().backward()
        grads.append(w.grad.clone())
    return grads


def _batch_gradients_no_clone(w, batches):
    grads = []
    for x, y in batches:
        if w.grad is not None:
            w.grad.zero_()
        ((x @ w - y) ** 2).mean().backward()
        grads.append(w.grad)
    return grads


def _batch_gradients_zero_first(w, batches):
    grads = []
    for x, y in batches:
        w.grad.zero_()  # the note's order: .grad is still None here
        ((x @ w - y) ** 2).mean().backward()
        grads.append(w.grad.clone())
    return grads


def test_ch04_batch_gradients(capsys):
    assert_correct(capsys, ch04.check_batch_gradients, batch_gradients)
    assert_hint(capsys, ch04.check_batch_gradients, _batch_gradients_no_zero, "accumulates")
    assert_hint(capsys, ch04.check_batch_gradients, _batch_gradients_no_clone, "clone()")
    assert_hint(capsys, ch04.check_batch_gradients, _batch_gradients_zero_first,
                "None before the first backward")
    assert_not_attempted(capsys, ch04.check_batch_gradients, todo)


# --- chapter 5 --------------------------------------------------------------------------------
def test_ch05_none_grads(capsys):
    assert_correct(capsys, ch05.check_none_grads, {"a", "c", "d"})
    v, line = verdict_of(capsys, ch05.check_none_grads, {"a", "d"})
    assert not v and "c.grad is None too" in line and "detach" in line
    assert_hint(capsys, ch05.check_none_grads, {"a", "b", "c", "d"}, "b.grad is not None")
    assert_hint(capsys, ch05.check_none_grads, {"x"}, "not among the names")
    v, line = verdict_of(capsys, ch05.check_none_grads, ...)
    assert line == "not attempted yet"


def test_ch05_snapshot(capsys):
    assert_correct(capsys, ch05.check_snapshot, lambda t: t.detach().clone())
    v, line = verdict_of(capsys, ch05.check_snapshot, lambda t: t.detach())
    assert not v and "shares memory" in line and "clone()" in line
    assert_hint(capsys, ch05.check_snapshot, lambda t: t.clone(), "still requires grad")
    assert_not_attempted(capsys, ch05.check_snapshot, todo)


def _freeze_correct(layers):
    for layer in layers[:-1]:
        for p in layer:
            p.requires_grad_(False)


def _freeze_weights_only(layers):
    for layer in layers[:-1]:
        layer[0].requires_grad_(False)


def _freeze_by_replacing(layers):
    for layer in layers[:-1]:
        layer[:] = [p.detach() for p in layer]


def test_ch05_freeze_all_but_last(capsys):
    assert_correct(capsys, ch05.check_freeze_all_but_last, _freeze_correct)
    v, line = verdict_of(capsys, ch05.check_freeze_all_but_last, _freeze_weights_only)
    assert not v and "layer 0 is not frozen" in line and "some of its parameters" in line
    assert_hint(capsys, ch05.check_freeze_all_but_last, _freeze_by_replacing, "in place")
    assert_not_attempted(capsys, ch05.check_freeze_all_but_last, todo)


# --- chapter 6 --------------------------------------------------------------------------------
def _sigmoid_with(backward):
    class MySigmoid(Function):
        @staticmethod
        def forward(ctx, x):
            y = 1 / (1 + (-x).exp())
            ctx.save_for_backward(y)
            return y

    MySigmoid.backward = staticmethod(backward)
    return MySigmoid


def _div_with(backward):
    class MyDiv(Function):
        @staticmethod
        def forward(ctx, a, b):
            ctx.save_for_backward(a, b)
            return a / b

    MyDiv.backward = staticmethod(backward)
    return MyDiv


def test_ch06_sigmoid(capsys):
    def right(ctx, g):
        (y,) = ctx.saved_tensors
        return g * y * (1 - y)

    def times_y(ctx, g):
        (y,) = ctx.saved_tensors
        return g * y

    def no_chain(ctx, g):
        (y,) = ctx.saved_tensors
        return y * (1 - y)

    assert_correct(capsys, ch06.check_sigmoid, _sigmoid_with(right))
    assert_hint(capsys, ch06.check_sigmoid, _sigmoid_with(times_y), "y * (1 - y)")
    assert_hint(capsys, ch06.check_sigmoid, _sigmoid_with(no_chain), "grad_output")
    v, line = verdict_of(capsys, ch06.check_sigmoid, _sigmoid_with(todo))
    assert line == "not attempted yet"
    v, line = verdict_of(capsys, ch06.check_sigmoid, ...)
    assert line == "not attempted yet"


def test_ch06_div(capsys):
    def right(ctx, g):
        a, b = ctx.saved_tensors
        return g / b, -g * a / (b * b)

    def wrong_sign(ctx, g):
        a, b = ctx.saved_tensors
        return g / b, g * a / (b * b)

    def one_gradient(ctx, g):
        a, b = ctx.saved_tensors
        return (g / b,)

    assert_correct(capsys, ch06.check_div, _div_with(right))
    v, line = verdict_of(capsys, ch06.check_div, _div_with(wrong_sign))
    assert not v and line == "not quite: your gradient for b has the right shape but the " \
                             "wrong sign"
    assert_hint(capsys, ch06.check_div, _div_with(one_gradient),
                "incorrect number of gradients (expected 2, got 1)")
    assert_not_attempted(capsys, ch06.check_div, _div_with(todo))


# --- chapter 7 --------------------------------------------------------------------------------
def _nesterov_correct(params, buffers, lr, momentum):
    with ag.no_grad():
        for i, p in enumerate(params):
            buffers[i] = p.grad.clone() if buffers[i] is None else momentum * buffers[i] + p.grad
            p -= lr * (p.grad + momentum * buffers[i])


def _nesterov_plain(params, buffers, lr, momentum):
    with ag.no_grad():
        for p in params:
            p -= lr * p.grad


def _nesterov_classical(params, buffers, lr, momentum):
    with ag.no_grad():
        for i, p in enumerate(params):
            buffers[i] = p.grad.clone() if buffers[i] is None else momentum * buffers[i] + p.grad
            p -= lr * buffers[i]


def _nesterov_ema(params, buffers, lr, momentum):
    with ag.no_grad():
        for i, p in enumerate(params):
            old = 0 if buffers[i] is None else buffers[i]
            buffers[i] = momentum * old + (1 - momentum) * p.grad
            p -= lr * (p.grad + momentum * buffers[i])


def _nesterov_without_no_grad(params, buffers, lr, momentum):
    for i, p in enumerate(params):
        buffers[i] = p.grad.clone() if buffers[i] is None else momentum * buffers[i] + p.grad
        p.sub_(lr * (p.grad + momentum * buffers[i]))


def test_ch07_nesterov_step(capsys):
    assert_correct(capsys, ch07.check_nesterov_step, _nesterov_correct)
    assert_hint(capsys, ch07.check_nesterov_step, _nesterov_plain, "plain gradient descent")
    assert_hint(capsys, ch07.check_nesterov_step, _nesterov_classical, "classical momentum")
    assert_hint(capsys, ch07.check_nesterov_step, _nesterov_ema, "moving average")
    assert_hint(capsys, ch07.check_nesterov_step, _nesterov_without_no_grad, "ag.no_grad()")
    assert_not_attempted(capsys, ch07.check_nesterov_step, todo)


def _train_correct(model, optimizer, batches, loss_fn):
    for x, y in batches:
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()


def _train_no_zero_grad(model, optimizer, batches, loss_fn):
    for x, y in batches:
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()


def _train_zero_before_step(model, optimizer, batches, loss_fn):
    for x, y in batches:
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.zero_grad()
        optimizer.step()


def test_ch07_training_loop(capsys):
    assert_correct(capsys, ch07.check_training_loop, _train_correct)
    v, line = verdict_of(capsys, ch07.check_training_loop, _train_no_zero_grad)
    assert not v and "zero_grad()" in line and "accumulate" in line
    assert_hint(capsys, ch07.check_training_loop, _train_zero_before_step,
                "between backward() and step()")
    assert_not_attempted(capsys, ch07.check_training_loop, todo)


@pytest.mark.parametrize("check", [
    ch04.check_sigmoid_mse_grad, ch04.check_batch_gradients, ch05.check_snapshot,
    ch05.check_freeze_all_but_last, ch06.check_sigmoid, ch06.check_div,
    ch07.check_nesterov_step, ch07.check_training_loop,
])
def test_placeholder_values_are_not_attempted(capsys, check):
    _, line = verdict_of(capsys, check, None)
    assert line == "not attempted yet"
