"""Exercise checkers of chapters 0-4, and how every checker isolates the learner's code.

Each checker is tried with a correct answer, each typical wrong answer (its hint asserted), a
function with a body but no ``return`` and the untouched placeholder. A checker prints one line
and never raises.
"""

from __future__ import annotations

import sys

import pytest
from exercise_helpers import (
    assert_correct,
    assert_hint,
    assert_not_attempted,
    jacobian,
    verdict_of,
)

import autograd_course as ag
import autograd_course.course.exercises.value  # ag.course.exercises.value below
from autograd_course.course.exercises import _common, ch00, ch01, ch02, ch03, ch04


# --- _common: isolating the learner's code ------------------------------------------------------
class _Unprintable(Exception):
    def __str__(self):
        raise ValueError("no")


def _raises_unprintable():
    raise _Unprintable


def _calls_exit():
    sys.exit(3)


@_common.checker
def _run(fn):
    return _common.call_learner(fn)


def test_exception_with_broken_str_is_described(capsys):
    _, line = verdict_of(capsys, _run, _raises_unprintable)
    assert line.startswith("not quite: your code raised _Unprintable")
    assert "could not be printed" in line


def test_sys_exit_does_not_escape(capsys):
    _, line = verdict_of(capsys, _run, _calls_exit)
    assert line.startswith("not quite:") and "sys.exit()" in line


def test_keyboard_interrupt_still_stops(capsys):
    def interrupted():
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        _run(interrupted)
    capsys.readouterr()


def test_grad_mode_is_restored_after_a_checker(capsys):
    def leaves_grad_off():
        ag.set_grad_enabled(False)  # a learner's stray call: switches recording off for good
        return 1

    assert ag.is_grad_enabled()
    assert_correct(capsys, _run, leaves_grad_off)
    assert ag.is_grad_enabled()

    def leaves_inference_on():
        ag.inference_mode().__enter__()
        return 1

    assert_correct(capsys, _run, leaves_inference_on)
    assert ag.is_grad_enabled()
    x = ag.ones(2, requires_grad=True)
    assert (x * 2).requires_grad and not (x * 2).is_inference()


def test_grad_mode_restored_even_when_the_learner_raises(capsys):
    def off_then_crash():
        ag.set_grad_enabled(False)
        raise ValueError("boom")

    _, line = verdict_of(capsys, _run, off_then_crash)
    assert line == "not quite: your code raised ValueError: boom"
    assert ag.is_grad_enabled()


def test_body_without_return_is_named_not_unattempted(capsys):
    def forgot_return():
        total = 1 + 1  # noqa: F841 - the learner computed something and did not return it

    def only_ellipsis():
        ...

    def only_docstring():
        """My answer."""

    _, line = verdict_of(capsys, _run, forgot_return)
    assert line.startswith("not quite: forgot_return() returned None") and "return" in line
    assert_not_attempted(capsys, _run, only_ellipsis)
    assert_not_attempted(capsys, _run, only_docstring)
    assert_not_attempted(capsys, _run, ...)
    assert _common.has_placeholder_body(lambda: None)
    assert not _common.has_placeholder_body(lambda x: x.grad)


def test_call_learner_can_pass_copies():
    x = ag.tensor([1.0, 2.0])

    def scribbles(t):
        t.mul_(0)
        return t

    _common.call_learner(scribbles, x, copy_args=True)
    assert x.tolist() == [1.0, 2.0]
    w = ag.tensor([1.0], requires_grad=True)
    copied = _common.copy_tensor(w)
    assert copied is not w and copied.requires_grad and copied.is_leaf


class _DoubleInPlace(ag.autograd.Function):
    """A correct backward (d(2x)/dx = 2) that reuses grad_output's memory, as PyTorch allows."""

    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.mul_(2)


