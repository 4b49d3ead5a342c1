"""Statements about PyTorch that issue 29's corrections put into the chapters, checked on torch.

(The others are asserted in cells that the twin test runs on torch: the legacy call of a
Function instance (ch6), binary cross-entropy only approaching 0 (ch4), the note's
``(prediction - labels).sum()`` having gradient 1 everywhere (ch7).)
"""

from __future__ import annotations

import pytest

from autograd_course.course.exercises.value import ValuePowTanh


def test_ch1_complex_tensors_can_require_grad_integer_ones_cannot(torch_oracle):
    torch = torch_oracle
    assert torch.zeros(2, dtype=torch.complex64).requires_grad_().requires_grad
    assert torch.zeros(2).requires_grad_().requires_grad
    with pytest.raises(RuntimeError, match="(?i)only Tensors of floating point"):
        torch.zeros(2, dtype=torch.int64).requires_grad_()


def test_ch2_dq_dq_is_the_identity_and_ones_are_the_gradient_of_the_sum(torch_oracle):
    torch = torch_oracle
    a = torch.tensor([2.0, 3.0], requires_grad=True)
    b = torch.tensor([6.0, 4.0], requires_grad=True)
    q = 3 * a ** 3 - b ** 2
    identity = torch.autograd.functional.jacobian(lambda t: t, q.detach())
    assert torch.equal(identity, torch.eye(2))
    (ones,) = torch.autograd.grad(q.sum(), q)
    assert torch.equal(ones, torch.ones(2))


def test_ch2_entry_j_of_the_gradient_is_v_dot_column_j(torch_oracle):
    torch = torch_oracle

    def f(x):
        return torch.stack([3 * x[0] ** 2 + x[1], x[0] * x[1] ** 3])

    x = torch.tensor([1.5, -2.0], requires_grad=True)
    v = torch.tensor([1.0, 0.5])
    f(x).backward(v)
    jac = torch.autograd.functional.jacobian(f, x.detach())
    for j in range(2):
        assert torch.allclose(x.grad[j], v @ jac[:, j])


def test_ex_3_4_a_pre_order_walk_reaches_h_before_h_times_x():
    x, y = ValuePowTanh(0.3), ValuePowTanh(-0.4)
    h = x * y + x * x
    hx = h * x
    out = (hx + y ** 2).tanh() + h
    order, stack, seen = [], [out], set()
    while stack:  # exercise 3.1's walk: a value first, then its inputs
        v = stack.pop()
        if id(v) not in seen:
            seen.add(id(v))
            order.append(v)
            stack.extend(v._prev)
    assert order.index(h) < order.index(hx)  # h would run its _backward too early
