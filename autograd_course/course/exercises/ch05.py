"""Chapter 5 exercises: which gradients are ``None``, a real snapshot, a straight-through clamp,
freezing layers."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ... import Tensor, float64, no_grad, tensor
from ...autograd.engine import grad
from ._common import (
    Mismatch,
    NotAttempted,
    call_learner,
    checker,
    compare_tensors,
    not_attempted_or_error,
    random_inputs,
    require_attempt,
    to_numpy,
)
from .messages import msg

_NAMES = ("a", "b", "c", "d")

# The message key that says why each tensor's .grad ends up None (or not) in exercise 5.1.
_REASONS = {
    "a": "ch05.none.why_a",
    "b": "ch05.none.why_b",
    "c": "ch05.none.why_c",
    "d": "ch05.none.why_d",
}


def _exercise_graph() -> dict:
    """Run the exercise's code and return the tensors by name (the reference answer)."""
    a = tensor([1.0, 2.0], requires_grad=True)
    b = tensor([3.0, 4.0], requires_grad=True)
    c = tensor([5.0, 6.0], requires_grad=True)
    d = tensor([7.0, 8.0])
    with no_grad():
        e = a * 2
    f = (e * b + c.detach() * d).sum()
    f.backward()
    return {"a": a, "b": b, "c": c, "d": d}


@checker
def check_none_grads(answer: Any) -> None:
    """Exercise 5.1: ``answer`` is the set of names whose ``.grad`` is None."""
    answer = require_attempt(answer)
    if isinstance(answer, str):
        answer = {answer}
    try:
        given = {str(name).strip() for name in answer}
    except TypeError as e:
        raise Mismatch(msg("ch05.none.not_a_set")) from e
    unknown = sorted(given - set(_NAMES))
    if unknown:
        raise Mismatch(msg("ch05.none.unknown", unknown=unknown))
    tensors = _exercise_graph()
    expected = {name for name, t in tensors.items() if t.grad is None}
    wrongly_in = sorted(given - expected)
    if wrongly_in:
        name = wrongly_in[0]
        raise Mismatch(msg("ch05.none.not_none", name=name, why=msg(_REASONS[name])))
    missing = sorted(expected - given)
    if missing:
        name = missing[0]
        raise Mismatch(msg("ch05.none.none_too", name=name, why=msg(_REASONS[name])))


@checker
def check_snapshot(snapshot: Callable[[Any], Any]) -> None:
    """Exercise 5.2: ``snapshot(t)`` returns an independent copy outside the graph."""
    (t,) = random_inputs((3, 4))
    original = t.detach().clone()
    copy = call_learner(snapshot, t)
    if not isinstance(copy, Tensor):
        raise Mismatch(msg("ch05.snapshot.not_a_tensor", type=type(copy).__name__))
    compare_tensors(copy, original, msg("ch05.snapshot.name"))
    if copy.requires_grad:
        raise Mismatch(msg("ch05.snapshot.requires_grad"))
    if copy.data_ptr() == t.data_ptr():
        raise Mismatch(msg("ch05.snapshot.shares"))
    with no_grad():
        t.mul_(2.0)
    if copy.data_ptr() == t.data_ptr() or not bool((copy == original).all()):
        raise Mismatch(msg("ch05.snapshot.changed"))


@checker
def check_freeze_all_but_last(freeze_all_but_last: Callable[[list], Any]) -> None:
    """Exercise 5.4: only the last layer's parameters keep requires_grad=True."""
    if freeze_all_but_last is None or freeze_all_but_last is Ellipsis:
        raise NotAttempted
    layers = [random_inputs((3, 4), (4,)), random_inputs((4, 4), (4,)),
              random_inputs((4, 2), (2,))]
    originals = [list(layer) for layer in layers]
    try:
        freeze_all_but_last(layers)
    except NotImplementedError as e:
        raise not_attempted_or_error(e) from e
    same = len(layers) == len(originals) and all(
        len(layer) == len(orig) and all(p is q for p, q in zip(layer, orig))
        for layer, orig in zip(layers, originals))
    if not same:
        raise Mismatch(msg("ch05.freeze.replaced"))
    flags = [[p.requires_grad for p in layer] for layer in originals]
    if not all(flags[-1]):
        raise Mismatch(msg("ch05.freeze.last"))
    for i, layer_flags in enumerate(flags[:-1]):
        if any(layer_flags):
            key = "ch05.freeze.some_params" if not all(layer_flags) else "ch05.freeze.all_params"
            raise Mismatch(msg("ch05.freeze.not_frozen", i=i, what=msg(key)))


@checker
def check_straight_through(clamp_st: Callable[[Any], Any]) -> None:
    """Exercise 5.3: ``clamp_st(x)`` has the values of ``x.clamp(0, 1)`` and the gradient of ``x``.

    Forward: y = clamp(x, 0, 1). Backward: dy/dx = 1 everywhere (the "straight-through"
    estimator), which ``x + (x.clamp(0, 1) - x).detach()`` gives: the detached difference is a
    constant, so only the ``x`` term carries a gradient.
    """
    # 1-D, so that a hint stays one line; always some values below 0 and above 1
    extra = np.round(np.random.default_rng().uniform(-1.5, 2.5, 4), 2)
    values = np.concatenate([[-0.7, 1.8], extra])
    x = tensor(values, dtype=float64, requires_grad=True)
    expected = x.detach().clamp(0.0, 1.0)
    unclamped = x.detach().clone()
    inside = to_numpy((unclamped >= 0) & (unclamped <= 1))  # clamp passes gradient at the bounds
    out = call_learner(clamp_st, x)
    if not isinstance(out, Tensor):
        raise Mismatch(msg("ch05.st.not_a_tensor", type=type(out).__name__))
    if out.shape == x.shape and _allclose(out, unclamped):
        raise Mismatch(msg("ch05.st.unclamped"))
    compare_tensors(out, expected, msg("ch05.st.values_name"))
    if not out.requires_grad:
        raise Mismatch(msg("ch05.st.no_requires_grad"))
    (gx,) = grad(out.sum(), [x], allow_unused=True)
    if gx is None:
        raise Mismatch(msg("ch05.st.no_path"))
    g = to_numpy(gx)
    if np.allclose(g, inside - 1.0):
        raise Mismatch(msg("ch05.st.detached_x"))
    if np.allclose(g, inside):
        raise Mismatch(msg("ch05.st.clamp_grad"))
    compare_tensors(gx, np.ones(x.shape), msg("ch05.st.grad_name"))


def _allclose(a: Any, b: Any) -> bool:
    """``allclose`` on two tensors' values (NumPy arrays on the host)."""
    return bool(np.allclose(to_numpy(a), to_numpy(b)))
