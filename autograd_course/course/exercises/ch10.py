"""Chapter 10 exercises: a node pre-hook, saved bytes, checkpointing, anomaly mode, an HVP, a
gradient penalty."""

from __future__ import annotations

import warnings
from typing import Any, Callable

import numpy as np

from ... import float32, float64, nn, tensor
from ...autograd import anomaly, functional
from ...autograd.engine import grad
from ...autograd.grad_mode import is_grad_enabled
from ...autograd.saved_tensor_hooks import saved_tensors_hooks
from ...tensor import Tensor
from ._common import (
    Mismatch,
    NotAttempted,
    call_learner,
    checker,
    compare_tensors,
    has_placeholder_body,
    random_inputs,
    require_attempt,
    to_numpy,
)
from .messages import msg


def _require_body(fn: Any) -> None:
    """NotAttempted for a placeholder: ``...``, or a function whose body is only ``...``."""
    if has_placeholder_body(require_attempt(fn)):
        raise NotAttempted


# --- 10.1 a pre-hook that clamps what reaches a node ---------------------------------------------
def _clamp_case() -> tuple:
    """x, w and a loss whose gradient at the node of ``y = x * w`` is 6y (beyond ±1 mostly)."""
    x, w = random_inputs((5,), (5,))
    y = x * w
    return x, w, y, (3 * y ** 2).sum()


@checker
def check_clamp_prehook(attach: Callable[[Any], Any]) -> None:
    """Exercise 10.1: ``attach(node)`` registers on ``node`` a pre-hook that clamps every
    gradient reaching it to [-1, 1] and returns the handle."""
    _require_body(attach)
    x, w, y, loss = _clamp_case()
    arrived: list = []  # the gradients that reach the node, and a copy of their values
    watch = y.grad_fn.register_prehook(
        lambda grads: arrived.extend((g, to_numpy(g).copy()) for g in grads if g is not None))
    handle = call_learner(attach, y.grad_fn, allow_none=True)
    try:
        loss.backward(retain_graph=True)
    except TypeError as e:
        if "expected tuple" in str(e):
            raise Mismatch(msg("ch10.clamp.tuple")) from e
        raise
    finally:
        watch.remove()
    if any(not np.array_equal(to_numpy(g), values) for g, values in arrived):
        raise Mismatch(msg("ch03.hook.in_place"))  # one rule for hooks, as in exercise 3.3
    upstream = 6 * y.detach()
    want = upstream.clamp(-1, 1) * w.detach()
    if x.grad is None:
        raise Mismatch(msg("ch10.clamp.no_grad"))
    got = to_numpy(x.grad)
    if np.allclose(got, to_numpy(upstream * w.detach())):
        raise Mismatch(msg("ch10.clamp.unchanged"))
    if np.allclose(got, to_numpy((upstream * w.detach()).clamp(-1, 1))):
        raise Mismatch(msg("ch10.clamp.posthook"))
    compare_tensors(x.grad, want, msg("ch10.clamp.name"))
    if not callable(getattr(handle, "remove", None)):
        raise Mismatch(msg("ch10.clamp.handle"))
    handle.remove()
    x.grad = None
    loss.backward()
    compare_tensors(x.grad, upstream * w.detach(), msg("ch10.clamp.removed"))


# --- 10.2 bytes saved for backward ---------------------------------------------------------------
def _byte_cases() -> list[tuple[Callable[..., Any], tuple]]:
    (a,) = random_inputs((40,), low=0.5)
    b32 = random_inputs((3, 8), (8, 5))
    b32 = tuple(t.detach().to(float32).requires_grad_() for t in b32)
    (c,) = random_inputs((7,))
    return [(lambda t: (t.exp() * t).sin().sum(), (a,)),
            (lambda p, q: (p @ q).tanh().mean(), b32),
            (lambda t: (t * 2).sum(), (c,)),
            (lambda t: t.sum(), (c,))]


def _reference_saved(fn: Callable[..., Any], inputs: tuple) -> tuple[int, int, int]:
    """(bytes, tensors, elements) saved by ``fn(*inputs)``'s forward."""
    seen = []

    def pack(t: Any) -> Any:
        seen.append((t.numel() * t.element_size(), t.numel()))
        return t

    with saved_tensors_hooks(pack, lambda t: t):
        fn(*inputs)
    return sum(b for b, _ in seen), len(seen), sum(n for _, n in seen)


