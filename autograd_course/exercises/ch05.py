"""Chapter 5 exercises: which gradients are ``None``, a real snapshot, a straight-through clamp,
freezing layers."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ._common import (
    Mismatch,
    NotAttempted,
    call_learner,
    checker,
    compare_tensors,
    random_inputs,
    require_attempt,
    to_numpy,
)

_NAMES = ("a", "b", "c", "d")

# Why each tensor's .grad ends up None (or not) in exercise 5.1.
_REASONS = {
    "a": "a is only used inside ag.no_grad(), so e = a * 2 was not recorded and no edge "
         "leads back to a",
    "b": "b requires grad and reaches f through e * b, so backward fills b.grad",
    "c": "c reaches f only through c.detach(), which cuts it out of the graph",
    "d": "d never required grad, so autograd never gives it a .grad",
}


def _exercise_graph() -> dict:
    """Run the exercise's code and return the tensors by name (the reference answer)."""
    from .. import no_grad, tensor

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
        raise Mismatch("give a set of names, e.g. {\"a\", \"d\"}") from e
    unknown = sorted(given - set(_NAMES))
    if unknown:
        raise Mismatch(f"{unknown} are not among the names 'a', 'b', 'c', 'd'")
    tensors = _exercise_graph()
    expected = {name for name, t in tensors.items() if t.grad is None}
    wrongly_in = sorted(given - expected)
    if wrongly_in:
        name = wrongly_in[0]
        raise Mismatch(f"{name}.grad is not None: {_REASONS[name]}")
    missing = sorted(expected - given)
    if missing:
        name = missing[0]
        raise Mismatch(f"{name}.grad is None too: {_REASONS[name]}")


@checker
def check_snapshot(snapshot: Callable[[Any], Any]) -> None:
    """Exercise 5.2: ``snapshot(t)`` returns an independent copy outside the graph."""
    from .. import Tensor, no_grad

    (t,) = random_inputs((3, 4))
    original = t.detach().clone()
    copy = call_learner(snapshot, t)
    if not isinstance(copy, Tensor):
        raise Mismatch(f"snapshot should return a tensor, got {type(copy).__name__}")
    compare_tensors(copy, original, "your snapshot")
    if copy.requires_grad:
        raise Mismatch("your snapshot still requires grad (it is part of the graph): "
                       "detach it")
    if copy.data_ptr() == t.data_ptr():
        raise Mismatch("your snapshot shares memory with t (detach() is not a copy): "
                       "add .clone()")
    with no_grad():
        t.mul_(2.0)
    if copy.data_ptr() == t.data_ptr() or not bool((copy == original).all()):
        raise Mismatch("your snapshot changed when t was modified in place: "
                       "it must own its memory (use .clone())")


@checker
def check_freeze_all_but_last(freeze_all_but_last: Callable[[list], Any]) -> None:
    """Exercise 5.3: only the last layer's parameters keep requires_grad=True."""
    if freeze_all_but_last is None or freeze_all_but_last is Ellipsis:
        raise NotAttempted
    layers = [random_inputs((3, 4), (4,)), random_inputs((4, 4), (4,)),
              random_inputs((4, 2), (2,))]
    originals = [list(layer) for layer in layers]
    try:
        freeze_all_but_last(layers)
    except NotImplementedError as e:
        raise NotAttempted from e
    same = len(layers) == len(originals) and all(
        len(layer) == len(orig) and all(p is q for p, q in zip(layer, orig))
        for layer, orig in zip(layers, originals))
    if not same:
        raise Mismatch("freeze the parameters in place with requires_grad_(False); do not "
                       "replace them with new tensors")
    flags = [[p.requires_grad for p in layer] for layer in originals]
    if not all(flags[-1]):
        raise Mismatch("the last layer must stay trainable: its parameters should still "
                       "require grad")
    for i, layer_flags in enumerate(flags[:-1]):
        if any(layer_flags):
            what = "some of its parameters" if not all(layer_flags) else "its parameters"
            raise Mismatch(f"layer {i} is not frozen: {what} still require grad "
                           "(call requires_grad_(False) on every parameter of it)")


@checker
def check_straight_through(clamp_st: Callable[[Any], Any]) -> None:
    """Exercise 5.3: ``clamp_st(x)`` has the values of ``x.clamp(0, 1)`` and the gradient of ``x``.

    Forward: y = clamp(x, 0, 1). Backward: dy/dx = 1 everywhere (the "straight-through"
    estimator), which ``x + (x.clamp(0, 1) - x).detach()`` gives: the detached difference is a
    constant, so only the ``x`` term carries a gradient.
    """
    from .. import Tensor, float64, tensor
    from ..autograd.engine import grad

    # 1-D, so that a hint stays one line; always some values below 0 and above 1
    extra = np.round(np.random.default_rng().uniform(-1.5, 2.5, 4), 2)
    values = np.concatenate([[-0.7, 1.8], extra])
    x = tensor(values, dtype=float64, requires_grad=True)
    expected = x.detach().clamp(0.0, 1.0)
    unclamped = x.detach().clone()
    inside = to_numpy((unclamped >= 0) & (unclamped <= 1))  # clamp passes gradient at the bounds
    out = call_learner(clamp_st, x)
    if not isinstance(out, Tensor):
        raise Mismatch(f"clamp_st should return a tensor, got {type(out).__name__}")
    if out.shape == x.shape and _allclose(out, unclamped):
        raise Mismatch("the values are x itself: the forward pass must still be clamped to "
                       "[0, 1]")
    compare_tensors(out, expected, "the values of your result")
    if not out.requires_grad:
        raise Mismatch("your result does not require grad, so no gradient reaches x: only the "
                       "clamp's correction should be detached, not the whole result")
    (gx,) = grad(out.sum(), [x], allow_unused=True)
    if gx is None:
        raise Mismatch("no gradient reaches x: keep a path from x to the result that is not "
                       "detached")
    g = to_numpy(gx)
    if np.allclose(g, inside - 1.0):
        raise Mismatch("you detached x and kept the clamp's correction in the graph; it is the "
                       "other way round: x carries the gradient, the correction is a constant")
    if np.allclose(g, inside):
        raise Mismatch("that is the gradient of the clamp itself, 0 wherever x was cut off; "
                       "the clamp's correction (clamped minus x) must be a constant for autograd")
    compare_tensors(gx, np.ones(x.shape), "the gradient of your result with respect to x")


def _allclose(a: Any, b: Any) -> bool:
    """``allclose`` on two tensors' values (NumPy arrays on the host)."""
    return bool(np.allclose(to_numpy(a), to_numpy(b)))
