"""The checker holes of issue 43: a wrong answer a tester found accepted (or answered with a
hint that names another mistake), and right answers a checker refused. Each wrong answer here
must now fail with the hint that names its mistake; each right answer must pass.

The second half gives every exercise of chapters 1-3, 9 and 10 a second correct solution, written
differently from the notebook's (an iterative walk instead of a stack of pairs, a loop-based
``unbroadcast``, other helper names...): a checker judges what the code does, so each passes.
"""

from __future__ import annotations

import math
import re
import time
from collections import defaultdict, deque
from functools import reduce

import numpy as np
import pytest
from exercise_helpers import assert_correct, assert_hint, verdict_of

import autograd_course as ag
from autograd_course import cuda
from autograd_course.course.exercises import ch01, ch02, ch03, ch05, ch06, ch08, ch09, ch10, retired
from autograd_course.course.exercises.messages_en import MESSAGES
from autograd_course.course.exercises.value import Value as CourseValue
from autograd_course.course.exercises.value import ValueAddMul, ValueOps, ValuePowTanh
from autograd_course.course.exercises.value import mse as course_mse


def _hint(key: str) -> str:
    """The fixed part of a hint: its text up to the first placeholder."""
    return MESSAGES[key].split("{")[0]


def f(x):
    return x ** 3 - 2 * x


# === the holes ===================================================================================
# --- 1.1: a central difference that lands exactly on 10 is a measurement -------------------------
def test_ex_1_1_a_power_of_two_step_lands_on_10_and_is_accepted(capsys):
    h = 2 ** -20
    slope = (f(2 + h) - f(2 - h)) / (2 * h)
    assert slope == 10.0  # rounding cancels the h² of the central difference
    assert_correct(capsys, ch01.check_slope, slope)
    for h in (1e-2, 1e-3, 1e-5, 1e-6, 2 ** -10, 2 ** -17, 2 ** -24):
        assert_correct(capsys, ch01.check_slope, (f(2 + h) - f(2 - h)) / (2 * h))
    assert_correct(capsys, ch01.check_slope,
                   (f(ag.tensor(2.0 + 2 ** -20)) - f(ag.tensor(2.0 - 2 ** -20))) / 2 ** -19)


def test_ex_1_1_a_typed_whole_number_is_still_not_a_measurement(capsys):
    """A difference quotient is a float (Python's ``/``); 3 * 2**2 - 2 is the int 10."""
    assert_hint(capsys, ch01.check_slope, 3 * 2 ** 2 - 2, "*measure* it")
    assert_hint(capsys, ch01.check_slope, ag.tensor(10), "*measure* it")


# --- 1.4: a tuple assignment reads the old grad twice --------------------------------------------
def test_ex_1_4_tuple_assignment_is_named_not_blamed_on_a_missing_plus_equals(capsys):
    class Value(ValueAddMul):
        def __add__(self, other):
            out = Value(self.data + other.data, (self, other))

            def _backward():
                self.grad, other.grad = self.grad + out.grad, other.grad + out.grad

            out._backward = _backward
            return out

    assert_hint(capsys, ch01.check_value_accumulates, Value, _hint("ch01.accumulate.same_value"))

    class Mul(ValueAddMul):
        def __mul__(self, other):
            out = Mul(self.data * other.data, (self, other))

            def _backward():
                self.grad, other.grad = (self.grad + other.data * out.grad,
                                         other.grad + self.data * out.grad)

            out._backward = _backward
            return out

    assert_hint(capsys, ch01.check_value_accumulates, Mul, _hint("ch01.accumulate.same_value"))


def test_ex_1_4_a_plain_overwrite_keeps_its_hint(capsys):
    class Value(ValueAddMul):
        def __add__(self, other):
            out = Value(self.data + other.data, (self, other))

            def _backward():
                self.grad = out.grad
                other.grad = out.grad

            out._backward = _backward
            return out

    assert_hint(capsys, ch01.check_value_accumulates, Value,
                _hint("ch01.accumulate.add_overwrites"))