def _keeping(fn: Callable[..., Any], outputs: list) -> Callable[..., Any]:
    """``fn``, which also appends each result to ``outputs``."""
    def kept(*args: Any) -> Any:
        outputs.append(fn(*args))
        return outputs[-1]
    return kept


def _backward_after(outputs: list, inputs: tuple) -> None:
    """Run backward through what the learner's forward saved (under their hooks): a pack
    hook that returned None leaves nothing for unpack to give back."""
    for out in outputs:
        try:
            grad(out, list(inputs), allow_unused=True)
        except (TypeError, RuntimeError) as e:
            raise Mismatch(msg("ch10.bytes.pack_none", error=f"{type(e).__name__}: {e}")) from e


@checker
def check_saved_bytes(saved_bytes: Callable[..., Any]) -> None:
    """Exercise 10.2: ``saved_bytes(fn, *inputs)`` is the number of bytes the forward of
    ``fn(*inputs)`` keeps for backward (every saved tensor, element size times elements)."""
    _require_body(saved_bytes)
    for fn, inputs in _byte_cases():
        outputs: list = []
        got = call_learner(saved_bytes, _keeping(fn, outputs), *inputs, allow_none=True)
        want, count, elements = _reference_saved(fn, inputs)
        if got is None:
            raise Mismatch(msg("ch10.bytes.none"))
        if isinstance(got, bool) or not isinstance(got, (int, np.integer)):
            raise Mismatch(msg("ch10.bytes.type", type=type(got).__name__))
        if got == want:
            _backward_after(outputs, inputs)
            continue
        if want and got == 0:
            raise Mismatch(msg("ch10.bytes.zero"))
        if got == count:
            raise Mismatch(msg("ch10.bytes.count"))
        if got == elements:
            raise Mismatch(msg("ch10.bytes.elements"))
        raise Mismatch(msg("ch10.bytes.wrong", got=got, want=want))


# --- 10.3 checkpoint every block -----------------------------------------------------------------
class _Counted(nn.Module):
    def __init__(self, layer: Any, calls: list) -> None:
        super().__init__()
        self.layer, self.calls = layer, calls

    def forward(self, x: Any) -> Any:
        self.calls[0] += 1
        return self.layer(x)


def _activation_bytes(run: Callable[[], Any], rows: int) -> tuple[int, Any]:
    """Bytes of the distinct saved tensors (by ``data_ptr``) with one row per example, and
    what ``run()`` returned."""
    kept = {}

    def pack(t: Any) -> Any:
        if t.dim() == 2 and t.shape[0] == rows:
            kept[t.data_ptr()] = t.numel() * t.element_size()
        return t

    with saved_tensors_hooks(pack, lambda t: t):
        out = run()
    return sum(kept.values()), out


@checker
def check_checkpoint_blocks(run_blocks: Callable[[list, Any], Any]) -> None:
    """Exercise 10.3: ``run_blocks(blocks, x)`` runs ``x`` through each block in turn, every
    block inside ``checkpoint(..., use_reentrant=False)``."""
    require_attempt(run_blocks)
    calls = [0]
    blocks = [_Counted(nn.Sequential(nn.Linear(6, 6), nn.Tanh(), nn.Linear(6, 6), nn.Tanh()), calls)
              for _ in range(4)]
    params = [p for b in blocks for p in b.parameters()]
    (x,) = random_inputs((5, 6))
    x = x.detach().to(float32).requires_grad_()
    plain_x = x.detach().requires_grad_()

    def plain() -> Any:
        h = plain_x
        for block in blocks:
            h = block(h)
        return h

    plain_bytes, h = _activation_bytes(plain, 5)
    h.sum().backward()
    plain_grads = [p.grad.clone() for p in params] + [plain_x.grad.clone()]
    for p in params:
        p.grad = None
    calls[0] = 0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        saved, out = _activation_bytes(
            lambda: call_learner(run_blocks, blocks, x), 5)
    if any("use_reentrant" in str(w.message) for w in caught):
        raise Mismatch(msg("ch10.ckpt.reentrant"))
    forward_calls = calls[0]
    if out is not None and out.grad_fn is not None \
            and out.grad_fn.name().startswith("CheckpointFunction"):
        raise Mismatch(msg("ch10.ckpt.reentrant"))
    if saved >= plain_bytes:
        raise Mismatch(msg("ch10.ckpt.nothing"))
    compare_tensors(out, h, msg("ch10.ckpt.output"))
    out.sum().backward()
    for got, want in zip([p.grad for p in params] + [x.grad], plain_grads):
        compare_tensors(got, want, msg("ch10.ckpt.gradient"))
    if forward_calls != len(blocks) or calls[0] != 2 * len(blocks):
        raise Mismatch(msg("ch10.ckpt.calls", forward=forward_calls,
                           backward=calls[0] - forward_calls, blocks=len(blocks)))
    if saved != 5 * 6 * 4 * len(blocks):
        raise Mismatch(msg("ch10.ckpt.some", saved=saved, want=5 * 6 * 4 * len(blocks)))


