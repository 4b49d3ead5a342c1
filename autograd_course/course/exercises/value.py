"""The reference scalar ``Value`` the learners grow in chapters 1-3 (micrograd-style).

A ``Value`` is one number that remembers how it was made: ``data``, ``grad`` (d output /
d this value, filled by the backward pass), the values it was computed from (``_prev``), and a
``_backward`` closure that applies the chain rule locally:

    out = a + b   ->  a.grad += 1 · out.grad,        b.grad += 1 · out.grad
    out = a * b   ->  a.grad += b · out.grad,        b.grad += a · out.grad
    out = a ** k  ->  a.grad += k · a^(k-1) · out.grad      (k a plain number)
    out = tanh(a) ->  a.grad += (1 - out²) · out.grad
    out = relu(a) ->  a.grad += (a > 0) · out.grad
    out = exp(a)  ->  a.grad += out · out.grad

``+=``, not ``=``: a value used twice receives one contribution per use (the bug of chapter 1).
The classes build on each other the way the chapters do: :class:`ValueAddMul` is where chapter 1
ends (numbers lifted into Values, results labelled), :class:`ValuePowTanh` adds chapter 2's
``**``, ``tanh`` and ``relu``, :class:`ValueOps` the operators built
from them (``-a``, ``a - b``, ``a / b`` through ``b ** -1``, and ``2 + a``, ``2 - a``...: no new
backward rule), and :class:`Value` adds ``exp`` and an iterative ``backward()`` (chapter 3).
Every result is made with ``type(self)``, so a learner's subclass keeps its own methods on the
values it produces. Each result records its operation in ``_op``, so ``ag.viz.draw_graph`` can
draw it. :class:`Neuron`, :class:`Layer` and :class:`MLP` are chapter 3's network on
:class:`Value`. The checkers use these as references.
"""

from __future__ import annotations

import math
from typing import Any


class ValueAddMul:
    """A scalar with ``+`` and ``*`` whose local backward rules accumulate with ``+=``."""

    def __init__(self, data: float, _children: tuple = (), _op: str = "") -> None:
        self.data = float(data)
        self.grad = 0.0
        self._prev = tuple(_children)
        self._op = _op
        self._backward = lambda: None

    def __repr__(self) -> str:
        return f"{type(self).__name__}(data={self.data:.4g}, grad={self.grad:.4g})"

    def _lift(self, other: Any) -> ValueAddMul:
        return other if isinstance(other, ValueAddMul) else type(self)(other)

    def __add__(self, other: Any) -> ValueAddMul:
        """out = self + other; d out/d self = d out/d other = 1."""
        other = self._lift(other)
        out = type(self)(self.data + other.data, (self, other), "+")

        def _backward() -> None:
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other: Any) -> ValueAddMul:
        """out = self · other; d out/d self = other, d out/d other = self."""
        other = self._lift(other)
        out = type(self)(self.data * other.data, (self, other), "*")

        def _backward() -> None:
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    __radd__ = __add__
    __rmul__ = __mul__


class ValuePowTanh(ValueAddMul):
    """Chapter 2's additions: a power with a constant exponent, and tanh."""

    def __pow__(self, k: float) -> ValuePowTanh:
        """out = self^k for a number k; d out/d self = k · self^(k-1)."""
        out = type(self)(self.data ** k, (self,), f"**{k}")

        def _backward() -> None:
            self.grad += k * self.data ** (k - 1) * out.grad

        out._backward = _backward
        return out

    def tanh(self) -> ValuePowTanh:
        """out = tanh(self); d out/d self = 1 - out²."""
        out = type(self)(math.tanh(self.data), (self,), "tanh")

        def _backward() -> None:
            self.grad += (1 - out.data ** 2) * out.grad

        out._backward = _backward
        return out

    def relu(self) -> ValuePowTanh:
        """out = max(self, 0); d out/d self = 1 where self > 0, else 0."""
        out = type(self)(max(self.data, 0.0), (self,), "relu")

        def _backward() -> None:
            self.grad += (self.data > 0) * out.grad

        out._backward = _backward
        return out