# --- 2.3: two stretched size-1 dimensions --------------------------------------------------------
def unbroadcast_shifting(grad, shape):
    """Sums without keepdim, front to back, and reshapes at the end: once a dimension is summed
    away, the later ones have moved one place left (a wrong answer)."""
    while grad.dim() > len(shape):
        grad = grad.sum(0)
    stretched = [i for i, n in enumerate(shape) if n == 1 and grad.shape[i] != 1]
    for i in stretched:
        grad = grad.sum(i)
    return grad.reshape(shape)


def unbroadcast_sum_then_reshape(grad, shape):
    """Sums without keepdim, back to front, then reshapes: right."""
    while grad.dim() > len(shape):
        grad = grad.sum(0)
    for i in reversed(range(len(shape))):
        if shape[i] == 1 and grad.shape[i] != 1:
            grad = grad.sum(i)
    return grad.reshape(shape)


def test_ex_2_3_two_stretched_dims_expose_a_shifting_sum(capsys):
    assert_hint(capsys, ch02.check_unbroadcast, unbroadcast_shifting,
                _hint("ch02.unbroadcast.shifted"))
    assert ((2, 3, 4), (1, 3, 1)) in ch02.UNBROADCAST_CASES


def test_ex_2_3_sum_then_reshape_is_judged_by_what_it_returns(capsys):
    assert_correct(capsys, ch02.check_unbroadcast, unbroadcast_sum_then_reshape)

    def all_at_once(grad, shape):
        lead = grad.dim() - len(shape)
        dims = list(range(lead)) + [lead + i for i, n in enumerate(shape)
                                    if n == 1 and grad.shape[lead + i] != 1]
        return grad.sum(dim=tuple(dims)).reshape(shape) if dims else grad.reshape(shape)

    assert_correct(capsys, ch02.check_unbroadcast, all_at_once)


# --- 2.4: every exponent, not only 3 -------------------------------------------------------------
def _pow_with(rule):
    class Value(ValueAddMul):
        def __pow__(self, k):
            out = Value(self.data ** k, (self,))

            def _backward():
                self.grad += rule(self.data, k) * out.grad

            out._backward = _backward
            return out

        tanh = ValuePowTanh.tanh

    return Value


def test_ex_2_4_a_fixed_square_is_not_the_power_rule(capsys):
    assert_hint(capsys, ch02.check_value_pow_tanh, _pow_with(lambda x, k: k * x ** 2),
                _hint("ch02.pow.fixed_power"))


def test_ex_2_4_other_wrong_rules_still_get_their_hints(capsys):
    assert_hint(capsys, ch02.check_value_pow_tanh, _pow_with(lambda x, k: x ** k),
                _hint("ch02.pow.exponent"))
    assert_hint(capsys, ch02.check_value_pow_tanh, _pow_with(lambda x, k: (k - 1) * x ** k),
                _hint("ch02.pow.wrong"))


def test_ex_2_4_the_power_rule_passes_for_every_exponent(capsys):
    assert_correct(capsys, ch02.check_value_pow_tanh, _pow_with(lambda x, k: k * x ** (k - 1)))
    exponents = {k for k, _ in ch02.POW_CASES}
    assert {0, 1, -1, 0.5} <= exponents and any(k < 0 and k != int(k) for k in exponents)
    assert len({x for _, x in ch02.POW_CASES}) >= 3


# --- 2.5: Value - number -------------------------------------------------------------------------
def test_ex_2_5_sub_that_cannot_take_a_number_is_named(capsys):
    class Value(ValuePowTanh):
        def __neg__(self):
            return self * -1

        def __sub__(self, other):
            return self + (-other)  # -2 is fine; but other.__neg__ of a number...

        def __rsub__(self, other):
            return self._lift(other) + (-self)

        def __truediv__(self, other):
            return self * self._lift(other) ** -1

        def __rtruediv__(self, other):
            return self._lift(other) * self ** -1

    class NoLift(Value):
        def __sub__(self, other):
            out = NoLift(self.data - other.data, (self, other))

            def _backward():
                self.grad += out.grad
                other.grad -= out.grad

            out._backward = _backward
            return out

    assert_correct(capsys, ch02.check_value_operators, Value)
    assert_hint(capsys, ch02.check_value_operators, NoLift, _hint("ch02.ops.number"))
    assert any(expr == "a - 2" for expr, *_ in ch02.OPERATOR_CASES)


