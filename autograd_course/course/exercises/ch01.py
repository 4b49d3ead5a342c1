"""Chapter 1 exercises: a slope by finite differences and the step h that makes it most
accurate, a gradient by hand, leaves, and the first steps of the learner's own scalar ``Value``
(multiplication, a backward pass by hand, the ``+=`` accumulation bug, then numbers on either
side of an operator and labelled results)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ... import Tensor, tensor
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
from .messages import msg
from .value_checks import backprop, require_value_class

SLOPE_AT = 2.0
# steps a learner typically takes: 1e-1 ... 1e-8, and 2 and 5 times those
_TYPICAL_STEPS = [m * 10.0 ** -k for k in range(1, 9) for m in (1, 2, 5)]


def slope_function(x: Any) -> Any:
    """The function of the slope exercise: f(x) = x³ - 2x, so f'(x) = 3x² - 2."""
    return x ** 3 - 2 * x


def _is_whole_number(value: Any) -> bool:
    """An int, or an integer array or tensor."""
    if isinstance(value, Tensor):
        return not value.is_floating_point()
    return bool(np.issubdtype(np.asarray(value).dtype, np.integer))


@checker
def check_slope(slope: Any) -> str | None:
    """Exercise 1.1: a central-difference estimate of f'(2) for f(x) = x³ - 2x (exactly 10).

    A whole number (``10``, ``3 * 2**2 - 2``) was typed, not measured: a quotient is a float.
    Exactly 10.0 is accepted with a remark: a step such as 2**-20 rounds the h² error away."""
    require_attempt(slope)
    try:
        array = to_numpy(slope)
    except (TypeError, ValueError) as e:
        raise Mismatch(msg("ch01.slope.not_a_number")) from e
    if array.size != 1:
        raise Mismatch(msg("ch01.slope.not_one_number", size=array.size))
    value = float(array.reshape(-1)[0])
    exact = 3 * SLOPE_AT ** 2 - 2
    if value == exact and _is_whole_number(slope):
        raise Mismatch(msg("ch01.slope.exact"))  # a difference quotient (`/`) is never an int
    if value == exact:  # exact + h², but a step such as 2**-20 loses h² in rounding
        return msg("ch01.slope.exact_note")
    if abs(value - exact) <= 1e-3:
        for h in _TYPICAL_STEPS:  # a one-sided difference with a usual step: exact ± 6h + h²
            if min(abs(value - (exact + 6 * h + h * h)), abs(value - (exact - 6 * h + h * h))) \
                    < 1e-3 * h:
                raise Mismatch(msg("ch01.slope.one_sided"))
        return
    if abs(value - float(slope_function(SLOPE_AT))) < 1e-9:
        raise Mismatch(msg("ch01.slope.height", at=SLOPE_AT))
    if abs(value + exact) <= 1e-3:
        raise Mismatch(msg("ch01.slope.sign"))
    if abs(value - exact) < 0.5 * exact:
        raise Mismatch(msg("ch01.slope.close", value=value))
    raise Mismatch(msg("ch01.slope.far", value=value))

# The graph of exercise 1, as the notebook shows it. The checker rebuilds it to get the answer.
PREDICT_X = [[1.0, 2.0], [3.0, 4.0]]


def _predict_reference() -> Any:
    """x.grad for out = (y * y).sum() with y = x * 3, computed by the library's backward."""
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
    compare_tensors(answer, _predict_reference(), msg("ch01.predict.name"), rtol=1e-6)


def _leaf_reference() -> tuple[set, set]:
    """Build the exercise 1.2 graph and read is_leaf / .grad from the library itself."""
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


# The message key that explains each tensor's leaf status.
_WHY = {
    "a": "ch01.leaves.why_a",
    "b": "ch01.leaves.why_b",
    "c": "ch01.leaves.why_c",
    "d": "ch01.leaves.why_d",
    "e": "ch01.leaves.why_e",
}


def _as_name_set(value: Any, what: str) -> set:
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    try:
        names = {str(v).strip() for v in value}
    except TypeError as e:
        raise Mismatch(msg("ch01.leaves.not_a_set", what=what)) from e
    unknown = names - set("abcde")
    if unknown:
        raise Mismatch(msg("ch01.leaves.unknown", what=what, unknown=sorted(unknown)))
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
        raise Mismatch(msg("ch01.leaves.check", name=wrong[0], why=msg(_WHY[wrong[0]])))
    missing = sorted(true_grad - gets_grad)
    if missing:
        raise Mismatch(msg("ch01.leaves.missing_grad", name=missing[0]))
    extra = sorted(gets_grad - true_grad)
    if extra:
        n = extra[0]
        why = msg("ch01.leaves.no_requires_grad" if n in true_leaves
                  else "ch01.leaves.not_a_leaf")
        raise Mismatch(msg("ch01.leaves.grad_stays_none", name=n, why=why))


