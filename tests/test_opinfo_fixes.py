"""Wrong numbers that PyTorch's OpInfo samples found (issue 44), each compared with torch:
values, gradients, dtypes, shapes and errors."""

from __future__ import annotations

import math

import pytest
from oracle_helpers import assert_like_torch, with_grad

INF = math.inf
def values_like_torch(case, **tolerances):
    """``assert_like_torch`` for a case that must run (no error on either side)."""
    assert assert_like_torch(case, **tolerances)[0] == "value"


GRID = [[1.0, 5.0, 2.0, -4.0], [7.0, 3.0, 9.0, 0.5], [-2.0, 6.0, 1.5, 3.0]]


# --- var / std / var_mean / std_mean: every way PyTorch accepts the arguments -------------
VAR_CALLS = {
    "dim, unbiased": lambda f, x: f(x, 0, False),
    "dim, unbiased, keepdim": lambda f, x: f(x, 1, False, True),
    "tuple dim, unbiased": lambda f, x: f(x, (0, 1), False),
    "None dim, unbiased": lambda f, x: f(x, None, False),
    "unbiased alone, False": lambda f, x: f(x, False),
    "unbiased alone, True": lambda f, x: f(x, True),
    "keywords": lambda f, x: f(x, dim=0, unbiased=False, keepdim=True),
    "unbiased keyword only": lambda f, x: f(x, unbiased=False),
    "correction": lambda f, x: f(x, 1, correction=0),
    "correction 2, keepdim": lambda f, x: f(x, dim=(1,), correction=2, keepdim=True),
    "no arguments": lambda f, x: f(x),
}


@pytest.mark.parametrize("name", ["var", "std", "var_mean", "std_mean"])
@pytest.mark.parametrize("call", VAR_CALLS)
def test_var_family_signatures(name, call):
    def run(m, x):
        out = VAR_CALLS[call](getattr(m, name), x)
        return sum(out) if isinstance(out, tuple) else out

    values_like_torch(with_grad(run, GRID), rtol=1e-6)


@pytest.mark.parametrize("name", ["var", "std"])
@pytest.mark.parametrize("args", [(0, False), (False,), (True,), (1, False, True)])
def test_var_family_methods(name, args):
    values_like_torch(with_grad(lambda m, x: getattr(x, name)(*args), GRID))


def test_std_mean_node_and_dtype():
    def run(m):
        x = m.tensor(GRID, requires_grad=True)
        std, mean = m.std_mean(x, 1, False)
        return [std, mean, type(std.grad_fn).__name__, type(mean.grad_fn).__name__]

    assert_like_torch(run)


# --- norms: p = ±inf, 0, 1, 2, 3, -1, -2 --------------------------------------------------
NORM_GRID = [[3.0, -1.0, 2.0], [1.0, -1.0, 4.0], [0.5, 2.0, -0.25]]


@pytest.mark.parametrize("p", [INF, -INF, 0, 1, 2, 3, -1, -2])
@pytest.mark.parametrize("dim, keepdim", [(None, False), (1, False), (0, True), ((0, 1), False)])
@pytest.mark.parametrize("form", ["function", "method"])
def test_norm_orders(p, dim, keepdim, form):
    def run(m, x):
        if form == "function":
            return m.norm(x, p=p, dim=dim, keepdim=keepdim)
        return x.norm(p, dim, keepdim)

    values_like_torch(with_grad(run, NORM_GRID))


def test_norm_minus_inf_is_the_smallest_magnitude():
    assert_like_torch(lambda m: [m.tensor([3.0, -1.0, 2.0]).norm(p=-INF),
                                 type(m.tensor([3.0, -0.5], requires_grad=True)
                                      .norm(p=-INF).grad_fn).__name__])


# --- cross_entropy with class probabilities, with and without spatial dims ----------------
def _logits_and_probabilities(m, shape):
    n = math.prod(shape)
    logits = (m.arange(n, dtype=m.float64).reshape(shape) * 0.37).sin() * 3
    target = (m.arange(n, dtype=m.float64).reshape(shape) * 0.71).cos().softmax(
        0 if len(shape) == 1 else 1)
    return logits.requires_grad_(), target


