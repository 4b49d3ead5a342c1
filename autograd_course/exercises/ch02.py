"""Chapter 2 exercises: build a Jacobian row by row; choose the ``gradient`` of a backward."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._common import (
    Mismatch,
    call_learner,
    checker,
    compare_tensors,
    random_inputs,
    require_attempt,
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
        answer = call_learner(jacobian, f, learner_x)
        compare_tensors(answer, expected, f"your Jacobian of {description}", rtol=1e-6)


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