# --- the learner's own Value ---------------------------------------------------------------------
def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(b))


def _result(value: Any, op: Any, what: str) -> Any:
    """A Value operation's result; None from a placeholder method is NotAttempted.

    ``what`` names the operation in code (``"a * b"``), the same in both languages.
    """
    if value is None:
        if has_placeholder_body(op):
            raise NotAttempted
        raise returned_none(op)
    if not hasattr(value, "data") or not hasattr(value, "grad"):
        raise Mismatch(msg("ch01.value.not_a_value", what=what, type=type(value).__name__))
    return value


def _uses_grad_for_data(value_cls: Any) -> bool:
    """Does ``_backward`` multiply by the other factor's *grad* instead of its *data*? With
    both grads starting at 0 that leaves them at 0; with non-zero starting grads it shows."""
    a, b = value_cls(2.0), value_cls(-3.0)
    out = a * b
    a.grad, b.grad, out.grad = 0.5, 0.25, 2.5
    out._backward()
    first = 0.5 + 0.25 * 2.5  # a.grad += b.grad * out.grad
    return _close(a.grad, first) and (_close(b.grad, 0.25 + 0.5 * 2.5) or
                                      _close(b.grad, 0.25 + first * 2.5))


@checker
def check_value_mul(value_cls: Any) -> None:
    """Exercise 1.2: ``Value.__mul__``: out.data = a·b, and its ``_backward`` sends
    b·out.grad to a and a·out.grad to b."""
    require_value_class(value_cls)
    a, b = value_cls(2.0), value_cls(-3.0)
    out = _result(a * b, getattr(value_cls, "__mul__", None), "a * b")
    if not _close(out.data, -6.0):
        raise Mismatch(msg("ch01.mul.forward", data=out.data))
    if set(map(id, getattr(out, "_prev", ()))) != {id(a), id(b)}:
        raise Mismatch(msg("ch01.mul.children"))
    if has_placeholder_body(out._backward):
        raise NotAttempted
    out.grad = 2.5  # not 1, so that a forgotten factor out.grad shows
    out._backward()
    if _close(a.grad, 0.0) and _close(b.grad, 0.0):
        if _uses_grad_for_data(value_cls):
            raise Mismatch(msg("ch01.mul.grad_not_data"))
        raise Mismatch(msg("ch01.mul.still_zero"))
    if _close(a.grad, -3.0) and _close(b.grad, 2.0):
        raise Mismatch(msg("ch01.mul.no_out_grad"))
    if _close(a.grad, 2.0 * 2.5) and _close(b.grad, -3.0 * 2.5):
        raise Mismatch(msg("ch01.mul.swapped"))
    if not (_close(a.grad, -3.0 * 2.5) and _close(b.grad, 2.0 * 2.5)):
        raise Mismatch(msg("ch01.mul.wrong", a_grad=a.grad, b_grad=b.grad))


@checker
def check_manual_backward(a: Any, b: Any, c: Any, d: Any, L: Any) -> None:
    """Exercise 1.3: after running L's and d's ``_backward`` by hand, in the right order, for
    d = a * b and L = d + c: a.grad = b, b.grad = a, c.grad = d.grad = 1."""
    for v in (a, b, c, d, L):
        require_attempt(v)
    if _close(d.grad, 0.0) and _close(c.grad, 0.0):
        raise NotAttempted
    if not _close(L.grad, 1.0):
        raise Mismatch(msg("ch01.manual.start"))
    if not (_close(c.grad, 1.0) and _close(d.grad, 1.0)):
        raise Mismatch(msg("ch01.manual.c_d", c_grad=c.grad, d_grad=d.grad))
    if _close(a.grad, 0.0) and _close(b.grad, 0.0) and has_placeholder_body(d._backward):
        raise Mismatch(msg("ch01.manual.mul_first"))
    if _close(a.grad, 0.0) and _close(b.grad, 0.0):
        raise Mismatch(msg("ch01.manual.a_b_nothing"))
    want_a, want_b = b.data * d.grad, a.data * d.grad
    if _close(a.grad, 2 * want_a) and _close(b.grad, 2 * want_b):
        raise Mismatch(msg("ch01.manual.twice"))
    if not (_close(a.grad, want_a) and _close(b.grad, want_b)):
        raise Mismatch(msg("ch01.manual.wrong", a=a.data, b=b.data, a_grad=a.grad,
                           b_grad=b.grad))


