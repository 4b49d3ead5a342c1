"""Chapter 2 exercises: build a Jacobian row by row; choose the ``gradient`` of a backward;
sum a broadcast gradient back to its input's shape; ``**`` and ``tanh`` for the learner's
``Value``."""

from __future__ import annotations

from typing import Any

import numpy as np

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


def _test_functions():
    """Vector functions with non-diagonal Jacobians (outputs and inputs of different sizes)."""
    from .. import stack

    return [
        ("f(x) = [x0*x1, x1*x2 + x0**2]",
         lambda x: stack([x[0] * x[1], x[1] * x[2] + x[0] ** 2]), 3),
        ("f(x) = x.exp() * x.sum()", lambda x: x.exp() * x.sum(), 4),
        ("f(x) = [sin(x0) * x1]", lambda x: (x[0].sin() * x[1]).reshape(1), 2),
    ]


def _reference_jacobian(f, x_values: np.ndarray) -> np.ndarray:
    """Row i = gradient of output i: one backward pass per row, with a one-hot ``gradient``."""
    from .. import tensor
    from ..autograd import grad

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
    from .. import float64, tensor

    for description, f, n in _test_functions():
        (x,) = random_inputs((n,), requires_grad=False)
        x_values = x._data.copy()
        expected = _reference_jacobian(f, x_values)
        learner_x = tensor(x_values, dtype=float64)
        answer = call_learner(jacobian, f, learner_x, copy_args=True)
        _accumulation_hint(answer, expected)
        compare_tensors(answer, expected, f"your Jacobian of {description}", rtol=1e-6)


def _accumulation_hint(answer: Any, expected: np.ndarray) -> None:
    """Name the two ways ``.grad``'s accumulation spoils a row-by-row Jacobian."""
    try:
        got = to_numpy(answer)
    except (TypeError, ValueError):
        return
    if got.shape != expected.shape or len(expected) < 2 or np.allclose(got, expected):
        return
    if np.allclose(got, np.cumsum(expected, axis=0), rtol=1e-6):
        raise Mismatch("each row contains the rows before it: backward() *adds* into x.grad, "
                       "so reset it (x.grad = None) before each row, or use ag.autograd.grad")
    if np.allclose(got, np.broadcast_to(expected.sum(axis=0), got.shape), rtol=1e-6):
        raise Mismatch("every row is the sum of all rows: you kept x.grad itself, which "
                       "backward() keeps adding into; reset it before each row and store "
                       "x.grad.clone()")
    if np.allclose(got, np.broadcast_to(expected[-1], got.shape), rtol=1e-6):
        raise Mismatch("every row equals the last one: x.grad is the same tensor each time "
                       "(zero_() and backward() change it in place); store x.grad.clone()")


def _q(a, b):
    return 3 * a ** 3 - b ** 2


@checker
def check_mean_gradient(gradient: Any) -> None:
    """Exercise 2.2: the ``gradient`` for ``Q.backward`` that gives the gradients of Q.mean().

    Q = 3a³ − b² has three elements; the checker runs it on fresh random a and b.
    """
    require_attempt(gradient)
    from .. import float32, tensor
    from ..tensor import Tensor

    if not isinstance(gradient, Tensor):
        try:
            gradient = tensor(to_numpy(gradient), dtype=float32)
        except (TypeError, ValueError) as e:
            raise Mismatch("gradient should be a tensor with Q's shape (3,)") from e
    if tuple(gradient.shape) != (3,):
        raise Mismatch(f"gradient must have Q's shape (3,), got {tuple(gradient.shape)}: "
                       "one number per element of Q")
    a, b = random_inputs((3,), (3,))
    _q(a, b).backward(gradient.to(a.dtype))
    a2, b2 = (t.detach().requires_grad_() for t in (a, b))
    _q(a2, b2).mean().backward()
    compare_tensors(a.grad, a2.grad, "the a.grad your gradient produces", rtol=1e-6)
    compare_tensors(b.grad, b2.grad, "the b.grad your gradient produces", rtol=1e-6)


# --- broadcasting: summing a gradient back to its input's shape ---------------------------------
UNBROADCAST_CASES = [((4, 3), (3,)), ((4, 3), (1, 3)), ((2, 3, 4), (3, 1)), ((5, 2), ()),
                     ((3, 2), (3, 2))]


