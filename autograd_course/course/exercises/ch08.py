"""Chapter 8 exercises: pick the device, and a training step that works on any device.

Both checkers work without a GPU. ``check_pick_device`` asks the learner's function twice, once
with ``ag.cuda`` and ``ag.accelerator`` saying that a GPU is there and once that none is.
``check_train_step`` puts the model on the best device there is (the CPU here) and hands over a
batch on the CPU, as a ``DataLoader`` does; on the CPU it watches ``Tensor.to`` to see the batch
being moved.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable, Iterator

import numpy as np

from ... import accelerator, cuda, manual_seed, nn, randn
from ...nn.functional import mse_loss
from ...optim import SGD
from ...random import get_rng_state, set_rng_state
from ...tensor import Tensor
from ._common import (
    Mismatch,
    NotAttempted,
    call_learner,
    checker,
    compare_tensors,
    is_placeholder,
    to_numpy,
)
from .messages import msg

_LR = 0.1


def _device_type(value: Any) -> str | None:
    """'cuda' or 'cpu' for a device string or device object; None for anything else."""
    text = str(getattr(value, "type", value))
    return text.split(":")[0] if text.split(":")[0] in ("cuda", "cpu") else None


@contextmanager
def _pretend_gpu(available: bool) -> Iterator[None]:
    """Make every question about the GPU answer as if one were there (or none): ag.cuda's and
    ag.accelerator's ``is_available`` and ``device_count``, and ``current_accelerator``, which
    asks ``accelerator.is_available``."""
    replacements = [(module, name, answer) for module in (cuda, accelerator)
                    for name, answer in (("is_available", available),
                                         ("device_count", int(available)))]
    originals = [(module, name, getattr(module, name)) for module, name, _ in replacements]
    try:
        for module, name, answer in replacements:
            setattr(module, name, lambda answer=answer: answer)
        yield
    finally:
        for module, name, original in originals:
            setattr(module, name, original)


@checker
def check_pick_device(pick_device: Callable[[], Any]) -> None:
    """Exercise 8.1: ``pick_device()`` is "cuda" when a GPU is usable, else "cpu" (however it
    asks: ``ag.cuda.is_available()``, ``ag.cuda.device_count()``, ``ag.accelerator``...)."""
    if is_placeholder(pick_device):
        raise NotAttempted
    answers = {}
    for available in (True, False):
        with _pretend_gpu(available):
            answers[available] = call_learner(pick_device)
    kinds = {available: _device_type(answer) for available, answer in answers.items()}
    for available, kind in kinds.items():
        if kind is None:
            raise Mismatch(msg("ch08.pick.not_a_device", got=answers[available]))
    if kinds == {True: "cpu", False: "cpu"}:
        raise Mismatch(msg("ch08.pick.always_cpu"))
    if kinds == {True: "cuda", False: "cuda"}:
        raise Mismatch(msg("ch08.pick.always_cuda"))
    if kinds != {True: "cuda", False: "cpu"}:
        raise Mismatch(msg("ch08.pick.swapped"))


def _problem(seed: int) -> tuple[Any, Any, Any, str]:
    """A Linear(3, 2) on the best device, one batch on the CPU, without touching the global RNG."""
    device = "cuda" if cuda.is_available() else "cpu"
    state = get_rng_state()
    try:
        manual_seed(seed)
        model = nn.Linear(3, 2).to(device)
        xb, yb = randn(6, 3), randn(6, 2)
    finally:
        set_rng_state(state)
    return model, xb, yb, device


def _reference(seed: int) -> tuple[float, list]:
    model, xb, yb, device = _problem(seed)
    optimizer = SGD(model.parameters(), lr=_LR)
    optimizer.zero_grad()
    loss = mse_loss(model(xb.to(device)), yb.to(device))
    loss.backward()
    optimizer.step()
    return loss.item(), [to_numpy(p) for p in model.parameters()]


class _WatchMoves:
    """Record the devices that ``Tensor.to`` is asked for, per watched tensor."""

    def __init__(self, *watched: Any) -> None:
        self.ids = {id(t): i for i, t in enumerate(watched)}
        self.moves: list = [[] for _ in watched]

    def __enter__(self) -> _WatchMoves:
        self._own = "to" in Tensor.__dict__
        self._original = Tensor.to
        original, ids, moves = self._original, self.ids, self.moves

        def to(tensor: Any, *args: Any, **kwargs: Any) -> Any:
            if id(tensor) in ids:
                target = kwargs.get("device", args[0] if args else None)
                moves[ids[id(tensor)]].append(_device_type(getattr(target, "device", target)))
            return original(tensor, *args, **kwargs)

        Tensor.to = to
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._own:
            Tensor.to = self._original
        else:
            del Tensor.to


@checker
def check_train_step(train_step: Callable[..., Any]) -> None:
    """Exercise 8.2: ``train_step(model, optimizer, xb, yb)`` moves the batch to the model's
    device, does one step of mean-squared-error training and returns the loss as a float."""
    if is_placeholder(train_step):
        raise NotAttempted
    seed = int(np.random.default_rng().integers(2**30))
    model, xb, yb, device = _problem(seed)
    optimizer = SGD(model.parameters(), lr=_LR)
    try:
        with _WatchMoves(xb, yb) as watch:
            loss = call_learner(train_step, model, optimizer, xb, yb, mse_loss)
    except RuntimeError as err:
        if "Expected all tensors to be on the same device" in str(err):
            raise Mismatch(msg("ch08.step.wrong_device")) from err
        raise
    want_loss, want_params = _reference(seed)
    for name, moves in zip(("xb", "yb"), watch.moves):
        if device not in moves:
            raise Mismatch(msg("ch08.step.not_moved", name=name))
    if not isinstance(loss, float):
        raise Mismatch(msg("ch08.step.not_float", type=type(loss).__name__))
    got = [to_numpy(p) for p in model.parameters()]
    if all(np.allclose(g, to_numpy(p)) for g, p in zip(got, _problem(seed)[0].parameters())):
        raise Mismatch(msg("ch08.step.no_step"))
    if not np.isclose(loss, want_loss, rtol=1e-5):
        raise Mismatch(msg("ch08.step.loss", got=loss, want=want_loss))
    for name, g, w in zip(("weight", "bias"), got, want_params):
        compare_tensors(g, w, msg("ch08.step.name", name=name), rtol=1e-5, atol=1e-7)
