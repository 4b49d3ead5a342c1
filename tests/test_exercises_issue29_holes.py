"""The checker holes of issue 29: each wrong answer a review found accepted (or answered with
the wrong hint) is fed to its checker, which must now give the right hint.

Every test here failed before the fix: the checker printed "correct" (or another hint).
"""

from __future__ import annotations

import math

from exercise_helpers import assert_correct, assert_hint, verdict_of

import autograd_course as ag
from autograd_course.autograd import Function
from autograd_course.course.exercises import ch00, ch01, ch02, ch03, ch04, ch06
from autograd_course.course.exercises.value import ValueAddMul, ValuePowTanh


def f(x):
    return x ** 3 - 2 * x


# --- 0.2: PowBackward1 for a ** 2 -----------------------------------------------------------
def test_ex_0_2_a_wrong_variant_number_gets_the_variant_hint(capsys):
    names = ["AddBackward0", "MulBackward0", "PowBackward1", "SumBackward0", "MulBackward0"]
    assert_hint(capsys, ch00.check_grad_fn_names, names, "numbers its variants")
    assert_hint(capsys, ch00.check_grad_fn_names, names, "PowBackward0 here, not PowBackward1")


# --- 1.1: the slope ---------------------------------------------------------------------------
def test_ex_1_1_a_forward_difference_is_not_a_central_one(capsys):
    h = 1e-4
    assert_hint(capsys, ch01.check_slope, (f(2 + h) - f(2)) / h, "one-sided")
    assert_hint(capsys, ch01.check_slope, (f(2) - f(2 - h)) / h, "one-sided")
    assert_correct(capsys, ch01.check_slope, (f(2 + h) - f(2 - h)) / (2 * h))
    h = 1e-3
    assert_correct(capsys, ch01.check_slope, (f(2 + h) - f(2 - h)) / (2 * h))


def test_ex_1_1_the_analytic_10_is_not_a_measurement(capsys):
    """A typed 10 is a whole number; a difference quotient (``/``) never is. The float 10.0
    is what a central difference with h = 2**-20 gives too (issue 43): it passes, with a
    remark that typing the derivative is not measuring it."""
    assert_hint(capsys, ch01.check_slope, 10, "*measure* it")
    assert_hint(capsys, ch01.check_slope, ag.tensor(10), "*measure* it")
    for slope in (10.0, ag.tensor(10.0)):
        verdict, line = verdict_of(capsys, ch01.check_slope, slope)
        assert verdict and "is not measuring" in line, line


def test_ex_1_1_two_numbers_are_not_one_slope(capsys):
    assert_hint(capsys, ch01.check_slope, [10.000001, 99.0], "give one number")


# --- 1.2: other.grad instead of other.data ------------------------------------------------------
def test_ex_1_2_grad_instead_of_data_gets_its_own_hint(capsys):
    class Value(ValueAddMul):
        def __mul__(self, other):
            out = Value(self.data * other.data, (self, other))

            def _backward():
                self.grad += other.grad * out.grad
                other.grad += self.grad * out.grad

            out._backward = _backward
            return out

    assert_hint(capsys, ch01.check_value_mul, Value, "other.data, not its gradient")


# --- 2.3: sum_to_size is what the exercise asks to write ----------------------------------------
def test_ex_2_3_calling_sum_to_size_is_refused(capsys):
    def unbroadcast(grad, shape):
        return grad.sum_to_size(shape)

    assert_hint(capsys, ch02.check_unbroadcast, unbroadcast, "sum_to_size is the function")


# --- 2.4: __pow__ overwriting x.grad ------------------------------------------------------------
def test_ex_2_4_pow_with_equals_is_caught_when_it_runs_last(capsys):
    class Value(ValuePowTanh):
        def __pow__(self, k):
            out = Value(self.data ** k, (self,))

            def _backward():
                self.grad = k * self.data ** (k - 1) * out.grad

            out._backward = _backward
            return out

    assert_hint(capsys, ch02.check_value_pow_tanh, Value, "self.grad += ...")


