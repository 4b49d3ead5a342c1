"""Chapter 0 exercises: the gradients of a first small graph; reading ``grad_fn`` names."""

from __future__ import annotations

from typing import Any

from ... import tensor
from ._common import Mismatch, checker, require_attempt, to_numpy
from .messages import msg

FIRST_A, FIRST_B = 2.0, 3.0

# Exercise 0.2: the expressions whose last recorded operation the learner names.
NAMED_EXPRESSIONS = ["a + b", "a * b", "a ** 2", "(a * b).sum()", "a.exp() * 2"]


def _first_grads() -> tuple[float, float]:
    """a.grad and b.grad for d = a * b + a, from the library's own backward pass."""
    a = tensor(FIRST_A, requires_grad=True)
    b = tensor(FIRST_B, requires_grad=True)
    (a * b + a).backward()
    return a.grad.item(), b.grad.item()


def _number(value: Any, name: str) -> float:
    try:
        array = to_numpy(value)
    except (TypeError, ValueError) as e:
        raise Mismatch(msg("ch00.not_a_number", name=name, type=type(value).__name__)) from e
    if array.size != 1:
        raise Mismatch(msg("ch00.not_one_number", name=name, size=array.size))
    return float(array.reshape(-1)[0])


@checker
def check_first_grads(a_grad: Any, b_grad: Any) -> None:
    """Exercise 0.1: a.grad and b.grad for ``d = a * b + a`` at a = 2, b = 3, by hand.

    d(d)/da = b + 1 (a is used twice, the two paths add); d(d)/db = a.
    """
    require_attempt(a_grad)
    require_attempt(b_grad)
    want_a, want_b = _first_grads()
    got_a, got_b = _number(a_grad, "a_grad"), _number(b_grad, "b_grad")
    if abs(got_a - want_a) > 1e-9:
        if abs(got_a - FIRST_B) < 1e-9:
            raise Mismatch(msg("ch00.first.a_two_paths"))
        if abs(got_a - 1.0) < 1e-9:
            raise Mismatch(msg("ch00.first.a_only_plus"))
        if abs(got_a - FIRST_A) < 1e-9:
            raise Mismatch(msg("ch00.first.a_not_a"))
        raise Mismatch(msg("ch00.first.a_wrong", got=got_a, a=FIRST_A, b=FIRST_B))
    if abs(got_b - want_b) > 1e-9:
        if abs(got_b - FIRST_B) < 1e-9:
            raise Mismatch(msg("ch00.first.b_not_b"))
        raise Mismatch(msg("ch00.first.b_wrong", got=got_b))


def _names_reference() -> list[str]:
    a = tensor([1.0, 2.0], requires_grad=True)
    b = tensor([3.0, 4.0], requires_grad=True)
    env = {"a": a, "b": b}
    return [eval(expr, {}, env).grad_fn.name() for expr in NAMED_EXPRESSIONS]


@checker
def check_grad_fn_names(names: Any) -> None:
    """Exercise 0.2: the ``grad_fn`` name of each expression in ``NAMED_EXPRESSIONS``."""
    require_attempt(names)
    if isinstance(names, str) or not hasattr(names, "__len__"):
        raise Mismatch(msg("ch00.names.not_a_list", n=len(NAMED_EXPRESSIONS)))
    names = [str(n).strip() for n in names]
    if len(names) != len(NAMED_EXPRESSIONS):
        raise Mismatch(msg("ch00.names.count", n=len(NAMED_EXPRESSIONS), got=len(names)))
    for expr, got, want in zip(NAMED_EXPRESSIONS, names, _names_reference()):
        if got == want:
            continue
        if got == want[:-1] or got + "0" == want:
            raise Mismatch(msg("ch00.names.number", expr=expr, digit=want[-1], want=want))
        if got.rstrip("0123456789") == want.rstrip("0123456789") and got != want:
            raise Mismatch(msg("ch00.names.variant", expr=expr, got=got, want=want))
        if "Backward" not in got:
            raise Mismatch(msg("ch00.names.form", expr=expr))
        raise Mismatch(msg("ch00.names.last_op", expr=expr, got=got))