# --- 2.6: a cubed error --------------------------------------------------------------------------
def test_ex_2_6_a_cubed_error_is_named(capsys):
    assert_hint(capsys, ch02.check_loss, lambda p, y: ((p - y) ** 3).mean(),
                _hint("ch02.loss.even"))
    assert_hint(capsys, ch02.check_loss, lambda p, y: ((p - y) ** 3).sum(),
                _hint("ch02.loss.even"))


def test_ex_2_6_a_loss_without_the_labels_keeps_its_hint(capsys):
    assert_hint(capsys, ch02.check_loss, lambda p, y: (p ** 2).sum() - (p.detach() ** 2).sum(),
                _hint("ch02.loss.ignores_labels"))
    assert_correct(capsys, ch02.check_loss, lambda p, y: ((p - y) ** 4).mean())


# --- 3.1: a walk without a visited set -----------------------------------------------------------
def find_leaves_no_visited_set(t):
    """Visits every path (exponentially many on y = y + y), then removes repeated leaves."""
    found, stack = [], [t.grad_fn]
    while stack:
        node = stack.pop()
        if node is None:
            continue
        if hasattr(node, "variable") and all(v is not node.variable for v in found):
            found.append(node.variable)
        stack.extend(nxt for nxt, _ in node.next_functions)
    return found


def test_ex_3_1_a_walk_without_visited_set_is_caught_quickly(capsys):
    start = time.perf_counter()
    assert_hint(capsys, ch03.check_find_leaves, find_leaves_no_visited_set,
                _hint("ch03.leaves.revisits"))
    assert time.perf_counter() - start < 5


# --- 3.3 and 10.1: one rule for a hook that edits its argument in place --------------------------
def test_ex_10_1_an_in_place_clamp_returning_none_is_refused_like_3_3(capsys):
    def clamp_in_place(node):
        def hook(grads):
            for g in grads:
                g.clamp_(-1, 1)

        return node.register_prehook(hook)

    def clamp_in_place_and_return(node):
        return node.register_prehook(lambda grads: tuple(g.clamp_(-1, 1) for g in grads))

    hint = _hint("ch03.hook.in_place")
    assert_hint(capsys, ch10.check_clamp_prehook, clamp_in_place, hint)
    assert_hint(capsys, ch10.check_clamp_prehook, clamp_in_place_and_return, hint)

    def clip_in_place(grad):
        grad.clamp_(-1, 1)

    assert_hint(capsys, ch03.check_clip_hook, clip_in_place, hint)
    assert_hint(capsys, ch03.check_clip_hook, lambda g: g.clamp_(-1, 1), hint)


def test_pytorch_docs_forbid_hooks_to_modify_their_argument(torch_oracle):
    """The rule both checkers apply is PyTorch's, for tensor hooks and node pre-hooks alike
    (an in-place edit happens to change the gradient, but is not part of the contract)."""
    for method in (torch_oracle.Tensor.register_hook,
                   torch_oracle.autograd.graph.Node.register_prehook):
        assert "The hook should not modify its argument" in method.__doc__


# --- 3.4: a Kahn loop over set(v._prev) ----------------------------------------------------------
class _KahnBase(ValuePowTanh):
    def exp(self):
        out = type(self)(math.exp(self.data), (self,))

        def _backward():
            self.grad += out.data * out.grad

        out._backward = _backward
        return out


class KahnOverSet(_KahnBase):
    """Counts each value's consumers over set(v._prev), but releases over v._prev: h * h takes
    two off h's count of one consumer edge, so h runs before tanh(h) has sent its part."""

    def backward(self):
        consumers, seen, stack = {}, {id(self)}, [self]
        while stack:
            v = stack.pop()
            for child in set(v._prev):
                consumers[id(child)] = consumers.get(id(child), 0) + 1
                if id(child) not in seen:
                    seen.add(id(child))
                    stack.append(child)
        self.grad = 1.0
        ready = [self]
        while ready:
            v = ready.pop()
            v._backward()
            for child in v._prev:
                consumers[id(child)] -= 1
                if consumers[id(child)] == 0:
                    ready.append(child)


