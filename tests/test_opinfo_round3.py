"""Issue 44, third round: the OpInfo error inputs where the package raised another exception
than PyTorch (now the same type and the same whole message), Python numbers where an op
takes a tensor, and the new ``addbmm`` and ``addr`` (values, dtypes, gradients, in-place
forms, errors), each compared with torch."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from oracle_helpers import assert_like_torch

import autograd_course as ag

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def _raised(m, case) -> tuple[str, str]:
    """The exception ``case(m)`` raises: its type's name and its whole message."""
    try:
        case(m)
    except Exception as error:
        return type(error).__name__, str(error)
    raise AssertionError("no error")


def _same_error(torch, case) -> tuple[str, str]:
    theirs = _raised(torch, case)
    assert _raised(ag, case) == theirs
    return theirs


def _vec(m, n, dtype="float32"):
    return m.arange(n, dtype=getattr(m, dtype)) - 1


# --- the error inputs of the OpInfos (type and message) ---------------------------------------
ERRORS = {
    "cat of an empty list": lambda m: m.cat([], dim=1),
    "cat with None in it": lambda m: m.cat((m.ones(2), None)),
    "cat with a number in it": lambda m: m.cat([m.ones(2), 2]),
    "cat of a tensor": lambda m: m.cat(m.ones(2)),
    "eye(-1)": lambda m: m.eye(-1),
    "eye(2, -3)": lambda m: m.eye(2, -3),
    "eye(2.5)": lambda m: m.eye(2.5),
    "isclose, rtol < 0": lambda m: m.isclose(m.ones(2), m.ones(2), rtol=-0.4),
    "isclose, atol < 0": lambda m: m.isclose(m.ones(2), m.ones(2), atol=-0.123456789),
    "linspace, steps < 0": lambda m: m.linspace(0, 1, -1),
    "linspace, float steps": lambda m: m.linspace(0, 1, 2.0),
    "linspace, bool steps": lambda m: m.linspace(0, 1, True),
    "linspace, 1-d start": lambda m: m.linspace(m.ones(1), 1, 3),
    "linspace, 1-d end": lambda m: m.linspace(0, m.ones(2), 3),
    "linspace, both tensors": lambda m: m.linspace(m.tensor(0.0), m.ones(2, 1), 3),
    "linspace, dims before steps": lambda m: m.linspace(m.ones(1), m.ones(1), -1),
    "narrow of a 0-d tensor": lambda m: m.tensor(1.0).narrow(0, 0, 1),
    "narrow, start past the end": lambda m: m.ones(10, 1).narrow(0, 11, 0),
    "narrow, start before the start": lambda m: m.ones(10, 1).narrow(0, -11, 0),
    "narrow, negative length": lambda m: m.ones(10, 1).narrow(0, 0, -1),
    "narrow, too long": lambda m: m.ones(10, 1).narrow(0, -3, 4),
    "narrow, 1-d start tensor": lambda m: m.ones(10).narrow(0, m.tensor([1]), 1),
    "narrow, float start tensor": lambda m: m.ones(10).narrow(0, m.tensor(1.0), 1),
    "adaptive_avg_pool2d of a 2-d input": lambda m: m.nn.functional.adaptive_avg_pool2d(
        m.ones(2, 2), (2, 2)),
    "adaptive_avg_pool2d, empty output_size": lambda m: m.nn.functional.adaptive_avg_pool2d(
        m.ones(2, 2, 2), ()),
    "adaptive_avg_pool2d, one size": lambda m: m.nn.functional.adaptive_avg_pool2d(
        m.ones(1, 2, 2, 2), (1,)),
    "embedding, 1-d weight": lambda m: m.nn.functional.embedding(m.tensor([0, 1]), m.ones(3)),
    "embedding, 3-d weight": lambda m: m.nn.functional.embedding(m.tensor([0, 1]),
                                                                 m.ones(3, 2, 2)),
    "group_norm of a 1-d input": lambda m: m.nn.functional.group_norm(m.ones(3), 1),
    "prelu of a 0-d input": lambda m: m.nn.functional.prelu(m.tensor(1.0), m.ones(2)),
    "prelu, 2-d weight": lambda m: m.nn.functional.prelu(m.ones(2, 3), m.ones(1, 3)),
}


@pytest.mark.parametrize("name", ERRORS)
def test_error_inputs_raise_torchs_exception(torch_oracle, name):
    _same_error(torch_oracle, ERRORS[name])


