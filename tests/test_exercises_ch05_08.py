"""The exercise checkers added to chapters 5 to 8 (the older ones are in test_exercises_ch04_07).

Each checker is tried with a correct answer, each typical wrong answer (its hint is asserted)
and the untouched placeholder. A checker prints exactly one line and never raises.
"""

from __future__ import annotations

import pytest
from exercise_helpers import assert_correct, assert_hint, assert_not_attempted, verdict_of
from functions import mul_constant

import autograd_course as ag
from autograd_course.autograd import Function
from autograd_course.course.exercises import ch05, ch06, ch07, ch08


def todo(*args, **kwargs):
    raise NotImplementedError


# --- chapter 5: the straight-through clamp ------------------------------------------------------
def test_ch05_straight_through_correct(capsys):
    assert_correct(capsys, ch05.check_straight_through,
                   lambda x: x + (x.clamp(0, 1) - x).detach())


@pytest.mark.parametrize(("answer", "hint"), [
    (lambda x: x.clamp(0, 1), "the gradient of the clamp itself"),
    (lambda x: x.clamp(0, 1).detach(), "does not require grad"),
    (lambda x: x, "the values are x itself"),
    (lambda x: x.detach() + (x.clamp(0, 1) - x), "you detached x"),
    (lambda x: x.clamp(0, 2), "the values of your result"),
    (lambda x: [1.0], "should return a tensor"),
])
def test_ch05_straight_through_hints(capsys, answer, hint):
    assert_hint(capsys, ch05.check_straight_through, answer, hint)


def test_ch05_straight_through_not_attempted(capsys):
    assert_not_attempted(capsys, ch05.check_straight_through, todo)
    assert_not_attempted(capsys, ch05.check_straight_through, ...)


def test_ch05_checkers_leave_grad_mode_on(capsys):
    """A checker that runs learner code must not leave recording switched off."""
    verdict_of(capsys, ch05.check_straight_through, lambda x: x + (x.clamp(0, 1) - x).detach())
    verdict_of(capsys, ch05.check_snapshot, lambda t: t.detach().clone())
    assert ag.is_grad_enabled()


# --- chapter 6: MulConstant fixed, softplus from the forward alone ------------------------------
def _mul_constant_with(backward):
    return mul_constant(ag, backward)


def test_ch06_mul_constant_correct(capsys):
    assert_correct(capsys, ch06.check_mul_constant,
                   _mul_constant_with(lambda ctx, g: (g * ctx.constant, None)))


@pytest.mark.parametrize(("backward", "hint"), [
    (lambda ctx, g: (g, None), "still the note's backward"),
    (lambda ctx, g: g * ctx.constant,
     "one value per input of forward, in order (expected 2, got 1)"),
    (lambda ctx, g: (g * ctx.constant, ctx.constant), "return None in that place"),
    (lambda ctx, g: (g * 0 + ctx.constant, None), "the local derivative alone"),
    (lambda ctx, g: (2 * g * ctx.constant, None), "2 times the expected value"),
    (lambda ctx, g: (None, None), "returned None for the tensor"),
])
def test_ch06_mul_constant_hints(capsys, backward, hint):
    assert_hint(capsys, ch06.check_mul_constant, _mul_constant_with(backward), hint)


def test_ch06_mul_constant_not_attempted(capsys):
    assert_not_attempted(capsys, ch06.check_mul_constant, _mul_constant_with(todo))
    assert_not_attempted(capsys, ch06.check_mul_constant, ...)


def _softplus_with(backward, save=True):
    class MySoftplus(Function):
        @staticmethod
        def forward(ctx, x):
            if save:
                ctx.save_for_backward(x)
            return (1 + x.exp()).log()

    MySoftplus.backward = staticmethod(backward)
    return MySoftplus


def _softplus_right(ctx, g):
    (x,) = ctx.saved_tensors
    return g / (1 + (-x).exp())


