"""Chapter 11 exercises: the backward pass of a two-layer MLP written by hand, then the same
network with BatchNorm, every gradient compared with autograd's on the same graph.

The learner's function ``backward(X, y, p, c)`` gets the batch ``X`` (B, D), the labels ``y``
(B,), the parameters ``p`` and the forward's intermediates ``c`` (dicts of plain tensors, names
as in the chapter) and returns a dict from each name to the gradient of the mean cross-entropy
loss with respect to it. The checker builds the same network with autograd, keeps the
intermediates' gradients (``retain_grad()``), and walks the names in the order backward reaches
them: the first gradient that differs is named, and compared with the usual wrong versions of it
(transposed, not summed over the batch, 1/B missing, wrong sign, tanh's derivative taken at its
input, BatchNorm's variance or mean path left out, the unbiased variance) to say how it is
wrong. A backward that matches is then wrapped in a ``Function`` and run through ``gradcheck``
in float64.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Callable

import numpy as np

from ... import float64, nn, tensor
from ...autograd.function import Function
from ...autograd.gradcheck import gradcheck
from ...tensor import Tensor
from ._common import Mismatch, call_learner, checker, to_numpy
from .messages import msg

EPS = 1e-5
"""BatchNorm's epsilon (``nn.BatchNorm1d``'s default), as the chapter's ``EPS``."""

MLP_ORDER = ("logits", "W2", "b2", "h", "z1", "W1", "b1")
"""The gradients of exercise 11.1, in the order backward computes them."""
BN_ORDER = ("logits", "W2", "b2", "h", "zbn", "gamma", "beta", "xhat", "var", "mu", "z1", "W1")
"""The gradients of exercise 11.2, in the order backward computes them."""

D, H, C = 10, 16, 5  # features, hidden units, classes: as in the chapter


# --- the two networks, with autograd ------------------------------------------------------------
def mlp_forward(X: Tensor, y: Tensor, p: Mapping) -> dict:
    """linear -> tanh -> linear -> cross-entropy; the intermediates and the loss."""
    z1 = X @ p["W1"] + p["b1"]
    h = z1.tanh()
    logits = h @ p["W2"] + p["b2"]
    return {"z1": z1, "h": h, "logits": logits,
            "loss": nn.functional.cross_entropy(logits, y)}


def bn_forward(X: Tensor, y: Tensor, p: Mapping) -> dict:
    """linear -> BatchNorm (batch mean, biased variance, gamma, beta) -> tanh -> linear ->
    cross-entropy; the intermediates and the loss."""
    z1 = X @ p["W1"]
    mu = z1.mean(0)
    var = ((z1 - mu) ** 2).mean(0)
    xhat = (z1 - mu) / (var + EPS).sqrt()
    zbn = p["gamma"] * xhat + p["beta"]
    h = zbn.tanh()
    logits = h @ p["W2"] + p["b2"]
    return {"z1": z1, "mu": mu, "var": var, "xhat": xhat, "zbn": zbn, "h": h,
            "logits": logits, "loss": nn.functional.cross_entropy(logits, y)}


def _case(rng: np.random.Generator, names: tuple) -> tuple:
    """A batch of a random size and fresh float64 parameters (leaves that require grad)."""
    batch = int(rng.choice([6, 7, 9, 11]))  # never D, H or C: a transposed answer shows
    shapes = {"W1": (D, H), "b1": (H,), "gamma": (H,), "beta": (H,), "W2": (H, C), "b2": (C,)}
    X = tensor(rng.normal(size=(batch, D)), dtype=float64)
    y = tensor(rng.integers(0, C, size=batch))
    p = {name: tensor(rng.normal(scale=0.5, size=shapes[name]), dtype=float64,
                      requires_grad=True) for name in names}
    if "gamma" in p:
        p["gamma"] = (p["gamma"].detach() + 1).requires_grad_()
    return X, y, p


def _autograd_grads(forward: Callable, X: Tensor, y: Tensor, p: dict) -> tuple:
    """(the detached intermediates, every gradient by name) from one backward pass."""
    c = forward(X, y, p)
    for name, t in c.items():
        if name != "loss":
            t.retain_grad()
    c["loss"].backward()
    grads = {name: to_numpy(t.grad) for name, t in {**c, **p}.items() if name != "loss"}
    cache = {name: t.detach().clone() for name, t in c.items() if name != "loss"}
    return cache, grads