# --- what still runs next to those checks ------------------------------------------------------
RUNS = {
    "narrow, negative start": lambda m: m.arange(10.0).narrow(0, -3, 2),
    "narrow, start at the end": lambda m: m.arange(10.0).narrow(0, 10, 0),
    "narrow, 0-d start tensor": lambda m: m.arange(10.0).narrow(0, m.tensor(2), 3),
    "ag.narrow": lambda m: m.narrow(m.arange(12.0).reshape(3, 4), 1, 1, 2),
    "linspace of 0-d tensors": lambda m: m.linspace(m.tensor(0.0), m.tensor(1.0), 3),
    "linspace, 0 steps": lambda m: m.linspace(0, 1, 0),
    "eye(0)": lambda m: m.eye(0),
    "adaptive_avg_pool2d, None keeps a size": lambda m: m.nn.functional.adaptive_avg_pool2d(
        m.arange(32.0).reshape(1, 2, 4, 4), (None, 2)),
    "adaptive_avg_pool2d to 1x1 of a 5-d input": lambda m: (
        m.nn.functional.adaptive_avg_pool2d(m.arange(32.0).reshape(2, 2, 2, 2, 2), 1)),
    "prelu, 0-d weight": lambda m: m.nn.functional.prelu(m.ones(2, 3) - 2, m.tensor(0.5)),
    "isclose, zero tolerances": lambda m: m.isclose(m.ones(2), m.ones(2), rtol=0, atol=0),
    "cat of a tuple": lambda m: m.cat((m.ones(2), m.zeros(1))),
}


@pytest.mark.parametrize("name", RUNS)
def test_what_torch_runs_still_runs(torch_oracle, name):
    assert assert_like_torch(RUNS[name])[0] == "value"


# --- a Python number where PyTorch's parser wants a tensor --------------------------------------
NUMBERS_FIRST = {
    "remainder(2, 3)": lambda m: m.remainder(2, 3),
    "remainder(2.5, 3)": lambda m: m.remainder(2.5, 3),
    "bitwise_xor(2, 3)": lambda m: m.bitwise_xor(2, 3),
    "bitwise_xor(True, 1)": lambda m: m.bitwise_xor(True, 1),
    "clamp_min(2, 3)": lambda m: m.clamp_min(2, 3),
    "clamp_min(2, tensor)": lambda m: m.clamp_min(2, m.ones(2)),
    "max(2, 3)": lambda m: m.max(2, 3),
    "max(2, tensor)": lambda m: m.max(2, m.ones(2)),
    "min(2.5, tensor)": lambda m: m.min(2.5, m.ones(2)),
    "max(2)": lambda m: m.max(2),
    "dot(2, tensor)": lambda m: m.dot(2, m.ones(2)),
    "dot(tensor, 2)": lambda m: m.dot(m.ones(2), 2),
    "mm(matrix, 2)": lambda m: m.mm(m.ones(2, 2), 2),
    "mm(True, 1)": lambda m: m.mm(True, 1),
}


@pytest.mark.parametrize("name", NUMBERS_FIRST)
def test_a_number_where_torch_wants_a_tensor(torch_oracle, name):
    kind, message = _same_error(torch_oracle, NUMBERS_FIRST[name])
    assert kind == "TypeError" and "Tensor" in message


def test_a_number_first_before_a_tensor_still_runs(torch_oracle):
    assert assert_like_torch(lambda m: [m.remainder(7, m.arange(1, 5)),
                                        m.bitwise_xor(6, m.arange(4)),
                                        m.max(m.ones(3), m.arange(3.0))])[0] == "value"


# --- addbmm and addr ---------------------------------------------------------------------------
def _addbmm_case(dtype, input_shape=(3, 4), **scales):
    def case(m):
        kind = getattr(m, dtype)
        x = (m.arange(12, dtype=kind).reshape(3, 4) % 5 - 2).reshape(-1)[:_count(input_shape)]
        b1 = m.arange(2 * 3 * 5, dtype=kind).reshape(2, 3, 5) % 7 - 3
        b2 = m.arange(2 * 5 * 4, dtype=kind).reshape(2, 5, 4) % 4 - 1
        return m.addbmm(x.reshape(input_shape), b1, b2, **scales)
    return case


def _count(shape) -> int:
    total = 1
    for s in shape:
        total *= s
    return total


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
@pytest.mark.parametrize("scales", [{}, {"beta": 0.5, "alpha": 2}, {"beta": 0, "alpha": -1.5},
                                    {"beta": 1.7, "alpha": 2.9}])
@pytest.mark.parametrize("input_shape", [(3, 4), (4,), (1, 1), ()])
def test_addbmm_values_dtypes_and_integer_truncation(torch_oracle, dtype, scales, input_shape):
    assert assert_like_torch(_addbmm_case(dtype, input_shape, **scales))[0] == "value"


