"""``searchsorted``, ``bucketize`` and the ``unique`` family against torch: values, dtypes,
errors, and what of their results requires grad (PyTorch's test_integer_outputs)."""

from __future__ import annotations

import numpy as np
import pytest
from oracle_helpers import assert_like_torch

import autograd_course as ag
from autograd_course.compat import _VF

SEQ = [1.0, 3.0, 3.0, 5.0, 7.0, 9.0]
VALUES = [[3.0, 6.0, 9.0, 0.0], [10.0, 1.0, 3.0, 5.5]]


@pytest.mark.parametrize("kwargs", [
    {}, {"right": True}, {"side": "left"}, {"side": "right"}, {"out_int32": True},
    {"side": "right", "right": True}, {"side": "right", "right": False, "out_int32": True}])
def test_searchsorted_left_and_right_sides_and_int32(torch_oracle, kwargs):
    def case(m):
        out = m.searchsorted(m.tensor(SEQ), m.tensor(VALUES), **kwargs)
        return [out, str(out.dtype)]

    assert_like_torch(case)


@pytest.mark.parametrize("call", [
    lambda m: m.searchsorted(m.tensor(SEQ), 4),  # a Python number: a 0-d result
    lambda m: m.searchsorted(m.tensor(SEQ), 3.0, right=True),
    lambda m: m.searchsorted(m.tensor(SEQ), m.tensor(7.0)),
    lambda m: m.searchsorted(m.tensor([[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]]),  # row by row
                             m.tensor([[3.0, 0.0], [3.0, 7.0]])),
    lambda m: m.searchsorted(m.tensor([1, 3, 5]), m.tensor([2.5, 4.0])),  # int sequence
    lambda m: m.searchsorted(m.tensor([1.0, 3.0, 5.0]), m.tensor([2, 4])),
    lambda m: m.searchsorted(m.tensor([1.0, 3.0], dtype=m.float64), m.tensor([2.0])),
    lambda m: m.searchsorted(m.tensor([]), m.tensor([2.0, -1.0])),  # an empty sequence
    lambda m: m.searchsorted(m.tensor([1.0, 3.0]), m.tensor([m.nan, 2.0])),  # NaN at the end
    lambda m: m.searchsorted(m.tensor([1.0, m.nan]), m.tensor([m.nan, 2.0]), right=True),
    lambda m: m.searchsorted(m.tensor([5.0, 1.0, 3.0]), m.tensor([2.0, 4.0, 6.0]),
                             sorter=m.tensor([1, 2, 0])),
    lambda m: m.searchsorted(m.tensor([[5.0, 1.0], [0.0, 2.0]]), m.tensor([[2.0], [1.0]]),
                             sorter=m.tensor([[1, 0], [0, 1]]), side="right"),
])
def test_searchsorted_values_and_dtypes(torch_oracle, call):
    assert_like_torch(lambda m: [call(m), str(call(m).dtype)])


@pytest.mark.parametrize("call", [
    lambda m: m.searchsorted(m.tensor(SEQ), m.tensor([1.0]), side="left", right=True),
    lambda m: m.searchsorted(m.tensor(SEQ), m.tensor([1.0]), side="middle"),
    lambda m: m.searchsorted(m.tensor([[1.0, 3.0], [2.0, 4.0]]), 4),
    lambda m: m.searchsorted(m.tensor([[1.0, 3.0], [2.0, 4.0]]), m.tensor([[1.0, 3.0, 5.0]])),
    lambda m: m.searchsorted(m.tensor([[1.0, 3.0], [2.0, 4.0]]), m.tensor([1.0, 3.0])),
    lambda m: m.searchsorted(m.tensor(1.0), m.tensor([2.0])),
    lambda m: m.searchsorted(m.tensor([5.0, 1.0]), m.tensor([2.0]),
                             sorter=m.tensor([1, 0], dtype=m.int32)),
    lambda m: m.searchsorted(m.tensor([5.0, 1.0]), m.tensor([2.0]), sorter=m.tensor([1])),
    lambda m: m.searchsorted(m.tensor([5.0, 1.0]), m.tensor([2.0]), sorter=m.tensor([1, 2])),
    lambda m: m.searchsorted(m.tensor([True, False]), m.tensor([True])),
    lambda m: m.bucketize(m.tensor([1.0]), m.tensor([[1.0, 3.0], [2.0, 4.0]])),
    lambda m: m.bucketize(m.tensor([1.0]), m.tensor(1.0)),
])
def test_searchsorted_and_bucketize_errors(torch_oracle, call):
    assert_like_torch(call)


@pytest.mark.parametrize("kwargs", [{}, {"right": True}, {"out_int32": True}])
def test_bucketize_is_searchsorted_the_other_way_round(torch_oracle, kwargs):
    def case(m):
        boundaries = m.tensor([0.0, 0.25, 0.5, 0.75, 1.0])
        values = m.tensor([[0.25, 0.1, 0.8], [1.0, -2.0, 0.5]])
        out = m.bucketize(values, boundaries, **kwargs)
        return [out, str(out.dtype), m.bucketize(0.5, boundaries, **kwargs)]

    assert_like_torch(case)


def test_searchsorted_agrees_with_torch_on_random_sequences(torch_oracle):
    rng = np.random.default_rng(0)
    for _ in range(20):
        seq = np.sort(rng.integers(-5, 5, size=(3, int(rng.integers(1, 9))))).astype(float)
        values = rng.integers(-6, 6, size=(3, 5)).astype(float)
        for right in (False, True):
            def case(m, seq=seq, values=values, right=right):
                return [m.searchsorted(m.tensor(seq), m.tensor(values), right=right),
                        m.searchsorted(m.tensor(seq[0]), m.tensor(values), right=right)]

            assert_like_torch(case)


