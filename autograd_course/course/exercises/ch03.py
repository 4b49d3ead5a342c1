"""Chapter 3 exercises: walk a graph to its leaves; predict the graph a loop builds; change a
gradient on its way with a hook; give the learner's ``Value`` ``exp`` and its own
``backward()``; build ``Neuron``, ``Layer`` and ``MLP`` on it (the work is in
:mod:`value_checks`); one training step of that network, against the package's."""

from __future__ import annotations

import ast
import inspect
import textwrap
from typing import Any, Callable

import numpy as np

from ... import Tensor, float64, tensor
from ...autograd.function import Node
from . import value, value_checks
from ._common import (
    Mismatch,
    NotAttempted,
    call_learner,
    checker,
    compare_tensors,
    has_placeholder_body,
    random_inputs,
    require_attempt,
    returned_none,
    to_numpy,
)
from ._visit_counter import VISITS_PER_NODE, TooManyVisits, count_visits
from .messages import msg
from .value_checks import payoff_ready  # noqa: F401 (the payoff's cells call ch03.payoff_ready)


def _graphs() -> list[tuple[str, Callable[[], tuple[Any, list]]]]:
    """Graphs with the traps a walk can fall into: shared leaves, constants, diamonds.

    Each comes with the key of its description in the message catalogues.
    """
    def chain() -> tuple[Any, list]:
        a, b = random_inputs((3,), (3,))
        return ((a * b).exp() + a).sum(), [a, b]

    def diamond() -> tuple[Any, list]:
        (x,) = random_inputs((2,))
        h = x * 2
        return (h.sin() * h.cos()).sum(), [x]

    def with_constants() -> tuple[Any, list]:
        w, bias = random_inputs((3, 2), (2,))
        data = tensor(np.ones((4, 3)))  # no requires_grad: not a leaf of the graph
        return ((data @ w + bias) ** 2).mean(), [w, bias]

    def deep() -> tuple[Any, list]:
        (x,) = random_inputs((1,))
        y = x
        for _ in range(3000):  # too deep for a recursive walk
            y = y * 1.0001
        return y.sum(), [x]

    def doubling() -> tuple[Any, list]:
        (x,) = random_inputs((2,))
        y = x
        for _ in range(DOUBLINGS):  # 2**20 paths from the root to x: a walk must not try each
            y = y + y
        return y.sum(), [x]

    return [("ch03.graph.chain", chain), ("ch03.graph.diamond", diamond),
            ("ch03.graph.constants", with_constants), ("ch03.graph.deep", deep),
            ("ch03.graph.doubling", doubling)]


DOUBLINGS = 20
def _same_set(found: list, expected: list) -> str | None:
    ids = [id(t) for t in found]
    if len(ids) != len(set(ids)):
        return msg("ch03.leaves.twice")
    want = {id(t) for t in expected}
    if set(ids) - want:
        return msg("ch03.leaves.not_a_leaf")
    if want - set(ids):
        return msg("ch03.leaves.missed", n=len(want - set(ids)))
    return None


@checker
def check_find_leaves(find_leaves: Any) -> None:
    """Exercise 3.1: ``find_leaves(t)`` returns each leaf tensor t depends on, once."""
    require_attempt(find_leaves)
    for key, build in _graphs():
        description = msg(key)
        root, leaves = build()
        n_nodes = count_visits(root) if key == "ch03.graph.doubling" else 0
        try:
            found = call_learner(find_leaves, root)
        except RecursionError as e:
            raise Mismatch(msg("ch03.leaves.recursion", graph=description)) from e
        except TooManyVisits as e:
            raise Mismatch(msg("ch03.leaves.revisits", graph=description, nodes=n_nodes,
                               limit=VISITS_PER_NODE * n_nodes)) from e
        found = list(found)
        if any(isinstance(t, Node) for t in found):
            raise Mismatch(msg("ch03.leaves.nodes"))
        if not all(isinstance(t, Tensor) for t in found):
            raise Mismatch(msg("ch03.leaves.not_tensors"))
        problem = _same_set(found, leaves)
        if problem:
            raise Mismatch(msg("ch03.leaves.in_graph", graph=description, problem=problem))


def _loop(x: Any) -> Any:
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
    x = tensor(LOOP_X, requires_grad=True)
    y = _loop(x)
    n = 0
    node = y.grad_fn
    while node is not None and node.name() == "MulBackward0":
        n += 1
        node = node.next_functions[0][0]
    y.sum().backward()
    if not isinstance(n_mul_nodes, (int, np.integer)) or isinstance(n_mul_nodes, bool):
        raise Mismatch(msg("ch03.loop.not_int"))
    if n_mul_nodes != n:
        raise Mismatch(msg("ch03.loop.too_few" if n_mul_nodes < n else "ch03.loop.too_many"))
    compare_tensors(x_grad, x.grad, msg("ch01.predict.name"))


