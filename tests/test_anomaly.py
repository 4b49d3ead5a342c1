"""Anomaly mode against PyTorch: ``detect_anomaly`` / ``set_detect_anomaly`` /
``is_anomaly_enabled``, the forward stack each node records, the error for a backward that
returns NaN, and the warning that shows the forward stack when a node's backward fails."""

from __future__ import annotations

import warnings

import pytest
import torch

import autograd_course as ag


def _run(m, body):
    """(what body(m) raised, the UserWarnings it gave) in both libraries alike."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            body(m)
            error = None
        except Exception as exc:
            error = (type(exc).__name__, str(exc))
    said = [str(w.message).split(" (Triggered internally")[0] for w in caught
            if issubclass(w.category, UserWarning)]
    return error, said


def _last_frame(stack_text: str) -> str:
    return stack_text.strip().split("\n")[-2:]


def _nan_backward(m):
    a = m.tensor([1.0, -1.0], requires_grad=True)
    with m.autograd.detect_anomaly():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # sqrt(-1) in NumPy
            y = a.sqrt()  # the forward line the warning shows
        y.sum().backward()


def test_nan_in_backward_raises_and_warns_with_the_forward_line():
    ours, theirs = _run(ag, _nan_backward), _run(torch, _nan_backward)
    assert ours[0] == theirs[0] == (
        "RuntimeError", "Function 'SqrtBackward0' returned nan values in its 0th output.")
    assert len(ours[1]) == len(theirs[1]) == 2
    assert ours[1][0] == theirs[1][0]  # "Anomaly Detection has been enabled..."
    head = "Error detected in SqrtBackward0. Traceback of forward call that caused the error:"
    assert ours[1][1].startswith(head) and theirs[1][1].startswith(head)
    assert _last_frame(ours[1][1]) == _last_frame(theirs[1][1])
    assert "y = a.sqrt()" in ours[1][1]


def test_the_recorded_stack_is_in_the_nodes_metadata():
    for m in (ag, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with m.autograd.detect_anomaly():
                y = m.ones(2, requires_grad=True) * 3  # recorded here
        stack = y.grad_fn.metadata["traceback_"]
        assert isinstance(stack, list)
        assert stack[-1].strip().endswith("y = m.ones(2, requires_grad=True) * 3  # recorded here")
        z = m.ones(2, requires_grad=True) * 3
        assert "traceback_" not in z.grad_fn.metadata


def _failing_backward(m):
    class Boom(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, g):
            raise ValueError("boom")

    a = m.tensor([1.0], requires_grad=True)
    with m.autograd.detect_anomaly(check_nan=False):
        y = Boom.apply(a)
        y.sum().backward()


def test_an_error_in_backward_warns_with_the_forward_stack():
    ours, theirs = _run(ag, _failing_backward), _run(torch, _failing_backward)
    assert ours[0] == theirs[0] == ("ValueError", "boom")
    assert ours[1][1].startswith("Error detected in BoomBackward. Traceback of forward call")
    assert theirs[1][1].startswith("Error detected in BoomBackward. Traceback of forward call")
    assert "y = Boom.apply(a)" in ours[1][1] and "y = Boom.apply(a)" in theirs[1][1]


def _no_forward_info(m):
    a = m.tensor([1.0, -1.0], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        y = a.sqrt()  # made outside anomaly mode
    with m.autograd.detect_anomaly():
        y.sum().backward()


def test_a_node_made_outside_anomaly_mode_has_no_stack_to_show():
    assert _run(ag, _no_forward_info) == _run(torch, _no_forward_info)


def _check_nan_off(m):
    a = m.tensor([1.0, -1.0], requires_grad=True)
    with m.autograd.detect_anomaly(check_nan=False):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            a.sqrt().sum().backward()
    assert m.isnan(a.grad[1])


def test_check_nan_false_lets_nan_through():
    assert _run(ag, _check_nan_off) == _run(torch, _check_nan_off)


@pytest.mark.parametrize("m", [ag, torch], ids=["ours", "torch"])
def test_the_switches(m):
    assert not m.is_anomaly_enabled() and m.is_anomaly_check_nan_enabled()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with m.autograd.detect_anomaly(check_nan=False):
            assert m.is_anomaly_enabled() and not m.is_anomaly_check_nan_enabled()
            with m.autograd.set_detect_anomaly(False):
                assert not m.is_anomaly_enabled()
            assert m.is_anomaly_enabled()
    assert not m.is_anomaly_enabled() and m.is_anomaly_check_nan_enabled()
    m.autograd.set_detect_anomaly(True)  # a plain call switches it on
    assert m.is_anomaly_enabled()
    m.autograd.set_detect_anomaly(False)
    assert not m.is_anomaly_enabled()
