"""Gradients of every op: ``gradcheck`` and ``gradgradcheck`` (finite differences, float64),
and second derivatives against PyTorch (``autograd.grad`` with ``create_graph=True``).

Each entry of ``OPS`` is ``(fn(m, *inputs), input shapes, domain)``; ``m`` is ``ag`` or
``torch``. Domains keep the inputs away from kinks (|x| at 0, relu at 0, clamp bounds) where a
finite difference is meaningless.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from functions import square
from ops_helpers import array, assert_same, leaves

import autograd_course as ag

torch = pytest.importorskip("torch")

BCE = "binary_cross_entropy_with_logits"


def _bce(m):
    return getattr(m.nn.functional, BCE) if m is torch else getattr(ag.ops, BCE)


def _inplace(op):
    """An in-place op on a non-leaf copy (in-place on the leaf itself is refused)."""
    def fn(m, x, y):
        out = x * 1.0
        getattr(out, op)(y)
        return out
    return fn


def _setitem(m, x, y):
    out = x * 1.0
    out[0] = y
    out[1:, [0, 2]] = y[:2] * 2
    return out


OPS = {
    # arithmetic (broadcasting shapes)
    "add": (lambda m, a, b: a + b, [(2, 3), (3,)], "any"),
    "add alpha": (lambda m, a, b: m.add(a, b, alpha=2.5), [(2, 1), (1, 3)], "any"),
    "sub": (lambda m, a, b: a - b, [(2, 3), (2, 1)], "any"),
    "sub alpha": (lambda m, a, b: a.sub(b, alpha=-2), [(3,), (2, 3)], "any"),
    "mul": (lambda m, a, b: a * b, [(2, 3), (3,)], "any"),
    "div": (lambda m, a, b: a / b, [(2, 3), (2, 1)], ("any", "nonzero")),
    "pow tensor": (lambda m, a, b: a ** b, [(2, 3), (3,)], ("positive", "any")),
    "neg": (lambda m, x: -x, [(2, 3)], "any"),
    "scalar forms": (lambda m, x: 2 + x * 3 - 1 / x + (2 - x) / 4 + 2 ** x, [(2, 3)], "nonzero"),
    "pow 2": (lambda m, x: x ** 2, [(2, 3)], "any"),
    "pow 3": (lambda m, x: x.pow(3), [(2, 3)], "any"),
    "pow -1.5": (lambda m, x: x ** -1.5, [(2, 3)], "positive"),
    "pow 0.5": (lambda m, x: m.pow(x, 0.5), [(2, 3)], "positive"),
    "pow 0": (lambda m, x: x ** 0, [(2, 3)], "positive"),
    "rpow": (lambda m, x: 1.5 ** x, [(2, 3)], "any"),
    "reciprocal": (lambda m, x: x.reciprocal(), [(2, 3)], "nonzero"),
    # unary
    "exp": (lambda m, x: x.exp(), [(2, 3)], "any"),
    "log": (lambda m, x: x.log(), [(2, 3)], "positive"),
    "sqrt": (lambda m, x: x.sqrt(), [(2, 3)], "positive"),
    "abs": (lambda m, x: x.abs(), [(2, 3)], "nonzero"),
    "sin": (lambda m, x: x.sin(), [(2, 3)], "any"),
    "cos": (lambda m, x: x.cos(), [(2, 3)], "any"),
    "tanh": (lambda m, x: x.tanh(), [(2, 3)], "any"),
    "sigmoid": (lambda m, x: x.sigmoid(), [(2, 3)], "any"),
    "relu": (lambda m, x: x.relu() * x, [(2, 3)], "nonzero"),
    "clamp": (lambda m, x: x.clamp(-1.0, 1.0) * x, [(3, 3)], "nonzero"),
    "clamp min": (lambda m, x: m.clamp(x, min=0.2) ** 2, [(3, 3)], "any"),
    "sign": (lambda m, x: x.sign() * x, [(2, 3)], "nonzero"),
    "maximum": (lambda m, a, b: m.maximum(a, b) ** 2, [(2, 3), (3,)], "any"),
    "minimum": (lambda m, a, b: m.minimum(a, b) ** 2, [(2, 3), (2, 1)], "any"),
    # reductions
    "sum": (lambda m, x: (x ** 2).sum(), [(2, 3)], "any"),
    "sum dims": (lambda m, x: (x ** 2).sum((0, 2), keepdim=True), [(2, 3, 2)], "any"),
    "mean": (lambda m, x: (x ** 2).mean(), [(2, 3)], "any"),
    "mean dim": (lambda m, x: (x ** 2).mean(-1), [(2, 3)], "any"),
    "max": (lambda m, x: (x ** 2).max(), [(2, 3)], "any"),
    "max dim": (lambda m, x: (x ** 2).max(1)[0], [(2, 3)], "any"),
    "min dim keepdim": (lambda m, x: (x ** 3).min(0, keepdim=True).values, [(2, 3)], "any"),
    "amax": (lambda m, x: (x ** 2).amax(0), [(2, 3)], "any"),
    "amin": (lambda m, x: (x ** 2).amin(), [(2, 3)], "any"),
    "var": (lambda m, x: x.var(), [(2, 3)], "any"),
    "var dim": (lambda m, x: x.var(1, keepdim=True), [(2, 3)], "any"),
    "std": (lambda m, x: x.std(), [(2, 3)], "any"),
    "std dim": (lambda m, x: x.std(0, correction=0), [(2, 3)], "any"),
    "norm": (lambda m, x: x.norm(), [(2, 3)], "nonzero"),
    "norm dim": (lambda m, x: x.norm(dim=1), [(2, 3)], "nonzero"),
    "norm 1": (lambda m, x: x.norm(1) * x.sum(), [(2, 3)], "nonzero"),
    "norm 3": (lambda m, x: m.norm(x, 3, dim=0), [(2, 3)], "nonzero"),
    "norm inf": (lambda m, x: x.norm(math.inf) * x.sum(), [(2, 3)], "nonzero"),
    # shape
    "reshape": (lambda m, x: x.reshape(3, 2) ** 2, [(2, 3)], "any"),
    "view": (lambda m, x: x.view(-1) ** 2, [(2, 3)], "any"),
    "flatten": (lambda m, x: x.flatten(1) ** 2, [(2, 3, 2)], "any"),
    "transpose": (lambda m, x: x.transpose(0, 2) ** 2, [(2, 3, 2)], "any"),
    "t": (lambda m, x: x.t() ** 2, [(2, 3)], "any"),
    "T": (lambda m, x: x.T ** 2, [(2, 3)], "any"),
    "permute": (lambda m, x: x.permute(2, 0, 1) ** 2, [(2, 3, 2)], "any"),
    "unsqueeze": (lambda m, x: x.unsqueeze(1) ** 2, [(2, 3)], "any"),
    "squeeze": (lambda m, x: x.squeeze() ** 2, [(2, 1, 3)], "any"),
    "squeeze dim": (lambda m, x: x.squeeze(1) ** 2, [(2, 1, 3)], "any"),
    "expand": (lambda m, x: x.expand(2, 3, 3) ** 2, [(3, 1)], "any"),
    "cat": (lambda m, a, b: m.cat([a, b, a], 1) ** 2, [(2, 3), (2, 1)], "any"),
    "stack": (lambda m, a, b: m.stack([a, b], -1) ** 2, [(2, 3), (2, 3)], "any"),
    "where": (lambda m, a, b: m.where(a > 0, a * b, b ** 2), [(2, 3), (3,)], "nonzero"),
    "clone": (lambda m, x: x.clone() ** 2, [(2, 3)], "any"),
    "select": (lambda m, x: x[1] ** 2, [(2, 3)], "any"),
    "slice": (lambda m, x: x[:, 1:] ** 2, [(2, 3)], "any"),
    "index": (lambda m, x: x[[0, 0, 1]] ** 2, [(2, 3)], "any"),
    "index 2": (lambda m, x: x[[0, 1, 1], [2, 2, 0]] ** 2, [(2, 3)], "any"),
    "mask": (lambda m, x: x[x > 0] ** 2, [(2, 3)], "nonzero"),
    "none ellipsis": (lambda m, x: x[None, ..., 1] ** 2, [(2, 3)], "any"),
    # matmul
    "dot": (lambda m, a, b: (a @ b) ** 2, [(3,), (3,)], "any"),
    "mv": (lambda m, a, b: (a @ b) ** 2, [(2, 3), (3,)], "any"),
    "vm": (lambda m, a, b: (a @ b) ** 2, [(3,), (3, 2)], "any"),
    "mm": (lambda m, a, b: (a @ b) ** 2, [(2, 3), (3, 2)], "any"),
    "bmm": (lambda m, a, b: (a @ b) ** 2, [(2, 2, 3), (3, 2)], "any"),
    "bmm broadcast": (lambda m, a, b: (a @ b) ** 2, [(2, 1, 2, 3), (2, 3, 1)], "any"),
    "batched vector": (lambda m, a, b: (a @ b) ** 2, [(2, 2, 3), (3,)], "any"),
    "addmm": (lambda m, c, a, b: m.addmm(c, a, b) ** 2, [(2,), (2, 3), (3, 2)], "any"),
    # loss
    "bce": (lambda m, z, y: _bce(m)(z, y.sigmoid()), [(2, 3), (2, 3)], "any"),
    "bce sum": (lambda m, z, y: _bce(m)(z, y.sigmoid(), reduction="sum"), [(3,), (3,)], "any"),
    "bce weights": (lambda m, z, y: _bce(m)(
        z, y.sigmoid(), weight=m.tensor([1.0, 2.0, 0.5], dtype=m.float64),
        pos_weight=m.tensor([3.0, 1.0, 0.5], dtype=m.float64), reduction="none"),
        [(2, 3), (2, 3)], "any"),
    # in place
    "add_": (_inplace("add_"), [(2, 3), (3,)], "any"),
    "sub_": (_inplace("sub_"), [(2, 3), (2, 3)], "any"),
    "mul_": (_inplace("mul_"), [(2, 3), (3,)], "any"),
    "div_": (_inplace("div_"), [(2, 3), (3,)], ("any", "nonzero")),
    "copy_": (_inplace("copy_"), [(2, 3), (3,)], "any"),
    "setitem": (_setitem, [(3, 3), (3,)], "any"),
}


def _inputs(name, seed=0):
    fn, shapes, domain = OPS[name]
    return fn, leaves(shapes, seed, domain)


@pytest.mark.parametrize("name", OPS)
def test_gradcheck(name):
    fn, (ours, _) = _inputs(name)
    assert ag.autograd.gradcheck(lambda *xs: fn(ag, *xs), tuple(ours))


@pytest.mark.parametrize("name", OPS)
def test_gradgradcheck(name):
    fn, (ours, _) = _inputs(name)
    assert ag.autograd.gradgradcheck(lambda *xs: fn(ag, *xs), tuple(ours))


def _materialize(grads, inputs, lib):
    """None (an input the output does not depend on) as zeros, for comparing."""
    return [lib.zeros_like(x) if g is None else g for g, x in zip(grads, inputs)]


def _first_and_second(m, fn, inputs, seed):
    out = fn(m, *inputs)
    upstream = m.tensor(array(tuple(out.shape), seed + 1))
    first = m.autograd.grad((out * upstream).sum(), inputs, create_graph=True,
                            allow_unused=True)
    first = _materialize(first, inputs, m)
    weights = [m.tensor(array(tuple(x.shape), seed + 2 + i)) for i, x in enumerate(inputs)]
    total = sum((g * w).sum() for g, w in zip(first, weights))
    if not total.requires_grad:  # every first derivative is a constant: second ones are 0
        return first, [m.zeros_like(x) for x in inputs]
    second = m.autograd.grad(total, inputs, allow_unused=True)
    return first, _materialize(second, inputs, m)


@pytest.mark.parametrize("name", OPS)
@pytest.mark.parametrize("seed", [0, 1])
def test_second_derivatives_match_torch(name, seed):
    fn, (ours, theirs) = _inputs(name, seed * 10)
    first_o, second_o = _first_and_second(ag, fn, ours, seed)
    first_t, second_t = _first_and_second(torch, fn, theirs, seed)
    for o, t in zip(first_o + second_o, first_t + second_t):
        assert_same(o, t, rtol=1e-8, atol=1e-10)


def test_third_and_fourth_derivatives_of_x_to_the_4th():
    """Note 001's example: derivatives of x**4 at 2 are 32, 48, 48, 24."""
    x = ag.tensor(2.0, requires_grad=True)
    y, found = x ** 4, []
    for _ in range(4):
        (y,) = ag.autograd.grad(y, x, create_graph=True)
        found.append(y.item())
    assert found == [32.0, 48.0, 48.0, 24.0]


def test_gradcheck_catches_a_wrong_backward():
    """A broken op must fail gradcheck (checks the checker on a built-in-style Function)."""

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * x  # should be 2x

    BadSquare = square(ag, backward, name="BadSquare")

    x = ag.tensor(np.array([1.0, 2.0]), requires_grad=True)
    assert not ag.autograd.gradcheck(BadSquare.apply, (x,), raise_exception=False)
