"""Chapter 8 exercises: pick the device, and a training step that works on any device.

Both checkers work without a GPU. ``check_pick_device`` asks the learner's function twice, once
with ``ag.cuda.is_available()`` answering True and once False. ``check_train_step`` puts the
model on the best device there is (the CPU here) and hands over a batch on the CPU, as a
``DataLoader`` does; on the CPU it watches ``Tensor.to`` to see the batch being moved.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ._common import (
    Mismatch,
    NotAttempted,
    call_learner,
    checker,
    compare_tensors,
    is_placeholder,
    to_numpy,
)

_LR = 0.1


def _device_type(value: Any) -> str | None:
    """'cuda' or 'cpu' for a device string or device object; None for anything else."""
    text = str(getattr(value, "type", value))
    return text.split(":")[0] if text.split(":")[0] in ("cuda", "cpu") else None


@checker
def check_pick_device(pick_device: Callable[[], Any]) -> None:
    """Exercise 8.1: ``pick_device()`` is "cuda" when ``ag.cuda.is_available()``, else "cpu"."""
    from .. import cuda

    if is_placeholder(pick_device):
        raise NotAttempted
    original = cuda.is_available
    answers = {}
    try:
        for available in (True, False):
            cuda.is_available = lambda available=available: available
            answers[available] = call_learner(pick_device)
    finally:
        cuda.is_available = original
    kinds = {available: _device_type(answer) for available, answer in answers.items()}
    for available, kind in kinds.items():
        if kind is None:
            raise Mismatch(f"return the device as the string 'cuda' or 'cpu', got "
                           f"{answers[available]!r}")
    if kinds == {True: "cpu", False: "cpu"}:
        raise Mismatch("you return 'cpu' even when ag.cuda.is_available() says a GPU is there: "
                       "ask it each time the function runs")
    if kinds == {True: "cuda", False: "cuda"}:
        raise Mismatch("without a GPU, 'cuda' fails at the first tensor you make: return 'cpu' "
                       "when ag.cuda.is_available() is False")
    if kinds != {True: "cuda", False: "cpu"}:
        raise Mismatch("the two answers are swapped: 'cuda' when a GPU is available, 'cpu' "
                       "when it is not")


def _problem(seed: int):
    """A Linear(3, 2) on the best device, one batch on the CPU, without touching the global RNG."""
    from .. import cuda, manual_seed, nn, randn
    from ..random import get_rng_state, set_rng_state

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
    from ..nn.functional import mse_loss
    from ..optim import SGD

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
        from ..tensor import Tensor

        self._own = "to" in Tensor.__dict__
        self._original = Tensor.to
        original, ids, moves = self._original, self.ids, self.moves

        def to(tensor, *args, **kwargs):
            if id(tensor) in ids:
                target = kwargs.get("device", args[0] if args else None)
                moves[ids[id(tensor)]].append(_device_type(getattr(target, "device", target)))
            return original(tensor, *args, **kwargs)

        Tensor.to = to
        return self

    def __exit__(self, *exc: Any) -> None:
        from ..tensor import Tensor

        if self._own:
            Tensor.to = self._original
        else:
            del Tensor.to


@checker
def check_train_step(train_step: Callable[..., Any]) -> None:
    """Exercise 8.2: ``train_step(model, optimizer, xb, yb)`` moves the batch to the model's
    device, does one step of mean-squared-error training and returns the loss as a float."""
    from ..nn.functional import mse_loss
    from ..optim import SGD

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
            raise Mismatch("the batch is still on the CPU while the model is on the GPU: move "
                           "xb and yb to the model's device first") from err
        raise
    want_loss, want_params = _reference(seed)
    for name, moves in zip(("xb", "yb"), watch.moves):
        if device not in moves:
            raise Mismatch(f"{name} is never moved to the model's device: on a GPU machine "
                           "this step would fail. Call .to(...) with the device of the model's "
                           "parameters (it costs nothing when the tensor is already there)")
    if not isinstance(loss, float):
        what = type(loss).__name__
        raise Mismatch(f"return the loss as a Python number (loss.item()), not a {what}: a "
                       "tensor would keep its graph, and on a GPU its memory, alive")
    got = [to_numpy(p) for p in model.parameters()]
    if all(np.allclose(g, to_numpy(p)) for g, p in zip(got, _problem(seed)[0].parameters())):
        raise Mismatch("the parameters did not move: after backward(), call optimizer.step()")
    if not np.isclose(loss, want_loss, rtol=1e-5):
        raise Mismatch(f"the loss you return, {loss:.6g}, is not the batch's mean squared error "
                       f"before the step, {want_loss:.6g}")
    for name, g, w in zip(("weight", "bias"), got, want_params):
        compare_tensors(g, w, f"the {name} after your step", rtol=1e-5, atol=1e-7)
