"""Chapter 12 exercises: gradient health of a whole network.

* 12.1 ``gain(nonlinearity)``: the factor an initialisation multiplies by so that the variance
  of the activations neither grows nor shrinks through the nonlinearity; compared with
  ``nn.init.calculate_gain`` on several nonlinearities (a plain number is taken as the gain of
  tanh). Named slips: the gain squared (the square root forgotten), 1 (the nonlinearity taken
  as linear), tanh's derived ``1 / sqrt(Var[tanh(x)])`` instead of PyTorch's rounder 5/3.
* 12.2 ``saturating_layer(history)``: from a ``GradientRecorder``'s ``history``, the name of
  the layer whose outputs were most saturated at the last step. The checker feeds several
  recordings shaped like the recorder's (made up, so that each slip gives another answer):
  the first step read instead of the last, the std or the mean read instead of the saturated
  fraction, the least saturated layer, a layer not seen at the last step (NaN).
* 12.3 ``clip(parameters, max_norm, norm_type=2.0)``: ``clip_grad_norm_`` by hand, compared
  with ``nn.utils.clip_grad_norm_`` on copies, gradients and returned total norm: norms 2 and
  inf, a total below ``max_norm``, a parameter whose ``.grad`` is None, a tiny total where the
  1e-6 in ``max_norm / (total + 1e-6)`` shows.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from ... import float64, nn, tensor
from ...tensor import Tensor
from ._common import Mismatch, NotAttempted, call_learner, checker, is_placeholder, to_numpy
from .messages import msg

# --- 12.1 the gain -----------------------------------------------------------------------------
NONLINEARITIES = ("linear", "tanh", "relu", "leaky_relu", "sigmoid")
"""The nonlinearities the checker asks ``gain`` about (PyTorch's gain of sigmoid is 1)."""
TANH_DERIVED = 1 / math.sqrt(0.39429449)
"""``1 / sqrt(Var[tanh(x)])`` for x ~ N(0, 1) (the variance by quadrature): about 1.593."""


def _as_float(value: Any, name: str) -> float:
    if isinstance(value, Tensor):
        value = value.item()
    if isinstance(value, bool) or not isinstance(value, (int, float, np.floating, np.integer)):
        raise Mismatch(msg("ch12.gain.not_a_number", name=name, type=type(value).__name__))
    return float(value)


def _same(a: float, b: float, rtol: float = 1e-6) -> bool:
    return math.isclose(a, b, rel_tol=rtol, abs_tol=1e-12)


def _diagnose_gain(name: str, got: float, want: float) -> None:
    if _same(got, want):
        return
    if name == "tanh" and _same(got, TANH_DERIVED, rtol=1e-2):
        raise Mismatch(msg("ch12.gain.tanh_derived", got=got))
    if _same(got, want ** 2):
        raise Mismatch(msg("ch12.gain.no_sqrt", name=name, got=got, want=want))
    if _same(got, 1.0):
        raise Mismatch(msg("ch12.gain.one", name=name, want=want))
    raise Mismatch(msg("ch12.gain.wrong", name=name, got=got, want=want))


@checker
def check_gain(gain: Callable[[str], float] | float) -> None:
    """Exercise 12.1: ``gain(nonlinearity)`` equals ``nn.init.calculate_gain`` on
    ``NONLINEARITIES``; a number is compared with the gain of tanh."""
    if is_placeholder(gain):
        raise NotAttempted
    if not callable(gain):
        _diagnose_gain("tanh", _as_float(gain, "tanh"), nn.init.calculate_gain("tanh"))
        return
    for name in NONLINEARITIES:
        got = _as_float(call_learner(gain, name), name)
        _diagnose_gain(name, got, float(nn.init.calculate_gain(name)))


# --- 12.2 the saturating layer -----------------------------------------------------------------
def _recording(rng: np.random.Generator, names: list, steps: int) -> dict:
    """A ``history`` like the recorder's: per layer and step a mean, std and saturated fraction,
    with the most saturated layer of the last step different from the first step's, from the
    largest std's, the largest |mean|'s and the least saturated one."""
    n = len(names)
    order = rng.permutation(n)  # order[0] saturates most at the last step
    first, by_std, by_mean, least = order[1], order[2], order[3], order[-1]
    layers = {}
    for i, name in enumerate(names):
        saturated = list(rng.uniform(0.05, 0.3, size=steps))
        std = list(rng.uniform(0.2, 0.6, size=steps))
        mean = list(rng.uniform(-0.05, 0.05, size=steps))
        if i == order[0]:
            saturated[-1] = 0.9
        if i == first:
            saturated[0] = 0.95
        if i == by_std:
            std[-1] = 0.95
        if i == by_mean:
            mean[-1] = 0.5
        if i == least:
            saturated[-1] = 0.01
        layers[name] = {"mean": mean, "std": std, "saturated": saturated}
    return {"activations": layers,
            "gradients": {name: {"mean": [0.0] * steps, "std": [1e-3] * steps}
                          for name in names},
            "parameters": {}}


def _argmax(history: dict, stat: str, step: int,
            key: Callable[[float], float] = lambda v: v) -> str:
    rows = history["activations"]
    seen = {n: key(row[stat][step]) for n, row in rows.items()
            if not math.isnan(row[stat][step])}
    return max(seen, key=seen.get)


def _recordings() -> list:
    rng = np.random.default_rng()
    cases = [_recording(rng, ["1", "3", "5", "7", "9", "11"], 3),
             _recording(rng, [f"tanh{i}" for i in range(1, 8)], 4)]
    with_nan = _recording(rng, ["1", "3", "5", "7", "9", "11", "13"], 3)
    unseen = _argmax(with_nan, "saturated", 0)  # a layer seen at step 0 only
    if unseen == _argmax(with_nan, "saturated", -1):
        unseen = next(n for n in with_nan["activations"] if n != unseen)
    for stat in ("mean", "std", "saturated"):
        with_nan["activations"][unseen][stat][-1] = math.nan
    return cases + [with_nan]


@checker
def check_saturating_layer(saturating_layer: Callable[[dict], str]) -> None:
    """Exercise 12.2: ``saturating_layer(history)`` names the layer with the largest saturated
    fraction at the last step (layers not seen at the last step, NaN, left out)."""
    for history in _recordings():
        names = list(history["activations"])
        got = call_learner(saturating_layer, history)
        if not isinstance(got, str):
            raise Mismatch(msg("ch12.sat.not_a_name", type=type(got).__name__, names=names))
        if got not in names:
            raise Mismatch(msg("ch12.sat.unknown", got=got, names=names))
        want = _argmax(history, "saturated", -1)
        if got == want:
            continue
        rows = history["activations"]
        if math.isnan(rows[got]["saturated"][-1]):
            raise Mismatch(msg("ch12.sat.nan", got=got))
        slips = (("ch12.sat.first_step", _argmax(history, "saturated", 0)),
                 ("ch12.sat.std", _argmax(history, "std", -1)),
                 ("ch12.sat.mean", _argmax(history, "mean", -1, key=abs)),
                 ("ch12.sat.least", _argmax(history, "saturated", -1, key=lambda v: -v)))
        for key, slip in slips:
            if got == slip:
                raise Mismatch(msg(key, got=got, want=want))
        raise Mismatch(msg("ch12.sat.wrong", got=got, want=want,
                           got_value=rows[got]["saturated"][-1],
                           want_value=rows[want]["saturated"][-1]))


# --- 12.3 clip_grad_norm_ by hand ----------------------------------------------------------------
def _parameters(rng: np.random.Generator, scale: float, none_grad: bool = False) -> list:
    """Three float64 parameters with gradients of about ``scale`` (one without when asked)."""
    params = []
    for shape in ((4, 3), (3,), (2, 5)):
        p = tensor(rng.normal(size=shape), dtype=float64, requires_grad=True)
        p.grad = tensor(rng.normal(scale=scale, size=shape), dtype=float64)
        params.append(p)
    if none_grad:
        params.insert(1, tensor(rng.normal(size=(2,)), dtype=float64, requires_grad=True))
    return params


def _copies(params: list) -> list:
    out = []
    for p in params:
        q = p.detach().clone().requires_grad_()
        q.grad = None if p.grad is None else p.grad.detach().clone()
        out.append(q)
    return out


def _clip_cases(rng: np.random.Generator) -> list:
    """(parameters, max_norm, norm_type): clipped, not clipped, inf-norm, a None grad, and a
    tiny total norm where the 1e-6 changes the clipped gradients by about 1e-4."""
    return [(_parameters(rng, 1.0), 1.0, 2.0),
            (_parameters(rng, 0.01), 5.0, 2.0),
            (_parameters(rng, 1.0), 0.5, math.inf),
            (_parameters(rng, 1.0, none_grad=True), 1.0, 2.0),
            (_parameters(rng, 0.003), 1e-3, 2.0)]


def _grads(params: list) -> list:
    """Copies of the gradients (``to_numpy`` may share the tensor's memory)."""
    return [None if p.grad is None else to_numpy(p.grad).copy() for p in params]


def _global_norm(grads: list, norm_type: float) -> float:
    flat = np.concatenate([g.ravel() for g in grads if g is not None])
    return float(np.abs(flat).max() if math.isinf(norm_type) else np.linalg.norm(flat))


def _grads_equal(got: list, want: list) -> bool:
    return all((g is None) == (w is None) and (g is None or np.allclose(g, w, rtol=1e-9,
                                                                      atol=0))
               for g, w in zip(got, want))


def _diagnose_clip(params: list, max_norm: float, norm_type: float, result: Any,
                   before: list, want_total: float, want: list) -> None:
    kept = [g for g in before if g is not None]
    total = _global_norm(before, norm_type)
    if not _grads_equal(_grads(params), want):
        got = _grads(params)
        if _grads_equal(got, before):
            raise Mismatch(msg("ch12.clip.not_in_place", total=total, max_norm=max_norm))
        if total < max_norm:
            raise Mismatch(msg("ch12.clip.below", total=total, max_norm=max_norm))
        if math.isinf(norm_type):
            two = _global_norm(before, 2.0)
            if _grads_equal(got, [None if g is None else g * max_norm / (two + 1e-6)
                                  for g in before]):
                raise Mismatch(msg("ch12.clip.inf_as_two"))
        if _grads_equal(got, [None if g is None else g * max_norm / total for g in before]):
            raise Mismatch(msg("ch12.clip.no_eps", total=total))
        summed = sum(float(np.linalg.norm(g)) for g in kept)
        if not math.isinf(norm_type) and _grads_equal(
                got, [None if g is None else g * min(1.0, max_norm / (summed + 1e-6))
                      for g in before]):
            raise Mismatch(msg("ch12.clip.sum_of_norms", got=summed, want=total))
        per = [None if g is None else g * min(1.0, max_norm / (np.linalg.norm(g) + 1e-6))
               for g in before]
        if _grads_equal(got, per):
            raise Mismatch(msg("ch12.clip.per_parameter"))
        raise Mismatch(msg("ch12.clip.grads_differ", norm_type=norm_type, max_norm=max_norm))
    if result is None:
        raise Mismatch(msg("ch12.clip.no_return"))
    if isinstance(result, Tensor):
        if result.numel() != 1:
            raise Mismatch(msg("ch12.clip.not_a_number", type=f"Tensor{tuple(result.shape)}"))
        result = result.item()
    if isinstance(result, bool) or not isinstance(result, (int, float, np.floating)):
        raise Mismatch(msg("ch12.clip.not_a_number", type=type(result).__name__))
    got = float(result)
    if _same(got, want_total, rtol=1e-6):  # a float32 total is fine
        return
    if _same(got, _global_norm(_grads(params), norm_type), rtol=1e-9):
        raise Mismatch(msg("ch12.clip.after", got=got, want=want_total))
    if _same(got, sum(float(np.linalg.norm(g)) for g in kept), rtol=1e-9):
        raise Mismatch(msg("ch12.clip.sum_of_norms", got=got, want=want_total))
    raise Mismatch(msg("ch12.clip.total_differs", got=got, want=want_total,
                       norm_type=norm_type))


@checker
def check_clip_grad_norm(clip: Callable[..., Any]) -> None:
    """Exercise 12.3: ``clip(parameters, max_norm, norm_type)`` scales the gradients in place
    as ``nn.utils.clip_grad_norm_`` does and returns the total norm before clipping."""
    rng = np.random.default_rng()
    for params, max_norm, norm_type in _clip_cases(rng):
        reference = _copies(params)
        want_total = float(nn.utils.clip_grad_norm_(reference, max_norm, norm_type).item())
        before = _grads(params)
        try:
            result = call_learner(clip, params, max_norm, norm_type, allow_none=True)
        except (AttributeError, TypeError) as e:
            if any(p.grad is None for p in params):
                raise Mismatch(msg("ch12.clip.none_grad",
                                   error=f"{type(e).__name__}: {e}")) from e
            raise
        _diagnose_clip(params, max_norm, norm_type, result, before, want_total,
                       _grads(reference))