@pytest.mark.parametrize("shape", [(3,), (2, 3), (2, 3, 4), (2, 3, 2, 2), (0, 3, 2)])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("label_smoothing", [0.0, 0.2])
def test_cross_entropy_probability_targets(shape, reduction, weighted, label_smoothing):
    def run(m):
        logits, target = _logits_and_probabilities(m, shape)
        weight = m.tensor([0.5, 2.0, 1.25], dtype=m.float64) if weighted else None
        loss = m.nn.functional.cross_entropy(logits, target, weight, reduction=reduction,
                                             label_smoothing=label_smoothing)
        loss.sum().backward()
        return [loss, logits.grad]

    assert_like_torch(run)


# --- cosine_similarity: the norms are those of the broadcast vectors ------------------------
@pytest.mark.parametrize("shape1, shape2, dim", [
    ((1, 2, 3), (2, 1, 3), -2), ((1, 2, 3), (2, 1, 3), -1), ((1, 2, 3), (2, 1, 3), 0),
    ((3,), (2, 3), -1), ((4, 1), (1, 3), 0), ((4, 1), (1, 3), 1), ((2, 3), (2, 3), 1),
])
def test_cosine_similarity_broadcasting(shape1, shape2, dim):
    def run(m):
        a = (m.arange(math.prod(shape1), dtype=m.float64).reshape(shape1) + 1).requires_grad_()
        b = (m.arange(math.prod(shape2), dtype=m.float64).reshape(shape2) * 1.3).cos()
        b.requires_grad_()
        out = m.nn.functional.cosine_similarity(a, b, dim=dim)
        out.sum().backward()
        return [out, a.grad, b.grad, bool((out.abs() <= 1 + 1e-12).all())]

    assert_like_torch(run)


@pytest.mark.parametrize("eps", [1e-8, 0.5, 10.0])
def test_cosine_similarity_eps_and_zero_vectors(eps):
    def run(m):
        a = m.tensor([[0.0, 0.0], [0.3, -0.4], [1e-9, 0.0]], dtype=m.float64,
                     requires_grad=True)
        b = m.tensor([[1.0, 2.0]], dtype=m.float64, requires_grad=True)
        out = m.nn.functional.cosine_similarity(a, b, dim=1, eps=eps)
        out.sum().backward()
        return [out, a.grad, b.grad]

    assert_like_torch(run)


# --- scaled_dot_product_attention with a query whose keys are all masked ------------------
@pytest.mark.parametrize("mask_kind", ["bool", "float"])
def test_attention_over_a_fully_masked_row_is_zero(mask_kind):
    def run(m):
        q = (m.arange(12, dtype=m.float64).reshape(1, 2, 6) * 0.3).sin().requires_grad_()
        k = (m.arange(18, dtype=m.float64).reshape(1, 3, 6) * 0.7).cos().requires_grad_()
        v = (m.arange(18, dtype=m.float64).reshape(1, 3, 6) * 0.2).requires_grad_()
        keep = m.tensor([[False, False, False], [True, False, True]])
        mask = keep if mask_kind == "bool" else m.zeros(2, 3, dtype=m.float64).masked_fill(
            ~keep, -INF)
        out = m.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        out.sum().backward()
        return [out, q.grad, k.grad, v.grad]

    assert_like_torch(run)


def test_softmax_of_a_row_of_minus_inf_is_nan():
    values_like_torch(with_grad(lambda m, x: m.nn.functional.softmax(x, -1),
                                [[-INF, -INF, -INF], [0.0, -INF, 1.0]]))


# --- baddbmm on integers: beta and alpha lose their fractions -----------------------------
@pytest.mark.parametrize("beta, alpha", [(1.5, 2.7), (-1.5, -2.7), (0.5, 0.7), (2, 3), (0.0, 1),
                                         (True, False), (1, 1)])
def test_baddbmm_integer_tensors_truncate_the_scalars(beta, alpha):
    def run(m):
        x = m.arange(4).reshape(1, 2, 2) - 2
        a = m.arange(6).reshape(1, 2, 3) * 3 - 7
        b = m.arange(6).reshape(1, 3, 2) - 1
        return [m.baddbmm(x, a, b, beta=beta, alpha=alpha),
                x.baddbmm(a, b, beta=beta, alpha=alpha)]

    assert_like_torch(run)