def _tuple_assignment(value_cls: Any, expr: str, op: Any, local: float) -> None:
    """Mismatch if ``op(a)`` (a used twice, d/da = ``local`` at a = 3) adds only one use to a
    grad that starts at 0.5: ``self.grad, other.grad = self.grad + ..., other.grad + ...``
    reads the old grad twice. (An overwrite, ``self.grad = ...``, loses the 0.5 too.)"""
    a = value_cls(3.0)
    a.grad = 0.5
    out = op(a)
    out.grad = 1.0
    out._backward()
    if _close(a.grad, 0.5 + local / 2):
        raise Mismatch(msg("ch01.accumulate.same_value", expr=expr, a_grad=a.grad,
                           want=0.5 + local))


@checker
def check_value_accumulates(value_cls: Any) -> None:
    """Exercise 1.4: a Value used twice gets the sum of both contributions.

    b = a + a must give a.grad = 2 and p = a * a must give a.grad = 2a: the local backward
    rules must *add* into ``.grad`` (``+=``), not overwrite it (``=``).
    """
    require_value_class(value_cls)
    a = value_cls(3.0)
    twice = _result(a + a, getattr(value_cls, "__add__", None), "a + a")
    twice.grad = 1.0
    twice._backward()
    if _close(a.grad, 1.0):
        _tuple_assignment(value_cls, "a + a", lambda a: a + a, 2.0)
        raise Mismatch(msg("ch01.accumulate.add_overwrites"))
    if not _close(a.grad, 2.0):
        raise Mismatch(msg("ch01.accumulate.add_wrong", a_grad=a.grad))
    a = value_cls(3.0)
    square = _result(a * a, getattr(value_cls, "__mul__", None), "a * a")
    square.grad = 1.0
    square._backward()
    if _close(a.grad, 3.0):
        _tuple_assignment(value_cls, "a * a", lambda a: a * a, 6.0)
        raise Mismatch(msg("ch01.accumulate.mul_overwrites"))
    if not _close(a.grad, 6.0):
        raise Mismatch(msg("ch01.accumulate.mul_wrong", a_grad=a.grad))
    # Accumulation across nodes: L = a * b + a, run by hand in reverse order.
    a, b = value_cls(2.0), value_cls(-4.0)
    prod = a * b
    total = prod + a
    total.grad = 1.0
    total._backward()
    prod._backward()
    if not (_close(a.grad, b.data + 1.0) and _close(b.grad, a.data)):
        raise Mismatch(msg("ch01.accumulate.across_nodes", b_plus_1=b.data + 1, a=a.data,
                           a_grad=a.grad, b_grad=b.grad))


# --- the error of a finite difference against its step h ----------------------------------------
STEPS = 10.0 ** -np.arange(1, 17)  # h = 1e-1 ... 1e-16, one per decade


def difference_error(h: Any, dtype: Any = np.float64, central: bool = True) -> float:
    """|estimate - f'(2)| of the central (or forward) difference of f at 2, computed in
    ``dtype`` (numpy's float32 or float64) with step ``h``."""
    x, h = dtype(SLOPE_AT), dtype(h)
    if central:
        estimate = (slope_function(x + h) - slope_function(x - h)) / (dtype(2) * h)
    else:
        estimate = (slope_function(x + h) - slope_function(x)) / h
    return abs(float(estimate) - (3 * SLOPE_AT ** 2 - 2))


def best_step(dtype: Any = np.float64, central: bool = True) -> float:
    """The step among ``STEPS`` with the smallest :func:`difference_error`."""
    return float(min(STEPS, key=lambda h: difference_error(h, dtype, central)))


