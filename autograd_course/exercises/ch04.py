"""Chapter 4 exercises: the BCE gradient by hand, and a loop that must zero its gradients."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ._common import Mismatch, call_learner, checker, compare_tensors, random_inputs, to_numpy


def _bce_mean(z, y):
    from ..ops.loss import binary_cross_entropy_with_logits

    return binary_cross_entropy_with_logits(z, y)


@checker
def check_bce_grad(bce_grad: Callable[[Any, Any], Any]) -> None:
    """Exercise 4.1: ``bce_grad(z, y)`` is d(mean BCE-with-logits)/dz, computed by hand."""
    from .. import tensor

    rng = np.random.default_rng()
    n = int(rng.integers(4, 9))
    (z,) = random_inputs((n,), low=-3.0, high=3.0)
    y = tensor(rng.integers(0, 2, size=n).astype(np.float64))
    _bce_mean(z, y).backward()
    expected = to_numpy(z.grad)
    answer = call_learner(bce_grad, z.detach(), y)
    actual = to_numpy(answer)
    if actual.shape == expected.shape and np.allclose(actual, expected * n, rtol=1e-4):
        raise Mismatch(f"your gradient is {n} times too large: the loss is the *mean* over "
                       f"the {n} entries, so divide by z.numel()")
    compare_tensors(answer, expected, "your gradient")


def _reference_batch_gradients(w, batches) -> list:
    grads = []
    for x, y in batches:
        w.grad = None
        ((x @ w - y) ** 2).mean().backward()
        grads.append(to_numpy(w.grad))
    return grads


@checker
def check_batch_gradients(batch_gradients: Callable[[Any, list], Any]) -> None:
    """Exercise 4.2: one gradient per batch, each of that batch's loss alone."""
    from .. import Tensor

    seed = int(np.random.default_rng().integers(2**31))
    (w_ref,) = random_inputs((3, 2), seed=seed)
    (w,) = random_inputs((3, 2), seed=seed)
    batches = [tuple(random_inputs((4, 3), (4, 2), requires_grad=False)) for _ in range(3)]
    expected = _reference_batch_gradients(w_ref, batches)
    try:
        answer = call_learner(batch_gradients, w, batches)
    except AttributeError as e:
        if "zero_" not in str(e):
            raise
        raise Mismatch(".grad is None before the first backward, so w.grad.zero_() fails "
                       "there: zero it after reading it, or set w.grad = None instead") from e
    try:
        answer = list(answer)
    except TypeError as e:
        raise Mismatch("return a list with one gradient per batch") from e
    if len(answer) != len(batches):
        raise Mismatch(f"return one gradient per batch: got {len(answer)}, "
                       f"expected {len(batches)}")
    if any(g is None for g in answer):
        raise Mismatch("one of your gradients is None: call backward() before reading w.grad")
    if all(isinstance(g, Tensor) for g in answer) and len({id(g) for g in answer}) == 1:
        raise Mismatch("all your gradients are the same tensor object: .grad is updated in "
                       "place, so store a copy (w.grad.clone())")
    got = [to_numpy(g) for g in answer]
    cumulative = np.cumsum(expected, axis=0)
    if all(g.shape == c.shape for g, c in zip(got, cumulative)) and \
            np.allclose(got[-1], cumulative[-1], rtol=1e-4) and \
            not np.allclose(got[-1], expected[-1], rtol=1e-4):
        raise Mismatch("each gradient includes the ones before it: backward() accumulates "
                       "into w.grad, so zero it (w.grad.zero_() or w.grad = None) before "
                       "each backward")
    for k, (g, e) in enumerate(zip(got, expected)):
        compare_tensors(g, e, f"your gradient for batch {k}")
