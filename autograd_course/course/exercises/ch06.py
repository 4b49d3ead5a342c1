"""Chapter 6 exercises: write ``backward`` for a custom Sigmoid, a two-input Div, note 001's
``MulConstant`` (fixed) and a Softplus of which only the forward is given."""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from ... import Tensor
from ._common import (
    Mismatch,
    NotAttempted,
    check_function_gradcheck,
    checker,
    compare_tensors,
    learner_grads,
    not_attempted_or_error,
    random_inputs,
    require_function,
    to_numpy,
)
from .messages import msg


@checker
def check_sigmoid(function_cls: Any) -> None:
    """Exercise 6.1: ``MySigmoid.backward`` returns grad_output · σ(x)(1 − σ(x))."""
    require_function(function_cls)
    (x,) = random_inputs((3, 4), low=-3.0, high=3.0)
    (grad_output,) = random_inputs((3, 4), requires_grad=False)
    (gx,) = learner_grads(function_cls, [x], grad_output)
    if gx is None:
        raise Mismatch(msg("ch06.sigmoid.none"))
    y = 1.0 / (1.0 + np.exp(-to_numpy(x)))
    g = to_numpy(grad_output)
    actual = to_numpy(gx)
    if actual.shape == y.shape:
        if np.allclose(actual, g * y, rtol=1e-4):
            raise Mismatch(msg("ch06.sigmoid.times_y"))
        if np.allclose(actual, y * (1 - y), rtol=1e-4):
            raise Mismatch(msg("ch06.sigmoid.alone"))
    compare_tensors(gx, g * y * (1 - y), msg("ch06.gradient_for", name="x"))
    check_function_gradcheck(function_cls, [x])


@checker
def check_div(function_cls: Any) -> None:
    """Exercise 6.2: ``MyDiv.backward`` returns (grad/b, −grad·a/b²)."""
    require_function(function_cls)
    a, b = random_inputs((2, 3), (2, 3), low=0.5, high=2.0)
    (grad_output,) = random_inputs((2, 3), requires_grad=False)
    ga, gb = learner_grads(function_cls, [a, b], grad_output)
    an, bn, g = to_numpy(a), to_numpy(b), to_numpy(grad_output)
    for name, got, want in (("a", ga, g / bn), ("b", gb, -g * an / bn**2)):
        if got is None:
            raise Mismatch(msg("ch06.div.none", name=name))
        compare_tensors(got, want, msg("ch06.gradient_for", name=name))
    check_function_gradcheck(function_cls, [a, b])


def _backward_error_hint(err: RuntimeError, name: str) -> str | None:
    """A specific hint for the engine's errors about what ``backward`` returned."""
    text = str(err)
    count = re.search(r"incorrect number of gradients \(expected (\d+), got (\d+)\)", text)
    if count:
        return msg("ch06.mul_constant.count", name=name, expected=count[1], got=count[2])
    if "forward input was not a Variable" in text or "expected Variable or None" in text:
        return msg("ch06.mul_constant.non_tensor", name=name)
    return None


@checker
def check_mul_constant(function_cls: Any) -> None:
    """Exercise 6.3: the fixed ``MulConstant``: d(c·a)/da = c, so backward returns
    (grad_output · c, None)."""
    require_function(function_cls)
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
        raise Mismatch(msg("ch06.mul_constant.none"))
    g, c = to_numpy(grad_output), constant
    actual = to_numpy(ga)
    if actual.shape == g.shape:
        if np.allclose(actual, g):
            raise Mismatch(msg("ch06.mul_constant.identity"))
        if np.allclose(actual, np.full(g.shape, c)):
            raise Mismatch(msg("ch06.local_alone"))
    compare_tensors(ga, g * c, msg("ch06.mul_constant.name"))
    check_function_gradcheck(function_cls, [a, constant])


@checker
def check_softplus(function_cls: Any) -> None:
    """Exercise 6.4: ``MySoftplus``, y = log(1 + e^x): d/dx log(1 + e^x) = e^x / (1 + e^x) =
    σ(x). Judged by gradcheck, with hints for the usual slips."""
    require_function(function_cls)
    (x,) = random_inputs((6,), low=-3.0, high=3.0)
    (grad_output,) = random_inputs((6,), requires_grad=False)
    try:
        out = function_cls.apply(x)
    except NotImplementedError as e:
        raise not_attempted_or_error(e) from e
    if out is None or out is Ellipsis:
        raise NotAttempted
    xn = to_numpy(x)
    compare_tensors(out, np.log1p(np.exp(xn)), msg("ch06.softplus.forward_name"))
    kept = [name for name, value in vars(out.grad_fn).items() if isinstance(value, Tensor)]
    if kept and not out.grad_fn.saved_tensors:
        raise Mismatch(msg("ch06.softplus.kept_on_ctx", name=kept[0]))
    try:
        (gx,) = learner_grads(function_cls, [x], grad_output)
    except (ValueError, IndexError) as err:
        saved = getattr(out.grad_fn, "saved_tensors", ())
        if not saved:
            raise Mismatch(msg("ch06.softplus.saved_nothing")) from err
        raise
    if gx is None:
        raise Mismatch(msg("ch06.div.none", name="x"))
    g, actual = to_numpy(grad_output), to_numpy(gx)
    sig = 1.0 / (1.0 + np.exp(-xn))
    if actual.shape == g.shape:
        if np.allclose(actual, sig):
            raise Mismatch(msg("ch06.local_alone"))
        if np.allclose(actual, g * np.exp(xn)):
            raise Mismatch(msg("ch06.softplus.inner_only"))
        if np.allclose(actual, g / (1.0 + np.exp(xn))):
            raise Mismatch(msg("ch06.softplus.sign"))
    compare_tensors(gx, g * sig, msg("ch06.gradient_for", name="x"))
    check_function_gradcheck(function_cls, [x])
