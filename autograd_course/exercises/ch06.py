"""Chapter 6 exercises: write ``backward`` for a custom Sigmoid and for a two-input Div."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._common import (
    Mismatch,
    NotAttempted,
    check_function_gradcheck,
    checker,
    compare_tensors,
    is_placeholder,
    random_inputs,
    to_numpy,
)


def _require_function(function_cls: Any) -> None:
    from ..autograd.function import Function

    if is_placeholder(function_cls):
        raise NotAttempted
    if not (isinstance(function_cls, type) and issubclass(function_cls, Function)):
        raise Mismatch(f"expected a subclass of ag.autograd.Function, got {function_cls!r}")


def _learner_grads(function_cls: Any, inputs: list, grad_output) -> tuple:
    """The gradients the learner's backward produces for ``grad_output``."""
    from ..autograd.engine import grad

    try:
        out = function_cls.apply(*inputs)
    except NotImplementedError as e:
        raise NotAttempted from e
    if out is None or out is Ellipsis:
        raise NotAttempted
    try:
        return grad(out, inputs, grad_output, allow_unused=True)
    except NotImplementedError as e:
        raise NotAttempted from e
    except TypeError as e:
        if "ellipsis" in str(e):
            raise NotAttempted from e
        raise


@checker
def check_sigmoid(function_cls: Any) -> None:
    """Exercise 6.1: ``MySigmoid.backward`` returns grad_output · σ(x)(1 − σ(x))."""
    _require_function(function_cls)
    (x,) = random_inputs((3, 4), low=-3.0, high=3.0)
    (grad_output,) = random_inputs((3, 4), requires_grad=False)
    (gx,) = _learner_grads(function_cls, [x], grad_output)
    if gx is None:
        raise Mismatch("backward returned None for x: return grad_output times dσ/dx")
    y = 1.0 / (1.0 + np.exp(-to_numpy(x)))
    g = to_numpy(grad_output)
    actual = to_numpy(gx)
    if actual.shape == y.shape:
        if np.allclose(actual, g * y, rtol=1e-4):
            raise Mismatch("you returned grad_output * y; the derivative of σ is "
                           "σ(x)·(1 − σ(x)) = y * (1 - y)")
        if np.allclose(actual, y * (1 - y), rtol=1e-4):
            raise Mismatch("you returned dσ/dx alone; the chain rule multiplies it by "
                           "grad_output")
    compare_tensors(gx, g * y * (1 - y), "your gradient for x")
    check_function_gradcheck(function_cls, [x])


@checker
def check_div(function_cls: Any) -> None:
    """Exercise 6.2: ``MyDiv.backward`` returns (grad/b, −grad·a/b²)."""
    _require_function(function_cls)
    a, b = random_inputs((2, 3), (2, 3), low=0.5, high=2.0)
    (grad_output,) = random_inputs((2, 3), requires_grad=False)
    ga, gb = _learner_grads(function_cls, [a, b], grad_output)
    an, bn, g = to_numpy(a), to_numpy(b), to_numpy(grad_output)
    for name, got, want in (("a", ga, g / bn), ("b", gb, -g * an / bn**2)):
        if got is None:
            raise Mismatch(f"backward returned None for {name}, but {name} requires grad")
        compare_tensors(got, want, f"your gradient for {name}")
    check_function_gradcheck(function_cls, [a, b])