def test_learner_grads_gives_backward_a_copy_of_grad_output(capsys):
    @_common.checker
    def check(function_cls):
        (x,) = _common.random_inputs((3,), seed=0)
        (g,) = _common.random_inputs((3,), seed=1, requires_grad=False)
        (gx,) = _common.learner_grads(function_cls, [x], g)
        _common.compare_tensors(gx, 2 * _common.to_numpy(g), "your gradient")  # g unchanged
        _common.check_function_gradcheck(function_cls, [x])

    assert_correct(capsys, check, _DoubleInPlace)


def _forgot_return(*args):
    """A learner's function that does some work and forgets to return it."""
    args[0] is None  # noqa: B015 - some statement, so the body is not a placeholder


def _todo(*args):
    ...


# --- chapter 0 ------------------------------------------------------------------------------------
def test_ch00_first_grads(capsys):
    assert_correct(capsys, ch00.check_first_grads, 4, 2)
    assert_correct(capsys, ch00.check_first_grads, ag.tensor(4.0), 2.0)
    _, line = verdict_of(capsys, ch00.check_first_grads, 3, 2)
    assert "a appears twice" in line and "add up" in line
    _, line = verdict_of(capsys, ch00.check_first_grads, 1, 2)
    assert "only the `+ a` path" in line
    _, line = verdict_of(capsys, ch00.check_first_grads, 2, 3)
    assert "with respect to a is b" in line
    _, line = verdict_of(capsys, ch00.check_first_grads, 4, 3)
    assert "with respect to b is a" in line
    _, line = verdict_of(capsys, ch00.check_first_grads, [4, 4], 2)
    assert "one number" in line
    assert verdict_of(capsys, ch00.check_first_grads, ..., ...)[1] == "not attempted yet"


def test_ch00_grad_fn_names(capsys):
    right = ["AddBackward0", "MulBackward0", "PowBackward0", "SumBackward0", "MulBackward0"]
    assert_correct(capsys, ch00.check_grad_fn_names, right)
    assert_hint(capsys, ch00.check_grad_fn_names, ["AddBackward"] + right[1:],
                "end in a number")
    assert_hint(capsys, ch00.check_grad_fn_names, ["Add"] + right[1:], "plus 'Backward'")
    assert_hint(capsys, ch00.check_grad_fn_names, right[:3] + ["MulBackward0", right[4]],
                "*last* operation")
    assert_hint(capsys, ch00.check_grad_fn_names, right[:4] + ["ExpBackward0"],
                "*last* operation")
    assert_hint(capsys, ch00.check_grad_fn_names, right[:2], "give 5 names")
    assert_hint(capsys, ch00.check_grad_fn_names, "AddBackward0", "a list of 5")
    assert_not_attempted(capsys, ch00.check_grad_fn_names, ...)


# --- chapter 1 ------------------------------------------------------------------------------------
def test_ch01_slope(capsys):
    f = ch01.slope_function
    h = 1e-4
    assert_correct(capsys, ch01.check_slope, (f(2 + h) - f(2 - h)) / (2 * h))
    assert_correct(capsys, ch01.check_slope,
                   ag.tensor((f(2 + h) - f(2 - h)) / (2 * h), dtype=ag.float64))
    assert_hint(capsys, ch01.check_slope, f(2.0), "height of the curve")
    assert_hint(capsys, ch01.check_slope, (f(2 - h) - f(2 + h)) / (2 * h), "wrong sign")
    assert_hint(capsys, ch01.check_slope, (f(2.1) - f(2.0)) / 0.1, "smaller h")
    assert_hint(capsys, ch01.check_slope, f(3.0) - f(1.0), "divide the change")
    assert_hint(capsys, ch01.check_slope, "ten", "should be a number")
    assert_not_attempted(capsys, ch01.check_slope, ...)


def test_ch01_predict_grad_accepts_a_formula_in_x(capsys):
    x = ag.tensor(ch01.PREDICT_X, requires_grad=True)
    assert_correct(capsys, ch01.check_predict_grad, 18 * x)  # by hand, written with x
    assert_hint(capsys, ch01.check_predict_grad, 9 * x, "0.5 times the expected value")


