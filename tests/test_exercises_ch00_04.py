"""Exercise checkers of chapters 0-4, and how every checker isolates the learner's code.

Each checker is tried with a correct answer, each typical wrong answer (its hint asserted), a
function with a body but no ``return`` and the untouched placeholder. A checker prints one line
and never raises.
"""

from __future__ import annotations

import sys

import pytest
from exercise_helpers import assert_correct, assert_not_attempted, verdict_of

import autograd_course as ag
from autograd_course.exercises import _common


# --- _common: isolating the learner's code ------------------------------------------------------
class _Unprintable(Exception):
    def __str__(self):
        raise ValueError("no")


def _raises_unprintable():
    raise _Unprintable


def _calls_exit():
    sys.exit(3)


@_common.checker
def _run(fn):
    return _common.call_learner(fn)


def test_exception_with_broken_str_is_described(capsys):
    _, line = verdict_of(capsys, _run, _raises_unprintable)
    assert line.startswith("not quite: your code raised _Unprintable")
    assert "could not be printed" in line


def test_sys_exit_does_not_escape(capsys):
    _, line = verdict_of(capsys, _run, _calls_exit)
    assert line.startswith("not quite:") and "sys.exit()" in line


def test_keyboard_interrupt_still_stops(capsys):
    def interrupted():
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        _run(interrupted)
    capsys.readouterr()


def test_grad_mode_is_restored_after_a_checker(capsys):
    def leaves_grad_off():
        ag.set_grad_enabled(False)  # a learner's stray call: switches recording off for good
        return 1

    assert ag.is_grad_enabled()
    assert_correct(capsys, _run, leaves_grad_off)
    assert ag.is_grad_enabled()

    def leaves_inference_on():
        ag.inference_mode().__enter__()
        return 1

    assert_correct(capsys, _run, leaves_inference_on)
    assert ag.is_grad_enabled()
    x = ag.ones(2, requires_grad=True)
    assert (x * 2).requires_grad and not (x * 2).is_inference()


def test_grad_mode_restored_even_when_the_learner_raises(capsys):
    def off_then_crash():
        ag.set_grad_enabled(False)
        raise ValueError("boom")

    _, line = verdict_of(capsys, _run, off_then_crash)
    assert line == "not quite: your code raised ValueError: boom"
    assert ag.is_grad_enabled()


def test_body_without_return_is_named_not_unattempted(capsys):
    def forgot_return():
        total = 1 + 1  # noqa: F841 - the learner computed something and did not return it

    def only_ellipsis():
        ...

    def only_docstring():
        """My answer."""

    _, line = verdict_of(capsys, _run, forgot_return)
    assert line.startswith("not quite: forgot_return() returned None") and "return" in line
    assert_not_attempted(capsys, _run, only_ellipsis)
    assert_not_attempted(capsys, _run, only_docstring)
    assert_not_attempted(capsys, _run, ...)
    assert _common.has_placeholder_body(lambda: None)
    assert not _common.has_placeholder_body(lambda x: x.grad)


def test_call_learner_can_pass_copies():
    x = ag.tensor([1.0, 2.0])

    def scribbles(t):
        t.mul_(0)
        return t

    _common.call_learner(scribbles, x, copy_args=True)
    assert x.tolist() == [1.0, 2.0]
    w = ag.tensor([1.0], requires_grad=True)
    copied = _common.copy_tensor(w)
    assert copied is not w and copied.requires_grad and copied.is_leaf


class _DoubleInPlace(ag.autograd.Function):
    """A correct backward (d(2x)/dx = 2) that reuses grad_output's memory, as PyTorch allows."""

    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.mul_(2)


def test_learner_grads_gives_backward_a_copy_of_grad_output(capsys):
    @_common.checker
    def check(function_cls):
        (x,) = _common.random_inputs((3,), seed=0)
        (g,) = _common.random_inputs((3,), seed=1, requires_grad=False)
        (gx,) = _common.learner_grads(function_cls, [x], g)
        _common.compare_tensors(gx, 2 * _common.to_numpy(g), "your gradient")  # g unchanged
        _common.check_function_gradcheck(function_cls, [x])

    assert_correct(capsys, check, _DoubleInPlace)
