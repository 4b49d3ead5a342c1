"""Exercises that no chapter asks any more, kept with their tests (tests/test_exercises_*.py).

- "``exp`` from memory" (chapter 9's old exercise 9.2) repeated exercise 3.4's ``Value``
  operations; chapter 9 now asks for the engine's dependency counts instead.
"""

from __future__ import annotations

import math
import random
from contextlib import contextmanager
from typing import Any, Iterator

from ._common import (
    Mismatch,
    NotAttempted,
    checker,
    has_placeholder_body,
    not_attempted_or_error,
    require_attempt,
    returned_none,
)
from .messages import msg


@checker
def check_value_exp(value_cls: Any) -> None:
    """Exercise 9.2: a ``Value`` subclass whose ``exp()`` records its local derivative.

    Uses the chapter's ``Value`` interface: ``Value(data)``, ``.data``, ``.grad``, ``+``,
    ``*`` and ``.backward()``.
    """
    require_attempt(value_cls)
    try:
        with _exp_taken_away(value_cls):
            _check_exp(value_cls)
    except _TakenAway as e:
        raise Mismatch(msg("ch09.exp.taken_away")) from e


class _TakenAway(BaseException):
    """Raised by the ``exp`` of the class the learner's inherits from, while it is taken away
    (a BaseException, so that the learner's ``except Exception`` does not swallow it)."""


def _refuse(*args: Any, **kwargs: Any) -> Any:
    raise _TakenAway


@contextmanager
def _exp_taken_away(value_cls: Any) -> Iterator[None]:
    """Take ``exp`` away from the classes ``value_cls`` inherits from (the chapter's ``Value``
    has one): an ``exp`` that calls ``super().exp()`` or ``Value.exp`` raises _TakenAway."""
    bases = [c for c in getattr(value_cls, "__mro__", ())[1:] if "exp" in vars(c)]
    originals = [vars(c)["exp"] for c in bases]
    try:
        for c in bases:
            c.exp = _refuse
        yield
    finally:
        for c, original in zip(bases, originals):
            c.exp = original


def _check_exp(value_cls: Any) -> None:
    """Exercise 9.2's checks, on a class whose bases have no ``exp`` now."""
    for _ in range(3):
        x0 = random.uniform(-1.5, 1.5)
        v = value_cls(x0)
        e = _exp_of(value_cls, v)
        if abs(e.data - math.exp(x0)) > 1e-9 * max(1.0, math.exp(x0)):
            raise Mismatch(msg("ch09.exp.forward", got=e.data, x0=x0, want=math.exp(x0)))
        # exp's own _backward, alone: it must send something to x (it was attached to out)
        e.grad = 1.0
        step = getattr(e, "_backward", None)
        if callable(step):
            step()
        if not callable(step) or v.grad == 0.0:
            raise Mismatch(msg("ch09.exp.not_attached"))
        v = value_cls(x0)
        e = _exp_of(value_cls, v)
        out = e * v + e  # uses e twice: gradients must be added, not overwritten
        out.backward()
        expected = math.exp(x0) * (x0 + 2)  # d/dx (x e^x + e^x)
        if not _close(v.grad, expected):
            ex = math.exp(x0)
            if _close(v.grad, ex * (x0 + 1)):
                raise Mismatch(msg("ch09.exp.overwrites"))
            if _close(v.grad, ex + x0 + 1) or _close(v.grad, x0 + 1):
                raise Mismatch(msg("ch09.exp.no_local"))
            raise Mismatch(msg("ch09.exp.wrong", got=v.grad, x0=x0, want=expected))
    # exp of a value that is not a leaf: backward() reaches x only through exp's children
    x0 = random.uniform(-1.0, 1.0)
    v = value_cls(x0)
    out = _exp_of(value_cls, _exp_of(value_cls, v))
    out.backward()
    want = math.exp(math.exp(x0)) * math.exp(x0)
    if not _close(v.grad, want):
        raise Mismatch(msg("ch09.exp.no_child", got=v.grad, want=want))


def _exp_of(value_cls: Any, v: Any) -> Any:
    """``v.exp()``; a placeholder is NotAttempted, a body without ``return`` a Mismatch."""
    try:
        e = v.exp()
    except NotImplementedError as err:
        raise not_attempted_or_error(err) from err
    if e is Ellipsis:
        raise NotAttempted
    if e is None:
        if has_placeholder_body(getattr(value_cls, "exp", None)):
            raise NotAttempted
        raise returned_none(value_cls.exp)
    return e


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-6 * max(1.0, abs(b))
