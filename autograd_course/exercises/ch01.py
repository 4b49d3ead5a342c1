"""Chapter 1 exercises: predict a gradient by hand; tell leaves from recorded results."""

from __future__ import annotations

from typing import Any

from ._common import Mismatch, checker, compare_tensors, require_attempt

# The graph of exercise 1, as the notebook shows it. The checker rebuilds it to get the answer.
PREDICT_X = [[1.0, 2.0], [3.0, 4.0]]


def _predict_reference():
    """x.grad for out = (y * y).sum() with y = x * 3, computed by the library's backward."""
    from .. import tensor

    x = tensor(PREDICT_X, requires_grad=True)
    y = x * 3
    out = (y * y).sum()
    out.backward()
    return x.grad


@checker
def check_predict_grad(answer: Any) -> None:
    """Exercise 1.1: the learner's x.grad for ``out = ((x * 3) ** 2).sum()``, found by hand.

    ``answer`` may be a tensor, a nested list or an array of shape (2, 2).
    """
    require_attempt(answer)
    from ..tensor import Tensor

    if isinstance(answer, Tensor) and answer.grad_fn is not None:
        raise Mismatch("work it out by hand: your answer was computed by autograd (it has a "
                       "grad_fn)")
    compare_tensors(answer, _predict_reference(), "your x.grad", rtol=1e-6)


def _leaf_reference():
    """Build the exercise 1.2 graph and read is_leaf / .grad from the library itself."""
    from .. import tensor

    a = tensor([1.0, 2.0], requires_grad=True)
    b = tensor([3.0, 4.0])
    c = a * b
    d = b * 2
    e = (c + d).sum()
    e.backward()
    names = {"a": a, "b": b, "c": c, "d": d, "e": e}
    leaves = {n for n, t in names.items() if t.is_leaf}
    with_grad = {n for n, t in names.items() if t.is_leaf and t.grad is not None}
    return leaves, with_grad


_WHY = {
    "a": "a was made by the user (ag.tensor), so it is a leaf",
    "b": "b was made by the user (ag.tensor), so it is a leaf",
    "c": "c = a * b involves a, which requires grad, so c has a grad_fn and is not a leaf",
    "d": "d = b * 2 uses only tensors that do not require grad: nothing is recorded, so d "
         "has no grad_fn and counts as a leaf",
    "e": "e is the result of recorded operations (grad_fn=SumBackward0), not a leaf",
}


def _as_name_set(value: Any, what: str) -> set:
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    try:
        names = {str(v).strip() for v in value}
    except TypeError as e:
        raise Mismatch(f"{what} should be a set of names like {{'a', 'b'}}") from e
    unknown = names - set("abcde")
    if unknown:
        raise Mismatch(f"{what} contains unknown names {sorted(unknown)}; use 'a'...'e'")
    return names


@checker
def check_leaves(leaves: Any, gets_grad: Any) -> None:
    """Exercise 1.2: which of a..e are leaves, and which leaves get a .grad after backward."""
    require_attempt(leaves)
    require_attempt(gets_grad)
    true_leaves, true_grad = _leaf_reference()
    leaves = _as_name_set(leaves, "leaves")
    gets_grad = _as_name_set(gets_grad, "gets_grad")
    wrong = sorted(leaves ^ true_leaves)
    if wrong:
        raise Mismatch(f"check {wrong[0]}: {_WHY[wrong[0]]}")
    missing = sorted(true_grad - gets_grad)
    if missing:
        raise Mismatch(f"{missing[0]} is a leaf that requires grad: backward fills its .grad")
    extra = sorted(gets_grad - true_grad)
    if extra:
        n = extra[0]
        why = ("it does not require grad" if n in true_leaves
               else "it is not a leaf (only leaves keep .grad unless you call retain_grad())")
        raise Mismatch(f"{n}.grad stays None after backward: {why}")
