"""What the OpInfo runner (``scripts/opinfo_suite.py``) found in its second round, each case
compared with torch: values, gradients, dtypes, shapes and errors (issue 44)."""

from __future__ import annotations

import numpy as np
import pytest
from oracle_helpers import assert_like_torch, with_grad


def values_like_torch(case, **tolerances):
    """``assert_like_torch`` for a case that must run (no error on either side)."""
    assert assert_like_torch(case, **tolerances)[0] == "value"


def _seeded(m, *shape, dtype="float64"):
    """The same deterministic values on both sides (no random generator involved)."""
    n = 1
    for s in shape:
        n *= s
    return (m.arange(n, dtype=getattr(m, dtype)).reshape(shape) * 0.37).sin() * 3


# --- to() and the dtype conversions: PyTorch's positional flags and memory_format ---------
@pytest.mark.parametrize("call", [
    lambda m, x: x.to("cpu", m.float64, True, False),
    lambda m, x: x.to("cpu", m.float64, False, True),
    lambda m, x: x.to(m.float64, False, True, memory_format=m.preserve_format),
    lambda m, x: x.to(m.float32, non_blocking=True),
    lambda m, x: x.float(memory_format=m.contiguous_format),
    lambda m, x: x.double(memory_format=m.preserve_format),
    lambda m, x: x.long(memory_format=m.preserve_format),
    lambda m, x: x.int(memory_format=m.contiguous_format),
    lambda m, x: x.bool(memory_format=m.preserve_format),
])
def test_to_and_conversions_take_torchs_arguments(call):
    values_like_torch(lambda m: [call(m, m.tensor([[1.5, -2.0], [0.0, 3.0]])),
                                 call(m, m.tensor([1.5])).shape])


def test_to_with_copy_true_returns_a_new_tensor():
    assert_like_torch(lambda m: [(lambda x: x.to("cpu", m.float32, False, True) is x)(
        m.tensor([1.0])), (lambda x: x.to("cpu", m.float32, False, False) is x)(m.tensor([1.0]))])


# --- a one-element tuple stands for both dims (avg_pool2d's padding=(1,)) ---------------------
@pytest.mark.parametrize("args", [((3, 3), (1, 1), (1,), True, False, 2), ((3,), (2,), 1),
                                  ((2, 2), (1,), (0,), False, True)])
def test_pooling_takes_one_element_tuples(args):
    data = (np.sin(np.arange(150.0) * 0.37) * 3).reshape(2, 3, 5, 5).tolist()
    values_like_torch(with_grad(lambda m, x: m.nn.functional.avg_pool2d(x, *args), data))


def test_conv2d_takes_a_one_element_padding():
    values_like_torch(lambda m: m.nn.functional.conv2d(_seeded(m, 1, 2, 5, 5),
                                                       _seeded(m, 3, 2, 3, 3), padding=(1,)))


# --- batch_norm of an empty 1-D input ----------------------------------------------------
@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("channels", [0, 3])
def test_batch_norm_of_an_empty_vector(training, channels):
    values_like_torch(lambda m: m.nn.functional.batch_norm(
        m.ones(0), m.zeros(channels), m.ones(channels), training=training))


def test_batch_norm_of_a_vector_names_zero_channels():
    assert_like_torch(lambda m: m.nn.functional.batch_norm(m.ones(3), m.zeros(3), m.ones(3)))


# --- integer addmm / addmv: beta and alpha lose their fraction ---------------------------------
@pytest.mark.parametrize("beta, alpha", [(0.2, 0.6), (1.5, 2.7), (-1.5, -2.7), (2, 3)])
def test_integer_addmv_and_addmm_truncate_beta_and_alpha(beta, alpha):
    def run(m):
        bias, mat = m.arange(3) - 1, m.arange(12).reshape(3, 4) - 5
        vec, square = m.arange(4) + 2, m.arange(16).reshape(4, 4) % 5
        return [m.addmv(bias, mat, vec, beta=beta, alpha=alpha),
                m.addmm(mat, mat, square, beta=beta, alpha=alpha)]

    values_like_torch(run)


