"""Chapter 13 exercises: forward mode.

* 13.1 ``Dual``: a dual number a + b·ε (ε² = 0) built by the learner, ``Dual(primal, tangent)``
  with ``.primal`` and ``.tangent``, ``+ - * /`` with Duals and plain numbers on either side, and
  ``.sin()`` / ``.exp()``. Judged by behaviour: the checker evaluates several functions on
  Duals with tangent 1 and compares the tangents with the derivatives. Named slips: the tangents
  multiplied (a'·b' for a·b), one term of the product rule left out, a plain number refused
  (``2 * x``), the quotient rule's sign or its b², sin's tangent from sin instead of cos, a
  Dual changed in place instead of a new one returned.
* 13.2 ``jacobian_forward(f, x)``: the Jacobian of ``f`` at a 1-d ``x``, one ``ag.func.jvp``
  per input element (a column each). Compared with ``ag.func.jacrev``; the checker counts the
  calls of ``f``: one per input element is forward mode, one per output element is reverse
  mode (the rows), and the transposed matrix is named.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from ... import float64, func, tensor
from ._common import Mismatch, NotAttempted, call_learner, checker, is_placeholder, to_numpy
from .messages import msg

# --- 13.1 dual numbers -----------------------------------------------------------------------
POINTS = (0.7, -1.3, 2.1)
"""Where the checker evaluates each function (tangent 1: the tangent is then f'(x))."""

CASES = (  # (name, f on Duals, f's derivative)
    ("x + 2 * x - 1", lambda x: x + 2 * x - 1, lambda v: 3.0),
    ("x * x * x", lambda x: x * x * x, lambda v: 3 * v * v),
    ("3 - x * 5", lambda x: 3 - x * 5, lambda v: -5.0),
    ("(x * x + 1) / x", lambda x: (x * x + 1) / x, lambda v: 1 - 1 / (v * v)),
    ("2 / x", lambda x: 2 / x, lambda v: -2 / (v * v)),
    ("x.sin() * x.exp()", lambda x: x.sin() * x.exp(),
     lambda v: (math.cos(v) + math.sin(v)) * math.exp(v)),
)


def _make(dual_cls: Any, primal: float, tangent: float) -> Any:
    try:
        d = dual_cls(primal, tangent)
    except TypeError as e:
        raise Mismatch(msg("ch13.dual.constructor", error=e)) from e
    for attr in ("primal", "tangent"):
        if not hasattr(d, attr):
            raise Mismatch(msg("ch13.dual.attribute", attr=attr))
    return d


def _number(value: Any, what: str) -> float:
    if isinstance(value, (int, float, np.floating, np.integer)) and not isinstance(value, bool):
        return float(value)
    raise Mismatch(msg("ch13.dual.not_a_number", what=what, type=type(value).__name__))


def _run(dual_cls: Any, name: str, fn: Callable, v: float) -> tuple[float, float]:
    x = _make(dual_cls, v, 1.0)
    try:
        out = fn(x)
    except TypeError as e:
        raise Mismatch(msg("ch13.dual.number_refused", expr=name, error=e)) from e
    except AttributeError as e:
        raise Mismatch(msg("ch13.dual.missing", expr=name, error=e)) from e
    if not (hasattr(out, "primal") and hasattr(out, "tangent")):
        raise Mismatch(msg("ch13.dual.not_a_dual", expr=name, type=type(out).__name__))
    if _number(x.primal, "x.primal") != v or _number(x.tangent, "x.tangent") != 1.0:
        raise Mismatch(msg("ch13.dual.in_place", expr=name))
    return _number(out.primal, f"({name}).primal"), _number(out.tangent, f"({name}).tangent")


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def _diagnose_product(dual_cls: Any) -> None:
    """x * y with tangents 1 and 1 at (1.5, -2): the product rule gives a + b = -0.5; the
    tangents multiplied give 1, one term alone gives -2 or 1.5."""
    a, b = 1.5, -2.0
    out = _make(dual_cls, a, 1.0) * _make(dual_cls, b, 1.0)
    got = _number(out.tangent, "(x * y).tangent")
    if _close(got, a + b):
        return
    if _close(got, 1.0):
        raise Mismatch(msg("ch13.dual.tangents_multiplied"))
    if _close(got, a) or _close(got, b):
        raise Mismatch(msg("ch13.dual.product_term"))
    raise Mismatch(msg("ch13.dual.product_wrong", got=got, want=a + b))


def _diagnose_quotient(dual_cls: Any) -> None:
    """x / y with tangents 0 and 1 at (3, 2): -a/b² = -0.75; slips give +0.75 or -1.5."""
    out = _make(dual_cls, 3.0, 0.0) / _make(dual_cls, 2.0, 1.0)
    got = _number(out.tangent, "(x / y).tangent")
    if _close(got, -0.75):
        return
    if _close(got, 0.75):
        raise Mismatch(msg("ch13.dual.quotient_sign"))
    if _close(got, -1.5):
        raise Mismatch(msg("ch13.dual.quotient_square"))
    raise Mismatch(msg("ch13.dual.quotient_wrong", got=got))


@checker
def check_dual(dual_cls: Any) -> None:
    """Exercise 13.1: the learner's ``Dual`` gives each case's value and derivative."""
    if is_placeholder(dual_cls):
        raise NotAttempted
    if not callable(dual_cls):
        raise Mismatch(msg("ch13.dual.not_a_class", type=type(dual_cls).__name__))
    call_learner(dual_cls, 1.0, 0.0)  # a placeholder body is "not attempted"
    _diagnose_product(dual_cls)
    _diagnose_quotient(dual_cls)
    for name, fn, derivative in CASES:
        for v in POINTS:
            value, tangent = _run(dual_cls, name, fn, v)
            want_value = fn(_Reference(v, 1.0)).primal
            if not _close(value, want_value):
                raise Mismatch(msg("ch13.dual.value", expr=name, x=v, got=value, want=want_value))
            want = derivative(v)
            if _close(tangent, want):
                continue
            if "sin" in name and _close(tangent, (math.sin(v) + math.sin(v)) * math.exp(v)):
                raise Mismatch(msg("ch13.dual.sin_tangent"))
            raise Mismatch(msg("ch13.dual.tangent", expr=name, x=v, got=tangent, want=want))


class _Reference:
    """The checker's own dual number, for the values (never shown to the learner)."""

    def __init__(self, primal: float, tangent: float = 0.0) -> None:
        self.primal, self.tangent = primal, tangent

    @staticmethod
    def _lift(other: Any) -> _Reference:
        return other if isinstance(other, _Reference) else _Reference(other)

    def __add__(self, other: Any) -> _Reference:
        other = self._lift(other)
        return _Reference(self.primal + other.primal, self.tangent + other.tangent)

    __radd__ = __add__

    def __sub__(self, other: Any) -> _Reference:
        other = self._lift(other)
        return _Reference(self.primal - other.primal, self.tangent - other.tangent)

    def __rsub__(self, other: Any) -> _Reference:
        return self._lift(other) - self

    def __mul__(self, other: Any) -> _Reference:
        other = self._lift(other)
        return _Reference(self.primal * other.primal,
                          self.tangent * other.primal + self.primal * other.tangent)

    __rmul__ = __mul__

    def __truediv__(self, other: Any) -> _Reference:
        other = self._lift(other)
        return _Reference(self.primal / other.primal,
                          (self.tangent * other.primal - self.primal * other.tangent)
                          / other.primal ** 2)

    def __rtruediv__(self, other: Any) -> _Reference:
        return self._lift(other) / self

    def sin(self) -> _Reference:
        return _Reference(math.sin(self.primal), math.cos(self.primal) * self.tangent)

    def exp(self) -> _Reference:
        return _Reference(math.exp(self.primal), math.exp(self.primal) * self.tangent)


# --- 13.2 a Jacobian by columns --------------------------------------------------------------
def _counted(calls: list) -> Callable:
    """f: R^3 -> R^5 (more outputs than inputs), counting its calls."""
    weights = tensor([[1.0, -2.0, 0.5], [0.3, 0.0, 1.0], [2.0, 1.0, -1.0], [0.0, 0.7, 0.2],
                      [-1.0, 0.4, 0.9]], dtype=float64)

    def f(x: Any) -> Any:
        calls.append(1)
        return (weights @ x).sin() * x.sum()

    return f


@checker
def check_jacobian_forward(jacobian_forward: Callable) -> None:
    """Exercise 13.2: the Jacobian of a function R^3 -> R^5, one jvp per input element."""
    if is_placeholder(jacobian_forward):
        raise NotAttempted
    x = tensor([0.5, -1.0, 2.0], dtype=float64)
    want = to_numpy(func.jacrev(_counted([]))(x))
    calls: list = []
    got = call_learner(jacobian_forward, _counted(calls), x.clone())
    got = to_numpy(got)
    if got.shape == want.T.shape and got.shape != want.shape and np.allclose(got, want.T):
        raise Mismatch(msg("ch13.jac.transposed", shape=list(want.shape)))
    if got.shape != want.shape:
        raise Mismatch(msg("ch13.jac.shape", got=list(got.shape), want=list(want.shape)))
    if not np.allclose(got, want, rtol=1e-7, atol=1e-9):
        raise Mismatch(msg("ch13.jac.values"))
    passes = len(calls)
    if passes == want.shape[0]:
        raise Mismatch(msg("ch13.jac.rows", passes=passes, n=want.shape[1]))
    if passes != want.shape[1]:
        raise Mismatch(msg("ch13.jac.passes", passes=passes, n=want.shape[1]))
