"""Chapter 7 exercises: Nesterov momentum by hand, a training loop in the right order, and one
step from gradients accumulated over micro-batches."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ... import manual_seed, nn, no_grad, randn
from ...nn.functional import mse_loss
from ...optim import SGD
from ...random import get_rng_state, set_rng_state
from ._common import (
    Mismatch,
    NotAttempted,
    checker,
    compare_tensors,
    is_placeholder,
    not_attempted_or_error,
    random_inputs,
    to_numpy,
)
from .messages import msg

_LR, _MOMENTUM, _STEPS = 0.05, 0.9, 4


def _quadratic_problem(seed: int) -> tuple[list, Callable[[list], Any]]:
    """Two parameters and a loss whose gradient differs between them: sum(A p1)² + sum(p2³)."""
    p1, p2 = random_inputs((3,), (2, 2), seed=seed)
    (a,) = random_inputs((3, 3), seed=seed + 1, requires_grad=False)

    def loss_fn(params: list) -> Any:
        q1, q2 = params
        return ((a @ q1) ** 2).sum() + (q2 ** 3).sum()

    return [p1, p2], loss_fn


def _run_reference(seed: int, momentum: float, nesterov: bool = False) -> list:
    params, loss_fn = _quadratic_problem(seed)
    optimizer = SGD(params, lr=_LR, momentum=momentum, nesterov=nesterov)
    for _ in range(_STEPS):
        optimizer.zero_grad()
        loss_fn(params).backward()
        optimizer.step()
    return [to_numpy(p) for p in params]


def _ema_reference(seed: int) -> list:
    """A common mistake: buf = m·buf + (1 − m)·g (a moving average), Nesterov-style step."""
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
            raise not_attempted_or_error(e) from e
        except RuntimeError as e:
            if "in-place operation" in str(e):
                raise Mismatch(msg("ch07.nesterov.in_place")) from e
            raise
    got = [to_numpy(p) for p in params]
    if any(not p.is_leaf for p in params):
        raise Mismatch(msg("ch07.nesterov.not_leaves"))
    if _matches(got, _run_reference(seed, 0.0)):
        raise Mismatch(msg("ch07.nesterov.plain"))
    if _matches(got, _run_reference(seed, _MOMENTUM)):
        raise Mismatch(msg("ch07.nesterov.classical"))
    if _matches(got, _ema_reference(seed)):
        raise Mismatch(msg("ch07.nesterov.ema"))
    if not stored:
        raise Mismatch(msg("ch07.nesterov.not_stored"))
    for k, (g, w) in enumerate(zip(got, _run_reference(seed, _MOMENTUM, nesterov=True))):
        compare_tensors(g, w, msg("ch07.nesterov.name", k=k, steps=_STEPS), rtol=1e-6,
                        atol=1e-9)


def _small_problem(seed: int) -> tuple[Any, list]:
    """A fresh Linear(3, 2) and four batches, made without disturbing the global RNG."""
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


def _run_on_small_problem(fn: Callable[..., Any], stale_grads: bool = False) -> tuple:
    """Run the learner's ``fn(model, optimizer, batches, mse_loss)`` on a fresh small problem
    (with ``stale_grads``, every parameter starts with a gradient left from an earlier step, to
    be cleared): the seed, the parameters afterwards, the optimizer steps it took, and the
    number of batches."""
    if is_placeholder(fn):
        raise NotAttempted
    seed = int(np.random.default_rng().integers(2**30))
    model, batches = _small_problem(seed)
    optimizer = SGD(model.parameters(), lr=0.1)
    if stale_grads:
        for p in model.parameters():
            p.grad = p.detach() * 0 + 1
    steps = _count_steps(optimizer)
    try:
        fn(model, optimizer, batches, mse_loss)
    except NotImplementedError as e:
        raise not_attempted_or_error(e) from e
    return seed, [to_numpy(p) for p in model.parameters()], steps, len(batches)


@checker
def check_training_loop(train: Callable[..., Any]) -> None:
    """Exercise 7.2: ``train(model, optimizer, batches, loss_fn)`` trains correctly."""
    seed, got, steps, _ = _run_on_small_problem(train)
    if not steps:
        raise Mismatch(msg("ch07.train.no_step"))
    if _matches(got, _reference_params(seed, "never")):
        raise Mismatch(msg("ch07.train.accumulate"))
    if _matches(got, _reference_params(seed, "late")):
        raise Mismatch(msg("ch07.train.late"))
    for name, g, w in zip(("weight", "bias"), got, _reference_params(seed, "first")):
        compare_tensors(g, w, msg("ch07.train.name", name=name), rtol=1e-5, atol=1e-7)


def _count_steps(optimizer: Any) -> list:
    """Record each ``optimizer.step()`` call in the returned (growing) list."""
    calls: list = []
    step = optimizer.step

    def counted_step(*args: Any, **kwargs: Any) -> Any:
        calls.append(True)
        return step(*args, **kwargs)

    optimizer.step = counted_step
    return calls


def _accumulated_reference(seed: int, mistake: str) -> list:
    """The parameters after one step on the four batches of ``_small_problem`` taken together
    (``mistake="none"``), or after a known mistake: ``"zero_inside"`` (zero_grad before each
    micro-batch: only the last one counts), ``"unscaled"`` (losses not divided by 4: a step 4
    times too long), ``"step_each"`` (a step after every micro-batch)."""
    model, batches = _small_problem(seed)
    optimizer = SGD(model.parameters(), lr=0.1)
    optimizer.zero_grad()
    for x, y in batches:
        if mistake == "zero_inside":
            optimizer.zero_grad()
        loss = mse_loss(model(x), y)
        (loss if mistake == "unscaled" else loss / len(batches)).backward()
        if mistake == "step_each":
            optimizer.step()
            optimizer.zero_grad()
    if mistake != "step_each":
        optimizer.step()
    return [to_numpy(p) for p in model.parameters()]


@checker
def check_accumulated_step(accumulated_step: Callable[..., Any]) -> None:
    """Exercise 7.3: ``accumulated_step(model, optimizer, micro_batches, loss_fn)`` makes the
    step that one batch made of all the micro-batches would make (equal sizes, mean loss)."""
    seed, got, steps, n_batches = _run_on_small_problem(accumulated_step, stale_grads=True)
    if not steps:
        raise Mismatch(msg("ch07.accum.no_step"))
    if len(steps) > 1 or _matches(got, _accumulated_reference(seed, "step_each")):
        raise Mismatch(msg("ch07.accum.step_each", steps=len(steps)))
    for mistake, key in (("zero_inside", "ch07.accum.zero_inside"),
                         ("unscaled", "ch07.accum.unscaled")):
        if _matches(got, _accumulated_reference(seed, mistake)):
            raise Mismatch(msg(key, n=n_batches))
    for name, g, w in zip(("weight", "bias"), got, _accumulated_reference(seed, "none")):
        compare_tensors(g, w, msg("ch07.train.name", name=name), rtol=1e-5, atol=1e-7)