class KahnRight(_KahnBase):
    """Kahn's algorithm counting one edge per entry of _prev: right."""

    def backward(self):
        consumers, seen, stack = {}, {id(self)}, [self]
        while stack:
            v = stack.pop()
            for child in v._prev:
                consumers[id(child)] = consumers.get(id(child), 0) + 1
                if id(child) not in seen:
                    seen.add(id(child))
                    stack.append(child)
        self.grad = 1.0
        ready = deque([self])
        while ready:
            v = ready.popleft()
            v._backward()
            for child in v._prev:
                consumers[id(child)] -= 1
                if consumers[id(child)] == 0:
                    ready.append(child)


def test_ex_3_4_kahn_over_a_set_of_children_is_named(capsys):
    assert_hint(capsys, ch03.check_value_backward, KahnOverSet,
                _hint("ch03.backward.duplicate_edge"))
    assert_correct(capsys, ch03.check_value_backward, KahnRight)


# --- 3.5: the loss as a number -------------------------------------------------------------------
def test_ex_3_5_returning_loss_data_is_accepted(capsys):
    def train_step(model, xs, ys, lr):
        for p in model.parameters():
            p.grad = 0.0
        loss = course_mse(model, xs, ys)
        loss.backward()
        for p in model.parameters():
            p.data -= lr * p.grad
        return loss.data

    assert_correct(capsys, ch03.check_train_step, train_step)

    def wrong_loss(model, xs, ys, lr):
        return train_step(model, xs, ys, lr) + 1.0

    assert_hint(capsys, ch03.check_train_step, wrong_loss, _hint("ch03.step.loss"))


# --- 8.1: any correct expression -----------------------------------------------------------------
@pytest.mark.parametrize("pick_device", [
    lambda: "cuda" if ag.cuda.device_count() > 0 else "cpu",
    lambda: "cuda" if ag.accelerator.is_available() else "cpu",
    lambda: ag.accelerator.current_accelerator() or ag.device("cpu"),
    lambda: ag.device("cuda" if ag.cuda.is_available() else "cpu"),
], ids=["device_count", "accelerator", "current_accelerator", "device"])
def test_ex_8_1_other_correct_expressions_pass(capsys, pick_device):
    assert_correct(capsys, ch08.check_pick_device, pick_device)
    assert ag.cuda.is_available is cuda.is_available  # put back


def test_ex_8_1_a_fixed_answer_is_still_refused(capsys):
    assert_hint(capsys, ch08.check_pick_device, lambda: "cpu", _hint("ch08.pick.always_cpu"))


# --- NotImplementedError: only the placeholder's means "not attempted" ---------------------------
def test_a_not_implemented_error_from_inside_the_learners_code_is_an_error(capsys):
    def jacobian(f, x):
        raise NotImplementedError("Jacobians of complex functions")

    _, line = verdict_of(capsys, ch02.check_jacobian, jacobian)
    assert line.startswith("not quite:") and "NotImplementedError" in line, line
    assert "Jacobians of complex functions" in line

    class Frozen(ag.nn.Module):  # nn.Module.forward raises NotImplementedError if not defined
        pass

    def freeze(layers):
        Frozen()(ag.ones(1))

    _, line = verdict_of(capsys, ch05.check_freeze_all_but_last, freeze)
    assert line.startswith("not quite:") and "NotImplementedError" in line, line


def test_the_placeholders_own_not_implemented_error_is_not_attempted(capsys):
    def jacobian(f, x):
        raise NotImplementedError  # your code

    _, line = verdict_of(capsys, ch02.check_jacobian, jacobian)
    assert line == "not attempted yet"

    class MySigmoid(ag.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = 1 / (1 + (-x).exp())
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, grad_output):
            (y,) = ctx.saved_tensors
            raise NotImplementedError   # return dL/dx

    _, line = verdict_of(capsys, ch06.check_sigmoid, MySigmoid)
    assert line == "not attempted yet"


# --- 9.2: exp taken away, and exp without its input ----------------------------------------------
def test_ex_9_2_calling_the_parents_exp_is_named(capsys):
    class MyValue(CourseValue):
        def exp(self):
            return super().exp()

    assert_hint(capsys, retired.check_value_exp, MyValue, _hint("ch09.exp.taken_away"))
    assert CourseValue.exp(CourseValue(0.0)).data == 1.0  # put back

    class Direct(CourseValue):
        def exp(self):
            return CourseValue.exp(self)

    assert_hint(capsys, retired.check_value_exp, Direct, _hint("ch09.exp.taken_away"))


