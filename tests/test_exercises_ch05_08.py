"""The exercise checkers added to chapters 5 to 8 (the older ones are in test_exercises_ch04_07).

Each checker is tried with a correct answer, each typical wrong answer (its hint is asserted)
and the untouched placeholder. A checker prints exactly one line and never raises.
"""

from __future__ import annotations

import pytest
from exercise_helpers import assert_correct, assert_hint, assert_not_attempted, verdict_of

import autograd_course as ag
from autograd_course.exercises import ch05


def todo(*args, **kwargs):
    raise NotImplementedError


# --- chapter 5: the straight-through clamp ------------------------------------------------------
def test_ch05_straight_through_correct(capsys):
    assert_correct(capsys, ch05.check_straight_through,
                   lambda x: x + (x.clamp(0, 1) - x).detach())


@pytest.mark.parametrize(("answer", "hint"), [
    (lambda x: x.clamp(0, 1), "the gradient of the clamp itself"),
    (lambda x: x.clamp(0, 1).detach(), "does not require grad"),
    (lambda x: x, "the values are x itself"),
    (lambda x: x.detach() + (x.clamp(0, 1) - x), "you detached x"),
    (lambda x: x.clamp(0, 2), "the values of your result"),
    (lambda x: [1.0], "should return a tensor"),
])
def test_ch05_straight_through_hints(capsys, answer, hint):
    assert_hint(capsys, ch05.check_straight_through, answer, hint)


def test_ch05_straight_through_not_attempted(capsys):
    assert_not_attempted(capsys, ch05.check_straight_through, todo)
    assert_not_attempted(capsys, ch05.check_straight_through, ...)


def test_ch05_checkers_leave_grad_mode_on(capsys):
    """A checker that runs learner code must not leave recording switched off."""
    verdict_of(capsys, ch05.check_straight_through, lambda x: x + (x.clamp(0, 1) - x).detach())
    verdict_of(capsys, ch05.check_snapshot, lambda t: t.detach().clone())
    assert ag.is_grad_enabled()