# --- 3.3: a hook that changes grad in place; a hook that returns None -----------------------------
def test_ex_3_3_clamping_in_place_is_refused(capsys):
    def clip_hook(grad):
        grad.clamp_(-1, 1)

    assert_hint(capsys, ch03.check_clip_hook, clip_hook, "must not modify its argument")


def test_ex_3_3_returning_none_is_an_answer_not_a_blank(capsys):
    def clip_hook(grad):
        return None

    assert_hint(capsys, ch03.check_clip_hook, clip_hook, "must *return* the new gradient")


# --- 3.4: exp overwriting x.grad is not an ordering problem ---------------------------------------
def test_ex_3_4_exp_with_equals_gets_the_accumulate_hint(capsys):
    from autograd_course.course.exercises.value import Value as Reference

    class Value(Reference):
        def exp(self):
            out = Value(math.exp(self.data), (self,))

            def _backward():
                self.grad = out.data * out.grad

            out._backward = _backward
            return out

    assert_hint(capsys, ch03.check_value_backward, Value, "overwrote x.grad")


def test_ex_3_4_the_recursion_hint_gives_a_working_recipe(capsys):
    class Value(ValuePowTanh):
        def exp(self):
            out = Value(math.exp(self.data), (self,))

            def _backward():
                self.grad += out.data * out.grad

            out._backward = _backward
            return out

        def backward(self):
            order, seen = [], set()

            def visit(v):
                if v not in seen:
                    seen.add(v)
                    for child in v._prev:
                        visit(child)
                    order.append(v)

            visit(self)
            self.grad = 1.0
            for v in reversed(order):
                v._backward()

    assert_hint(capsys, ch03.check_value_backward, Value, "post-order")


# --- 4.3: autograd.grad, h built twice ---------------------------------------------------------
def test_ex_4_3_autograd_grad_with_h_built_twice_is_refused(capsys):
    def two_losses(w, x):
        first = ((x @ w).tanh() ** 2).sum()
        second = ((x @ w) * (x @ w)).mean()
        return ag.autograd.grad(first, w)[0], ag.autograd.grad(second, w)[0]

    assert_hint(capsys, ch04.check_two_losses, two_losses, "not ag.autograd.grad")


def test_ex_4_3_h_built_twice_is_refused(capsys):
    def two_losses(w, x):
        first = ((x @ w).tanh() ** 2).sum()
        w.grad = None
        first.backward()
        g_first = w.grad.clone()
        h = x @ w
        w.grad = None
        (h * h).mean().backward()
        return g_first, w.grad

    assert_hint(capsys, ch04.check_two_losses, two_losses, "build h = x @ w once")


def test_ex_4_3_the_solution_still_passes(capsys):
    def two_losses(w, x):
        h = x @ w
        first = (h.tanh() ** 2).sum()
        second = (h * h).mean()
        w.grad = None
        first.backward(retain_graph=True)
        g_first = w.grad.clone()
        w.grad = None
        second.backward()
        return g_first, w.grad

    assert_correct(capsys, ch04.check_two_losses, two_losses)


# --- 6.4: ctx.x = x instead of save_for_backward --------------------------------------------------
def test_ex_6_4_a_tensor_kept_on_ctx_is_refused(capsys):
    class MySoftplus(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.x = x
            return (1 + x.exp()).log()

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output / (1 + (-ctx.x).exp())

    assert_hint(capsys, ch06.check_softplus, MySoftplus, "ctx.save_for_backward")


# --- one line per verdict, 2-D answers included (ex 1.5, 6.1, 6.2, 7.2) ---------------------------
def test_a_wrong_2d_answer_gets_a_one_line_verdict(capsys):
    verdict = ch01.check_predict_grad([[1.0, 2.0], [3.0, 4.0]])
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 1 and not verdict, lines

    class MySigmoid(Function):
        @staticmethod
        def forward(ctx, x):
            return ag.stack([x, x]) if x.ndim == 1 else x.sigmoid()

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output

    ch06.check_sigmoid(MySigmoid)
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 1, lines
