"""``as_strided`` against torch: values, the view it makes, ``AsStridedBackward0`` adding the
gradient back where elements overlap, first and second derivatives, and the out-of-bounds
error."""

from __future__ import annotations

import pytest
from oracle_helpers import assert_like_torch

import autograd_course as ag


@pytest.mark.parametrize("size, stride, offset", [
    ((2, 2), (1, 2), 1), ((3, 2), (1, 1), None), ((2, 3), (3, 1), 0), ((4,), (0,), 2),
    ((), (), 5),
])
def test_values_view_and_gradient(size, stride, offset):
    def run(m):
        x = m.arange(6.0, dtype=m.float64).requires_grad_()
        y = x.as_strided(size, stride) if offset is None else x.as_strided(size, stride, offset)
        (y * y).sum().backward()
        return [y, type(y.grad_fn).__name__, y._base is x, x.grad, y.stride()]

    assert_like_torch(run)


def test_empty_result_and_its_zero_gradient():
    def run(m):
        x = m.arange(6.0, dtype=m.float64).requires_grad_()
        y = x.as_strided((0, 3), (1, 1), 0)
        y.sum().backward()
        return [y, type(y.grad_fn).__name__, x.grad]

    assert_like_torch(run)


def test_function_form_and_views_of_rows():
    def run(m):
        row = m.arange(6.0).view(2, 3)[1]
        return [m.as_strided(m.arange(4.0), (2,), (2,)), row.as_strided((2,), (1,)),
                m.ones(2, 3).t().as_strided((2,), (1,))]

    assert_like_torch(run)


def test_writes_through_the_view_reach_the_tensor():
    def run(m):
        x = m.zeros(4)
        x.as_strided((2,), (2,), 1).fill_(7)
        return [x, x._version]

    assert_like_torch(run)


def test_out_of_bounds_is_refused():
    assert_like_torch(lambda m: m.arange(6.0).as_strided((4,), (2,), 1))


def test_second_derivative_values():
    def run(m):
        x = m.arange(6.0, dtype=m.float64).requires_grad_()
        (g,) = m.autograd.grad(x.as_strided((2, 2), (1, 1)).pow(3).sum(), x, create_graph=True)
        (gg,) = m.autograd.grad(g.sum(), x)
        return [g, gg]

    assert_like_torch(run)


def test_gradcheck_and_gradgradcheck_pass():
    x = ag.arange(8.0, dtype=ag.float64).requires_grad_()
    assert ag.autograd.gradcheck(lambda t: t.as_strided((2, 3), (1, 2), 1), [x])
    assert ag.autograd.gradgradcheck(lambda t: t.as_strided((3, 2), (2, 1), 0).pow(2), [x])