@pytest.mark.parametrize("beta, alpha", [(1.5, 2.7), (0.0, -0.5)])
def test_baddbmm_float_tensors_keep_the_scalars(beta, alpha):
    def run(m):
        x = m.tensor([[[1.0, -2.0], [0.5, 3.0]]], dtype=m.float64, requires_grad=True)
        a = m.tensor([[[1.0, 2.0, -1.0], [0.0, 1.5, 2.0]]], dtype=m.float64, requires_grad=True)
        b = m.tensor([[[2.0, 1.0], [-1.0, 0.5], [3.0, 1.0]]], dtype=m.float64,
                     requires_grad=True)
        out = m.baddbmm(x, a, b, beta=beta, alpha=alpha)
        out.sum().backward()
        return [out, x.grad, a.grad, b.grad]

    assert_like_torch(run)


@pytest.mark.parametrize("op", ["baddbmm", "bmm"])
def test_batched_products_refuse_bool(op):
    def run(m):
        t = m.ones(1, 2, 2, dtype=m.bool)
        return m.baddbmm(t, t, t) if op == "baddbmm" else m.bmm(t, t)

    assert_like_torch(run)


# --- arange / linspace with an integer dtype: PyTorch's own arithmetic --------------------
INTEGER_DTYPES = ["int64", "int32", "int16", "int8", "uint8"]
ARANGE_ARGS = [(0, 1, 0.3), (-1.5, 2.5), (0, 10, 3), (10, 0, -3), (0, 10, 2.5), (-1.5, 2.5, 0.5),
               (2.7, -3.2, -1.5), (0.5, 7.9, 2.9), (-3.7,), (5.5,), (0, 7, 2.0), (1, -6, -2.5),
               (0, 1, 0), (3, 0, 1), (0, INF), (0.9, 0.1, -1), (-7, -2, 0.7)]
LINSPACE_ARGS = [(0, 10, 7), (10, 0, 7), (-3.7, 5.2, 6), (5.9, -5.9, 5), (0, 1, 4), (-10, 10, 8),
                 (0, 255, 11), (3, 3, 4), (0, 10, 1), (1.5, 2.5, 0), (0, -7, 3), (-1, 1, 5),
                 (100, -100, 9), (0, 300, 4), (2.5, 250.5, 7), (-0.5, 3, 4), (-130, 5, 3),
                 (-255, 3, 3), (-256, 3, 3)]


@pytest.mark.parametrize("dtype", INTEGER_DTYPES)
@pytest.mark.parametrize("args", ARANGE_ARGS)
def test_arange_integer_dtypes(dtype, args):
    assert_like_torch(lambda m: m.arange(*args, dtype=getattr(m, dtype)))


@pytest.mark.parametrize("dtype", INTEGER_DTYPES)
@pytest.mark.parametrize("args", LINSPACE_ARGS)
def test_linspace_integer_dtypes(dtype, args):
    assert_like_torch(lambda m: m.linspace(*args, dtype=getattr(m, dtype)))


@pytest.mark.parametrize("dtype", [None, "float64", "float16"])
@pytest.mark.parametrize("args", ARANGE_ARGS)
def test_arange_float_dtypes(dtype, args):
    assert_like_torch(lambda m: m.arange(*args, dtype=dtype and getattr(m, dtype)), rtol=1e-3)


# --- clamp with tensor bounds: the bounds get their gradients ------------------------------
XS = [0.0, 1.0, 2.0, 3.0, 4.0]
CLAMP_BOUNDS = {
    "both, ties at the bounds": ([1.0] * 5, [3.0] * 5),
    "both, crossed (min > max)": ([3.0] * 5, [1.0] * 5),
    "min only": ([1.0, 0.5, 2.5, 3.0, 5.0], None),
    "max only": (None, [3.0, 0.0, 2.0, 5.0, 4.0]),
    "bounds larger than x": ([[2.0], [1.0]], [3.0]),
    "bounds broadcast to x": ([2.0], [3.5, 3.0, 1.0, 2.0, 4.0]),
    "0-d bounds": (2.0, 3.5),
}