# --- how a gradient is wrong ----------------------------------------------------------------------
def _close(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and np.allclose(a, b, rtol=1e-5, atol=1e-8)


def _diagnose(name: str, answer: Any, want: np.ndarray, batch: int, wrong: dict) -> None:
    """Mismatch naming how ``answer`` differs from autograd's ``want``; ``wrong`` maps message
    keys to the wrong versions of this gradient that the chapter warns about."""
    if not isinstance(answer, (Tensor, np.ndarray)):
        raise Mismatch(msg("ch11.not_a_tensor", name=name, type=type(answer).__name__))
    got = to_numpy(answer)
    if got.shape != want.shape:
        shape_got, shape_want = tuple(got.shape), tuple(want.shape)
        if want.ndim == 1 and got.shape == (batch, want.shape[0]):
            raise Mismatch(msg("ch11.not_summed", name=name, got=shape_got, want=shape_want))
        if got.ndim == 2 and got.shape == want.shape[::-1] and _close(got.T, want):
            raise Mismatch(msg("ch11.transposed", name=name, got=shape_got, want=shape_want))
        raise Mismatch(msg("ch11.shape", name=name, got=shape_got, want=shape_want))
    if not np.all(np.isfinite(got)):
        raise Mismatch(msg("ch11.nonfinite", name=name))
    if _close(got, want):
        return
    if _close(got, -want):
        raise Mismatch(msg("ch11.sign", name=name))
    if _close(got, batch * want):
        raise Mismatch(msg("ch11.one_over_b", name=name, B=batch))
    for key, version in wrong.items():
        if _close(got, version):
            raise Mismatch(msg(key, name=name))
    raise Mismatch(msg("ch11.differs", name=name, err=float(np.abs(got - want).max())))


def _tanh_at_input(grads: dict, cache: dict, out: str, into: str) -> dict:
    """The gradient of ``into`` with tanh's derivative taken at its input: 1 - into²."""
    return {"ch11.tanh_input": grads[out] * (1 - to_numpy(cache[into]) ** 2)}


def _bn_wrong_z1(grads: dict, cache: dict, batch: int) -> dict:
    """dz1 with BatchNorm's variance path, or its mean path, left out, or with B - 1."""
    centred = to_numpy(cache["z1"]) - to_numpy(cache["mu"])
    through_xhat = grads["xhat"] / np.sqrt(to_numpy(cache["var"]) + EPS)
    var_path, mean_path = grads["var"] * 2 * centred / batch, grads["mu"] / batch
    return {"ch11.bn.var_path": through_xhat + mean_path,
            "ch11.bn.mean_path": through_xhat + var_path,
            "ch11.bn.unbiased": through_xhat + var_path * batch / (batch - 1) + mean_path}


def _compare_all(answer: Any, grads: dict, order: tuple, batch: int, wrong: dict) -> None:
    if not isinstance(answer, Mapping):
        raise Mismatch(msg("ch11.not_a_dict", type=type(answer).__name__))
    for name in order:
        if name not in answer or answer[name] is None:
            raise Mismatch(msg("ch11.missing", name=name, keys=", ".join(order)))
        _diagnose(name, answer[name], grads[name], batch, wrong.get(name, {}))


# --- gradcheck on the learner's backward --------------------------------------------------------
class _ByHand(Function):
    """The loss of ``forward`` with the learner's ``backward`` as its backward pass."""

    @staticmethod
    def forward(ctx: Any, forward: Callable, backward: Callable, X: Tensor, y: Tensor,
                names: tuple, *values: Tensor) -> Tensor:
        p = dict(zip(names, values))
        c = forward(X, y, p)
        ctx.backward_fn, ctx.X, ctx.y, ctx.names = backward, X, y, names
        ctx.p = {k: v.detach() for k, v in p.items()}
        ctx.c = {k: v.detach() for k, v in c.items() if k != "loss"}
        return c["loss"].detach()

    @staticmethod
    def backward(ctx: Any, grad_output: Tensor) -> tuple:
        grads = ctx.backward_fn(ctx.X, ctx.y, dict(ctx.p), dict(ctx.c))
        return (None, None, None, None, None) + tuple(grad_output * grads[k] for k in ctx.names)


def _gradcheck(forward: Callable, backward: Callable, X: Tensor, y: Tensor, p: dict) -> None:
    names = tuple(p)
    values = tuple(v.detach().clone().requires_grad_() for v in p.values())
    try:
        passed = gradcheck(lambda *v: _ByHand.apply(forward, backward, X, y, names, *v), values,
                           raise_exception=False)
    except Exception as e:  # anything the learner's code raised when called again
        raise Mismatch(msg("ch11.gradcheck", error=f"{type(e).__name__}: {e}")) from e
    if not passed:
        raise Mismatch(msg("ch11.gradcheck", error="False"))


def _check(backward: Callable, forward: Callable, names: tuple, order: tuple,
           wrong_versions: Callable) -> None:
    rng = np.random.default_rng()
    X, y, p = _case(rng, names)
    cache, grads = _autograd_grads(forward, X, y, p)
    params = {name: t.detach().clone() for name, t in p.items()}
    given = {name: t.clone() for name, t in cache.items()}
    answer = call_learner(backward, X.clone(), y.clone(), params, given)
    batch = X.shape[0]
    _compare_all(answer, grads, order, batch, wrong_versions(grads, cache, batch))
    _gradcheck(forward, backward, X, y, p)


# --- 11.1 the MLP ---------------------------------------------------------------------------------
def _mlp_wrong(grads: dict, cache: dict, batch: int) -> dict:
    return {"z1": _tanh_at_input(grads, cache, "h", "z1")}


@checker
def check_mlp_backward(mlp_backward: Callable[[Any, Any, dict, dict], Any]) -> None:
    """Exercise 11.1: ``mlp_backward(X, y, p, c)`` returns the gradients of ``MLP_ORDER`` for
    linear -> tanh -> linear -> cross-entropy (``p``: W1, b1, W2, b2; ``c``: z1, h, logits)."""
    _check(mlp_backward, mlp_forward, ("W1", "b1", "W2", "b2"), MLP_ORDER, _mlp_wrong)


# --- 11.2 with BatchNorm --------------------------------------------------------------------------
def _bn_wrong(grads: dict, cache: dict, batch: int) -> dict:
    return {"zbn": _tanh_at_input(grads, cache, "h", "zbn"),
            "z1": _bn_wrong_z1(grads, cache, batch)}


@checker
def check_batchnorm_backward(bn_backward: Callable[[Any, Any, dict, dict], Any]) -> None:
    """Exercise 11.2: ``bn_backward(X, y, p, c)`` returns the gradients of ``BN_ORDER`` for
    linear -> BatchNorm -> tanh -> linear -> cross-entropy (``p``: W1, gamma, beta, W2, b2;
    ``c``: z1, mu, var, xhat, zbn, h, logits)."""
    _check(bn_backward, bn_forward, ("W1", "gamma", "beta", "W2", "b2"), BN_ORDER, _bn_wrong)