def test_ch06_softplus_correct(capsys):
    assert_correct(capsys, ch06.check_softplus, _softplus_with(_softplus_right))


def _sp(expression):
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return expression(g, x)
    return _softplus_with(backward)


@pytest.mark.parametrize(("function_cls", "hint"), [
    (_softplus_with(_softplus_right, save=False), "forward saved nothing"),
    (_sp(lambda g, x: g * x.exp()), "the outer log contributes a factor"),
    (_sp(lambda g, x: g / (1 + x.exp())), "σ(-x)"),
    (_sp(lambda g, x: 1 / (1 + (-x).exp())), "the local derivative alone"),
    (_sp(lambda g, x: g * (1 + x.exp()).log()), "your gradient for x has the right shape"),
    (int, "expected a subclass of ag.autograd.Function"),
])
def test_ch06_softplus_hints(capsys, function_cls, hint):
    assert_hint(capsys, ch06.check_softplus, function_cls, hint)


def test_ch06_softplus_not_attempted(capsys):
    assert_not_attempted(capsys, ch06.check_softplus, _softplus_with(todo))
    assert_not_attempted(capsys, ch06.check_softplus, None)


# --- chapter 7: the missing momentum buffer, the missing step ------------------------------------
def _nesterov_not_stored(params, buffers, lr, momentum):
    with ag.no_grad():
        for i, p in enumerate(params):
            buf = p.grad.clone() if buffers[i] is None else momentum * buffers[i] + p.grad
            p -= lr * (p.grad + momentum * buf)


def _nesterov_correct(params, buffers, lr, momentum):
    with ag.no_grad():
        for i, p in enumerate(params):
            buffers[i] = p.grad.clone() if buffers[i] is None else momentum * buffers[i] + p.grad
            p -= lr * (p.grad + momentum * buffers[i])


def test_ch07_nesterov_without_storing_the_buffer_names_the_state(capsys):
    assert_correct(capsys, ch07.check_nesterov_step, _nesterov_correct)
    assert_hint(capsys, ch07.check_nesterov_step, _nesterov_not_stored,
                "you never stored the momentum buffer")
    assert_not_attempted(capsys, ch07.check_nesterov_step, todo)


def _train_without_step(model, optimizer, batches, loss_fn):
    for x, y in batches:
        optimizer.zero_grad()
        loss_fn(model(x), y).backward()


def _train_correct(model, optimizer, batches, loss_fn):
    for x, y in batches:
        optimizer.zero_grad()
        loss_fn(model(x), y).backward()
        optimizer.step()


def test_ch07_training_loop_without_step_names_the_step(capsys):
    verdict, line = verdict_of(capsys, ch07.check_training_loop, _train_without_step)
    assert not verdict and "optimizer.step() is never called" in line
    assert "between backward() and step()" not in line
    assert_correct(capsys, ch07.check_training_loop, _train_correct)
    assert_not_attempted(capsys, ch07.check_training_loop, todo)


# --- chapter 8: pick the device, a training step for any device ---------------------------------
def _pick_right():
    return "cuda" if ag.cuda.is_available() else "cpu"


def test_ch08_pick_device_correct(capsys):
    assert_correct(capsys, ch08.check_pick_device, _pick_right)
    assert ag.cuda.is_available is ag.cuda.__dict__["is_available"]


_FIXED = "cuda" if ag.cuda.is_available() else "cpu"


@pytest.mark.parametrize(("answer", "hint"), [
    (lambda: "cpu", "you return 'cpu' even when ag.cuda.is_available() says a GPU is there"),
    (lambda: "cuda", "return 'cpu' when ag.cuda.is_available() is False"),
    (lambda: "cpu" if ag.cuda.is_available() else "cuda", "the two answers are swapped"),
    (lambda: 0, "return the device as the string 'cuda' or 'cpu'"),
    (lambda: _FIXED, "ask it each time the function runs" if _FIXED == "cpu"
     else "return 'cpu' when"),
])
def test_ch08_pick_device_hints(capsys, answer, hint):
    assert_hint(capsys, ch08.check_pick_device, answer, hint)