def _graded(fn, shapes, dtype="float64"):
    """A case: ``fn(m, *leaves)``, backward with a fixed cotangent; [out, leaf grads...]."""
    def case(m):
        leaves = [(m.arange(_count(s), dtype=getattr(m, dtype)).reshape(s) * 0.37 % 1.3 - 0.6)
                  .requires_grad_() for s in shapes]
        out = fn(m, *leaves)
        out.backward(m.arange(out.numel(), dtype=out.dtype).reshape(out.shape) % 3 - 1)
        return [out, type(out.grad_fn).__name__, *[t.grad for t in leaves]]
    return case


@pytest.mark.parametrize("input_shape", [(3, 4), (4,), (3, 1), ()])
@pytest.mark.parametrize("scales", [{}, {"beta": 0.5, "alpha": -2}, {"beta": 0}])
def test_addbmm_gradients(torch_oracle, input_shape, scales):
    case = _graded(lambda m, x, a, b: m.addbmm(x, a, b, **scales),
                   [input_shape, (2, 3, 5), (2, 5, 4)])
    assert assert_like_torch(case)[0] == "value"


@pytest.mark.parametrize("input_shape", [(3, 4), (4,), (3, 1), ()])
@pytest.mark.parametrize("scales", [{}, {"beta": 0.5, "alpha": -2}, {"beta": 0}])
def test_addr_gradients(torch_oracle, input_shape, scales):
    case = _graded(lambda m, x, u, v: m.addr(x, u, v, **scales), [input_shape, (3,), (4,)])
    assert assert_like_torch(case)[0] == "value"


def test_second_order_gradients_of_addbmm_and_addr(torch_oracle):
    def case(m):
        x, a, b = (m.ones(3, 4, dtype=m.float64, requires_grad=True),
                   (m.arange(30.0, dtype=m.float64).reshape(2, 3, 5) / 10).requires_grad_(),
                   (m.arange(40.0, dtype=m.float64).reshape(2, 5, 4) / 20).requires_grad_())
        u, v = a[0, :, 0], b[0, 0]
        out = (m.addbmm(x, a, b, alpha=2) ** 2).sum() + (m.addr(x, u, v, beta=3) ** 2).sum()
        ga, = m.autograd.grad(out, a, create_graph=True)
        gb, = m.autograd.grad(ga.sum(), b)
        return [ga, gb]
    assert assert_like_torch(case)[0] == "value"


ADDR_VALUES = {
    "float": lambda m: m.addr(m.ones(3, 4), _vec(m, 3), _vec(m, 4), beta=0.5, alpha=2),
    "broadcast input": lambda m: m.addr(m.arange(4.0), _vec(m, 3), _vec(m, 4)),
    "0-d input": lambda m: m.addr(m.tensor(2.0), _vec(m, 3), _vec(m, 4)),
    "int64": lambda m: m.addr(m.ones(3, 4, dtype=m.int64), _vec(m, 3, "int64"),
                              _vec(m, 4, "int64"), beta=2, alpha=3),
    "promoted: int input, float vectors": lambda m: m.addr(
        m.ones(3, 4, dtype=m.int64), _vec(m, 3), _vec(m, 4), beta=1.5),
    "promoted: float64 input": lambda m: m.addr(m.ones(3, 4, dtype=m.float64), _vec(m, 3),
                                                _vec(m, 4)),
    "bool": lambda m: m.addr(m.tensor([[True], [False], [False]]),
                             m.tensor([True, False, True]), m.tensor([True, False]),
                             beta=True, alpha=True),
    "bool, beta False": lambda m: m.addr(m.ones(3, 2, dtype=m.bool),
                                         m.tensor([True, False, True]),
                                         m.tensor([True, False]), beta=False),
    "beta 0 ignores NaN": lambda m: m.addr(m.tensor([[1.0, m.nan]]), m.ones(1), m.ones(2),
                                           beta=0),
    "addbmm beta 0 ignores NaN": lambda m: m.addbmm(m.tensor([[1.0, m.nan]]), m.ones(1, 1, 1),
                                                    m.ones(1, 1, 2), beta=0),
    "addbmm of no matrices": lambda m: m.addbmm(m.ones(3, 4), m.ones(0, 3, 2),
                                                m.ones(0, 2, 4), beta=2),
    "methods": lambda m: [m.ones(3, 4).addr(_vec(m, 3), _vec(m, 4), alpha=2),
                          m.ones(3, 4).addbmm(m.ones(2, 3, 5), m.ones(2, 5, 4), beta=3)],
}


@pytest.mark.parametrize("name", ADDR_VALUES)
def test_addr_and_addbmm_values(torch_oracle, name):
    assert assert_like_torch(ADDR_VALUES[name])[0] == "value"


