"""Checks shared by the exercises on the learner's own ``Value`` (chapters 1-3) and the network
built on it in chapter 3: a class that is still its placeholder, a backward walk that does not
depend on the learner's ``backward()``, and the first of the learner's operations that
disagrees with the reference, so that a wrong training step can name the method to fix.

Every comparison runs the learner's class and the course's reference (:mod:`value`) on the same
numbers: values and gradients, a Value with a number on either side, and a value used twice.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from . import value
from ._common import Mismatch, NotAttempted, describe_exception, has_placeholder_body
from .messages import msg
from .value import Value


def require_value_class(value_cls: Any) -> None:
    """NotAttempted for a placeholder: ``...``, or a class whose ``__init__`` is still
    ``object``'s (the ``class Value: ...`` that waits for the learner's code)."""
    if value_cls is Ellipsis or value_cls is None:
        raise NotAttempted
    if getattr(value_cls, "__init__", object.__init__) is object.__init__:
        raise NotAttempted


def backprop(root: Any) -> None:
    """Run every ``_backward`` below ``root`` (with ``root.grad = 1``) in reverse topological
    order: the reference ``Value.backward()``, applied to any object with ``_prev`` and
    ``_backward`` (so the learner's own ``backward`` is not needed, nor blamed)."""
    Value.backward(root)


# method, the expression in code, the expression as a function of (a, b); at A = 1.3, B = -0.7
A, B = 1.3, -0.7
METHOD_CASES: list[tuple[str, str, Callable[[Any, Any], Any]]] = [
    ("__add__", "a + b", lambda a, b: a + b),
    ("__add__", "a + 2.0", lambda a, b: a + 2.0),
    ("__mul__", "a * b", lambda a, b: a * b),
    ("__mul__", "a * a", lambda a, b: a * a),
    ("__mul__", "a * 2.0", lambda a, b: a * 2.0),
    ("__radd__", "2.0 + a", lambda a, b: 2.0 + a),
    ("__rmul__", "2.0 * a", lambda a, b: 2.0 * a),
    ("__pow__", "a ** 2", lambda a, b: a ** 2),
    ("__pow__", "a ** -1.5", lambda a, b: a ** -1.5),
    ("__neg__", "-a", lambda a, b: -a),
    ("__sub__", "a - b", lambda a, b: a - b),
    ("__sub__", "a - 2.0", lambda a, b: a - 2.0),
    ("__rsub__", "2.0 - a", lambda a, b: 2.0 - a),
    ("__truediv__", "a / b", lambda a, b: a / b),
    ("__rtruediv__", "2.0 / a", lambda a, b: 2.0 / a),
    ("tanh", "a.tanh()", lambda a, b: a.tanh()),
    ("exp", "a.exp()", lambda a, b: a.exp()),
    ("relu", "b.relu() + a.relu()", lambda a, b: b.relu() + a.relu()),
]


def _run(value_cls: Any, op: Callable[[Any, Any], Any], walk: Callable[[Any], Any]) -> tuple:
    """(out.data, a.grad, b.grad) after ``op`` and a backward ``walk`` from its result."""
    a, b = value_cls(A), value_cls(B)
    out = op(a, b)
    walk(out)
    return float(out.data), float(a.grad), float(b.grad)


def _differs(got: tuple, want: tuple) -> bool:
    return any(not abs(g - w) <= 1e-9 * max(1.0, abs(w)) for g, w in zip(got, want))


def _fmt(numbers: tuple) -> str:
    return ", ".join(f"{n:.6g}" for n in numbers)


def first_wrong_method(value_cls: Any) -> str | None:
    """The hint for the first of the learner's operations (in :data:`METHOD_CASES` order, then
    ``backward``) whose value or gradients differ from the reference's, or None if all agree.
    Methods the class does not have (``exp``, ``relu`` are not needed to train) are skipped."""
    for method, expr, op in METHOD_CASES:
        if getattr(value_cls, method, None) is None:
            continue
        want = _run(Value, op, backprop)
        try:
            got = _run(value_cls, op, backprop)
        except Exception as e:
            return msg("ch03.payoff.method_raises", method=method, expr=expr,
                       error=describe_exception(e))
        if _differs(got, want):
            return msg("ch03.payoff.method", method=method, expr=expr, got=_fmt(got),
                       want=_fmt(want))
    expr = "(a * b + a.tanh()) * a"

    def op(a: Any, b: Any) -> Any:
        return (a * b + a.tanh()) * a

    want = _run(Value, op, backprop)
    try:
        got = _run(value_cls, op, lambda out: out.backward())
    except Exception as e:
        return msg("ch03.payoff.method_raises", method="backward", expr=expr,
                   error=describe_exception(e))
    if _differs(got, want):
        return msg("ch03.payoff.method", method="backward", expr=expr, got=_fmt(got),
                   want=_fmt(want))
    return None


# --- chapter 3: Neuron, Layer and MLP on the learner's Value ------------------------------------
def _numbers(values: Any, what: str) -> list[float]:
    """The ``data`` of each Value in ``values``: a Mismatch naming ``what`` if one is not a
    Value."""
    try:
        return [float(v.data) for v in values]
    except (AttributeError, TypeError, ValueError) as e:
        raise Mismatch(msg("ch03.net.not_values", what=what)) from e


def require_class(cls: Any, methods: tuple) -> None:
    """NotAttempted while ``cls`` is ``...`` or one of its ``methods`` is a placeholder."""
    if cls is Ellipsis or cls is None:
        raise NotAttempted
    for name in methods:
        if has_placeholder_body(getattr(cls, name, None)):
            raise NotAttempted


def neuron_forward(params: list[float], x: list[float], nonlin: bool) -> float:
    """tanh(w · x + b) (or w · x + b) with ``params`` = w..., b, in the reference's order."""
    act = sum(w * xi for w, xi in zip(params[:-1], x)) + params[-1]
    return math.tanh(act) if nonlin else act


def layer_forward(params: list[float], x: list[float], n_out: int, nonlin: bool) -> list:
    """The outputs of ``n_out`` neurons whose parameters follow each other in ``params``."""
    size = len(x) + 1
    return [neuron_forward(params[j * size:(j + 1) * size], x, nonlin) for j in range(n_out)]


def mlp_forward(params: list[float], x: list[float], sizes: list, tanh_at: Callable) -> list:
    """The outputs of an MLP with ``params`` in the reference's order (layer by layer, neuron
    by neuron, weights then bias); ``tanh_at(i)`` says whether layer i applies tanh."""
    start = 0
    for i, n_out in enumerate(sizes):
        count = n_out * (len(x) + 1)
        x = layer_forward(params[start:start + count], x, n_out, tanh_at(i))
        start += count
    return x


def close_lists(got: list, want: list) -> bool:
    return len(got) == len(want) and all(abs(g - w) <= 1e-9 * max(1.0, abs(w))
                                         for g, w in zip(got, want))


def _one_value(out: Any, what: str) -> Any:
    if not (hasattr(out, "data") and hasattr(out, "_prev")):
        raise Mismatch(msg("ch03.net.not_a_value", what=what, type=type(out).__name__))
    return out


def _parameters(obj: Any, want: int, what: str) -> list:
    params = list(obj.parameters() or [])
    if len(params) != want:
        raise Mismatch(msg("ch03.net.count", what=what, got=len(params), want=want))
    _numbers(params, what + ".parameters()")
    return params


NEURON_X = [0.5, -1.2, 0.8]


def check_neuron(neuron_cls: Any) -> None:
    """``Neuron(n_in, rng, nonlin=True)``: n_in weights then a bias in ``parameters()``;
    ``neuron(x)`` is tanh(w · x + b) (w · x + b with nonlin=False), a Value whose graph
    reaches the parameters themselves (their gradients are checked)."""
    require_class(neuron_cls, ("__init__", "__call__", "parameters"))
    rng = np.random.default_rng(7)
    x = [NEURON_X[0], NEURON_X[1], np.float64(NEURON_X[2])]  # inputs may be NumPy floats
    for nonlin in (True, False):
        neuron = neuron_cls(3, rng, nonlin=nonlin)
        params = _parameters(neuron, 4, "Neuron(3, rng)")
        data = _numbers(params, "Neuron(3, rng).parameters()")
        out = _one_value(neuron(x), "neuron(x)")
        want = neuron_forward(data, NEURON_X, nonlin)
        if close_lists([out.data], [want]):
            continue
        if close_lists([out.data], [neuron_forward(data, NEURON_X, not nonlin)]):
            raise Mismatch(msg("ch03.net.nonlin", what="Neuron", nonlin=nonlin))
        if close_lists([out.data], [neuron_forward(data[1:] + data[:1], NEURON_X, nonlin)]):
            raise Mismatch(msg("ch03.net.order"))
        raise Mismatch(msg("ch03.net.forward", what="neuron(x)", got=out.data, want=want))
    backprop(out)
    grads = [float(p.grad) for p in params]
    if all(g == 0.0 for g in grads[:-1]):  # every weight (x is not 0) left out of the graph
        raise Mismatch(msg("ch03.net.not_in_graph"))
    if not close_lists(grads, NEURON_X + [1.0]):
        raise Mismatch(msg("ch03.net.grads", what="Neuron", got=_fmt(tuple(grads)),
                           want=_fmt(tuple(NEURON_X + [1.0]))))


def check_layer(layer_cls: Any) -> None:
    """``Layer(n_in, n_out, rng, nonlin=True)``: n_out neurons on the same inputs, their
    parameters neuron after neuron; ``layer(x)`` is the list of their outputs."""
    require_class(layer_cls, ("__init__", "__call__", "parameters"))
    rng = np.random.default_rng(8)
    for nonlin in (True, False):
        layer = layer_cls(3, 2, rng, nonlin=nonlin)
        data = _numbers(_parameters(layer, 8, "Layer(3, 2, rng)"), "Layer(3, 2, rng)")
        outs = layer(NEURON_X)
        if not isinstance(outs, (list, tuple)) or len(outs) != 2:
            raise Mismatch(msg("ch03.net.layer_list", type=type(outs).__name__))
        got = _numbers([_one_value(o, "layer(x)[i]") for o in outs], "layer(x)")
        if close_lists(got, layer_forward(data, NEURON_X, 2, nonlin)):
            continue
        if close_lists(got, layer_forward(data, NEURON_X, 2, not nonlin)):
            raise Mismatch(msg("ch03.net.nonlin", what="Layer", nonlin=nonlin))
        raise Mismatch(msg("ch03.net.layer_forward", got=_fmt(tuple(got)),
                           want=_fmt(tuple(layer_forward(data, NEURON_X, 2, nonlin)))))


def check_mlp(mlp_cls: Any) -> None:
    """``MLP(n_in, sizes, rng)``: layers n_in -> sizes[0] -> ... with tanh between them and a
    linear last layer; parameters layer after layer; one output Value when sizes[-1] == 1; the
    gradients of every parameter equal the reference network's with the same weights."""
    require_class(mlp_cls, ("__init__", "__call__", "parameters"))
    sizes, x = [3, 3, 1], [0.4, -0.9]
    mlp = mlp_cls(2, sizes, np.random.default_rng(9))
    params = _parameters(mlp, 3 * 3 + 4 * 3 + 4, "MLP(2, [3, 3, 1], rng)")
    data = _numbers(params, "MLP(2, [3, 3, 1], rng)")
    out = mlp(x)
    if isinstance(out, (list, tuple)):
        raise Mismatch(msg("ch03.net.mlp_one"))
    out = _one_value(out, "mlp(x)")
    last = len(sizes) - 1
    want = mlp_forward(data, x, sizes, lambda i: i < last)[0]
    if not close_lists([out.data], [want]):
        if close_lists([out.data], mlp_forward(data, x, sizes, lambda i: True)):
            raise Mismatch(msg("ch03.net.mlp_last_tanh"))
        if close_lists([out.data], mlp_forward(data, x, sizes, lambda i: False)):
            raise Mismatch(msg("ch03.net.mlp_no_tanh"))
        raise Mismatch(msg("ch03.net.forward", what="mlp(x)", got=out.data, want=want))
    reference = value.MLP(2, sizes, np.random.default_rng(0))
    for p, d in zip(reference.parameters(), data):
        p.data = d
    backprop(out)
    backprop(reference(x))
    got = tuple(float(p.grad) for p in params)
    want_grads = tuple(p.grad for p in reference.parameters())
    if _differs(got, want_grads):
        raise Mismatch(msg("ch03.net.grads", what="MLP", got=_fmt(got), want=_fmt(want_grads)))
    wide = mlp_cls(2, [3, 2], np.random.default_rng(10))(x)
    if not isinstance(wide, (list, tuple)) or len(wide) != 2:
        raise Mismatch(msg("ch03.net.mlp_many", type=type(wide).__name__))


def payoff_ready(value_cls: Any, neuron_cls: Any, layer_cls: Any, mlp_cls: Any) -> bool:
    """Print whether every piece the payoff trains is written (no placeholder left), and say
    which exercise it waits for if not. Written, not necessarily right: the checkers judge."""
    waiting = []
    try:
        require_value_class(value_cls)
        require_class(value_cls, ("exp", "backward"))
    except NotAttempted:
        waiting.append("3.4 (Value)")
    for name, cls, ex in (("Neuron", neuron_cls, "3.4b"), ("Layer", layer_cls, "3.4c"),
                          ("MLP", mlp_cls, "3.4d")):
        try:
            require_class(cls, ("__init__", "__call__", "parameters"))
        except NotAttempted:
            waiting.append(f"{ex} ({name})")
    if waiting:
        print(msg("ch03.payoff.waiting", exercises=", ".join(waiting)))
        return False
    print(msg("ch03.payoff.ready"))
    return True