@pytest.mark.parametrize("bounds", CLAMP_BOUNDS)
@pytest.mark.parametrize("form", ["function", "method", "in place"])
def test_clamp_tensor_bounds_get_gradients(bounds, form):
    def run(m):
        def leaf(v):
            return None if v is None else m.tensor(v, dtype=m.float64, requires_grad=True)

        x, lo, hi = leaf(XS), *map(leaf, CLAMP_BOUNDS[bounds])
        if form == "function":
            out = m.clamp(x, min=lo, max=hi)
        elif form == "method":
            out = x.clamp(lo, hi)
        else:
            out = (x * 1).clamp_(lo, hi)
        out.sum().backward()
        return [out, type(out.grad_fn).__name__, x.grad, *(None if t is None else t.grad
                                                          for t in (lo, hi))]

    assert_like_torch(run)


@pytest.mark.parametrize("bounds", [(1.0, 3.0), (1.0, None), (None, 3.0)])
def test_clamp_number_bounds_keep_their_node(bounds):
    values_like_torch(with_grad(lambda m, x: x.clamp(*bounds), XS))
    assert_like_torch(lambda m: type(m.tensor(XS, requires_grad=True).clamp(*bounds)
                                     .grad_fn).__name__)


# --- 0-d inputs keep PyTorch's shapes ------------------------------------------------------
@pytest.mark.parametrize("value", [3.0, 0.0])
@pytest.mark.parametrize("op", ["nonzero", "argwhere", "nonzero tuple", "method", "where"])
def test_indices_of_a_0d_tensor(value, op):
    calls = {
        "nonzero": lambda m, x: m.nonzero(x),
        "argwhere": lambda m, x: m.argwhere(x),
        "nonzero tuple": lambda m, x: m.nonzero(x, as_tuple=True),
        "method": lambda m, x: x.nonzero(),
        "where": lambda m, x: m.where(x != 0),
    }
    assert_like_torch(lambda m: calls[op](m, m.tensor(value)))


@pytest.mark.parametrize("mask, value", [(True, 1.5), (False, 1.5), ([True], -2.0),
                                         ([[False, True]], 0.25)])
@pytest.mark.parametrize("tensor_value", [False, True])
def test_masked_fill_of_a_0d_tensor(mask, value, tensor_value):
    def run(m):
        x = m.tensor(3.0, dtype=m.float64, requires_grad=True)
        fill = m.tensor(value, dtype=m.float64, requires_grad=True) if tensor_value else value
        out = x.masked_fill(m.tensor(mask), fill)
        out.sum().backward()
        return [out, x.grad, fill.grad if tensor_value else None]

    assert_like_torch(run)


@pytest.mark.parametrize("index", [0, [0, 0]])
def test_gather_from_a_0d_tensor(index):
    def run(m):
        x = m.tensor(3.0, dtype=m.float64, requires_grad=True)
        out = m.gather(x, 0, m.tensor(index))
        out.sum().backward()
        return [out, x.grad, x.gather(-1, m.tensor(index))]

    assert_like_torch(run)


@pytest.mark.parametrize("data, size", [([[True, False]], (1, 1)), ([[True, False]], (1, 2)),
                                        (True, ()), ([True, True], ()), (2, ()), ([1, 2], (1,)),
                                        ([[1.0, 2.0]], ())])
def test_sum_to_size_dtypes(data, size):
    assert_like_torch(lambda m: m.tensor(data).sum_to_size(size))
    if isinstance(data, list) and isinstance(data[0], list) and isinstance(data[0][0], float):
        values_like_torch(with_grad(lambda m, x: x.sum_to_size(size), data))
        assert_like_torch(lambda m: type(m.tensor(data, requires_grad=True).sum_to_size(size)
                                         .grad_fn).__name__)


