"""Chapter 2 exercises: build a Jacobian row by row; choose the ``gradient`` of a backward;
sum a broadcast gradient back to its input's shape; ``**`` and ``tanh`` for the learner's
``Value``."""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from .. import Tensor, float32, float64, stack, tensor
from ..autograd import grad
from ._common import (
    Mismatch,
    NotAttempted,
    call_learner,
    checker,
    compare_tensors,
    has_placeholder_body,
    random_inputs,
    require_attempt,
    returned_none,
    to_numpy,
)
from .messages import msg


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
                     ((3, 2), (3, 2))]


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
        answer = call_learner(unbroadcast, tensor(values, dtype=float64), small,
                              copy_args=True)
        got = to_numpy(answer)
        want = to_numpy(expected)
        case = msg("ch02.unbroadcast.case", big=big, small=small)
        if got.size == want.size and got.shape != want.shape:
            raise Mismatch(msg("ch02.unbroadcast.shape", case=case, shape=got.shape))
        lost = int(np.prod(big)) // max(int(np.prod(small)), 1)
        if got.shape == want.shape and lost > 1 and np.allclose(got * lost, want):
            raise Mismatch(msg("ch02.unbroadcast.mean", case=case, lost=lost))
        compare_tensors(answer, expected, msg("ch02.unbroadcast.name", case=case), rtol=1e-9)


# --- the learner's Value: ** and tanh -------------------------------------------------------------
def _run_op(value_cls: Any, x0: float, op: str, grad: float = 1.5) -> tuple:
    """(x, out) after out = op(x) and one call of out._backward() with out.grad = ``grad``."""
    x = value_cls(x0)
    method = getattr(value_cls, "__pow__" if op == "pow" else "tanh", None)
    if method is None:
        raise Mismatch(msg("ch02.value.no_method", method="__pow__" if op == "pow" else "tanh"))
    out = x ** 3 if op == "pow" else x.tanh()
    if out is None:
        if has_placeholder_body(method):
            raise NotAttempted
        raise returned_none(method)
    if has_placeholder_body(out._backward):
        raise NotAttempted
    out.grad = grad
    out._backward()
    return x, out


@checker
def check_value_pow_tanh(value_cls: Any) -> None:
    """Exercise 2.4: ``Value.__pow__(k)`` (k a number) and ``Value.tanh()`` with their local
    backward rules k·x^(k-1) and 1 - tanh(x)², each times out.grad and accumulated with +=."""
    require_attempt(value_cls)
    x0 = 0.7
    x, out = _run_op(value_cls, x0, "pow")
    if abs(out.data - x0 ** 3) > 1e-12:
        raise Mismatch(msg("ch02.pow.forward", x0=x0, got=out.data, want=x0 ** 3))
    want = 3 * x0 ** 2 * 1.5
    if abs(x.grad - want) > 1e-9:
        if abs(x.grad - 3 * x0 ** 2) < 1e-9:
            raise Mismatch(msg("ch02.pow.no_out_grad"))
        if abs(x.grad - x0 ** 3 * 1.5) < 1e-9 or abs(x.grad - 3 * x0 ** 3 * 1.5) < 1e-9:
            raise Mismatch(msg("ch02.pow.exponent"))
        raise Mismatch(msg("ch02.pow.wrong", got=x.grad, x0=x0, want=want))
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
