"""Chapter 2 exercises: build a Jacobian row by row; choose the ``gradient`` of a backward;
sum a broadcast gradient back to its input's shape; ``**``, ``tanh`` and the other operators
(``-``, ``/``, numbers on the left) for the learner's ``Value``; a loss that knows the labels
(loss versus metric)."""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from ... import Tensor, float32, float64, stack, tensor
from ...autograd import grad
from ._common import (
    Mismatch,
    NotAttempted,
    call_learner,
    checker,
    compare_tensors,
    describe_exception,
    has_placeholder_body,
    random_inputs,
    require_attempt,
    returned_none,
    to_numpy,
)
from .messages import msg
from .value_checks import backprop, require_value_class


def _test_functions() -> list[tuple[str, Callable[[Any], Any], int]]:
    """Vector functions with non-diagonal Jacobians (outputs and inputs of different sizes)."""
    return [
        ("f(x) = [x0*x1, x1*x2 + x0**2]",
         lambda x: stack([x[0] * x[1], x[1] * x[2] + x[0] ** 2]), 3),
        ("f(x) = x.exp() * x.sum()", lambda x: x.exp() * x.sum(), 4),
        ("f(x) = [sin(x0) * x1]", lambda x: (x[0].sin() * x[1]).reshape(1), 2),
    ]


def _reference_jacobian(f: Callable[[Any], Any], x_values: np.ndarray) -> np.ndarray:
    """Row i = gradient of output i: one backward pass per row, with a one-hot ``gradient``."""
    x = tensor(x_values, requires_grad=True)
    y = f(x)
    rows = []
    for i in range(y.numel()):
        onehot = np.zeros(y.numel())
        onehot[i] = 1.0
        (g,) = grad(y, x, tensor(onehot.reshape(y.shape), dtype=y.dtype), retain_graph=True)
        rows.append(g._data.reshape(-1))
    return np.stack(rows)


@checker
def check_jacobian(jacobian: Any) -> None:
    """Exercise 2.1: ``jacobian(f, x)`` returns the (len(f(x)), len(x)) matrix of df_i/dx_j."""
    require_attempt(jacobian)
    for description, f, n in _test_functions():
        (x,) = random_inputs((n,), requires_grad=False)
        x_values = x._data.copy()
        expected = _reference_jacobian(f, x_values)
        learner_x = tensor(x_values, dtype=float64)
        answer = call_learner(jacobian, f, learner_x, copy_args=True)
        _accumulation_hint(answer, expected)
        compare_tensors(answer, expected, msg("ch02.jacobian.name", f=description), rtol=1e-6)


def _accumulation_hint(answer: Any, expected: np.ndarray) -> None:
    """Name the two ways ``.grad``'s accumulation spoils a row-by-row Jacobian."""
    try:
        got = to_numpy(answer)
    except (TypeError, ValueError):
        return
    if got.shape != expected.shape or len(expected) < 2 or np.allclose(got, expected):
        return
    if np.allclose(got, np.cumsum(expected, axis=0), rtol=1e-6):
        raise Mismatch(msg("ch02.jacobian.cumulative"))
    if np.allclose(got, np.broadcast_to(expected.sum(axis=0), got.shape), rtol=1e-6):
        raise Mismatch(msg("ch02.jacobian.all_sum"))
    if np.allclose(got, np.broadcast_to(expected[-1], got.shape), rtol=1e-6):
        raise Mismatch(msg("ch02.jacobian.all_last"))


def _q(a: Any, b: Any) -> Any:
    return 3 * a ** 3 - b ** 2


@checker
def check_mean_gradient(gradient: Any) -> None:
    """Exercise 2.2: the ``gradient`` for ``Q.backward`` that gives the gradients of Q.mean().

    Q = 3a³ − b² has three elements; the checker runs it on fresh random a and b.
    """
    require_attempt(gradient)
    if not isinstance(gradient, Tensor):
        try:
            gradient = tensor(to_numpy(gradient), dtype=float32)
        except (TypeError, ValueError) as e:
            raise Mismatch(msg("ch02.mean.not_a_tensor")) from e
    if tuple(gradient.shape) != (3,):
        raise Mismatch(msg("ch02.mean.shape", shape=tuple(gradient.shape)))
    a, b = random_inputs((3,), (3,))
    _q(a, b).backward(gradient.to(a.dtype))
    a2, b2 = (t.detach().requires_grad_() for t in (a, b))
    _q(a2, b2).mean().backward()
    compare_tensors(a.grad, a2.grad, msg("ch02.mean.name", var="a"), rtol=1e-6)
    compare_tensors(b.grad, b2.grad, msg("ch02.mean.name", var="b"), rtol=1e-6)