# --- hooks ---------------------------------------------------------------------------------
CLIP = 1.0


def _says_return(fn: Any) -> bool:
    """Does ``fn``'s source contain a ``return`` statement? (``return None`` compiles to the
    same bytecode as an empty body, so only the source tells them apart.)"""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):
        return False
    return any(isinstance(node, ast.Return) for node in ast.walk(tree))


@checker
def check_clip_hook(clip_hook: Any) -> None:
    """Exercise 3.3: a tensor hook that clips the gradient passing through h to [-1, 1].

    With h = 3x, L = sum(h²) and the hook on h: x.grad = 3 · clip(2h, -1, 1).
    """
    require_attempt(clip_hook)
    if has_placeholder_body(clip_hook):
        if _says_return(clip_hook):  # `return None` is an answer (a wrong one), not a blank
            raise Mismatch(msg("ch03.hook.unchanged"))
        raise NotAttempted
    probe = tensor([-3.0, -0.5, 0.5, 3.0], dtype=float64)
    clip_hook(probe)
    if probe.tolist() != [-3.0, -0.5, 0.5, 3.0]:
        raise Mismatch(msg("ch03.hook.in_place"))
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
        raise Mismatch(msg("ch03.hook.unchanged"))
    if np.allclose(got, 3 * np.clip(upstream, 0, CLIP)) or \
            np.allclose(got, 3 * np.minimum(upstream, CLIP)):
        raise Mismatch(msg("ch03.hook.one_way"))
    want = 3 * np.clip(upstream, -CLIP, CLIP)
    if not np.allclose(got, want):
        raise Mismatch(msg("ch03.hook.wrong", got=np.round(got, 4).tolist(),
                           want=np.round(want, 4).tolist()))


# --- the learner's Value: exp and backward() ------------------------------------------------
def _value_expression(value_cls: Any, x0: float, y0: float) -> tuple[Any, Any, Any]:
    x, y = value_cls(x0), value_cls(y0)
    h = x * y + x.exp()
    out = (h * x + y ** 2).tanh() + h
    return x, y, out


def _tensor_expression(x0: float, y0: float) -> tuple[float, float]:
    x = tensor(x0, dtype=float64, requires_grad=True)
    y = tensor(y0, dtype=float64, requires_grad=True)
    h = x * y + x.exp()
    ((h * x + y ** 2).tanh() + h).backward()
    return x.grad.item(), y.grad.item()


def _check_duplicate_edge(value_cls: Any, x0: float) -> None:
    """out = h.tanh() + h * h with h = 2x: the node h * h has h twice in its ``_prev``, two
    edges into h, so h must wait for both of them and for h.tanh()."""
    x = value_cls(x0)
    h = x * 2
    out = h.tanh() + h * h
    out.backward()
    t = tensor(x0, dtype=float64, requires_grad=True)
    th = t * 2
    (th.tanh() + th * th).backward()
    if abs(x.grad - t.grad.item()) > 1e-9 * max(1.0, abs(t.grad.item())):
        raise Mismatch(msg("ch03.backward.duplicate_edge", got=x.grad, want=t.grad.item()))


@checker
def check_value_backward(value_cls: Any) -> None:
    """Exercise 3.4: ``Value.exp()`` and ``Value.backward()``: out.backward() fills every
    value's grad, compared with the package's tensors on the same expression."""
    value_checks.require_value_class(value_cls)
    for method in ("exp", "backward"):
        if has_placeholder_body(getattr(value_cls, method, None)):
            raise NotAttempted
    x = value_cls(0.5)
    e = x.exp()
    if e is None:
        raise returned_none(value_cls.exp)
    if abs(e.data - np.exp(0.5)) > 1e-12:
        raise Mismatch(msg("ch03.exp.forward", got=e.data, want=np.exp(0.5)))
    x.grad = 1.0  # as if x had already received a gradient from another use
    e.grad = 2.0
    e._backward()
    if abs(x.grad - 2.0 * np.exp(0.5)) < 1e-9:
        raise Mismatch(msg("ch03.exp.overwrites"))
    if abs(x.grad - (1.0 + 2.0 * np.exp(0.5))) > 1e-9:
        raise Mismatch(msg("ch03.exp.backward"))
    rng = np.random.default_rng()
    for _ in range(3):
        x0, y0 = rng.uniform(-1, 1, size=2)
        x, y, out = _value_expression(value_cls, x0, y0)
        result = out.backward()
        if result is not None:
            raise Mismatch(msg("ch03.backward.returns"))
        want_x, want_y = _tensor_expression(x0, y0)
        if out.grad != 1.0:
            raise Mismatch(msg("ch03.backward.start"))
        if abs(x.grad - want_x) > 1e-9 or abs(y.grad - want_y) > 1e-9:
            raise Mismatch(msg("ch03.backward.order", x_grad=x.grad, y_grad=y.grad,
                               want_x=want_x, want_y=want_y))
    _check_duplicate_edge(value_cls, float(rng.uniform(0.3, 1.0)))
    deep = value_cls(1.0)
    top = deep
    for _ in range(3000):
        top = top * 1.0
    try:
        top.backward()
    except RecursionError as err:
        raise Mismatch(msg("ch03.backward.recursion")) from err
    if abs(deep.grad - 1.0) > 1e-9:
        raise Mismatch(msg("ch03.backward.deep", got=deep.grad))