def test_in_place_forms_record_their_node(torch_oracle):
    def case(m):
        a = m.ones(2, 3, 5, dtype=m.float64, requires_grad=True)
        u = m.arange(3.0, dtype=m.float64, requires_grad=True)
        x, y = m.ones(3, 4, dtype=m.float64), m.ones(3, 5, dtype=m.float64)
        out1 = x.addbmm_(a, m.ones(2, 5, 4, dtype=m.float64), beta=2)
        out2 = y.addr_(u, m.arange(5.0, dtype=m.float64), alpha=3)
        (out1.sum() + out2.sum()).backward()
        return [out1 is x, out2 is y, x, y, type(x.grad_fn).__name__,
                type(y.grad_fn).__name__, a.grad, u.grad]
    assert assert_like_torch(case)[0] == "value"


ADDR_ERRORS = {
    "addbmm, input does not expand": lambda m: m.addbmm(m.ones(2, 4), m.ones(2, 3, 5),
                                                        m.ones(2, 5, 4)),
    "addbmm, 4-d batch1": lambda m: m.addbmm(m.ones(3, 4), m.ones(2, 3, 5, 1), m.ones(2, 5, 4)),
    "addbmm, 4-d batch2": lambda m: m.addbmm(m.ones(3, 4), m.ones(2, 3, 5), m.ones(2, 5, 4, 1)),
    "addbmm, 2-d batch2": lambda m: m.addbmm(m.ones(3, 4), m.ones(2, 3, 5), m.ones(5, 4)),
    "addbmm, batch counts": lambda m: m.addbmm(m.ones(3, 4), m.ones(2, 3, 5), m.ones(3, 5, 4)),
    "addbmm, inner sizes": lambda m: m.addbmm(m.ones(3, 4), m.ones(2, 3, 5), m.ones(2, 3, 4)),
    "addbmm, input dtype": lambda m: m.addbmm(m.ones(3, 4, dtype=m.float64), m.ones(2, 3, 5),
                                              m.ones(2, 5, 4)),
    "addbmm, batch dtypes": lambda m: m.addbmm(m.ones(3, 4), m.ones(2, 3, 5, dtype=m.float64),
                                               m.ones(2, 5, 4)),
    "addbmm of bools": lambda m: m.addbmm(m.ones(3, 4, dtype=m.bool),
                                          m.ones(2, 3, 5, dtype=m.bool),
                                          m.ones(2, 5, 4, dtype=m.bool)),
    "addr, 2-d vec1": lambda m: m.addr(m.ones(3, 4), m.ones(3, 1), m.ones(4)),
    "addr, 2-d vec2": lambda m: m.addr(m.ones(3, 4), m.ones(3), m.ones(4, 1)),
    "addr, input does not expand": lambda m: m.addr(m.ones(2, 4), m.ones(3), m.ones(4)),
    "addr, float beta for ints": lambda m: m.addr(m.ones(3, 4, dtype=m.int64),
                                                  m.ones(3, dtype=m.int64),
                                                  m.ones(4, dtype=m.int64), beta=1.5),
    "addr, float alpha for bools": lambda m: m.addr(m.ones(3, 4, dtype=m.bool),
                                                    m.ones(3, dtype=m.bool),
                                                    m.ones(4, dtype=m.bool), alpha=0.5),
    "addr_ of a vector": lambda m: m.ones(4).addr_(m.ones(3), m.ones(4)),
    "addbmm_ of a leaf that requires grad": lambda m: m.ones(3, 4, requires_grad=True).addbmm_(
        m.ones(2, 3, 5), m.ones(2, 5, 4)),
}


@pytest.mark.parametrize("name", ADDR_ERRORS)
def test_addr_and_addbmm_errors(torch_oracle, name):
    _same_error(torch_oracle, ADDR_ERRORS[name])


# --- the runner --------------------------------------------------------------------------------
def test_the_runner_skips_a_tensor_numpy_cannot_hold(torch_oracle):
    """A tensor of 65 dims (torch makes it; NumPy stops at 64) is out of scope, not an error
    input the package would be asked to refuse with a tensor of another sample."""
    sys.path.insert(0, str(SCRIPTS))
    try:
        import opinfo_compare
    finally:
        sys.path.remove(str(SCRIPTS))
    with pytest.raises(opinfo_compare.OutOfScope, match="more than 64 dimensions"):
        opinfo_compare.to_package(torch_oracle.ones([1] * 65), {}, [])
    assert opinfo_compare.to_package(torch_oracle.ones([1] * 64), {}, []).ndim == 64
