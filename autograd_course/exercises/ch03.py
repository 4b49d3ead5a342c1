"""Chapter 3 exercises: walk a graph to its leaves; predict the graph a loop builds; change a
gradient on its way with a hook; give the learner's ``Value`` ``exp`` and its own
``backward()``."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._common import (
    Mismatch,
    NotAttempted,
    call_learner,
    checker,
    has_placeholder_body,
    random_inputs,
    require_attempt,
    returned_none,
    to_numpy,
)


def _graphs():
    """Graphs with the traps a walk can fall into: shared leaves, constants, diamonds."""
    from .. import tensor

    def chain():
        a, b = random_inputs((3,), (3,))
        return ((a * b).exp() + a).sum(), [a, b]

    def diamond():
        (x,) = random_inputs((2,))
        h = x * 2
        return (h.sin() * h.cos()).sum(), [x]

    def with_constants():
        w, bias = random_inputs((3, 2), (2,))
        data = tensor(np.ones((4, 3)))  # no requires_grad: not a leaf of the graph
        return ((data @ w + bias) ** 2).mean(), [w, bias]

    def deep():
        (x,) = random_inputs((1,))
        y = x
        for _ in range(3000):  # too deep for a recursive walk
            y = y * 1.0001
        return y.sum(), [x]

    return [("a * b chain", chain), ("diamond (x used twice)", diamond),
            ("layer with constant data", with_constants), ("3000-step chain", deep)]


def _same_set(found: list, expected: list) -> str | None:
    ids = [id(t) for t in found]
    if len(ids) != len(set(ids)):
        return "you returned the same leaf more than once: remember which nodes you visited"
    want = {id(t) for t in expected}
    if set(ids) - want:
        return "you returned a tensor that is not a leaf requiring grad"
    if want - set(ids):
        return f"you missed {len(want - set(ids))} leaf/leaves: follow every entry of " \
               "next_functions, not just the first"
    return None


@checker
def check_find_leaves(find_leaves: Any) -> None:
    """Exercise 3.1: ``find_leaves(t)`` returns each leaf tensor t depends on, once."""
    require_attempt(find_leaves)
    from ..autograd.function import Node
    from ..tensor import Tensor

    for description, build in _graphs():
        root, leaves = build()
        try:
            found = call_learner(find_leaves, root)
        except RecursionError as e:
            raise Mismatch(f"{description}: RecursionError; walk with an explicit stack "
                           "(a list you append to and pop from) instead of recursion") from e
        found = list(found)
        if any(isinstance(t, Node) for t in found):
            raise Mismatch("you returned graph nodes; the leaf tensor of an AccumulateGrad "
                           "node is node.variable")
        if not all(isinstance(t, Tensor) for t in found):
            raise Mismatch("return a list of tensors (the leaves)")
        problem = _same_set(found, leaves)
        if problem:
            raise Mismatch(f"{description}: {problem}")


def _loop(x):
    y = x
    while y.sum() < 100:
        y = y * 2
    return y


LOOP_X = [1.0, 2.0]


@checker
def check_loop_graph(n_mul_nodes: Any, x_grad: Any) -> None:
    """Exercise 3.2: how many MulBackward0 nodes does the loop record for x = [1., 2.], and
    what is x.grad after ``y.sum().backward()``?"""
    require_attempt(n_mul_nodes)
    require_attempt(x_grad)
    from .. import tensor
    from ._common import compare_tensors

    x = tensor(LOOP_X, requires_grad=True)
    y = _loop(x)
    n = 0
    node = y.grad_fn
    while node is not None and node.name() == "MulBackward0":
        n += 1
        node = node.next_functions[0][0]
    y.sum().backward()
    if not isinstance(n_mul_nodes, (int, np.integer)) or isinstance(n_mul_nodes, bool):
        raise Mismatch("n_mul_nodes should be a whole number")
    if n_mul_nodes != n:
        direction = "few" if n_mul_nodes < n else "many"
        raise Mismatch(f"too {direction} nodes: the loop keeps doubling while y.sum() < 100; "
                       "count the doublings (one MulBackward0 each)")
    compare_tensors(x_grad, x.grad, "your x.grad")


# --- hooks ---------------------------------------------------------------------------------
CLIP = 1.0


@checker
def check_clip_hook(clip_hook: Any) -> None:
    """Exercise 3.3: a tensor hook that clips the gradient passing through h to [-1, 1].

    With h = 3x, L = sum(h²) and the hook on h: x.grad = 3 · clip(2h, -1, 1).
    """
    require_attempt(clip_hook)
    if has_placeholder_body(clip_hook):
        raise NotAttempted
    from .. import float64, tensor

    rng = np.random.default_rng()
    big = rng.uniform(0.2, 1.0, size=3) * np.array([1.0, -1.0, -1.0])  # |2h| > 1: clipped
    small = rng.uniform(-0.15, 0.15, size=3)                           # |2h| < 1: kept
    x = tensor(rng.permutation(np.concatenate([big, small])), dtype=float64,
               requires_grad=True)
    h = x * 3
    h.register_hook(clip_hook)
    (h ** 2).sum().backward()
    upstream = 2 * to_numpy(h)
    got = to_numpy(x.grad)
    if np.allclose(got, 3 * upstream):
        raise Mismatch("the gradient came through unchanged: a hook must *return* the new "
                       "gradient (returning None keeps the old one)")
    if np.allclose(got, 3 * np.clip(upstream, 0, CLIP)) or \
            np.allclose(got, 3 * np.minimum(upstream, CLIP)):
        raise Mismatch("clip both ways: negative gradients below -1 become -1 "
                       "(grad.clamp(-1, 1))")
    want = 3 * np.clip(upstream, -CLIP, CLIP)
    if not np.allclose(got, want):
        raise Mismatch(f"x.grad is {np.round(got, 4).tolist()}, expected "
                       f"{np.round(want, 4).tolist()}: return grad.clamp(-1, 1)")


# --- the learner's Value: exp and backward() ------------------------------------------------
def _value_expression(value_cls, x0: float, y0: float):
    x, y = value_cls(x0), value_cls(y0)
    h = x * y + x.exp()
    out = (h * x + y ** 2).tanh() + h
    return x, y, out


def _tensor_expression(x0: float, y0: float) -> tuple[float, float]:
    from .. import float64, tensor

    x = tensor(x0, dtype=float64, requires_grad=True)
    y = tensor(y0, dtype=float64, requires_grad=True)
    h = x * y + x.exp()
    ((h * x + y ** 2).tanh() + h).backward()
    return x.grad.item(), y.grad.item()


@checker
def check_value_backward(value_cls: Any) -> None:
    """Exercise 3.4: ``Value.exp()`` and ``Value.backward()``: out.backward() fills every
    value's grad, compared with the package's tensors on the same expression."""
    require_attempt(value_cls)
    for method in ("exp", "backward"):
        if has_placeholder_body(getattr(value_cls, method, None)):
            raise NotAttempted
    x = value_cls(0.5)
    e = x.exp()
    if e is None:
        raise returned_none(value_cls.exp)
    if abs(e.data - np.exp(0.5)) > 1e-12:
        raise Mismatch(f"exp() at 0.5 gave {e.data:.6g}, expected {np.exp(0.5):.6g}")
    e.grad = 2.0
    e._backward()
    if abs(x.grad - 2.0 * np.exp(0.5)) > 1e-9:
        raise Mismatch("exp's _backward: d/dx e^x = e^x, so x.grad += out.data * out.grad")
    rng = np.random.default_rng()
    for _ in range(3):
        x0, y0 = rng.uniform(-1, 1, size=2)
        x, y, out = _value_expression(value_cls, x0, y0)
        result = out.backward()
        if result is not None:
            raise Mismatch("backward() should fill the .grad fields and return nothing")
        want_x, want_y = _tensor_expression(x0, y0)
        if out.grad != 1.0:
            raise Mismatch("backward() must start with self.grad = 1 (d out/d out)")
        if abs(x.grad - want_x) > 1e-9 or abs(y.grad - want_y) > 1e-9:
            raise Mismatch(
                f"x.grad, y.grad = {x.grad:.6g}, {y.grad:.6g}, expected {want_x:.6g}, "
                f"{want_y:.6g}: every _backward must run once, and only after all the values "
                "that use its output have run theirs (reverse topological order)")
    deep = value_cls(1.0)
    top = deep
    for _ in range(3000):
        top = top * 1.0
    try:
        top.backward()
    except RecursionError as err:
        raise Mismatch("a 3000-step chain raised RecursionError: build the order with an "
                       "explicit stack instead of recursion") from err
    if abs(deep.grad - 1.0) > 1e-9:
        raise Mismatch(f"on a 3000-step chain of `* 1.0` the first value got grad {deep.grad:g}"
                       ", expected 1")