def _value_with(mul_rule=None, add_rule=None):
    """A learner-style Value: ch01's starting class, with the given local backward rules."""

    class V:
        def __init__(self, data, children=()):
            self.data, self.grad, self._prev = float(data), 0.0, tuple(children)
            self._backward = lambda: None

        def __add__(self, other):
            out = V(self.data + other.data, (self, other))

            def _backward():
                (add_rule or _add_overwrites)(self, other, out)

            out._backward = _backward
            return out

        def __mul__(self, other):
            out = V(self.data * other.data, (self, other))

            def _backward():
                ...

            if mul_rule is not None:
                def _backward():  # the learner's filled-in version
                    mul_rule(self, other, out)

            out._backward = _backward
            return out

    return V


def _add_overwrites(a, b, out):  # the chapter's starting __add__: `=`
    a.grad = out.grad
    b.grad = out.grad


def _add_accumulates(a, b, out):
    a.grad += out.grad
    b.grad += out.grad


def _mul_right(a, b, out):
    a.grad += b.data * out.grad
    b.grad += a.data * out.grad


def _mul_overwrites(a, b, out):
    a.grad = b.data * out.grad
    b.grad = a.data * out.grad


def test_ch01_value_mul(capsys):
    assert_correct(capsys, ch01.check_value_mul, _value_with(_mul_right))
    assert_correct(capsys, ch01.check_value_mul, ag.course.exercises.value.ValueAddMul)
    assert_hint(capsys, ch01.check_value_mul, _value_with(
        lambda a, b, out: (setattr(a, "grad", b.data), setattr(b, "grad", a.data))),
        "factor out.grad")
    assert_hint(capsys, ch01.check_value_mul, _value_with(
        lambda a, b, out: (setattr(a, "grad", a.data * out.grad),
                           setattr(b, "grad", b.data * out.grad))), "swapped")
    assert_hint(capsys, ch01.check_value_mul, _value_with(lambda a, b, out: out),
                "still 0")
    assert_not_attempted(capsys, ch01.check_value_mul, _value_with())
    assert_not_attempted(capsys, ch01.check_value_mul, ...)

    class NoReturn(_value_with(_mul_right)):
        def __mul__(self, other):
            self.data * other.data

    assert_hint(capsys, ch01.check_value_mul, NoReturn, "__mul__() returned None")


def _manual(value_cls, steps):
    a, b, c = value_cls(2.0), value_cls(-3.0), value_cls(10.0)
    d = a * b
    L = d + c
    L.grad = 1.0
    for step in steps:
        {"L": L, "d": d}[step]._backward()
    return a, b, c, d, L


def test_ch01_manual_backward(capsys):
    V = _value_with(_mul_right)
    assert_correct(capsys, ch01.check_manual_backward, *_manual(V, "Ld"))
    _, line = verdict_of(capsys, ch01.check_manual_backward, *_manual(V, "dL"))
    assert "a and b got nothing" in line and "only after" in line
    _, line = verdict_of(capsys, ch01.check_manual_backward, *_manual(V, "L"))
    assert "call d._backward() too" in line
    _, line = verdict_of(capsys, ch01.check_manual_backward, *_manual(V, "Ldd"))
    assert "twice too big" in line
    assert verdict_of(capsys, ch01.check_manual_backward, *_manual(V, ""))[1] == \
        "not attempted yet"
    assert verdict_of(capsys, ch01.check_manual_backward, ..., ..., ..., ..., ...)[1] == \
        "not attempted yet"


