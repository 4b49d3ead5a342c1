"""Chapter 1 exercises: a slope by finite differences, a gradient by hand, leaves, and the
first steps of the learner's own scalar ``Value`` (multiplication, a backward pass by hand,
and the ``+=`` accumulation bug)."""

from __future__ import annotations

from typing import Any

from ._common import (
    Mismatch,
    NotAttempted,
    checker,
    compare_tensors,
    has_placeholder_body,
    require_attempt,
    returned_none,
    to_numpy,
)

SLOPE_AT = 2.0


def slope_function(x: Any) -> Any:
    """The function of the slope exercise: f(x) = x³ - 2x, so f'(x) = 3x² - 2."""
    return x ** 3 - 2 * x


@checker
def check_slope(slope: Any) -> None:
    """Exercise 1.1: a central-difference estimate of f'(2) for f(x) = x³ - 2x (exactly 10)."""
    require_attempt(slope)
    try:
        value = float(to_numpy(slope).reshape(-1)[0]) if not isinstance(slope, float) else slope
    except (TypeError, ValueError, IndexError) as e:
        raise Mismatch("your slope should be a number") from e
    exact = 3 * SLOPE_AT ** 2 - 2
    if abs(value - exact) <= 1e-3:
        return
    if abs(value - float(slope_function(SLOPE_AT))) < 1e-9:
        raise Mismatch(f"that is f({SLOPE_AT:g}), the height of the curve; the slope is how "
                       "fast f changes: (f(2 + h) - f(2 - h)) / (2 * h) for a small h")
    if abs(value + exact) <= 1e-3:
        raise Mismatch("right size, wrong sign: subtract f(2 - h) from f(2 + h), not the other "
                       "way round")
    if abs(value - exact) < 0.5 * exact:
        raise Mismatch(f"close ({value:.6g}), but not within 0.001 of the slope: take a smaller "
                       "h (such as 1e-4), and step both ways, f(2 + h) - f(2 - h)")
    raise Mismatch(f"{value:.6g} is far from the slope at x = 2: divide the change "
                   "f(2 + h) - f(2 - h) by the change in x, 2 * h")

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
    """Exercise 1.5: the learner's x.grad for ``out = ((x * 3) ** 2).sum()``, found by hand.

    ``answer`` may be a tensor, a nested list or an array of shape (2, 2). A formula written
    with the exercise's ``x`` (such as ``18 * x``) is a hand derivation too, so a ``grad_fn``
    on the answer is fine: only the numbers are compared.
    """
    require_attempt(answer)
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
    """Exercise 1.6: which of a..e are leaves, and which leaves get a .grad after backward."""
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


# --- the learner's own Value ---------------------------------------------------------------------
def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(b))


def _result(value: Any, op: Any, what: str) -> Any:
    """A Value operation's result; None from a placeholder method is NotAttempted."""
    if value is None:
        if has_placeholder_body(op):
            raise NotAttempted
        raise returned_none(op)
    if not hasattr(value, "data") or not hasattr(value, "grad"):
        raise Mismatch(f"{what} should give a Value (with .data and .grad), got "
                       f"{type(value).__name__}")
    return value


@checker
def check_value_mul(value_cls: Any) -> None:
    """Exercise 1.2: ``Value.__mul__``: out.data = a·b, and its ``_backward`` sends
    b·out.grad to a and a·out.grad to b."""
    require_attempt(value_cls)
    a, b = value_cls(2.0), value_cls(-3.0)
    out = _result(a * b, getattr(value_cls, "__mul__", None), "a * b")
    if not _close(out.data, -6.0):
        raise Mismatch(f"(2) * (-3) gave data {out.data:g}: the forward is self.data * "
                       "other.data")
    if set(map(id, getattr(out, "_prev", ()))) != {id(a), id(b)}:
        raise Mismatch("the result must remember both inputs: Value(..., (self, other))")
    if has_placeholder_body(out._backward):
        raise NotAttempted
    out.grad = 2.5  # not 1, so that a forgotten factor out.grad shows
    out._backward()
    if _close(a.grad, 0.0) and _close(b.grad, 0.0):
        raise Mismatch("after out._backward() both gradients are still 0: the _backward must "
                       "change self.grad and other.grad")
    if _close(a.grad, -3.0) and _close(b.grad, 2.0):
        raise Mismatch("you forgot the chain rule's factor out.grad: multiply the local "
                       "derivative by out.grad")
    if _close(a.grad, 2.0 * 2.5) and _close(b.grad, -3.0 * 2.5):
        raise Mismatch("swapped: d(a·b)/da is b (the *other* factor), so a.grad gets "
                       "other.data * out.grad")
    if not (_close(a.grad, -3.0 * 2.5) and _close(b.grad, 2.0 * 2.5)):
        raise Mismatch(f"for a = 2, b = -3 and out.grad = 2.5 expected a.grad = -7.5 and "
                       f"b.grad = 5, got {a.grad:g} and {b.grad:g}")