class ValueOps(ValuePowTanh):
    """Chapter 2's operators, each made of operations that already know their backward."""

    def __neg__(self) -> ValueOps:
        """-self = self · (-1)."""
        return self * -1

    def __sub__(self, other: Any) -> ValueOps:
        """self - other = self + (-other)."""
        return self + (-self._lift(other))

    def __rsub__(self, other: Any) -> ValueOps:
        """other - self, for ``2 - a`` (Python asks the right operand when int cannot)."""
        return self._lift(other) + (-self)

    def __truediv__(self, other: Any) -> ValueOps:
        """self / other = self · other^(-1)."""
        return self * self._lift(other) ** -1

    def __rtruediv__(self, other: Any) -> ValueOps:
        """other / self, for ``2 / a``."""
        return self._lift(other) * self ** -1


class Value(ValueOps):
    """The whole scalar engine: ``exp`` and a backward pass in reverse topological order."""

    def exp(self) -> Value:
        """out = e^self; d out/d self = e^self = out."""
        out = type(self)(math.exp(self.data), (self,), "exp")

        def _backward() -> None:
            self.grad += out.data * out.grad

        out._backward = _backward
        return out

    def backward(self) -> None:
        """Set d self/d self = 1, then run every ``_backward`` after all of its consumers.

        The order is a depth-first post-order (each value after everything it was made
        from), reversed; it is built with an explicit stack, so deep graphs cannot hit
        Python's recursion limit.
        """
        order: list = []
        seen: set = set()
        stack: list = [(self, False)]
        while stack:
            node, expanded = stack.pop()
            if expanded:
                order.append(node)
            elif id(node) not in seen:
                seen.add(id(node))
                stack.append((node, True))
                stack.extend((child, False) for child in node._prev)
        self.grad = 1.0
        for node in reversed(order):
            node._backward()


# --- chapter 3: a network on Value ------------------------------------------------------------
class Neuron:
    """tanh(w · x + b) (or w · x + b with ``nonlin=False``), weights drawn from ``rng``."""

    def __init__(self, n_in: int, rng: Any, nonlin: bool = True) -> None:
        self.w = [Value(rng.uniform(-1, 1)) for _ in range(n_in)]
        self.b = Value(0.0)
        self.nonlin = nonlin

    def __call__(self, x: list) -> Value:
        act = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)
        return act.tanh() if self.nonlin else act

    def parameters(self) -> list:
        return self.w + [self.b]


class Layer:
    """``n_out`` neurons that each see all ``n_in`` inputs."""

    def __init__(self, n_in: int, n_out: int, rng: Any, nonlin: bool = True) -> None:
        self.neurons = [Neuron(n_in, rng, nonlin) for _ in range(n_out)]

    def __call__(self, x: list) -> list:
        return [n(x) for n in self.neurons]

    def parameters(self) -> list:
        return [p for n in self.neurons for p in n.parameters()]


class MLP:
    """Layers of sizes ``n_in -> sizes[0] -> ... -> sizes[-1]``: tanh between, linear last."""

    def __init__(self, n_in: int, sizes: list, rng: Any) -> None:
        dims = [n_in] + list(sizes)
        self.layers = [Layer(dims[i], dims[i + 1], rng, nonlin=i < len(sizes) - 1)
                       for i in range(len(sizes))]

    def __call__(self, x: list) -> Any:
        for layer in self.layers:
            x = layer(x)
        return x[0] if len(x) == 1 else x

    def parameters(self) -> list:
        return [p for layer in self.layers for p in layer.parameters()]


def mse(model: Any, xs: Any, ys: Any) -> Value:
    """The mean squared error of ``model`` on points ``xs`` with targets ``ys`` (±1)."""
    losses = [(model(list(x)) - float(y)) ** 2 for x, y in zip(xs, ys)]
    return sum(losses[1:], losses[0]) * (1.0 / len(losses))


def train_step(model: Any, xs: Any, ys: Any, lr: float) -> Value:
    """One step of gradient descent: zero the grads, forward, backward, update. The loss."""
    for p in model.parameters():
        p.grad = 0.0
    loss = mse(model, xs, ys)
    loss.backward()
    for p in model.parameters():
        p.data -= lr * p.grad
    return loss