def test_ch01_value_accumulates(capsys):
    assert_correct(capsys, ch01.check_value_accumulates,
                   _value_with(_mul_right, _add_accumulates))
    assert_correct(capsys, ch01.check_value_accumulates, ag.course.exercises.value.ValueAddMul)
    _, line = verdict_of(capsys, ch01.check_value_accumulates, _value_with(_mul_right))
    assert "a.grad is 1 after b = a + a" in line and "+=" in line  # the chapter's starting add
    assert_hint(capsys, ch01.check_value_accumulates,
                _value_with(_mul_overwrites, _add_accumulates), "in __mul__'s _backward too")

    class Todo:
        def __init__(self, data):
            self.data, self.grad = data, 0.0

        def __add__(self, other):
            ...

    assert_not_attempted(capsys, ch01.check_value_accumulates, Todo)

    class NoReturn(Todo):
        def __add__(self, other):
            self.data + other.data

    assert_hint(capsys, ch01.check_value_accumulates, NoReturn, "returned None")


# --- chapter 2 ------------------------------------------------------------------------------------


def _jacobian_zero_no_clone(f, x):
    x = x.detach().requires_grad_()
    y = f(x)
    rows = []
    for i in range(y.numel()):
        if x.grad is not None:
            x.grad.zero_()
        y.backward(ag.eye(y.numel(), dtype=y.dtype)[i], retain_graph=True)
        rows.append(x.grad)
    return ag.stack(rows)


def test_ch02_jacobian_names_the_accumulation(capsys):
    assert_correct(capsys, ch02.check_jacobian, jacobian)
    _, line = verdict_of(capsys, ch02.check_jacobian, lambda f, x: jacobian(f, x, reset=False))
    assert "contains the rows before it" in line and "adds" in line
    _, line = verdict_of(capsys, ch02.check_jacobian,
                         lambda f, x: jacobian(f, x, reset=False, clone=False))
    assert "sum of all rows" in line
    _, line = verdict_of(capsys, ch02.check_jacobian, _jacobian_zero_no_clone)
    assert "equals the last one" in line and "clone()" in line
    _, line = verdict_of(capsys, ch02.check_jacobian, _forgot_return)
    assert "_forgot_return() returned None" in line
    assert_not_attempted(capsys, ch02.check_jacobian, _todo)


def test_ch02_jacobian_input_is_a_copy(capsys):
    def scribbles(f, x):
        j = jacobian(f, x)
        x.mul_(0)  # must not change the checker's own x
        return j

    assert_correct(capsys, ch02.check_jacobian, scribbles)


def test_ch02_unbroadcast(capsys):
    def by_hand(g, shape):
        while g.dim() > len(shape):
            g = g.sum(0)
        for d, n in enumerate(shape):
            if n == 1 and g.shape[d] != 1:
                g = g.sum(d, keepdim=True)
        return g

    assert_correct(capsys, ch02.check_unbroadcast, by_hand)

    def averages(g, shape):
        s = by_hand(g, shape)
        return s * (s.numel() / g.numel())

    assert_hint(capsys, ch02.check_unbroadcast, averages, "you averaged")

    def drops_ones(g, shape):
        return by_hand(g, shape).reshape(-1) if shape else by_hand(g, shape)

    assert_hint(capsys, ch02.check_unbroadcast, drops_ones, "keep the size-1 dimensions")
    assert_hint(capsys, ch02.check_unbroadcast, lambda g, shape: g.sum(0),
                "shape (4, 3) to shape (1, 3)")
    assert_hint(capsys, ch02.check_unbroadcast, _forgot_return, "returned None")
    assert_not_attempted(capsys, ch02.check_unbroadcast, _todo)
    assert_not_attempted(capsys, ch02.check_unbroadcast, ...)


def _pow_tanh(pow_rule, tanh_rule):
    import math

    class V(ag.course.exercises.value.ValueAddMul):
        def __pow__(self, k):
            out = V(self.data ** k, (self,))

            def _backward():
                pow_rule(self, k, out)

            out._backward = _backward
            return out

        def tanh(self):
            out = V(math.tanh(self.data), (self,))

            def _backward():
                tanh_rule(self, out)

            out._backward = _backward
            return out

    return V