# --- broadcasting: summing a gradient back to its input's shape ---------------------------------
UNBROADCAST_CASES = [((4, 3), (3,)), ((4, 3), (1, 3)), ((2, 3, 4), (3, 1)), ((5, 2), ()),
                     ((3, 2), (3, 2)), ((2, 3, 4), (1, 3, 1)), ((5, 2, 3, 4), (2, 1, 1))]


def _stretched(big: tuple, small: tuple) -> int:
    """How many dimensions of ``small`` were stretched from size 1 to fit ``big``."""
    return sum(1 for b, s in zip(big[::-1], small[::-1]) if s == 1 and b != 1)


def _names_used(fn: Any) -> set:
    """The attribute and global names ``fn``'s code (and code nested in it) refers to."""
    names, codes = set(), [getattr(getattr(fn, "__func__", fn), "__code__", None)]
    while codes:
        code = codes.pop()
        if code is not None:
            names.update(code.co_names)
            codes.extend(c for c in code.co_consts if hasattr(c, "co_names"))
    return names


@checker
def check_unbroadcast(unbroadcast: Any) -> None:
    """Exercise 2.3: ``unbroadcast(grad, shape)`` sums ``grad`` down to ``shape``.

    An input of ``shape`` broadcast to ``grad.shape`` was used once per broadcast position, so
    its gradient is the *sum* over those positions (what ``grad.sum_to_size(shape)`` does).
    """
    require_attempt(unbroadcast)
    if "sum_to_size" in _names_used(unbroadcast):
        raise Mismatch(msg("ch02.unbroadcast.builtin"))
    rng = np.random.default_rng()
    for big, small in UNBROADCAST_CASES:
        values = rng.uniform(-2, 2, size=big)
        expected = tensor(values, dtype=float64).sum_to_size(*small) if small else \
            tensor(values.sum(), dtype=float64)
        case = msg("ch02.unbroadcast.case", big=big, small=small)
        two = _stretched(big, small) > 1  # a sum without keepdim shifts the later dimensions
        try:
            answer = call_learner(unbroadcast, tensor(values, dtype=float64), small,
                                  copy_args=True)
        except (NotAttempted, Mismatch):
            raise
        except Exception as e:
            if two:
                raise Mismatch(msg("ch02.unbroadcast.shifted", case=case,
                                   problem=describe_exception(e))) from e
            raise
        got = to_numpy(answer)
        want = to_numpy(expected)
        if got.size == want.size and got.shape != want.shape:
            raise Mismatch(msg("ch02.unbroadcast.shape", case=case, shape=got.shape))
        lost = int(np.prod(big)) // max(int(np.prod(small)), 1)
        if got.shape == want.shape and lost > 1 and np.allclose(got * lost, want):
            raise Mismatch(msg("ch02.unbroadcast.mean", case=case, lost=lost))
        try:
            compare_tensors(answer, expected, msg("ch02.unbroadcast.name", case=case),
                            rtol=1e-9)
        except Mismatch as e:
            if two:
                raise Mismatch(msg("ch02.unbroadcast.shifted", case=case, problem=e)) from e
            raise


# --- the learner's Value: ** and tanh -------------------------------------------------------------
# (k, x): integer, fractional, negative, 0 and 1 exponents, at points on both sides of 0
POW_CASES = [(3, 0.7), (0.5, 1.7), (-1, 0.8), (2, -1.3), (-2.5, 1.2), (0, 1.4), (1, -0.6)]


def _run_op(value_cls: Any, x0: float, op: str, grad: float = 1.5, k: float = 3) -> tuple:
    """(x, out) after out = op(x) (``x ** k`` or ``x.tanh()``) and one call of
    out._backward() with out.grad = ``grad``."""
    x = value_cls(x0)
    method = getattr(value_cls, "__pow__" if op == "pow" else "tanh", None)
    if method is None:
        raise Mismatch(msg("ch02.value.no_method", method="__pow__" if op == "pow" else "tanh"))
    out = x ** k if op == "pow" else x.tanh()
    if out is None:
        if has_placeholder_body(method):
            raise NotAttempted
        raise returned_none(method)
    if has_placeholder_body(out._backward):
        raise NotAttempted
    out.grad = grad
    out._backward()
    return x, out


def _check_pow(value_cls: Any, k: float, x0: float) -> None:
    """``x ** k`` at ``x0``: its data, and the gradient k·x0^(k-1)·1.5 its _backward sends."""
    x, out = _run_op(value_cls, x0, "pow", k=k)
    if abs(out.data - x0 ** k) > 1e-12 * max(1.0, abs(x0 ** k)):
        raise Mismatch(msg("ch02.pow.forward", k=k, x0=x0, got=out.data, want=x0 ** k))
    local = k * x0 ** (k - 1)
    if _near(x.grad, local * 1.5):
        return
    if _near(x.grad, local):
        raise Mismatch(msg("ch02.pow.no_out_grad"))
    if _near(x.grad, x0 ** k * 1.5) or _near(x.grad, k * x0 ** k * 1.5):
        raise Mismatch(msg("ch02.pow.exponent"))
    if _near(x.grad, k * x0 ** 2 * 1.5):
        raise Mismatch(msg("ch02.pow.fixed_power", k=k, x0=x0, got=x.grad, want=local * 1.5))
    raise Mismatch(msg("ch02.pow.wrong", k=k, got=x.grad, x0=x0, want=local * 1.5))