def test_the_out_keyword_receives_the_indices(torch_oracle):
    def case(m):
        out = m.zeros(2, dtype=m.int64)
        returned = m.searchsorted(m.tensor([1.0, 2.0, 3.0]), m.tensor([2.5, 0.0]), out=out)
        into = m.zeros(2, dtype=m.int64)
        m.bucketize(m.tensor([2.5, 0.0]), m.tensor([1.0, 2.0, 3.0]), right=True, out=into)
        return [returned is out, out, into]

    assert_like_torch(case)


def test_integer_outputs_never_require_grad_unique_values_do(torch_oracle):
    """What PyTorch's test_integer_outputs checks: indices and counts made from a tensor that
    requires grad do not require grad; unique's values do (they are recorded)."""
    def case(m):
        inp = m.tensor([0.5, 0.25, 0.5, 0.75], requires_grad=True)
        seen = [m.searchsorted(inp, m.tensor(0.3, requires_grad=True)).requires_grad,
                m.bucketize(m.tensor([0.3], requires_grad=True), inp).requires_grad]
        for sorted_ in (True, False):
            for inverse in (True, False):
                for counts in (True, False):
                    for res in (m.unique(inp, sorted=sorted_, return_inverse=inverse,
                                         return_counts=counts),
                                m.unique(inp, sorted=sorted_, return_inverse=inverse,
                                         return_counts=counts, dim=0),
                                m.unique_consecutive(inp, return_inverse=inverse,
                                                     return_counts=counts),
                                m.unique_consecutive(inp, return_inverse=inverse,
                                                     return_counts=counts, dim=0),
                                m._unique(inp, sorted=sorted_, return_inverse=inverse),
                                m._unique2(inp, sorted=sorted_, return_inverse=inverse,
                                           return_counts=counts)):
                        res = res if isinstance(res, tuple) else (res,)
                        seen.append([t.requires_grad for t in res])
                        seen.append([t for t in res])
        return seen

    assert_like_torch(case)


def test_unique_dim_of_vf_returns_all_three(torch_oracle):
    inp = [[1.0, 2.0], [1.0, 2.0], [0.0, 5.0]]
    theirs = torch_oracle._VF.unique_dim(torch_oracle.tensor(inp), 0, sorted=True,
                                         return_inverse=False, return_counts=False)
    ours = _VF.unique_dim(ag.tensor(inp), 0, sorted=True, return_inverse=False,
                          return_counts=False)
    assert len(ours) == len(theirs) == 3
    for a, b in zip(ours, theirs):
        assert a.tolist() == b.tolist()


@pytest.mark.parametrize("call", [
    lambda m: m.unique(m.tensor([3.0, 1.0], requires_grad=True)),
    lambda m: m.unique(m.tensor([[3.0], [1.0]], requires_grad=True), dim=0),
    lambda m: m.unique_consecutive(m.tensor([3.0, 3.0, 1.0], requires_grad=True)),
    lambda m: m._unique(m.tensor([3.0, 1.0], requires_grad=True))[0],
])
def test_unique_values_have_a_node_but_no_derivative(torch_oracle, call):
    def case(m):
        values = call(m)
        name = type(values.grad_fn).__name__
        values.sum().backward()
        return name

    assert_like_torch(case)


@pytest.mark.parametrize("call", [
    lambda m: m.unique_consecutive(m.tensor([[1, 2], [1, 2], [0, 5], [1, 2]]),
                                   return_inverse=True, return_counts=True, dim=0),
    lambda m: m.unique_consecutive(m.tensor([[1, 1], [2, 2]]), return_inverse=True,
                                   return_counts=True),
    lambda m: m.unique_consecutive(m.tensor([[1, 1, 2], [1, 1, 2]]), return_counts=True, dim=1),
    lambda m: m.tensor([4, 4, 2, 4]).unique_consecutive(return_inverse=True),
    lambda m: m.unique_consecutive(m.tensor([], dtype=m.int64), return_inverse=True,
                                   return_counts=True),
    lambda m: m.unique(m.tensor([[1, 2], [1, 2], [0, 5]]), return_inverse=True, dim=-2),
])
def test_unique_consecutive_and_unique_dim_values(torch_oracle, call):
    assert_like_torch(lambda m: list(call(m)) if isinstance(call(m), tuple) else call(m))


def test_searchsorted_takes_the_values_as_input_as_pytorchs_parser_does(torch_oracle):
    """Its doc line names them ``values``; the parser (and ours) takes ``input=``."""
    def case(m):
        return m.searchsorted(m.tensor([1.0, 2.0]), input=m.tensor([1.5, 3.0]))

    assert_like_torch(case)


@pytest.mark.parametrize("name", ["unique", "unique_consecutive"])
@pytest.mark.parametrize("dim", [None, 0, 1, 2, -2])
def test_unique_of_an_empty_tensor_along_each_dim(torch_oracle, name, dim):
    def case(m):
        kwargs = {} if dim is None else {"dim": dim}
        return list(getattr(m, name)(m.zeros(5, 0, 5), return_inverse=True,
                                     return_counts=True, **kwargs))

    assert_like_torch(case)


@pytest.mark.parametrize("name", ["unique", "unique_consecutive"])
@pytest.mark.parametrize("dim", [0, -1, 1])
def test_unique_along_a_dim_of_a_0d_tensor(torch_oracle, name, dim):
    assert_like_torch(lambda m: getattr(m, name)(m.tensor(3.0), dim=dim))
