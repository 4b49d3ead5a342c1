"""``bernoulli``/``bernoulli_`` against torch: the same seed gives PyTorch's zeros and ones
(probabilities from a float32 or float64 tensor, or one number), the node and its zero
gradient, the dtypes, and the errors."""

from __future__ import annotations

import pytest
from oracle_helpers import assert_like_torch


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_probabilities_from_the_tensor(dtype):
    def run(m):
        m.manual_seed(0)
        p = m.rand(40, dtype=getattr(m, dtype)).requires_grad_()
        m.manual_seed(1)
        draws = p.bernoulli()
        draws.sum().backward()
        m.manual_seed(2)
        return [draws, type(draws.grad_fn).__name__, p.grad, m.bernoulli(p.detach())]

    assert_like_torch(run)


@pytest.mark.parametrize("self_dtype, p_dtype", [("float32", "float32"), ("float64", "float32"),
                                                 ("float32", "float64")])
def test_in_place_with_a_number_or_a_tensor(self_dtype, p_dtype):
    def run(m):
        m.manual_seed(3)
        p = m.rand(30, dtype=getattr(m, p_dtype))
        m.manual_seed(4)
        with_tensor = m.zeros(30, dtype=getattr(m, self_dtype)).bernoulli_(p)
        with_number = m.zeros(30, dtype=getattr(m, self_dtype)).bernoulli_(0.3)
        return [with_tensor, with_number, m.BoolTensor(3, 4).bernoulli_(),
                m.zeros(5, dtype=m.int64).bernoulli_(0.5), m.bernoulli(m.zeros(6), 0.5)]

    assert_like_torch(run)


def test_errors():
    def leaf(m):
        return m.rand(3, requires_grad=True).bernoulli_(0.5)

    def out_of_range(m):
        return m.zeros(3).bernoulli_(1.5)

    def integer_probabilities(m):
        return m.ones(3).int().bernoulli()

    for case in (leaf, out_of_range, integer_probabilities):
        assert_like_torch(case)