def test_ex_9_2_an_exp_without_its_input_as_child_is_named(capsys):
    class MyValue(CourseValue):
        def exp(self):
            out = MyValue(math.exp(self.data))  # no (self,): backward() never reaches self

            def _backward():
                self.grad += out.data * out.grad

            out._backward = _backward
            return out

    assert_hint(capsys, retired.check_value_exp, MyValue, _hint("ch09.exp.no_child"))


# --- 9.3: a node's single gradient not put in a tuple --------------------------------------------
def run_backward_no_tuple(root, grad):
    """The solution of 9.3 without ``grads = (grads,)`` for a node with one input: zip then
    walks the *elements* of the gradient tensor."""
    dependencies, stack = {}, [root.grad_fn]
    while stack:
        for child, _ in stack.pop().next_functions:
            if child is None:
                continue
            if child not in dependencies:
                dependencies[child] = 0
                stack.append(child)
            dependencies[child] += 1
    buffers, ready, order = {root.grad_fn: grad}, [root.grad_fn], []
    with ag.no_grad():
        while ready:
            node = ready.pop()
            grads = node(buffers.pop(node))
            order.append(node)
            for (child, _), g in zip(node.next_functions, grads):
                if child is None:
                    continue
                if g is not None:
                    buffers[child] = buffers[child] + g if child in buffers else g
                dependencies[child] -= 1
                if dependencies[child] == 0:
                    ready.append(child)
    return order


def test_ex_9_3_a_forgotten_tuple_is_named(capsys):
    assert_hint(capsys, ch09.check_run_backward, run_backward_no_tuple,
                _hint("ch09.loop.tuple"))


# --- 10.2: a pack hook that returns None ---------------------------------------------------------
def test_ex_10_2_a_pack_hook_returning_none_is_refused(capsys):
    def saved_bytes(fn, *inputs):
        total = 0

        def pack(t):
            nonlocal total
            total += t.numel() * t.element_size()

        with ag.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
            fn(*inputs)
        return total

    assert_hint(capsys, ch10.check_saved_bytes, saved_bytes, _hint("ch10.bytes.pack_none"))


# --- 10.3: the call counts say what was expected and what happened -------------------------------
def test_ex_10_3_a_block_run_without_checkpoint_is_named_with_its_counts(capsys):
    def run_blocks(blocks, x):
        h = x
        for block in blocks[:-1]:
            h = ag.utils.checkpoint.checkpoint(block, h, use_reentrant=False)
        return blocks[-1](h)

    _, line = verdict_of(capsys, ch10.check_checkpoint_blocks, run_blocks)
    assert line.startswith("not quite:")
    assert _hint("ch10.ckpt.calls") in line
    assert "4 times in the forward pass" in line and "3 times during backward" in line, line
    assert "4 times during backward" in line, line


# --- 10.5 and 10.6: x that does not require grad -------------------------------------------------
def test_ex_10_5_differentiating_a_detached_x_is_named(capsys):
    def hvp_by_hand(f, x, v):
        x = x.detach()
        (g,) = ag.autograd.grad(f(x), x, create_graph=True)
        (hv,) = ag.autograd.grad((g * v).sum(), x)
        return hv

    assert_hint(capsys, ch10.check_hvp, hvp_by_hand, _hint("ch10.hvp.x_no_grad"))

    def fresh_copy(f, x, v):
        x = x.detach().requires_grad_()
        (g,) = ag.autograd.grad(f(x), x, create_graph=True)
        return ag.autograd.grad((g * v).sum(), x)[0]

    assert_correct(capsys, ch10.check_hvp, fresh_copy)


def test_ex_10_6_differentiating_a_detached_x_is_named(capsys):
    def gradient_penalty(critic, x):
        x = ag.tensor(x.detach().numpy())
        (g,) = ag.autograd.grad(critic(x).sum(), x, create_graph=True)
        return ((g.norm(dim=1) - 1) ** 2).mean()

    assert_hint(capsys, ch10.check_gradient_penalty, gradient_penalty,
                _hint("ch10.gp.x_no_grad"))


