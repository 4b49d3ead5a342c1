"""Issue 15's "checker hints that mislead", one test each, in the order the issue lists them.

Every test tries the checker with a correct answer, the typical wrong answer (its hint must
name the actual mistake, and must not give the misleading hint the issue reported), the
untouched placeholder, and a function whose body runs but has no ``return``.
"""

from __future__ import annotations

import math

import pytest
from exercise_helpers import (
    assert_correct,
    assert_hint,
    assert_not_attempted,
    batch_gradients,
    find_leaves,
    jacobian,
    topo_order,
    verdict_of,
)

import autograd_course as ag
from autograd_course.course.exercises import ch01, ch02, ch03, ch04, ch05, ch07, ch09, retired
from autograd_course.course.exercises.value import Value


def _todo(*args):
    raise NotImplementedError


# --- correct answers ----------------------------------------------------------------------------




def mse_grad(z, y):
    s = z.sigmoid()
    return 2 * (s - y) * s * (1 - s) / z.numel()




def snapshot(t):
    return t.detach().clone()




def _exp_value(attach=True, give_back=True):
    class MyValue(Value):
        def exp(self):
            out = type(self)(math.exp(self.data), (self,), "exp")

            def _backward():
                self.grad += out.data * out.grad

            if attach:
                out._backward = _backward
            if give_back:
                return out

    return MyValue


# --- a body without `return` says it returned None ------------------------------------------
def jacobian_no_return(f, x):
    jacobian(f, x)


def find_leaves_no_return(t):
    find_leaves(t)


def mse_grad_no_return(z, y):
    mse_grad(z, y)


def batch_gradients_no_return(w, batches):
    batch_gradients(w, batches)


def snapshot_no_return(t):
    snapshot(t)


def topo_order_no_return(t):
    topo_order(t)


BODY_WITHOUT_RETURN = [
    ("2.1", ch02.check_jacobian, jacobian, jacobian_no_return),
    ("3.1", ch03.check_find_leaves, find_leaves, find_leaves_no_return),
    ("4.1", ch04.check_sigmoid_mse_grad, mse_grad, mse_grad_no_return),
    ("4.2", ch04.check_batch_gradients, batch_gradients, batch_gradients_no_return),
    ("5.2", ch05.check_snapshot, snapshot, snapshot_no_return),
    ("9.1", ch09.check_topo_order, topo_order, topo_order_no_return),
]


@pytest.mark.parametrize(("exercise", "check", "right", "no_return"), BODY_WITHOUT_RETURN,
                         ids=[row[0] for row in BODY_WITHOUT_RETURN])
def test_a_body_without_return_says_it_returned_none(capsys, exercise, check, right, no_return):
    assert_correct(capsys, check, right)
    _, line = verdict_of(capsys, check, no_return)
    assert line.startswith(f"not quite: {no_return.__name__}() returned None"), line
    assert "not attempted" not in line
    assert_not_attempted(capsys, check, _todo)
    assert_not_attempted(capsys, check, ...)


def test_9_2_a_body_without_return_says_it_returned_none(capsys):
    assert_correct(capsys, retired.check_value_exp, _exp_value())
    assert_hint(capsys, retired.check_value_exp, _exp_value(give_back=False),
                "exp() returned None")

    class Todo(Value):
        def exp(self):
            raise NotImplementedError

    class Dots(Value):
        def exp(self):
            ...

    assert_not_attempted(capsys, retired.check_value_exp, Todo)
    assert_not_attempted(capsys, retired.check_value_exp, Dots)
    assert_not_attempted(capsys, retired.check_value_exp, ...)


# --- 7.2 without optimizer.step() ------------------------------------------------------------
def train(model, optimizer, batches, loss_fn, *, step=True):
    for x, y in batches:
        optimizer.zero_grad()
        loss_fn(model(x), y).backward()
        if step:
            optimizer.step()


def train_no_return(model, optimizer, batches, loss_fn):
    train(model, optimizer, batches, loss_fn)
    return None


def test_7_2_without_step_names_the_missing_step(capsys):
    check = ch07.check_training_loop
    assert_correct(capsys, check, train)
    _, line = verdict_of(capsys, check, lambda *a: train(*a, step=False))
    assert "optimizer.step() is never called" in line
    assert "cleared the gradients" not in line
    assert_not_attempted(capsys, check, _todo)
    assert_not_attempted(capsys, check, ...)
    # train returns nothing by design: a loop without return is an answer, not a mistake
    assert_correct(capsys, check, train_no_return)


# --- 9.2 without `out._backward = _backward` ---------------------------------------------------
def test_9_2_without_attaching_backward_does_not_blame_plus_equals(capsys):
    _, line = verdict_of(capsys, retired.check_value_exp, _exp_value(attach=False))
    assert line.startswith("not quite: ")
    assert "out._backward = _backward" in line
    assert "+=" not in line and "not `=`" not in line
    # the `=` mistake still gets the `+=` hint
    class Overwrites(Value):
        def exp(self):
            out = type(self)(math.exp(self.data), (self,), "exp")

            def _backward():
                self.grad = out.data * out.grad

            out._backward = _backward
            return out

    assert_hint(capsys, retired.check_value_exp, Overwrites, "`self.grad += ...`")


def test_9_2_without_attaching_backward_in_chinese(capsys):
    ag.course.exercises.set_language("zh")
    try:
        _, line = verdict_of(capsys, retired.check_value_exp, _exp_value(attach=False))
    finally:
        ag.course.exercises.set_language(None)
    assert line.startswith("还不对：") and "out._backward = _backward" in line
    assert "+=" not in line


# --- 1.5 (the 1.1): x.grad by hand, written with the exercise's x ----------------------
def test_predict_grad_written_with_x_counts_as_by_hand(capsys):
    x = ag.tensor(ch01.PREDICT_X, requires_grad=True)
    assert_correct(capsys, ch01.check_predict_grad, 18 * x)
    assert_correct(capsys, ch01.check_predict_grad, [[18.0, 36.0], [54.0, 72.0]])
    _, line = verdict_of(capsys, ch01.check_predict_grad, 18 * x * 2)
    assert "2 times the expected value" in line and "autograd" not in line
    assert_hint(capsys, ch01.check_predict_grad, 6 * x, "0.3333 times")
    assert_not_attempted(capsys, ch01.check_predict_grad, ...)


# --- 2.1 without resetting x.grad, 7.1 without storing the buffer -----------------------------
def test_2_1_without_resetting_names_the_accumulation(capsys):
    _, line = verdict_of(capsys, ch02.check_jacobian, lambda f, x: jacobian(f, x, reset=False))
    assert "contains the rows before it" in line and "x.grad = None" in line
    assert "wrong values" not in line


def nesterov(params, buffers, lr, momentum, *, store=True):
    with ag.no_grad():
        for i, p in enumerate(params):
            buf = p.grad.clone() if buffers[i] is None else momentum * buffers[i] + p.grad
            if store:
                buffers[i] = buf
            p -= lr * (p.grad + momentum * buf)


def test_7_1_without_storing_names_the_missing_state(capsys):
    check = ch07.check_nesterov_step
    assert_correct(capsys, check, nesterov)
    _, line = verdict_of(capsys, check, lambda *a: nesterov(*a, store=False))
    assert "buffers[i] is still None" in line and "never stored the momentum buffer" in line
    assert "wrong values" not in line
    assert_not_attempted(capsys, check, _todo)
    assert_not_attempted(capsys, check, ...)