@checker
def check_unbroadcast(unbroadcast: Any) -> None:
    """Exercise 2.3: ``unbroadcast(grad, shape)`` sums ``grad`` down to ``shape``.

    An input of ``shape`` broadcast to ``grad.shape`` was used once per broadcast position, so
    its gradient is the *sum* over those positions (what ``grad.sum_to_size(shape)`` does).
    """
    require_attempt(unbroadcast)
    from .. import float64, tensor

    rng = np.random.default_rng()
    for big, small in UNBROADCAST_CASES:
        values = rng.uniform(-2, 2, size=big)
        expected = tensor(values, dtype=float64).sum_to_size(*small) if small else \
            tensor(values.sum(), dtype=float64)
        answer = call_learner(unbroadcast, tensor(values, dtype=float64), small,
                              copy_args=True)
        got = to_numpy(answer)
        want = to_numpy(expected)
        case = f"grad of shape {big} to shape {small}"
        if got.size == want.size and got.shape != want.shape:
            raise Mismatch(f"{case}: the values are right but the shape is {got.shape}; keep "
                           "the size-1 dimensions (sum with keepdim=True, or reshape)")
        lost = int(np.prod(big)) // max(int(np.prod(small)), 1)
        if got.shape == want.shape and lost > 1 and np.allclose(got * lost, want):
            raise Mismatch(f"{case}: you averaged; the input was used {lost} times, once per "
                           "broadcast copy, and each use adds its gradient: sum, do not mean")
        compare_tensors(answer, expected, f"your result for {case}", rtol=1e-9)


# --- the learner's Value: ** and tanh -------------------------------------------------------------
def _run_op(value_cls: Any, x0: float, op: str, grad: float = 1.5) -> tuple:
    """(x, out) after out = op(x) and one call of out._backward() with out.grad = ``grad``."""
    x = value_cls(x0)
    method = getattr(value_cls, "__pow__" if op == "pow" else "tanh", None)
    if method is None:
        raise Mismatch(f"your Value has no {'__pow__' if op == 'pow' else 'tanh'} method")
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
    import math

    x0 = 0.7
    x, out = _run_op(value_cls, x0, "pow")
    if abs(out.data - x0 ** 3) > 1e-12:
        raise Mismatch(f"x ** 3 at x = {x0} gave {out.data:.6g}, expected {x0 ** 3:.6g}")
    want = 3 * x0 ** 2 * 1.5
    if abs(x.grad - want) > 1e-9:
        if abs(x.grad - 3 * x0 ** 2) < 1e-9:
            raise Mismatch("__pow__: multiply k * x**(k-1) by out.grad (the chain rule)")
        if abs(x.grad - x0 ** 3 * 1.5) < 1e-9 or abs(x.grad - 3 * x0 ** 3 * 1.5) < 1e-9:
            raise Mismatch("__pow__: the derivative of x**k is k * x**(k-1): the exponent "
                           "drops by one")
        raise Mismatch(f"__pow__: x.grad is {x.grad:.6g} for x**3 at x = {x0}, out.grad = 1.5; "
                       f"expected {want:.6g}")
    x, out = _run_op(value_cls, x0, "tanh")
    t = math.tanh(x0)
    if abs(out.data - t) > 1e-12:
        raise Mismatch(f"tanh() at x = {x0} gave {out.data:.6g}, expected {t:.6g} (math.tanh)")
    want = (1 - t ** 2) * 1.5
    if abs(x.grad - want) > 1e-9:
        if abs(x.grad - (1 - t ** 2)) < 1e-9:
            raise Mismatch("tanh: multiply 1 - tanh(x)**2 by out.grad (the chain rule)")
        if abs(x.grad - (1 - x0 ** 2) * 1.5) < 1e-9:
            raise Mismatch("tanh: the derivative is 1 - tanh(x)**2, with tanh(x) = out.data, "
                           "not 1 - x**2")
        raise Mismatch(f"tanh: x.grad is {x.grad:.6g} at x = {x0}, out.grad = 1.5; expected "
                       f"{want:.6g}")
    # used twice: x ** 3 + x.tanh() needs both contributions
    x = value_cls(x0)
    p, q = x ** 3, x.tanh()
    p.grad = q.grad = 1.0
    p._backward()
    q._backward()
    if abs(x.grad - (3 * x0 ** 2 + 1 - t ** 2)) > 1e-9:
        raise Mismatch("x ** 3 + x.tanh() uses x twice, and x.grad kept only one of the two "
                       "contributions: accumulate with `self.grad += ...`")
