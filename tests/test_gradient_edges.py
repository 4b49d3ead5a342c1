"""Gradient edges and the checks on ``grad``/``backward`` arguments, against PyTorch:
``autograd.graph.GradientEdge``, ``get_gradient_edge``, ``Tensor.output_nr``, edges as
``inputs=``, ``materialize_grads`` with ``allow_unused``, empty ``inputs``, and a count of
``grad_outputs`` other than the count of outputs."""

from __future__ import annotations

import pytest
from oracle_helpers import assert_like_torch


def _graph(m):
    a = m.tensor([1.0, 2.0], dtype=m.float64, requires_grad=True)
    b = a * 3
    c = b.exp()
    return a, b, c, c.sum()


def test_an_edge_names_a_node_and_an_output():
    def case(m):
        a, b, c, loss = _graph(m)
        edge = m.autograd.graph.get_gradient_edge(b)
        leaf = m.autograd.graph.get_gradient_edge(a)
        return [edge.node is b.grad_fn, edge.output_nr, leaf.node.name(), leaf.output_nr,
                b.output_nr, a.output_nr, isinstance(edge, tuple), len(edge),
                edge.ownership_token]

    assert_like_torch(case)


def test_output_nr_of_a_functions_second_output():
    def case(m):
        class Two(m.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2, x * 3

            @staticmethod
            def backward(ctx, g1, g2):
                return g1 * 2 + g2 * 3

        first, second = Two.apply(m.ones(2, requires_grad=True))
        return [first.output_nr, second.output_nr,
                m.autograd.graph.get_gradient_edge(second).output_nr]

    assert_like_torch(case)


@pytest.mark.parametrize("which", ["non-leaf", "leaf", "both", "non-leaf backward",
                                   "leaf backward"])
def test_edges_as_inputs(which):
    def case(m):
        a, b, c, loss = _graph(m)
        edge_b = m.autograd.graph.get_gradient_edge(b)
        edge_a = m.autograd.graph.get_gradient_edge(a)
        if which == "non-leaf":
            return m.autograd.grad(loss, edge_b)
        if which == "leaf":
            return m.autograd.grad(loss, [edge_a])
        if which == "both":
            return m.autograd.grad(loss, [edge_b, a])
        loss.backward(inputs=[edge_b] if which == "non-leaf backward" else edge_a)
        return [a.grad, b.retains_grad]

    assert_like_torch(case)


@pytest.mark.parametrize("kwargs", [
    {"materialize_grads": True, "allow_unused": False},
    {"materialize_grads": True},
    {"materialize_grads": True, "allow_unused": True},
    {"materialize_grads": True, "create_graph": True},
    {"allow_unused": True},
    {},
], ids=["refused", "default", "allowed", "create_graph", "unused", "error"])
def test_materialize_grads_and_allow_unused(kwargs):
    def case(m):
        a, b, c, loss = _graph(m)
        unused = m.ones(2, requires_grad=True)
        grads = m.autograd.grad(loss, [a, unused], **kwargs)
        return [grads, [g is not None and g.requires_grad for g in grads]]

    assert_like_torch(case)


def test_materialized_zeros_under_create_graph_can_be_differentiated_again():
    def case(m):
        x = m.tensor([1.0, 2.0], requires_grad=True)
        z = m.tensor([3.0, 4.0], requires_grad=True)
        (g,) = m.autograd.grad((x * 2).sum(), [x, z], materialize_grads=True,
                               create_graph=True)[1:]
        return m.autograd.grad(g.sum(), x, allow_unused=True)

    assert_like_torch(case)


def test_materialize_grads_with_an_unused_edge_is_refused():
    def case(m):
        a, b, c, loss = _graph(m)
        unused = m.ones(2, requires_grad=True)
        return m.autograd.grad(loss, [m.autograd.graph.get_gradient_edge(unused)],
                               materialize_grads=True)

    assert_like_torch(case)


@pytest.mark.parametrize("call", ["grad", "backward"])
def test_empty_inputs_are_refused(call):
    def case(m):
        a, b, c, loss = _graph(m)
        if call == "grad":
            return m.autograd.grad(loss, [])
        loss.backward(inputs=[])

    assert_like_torch(case)


@pytest.mark.parametrize("count", [1, 3])
def test_grad_outputs_count(count):
    def case(m):
        a = m.tensor([1.0, 2.0], requires_grad=True)
        outputs = [(a * 2).sum(), (a * 3).sum()]
        given = [m.tensor(1.0), m.tensor(2.0), m.tensor(5.0)][:count]
        return m.autograd.grad(outputs, a, grad_outputs=given)

    assert_like_torch(case)


def test_inputs_of_another_kind_are_refused():
    assert_like_torch(lambda m: m.autograd.grad(_graph(m)[3], (1,)))


def test_get_gradient_edge_needs_requires_grad():
    assert_like_torch(lambda m: m.autograd.graph.get_gradient_edge(m.ones(1)))