def _pow_right(x, k, out):
    x.grad += k * x.data ** (k - 1) * out.grad


def _tanh_right(x, out):
    x.grad += (1 - out.data ** 2) * out.grad


def _set(x, value):
    x.grad = value


def test_ch02_value_pow_tanh(capsys):
    check = ch02.check_value_pow_tanh
    assert_correct(capsys, check, _pow_tanh(_pow_right, _tanh_right))
    assert_correct(capsys, check, ag.course.exercises.value.ValuePowTanh)
    assert_hint(capsys, check, _pow_tanh(
        lambda x, k, out: _set(x, x.grad + k * x.data ** (k - 1)), _tanh_right),
        "multiply k * x**(k-1) by out.grad")
    assert_hint(capsys, check, _pow_tanh(
        lambda x, k, out: _set(x, x.grad + k * x.data ** k * out.grad), _tanh_right),
        "exponent drops by one")
    assert_hint(capsys, check, _pow_tanh(
        _pow_right, lambda x, out: _set(x, x.grad + (1 - out.data ** 2))),
        "multiply 1 - tanh(x)**2 by out.grad")
    assert_hint(capsys, check, _pow_tanh(
        _pow_right, lambda x, out: _set(x, x.grad + (1 - x.data ** 2) * out.grad)),
        "not 1 - x**2")
    assert_hint(capsys, check, _pow_tanh(
        lambda x, k, out: _set(x, k * x.data ** (k - 1) * out.grad),
        lambda x, out: _set(x, (1 - out.data ** 2) * out.grad)), "accumulate with `self.grad +=")

    class Todo(ag.course.exercises.value.ValueAddMul):
        def __pow__(self, k):
            ...

        def tanh(self):
            ...

    assert_not_attempted(capsys, check, Todo)

    class NoReturn(Todo):
        def __pow__(self, k):
            self.data ** k

    assert_hint(capsys, check, NoReturn, "__pow__() returned None")
    assert_not_attempted(capsys, check, ...)


# --- chapter 3 ------------------------------------------------------------------------------------
def test_ch03_clip_hook(capsys):
    check = ch03.check_clip_hook
    assert_correct(capsys, check, lambda g: g.clamp(-1, 1))
    def forgets_to_return(grad):
        grad.clamp(-1, 1)  # computed, then dropped

    assert_hint(capsys, check, forgets_to_return, "must *return* the new gradient")
    assert_hint(capsys, check, lambda g: g.clamp(max=1), "clip both ways")
    assert_hint(capsys, check, lambda g: g.clamp(-0.5, 0.5), "expected")
    assert_not_attempted(capsys, check, _todo)
    assert_not_attempted(capsys, check, ...)


def _value_engine(order="right", exp_rule=None):
    import math

    class V(ag.course.exercises.value.ValuePowTanh):
        def exp(self):
            out = V(math.exp(self.data), (self,))

            def _backward():
                (exp_rule or (lambda x, o: _set(x, x.grad + o.data * o.grad)))(self, out)

            out._backward = _backward
            return out

        def backward(self):
            if order == "recursive":
                topo, seen = [], set()

                def build(v):
                    if v not in seen:
                        seen.add(v)
                        for child in v._prev:
                            build(child)
                        topo.append(v)

                build(self)
            else:
                topo = _post_order(self)
            if order != "no seed":
                self.grad = 1.0
            nodes = topo if order == "forward" else list(reversed(topo))
            for v in nodes:
                v._backward()

    return V


def _post_order(root):
    order, seen, stack = [], set(), [(root, False)]
    while stack:
        node, done = stack.pop()
        if done:
            order.append(node)
        elif node not in seen:
            seen.add(node)
            stack.append((node, True))
            stack.extend((c, False) for c in node._prev)
    return order