# --- 10.4 which node made the NaN? ---------------------------------------------------------------
def _nan_cases() -> list[tuple[str, Callable[[], Any]]]:
    def sqrt_at_zero() -> Any:
        x = tensor([0.0, 1.0, 4.0], requires_grad=True)
        return (x.sqrt() * tensor([0.0, 1.0, 1.0])).sum()

    def log_at_zero() -> Any:
        x = tensor([0.0, 2.0], requires_grad=True)
        return (x.log() * tensor([0.0, 1.0])).sum()

    def divide_by_zero() -> Any:
        a = tensor([0.0, 3.0], requires_grad=True)
        b = tensor([0.0, 1.0], requires_grad=True)
        return ((a * 2).tanh() / (b * 1) * tensor([0.0, 1.0])).mean()

    return [("SqrtBackward0", sqrt_at_zero), ("LogBackward0", log_at_zero),
            ("DivBackward0", divide_by_zero)]


@checker
def check_nan_source(nan_source: Callable[[Any], Any]) -> None:
    """Exercise 10.4: ``nan_source(loss)`` runs ``loss.backward()`` in anomaly mode and returns
    the name of the node whose backward returned NaN (``"SqrtBackward0"``)."""
    _require_body(nan_source)
    for want, build in _nan_cases():
        try:
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                loss = build()
                got = call_learner(nan_source, loss, allow_none=True)
        finally:
            anomaly.set_detect_anomaly(False)
        if got is None:
            raise Mismatch(msg("ch10.nan.none"))
        if not isinstance(got, str):
            raise Mismatch(msg("ch10.nan.type", type=type(got).__name__))
        if got == want:
            continue
        if want in got:
            raise Mismatch(msg("ch10.nan.message", want=want))
        if got == loss.grad_fn.name():
            raise Mismatch(msg("ch10.nan.root", got=got))
        raise Mismatch(msg("ch10.nan.wrong", got=got, want=want))


# --- 10.5 a Hessian-vector product with two backward passes --------------------------------------
def _hvp_cases() -> list[Callable[[Any], Any]]:
    return [lambda x: (x ** 3).sum(), lambda x: (x.sin() * x).sum(),
            lambda x: (x[0] * x[1] * x[2]) + (x ** 2).sum()]


def _recorded(f: Callable[[Any], Any], recording: list) -> Callable[[Any], Any]:
    """``f``, whose result's node writes down whether grad mode is on when backward runs it."""
    def wrapped(x: Any) -> Any:
        out = f(x)
        if out.grad_fn is not None:
            out.grad_fn.register_hook(lambda gi, go: recording.append(is_grad_enabled()))
        return out
    return wrapped


