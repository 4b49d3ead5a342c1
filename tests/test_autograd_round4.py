"""Fourth round of autograd details PyTorch's own TestAutograd checks, in our own words and
compared with torch where the behaviour is PyTorch's: batched gradients in ``autograd.grad``,
a ``GradientEdge`` as where a backward pass starts, ``autograd._functions.Resize``,
``Tensor.set_`` and the leaf's renewed gradient accumulator, and a leaf's ``grad_dtype``.
"""

from __future__ import annotations

import warnings

import pytest
from oracle_helpers import assert_like_torch


# --- is_grads_batched (test_grad_batched_grad) ---------------------------------------------
def test_batched_grad_outputs_give_one_gradient_per_row(torch_oracle):
    def case(m):
        x = m.tensor([[1.0, -2.0], [0.5, 3.0]], requires_grad=True)
        out = x * x  # d out / dx = 2x, elementwise
        rows = m.arange(3.0).reshape(3, 1, 1) * m.ones(3, 2, 2)  # row b: all b
        (batched,) = m.autograd.grad(out, x, rows, is_grads_batched=True)
        (scalar,) = m.autograd.grad(x.sum(), (x,), (m.arange(3),), is_grads_batched=True)
        return [batched, scalar, str(batched.dtype), batched.requires_grad]

    assert_like_torch(case)


def test_batched_grad_of_several_inputs_and_outputs(torch_oracle):
    def case(m):
        a = m.tensor([1.0, 2.0], requires_grad=True)
        b = m.tensor([3.0, -1.0], requires_grad=True)
        outs = (a * b, (a + b).sum())
        grads = (m.tensor([[1.0, 0.0], [0.0, 1.0], [2.0, 2.0]]), m.tensor([1.0, 0.0, -1.0]))
        return list(m.autograd.grad(outs, (a, b), grads, is_grads_batched=True))

    assert_like_torch(case)


def test_batched_grad_can_be_differentiated_again(torch_oracle):
    def case(m):
        x = m.tensor([1.0, 2.0, -1.0], requires_grad=True)
        out = x ** 3
        (g,) = m.autograd.grad(out, x, m.eye(3), create_graph=True, is_grads_batched=True)
        (gg,) = m.autograd.grad(g.sum(), x)  # d/dx of the trace-like sum of 3x^2 rows
        return [g, g.requires_grad, gg]

    assert_like_torch(case)


@pytest.mark.parametrize("grad_shape, scalar", [((2, 2), False), ((2, 1), True), ((3, 2), False)])
def test_batched_grad_shape_mismatch_names_the_batch_dimension(torch_oracle, grad_shape, scalar):
    """Without the batch dimension the gradient's shape must be the output's: a scalar output
    and a one-element gradient row are a mismatch, as without batching."""
    def case(m):
        x = m.ones(2, 2, requires_grad=True)
        out = x.sum() if scalar else x.clone()
        return m.autograd.grad(out, (x,), (m.ones(*grad_shape),), is_grads_batched=True)

    assert_like_torch(case)


def test_only_inputs_false_is_ignored_with_pytorchs_warning(torch_oracle):
    def case(m):
        x = m.tensor([1.0, 2.0], requires_grad=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            (g,) = m.autograd.grad((x * x).sum(), x, only_inputs=False)
        return [g, [f"{w.category.__name__}: {w.message}" for w in caught]]

    assert_like_torch(case)


# --- a GradientEdge as a root (test_gradient_edge_graph_ownership) --------------------------
@pytest.mark.parametrize("custom", [False, True])
def test_backward_can_start_at_a_gradient_edge_after_its_tensor_is_gone(torch_oracle, custom):
    def case(m):
        class Clone(m.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x.clone()

            @staticmethod
            def backward(ctx, g):
                return g * 3

        leaf = m.tensor([2.0], requires_grad=True)
        inp = leaf * 1
        out = Clone.apply(inp) if custom else inp * 5
        edge = m.autograd.graph.get_gradient_edge(out)
        m.autograd.backward(edge)  # the implicit gradient: ones of the shape the node recorded
        del out  # the edge holds the node, not the tensor
        m.autograd.backward(edge)
        first = leaf.grad.clone()
        (g,) = m.autograd.grad(edge, leaf, m.tensor([2.0]))
        return [first, g, str(g.dtype)]

    assert_like_torch(case)


@pytest.mark.parametrize("grad", [None, "ones3", "long"])
def test_a_gradient_edge_root_is_checked_like_a_tensor(torch_oracle, grad):
    def case(m):
        x = m.ones(2, 2, requires_grad=True)
        edge = m.autograd.graph.get_gradient_edge(x.clone())
        given = {None: None, "ones3": m.ones(3), "long": m.ones(2, 2, dtype=m.int64)}[grad]
        return m.autograd.grad(edge, x, given)

    assert_like_torch(case)