def test_float_addmv_keeps_fractional_beta_and_alpha():
    values_like_torch(lambda m: m.addmv(_seeded(m, 3), _seeded(m, 3, 4), _seeded(m, 4),
                                        beta=0.2, alpha=0.6))


# --- torch.zero_ and the reflected bit operators ------------------------------------------------
def test_zero_function_writes_in_place():
    def run(m):
        x = m.tensor([[1, 2], [3, 4]])
        out = m.zero_(x)
        return [out, x, out is x]

    assert_like_torch(run)


@pytest.mark.parametrize("op", ["__ror__", "__rand__", "__rxor__"])
@pytest.mark.parametrize("other", [True, 3])
def test_reflected_bit_operators(op, other):
    def run(m):
        x = m.tensor([True, False]) if other is True else m.tensor([5, 6, 12])
        return [getattr(x, op)(other), {"__ror__": other | x, "__rand__": other & x,
                                        "__rxor__": other ^ x}[op]]

    values_like_torch(run)


# --- conv_transpose2d with output_padding, dilation, stride and groups ------------------------
@pytest.mark.parametrize("kwargs", [
    dict(stride=(3, 2), padding=(1, 2), output_padding=(2, 3), groups=2, dilation=(4, 4)),
    dict(stride=2, padding=0, output_padding=1),
    dict(stride=(2, 3), padding=(2, 1), output_padding=(1, 2), dilation=(3, 3)),
    dict(stride=3, padding=1, output_padding=2, groups=2),
])
def test_conv_transpose2d_output_padding(kwargs):
    def run(m):
        x = _seeded(m, 2, 2, 4, 4).requires_grad_()
        w = _seeded(m, 2, 2, 4, 5).cos().requires_grad_()
        b = m.tensor([0.5, -1.0, 2.0, 0.25], dtype=m.float64)[:2 * kwargs.get("groups", 1)]
        b.requires_grad_()
        out = m.nn.functional.conv_transpose2d(x, w, b, **kwargs)
        (out * out.detach().cos()).sum().backward()
        return [out, x.grad, w.grad, b.grad]

    values_like_torch(run, rtol=1e-10, atol=1e-10)


# --- scaled_dot_product_attention: both sides scaled by sqrt(scale), as PyTorch does -----------
def test_attention_float32_stays_within_torchs_rounding():
    def run(m):
        q = _seeded(m, 4, 3, 8, dtype="float32").requires_grad_()
        k = _seeded(m, 4, 4, 6, 8, dtype="float32").cos().mul(4).requires_grad_()
        out = m.nn.functional.scaled_dot_product_attention(q, k, k.detach() * 0.5)
        out.sum().backward()
        return [out, q.grad, k.grad]

    values_like_torch(run, rtol=1e-5, atol=1e-5)


# --- activations on integer tensors name the dtype ----------------------------------------------
@pytest.mark.parametrize("name", ["softplus", "logsigmoid", "mish", "hardswish"])
@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "int32", "int64", "bool"])
def test_activation_refusal_names_the_dtype(name, dtype):
    assert assert_like_torch(lambda m: getattr(m.nn.functional, name)(
        m.ones(3, dtype=getattr(m, dtype))))[0] == "error"


# --- einsum: capital subscripts, with and without an ellipsis ---------------------------------
@pytest.mark.parametrize("equation, shapes", [
    ("Ab,bC->AC", [(2, 3), (3, 4)]),
    ("...A,A->...", [(2, 3), (3,)]),
    ("Z...,...Z", [(3, 2, 4), (2, 4, 3)]),
    ("AB...,B...->A...", [(2, 3, 4), (3, 4)]),
    ("iA,Aj", [(2, 3), (3, 2)]),
    ("...Ii->...I", [(2, 3, 3)]),
])
def test_einsum_with_capital_letters(equation, shapes):
    def run(m):
        operands = [_seeded(m, *s).requires_grad_() for s in shapes]
        out = m.einsum(equation, *operands)
        out.sum().backward()
        return [out] + [t.grad for t in operands]

    values_like_torch(run, rtol=1e-10, atol=1e-12)
