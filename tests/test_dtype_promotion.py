"""One type-promotion rule for every op, checked against PyTorch over a table of dtypes.

PyTorch computes an op in the dtype its operands promote to: categories bool < integer <
float; a higher category wins as it is (int64 + float16 is float16), a 0-d tensor or a Python
number only counts when it is of a higher category than the tensors with dimensions, and
float functions of integers (exp, log, sigmoid...) compute in the default float, float32.
Each case compares dtype, shape and values (or the error) with torch.
"""

from __future__ import annotations

import itertools

import pytest
from oracle_helpers import assert_like_torch, with_grad

torch = pytest.importorskip("torch")

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]


def vec(m, dtype, values=(1, 2, 0)):
    return m.tensor(list(values), dtype=getattr(m, dtype))


# --- element-wise functions of one tensor ------------------------------------------------------
FLOAT_FUNCTIONS = ["exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid", "reciprocal"]
OTHER_UNARY = ["abs", "neg", "sign", "relu"]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", FLOAT_FUNCTIONS + OTHER_UNARY)
def test_unary_dtype(op, dtype):
    """exp/log/sqrt/sin/cos/tanh/sigmoid of bool or integers give float32, like PyTorch."""
    assert_like_torch(lambda m: getattr(vec(m, dtype), op)(), rtol=1e-3 if "16" in dtype else 1e-6)


@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_sigmoid_of_integers_is_not_rounded(dtype):
    # the case: [1, 2] gave [1., 1.] float64 instead of [0.7311, 0.8808] float32
    assert_like_torch(lambda m: m.tensor([1, 2], dtype=getattr(m, dtype)).sigmoid())
    assert_like_torch(lambda m: m.nn.functional.sigmoid(m.tensor([-1, 2], dtype=getattr(m, dtype))))
    assert_like_torch(lambda m: m.nn.functional.tanh(m.tensor([-1, 2], dtype=getattr(m, dtype))))


CLAMPS = {
    "max=2.5": lambda x: x.clamp(max=2.5),
    "min=1": lambda x: x.clamp(min=1),
    "0.5..2": lambda x: x.clamp(0.5, 2),
    "min=True": lambda x: x.clamp(min=True),
}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("bounds", list(CLAMPS))
def test_clamp_dtype(bounds, dtype):
    """clamp(int, max=2.5) is float32; clamp(bool, min=1) is int64 (the bounds promote)."""
    assert_like_torch(lambda m: CLAMPS[bounds](vec(m, dtype)))


def test_clamp_grad_after_promotion():
    assert_like_torch(with_grad(lambda m, x: x.clamp(0, 2), [-1.0, 1.0, 3.0], "float32"))


# --- two operands -------------------------------------------------------------------------------
BINARY = {
    "add": lambda m, a, b: a + b,
    "mul": lambda m, a, b: a * b,
    "div": lambda m, a, b: a / (b + 1),
    "pow": lambda m, a, b: a**b,
    "maximum": lambda m, a, b: m.maximum(a, b),
    "eq": lambda m, a, b: a == b,
    "where": lambda m, a, b: m.where(m.tensor([True, False, True]), a, b),
    "cat": lambda m, a, b: m.cat([a, b]),
    "stack": lambda m, a, b: m.stack([a, b]),
}


@pytest.mark.parametrize(("da", "db"), list(itertools.product(DTYPES, DTYPES)))
@pytest.mark.parametrize("op", list(BINARY))
def test_binary_dtype(op, da, db):
    """Every dtype pair: cat/stack of int and float give float32 (not float64), int + float16
    is float16, uint8 + int8 is int16."""
    assert_like_torch(lambda m: BINARY[op](m, vec(m, da), vec(m, db)), rtol=1e-3)


SCALARS = [2, 2.5, True, -1, 300]


@pytest.mark.parametrize("scalar", SCALARS, ids=repr)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", ["add", "mul", "pow", "rpow", "where"])
def test_tensor_and_python_number(op, dtype, scalar):
    """A Python number decides the dtype only from a higher category (int8 + 300 wraps)."""
    fns = {
        "add": lambda m, x: x + scalar,
        "mul": lambda m, x: x * scalar,
        "pow": lambda m, x: x**scalar if scalar is not True else x**2,
        "rpow": lambda m, x: scalar**x if scalar != -1 else 2**x,
        "where": lambda m, x: m.where(m.tensor([True, False, True]), x, scalar),
    }
    assert_like_torch(lambda m: fns[op](m, vec(m, dtype)), rtol=1e-3)


@pytest.mark.parametrize(("d0", "d1"), list(itertools.product(DTYPES, DTYPES)))
def test_zero_dim_tensor_promotes_only_across_categories(d0, d1):
    assert_like_torch(lambda m: vec(m, d1) + m.tensor(1, dtype=getattr(m, d0)), rtol=1e-3)
    assert_like_torch(
        lambda m: m.tensor(1, dtype=getattr(m, d0)) * m.tensor(2, dtype=getattr(m, d1))
    )


