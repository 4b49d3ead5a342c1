"""The exercise checkers of chapters 1, 2, 3 and 9, and the shared helpers in ``_common``.

Each checker is tried with a correct answer, a typical wrong answer (its hint is asserted) and
the untouched placeholder. A checker prints one line and never raises.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from exercise_helpers import find_leaves, topo_order, verdict_of
from functions import square

import autograd_course as ag
from autograd_course.course.exercises import _common, ch01, ch02, ch03, ch09, retired


# --- _common ----------------------------------------------------------------------------------
def test_verdict_lines(capsys):
    assert str(_common.correct()) == "correct"
    assert str(_common.not_attempted()) == "not attempted yet"
    assert str(_common.not_quite("wrong sign")) == "not quite: wrong sign"
    assert capsys.readouterr().out.splitlines() == [
        "correct", "not attempted yet", "not quite: wrong sign"]
    assert bool(_common.Verdict("correct")) and not _common.Verdict("not quite", "x")


def test_checker_decorator_maps_outcomes(capsys):
    @_common.checker
    def check(kind):
        if kind == "placeholder":
            _common.require_attempt(...)
        if kind == "todo":
            raise NotImplementedError
        if kind == "wrong":
            raise _common.Mismatch("the hint")
        if kind == "crash":
            return 1 / 0
        return None

    outcomes = [str(check(k)) for k in ("placeholder", "todo", "wrong", "crash", "right")]
    assert outcomes == ["not attempted yet", "not attempted yet", "not quite: the hint",
                        "not quite: your code raised ZeroDivisionError: division by zero",
                        "correct"]
    capsys.readouterr()


def test_call_learner_detects_placeholders():
    def todo():
        raise NotImplementedError

    for placeholder in (todo, lambda: ..., lambda: None, ...):
        with pytest.raises(_common.NotAttempted):
            _common.call_learner(placeholder)
    assert _common.call_learner(lambda: None, allow_none=True) is None
    assert _common.call_learner(lambda x: x + 1, 1) == 2


@pytest.mark.parametrize("actual, hint", [
    ([-1.0, -2.0], "has the right shape but the wrong sign"),
    ([3.0, 6.0], "is 3 times the expected value"),
    ([1.0, 2.0, 3.0], "has shape (3,), expected shape (2,)"),
    ([[1.0, 2.0]], "right number of elements but shape (1, 2)"),
    ([1.0, 5.0], "has the right shape but wrong values"),
    ([1.0, float("nan")], "contains nan or inf"),
    (None, "is None"),
    ("abc", "should be a tensor or a number"),
])
def test_compare_tensors_hints(actual, hint):
    with pytest.raises(_common.Mismatch, match=None) as info:
        _common.compare_tensors(actual, ag.tensor([1.0, 2.0]), "b.grad")
    assert hint in str(info.value)
    assert str(info.value).startswith("b.grad")
    _common.compare_tensors([1.0, 2.0], ag.tensor([1.0, 2.0]))  # close enough: no error


def test_compare_tensors_spots_transposes():
    m = np.arange(6.0).reshape(2, 3)
    with pytest.raises(_common.Mismatch, match="looks transposed"):
        _common.compare_tensors(m.T, m, "J")


_Square = square(ag, name="_Square")


class _SquareNoFactor(_Square):
    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * x


class _SquareTodo(_Square):
    @staticmethod
    def backward(ctx, grad):
        raise NotImplementedError


class _SquareEllipsis(_Square):
    @staticmethod
    def backward(ctx, grad):
        ...


def test_check_function_gradcheck():
    _common.check_function_gradcheck(_Square, _common.random_inputs((3,), seed=0))
    with pytest.raises(_common.Mismatch, match=r"gradcheck fails for _SquareNoFactor: .*0\.5 "):
        _common.check_function_gradcheck(_SquareNoFactor, _common.random_inputs((3,), seed=0))
    for todo in (_SquareTodo, _SquareEllipsis, ...):
        with pytest.raises(_common.NotAttempted):
            _common.check_function_gradcheck(todo, _common.random_inputs((3,), seed=0))
    with pytest.raises(_common.Mismatch, match="subclass of ag.autograd.Function"):
        _common.check_function_gradcheck(lambda x: x, _common.random_inputs((3,), seed=0))


def test_random_inputs_are_float64_leaves():
    a, b = _common.random_inputs((2, 3), (4,), seed=1)
    assert a.shape == (2, 3) and b.shape == (4,)
    assert a.dtype == ag.float64 and a.requires_grad and a.is_leaf


# --- chapter 1 ---------------------------------------------------------------------------------
def test_ch01_predict_grad(capsys):
    assert verdict_of(capsys, ch01.check_predict_grad, [[18, 36], [54, 72]])[1] == "correct"
    assert verdict_of(capsys, ch01.check_predict_grad, ag.tensor([[18.0, 36.0], [54.0, 72.0]]))[0]
    _, line = verdict_of(capsys, ch01.check_predict_grad, [[6, 12], [18, 24]])  # forgot the 3
    assert line.startswith("not quite:") and "0.3333 times the expected value" in line
    _, line = verdict_of(capsys, ch01.check_predict_grad, [18, 36, 54, 72])
    assert "expected shape (2, 2)" in line
    assert verdict_of(capsys, ch01.check_predict_grad, ...)[1] == "not attempted yet"


def test_ch01_leaves(capsys):
    assert verdict_of(capsys, ch01.check_leaves, {"a", "b", "d"}, {"a"})[1] == "correct"
    assert verdict_of(capsys, ch01.check_leaves, "a, b, d", ["a"])[1] == "correct"
    _, line = verdict_of(capsys, ch01.check_leaves, {"a", "b"}, {"a"})  # the usual slip: d
    assert "check d" in line and "counts as a leaf" in line
    _, line = verdict_of(capsys, ch01.check_leaves, {"a", "b", "d"}, {"a", "b"})
    assert "b.grad stays None" in line and "does not require grad" in line
    _, line = verdict_of(capsys, ch01.check_leaves, {"a", "b", "d"}, {"a", "c"})
    assert "c.grad stays None" in line and "not a leaf" in line
    _, line = verdict_of(capsys, ch01.check_leaves, {"a", "x"}, {"a"})
    assert "unknown names" in line
    assert verdict_of(capsys, ch01.check_leaves, ..., ...)[1] == "not attempted yet"


# --- chapter 2 ---------------------------------------------------------------------------------
def _jacobian(f, x):
    x = x.detach().requires_grad_()
    y = f(x)
    rows = [ag.autograd.grad(y, x, ag.eye(y.numel(), dtype=y.dtype)[i], retain_graph=True)[0]
            for i in range(y.numel())]
    return ag.stack(rows)


def test_ch02_jacobian(capsys):
    assert verdict_of(capsys, ch02.check_jacobian, _jacobian)[1] == "correct"
    _, line = verdict_of(capsys, ch02.check_jacobian, lambda f, x: _jacobian(f, x).t())
    assert line.startswith("not quite:") and "looks transposed" in line

    def todo(f, x):
        raise NotImplementedError

    assert verdict_of(capsys, ch02.check_jacobian, todo)[1] == "not attempted yet"
    assert verdict_of(capsys, ch02.check_jacobian, ...)[1] == "not attempted yet"


def test_ch02_mean_gradient(capsys):
    assert verdict_of(capsys, ch02.check_mean_gradient, ag.full((3,), 1 / 3))[1] == "correct"
    assert verdict_of(capsys, ch02.check_mean_gradient, [1 / 3] * 3)[1] == "correct"
    _, line = verdict_of(capsys, ch02.check_mean_gradient, ag.ones(3))  # the sum, not the mean
    assert "3 times the expected value" in line
    _, line = verdict_of(capsys, ch02.check_mean_gradient, ag.tensor(1 / 3))
    assert "must have Q's shape (3,)" in line
    assert verdict_of(capsys, ch02.check_mean_gradient, ...)[1] == "not attempted yet"


# --- chapter 3 ---------------------------------------------------------------------------------


def _find_leaves_no_memory(t):
    found, stack = [], [t.grad_fn]
    while stack:
        node = stack.pop()
        if node is None:
            continue
        if hasattr(node, "variable"):
            found.append(node.variable)
        stack.extend(nxt for nxt, _ in node.next_functions)
    return found


def _find_leaves_first_input_only(t):
    found, node = [], t.grad_fn
    while node is not None:
        if hasattr(node, "variable"):
            found.append(node.variable)
        node = node.next_functions[0][0] if node.next_functions else None
    return found


def _find_leaves_recursive(t):
    found = []

    def visit(node):
        if node is None:
            return
        if hasattr(node, "variable") and all(v is not node.variable for v in found):
            found.append(node.variable)
        for nxt, _ in node.next_functions:
            visit(nxt)

    visit(t.grad_fn)
    return found


def test_ch03_find_leaves(capsys):
    assert verdict_of(capsys, ch03.check_find_leaves, find_leaves)[1] == "correct"
    _, line = verdict_of(capsys, ch03.check_find_leaves, _find_leaves_no_memory)
    assert "same leaf more than once" in line
    _, line = verdict_of(capsys, ch03.check_find_leaves, _find_leaves_first_input_only)
    assert "you missed 1 leaf" in line
    _, line = verdict_of(capsys, ch03.check_find_leaves, _find_leaves_recursive)
    assert "RecursionError" in line and "explicit stack" in line
    _, line = verdict_of(capsys, ch03.check_find_leaves,
                         lambda t: [t.grad_fn.next_functions[0][0]])
    assert "node.variable" in line

    def todo(t):
        raise NotImplementedError

    assert verdict_of(capsys, ch03.check_find_leaves, todo)[1] == "not attempted yet"


def test_ch03_loop_graph(capsys):
    # x = [1, 2]: sums 3, 6, 12, 24, 48, 96, 192 -> six doublings, x.grad = 2**6
    assert verdict_of(capsys, ch03.check_loop_graph, 6, [64.0, 64.0])[1] == "correct"
    _, line = verdict_of(capsys, ch03.check_loop_graph, 5, [64.0, 64.0])
    assert "too few nodes" in line
    _, line = verdict_of(capsys, ch03.check_loop_graph, 6, [32.0, 32.0])
    assert "0.5 times the expected value" in line
    assert verdict_of(capsys, ch03.check_loop_graph, ..., ...)[1] == "not attempted yet"


# --- chapter 9 ---------------------------------------------------------------------------------


def _topo_plain_dfs(t):
    """Pre-order DFS with a visited set: reaches every node but ignores dependencies."""
    order, seen, stack = [], set(), [t.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        order.append(node)
        stack.extend(nxt for nxt, _ in node.next_functions)
    return order


def test_ch09_topo_order(capsys):
    assert verdict_of(capsys, ch09.check_topo_order, topo_order)[1] == "correct"
    _, line = verdict_of(capsys, ch09.check_topo_order, _topo_plain_dfs)
    assert "comes before" in line and "Kahn" in line
    _, line = verdict_of(capsys, ch09.check_topo_order, lambda t: topo_order(t)[:-1])
    assert "missing" in line
    _, line = verdict_of(capsys, ch09.check_topo_order, lambda t: topo_order(t) * 2)
    assert "more than once" in line
    assert verdict_of(capsys, ch09.check_topo_order, ...)[1] == "not attempted yet"


class _Value:
    """The chapter's scalar Value, reduced to what the checker uses."""

    def __init__(self, data, parents=()):
        self.data, self.grad, self._parents = float(data), 0.0, parents
        self._backward = lambda: None

    def __add__(self, other):
        out = _Value(self.data + other.data, (self, other))

        def _backward():
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other):
        out = _Value(self.data * other.data, (self, other))

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def backward(self):
        order, seen, stack = [], set(), [(self, False)]
        while stack:
            node, done = stack.pop()
            if done:
                order.append(node)
            elif node not in seen:
                seen.add(node)
                stack.append((node, True))
                stack.extend((p, False) for p in node._parents)
        self.grad = 1.0
        for node in reversed(order):
            node._backward()


def _with_exp(rule):
    class WithExp(_Value):
        def exp(self):
            out = WithExp(math.exp(self.data), (self,))

            def _backward():
                rule(self, out)

            out._backward = _backward
            return out

    return WithExp


def test_ch09_value_exp(capsys):
    def right(x, out):
        x.grad += out.data * out.grad

    def overwrites(x, out):
        x.grad = out.data * out.grad

    def no_local_derivative(x, out):
        x.grad += out.grad

    assert verdict_of(capsys, retired.check_value_exp, _with_exp(right))[1] == "correct"
    _, line = verdict_of(capsys, retired.check_value_exp, _with_exp(overwrites))
    assert "must be added up" in line and "+=" in line
    _, line = verdict_of(capsys, retired.check_value_exp, _with_exp(no_local_derivative))
    assert "local derivative" in line

    class Todo(_Value):
        def exp(self):
            raise NotImplementedError

    assert verdict_of(capsys, retired.check_value_exp, Todo)[1] == "not attempted yet"
    assert verdict_of(capsys, retired.check_value_exp, ...)[1] == "not attempted yet"
