"""Chapter 7 exercises: Nesterov momentum by hand, and a training loop in the right order."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ._common import (
    Mismatch,
    NotAttempted,
    checker,
    compare_tensors,
    is_placeholder,
    random_inputs,
    to_numpy,
)

_LR, _MOMENTUM, _STEPS = 0.05, 0.9, 4


def _quadratic_problem(seed: int):
    """Two parameters and a loss whose gradient differs between them: sum(A p1)² + sum(p2³)."""
    p1, p2 = random_inputs((3,), (2, 2), seed=seed)
    (a,) = random_inputs((3, 3), seed=seed + 1, requires_grad=False)

    def loss_fn(params):
        q1, q2 = params
        return ((a @ q1) ** 2).sum() + (q2 ** 3).sum()

    return [p1, p2], loss_fn


def _run_reference(seed: int, momentum: float, nesterov: bool = False) -> list:
    from ..optim import SGD

    params, loss_fn = _quadratic_problem(seed)
    optimizer = SGD(params, lr=_LR, momentum=momentum, nesterov=nesterov)
    for _ in range(_STEPS):
        optimizer.zero_grad()
        loss_fn(params).backward()
        optimizer.step()
    return [to_numpy(p) for p in params]


def _ema_reference(seed: int) -> list:
    """A common mistake: buf = m·buf + (1 − m)·g (a moving average), Nesterov-style step."""
    from .. import no_grad

    params, loss_fn = _quadratic_problem(seed)
    bufs = [None] * len(params)
    for _ in range(_STEPS):
        for p in params:
            p.grad = None
        loss_fn(params).backward()
        with no_grad():
            for i, p in enumerate(params):
                step = (1 - _MOMENTUM) * p.grad
                bufs[i] = step if bufs[i] is None else _MOMENTUM * bufs[i] + step
                p.sub_(_LR * (p.grad + _MOMENTUM * bufs[i]))
    return [to_numpy(p) for p in params]


def _matches(got: list, want: list) -> bool:
    return all(g.shape == w.shape and np.allclose(g, w, rtol=1e-6, atol=1e-9)
               for g, w in zip(got, want))


@checker
def check_nesterov_step(nesterov_step: Callable[..., Any]) -> None:
    """Exercise 7.1: ``nesterov_step(params, buffers, lr, momentum)`` matches
    ``ag.optim.SGD(..., momentum=momentum, nesterov=True)``."""
    if is_placeholder(nesterov_step):
        raise NotAttempted
    seed = int(np.random.default_rng().integers(2**30))
    params, loss_fn = _quadratic_problem(seed)
    buffers = [None] * len(params)
    stored = True
    for _ in range(_STEPS):
        for p in params:
            p.grad = None
        loss_fn(params).backward()
        try:
            nesterov_step(params, buffers, _LR, _MOMENTUM)
            stored = stored and all(b is not None for b in buffers)
        except NotImplementedError as e:
            raise NotAttempted from e
        except RuntimeError as e:
            if "in-place operation" in str(e):
                raise Mismatch("autograd refuses to update a leaf in place while recording: "
                               "do the update inside `with ag.no_grad():`") from e
            raise
    got = [to_numpy(p) for p in params]
    if any(not p.is_leaf for p in params):
        raise Mismatch("your parameters stopped being leaves: update them in place "
                       "(p -= ... or p.sub_(...)) inside `with ag.no_grad():`")
    if _matches(got, _run_reference(seed, 0.0)):
        raise Mismatch("that is plain gradient descent: Nesterov keeps a momentum buffer per "
                       "parameter (in buffers[i]) and its step uses both the gradient and the "
                       "buffer")
    if _matches(got, _run_reference(seed, _MOMENTUM)):
        raise Mismatch("that is classical momentum (a step of lr * buf); Nesterov looks ahead: "
                       "its step is what the buffer would become if the current gradient came "
                       "in once more")
    if _matches(got, _ema_reference(seed)):
        raise Mismatch("that buffer is a moving average, momentum * buf + (1 - momentum) * grad; "
                       "SGD's momentum adds the whole gradient: buf = momentum * buf + grad")
    if not stored:
        raise Mismatch("buffers[i] is still None after your step: you never stored the momentum "
                       "buffer, so every step starts again from nothing. Keep parameter i's "
                       "buffer in buffers[i] for the next call")
    for k, (g, w) in enumerate(zip(got, _run_reference(seed, _MOMENTUM, nesterov=True))):
        compare_tensors(g, w, f"parameter {k} after {_STEPS} steps", rtol=1e-6, atol=1e-9)


def _small_problem(seed: int):
    """A fresh Linear(3, 2) and four batches, made without disturbing the global RNG."""
    from .. import manual_seed, nn, randn
    from ..random import get_rng_state, set_rng_state

    state = get_rng_state()
    try:
        manual_seed(seed)
        model = nn.Linear(3, 2)
        batches = [(randn(5, 3), randn(5, 2)) for _ in range(4)]
    finally:
        set_rng_state(state)
    return model, batches


def _reference_params(seed: int, zero: str) -> list:
    """Train with zero_grad at the right place ('first'), never ('never'), or too late."""
    from ..nn.functional import mse_loss
    from ..optim import SGD

    model, batches = _small_problem(seed)
    optimizer = SGD(model.parameters(), lr=0.1)
    for x, y in batches:
        if zero == "first":
            optimizer.zero_grad()
        loss = mse_loss(model(x), y)
        loss.backward()
        if zero == "late":
            optimizer.zero_grad()
        optimizer.step()
    return [to_numpy(p) for p in model.parameters()]


@checker
def check_training_loop(train: Callable[..., Any]) -> None:
    """Exercise 7.2: ``train(model, optimizer, batches, loss_fn)`` trains correctly."""
    from ..nn.functional import mse_loss
    from ..optim import SGD

    if is_placeholder(train):
        raise NotAttempted
    seed = int(np.random.default_rng().integers(2**30))
    model, batches = _small_problem(seed)
    optimizer = SGD(model.parameters(), lr=0.1)
    steps = _count_steps(optimizer)
    try:
        train(model, optimizer, batches, mse_loss)
    except NotImplementedError as e:
        raise NotAttempted from e
    got = [to_numpy(p) for p in model.parameters()]
    if not steps:
        raise Mismatch("optimizer.step() is never called: backward() only computes the "
                       "gradients; step() is what changes the parameters, once per batch "
                       "after backward()")
    if _matches(got, _reference_params(seed, "never")):
        raise Mismatch("gradients accumulate from batch to batch: call optimizer.zero_grad() "
                       "before each backward()")
    if _matches(got, _reference_params(seed, "late")):
        raise Mismatch("you cleared the gradients between backward() and step(), so step() "
                       "sees none and the parameters never move")
    for name, g, w in zip(("weight", "bias"), got, _reference_params(seed, "first")):
        compare_tensors(g, w, f"the trained {name}", rtol=1e-5, atol=1e-7)


def _count_steps(optimizer: Any) -> list:
    """Record each ``optimizer.step()`` call in the returned (growing) list."""
    calls: list = []
    step = optimizer.step

    def counted_step(*args, **kwargs):
        calls.append(True)
        return step(*args, **kwargs)

    optimizer.step = counted_step
    return calls