@pytest.mark.parametrize("values", [(1, 2), (1, 2.5), (True, 2), (False, True)], ids=repr)
def test_where_of_two_numbers(values):
    assert_like_torch(lambda m: m.where(m.tensor([True, False]), *values))


def test_integer_powers_with_negative_exponents():
    assert_like_torch(lambda m: m.tensor([3, 1, -1, 0, 2, -1]) ** m.tensor([-1, -1, -1, 1, -2, -2]))
    assert_like_torch(lambda m: m.tensor([3]) ** -1)
    assert_like_torch(lambda m: 2 ** m.tensor([-1, 2]))
    assert_like_torch(lambda m: (-1) ** m.tensor([-1, 2, -3]))
    assert_like_torch(lambda m: 0 ** m.tensor([-1, 0]))


@pytest.mark.parametrize("dtype", DTYPES)
def test_matmul_dtypes(dtype):
    assert_like_torch(
        lambda m: m.ones(2, 2, dtype=getattr(m, dtype)) @ m.ones(2, dtype=getattr(m, dtype))
    )
    assert_like_torch(
        lambda m: m.ones(2, 2, dtype=getattr(m, dtype)) @ m.ones(2, 2, dtype=getattr(m, dtype))
    )
    assert_like_torch(
        lambda m: (
            m.ones(2, 2, 2, dtype=getattr(m, dtype)) @ m.ones(2, 2, 2, dtype=getattr(m, dtype))
        )
    )
    assert_like_torch(lambda m: vec(m, dtype) @ vec(m, dtype))


