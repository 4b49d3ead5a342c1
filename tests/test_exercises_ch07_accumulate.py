"""Exercise 7.3: one optimizer step from gradients accumulated over micro-batches. Two different
correct solutions pass; each usual mistake gets its own hint."""

from __future__ import annotations

from exercise_helpers import assert_correct, assert_hint, assert_not_attempted

import autograd_course as ag
from autograd_course.course.exercises import ch07


def scaled_losses(model, optimizer, micro_batches, loss_fn):
    """The chapter's solution: each loss divided by the number of micro-batches."""
    optimizer.zero_grad()
    for x, y in micro_batches:
        (loss_fn(model(x), y) / len(micro_batches)).backward()
    optimizer.step()


def scaled_gradients(model, optimizer, micro_batches, loss_fn):
    """A second solution: plain losses, the summed .grad divided afterwards."""
    for p in model.parameters():
        p.grad = None
    for x, y in micro_batches:
        loss_fn(model(x), y).backward()
    with ag.no_grad():
        for p in model.parameters():
            p.grad /= len(micro_batches)
    optimizer.step()


def test_two_correct_solutions_are_accepted(capsys):
    assert_correct(capsys, ch07.check_accumulated_step, scaled_losses)
    assert_correct(capsys, ch07.check_accumulated_step, scaled_gradients)


def test_zero_grad_inside_the_loop_is_refused(capsys):
    def zero_inside(model, optimizer, micro_batches, loss_fn):
        for x, y in micro_batches:
            optimizer.zero_grad()
            (loss_fn(model(x), y) / len(micro_batches)).backward()
        optimizer.step()
    assert_hint(capsys, ch07.check_accumulated_step, zero_inside, "only the last micro-batch")


def test_unscaled_losses_are_refused(capsys):
    def unscaled(model, optimizer, micro_batches, loss_fn):
        optimizer.zero_grad()
        for x, y in micro_batches:
            loss_fn(model(x), y).backward()
        optimizer.step()
    assert_hint(capsys, ch07.check_accumulated_step, unscaled, "the step is 4 times too long")


def test_a_step_per_micro_batch_is_refused(capsys):
    def step_each(model, optimizer, micro_batches, loss_fn):
        for x, y in micro_batches:
            optimizer.zero_grad()
            (loss_fn(model(x), y) / len(micro_batches)).backward()
            optimizer.step()
    assert_hint(capsys, ch07.check_accumulated_step, step_each, "optimizer.step() ran 4 times")


def test_no_step_and_a_stale_gradient_are_refused(capsys):
    def no_step(model, optimizer, micro_batches, loss_fn):
        optimizer.zero_grad()
        for x, y in micro_batches:
            (loss_fn(model(x), y) / len(micro_batches)).backward()

    def never_cleared(model, optimizer, micro_batches, loss_fn):
        for x, y in micro_batches:  # the stale .grad of an earlier step is still there
            (loss_fn(model(x), y) / len(micro_batches)).backward()
        optimizer.step()
    assert_hint(capsys, ch07.check_accumulated_step, no_step, "the parameters did not move")
    assert_hint(capsys, ch07.check_accumulated_step, never_cleared, "not quite")


def test_the_placeholder_is_not_attempted(capsys):
    def accumulated_step(model, optimizer, micro_batches, loss_fn):
        raise NotImplementedError
    assert_not_attempted(capsys, ch07.check_accumulated_step, accumulated_step)