@checker
def check_hvp(hvp_by_hand: Callable[[Callable, Any, Any], Any]) -> None:
    """Exercise 10.5: ``hvp_by_hand(f, x, v)`` is H(x) v for a scalar ``f``, from two calls of
    ``autograd.grad`` (the first with ``create_graph=True``)."""
    require_attempt(hvp_by_hand)
    for f in _hvp_cases():
        x, v = random_inputs((3,), (3,), requires_grad=False)
        x.requires_grad_()
        recording: list = []  # grad mode while backward ran f's last node: create_graph
        try:
            got = call_learner(hvp_by_hand, _recorded(f, recording), x, v)
        except RuntimeError as e:
            if "does not require grad" in str(e):
                key = "ch10.hvp.detached" if any(recording) else "ch10.hvp.create_graph"
                if not recording:  # no backward ran through f(x): x did not require grad
                    key = "ch10.hvp.x_no_grad"
                raise Mismatch(msg(key)) from e
            raise
        _, want = functional.hvp(f, x.detach(), v)
        (gradient,) = grad(f(x), x)
        if isinstance(got, tuple) and len(got) == 2:
            raise Mismatch(msg("ch10.hvp.pair"))
        g = to_numpy(got) if not isinstance(got, (list, str)) else None
        if g is not None and g.shape == (3,) and not np.allclose(g, to_numpy(want)):
            if np.allclose(g, to_numpy(gradient)):
                raise Mismatch(msg("ch10.hvp.gradient"))
            _, h_ones = functional.hvp(f, x.detach(), v * 0 + 1)
            if np.allclose(g, to_numpy(h_ones)):
                raise Mismatch(msg("ch10.hvp.no_vector"))
        compare_tensors(got, want, msg("ch10.hvp.name"))


# --- 10.6 a gradient penalty: the gradient is part of the loss -----------------------------------
class _Critic(nn.Module):
    """A small network that writes down whether grad mode was on when backward ran its output
    node: on means the gradient was taken with ``create_graph=True``."""

    def __init__(self) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))
        self.recording: list = []

    def forward(self, x: Any) -> Any:
        out = self.net(x)
        out.grad_fn.register_hook(lambda gi, go: self.recording.append(is_grad_enabled()))
        return out


def _reference_penalty(critic: Any, x: Any) -> Any:
    x = x.detach().requires_grad_()
    (g,) = grad(critic(x).sum(), x, create_graph=True)
    return ((g.norm(dim=1) - 1) ** 2).mean(), g


@checker
def check_gradient_penalty(gradient_penalty: Callable[[Any, Any], Any]) -> None:
    """Exercise 10.6: ``gradient_penalty(critic, x)`` is the mean over the rows of x of
    ``(‖∂critic(x).sum()/∂x_row‖ - 1)²``, a tensor that backward can differentiate again (the
    gradient of the parameters flows through the gradient)."""
    _require_body(gradient_penalty)
    for seed in range(3):
        critic = _Critic().to(float64)
        params = list(critic.net.parameters())
        (x,) = random_inputs((5, 3), seed=seed, requires_grad=False)
        want, g = _reference_penalty(critic, x)
        want_grads = grad(want, params, allow_unused=True)  # the last bias: None
        critic.recording.clear()
        try:
            got = call_learner(gradient_penalty, critic, x.detach().requires_grad_())
        except RuntimeError as e:
            if "differentiated Tensors does not require grad" in str(e):
                raise Mismatch(msg("ch10.gp.x_no_grad")) from e
            raise
        if not isinstance(got, Tensor):
            raise Mismatch(msg("ch10.gp.type", type=type(got).__name__))
        if got.numel() != 1:
            raise Mismatch(msg("ch10.gp.shape", shape=tuple(got.shape)))
        value, rows = float(to_numpy(got)), float(to_numpy((g.norm() - 1) ** 2))
        if abs(value - float(to_numpy(want))) > 1e-8 * max(1.0, abs(value)):
            if abs(value - rows) <= 1e-8 * max(1.0, abs(rows)):
                raise Mismatch(msg("ch10.gp.rows"))
            raise Mismatch(msg("ch10.gp.value", got=value, want=float(to_numpy(want))))
        if not got.requires_grad:
            key = "ch10.gp.detached" if any(critic.recording) else "ch10.gp.create_graph"
            raise Mismatch(msg(key))
        for p in params:
            p.grad = None
        got.backward()
        for p, w in zip(params, want_grads):
            if w is not None or p.grad is not None:
                compare_tensors(p.grad, w if w is not None else p.grad * 0, msg("ch10.gp.name"))