def test_ch08_pick_device_not_attempted(capsys):
    assert_not_attempted(capsys, ch08.check_pick_device, todo)
    assert_not_attempted(capsys, ch08.check_pick_device, None)


def _step(move=True, step=True, item=True, loss_after=False):
    def train_step(model, optimizer, xb, yb, loss_fn):
        if move:
            device = next(model.parameters()).device
            xb, yb = xb.to(device), yb.to(device)
        optimizer.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        if step:
            optimizer.step()
        if loss_after:
            loss = loss_fn(model(xb), yb)
        return loss.item() if item else loss
    return train_step


def test_ch08_train_step_correct(capsys):
    assert_correct(capsys, ch08.check_train_step, _step())


@pytest.mark.parametrize(("answer", "hint"), [
    (_step(move=False), "xb is never moved to the model's device"),
    (_step(item=False), "return the loss as a Python number (loss.item()), not a Tensor"),
    (_step(step=False), "call optimizer.step()"),
    (_step(loss_after=True), "before the step"),
])
def test_ch08_train_step_hints(capsys, answer, hint):
    assert_hint(capsys, ch08.check_train_step, answer, hint)


def test_ch08_train_step_not_attempted_and_restores_tensor_to(capsys):
    to = ag.Tensor.to
    assert_not_attempted(capsys, ch08.check_train_step, todo)
    assert_not_attempted(capsys, ch08.check_train_step, ...)
    verdict_of(capsys, ch08.check_train_step, _step(move=False))
    assert ag.Tensor.to is to


def test_ch08_checkers_on_a_simulated_gpu(capsys, monkeypatch):
    """With (fake) CuPy the model sits on 'cuda': a batch left on the CPU is named as such."""
    import sys

    from fake_cupy import make_module

    from autograd_course import _backend

    module = make_module()
    monkeypatch.setattr(_backend, "_cupy", module)
    monkeypatch.setitem(sys.modules, "cupy", module)
    assert ag.cuda.is_available()
    assert_correct(capsys, ch08.check_pick_device, _pick_right)
    assert_correct(capsys, ch08.check_train_step, _step())
    assert_hint(capsys, ch08.check_train_step, _step(move=False),
                "the batch is still on the CPU while the model is on the GPU")


# --- a body without `return` (the shared hint of exercises/_common.py) -------------------------
def _snapshot_without_return(t):
    t.detach().clone()


def _clamp_without_return(x):
    x + (x.clamp(0, 1) - x).detach()


def _pick_without_return():
    "cuda" if ag.cuda.is_available() else "cpu"


def _train_step_without_return(model, optimizer, xb, yb, loss_fn):
    _step()(model, optimizer, xb, yb, loss_fn)


@pytest.mark.parametrize(("check", "answer"), [
    (ch05.check_snapshot, _snapshot_without_return),
    (ch05.check_straight_through, _clamp_without_return),
    (ch08.check_pick_device, _pick_without_return),
    (ch08.check_train_step, _train_step_without_return),
])
def test_a_body_without_return_is_named(capsys, check, answer):
    assert_hint(capsys, check, answer, "returned None")


def test_ch05_straight_through_hint_with_values_on_the_clamp_bounds(capsys, monkeypatch):
    """x exactly 0 or 1: clamp passes the gradient there, so the hint must still be right."""
    import numpy as np

    class _Fixed:
        def uniform(self, low, high, size):
            return np.array([0.0, 1.0, 0.5, 2.0])

    monkeypatch.setattr(np.random, "default_rng", lambda *a, **k: _Fixed())
    assert_hint(capsys, ch05.check_straight_through,
                lambda x: x.detach() + (x.clamp(0, 1) - x), "you detached x")
    assert_correct(capsys, ch05.check_straight_through,
                   lambda x: x + (x.clamp(0, 1) - x).detach())