# --- hints that named another mistake ------------------------------------------------------------
def test_every_new_key_has_a_chinese_twin():
    from autograd_course.course.exercises.messages_zh import MESSAGES as ZH

    for key in ("ch01.accumulate.same_value", "ch01.slope.exact_note", "ch02.unbroadcast.shifted",
                "ch02.pow.fixed_power", "ch02.ops.number", "ch02.loss.even",
                "ch03.leaves.revisits", "ch03.backward.duplicate_edge", "ch09.exp.taken_away",
                "ch09.exp.no_child", "ch09.loop.tuple", "ch10.bytes.pack_none",
                "ch10.hvp.x_no_grad", "ch10.gp.x_no_grad"):
        assert key in MESSAGES and key in ZH, key


# === second, own solutions: other code, the same behaviour =======================================
# --- chapter 1 -----------------------------------------------------------------------------------
def central_difference(g, at, step=1e-5):
    return (g(at + step) - g(at - step)) / (2 * step)


class MicroValue:
    """A Value written the micrograd way: children in a set, ``_backward`` a named method
    stored per instance, ``grad = grad + ...`` instead of ``+=``."""

    def __init__(self, data, _children=()):
        self.data, self.grad = float(data), 0.0
        self._prev = set(_children)
        self._backward = lambda: None

    def _wrap(self, other):
        return other if isinstance(other, MicroValue) else MicroValue(other)

    def __add__(self, other):
        other = self._wrap(other)
        result = MicroValue(self.data + other.data, (self, other))

        def send_back():
            self.grad = self.grad + result.grad
            other.grad = other.grad + result.grad

        result._backward = send_back
        return result

    def __mul__(self, other):
        other = self._wrap(other)
        result = MicroValue(self.data * other.data, (self, other))

        def send_back():
            self.grad = self.grad + other.data * result.grad
            other.grad = other.grad + self.data * result.grad

        result._backward = send_back
        return result


def test_second_solutions_of_chapter_1(capsys):
    assert_correct(capsys, ch01.check_slope, central_difference(f, 2.0))
    assert_correct(capsys, ch01.check_slope,
                   central_difference(f, ag.tensor(2.0, dtype=ag.float64)))
    assert_correct(capsys, ch01.check_value_mul, MicroValue)
    a, b, c = MicroValue(2.0), MicroValue(-3.0), MicroValue(10.0)
    d = a * b
    L = d + c
    L.grad = 1.0
    for node in (L, d):  # the same two calls, in a loop
        node._backward()
    assert_correct(capsys, ch01.check_manual_backward, a, b, c, d, L)
    assert_correct(capsys, ch01.check_value_accumulates, MicroValue)
    x = [[1.0, 2.0], [3.0, 4.0]]
    assert_correct(capsys, ch01.check_predict_grad, [[2 * 3 * 3 * v for v in row] for row in x])
    assert_correct(capsys, ch01.check_predict_grad, np.array(x) * 18)
    assert_correct(capsys, ch01.check_leaves, "a, b, d", ["a"])
    steps = 10.0 ** -np.arange(1, 16)
    best = steps[np.argmin([abs(central_difference(f, 2.0, h) - 10.0) for h in steps])]
    assert_correct(capsys, ch01.check_best_step, best)


# --- chapter 2 -----------------------------------------------------------------------------------
def jacobian_by_grad(func, x):
    """Row by row with autograd.grad (nothing accumulates in x.grad)."""
    x = x.clone().requires_grad_()
    y = func(x).reshape(-1)
    return ag.stack([ag.autograd.grad(y[i], x, retain_graph=True)[0] for i in range(len(y))])


def unbroadcast_loop(grad, shape):
    """A loop with keepdim over the stretched dimensions, after summing away the extra ones."""
    for _ in range(grad.dim() - len(shape)):
        grad = grad.sum(0)
    for i, n in enumerate(shape):
        if n == 1 and grad.shape[i] != 1:
            grad = grad.sum(dim=i, keepdim=True)
    return grad