def test_ch03_value_backward(capsys):
    check = ch03.check_value_backward
    assert_correct(capsys, check, _value_engine())
    assert_correct(capsys, check, ag.course.exercises.value.Value)
    assert_hint(capsys, check, _value_engine("forward"), "reverse topological order")
    assert_hint(capsys, check, _value_engine("no seed"), "self.grad = 1")
    assert_hint(capsys, check, _value_engine("recursive"), "RecursionError")
    assert_hint(capsys, check, _value_engine(exp_rule=lambda x, o: _set(x, x.grad + o.grad)),
                "d/dx e^x = e^x")

    class Todo(ag.course.exercises.value.ValuePowTanh):
        def exp(self):
            ...

        def backward(self):
            ...

    assert_not_attempted(capsys, check, Todo)
    assert_not_attempted(capsys, check, ...)


def test_ch03_find_leaves_without_return(capsys):
    _, line = verdict_of(capsys, ch03.check_find_leaves, _forgot_return)
    assert "returned None" in line


# --- chapter 4 ------------------------------------------------------------------------------------
def test_ch04_sigmoid_mse_grad(capsys):
    check = ch04.check_sigmoid_mse_grad

    def right(z, y):
        s = z.sigmoid()
        return 2 * (s - y) * s * (1 - s) / z.numel()

    assert_correct(capsys, check, right)
    assert_hint(capsys, check, lambda z, y: right(z, y) * z.numel(), "times too large")
    assert_hint(capsys, check, lambda z, y: right(z, y) / 2, "derivative of u² is 2u")
    assert_hint(capsys, check, lambda z, y: 2 * (z.sigmoid() - y) / z.numel(),
                "missing the sigmoid's derivative")
    assert_hint(capsys, check, lambda z, y: (z.sigmoid() - y) / z.numel(), "BCE gradient")
    assert_hint(capsys, check, lambda z, y: -right(z, y), "wrong sign")
    assert_hint(capsys, check, _forgot_return, "returned None")
    assert_not_attempted(capsys, check, _todo)


def _two(w, x, *, retain=True, reset=True, clone=True):
    h = x @ w
    first, second = (h.tanh() ** 2).sum(), (h * h).mean()
    first.backward(retain_graph=retain)
    g1 = w.grad.clone() if clone else w.grad
    if reset:
        w.grad = None if clone else w.grad.zero_()
    second.backward()
    return g1, w.grad


def test_ch04_two_losses(capsys):
    check = ch04.check_two_losses
    assert_correct(capsys, check, _two)
    assert_hint(capsys, check, lambda w, x: _two(w, x, retain=False), "retain_graph=True")
    assert_hint(capsys, check, lambda w, x: _two(w, x, reset=False), "includes the first")
    assert_hint(capsys, check, lambda w, x: _two(w, x, clone=False), "clone()")
    assert_hint(capsys, check, lambda w, x: _two(w, x)[0], "return a pair")
    assert_hint(capsys, check, _forgot_return, "returned None")
    assert_not_attempted(capsys, check, _todo)


@pytest.mark.parametrize("check", [
    ch02.check_jacobian, ch02.check_unbroadcast, ch03.check_find_leaves,
    ch04.check_sigmoid_mse_grad, ch04.check_batch_gradients, ch04.check_two_losses,
])
def test_function_exercises_name_a_missing_return(capsys, check):
    _, line = verdict_of(capsys, check, _forgot_return)
    assert line.startswith("not quite: _forgot_return() returned None"), line


# --- the installation check, moved out of chapter 0 ---------------------------------------------
def test_setup_check_reports_every_part():
    from autograd_course.course.setup_check import PARTS, check_installation

    lines = []
    report = check_installation(show=lines.append)
    assert report["autograd_course"] == (True, f"version {ag.__version__}")
    assert set(report) == {"autograd_course", "Graphviz `dot`", "CJK font", "GPU (CuPy)"} | {
        p[0] for p in PARTS}
    assert len(lines) == len(report)
    for line, (name, (found, _)) in zip(lines, report.items()):
        assert name in line and line.startswith("ok" if found else ("--", "MISSING"))