def _near(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(b))


@checker
def check_value_pow_tanh(value_cls: Any) -> None:
    """Exercise 2.4: ``Value.__pow__(k)`` (k a number) and ``Value.tanh()`` with their local
    backward rules k·x^(k-1) and 1 - tanh(x)², each times out.grad and accumulated with +=."""
    require_value_class(value_cls)
    for k, x0 in POW_CASES:
        _check_pow(value_cls, k, x0)
    x0 = 0.7
    x, out = _run_op(value_cls, x0, "tanh")
    t = math.tanh(x0)
    if abs(out.data - t) > 1e-12:
        raise Mismatch(msg("ch02.tanh.forward", x0=x0, got=out.data, want=t))
    want = (1 - t ** 2) * 1.5
    if abs(x.grad - want) > 1e-9:
        if abs(x.grad - (1 - t ** 2)) < 1e-9:
            raise Mismatch(msg("ch02.tanh.no_out_grad"))
        if abs(x.grad - (1 - x0 ** 2) * 1.5) < 1e-9:
            raise Mismatch(msg("ch02.tanh.not_x"))
        raise Mismatch(msg("ch02.tanh.wrong", got=x.grad, x0=x0, want=want))
    # used twice: x ** 3 + x.tanh() needs both contributions, whichever _backward runs last
    for pow_first in (True, False):
        x = value_cls(x0)
        p, q = x ** 3, x.tanh()
        p.grad = q.grad = 1.0
        for node in ((p, q) if pow_first else (q, p)):
            node._backward()
        if abs(x.grad - (3 * x0 ** 2 + 1 - t ** 2)) > 1e-9:
            raise Mismatch(msg("ch02.value.twice"))


@checker
def check_value_relu(value_cls: Any) -> None:
    """Exercise 2.4 (continued): ``Value.relu()``: max(x, 0) forward; its ``_backward`` sends
    out.grad where x > 0 and nothing where x <= 0, accumulated with +=."""
    require_value_class(value_cls)
    method = getattr(value_cls, "relu", None)
    if method is None:
        raise Mismatch(msg("ch02.value.no_method", method="relu"))
    for x0 in (1.3, -0.8, 0.4):
        x = value_cls(x0)
        out = x.relu()
        if out is None:
            raise NotAttempted if has_placeholder_body(method) else returned_none(method)
        if has_placeholder_body(out._backward):
            raise NotAttempted
        if not _near(out.data, max(x0, 0.0)):
            raise Mismatch(msg("ch02.relu.forward", x0=x0, got=out.data, want=max(x0, 0.0)))
        x.grad, out.grad = 0.5, 1.5  # x already holds 0.5 from another use
        out._backward()
        want = 0.5 + (1.5 if x0 > 0 else 0.0)
        if _near(x.grad, want):
            continue
        if x0 > 0 and _near(x.grad, 1.5):
            raise Mismatch(msg("ch01.accumulate.add_overwrites"))
        if x0 > 0 and _near(x.grad, 1.5 + x0 * 1.5) or _near(x.grad, 0.5 + x0 * 1.5):
            raise Mismatch(msg("ch02.relu.times_x"))
        raise Mismatch(msg("ch02.relu.backward", x0=x0, got=x.grad - 0.5, want=want - 0.5))


# --- the learner's Value: operators made of operations it already has ----------------------------
A0, B0 = 3.0, -2.0
# expression, the method it calls, forward, d/da, d/db (at a = A0, b = B0)
OPERATOR_CASES = [
    ("-a", "__neg__", lambda a, b: -a, -A0, -1.0, 0.0),
    ("a - b", "__sub__", lambda a, b: a - b, A0 - B0, 1.0, -1.0),
    ("a - 2", "__sub__", lambda a, b: a - 2, A0 - 2, 1.0, 0.0),
    ("2 - a", "__rsub__", lambda a, b: 2 - a, 2 - A0, -1.0, 0.0),
    ("a / b", "__truediv__", lambda a, b: a / b, A0 / B0, 1 / B0, -A0 / B0 ** 2),
    ("a / 2", "__truediv__", lambda a, b: a / 2, A0 / 2, 0.5, 0.0),
    ("2 / a", "__rtruediv__", lambda a, b: 2 / a, 2 / A0, -2 / A0 ** 2, 0.0),
    ("2 + a", "__radd__", lambda a, b: 2 + a, 2 + A0, 1.0, 0.0),
    ("2 * a", "__rmul__", lambda a, b: 2 * a, 2 * A0, 2.0, 0.0),
]