class PowTanhOther(ValueAddMul):
    """k·x^(k-1) written as k·out/x (x ≠ 0 here), tanh' as 1/cosh²."""

    def __pow__(self, k):
        out = PowTanhOther(self.data ** k, (self,))

        def _backward():
            self.grad += k * out.data / self.data * out.grad

        out._backward = _backward
        return out

    def tanh(self):
        out = PowTanhOther(math.tanh(self.data), (self,))

        def _backward():
            self.grad += out.grad / math.cosh(self.data) ** 2

        out._backward = _backward
        return out


class OperatorsOther(ValuePowTanh):
    """``-`` and ``/`` with their own _backward, the "r" methods through the others."""

    def __neg__(self):
        return -1 * self

    def __sub__(self, other):
        other = self._lift(other)
        out = type(self)(self.data - other.data, (self, other))

        def _backward():
            self.grad += out.grad
            other.grad -= out.grad

        out._backward = _backward
        return out

    def __rsub__(self, other):
        return self._lift(other) - self

    def __truediv__(self, other):
        other = self._lift(other)
        out = type(self)(self.data / other.data, (self, other))

        def _backward():
            self.grad += out.grad / other.data
            other.grad -= self.data / other.data ** 2 * out.grad

        out._backward = _backward
        return out

    def __rtruediv__(self, other):
        return self._lift(other) / self

    def __radd__(self, other):
        return self + other

    def __rmul__(self, other):
        return self * other


def test_second_solutions_of_chapter_2(capsys):
    assert_correct(capsys, ch02.check_jacobian, jacobian_by_grad)
    assert_correct(capsys, ch02.check_mean_gradient, ag.full((3,), 1 / 3))
    assert_correct(capsys, ch02.check_mean_gradient, [1 / 3] * 3)
    assert_correct(capsys, ch02.check_unbroadcast, unbroadcast_loop)
    assert_correct(capsys, ch02.check_value_pow_tanh, PowTanhOther)
    assert_correct(capsys, ch02.check_value_operators, OperatorsOther)
    assert_correct(capsys, ch02.check_value_operators, ValueOps)
    assert_correct(capsys, ch02.check_loss, lambda p, y: (p - y).abs().mean())
    assert_correct(capsys, ch02.check_loss, ag.nn.functional.mse_loss)


# --- chapter 3 -----------------------------------------------------------------------------------
def find_leaves_breadth_first(t):
    """A queue instead of a stack, a set of ids, and the leaves recognised by .variable."""
    leaves, seen, queue = [], set(), deque([t.grad_fn])
    while queue:
        node = queue.popleft()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if hasattr(node, "variable"):
            leaves.append(node.variable)
        queue.extend(nxt for nxt, _ in node.next_functions if nxt is not None)
    return leaves


class PostOrderByIndex(_KahnBase):
    """backward() with an explicit stack of (value, next child index): a post-order."""

    def backward(self):
        order, seen, stack = [], {id(self)}, [(self, 0)]
        while stack:
            v, i = stack.pop()
            children = list(v._prev)
            if i < len(children):
                stack.append((v, i + 1))
                child = children[i]
                if id(child) not in seen:
                    seen.add(id(child))
                    stack.append((child, 0))
            else:
                order.append(v)
        self.grad = 1.0
        for v in order[::-1]:
            v._backward()


def train_step_other(model, xs, ys, lr):
    params = model.parameters()
    for p in params:
        p.grad = 0
    loss = course_mse(model, xs, ys)
    loss.backward()
    for p in params:
        p.data = p.data - lr * p.grad
    return loss


def test_second_solutions_of_chapter_3(capsys):
    assert_correct(capsys, ch03.check_find_leaves, find_leaves_breadth_first)
    assert_correct(capsys, ch03.check_loop_graph, np.int64(6), ag.tensor([64.0, 64.0]))
    assert_correct(capsys, ch03.check_clip_hook, lambda g: ag.clamp(g, min=-1, max=1))
    assert_correct(capsys, ch03.check_clip_hook,
                   lambda g: ag.where(g > 1, ag.ones_like(g),
                                      ag.where(g < -1, -ag.ones_like(g), g)))
    assert_correct(capsys, ch03.check_value_backward, KahnRight)
    assert_correct(capsys, ch03.check_value_backward, PostOrderByIndex)
    assert_correct(capsys, ch03.check_train_step, train_step_other)


