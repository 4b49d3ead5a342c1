"""Chapter 6 exercises: write ``backward`` for a custom Sigmoid, a two-input Div, note 001's
``MulConstant`` (fixed) and a Softplus of which only the forward is given."""

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
    learner_grads,
    random_inputs,
    to_numpy,
)


def _require_function(function_cls: Any) -> None:
    from ..autograd.function import Function

    if is_placeholder(function_cls):
        raise NotAttempted
    if not (isinstance(function_cls, type) and issubclass(function_cls, Function)):
        raise Mismatch(f"expected a subclass of ag.autograd.Function, got {function_cls!r}")


@checker
def check_sigmoid(function_cls: Any) -> None:
    """Exercise 6.1: ``MySigmoid.backward`` returns grad_output · σ(x)(1 − σ(x))."""
    _require_function(function_cls)
    (x,) = random_inputs((3, 4), low=-3.0, high=3.0)
    (grad_output,) = random_inputs((3, 4), requires_grad=False)
    (gx,) = learner_grads(function_cls, [x], grad_output)
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
    ga, gb = learner_grads(function_cls, [a, b], grad_output)
    an, bn, g = to_numpy(a), to_numpy(b), to_numpy(grad_output)
    for name, got, want in (("a", ga, g / bn), ("b", gb, -g * an / bn**2)):
        if got is None:
            raise Mismatch(f"backward returned None for {name}, but {name} requires grad")
        compare_tensors(got, want, f"your gradient for {name}")
    check_function_gradcheck(function_cls, [a, b])


def _backward_error_hint(err: RuntimeError, name: str) -> str | None:
    """A specific hint for the engine's errors about what ``backward`` returned."""
    text = str(err)
    if "incorrect number of gradients" in text:
        return (f"{name}.backward must return one value per input of forward, in order "
                f"({text.split('(')[-1].rstrip(')')})")
    if "forward input was not a Variable" in text or "expected Variable or None" in text:
        return (f"{name}.backward returned a gradient for an input that is not a tensor; "
                "return None in that place")
    return None


@checker
def check_mul_constant(function_cls: Any) -> None:
    """Exercise 6.3: the fixed ``MulConstant``: d(c·a)/da = c, so backward returns
    (grad_output · c, None)."""
    _require_function(function_cls)
    (a,) = random_inputs((5,))
    (grad_output,) = random_inputs((5,), requires_grad=False)
    constant = float(np.random.default_rng().choice([-3.0, 2.5, 4.0]))
    try:
        (ga,) = learner_grads(function_cls, [a, constant], grad_output, wrt=[a])
    except RuntimeError as err:
        hint = _backward_error_hint(err, function_cls.__name__)
        if hint is None:
            raise
        raise Mismatch(hint) from err
    if ga is None:
        raise Mismatch("backward returned None for the tensor, but it requires grad")
    g, c = to_numpy(grad_output), constant
    actual = to_numpy(ga)
    if actual.shape == g.shape:
        if np.allclose(actual, g):
            raise Mismatch("that is still the note's backward: it passes grad_output through "
                           "unchanged, as if the forward were the identity; what does "
                           "multiplying by the constant do to the derivative?")
        if np.allclose(actual, np.full(g.shape, c)):
            raise Mismatch("you returned the local derivative alone; the chain rule multiplies "
                           "it by grad_output")
    compare_tensors(ga, g * c, "your gradient for the tensor")
    check_function_gradcheck(function_cls, [a, constant])


@checker
def check_softplus(function_cls: Any) -> None:
    """Exercise 6.4: ``MySoftplus``, y = log(1 + e^x): d/dx log(1 + e^x) = e^x / (1 + e^x) =
    σ(x). Judged by gradcheck, with hints for the usual slips."""
    _require_function(function_cls)
    (x,) = random_inputs((6,), low=-3.0, high=3.0)
    (grad_output,) = random_inputs((6,), requires_grad=False)
    try:
        out = function_cls.apply(x)
    except NotImplementedError as e:
        raise NotAttempted from e
    if out is None or out is Ellipsis:
        raise NotAttempted
    xn = to_numpy(x)
    compare_tensors(out, np.log1p(np.exp(xn)), "the output of forward")
    try:
        (gx,) = learner_grads(function_cls, [x], grad_output)
    except (ValueError, IndexError) as err:
        saved = getattr(out.grad_fn, "saved_tensors", ())
        if not saved:
            raise Mismatch("forward saved nothing, so backward has nothing to read: call "
                           "ctx.save_for_backward(...) in forward with what backward needs") \
                from err
        raise
    if gx is None:
        raise Mismatch("backward returned None for x, but x requires grad")
    g, actual = to_numpy(grad_output), to_numpy(gx)
    sig = 1.0 / (1.0 + np.exp(-xn))
    if actual.shape == g.shape:
        if np.allclose(actual, sig):
            raise Mismatch("you returned the local derivative alone; the chain rule multiplies "
                           "it by grad_output")
        if np.allclose(actual, g * np.exp(xn)):
            raise Mismatch("e^x is the derivative of the inner 1 + e^x only; the outer log "
                           "contributes a factor too (chain rule inside the op)")
        if np.allclose(actual, g / (1.0 + np.exp(xn))):
            raise Mismatch("that is σ(-x), not the derivative of log(1 + e^x): check the sign "
                           "of the exponent")
    compare_tensors(gx, g * sig, "your gradient for x")
    check_function_gradcheck(function_cls, [x])