@checker
def check_best_step(h: Any) -> None:
    """Exercise 1.7: the step h at which the central difference of f at 2, in float64, is most
    accurate, within a factor of 10 (its error curve is flat near the bottom)."""
    require_attempt(h)
    try:
        h = float(to_numpy(h).reshape(-1)[0])
    except (TypeError, ValueError, IndexError) as e:
        raise Mismatch(msg("ch01.step.not_a_number")) from e
    if not h > 0 or not np.isfinite(h):
        raise Mismatch(msg("ch01.step.positive"))
    decades = float(np.log10(h))
    best = best_step()
    if abs(decades - np.log10(best)) <= 1 + 1e-9:
        return
    if abs(decades - np.log10(best_step(np.float32))) <= 0.5:
        raise Mismatch(msg("ch01.step.float32"))
    if abs(decades - np.log10(best_step(central=False))) <= 0.5:
        raise Mismatch(msg("ch01.step.forward"))
    if h < best:
        raise Mismatch(msg("ch01.step.round_off", h=h, error=difference_error(h)))
    raise Mismatch(msg("ch01.step.truncation", h=h, error=difference_error(h)))


# --- the learner's own Value, in one class: numbers on either side, and labels ------------------
# expression, the method Python calls, the expression, forward, d/da (at a = 3)
NUMBER_CASES = [
    ("a + 2.0", "__add__", lambda a: a + 2.0, 5.0, 1.0),
    ("a * 2.0", "__mul__", lambda a: a * 2.0, 6.0, 2.0),
    ("2.0 + a", "__radd__", lambda a: 2.0 + a, 5.0, 1.0),
    ("2.0 * a", "__rmul__", lambda a: 2.0 * a, 6.0, 2.0),
    ("a * np.float64(2.0)", "__mul__", lambda a: a * np.float64(2.0), 6.0, 2.0),
    ("a + np.float64(2.0)", "__add__", lambda a: a + np.float64(2.0), 5.0, 1.0),
    ("a * a + a", "__add__", lambda a: a * a + a, 12.0, 7.0),
]


def _number_case(value_cls: Any, expr: str, method: str, op: Any, want: float,
                 want_grad: float) -> None:
    a = value_cls(3.0)
    try:
        out = op(a)
    except Exception as e:  # the learner's operator failed on a number: say how
        text = str(e)
        if "memoryview" in text:
            raise Mismatch(msg("ch01.numbers.memoryview", expr=expr)) from e
        if isinstance(e, AttributeError) and "data" in text:
            raise Mismatch(msg("ch01.numbers.lift", expr=expr, method=method)) from e
        if isinstance(e, TypeError) and "unsupported operand" in text:
            raise Mismatch(msg("ch01.numbers.reflected", expr=expr, method=method)) from e
        raise
    out = _result(out, getattr(value_cls, method, None), expr)
    if type(out.data) is not float:
        raise Mismatch(msg("ch01.numbers.not_float", expr=expr, type=type(out.data).__name__))
    if not _close(out.data, want):
        raise Mismatch(msg("ch01.numbers.forward", expr=expr, got=out.data, want=want))
    backprop(out)
    if not _close(a.grad, want_grad):
        raise Mismatch(msg("ch01.numbers.grad", expr=expr, got=a.grad, want=want_grad))


@checker
def check_value_numbers(value_cls: Any) -> None:
    """Exercise 1.4b: the learner's Value in one class: ``+`` and ``*`` accumulate, lift a
    plain number (an int, a float, NumPy's float64) into a Value, work with the number on
    either side (``__radd__``, ``__rmul__``), keep ``data`` a Python float, and label each
    result with its operation in ``_op`` (two different labels for ``+`` and ``*``)."""
    require_value_class(value_cls)
    for method in ("__add__", "__mul__", "__radd__", "__rmul__"):
        if has_placeholder_body(getattr(value_cls, method, None)):
            raise NotAttempted
    start = value_cls(np.float64(1.5))
    if type(start.data) is not float:
        raise Mismatch(msg("ch01.numbers.not_float", expr="Value(np.float64(1.5))",
                           type=type(start.data).__name__))
    labels = []
    for expr, op in (("a + b", lambda a, b: a + b), ("a * b", lambda a, b: a * b)):
        out = op(value_cls(2.0), value_cls(-3.0))
        label = getattr(out, "_op", None)
        if not isinstance(label, str) or not label:
            raise Mismatch(msg("ch01.numbers.label", expr=expr, got=label))
        labels.append(label)
    if labels[0] == labels[1]:
        raise Mismatch(msg("ch01.numbers.same_label", label=labels[0]))
    for case in NUMBER_CASES:
        _number_case(value_cls, *case)
