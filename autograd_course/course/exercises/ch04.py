"""Chapter 4 exercises: derive a loss gradient by hand; a loop that must zero its gradients;
two backward passes through one graph (``retain_graph``)."""

from __future__ import annotations

import dis
from typing import Any, Callable

import numpy as np

from ... import Tensor, tensor
from ._common import Mismatch, call_learner, checker, compare_tensors, random_inputs, to_numpy
from .messages import msg


@checker
def check_sigmoid_mse_grad(mse_grad: Callable[[Any, Any], Any]) -> None:
    """Exercise 4.1: ``mse_grad(z, y)`` is dL/dz for L = mean((σ(z) - y)²), derived by hand.

    The answer is 2·(σ(z) - y)·σ(z)·(1 - σ(z)) / n: the chain rule through the square, then
    through σ, and the mean's 1/n.
    """
    rng = np.random.default_rng()
    n = int(rng.integers(4, 9))
    (z,) = random_inputs((n,), low=-3.0, high=3.0)
    y = tensor(rng.integers(0, 2, size=n).astype(np.float64))
    ((z.sigmoid() - y) ** 2).mean().backward()
    expected = to_numpy(z.grad)
    answer = call_learner(mse_grad, z.detach(), y, copy_args=True)
    actual = to_numpy(answer)
    s_, y_ = 1 / (1 + np.exp(-to_numpy(z))), to_numpy(y)
    if actual.shape == expected.shape and not np.allclose(actual, expected, rtol=1e-4):
        wrong = [
            (msg("ch04.mse.times_n", n=n), expected * n),
            (msg("ch04.mse.half"), expected / 2),
            (msg("ch04.mse.no_sigmoid"), 2 * (s_ - y_) / n),
            (msg("ch04.mse.bce"), (s_ - y_) / n),
        ]
        for hint, candidate in wrong:
            if np.allclose(actual, candidate, rtol=1e-4):
                raise Mismatch(msg("ch04.mse.your_gradient_is", hint=hint))
    compare_tensors(answer, expected, msg("ch04.your_gradient"))


def _reference_batch_gradients(w: Any, batches: list) -> list:
    grads = []
    for x, y in batches:
        w.grad = None
        ((x @ w - y) ** 2).mean().backward()
        grads.append(to_numpy(w.grad))
    return grads


@checker
def check_batch_gradients(batch_gradients: Callable[[Any, list], Any]) -> None:
    """Exercise 4.2: one gradient per batch, each of that batch's loss alone."""
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
        raise Mismatch(msg("ch04.batches.zero_none")) from e
    try:
        answer = list(answer)
    except TypeError as e:
        raise Mismatch(msg("ch04.batches.not_a_list")) from e
    if len(answer) != len(batches):
        raise Mismatch(msg("ch04.batches.count", got=len(answer), want=len(batches)))
    if any(g is None for g in answer):
        raise Mismatch(msg("ch04.batches.none"))
    if all(isinstance(g, Tensor) for g in answer) and len({id(g) for g in answer}) == 1:
        raise Mismatch(msg("ch04.batches.same_object"))
    got = [to_numpy(g) for g in answer]
    cumulative = np.cumsum(expected, axis=0)
    if all(g.shape == c.shape for g, c in zip(got, cumulative)) and \
            np.allclose(got[-1], cumulative[-1], rtol=1e-4) and \
            not np.allclose(got[-1], expected[-1], rtol=1e-4):
        raise Mismatch(msg("ch04.batches.cumulative"))
    for k, (g, e) in enumerate(zip(got, expected)):
        compare_tensors(g, e, msg("ch04.batches.name", k=k))


def _two_losses_reference(w: Any, x: Any) -> tuple:
    h = x @ w
    first = (h.tanh() ** 2).sum()
    second = (h * h).mean()
    w.grad = None
    first.backward(retain_graph=True)
    g1 = to_numpy(w.grad)
    w.grad = None
    second.backward()
    return g1, to_numpy(w.grad)


def _matmuls(code: Any) -> int:
    """How many matrix products a function's code writes (``@``, ``matmul``, ``mm``)."""
    count = 0
    for ins in dis.get_instructions(code):
        if ins.opname == "BINARY_OP" and ins.argrepr in ("@", "@="):
            count += 1
        elif ins.opname.startswith("LOAD_") and ins.argval in ("matmul", "mm"):
            count += 1
    return count


@checker
def check_two_losses(two_losses: Callable[[Any, Any], Any]) -> None:
    """Exercise 4.3: ``two_losses(w, x)`` returns (dL1/dw, dL2/dw) for two losses built on one
    shared h = x @ w, each by its own ``backward()`` through the same graph."""
    seed = int(np.random.default_rng().integers(2**31))
    (w_ref,) = random_inputs((3, 2), seed=seed)
    (w,) = random_inputs((3, 2), seed=seed)
    (x,) = random_inputs((4, 3), seed=seed + 1, requires_grad=False)
    g1, g2 = _two_losses_reference(w_ref, x)
    code = getattr(two_losses, "__code__", None)
    if code is not None and "autograd" in code.co_names:
        raise Mismatch(msg("ch04.two.autograd_grad"))
    if code is not None and _matmuls(code) > 1:
        raise Mismatch(msg("ch04.two.built_twice"))
    try:
        answer = call_learner(two_losses, w, x)
    except RuntimeError as e:
        if "second time" not in str(e):
            raise
        raise Mismatch(msg("ch04.two.retain")) from e
    try:
        got1, got2 = (to_numpy(g) for g in answer)
    except (TypeError, ValueError) as e:
        raise Mismatch(msg("ch04.two.not_a_pair")) from e
    if got2.shape == g2.shape and np.allclose(got2, g1 + g2, rtol=1e-6):
        raise Mismatch(msg("ch04.two.includes_first"))
    if got1.shape == g1.shape and np.allclose(got1, got2, rtol=1e-6):
        raise Mismatch(msg("ch04.two.same_numbers"))
    compare_tensors(got1, g1, msg("ch04.two.first_name"))
    compare_tensors(got2, g2, msg("ch04.two.second_name"))