# --- scatter_add takes a tensor source only ------------------------------------------------
@pytest.mark.parametrize("src", [1.0, 2, True])
@pytest.mark.parametrize("form", ["function", "method"])
def test_scatter_add_refuses_a_number_source(src, form):
    def run(m):
        x, index = m.zeros(3), m.tensor([0, 1])
        if form == "function":
            return m.scatter_add(x, 0, index, src)
        return x.scatter_add(0, index, src)

    assert_like_torch(run)


def test_scatter_add_with_a_tensor_source_still_adds():
    def run(m):
        x = m.zeros(3, dtype=m.float64, requires_grad=True)
        src = m.tensor([1.0, 2.0, 3.0], dtype=m.float64, requires_grad=True)
        out = m.scatter_add(x, 0, m.tensor([0, 0, 2]), src)
        (out * m.tensor([1.0, 2.0, 3.0], dtype=m.float64)).sum().backward()
        return [out, x.grad, src.grad]

    assert_like_torch(run)


# --- sort / topk: NaN is the largest value -------------------------------------------------
NAN = math.nan
WITH_NAN = [[1.0, NAN, 3.0, -INF, INF, 0.5], [NAN, 2.0, NAN, -1.0, 7.0, -0.5]]


@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_sort_puts_nan_with_the_largest(descending, dim):
    def run(m):
        x = m.tensor(WITH_NAN, dtype=m.float64, requires_grad=True)
        values, indices = m.sort(x, dim=dim, descending=descending, stable=True)
        weights = m.arange(values.numel(), dtype=values.dtype).reshape(values.shape)
        (values.nan_to_num() * weights).sum().backward()
        return [values, indices, x.argsort(dim, descending), x.grad]

    assert_like_torch(run)


@pytest.mark.parametrize("k", [1, 2, 3])
@pytest.mark.parametrize("largest", [True, False])
def test_topk_puts_nan_with_the_largest(k, largest):
    def run(m):
        x = m.tensor(WITH_NAN, dtype=m.float64, requires_grad=True)
        values, indices = x.topk(k, dim=1, largest=largest)
        (values.nan_to_num() * m.arange(1, k + 1, dtype=values.dtype)).sum().backward()
        return [values, indices, x.grad]

    assert_like_torch(run)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int64", "bool"])
def test_descending_sort_of_integers(dtype):
    assert_like_torch(lambda m: m.sort(m.tensor([3, -128, 127, 0, 5], dtype=m.int64)
                                       .to(getattr(m, dtype)), descending=True, stable=True))


# --- einsum: invalid equations raise PyTorch's errors --------------------------------------
EINSUM_CASES = [
    ("ij,jk->ik", [(2, 2)]), ("ij->i", [(2, 2), (2,)]), ("ij->ik", [(2, 2)]),
    ("ij->ii", [(2, 2)]), ("i1->i", [(2, 2)]), ("ijk->i", [(2, 2)]), ("i->", [(2, 2)]),
    ("ij-i", [(2, 2)]), ("i.j->i", [(2, 2)]), ("ij->I", [(2, 2)]), ("i,j->ij->k", [(2,), (2,)]),
    ("ij->i.", [(2, 2)]), ("...i...->i", [(2, 2)]), ("ij->j i", [(2, 2)]), ("i j->ji", [(2, 2)]),
    ("", [()]), ("->", [()]), ("i->", [()]), ("ij,->", [(2, 2), (2,)]), ("i-,j", [(2,), (2,)]),
    ("ij>i", [(2, 2)]), ("ij,jk", [(2, 3), (3, 2)]), ("...ij->...ji", [(4, 2, 3)]),
    ("i,i,i->", [(3,), (3,)]), ("bij,bjk->bik", [(2, 2, 3), (2, 3, 2)]),
    ("ij->...j", [(2, 3)]), ("i...->..", [(2, 3)]), ("ii->i", [(3, 3)]),
]


@pytest.mark.parametrize("equation, shapes", EINSUM_CASES)
def test_einsum_equations(equation, shapes):
    def run(m):
        operands = [(m.arange(math.prod(s), dtype=m.float64).reshape(s) + 1).requires_grad_()
                    for s in shapes]
        out = m.einsum(equation, *operands)
        out.sum().backward()
        return [out, *(t.grad for t in operands)]

    assert_like_torch(run)