# --- a training step on the learner's network ----------------------------------------------------
STEP_LR = 0.1
STALE_GRAD = 0.5  # what the previous step left in every .grad


def _step_problem() -> tuple:
    """Six points, their ±1 targets, and a small MLP on the course's Value (fixed weights)."""
    rng = np.random.default_rng(3)
    xs = rng.uniform(-1, 1, size=(6, 2))
    ys = np.where(xs[:, 0] * xs[:, 1] > 0, 1.0, -1.0)
    return xs, ys, value.MLP(2, [3, 1], rng)


@checker
def check_train_step(train_step: Any) -> None:
    """Exercise 3.5: ``train_step(model, xs, ys, lr)``: zero every parameter's grad, compute
    ``mse``, run ``backward()``, move every parameter by ``-lr * grad``, return the loss.

    Every ``.grad`` starts at a stale 0.5 (left by a previous step), so a step that forgets to
    zero them moves the parameters by the wrong amount at once.
    """
    require_attempt(train_step)
    xs, ys, model = _step_problem()
    _, _, reference = _step_problem()
    for p in model.parameters() + reference.parameters():
        p.grad = STALE_GRAD
    before = np.array([p.data for p in model.parameters()])
    loss = call_learner(train_step, model, xs, ys, STEP_LR)
    want_loss = value.train_step(reference, xs, ys, STEP_LR)
    grads = np.array([p.grad for p in reference.parameters()])
    got = np.array([p.data for p in model.parameters()])
    if np.allclose(got, before, rtol=0, atol=1e-12):
        if all(p.grad == 0.0 for p in model.parameters()):
            raise Mismatch(msg("ch03.step.zeroed_late"))
        raise Mismatch(msg("ch03.step.no_update"))
    if np.allclose(got, before - STEP_LR * (grads + STALE_GRAD), rtol=0, atol=1e-9):
        raise Mismatch(msg("ch03.step.zero_grad"))
    if np.allclose(got, before + STEP_LR * grads, rtol=0, atol=1e-9):
        raise Mismatch(msg("ch03.step.sign"))
    if np.allclose(got, before - grads, rtol=0, atol=1e-9):
        raise Mismatch(msg("ch03.step.lr"))
    if not np.allclose(got, before - STEP_LR * grads, rtol=0, atol=1e-9):
        raise Mismatch(msg("ch03.step.wrong"))
    try:  # the loss Value, or its number (loss.data), as the chapter's train() keeps it
        got_loss = float(getattr(loss, "data", loss))
    except (TypeError, ValueError):
        got_loss = float("nan")
    if not abs(got_loss - want_loss.data) <= 1e-9:
        raise Mismatch(msg("ch03.step.loss", want=want_loss.data))


# --- chapter 3's network on the learner's Value ------------------------------------------------
@checker
def check_neuron(neuron_cls: Any) -> None:
    """Exercise 3.4b: see :func:`value_checks.check_neuron`."""
    value_checks.check_neuron(neuron_cls)


@checker
def check_layer(layer_cls: Any) -> None:
    """Exercise 3.4c: see :func:`value_checks.check_layer`."""
    value_checks.check_layer(layer_cls)


@checker
def check_mlp(mlp_cls: Any) -> None:
    """Exercise 3.4d: see :func:`value_checks.check_mlp`."""
    value_checks.check_mlp(mlp_cls)


@checker
def check_same_step(model: Any, loss_gap: float, parameter_gap: float) -> None:
    """The payoff: one step of the learner's loop and of the package agree within 1e-12 (loss
    and every parameter). If not, name the first operation of the learner's Value that differs
    from the reference; if they all agree, the network or the loop is to blame."""
    if loss_gap <= 1e-12 and parameter_gap <= 1e-12:
        return
    hint = value_checks.first_wrong_method(type(model.parameters()[0]))
    raise Mismatch(hint or msg("ch03.payoff.step", loss_gap=loss_gap, gap=parameter_gap))