@checker
def check_manual_backward(a: Any, b: Any, c: Any, d: Any, L: Any) -> None:
    """Exercise 1.3: after running L's and d's ``_backward`` by hand, in the right order, for
    d = a * b and L = d + c: a.grad = b, b.grad = a, c.grad = d.grad = 1."""
    for v in (a, b, c, d, L):
        require_attempt(v)
    if _close(d.grad, 0.0) and _close(c.grad, 0.0):
        raise NotAttempted
    if not _close(L.grad, 1.0):
        raise Mismatch("start the backward pass with L.grad = 1 (dL/dL)")
    if not (_close(c.grad, 1.0) and _close(d.grad, 1.0)):
        raise Mismatch(f"c.grad and d.grad should be 1 (L = d + c), got {c.grad:g} and "
                       f"{d.grad:g}: run L._backward() once")
    if _close(a.grad, 0.0) and _close(b.grad, 0.0) and has_placeholder_body(d._backward):
        raise Mismatch("d = a * b has no backward rule yet: finish exercise 1.2 (__mul__'s "
                       "_backward) first")
    if _close(a.grad, 0.0) and _close(b.grad, 0.0):
        raise Mismatch("a and b got nothing: call d._backward() too, and only after "
                       "L._backward() has filled d.grad")
    want_a, want_b = b.data * d.grad, a.data * d.grad
    if _close(a.grad, 2 * want_a) and _close(b.grad, 2 * want_b):
        raise Mismatch("a.grad and b.grad are twice too big: each _backward runs exactly "
                       "once")
    if not (_close(a.grad, want_a) and _close(b.grad, want_b)):
        raise Mismatch(f"a.grad should be b = {b.data:g} and b.grad should be a = {a.data:g}; "
                       f"got {a.grad:g} and {b.grad:g} (check your __mul__ with "
                       "check_value_mul)")


@checker
def check_value_accumulates(value_cls: Any) -> None:
    """Exercise 1.4: a Value used twice gets the sum of both contributions.

    b = a + a must give a.grad = 2 and p = a * a must give a.grad = 2a: the local backward
    rules must *add* into ``.grad`` (``+=``), not overwrite it (``=``).
    """
    require_attempt(value_cls)
    a = value_cls(3.0)
    twice = _result(a + a, getattr(value_cls, "__add__", None), "a + a")
    twice.grad = 1.0
    twice._backward()
    if _close(a.grad, 1.0):
        raise Mismatch("a.grad is 1 after b = a + a, but db/da = 2: a is used twice, and the "
                       "second `other.grad = out.grad` overwrote the first. Accumulate: "
                       "`self.grad += ...` and `other.grad += ...`")
    if not _close(a.grad, 2.0):
        raise Mismatch(f"a.grad is {a.grad:g} after b = a + a; expected 2")
    a = value_cls(3.0)
    square = _result(a * a, getattr(value_cls, "__mul__", None), "a * a")
    square.grad = 1.0
    square._backward()
    if _close(a.grad, 3.0):
        raise Mismatch("__add__ is fixed, but a * a gives a.grad = 3 instead of 2a = 6: use "
                       "`+=` in __mul__'s _backward too")
    if not _close(a.grad, 6.0):
        raise Mismatch(f"a.grad is {a.grad:g} after p = a * a at a = 3; expected 2a = 6")
    # Accumulation across nodes: L = a * b + a, run by hand in reverse order.
    a, b = value_cls(2.0), value_cls(-4.0)
    prod = a * b
    total = prod + a
    total.grad = 1.0
    total._backward()
    prod._backward()
    if not (_close(a.grad, b.data + 1.0) and _close(b.grad, a.data)):
        raise Mismatch(f"for L = a*b + a expected a.grad = b + 1 = {b.data + 1:g} and b.grad = "
                       f"a = {a.data:g}, got {a.grad:g} and {b.grad:g}")