def test_setup_check_never_raises_for_a_missing_module(monkeypatch):
    from autograd_course.course import setup_check

    monkeypatch.setattr(setup_check, "PARTS", [("no_such_module_xyz", "nothing", "pip it", False)])
    lines = []
    report = setup_check.check_installation(show=lines.append)
    assert report["no_such_module_xyz"] == (False, "nothing")
    assert any(line.startswith("MISSING") and "fix: pip it" in line for line in lines)


# --- the remaining hints of the Value checkers ----------------------------------------------------
def test_ch01_value_mul_forward_and_children_hints(capsys):
    class WrongForward(_value_with(_mul_right)):
        def __mul__(self, other):
            out = super().__mul__(other)
            out.data = self.data + other.data
            return out

    class Orphan(_value_with(_mul_right)):
        def __mul__(self, other):
            out = super().__mul__(other)
            out._prev = ()
            return out

    assert_hint(capsys, ch01.check_value_mul, WrongForward, "the forward is self.data * ")
    assert_hint(capsys, ch01.check_value_mul, Orphan, "remember both inputs")
    assert_hint(capsys, ch01.check_value_mul, _value_with(
        lambda a, b, out: (_set(a, 1.0), _set(b, 1.0))), "expected a.grad = -7.5")


def test_ch01_manual_backward_start_hints(capsys):
    V = _value_with(_mul_right)
    a, b, c, d, L = _manual(V, "Ld")
    L.grad = 0.5
    _, line = verdict_of(capsys, ch01.check_manual_backward, a, b, c, d, L)
    assert "L.grad = 1" in line
    a, b, c, d, L = _manual(_value_with(_mul_right, _add_accumulates), "LL")
    _, line = verdict_of(capsys, ch01.check_manual_backward, a, b, c, d, L)
    assert "run L._backward() once" in line


def test_ch01_manual_backward_needs_mul_first(capsys):
    _, line = verdict_of(capsys, ch01.check_manual_backward, *_manual(_value_with(), "Ld"))
    assert "finish exercise 1.2" in line


def test_ch01_value_accumulates_other_values(capsys):
    def add_triples(a, b, out):
        a.grad += 3 * out.grad
        b.grad += 3 * out.grad

    _, line = verdict_of(capsys, ch01.check_value_accumulates, _value_with(_mul_right,
                                                                          add_triples))
    assert "after b = a + a; expected 2" in line


def test_ch02_value_pow_tanh_forward_hints(capsys):
    class WrongPow(_pow_tanh(_pow_right, _tanh_right)):
        def __pow__(self, k):
            out = super().__pow__(k)
            out.data = self.data * k
            return out

    class WrongTanh(_pow_tanh(_pow_right, _tanh_right)):
        def tanh(self):
            out = super().tanh()
            out.data = self.data
            return out

    assert_hint(capsys, ch02.check_value_pow_tanh, WrongPow, "x ** 3 at x = 0.7 gave")
    assert_hint(capsys, ch02.check_value_pow_tanh, WrongTanh, "math.tanh")


def test_ch03_value_backward_more_hints(capsys):
    check = ch03.check_value_backward

    class ExpNoReturn(_value_engine()):
        def exp(self):
            type(self)(2.0)  # builds something, returns nothing

    class WrongExpForward(_value_engine()):
        def exp(self):
            out = super().exp()
            out.data = self.data
            return out

    class ReturnsSomething(_value_engine()):
        def backward(self):
            super().backward()
            return self.grad

    assert_hint(capsys, check, ExpNoReturn, "exp() returned None")
    assert_hint(capsys, check, WrongExpForward, "exp() at 0.5 gave")
    assert_hint(capsys, check, ReturnsSomething, "return nothing")