@checker
def check_value_operators(value_cls: Any) -> None:
    """Exercise 2.5: ``-a``, ``a - b``, ``a - 2``, ``2 - a``, ``a / b``, ``a / 2``, ``2 / a``,
    ``2 + a`` and ``2 * a`` on the learner's ``Value``: each result's data, and the gradients
    a backward pass through it sends to a and b (each operator built from ``+``, ``*`` and
    ``**``, or with its own correct ``_backward``)."""
    require_value_class(value_cls)
    for expr, name, op, want, want_a, want_b in OPERATOR_CASES:
        method = getattr(value_cls, name, None)
        if method is not None and has_placeholder_body(method):
            raise NotAttempted
        a, b = value_cls(A0), value_cls(B0)
        try:
            out = op(a, b)
        except Exception as e:
            if expr.endswith("2"):  # a Value and a number: other must be lifted first
                raise Mismatch(msg("ch02.ops.number", expr=expr,
                                   error=describe_exception(e))) from e
            if isinstance(e, TypeError):
                raise Mismatch(msg("ch02.ops.missing", expr=expr, method=name)) from e
            raise
        if out is None:
            raise returned_none(method)
        if not hasattr(out, "data") or not hasattr(out, "_backward"):
            raise Mismatch(msg("ch01.value.not_a_value", what=expr, type=type(out).__name__))
        if name in ("__rsub__", "__rtruediv__") and abs(out.data - op(A0, B0)) > 1e-9 and \
                abs(out.data - (A0 - 2 if name == "__rsub__" else A0 / 2)) < 1e-9:
            raise Mismatch(msg("ch02.ops.swapped", expr=expr, method=name))
        if abs(out.data - want) > 1e-9:
            raise Mismatch(msg("ch02.ops.forward", expr=expr, got=out.data, want=want))
        backprop(out)
        if a.grad == 0.0 and b.grad == 0.0:
            raise Mismatch(msg("ch02.ops.no_graph", expr=expr))
        if abs(a.grad - want_a) > 1e-9 or abs(b.grad - want_b) > 1e-9:
            raise Mismatch(msg("ch02.ops.grad", expr=expr, a_grad=a.grad, b_grad=b.grad,
                               want_a=want_a, want_b=want_b))


# --- loss versus metric -----------------------------------------------------------------------
def _loss_gradient(loss: Any, prediction: np.ndarray, labels: np.ndarray) -> tuple:
    """(the loss's value, d loss / d prediction) for the learner's ``loss(prediction, labels)``."""
    p = tensor(prediction, dtype=float64, requires_grad=True)
    out = call_learner(loss, p, tensor(labels, dtype=float64))
    if not isinstance(out, Tensor) or out.numel() != 1:
        raise Mismatch(msg("ch02.loss.scalar"))
    if not out.requires_grad:
        raise Mismatch(msg("ch02.loss.no_grad"))
    out.backward()
    gradient = to_numpy(p.grad) if p.grad is not None else np.zeros_like(prediction)
    return float(out.item()), gradient


@checker
def check_loss(loss: Any) -> None:
    """Exercise 2.6: ``loss(prediction, labels)`` is a scalar that gradient descent can
    minimise: 0 when prediction equals labels, a gradient that depends on the labels, and a
    step against the gradient moves every prediction towards its label."""
    require_attempt(loss)
    rng = np.random.default_rng()
    labels = rng.uniform(0, 1, size=6)
    prediction = labels + np.array([1.0, -1.0, 1.0, -1.0, -1.0, 1.0]) * rng.uniform(0.2, 0.5, 6)
    _, g = _loss_gradient(loss, prediction, labels)
    if np.allclose(g, 0.0):
        raise Mismatch(msg("ch02.loss.zero_grad"))
    _, g_other = _loss_gradient(loss, prediction, rng.uniform(2, 3, size=6))
    if np.allclose(g, g_other):
        raise Mismatch(msg("ch02.loss.ignores_labels"))
    # the labels mirrored through the predictions: every error changes sign, and so must the
    # gradient (the cube's 3(p - y)² does not)
    _, g_mirrored = _loss_gradient(loss, prediction, 2 * prediction - labels)
    if np.allclose(g, g_mirrored):
        raise Mismatch(msg("ch02.loss.even"))
    towards = g * (prediction - labels)
    if np.all(towards < 0):
        raise Mismatch(msg("ch02.loss.sign"))
    if not np.all(towards > 0):
        raise Mismatch(msg("ch02.loss.direction"))
    perfect, _ = _loss_gradient(loss, labels, labels)
    if abs(perfect) > 1e-9:
        raise Mismatch(msg("ch02.loss.not_zero", value=perfect))