# --- chapter 9 -----------------------------------------------------------------------------------
def topo_order_reversed_post_order(t):
    """A depth-first post-order (each node after the nodes it sends gradients to), reversed."""
    post, seen, stack = [], set(), [(t.grad_fn, False)]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            post.append(node)
        elif node not in seen:
            seen.add(node)
            stack.append((node, True))
            stack.extend((nxt, False) for nxt, _ in node.next_functions if nxt is not None)
    return post[::-1]


class ExpOther(CourseValue):
    def exp(self):
        out = ExpOther(math.e ** self.data, (self,), "exp")

        def _backward():
            self.grad += math.exp(self.data) * out.grad

        out._backward = _backward
        return out


def run_backward_queue(root, grad):
    """Kahn's algorithm with a FIFO queue and defaultdicts; a gradient is summed on arrival."""
    waiting, seen, stack = defaultdict(int), {root.grad_fn}, [root.grad_fn]
    while stack:
        for child, _ in stack.pop().next_functions:
            if child is not None:
                waiting[child] += 1
                if child not in seen:
                    seen.add(child)
                    stack.append(child)
    arrived, queue, called = {root.grad_fn: grad}, deque([root.grad_fn]), []
    with ag.no_grad():
        while queue:
            node = queue.popleft()
            results = node(arrived.pop(node))
            called.append(node)
            results = results if isinstance(results, tuple) else (results,)
            for (child, _), g in zip(node.next_functions, results):
                if child is None:
                    continue
                if g is not None:
                    arrived[child] = arrived[child] + g if child in arrived else g
                waiting[child] -= 1
                if waiting[child] == 0:
                    queue.append(child)
    return called


def test_second_solutions_of_chapter_9(capsys):
    assert_correct(capsys, ch09.check_topo_order, topo_order_reversed_post_order)
    assert_correct(capsys, retired.check_value_exp, ExpOther)
    assert_correct(capsys, ch09.check_run_backward, run_backward_queue)


# --- chapter 10 ----------------------------------------------------------------------------------
def clamp_incoming_other(node):
    def limit(grad_outputs):
        return tuple(None if g is None else ag.clamp(g, -1.0, 1.0) for g in grad_outputs)

    return node.register_prehook(limit)


def saved_bytes_other(fn, *inputs):
    sizes = []

    def pack(t):
        sizes.append(t.element_size() * t.numel())
        return t

    def unpack(t):
        return t

    with ag.autograd.graph.saved_tensors_hooks(pack, unpack):
        fn(*inputs)
    return int(sum(sizes))


def run_blocks_other(blocks, x):
    return reduce(lambda h, block: ag.utils.checkpoint.checkpoint(block, h, use_reentrant=False),
                  blocks, x)


def nan_source_other(loss):
    ag.autograd.set_detect_anomaly(True)
    try:
        loss.backward()
    except RuntimeError as err:
        return re.search(r"'(\w+)'", str(err)).group(1)
    finally:
        ag.autograd.set_detect_anomaly(False)
    return "no NaN"


def hvp_other(f, x, v):
    x = x.detach().requires_grad_()
    (g,) = ag.autograd.grad(f(x), [x], create_graph=True)
    return ag.autograd.grad(g @ v, [x])[0]


def gradient_penalty_other(critic, x):
    out = critic(x)
    (g,) = ag.autograd.grad(out, x, grad_outputs=ag.ones_like(out), create_graph=True)
    return ((g.pow(2).sum(dim=1).sqrt() - 1) ** 2).mean()


def test_second_solutions_of_chapter_10(capsys):
    assert_correct(capsys, ch10.check_clamp_prehook, clamp_incoming_other)
    assert_correct(capsys, ch10.check_saved_bytes, saved_bytes_other)
    assert_correct(capsys, ch10.check_checkpoint_blocks, run_blocks_other)
    assert_correct(capsys, ch10.check_nan_source, nan_source_other)
    assert_correct(capsys, ch10.check_hvp, hvp_other)
    assert_correct(capsys, ch10.check_gradient_penalty, gradient_penalty_other)