def test_cat_mixed_dtypes_gradient():
    def case(m):
        x = m.tensor([1.0, 2.0], requires_grad=True)
        out = m.cat([x, m.tensor([3, 4])])
        (out * m.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
        return [out, x.grad]

    assert_like_torch(case)


# --- losses -------------------------------------------------------------------------------------
def F(m):
    return m.nn.functional


LOSSES = {
    "mse float32, int64 target": lambda m: F(m).mse_loss(m.ones(3), m.tensor([1, 2, 3])),
    "mse float32, float64 target": lambda m: F(m).mse_loss(m.ones(3), m.ones(3, dtype=m.float64)),
    "mse float16, float32 target": lambda m: F(m).mse_loss(m.ones(2, dtype=m.float16), m.ones(2)),
    "mse int64 input, float target": lambda m: F(m).mse_loss(m.tensor([1, 2]), m.ones(2)),
    "mse int64, int64": lambda m: F(m).mse_loss(m.tensor([1, 2]), m.tensor([1, 3])),
    "mse bool, bool": lambda m: F(m).mse_loss(m.ones(2, dtype=m.bool), m.ones(2, dtype=m.bool)),
    "l1 float32, int64 target": lambda m: F(m).l1_loss(m.ones(3), m.tensor([1, 2, 3])),
    "l1 int64, int64": lambda m: F(m).l1_loss(m.tensor([1, 2]), m.tensor([1, 3])),
    "bce float32, float64 target": lambda m: F(m).binary_cross_entropy(
        m.full((2,), 0.5), m.ones(2, dtype=m.float64)
    ),
    "bce float64, float32 target": lambda m: F(m).binary_cross_entropy(
        m.full((2,), 0.5, dtype=m.float64), m.ones(2)
    ),
    "bce int64 target": lambda m: F(m).binary_cross_entropy(m.full((2,), 0.5), m.tensor([1, 0])),
    "bce float64 weight": lambda m: F(m).binary_cross_entropy(
        m.full((2,), 0.3), m.ones(2), weight=m.ones(2, dtype=m.float64)
    ),
    "bce logits float64 target": lambda m: F(m).binary_cross_entropy_with_logits(
        m.ones(2), m.ones(2, dtype=m.float64)
    ),
    "bce logits float64 input, float32 target": lambda m: F(m).binary_cross_entropy_with_logits(
        m.full((2,), 0.5, dtype=m.float64), m.ones(2)
    ),
    "bce logits int64 target": lambda m: F(m).binary_cross_entropy_with_logits(
        m.ones(2), m.tensor([1, 0])
    ),
    "bce logits bool target": lambda m: F(m).binary_cross_entropy_with_logits(
        m.ones(2), m.ones(2, dtype=m.bool)
    ),
    "bce logits int64 input": lambda m: F(m).binary_cross_entropy_with_logits(
        m.ones(2, dtype=m.long), m.ones(2)
    ),
    "bce logits float64 weight": lambda m: F(m).binary_cross_entropy_with_logits(
        m.ones(2), m.ones(2), weight=m.ones(2, dtype=m.float64)
    ),
    "ce float64 probabilities": lambda m: F(m).cross_entropy(
        m.ones(2, 3), m.ones(2, 3, dtype=m.float64)
    ),
    "ce float16 probabilities": lambda m: F(m).cross_entropy(
        m.ones(2, 3), m.ones(2, 3, dtype=m.float16)
    ),
    "ce int64 probabilities": lambda m: F(m).cross_entropy(
        m.ones(2, 3), m.ones(2, 3, dtype=m.long)
    ),
    "ce int32 target": lambda m: F(m).cross_entropy(m.ones(2, 3), m.tensor([0, 1], dtype=m.int32)),
    "ce int16 target": lambda m: F(m).cross_entropy(m.ones(2, 3), m.tensor([0, 1], dtype=m.int16)),
    "ce uint8 target": lambda m: F(m).cross_entropy(m.ones(2, 3), m.tensor([0, 1], dtype=m.uint8)),
    "ce bool target": lambda m: F(m).cross_entropy(m.ones(2, 3), m.tensor([True, False])),
    "ce float target of the wrong shape": lambda m: F(m).cross_entropy(m.ones(2, 3), m.ones(2)),
    "ce 2-d float target": lambda m: F(m).cross_entropy(m.ones(2, 3), m.ones(2, 4)),
    "ce int64 input": lambda m: F(m).cross_entropy(m.ones(2, 3, dtype=m.long), m.tensor([0, 1])),
    "ce float64 input, float32 weight": lambda m: F(m).cross_entropy(
        m.ones(2, 3, dtype=m.float64), m.tensor([0, 1]), weight=m.ones(3)
    ),
    "nll int32 target": lambda m: F(m).nll_loss(m.ones(2, 3), m.tensor([0, 1], dtype=m.int32)),
    "nll float64 weight": lambda m: F(m).nll_loss(
        m.ones(2, 3), m.tensor([0, 1]), weight=m.ones(3, dtype=m.float64)
    ),
    "softmax int64 last dim": lambda m: F(m).softmax(m.tensor([1, 2]), 0),
    "softmax int64 dim 0": lambda m: F(m).softmax(m.ones(2, 2, dtype=m.long), 0),
    "log_softmax int64": lambda m: F(m).log_softmax(m.tensor([1, 2]), 0),
    "softmax dtype=float64": lambda m: F(m).softmax(m.ones(2), 0, dtype=m.float64),
    "dropout int64": lambda m: F(m).dropout(m.ones(3, dtype=m.long), 0.5),
    "batch_norm int64": lambda m: F(m).batch_norm(
        m.ones(2, 3, dtype=m.long), m.zeros(3), m.ones(3)
    ),
    "adaptive_avg_pool2d int64": lambda m: F(m).adaptive_avg_pool2d(
        m.ones(1, 1, 4, 4, dtype=m.long), 2
    ),
}


@pytest.mark.parametrize("name", list(LOSSES))
def test_loss_dtypes(name):
    """mse_loss(float32, int64 target) is float32; targets PyTorch refuses are refused."""
    assert_like_torch(LOSSES[name])


def test_mse_with_integer_target_gradient_is_float32():
    assert_like_torch(
        with_grad(lambda m, x: F(m).mse_loss(x, m.tensor([1, 2, 3])), [0.5, 1.0, 4.0], "float32")
    )


# --- reductions, comparisons, logic and the nn ops over every dtype -----------------------------
REDUCTIONS = {
    "sum": lambda m, x: x.sum(),
    "sum(0)": lambda m, x: x.sum(0),
    "mean": lambda m, x: x.mean(),
    "max": lambda m, x: x.max(),
    "max(0)": lambda m, x: x.max(0),
    "amax(0)": lambda m, x: x.amax(0),
    "argmax": lambda m, x: x.argmax(),
    "argmin(0)": lambda m, x: x.argmin(0),
    "var": lambda m, x: x.var(),
    "std(0)": lambda m, x: x.std(0),
    "norm": lambda m, x: x.norm(),
    "all": lambda m, x: x.all(),
    "any(0)": lambda m, x: x.any(0),
    "sum(dtype=float64)": lambda m, x: x.sum(dtype=m.float64),
    "logical_not": lambda m, x: x.logical_not(),
    "logical_and": lambda m, x: m.logical_and(x, x),
    "isnan": lambda m, x: m.isnan(x),
    "~x": lambda m, x: ~x,
    "x & x": lambda m, x: x & x,
    "softmax": lambda m, x: F(m).softmax(x, 0),
    "max_pool2d": lambda m, x: F(m).max_pool2d(x.reshape(1, 1, 1, 3), (1, 2)),
    "avg_pool2d": lambda m, x: F(m).avg_pool2d(x.reshape(1, 1, 1, 3), (1, 2)),
    "conv2d": lambda m, x: F(m).conv2d(x.reshape(1, 1, 1, 3), m.ones(1, 1, 1, 2, dtype=x.dtype)),
    "relu": lambda m, x: F(m).relu(x),
}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", list(REDUCTIONS))
def test_reductions_logic_and_nn_ops_dtype(op, dtype):
    assert_like_torch(lambda m: REDUCTIONS[op](m, vec(m, dtype, (1, 3, 0))), rtol=1e-3)
