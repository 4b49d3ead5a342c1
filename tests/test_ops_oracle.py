"""Every op against PyTorch: values, dtypes, gradients and graph node names (float64).

Shapes come from Hypothesis (random broadcastable pairs up to 3-d); each test runs the same
lambda with ``ag`` and with ``torch`` and compares.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from ops_helpers import (
    array,
    assert_grads,
    assert_same,
    backward_both,
    broadcastable_shapes,
    chain,
    check,
    graph,
    leaves,
    nonempty_shapes,
    pair,
    seeds,
    shapes,
)

import autograd_course as ag

torch = pytest.importorskip("torch")


# --- binary element-wise ops with broadcasting ---------------------------------------------
BINARY = {
    "add": (lambda m, a, b: a + b, "any"),
    "sub": (lambda m, a, b: a - b, "any"),
    "mul": (lambda m, a, b: a * b, "any"),
    "div": (lambda m, a, b: a / b, ("any", "nonzero")),
    "pow": (lambda m, a, b: a ** b, ("positive", "any")),
    "add_fn_alpha": (lambda m, a, b: m.add(a, b, alpha=2.5), "any"),
    "sub_fn_alpha": (lambda m, a, b: m.sub(a, b, alpha=-3), "any"),
    "mul_fn": (lambda m, a, b: m.mul(a, b), "any"),
    "div_fn": (lambda m, a, b: m.div(a, b), ("any", "nonzero")),
    "pow_fn": (lambda m, a, b: m.pow(a, b), ("positive", "any")),
    "maximum": (lambda m, a, b: m.maximum(a, b), "any"),
    "minimum": (lambda m, a, b: m.minimum(a, b), "any"),
    "where": (lambda m, a, b: m.where(a > b, a, b), "any"),
    "where_mixed": (lambda m, a, b: m.where(b > 0, a * 2, b.exp()), "any"),
}


@pytest.mark.parametrize("name", BINARY)
@given(shape_pair=broadcastable_shapes(), seed=seeds)
def test_binary_value_and_grad(name, shape_pair, seed):
    fn, domain = BINARY[name]
    check(fn, shape_pair, seed, domain)


COMPARISONS = ["eq", "ne", "lt", "le", "gt", "ge"]


@pytest.mark.parametrize("op", COMPARISONS)
@given(shape_pair=broadcastable_shapes(), seed=seeds)
def test_comparisons_return_bool(op, shape_pair, seed):
    a_shape, b_shape = shape_pair
    a = np.round(array(a_shape, seed)).astype(np.float64)  # rounded: equal values happen
    b = np.round(array(b_shape, seed + 1)).astype(np.float64)
    (ao, at), (bo, bt) = pair(a, False), pair(b, False)
    assert_same(getattr(ao, op)(bo), getattr(at, op)(bt))
    assert_same(getattr(ag, op)(ao, 1.0), getattr(torch, op)(at, 1.0))


def test_comparison_operators_and_logic():
    (ao, at), (bo, bt) = pair([1.0, 2.0, 3.0], False), pair([3.0, 2.0, 1.0], False)
    for fn in (lambda a, b: a == b, lambda a, b: a != b, lambda a, b: a < b, lambda a, b: a <= b,
               lambda a, b: a > b, lambda a, b: a >= b, lambda a, b: (a > 1) & (b > 1),
               lambda a, b: (a > 1) | (b > 2), lambda a, b: ~(a > 1), lambda a, b: 2 < a):
        assert_same(fn(ao, bo), fn(at, bt))
    assert (ao == None) is False and (ao != None) is True  # noqa: E711  (PyTorch's answer)


# --- scalars on either side, and unary minus ------------------------------------------------
SCALAR_FORMS = {
    "x+2": lambda m, x: x + 2, "2+x": lambda m, x: 2 + x, "x-2": lambda m, x: x - 2,
    "2-x": lambda m, x: 2 - x, "x*2.5": lambda m, x: x * 2.5, "2.5*x": lambda m, x: 2.5 * x,
    "x/4": lambda m, x: x / 4, "3/x": lambda m, x: 3 / x, "x**2": lambda m, x: x ** 2,
    "x**3": lambda m, x: x ** 3, "x**0": lambda m, x: x ** 0, "x**1": lambda m, x: x ** 1,
    "x**-1": lambda m, x: x ** -1, "x**-2.5": lambda m, x: x.abs() ** -2.5,
    "x**0.5": lambda m, x: x.abs() ** 0.5, "2**x": lambda m, x: 2 ** x,
    "0.5**x": lambda m, x: 0.5 ** x, "-x": lambda m, x: -x, "+x": lambda m, x: +x,
    "x.add(2,alpha=3)": lambda m, x: x.add(2, alpha=3),
    "x.sub(2,alpha=3)": lambda m, x: x.sub(2, alpha=3),
    "m.pow(x,3)": lambda m, x: m.pow(x, 3), "m.neg": lambda m, x: m.neg(x),
    "x.pow(tensor)": lambda m, x: x.abs().pow(m.tensor(1.5, dtype=m.float64)),
    "tensor**x": lambda m, x: m.tensor(1.5, dtype=m.float64) ** x,
    "reciprocal": lambda m, x: x.reciprocal(),
}


@pytest.mark.parametrize("name", SCALAR_FORMS)
@given(shape=shapes, seed=seeds)
def test_scalar_and_reflected_forms(name, shape, seed):
    check(SCALAR_FORMS[name], [shape], seed, "nonzero")


# --- unary functions -------------------------------------------------------------------------
UNARY = {
    "exp": (lambda m, x: x.exp(), "any"), "log": (lambda m, x: x.log(), "positive"),
    "sqrt": (lambda m, x: x.sqrt(), "positive"), "abs": (lambda m, x: x.abs(), "nonzero"),
    "abs()": (lambda m, x: abs(x), "nonzero"), "sin": (lambda m, x: x.sin(), "any"),
    "cos": (lambda m, x: x.cos(), "any"), "tanh": (lambda m, x: x.tanh(), "any"),
    "sigmoid": (lambda m, x: x.sigmoid(), "any"), "relu": (lambda m, x: x.relu(), "nonzero"),
    "sign": (lambda m, x: x.sign(), "nonzero"),
    "clamp": (lambda m, x: x.clamp(-0.75, 0.75), "any"),
    "clamp_min": (lambda m, x: x.clamp(min=0.25), "any"),
    "clamp_max": (lambda m, x: x.clamp(max=-0.25), "any"),
    "clip": (lambda m, x: x.clip(-1, 1), "any"),
    "m.exp": (lambda m, x: m.exp(x), "any"), "m.log": (lambda m, x: m.log(x), "positive"),
    "m.sqrt": (lambda m, x: m.sqrt(x), "positive"), "m.abs": (lambda m, x: m.abs(x), "nonzero"),
    "m.sin": (lambda m, x: m.sin(x), "any"), "m.cos": (lambda m, x: m.cos(x), "any"),
    "m.tanh": (lambda m, x: m.tanh(x), "any"), "m.sigmoid": (lambda m, x: m.sigmoid(x), "any"),
    "m.relu": (lambda m, x: m.relu(x), "nonzero"),
    "m.clamp": (lambda m, x: m.clamp(x, -0.5, 0.5), "any"),
}


@pytest.mark.parametrize("name", UNARY)
@given(shape=shapes, seed=seeds)
def test_unary_value_and_grad(name, shape, seed):
    fn, domain = UNARY[name]
    check(fn, [shape], seed, domain)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # sqrt(-1), 1/0: NumPy's, see ag.ops
def test_unary_at_special_points():
    """Where the derivative has a kink, PyTorch's choices: |x|' = 0, relu'(0) = 0,
    clamp passes the gradient on its (inclusive) bounds."""
    data = [-1.0, -0.5, 0.0, 0.5, 1.0]
    for fn in (lambda x: x.abs(), lambda x: x.relu(), lambda x: x.clamp(-0.5, 0.5),
               lambda x: x.sqrt(), lambda x: x.sign(), lambda x: x.sigmoid()):
        (xo, xt) = pair(data)
        assert_same(fn(xo), fn(xt))
        fn(xo).sum().backward()
        fn(xt).sum().backward()
        assert_grads([xo], [xt])


def test_sigmoid_and_exp_extremes():
    (xo, xt) = pair([-1000.0, -30.0, 0.0, 30.0, 1000.0])
    with warnings.catch_warnings(record=True) as caught:
        ag.ops.silence_numpy_warnings()  # done on import; pytest resets filters after collecting
        assert_same(xo.sigmoid(), xt.sigmoid())
        assert_same(xo.exp(), xt.exp())
        assert_same((-xo).log(), (-xt).log())  # nan and -inf, silently, as in PyTorch
        xo.sigmoid().sum().backward()
    assert not [w for w in caught if issubclass(w.category, RuntimeWarning)]
    xt.sigmoid().sum().backward()
    assert_grads([xo], [xt])


# --- reductions ------------------------------------------------------------------------------
@st.composite
def shape_and_dims(draw, min_dims=0):
    shape = draw(st.lists(st.integers(1, 4), min_size=min_dims, max_size=3).map(tuple))
    ndim = len(shape)
    if ndim == 0:
        dim = draw(st.sampled_from([None, 0, -1]))
    else:
        dim = draw(st.one_of(
            st.none(), st.integers(-ndim, ndim - 1),
            st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim, unique=True)
            .map(tuple),
        ))
    return shape, dim, draw(st.booleans())


@pytest.mark.parametrize("op", ["sum", "mean"])
@given(case=shape_and_dims(), seed=seeds)
def test_sum_mean(op, case, seed):
    shape, dim, keepdim = case
    if dim is None:
        check(lambda m, x: getattr(x, op)(), [shape], seed)
        check(lambda m, x: getattr(m, op)(x), [shape], seed)
    else:
        check(lambda m, x: getattr(x, op)(dim, keepdim=keepdim), [shape], seed)
        check(lambda m, x: getattr(m, op)(x, dim, keepdim), [shape], seed)


@pytest.mark.parametrize("op", ["var", "std"])
@given(case=shape_and_dims(min_dims=1), seed=seeds,
       correction=st.sampled_from([None, 0, 1, 2]))
def test_var_std(op, case, seed, correction):
    shape, dim, keepdim = case
    dims = range(len(shape)) if dim is None else ([dim] if isinstance(dim, int) else dim)
    if math.prod(shape[d] for d in dims) <= (1 if correction is None else correction):
        return  # no degrees of freedom left: inf/nan plus a warning in PyTorch
    kwargs = {} if correction is None else {"correction": correction}
    check(lambda m, x: getattr(x, op)(dim, keepdim=keepdim, **kwargs), [shape], seed)
    check(lambda m, x: getattr(m, op)(x, dim, keepdim=keepdim, **kwargs), [shape], seed)


def test_var_unbiased_flag():
    check(lambda m, x: x.var(unbiased=False), [(3, 4)])
    check(lambda m, x: x.std(1, unbiased=False), [(3, 4)])
    check(lambda m, x: x.var(0, True, True), [(3, 4)])


@pytest.mark.parametrize("p", [2, 1, 3, 0.5, math.inf, "fro"])
@given(case=shape_and_dims(), seed=seeds)
def test_norm(p, case, seed):
    shape, dim, keepdim = case
    if p == "fro" and isinstance(dim, tuple) and len(dim) > 2:
        return  # PyTorch sends that case to matrix_norm, which wants a 2-tuple
    check(lambda m, x: x.norm(p, dim, keepdim), [shape], seed, "nonzero")
    check(lambda m, x: m.norm(x, p=p, dim=dim, keepdim=keepdim), [shape], seed, "nonzero")


def test_norm_of_zero_vector_has_zero_gradient():
    for p in (2, 3, math.inf):
        check(lambda m, x, p=p: (x * 0).norm(p), [(3,)])


@pytest.mark.parametrize("op", ["max", "min"])
@given(case=shape_and_dims(), seed=seeds)
def test_max_min(op, case, seed):
    shape, dim, keepdim = case
    if dim is None:
        check(lambda m, x: getattr(x, op)(), [shape], seed)
        check(lambda m, x: getattr(x, "a" + op)(), [shape], seed)
        return
    if isinstance(dim, int):
        check(lambda m, x: getattr(x, op)(dim, keepdim).values, [shape], seed)
        check(lambda m, x: getattr(m, op)(x, dim, keepdim=keepdim)[0], [shape], seed)
        (xo, xt) = leaves([shape], seed)
        assert_same(getattr(xo[0], op)(dim, keepdim).indices,
                    getattr(xt[0], op)(dim, keepdim).indices)
        assert_same(getattr(xo[0], "arg" + op)(dim, keepdim), getattr(xt[0], "arg" + op)(dim,
                                                                                         keepdim))
    check(lambda m, x: getattr(x, "a" + op)(dim, keepdim), [shape], seed)


def test_max_ties_share_the_gradient():
    data = [[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]]
    for fn in (lambda m, x: x.max(), lambda m, x: x.min(), lambda m, x: x.amax(1),
               lambda m, x: x.amin(0), lambda m, x: m.maximum(x, x[:, [2, 1, 0]])):
        ours, theirs = pair(data)
        backward_both(fn(ag, ours), fn(torch, theirs))
        assert_grads([ours], [theirs])


def test_argmax_argmin_whole_tensor():
    ours, theirs = pair(array((3, 4), 5), False)
    assert_same(ours.argmax(), theirs.argmax())
    assert_same(ag.argmax(ours, 1), torch.argmax(theirs, 1))
    assert_same(ours.argmin(0, keepdim=True), theirs.argmin(0, keepdim=True))


def test_max_over_dim_returns_named_tuple():
    ours, theirs = pair([[1.0, 5.0], [7.0, 2.0]])
    o, t = ours.max(1), theirs.max(1)
    assert repr(o).replace("ag.", "torch.").splitlines()[0] == repr(t).splitlines()[0]
    assert_same(o.values, t.values)
    assert_same(o.indices, t.indices)
    values, indices = ours.min(dim=0)
    assert indices.tolist() == [0, 1] and not indices.requires_grad


def test_integer_sum_and_bool_sum():
    for data in ([1, 2, 3], [True, False, True]):
        ours, theirs = pair(data, False)
        assert_same(ours.sum(), theirs.sum())
        assert_same(ours.sum(0, keepdim=True), theirs.sum(0, keepdim=True))
    ours, theirs = pair([1, 2, 3], False)
    assert_same(ours.sum(dtype=ag.float64), theirs.sum(dtype=torch.float64))


# --- shape ops -------------------------------------------------------------------------------
@st.composite
def shape_and_permutation(draw):
    shape = draw(st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple))
    return shape, tuple(draw(st.permutations(range(len(shape)))))


@given(case=shape_and_permutation(), seed=seeds)
def test_permute_transpose(case, seed):
    shape, perm = case
    check(lambda m, x: x.permute(*perm), [shape], seed)
    check(lambda m, x: m.permute(x, perm), [shape], seed)
    check(lambda m, x: x.transpose(0, -1), [shape], seed)
    check(lambda m, x: m.transpose(x, perm[0], perm[-1]), [shape], seed)


@given(shape=nonempty_shapes, seed=seeds)
def test_reshape_view_flatten(shape, seed):
    n = math.prod(shape)
    check(lambda m, x: x.reshape(-1), [shape], seed)
    check(lambda m, x: x.view(n, 1), [shape], seed)
    check(lambda m, x: x.reshape((1, n)), [shape], seed)
    check(lambda m, x: m.reshape(x, (-1, shape[-1])), [shape], seed)
    check(lambda m, x: x.view_as(m.zeros(n)), [shape], seed)
    check(lambda m, x: x.flatten(), [shape], seed)
    check(lambda m, x: m.flatten(x, -len(shape)), [shape], seed)
    check(lambda m, x: x.flatten(0, -1), [shape], seed)
    if len(shape) == 3:
        check(lambda m, x: x.flatten(1), [shape], seed)
        check(lambda m, x: x.flatten(0, 1), [shape], seed)


@given(shape=shapes, seed=seeds, data=st.data())
def test_unsqueeze_squeeze(shape, seed, data):
    dim = data.draw(st.integers(-len(shape) - 1, len(shape)))
    check(lambda m, x: x.unsqueeze(dim), [shape], seed)
    check(lambda m, x: m.unsqueeze(x, dim).squeeze(dim), [shape], seed)
    with_ones = tuple(n for s in shape for n in (s, 1))
    check(lambda m, x: x.squeeze(), [with_ones], seed)
    check(lambda m, x: m.squeeze(x), [with_ones], seed)
    if with_ones:
        d = data.draw(st.integers(-len(with_ones), len(with_ones) - 1))
        check(lambda m, x: x.squeeze(d), [with_ones], seed)
        if d % len(with_ones):
            check(lambda m, x: x.squeeze((0, d)), [with_ones], seed)


@given(shape_pair=broadcastable_shapes(), seed=seeds)
def test_expand(shape_pair, seed):
    small, big = shape_pair
    target = tuple(np.broadcast_shapes(small, big))
    if target:
        check(lambda m, x: x.expand(*target), [small], seed)
    check(lambda m, x: x.expand((2,) + target), [small], seed)
    check(lambda m, x: x.expand_as(m.zeros(target)), [small], seed)
    if small:
        minus = (-1,) * len(small)
        check(lambda m, x: x.expand(*((3,) + minus)), [small], seed)


def test_t_and_T():
    check(lambda m, x: x.t(), [(3, 4)])
    check(lambda m, x: m.t(x), [(4,)])
    check(lambda m, x: x.t(), [()])
    check(lambda m, x: x.T, [(3, 4)])
    check(lambda m, x: x.mT, [(2, 3, 4)])
    with pytest.warns(UserWarning, match="The use of `x.T` on tensors of dimension other"):
        ours = ag.zeros(2, 3, 4).T
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert ours.shape == torch.zeros(2, 3, 4).T.shape


@given(shape=nonempty_shapes, seed=seeds, data=st.data())
def test_cat_stack(shape, seed, data):
    dim = data.draw(st.integers(-len(shape), len(shape) - 1))
    other = list(shape)
    other[dim] = data.draw(st.integers(1, 3))
    check(lambda m, a, b: m.cat([a, b, a], dim), [shape, tuple(other)], seed)
    check(lambda m, a, b: m.cat((a, b), dim=dim), [shape, tuple(other)], seed)
    new = data.draw(st.integers(-len(shape) - 1, len(shape)))
    check(lambda m, a, b: m.stack([a, b, a], new), [shape, shape], seed)


def test_cat_stack_with_constants_and_dtypes():
    check(lambda m, a: m.cat([a, m.ones(2, dtype=m.float64)]), [(3,)])
    check(lambda m, a: m.stack([m.zeros(3, dtype=m.float64), a], 1), [(3,)])
    ours = ag.cat([ag.ones(2), ag.ones(2, dtype=ag.float64)])
    assert str(ours.dtype) == str(torch.cat([torch.ones(2),
                                             torch.ones(2, dtype=torch.float64)]).dtype)
    assert ag.concat([ag.ones(1), ag.zeros(1)]).tolist() == [1.0, 0.0]


@given(shapes3=st.tuples(broadcastable_shapes(), broadcastable_shapes()), seed=seeds)
def test_where_three_way_broadcast(shapes3, seed):
    (c_shape, a_shape), (_, b_shape) = shapes3
    cond = array(c_shape, seed) > 0
    co, ct = ag.tensor(cond), torch.tensor(cond)
    try:
        np.broadcast_shapes(c_shape, a_shape, b_shape)
    except ValueError:
        return
    for fn in (lambda m, c, a, b: m.where(c, a, b), lambda m, c, a, b: m.where(c, a, 0.5),
               lambda m, c, a, b: m.where(c, -1.0, b), lambda m, c, a, b: a.where(c, b)):
        ours, theirs = leaves([a_shape, b_shape], seed)
        out_o, out_t = fn(ag, co, *ours), fn(torch, ct, *theirs)
        assert_same(out_o, out_t)
        backward_both(out_o, out_t)
        assert_grads(ours, theirs)
    assert_same(ag.where(co, 1.0, 0.0), torch.where(ct, 1.0, 0.0))


def test_clone_select_contiguous():
    check(lambda m, x: x.clone() * 2, [(2, 3)])
    check(lambda m, x: m.clone(x), [(2, 3)])
    check(lambda m, x: x.select(1, -1), [(2, 3)])
    check(lambda m, x: x.t().contiguous(), [(2, 3)])


# --- indexing --------------------------------------------------------------------------------
def _mask(m, shape, seed):
    return m.tensor(array(shape, seed) > 0)


INDEX_KEYS = {
    "int": lambda m: 1, "negative int": lambda m: -1, "slice": lambda m: slice(1, None),
    "full slice": lambda m: slice(None), "step slice": lambda m: slice(None, None, 2),
    "negative slice": lambda m: slice(-2, None), "empty slice": lambda m: slice(2, 1),
    "int, int": lambda m: (0, 1), "int, slice": lambda m: (0, slice(1, 3)),
    "slice, int": lambda m: (slice(None), 2), "ellipsis, int": lambda m: (Ellipsis, 0),
    "ellipsis": lambda m: Ellipsis, "empty tuple": lambda m: (),
    "None": lambda m: None, "None, int": lambda m: (None, 0),
    "slice, None, int": lambda m: (slice(None), None, 1),
    "None, ellipsis, None": lambda m: (None, Ellipsis, None),
    "list": lambda m: [0, 2], "repeated list": lambda m: [2, 0, 2, 2],
    "negative list": lambda m: [-1, 0], "list, list": lambda m: ([0, 1, 1], [3, 3, 0]),
    "list, slice, list": lambda m: ([0, 1], slice(None), [1, 4]),
    "int, slice, list": lambda m: (0, slice(None), [0, 1, 0]),
    "list, int": lambda m: ([0, 1], 0),
    "slice, list": lambda m: (slice(1, None), [3, 0, 3]),
    "int tensor": lambda m: m.tensor([2, 0, 2]), "2-d int tensor": lambda m: m.tensor([[0, 1],
                                                                                    [1, 1]]),
    "0-d int tensor": lambda m: m.tensor(1),
    "tensor, tensor broadcast": lambda m: (m.tensor([[0], [2]]), m.tensor([[1, 1, 3]])),
    "mask": lambda m: _mask(m, (3, 4, 5), 7), "mask 1-d": lambda m: m.tensor([True, False, True]),
    "mask 2-d": lambda m: _mask(m, (3, 4), 8), "slice, mask": lambda m: (
        slice(1, None), m.tensor([True, False, True, True])),
    "mask, int": lambda m: (m.tensor([True, False, True]), 0),
    "bool list": lambda m: [True, False, True], "empty list": lambda m: [],
    "True": lambda m: True,
}


@pytest.mark.parametrize("name", INDEX_KEYS)
def test_indexing(name):
    """Values, gradients (summed where picked twice) and the recorded nodes, as in PyTorch."""
    key_for = INDEX_KEYS[name]
    ours, theirs = leaves([(3, 4, 5)], 3)
    out_o, out_t = ours[0][key_for(ag)], theirs[0][key_for(torch)]
    assert_same(out_o, out_t)
    assert chain(out_o) == chain(out_t)
    backward_both(out_o, out_t)
    assert_grads(ours, theirs)


def test_indexing_one_and_zero_dim():
    check(lambda m, x: x[2], [(4,)])
    check(lambda m, x: x[[1, 1, 3]], [(4,)])
    check(lambda m, x: x[None], [()])
    check(lambda m, x: x[...], [()])
    check(lambda m, x: x[x > 0], [(4,)])


def test_indexing_with_numpy_integers_and_arrays():
    check(lambda m, x: x[np.int64(1)], [(3, 2)])
    ours, theirs = leaves([(3, 2)])
    assert_same(ours[0][np.array([0, 2])], theirs[0][torch.tensor([0, 2])])


def test_repeated_index_gradients_accumulate():
    ours, theirs = pair([1.0, 2.0, 3.0])
    (ours[[0, 0, 2, 0]] * ag.tensor([1.0, 2.0, 3.0, 4.0], dtype=ag.float64)).sum().backward()
    (theirs[[0, 0, 2, 0]] * torch.tensor([1.0, 2.0, 3.0, 4.0],
                                         dtype=torch.float64)).sum().backward()
    assert_grads([ours], [theirs])
    assert ours.grad.tolist() == [7.0, 0.0, 3.0]


def test_basic_index_is_a_view():
    """x[0] shares memory with x (as in PyTorch): writing into it changes x."""
    x = ag.zeros(2, 3)
    row = x[0]
    row[1] = 5.0
    assert x.tolist() == [[0.0, 5.0, 0.0], [0.0, 0.0, 0.0]]


# --- matmul ----------------------------------------------------------------------------------
MATMUL_SHAPES = [
    ((4,), (4,)), ((3, 4), (4,)), ((4,), (4, 5)), ((3, 4), (4, 5)),
    ((2, 3, 4), (4,)), ((4,), (2, 4, 5)), ((2, 3, 4), (4, 5)), ((3, 4), (2, 4, 5)),
    ((2, 3, 4), (2, 4, 5)), ((2, 1, 3, 4), (5, 4, 2)), ((1, 3, 4), (6, 4, 2)),
    ((2, 2, 3, 4), (4,)), ((4,), (3, 1, 4, 2)), ((5, 1, 3, 4), (1, 2, 4, 2)),
]


@pytest.mark.parametrize("a_shape,b_shape", MATMUL_SHAPES)
def test_matmul_all_ranks(a_shape, b_shape):
    check(lambda m, a, b: a @ b, [a_shape, b_shape], rtol=1e-10)
    check(lambda m, a, b: m.matmul(a, b), [a_shape, b_shape], seed=4, rtol=1e-10)
    check(lambda m, a, b: a.matmul(b), [a_shape, b_shape], seed=5, rtol=1e-10)


@given(n=st.integers(1, 4), k=st.integers(1, 4), p=st.integers(1, 4),
       batch=st.lists(st.integers(1, 3), max_size=2).map(tuple), seed=seeds)
def test_matmul_random_sizes(n, k, p, batch, seed):
    check(lambda m, a, b: a @ b, [batch + (n, k), (k, p)], seed)
    check(lambda m, a, b: a @ b, [(n, k), batch + (k, p)], seed)
    check(lambda m, a, b: a @ b, [batch + (n, k), batch + (k, p)], seed)


def test_mm_mv_dot_addmm():
    check(lambda m, a, b: m.mm(a, b), [(2, 3), (3, 4)])
    check(lambda m, a, b: a.mm(b), [(2, 3), (3, 4)])
    check(lambda m, a, b: m.mv(a, b), [(2, 3), (3,)])
    check(lambda m, a, b: a.mv(b), [(2, 3), (3,)])
    check(lambda m, a, b: m.dot(a, b), [(3,), (3,)])
    check(lambda m, a, b: a.dot(b), [(3,), (3,)])
    check(lambda m, c, a, b: m.addmm(c, a, b), [(4,), (2, 3), (3, 4)])
    check(lambda m, c, a, b: m.addmm(c, a, b), [(2, 4), (2, 3), (3, 4)])


def test_matmul_with_constant_operand():
    ours, theirs = leaves([(3, 4)])
    w = array((4, 2), 1)
    out_o, out_t = ours[0] @ ag.tensor(w), theirs[0] @ torch.tensor(w)
    assert_same(out_o, out_t)
    backward_both(out_o, out_t)
    assert_grads(ours, theirs)


# --- binary_cross_entropy_with_logits --------------------------------------------------------
BCE = "binary_cross_entropy_with_logits"


def _bce(m):
    return getattr(m.nn.functional, BCE) if m is torch else getattr(ag.ops, BCE)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@given(shape=nonempty_shapes, seed=seeds)
def test_bce_with_logits(reduction, shape, seed):
    for extra in ({}, {"weight": array(shape, seed + 8, "positive")},
                  {"pos_weight": array(shape[-1:], seed + 9, "positive")}):
        def fn(m, z, t, extra=extra):
            kwargs = {k: m.tensor(v) for k, v in extra.items()}
            return _bce(m)(z * 3, t.sigmoid(), reduction=reduction, **kwargs)

        ours, theirs = leaves([shape, shape], seed)
        out_o, out_t = fn(ag, *ours), fn(torch, *theirs)
        assert_same(out_o, out_t)
        backward_both(out_o, out_t)
        assert_grads(ours, theirs)


def test_bce_with_logits_is_stable_for_huge_logits():
    logits = [-1000.0, -50.0, 0.0, 50.0, 1000.0]
    for target in ([0.0, 1.0, 0.5, 0.0, 1.0], [1.0, 0.0, 0.5, 1.0, 0.0]):
        for dtype in ("float32", "float64"):
            zo = ag.tensor(logits, dtype=getattr(ag, dtype), requires_grad=True)
            zt = torch.tensor(logits, dtype=getattr(torch, dtype), requires_grad=True)
            with warnings.catch_warnings(record=True) as caught:
                ag.ops.silence_numpy_warnings()
                lo = _bce(ag)(zo, ag.tensor(target, dtype=getattr(ag, dtype)))
                lo.backward()
            assert not caught
            lt = _bce(torch)(zt, torch.tensor(target, dtype=getattr(torch, dtype)))
            lt.backward()
            assert math.isfinite(lo.item())
            assert_same(lo, lt, rtol=1e-6)
            assert_same(zo.grad, zt.grad, rtol=1e-6)


# --- dtype rules -----------------------------------------------------------------------------
DTYPE_CASES = {
    "float32 * python float": lambda m: m.ones(2) * 2.5,
    "float32 + python int": lambda m: m.ones(2) + 2,
    "float64 * python float": lambda m: m.ones(2, dtype=m.float64) * 2.5,
    "int * 2.5": lambda m: m.tensor([1, 2]) * 2.5,
    "int * 2": lambda m: m.tensor([1, 2]) * 2,
    "int / int": lambda m: m.tensor([1, 2]) / m.tensor([2, 4]),
    "int / 2": lambda m: m.tensor([1, 2]) / 2,
    "2 / int": lambda m: 2 / m.tensor([1, 2]),
    "float32 + float64": lambda m: m.ones(2) + m.ones(2, dtype=m.float64),
    "0-d float64 * float32": lambda m: m.tensor(2.0, dtype=m.float64) * m.ones(2),
    "float32 * 0-d float64": lambda m: m.ones(2) * m.tensor(2.0, dtype=m.float64),
    "0-d float64 * int": lambda m: m.tensor(2.0, dtype=m.float64) * m.tensor([1, 2]),
    "0-d float32 * 0-d float64": lambda m: m.tensor(2.0) * m.tensor(2.0, dtype=m.float64),
    "0-d int * float32": lambda m: m.tensor(2) * m.ones(2),
    "int32 + 0-d int64": lambda m: m.tensor([1, 2], dtype=m.int32) + m.tensor(5),
    "int64 + float32": lambda m: m.tensor([1, 2]) + m.ones(2),
    "bool + 2": lambda m: m.tensor([True, False]) + 2,
    "bool + 2.5": lambda m: m.tensor([True, False]) + 2.5,
    "bool * bool": lambda m: m.tensor([True, False]) * m.tensor([True, True]),
    "int ** 2": lambda m: m.tensor([1, 2]) ** 2,
    "int ** 2.5": lambda m: m.tensor([1, 2]) ** 2.5,
    "2 ** int": lambda m: 2 ** m.tensor([1, 2]),
    "2.5 ** int": lambda m: 2.5 ** m.tensor([1, 2]),
    "int ** int": lambda m: m.tensor([1, 2]) ** m.tensor([2, 3]),
    "int ** 0-d float": lambda m: m.tensor([1, 2]) ** m.tensor(2.0),
    "2 - int": lambda m: 2 - m.tensor([1, 2]),
    "float32 where 0.": lambda m: m.where(m.ones(2) > 0, m.ones(2), 0.0),
    "where two numbers": lambda m: m.where(m.ones(2) > 0, 1.0, 0.0),
    "float32 matmul": lambda m: m.ones(2, 3) @ m.ones(3),
    "float32 sum": lambda m: m.ones(2).sum(),
    "int sum": lambda m: m.tensor([1, 2], dtype=m.int32).sum(),
    "float32 maximum float64": lambda m: m.maximum(m.ones(2), m.ones(2, dtype=m.float64)),
    "float32 == 1": lambda m: m.ones(2) == 1,
    "int > 0.5": lambda m: m.tensor([1, 2]) > 0.5,
}


@pytest.mark.parametrize("name", DTYPE_CASES)
def test_dtype_rules(name):
    ours, theirs = DTYPE_CASES[name](ag), DTYPE_CASES[name](torch)
    assert_same(ours, theirs)


def test_grad_keeps_the_leaf_dtype():
    """float32 leaf mixed with float64 numbers: the gradient is float32, like the leaf."""
    xo = ag.ones(2, requires_grad=True)
    xt = torch.ones(2, requires_grad=True)
    (xo * ag.ones(2, dtype=ag.float64)).sum().backward()
    (xt * torch.ones(2, dtype=torch.float64)).sum().backward()
    assert_same(xo.grad, xt.grad)


# --- graph node names ------------------------------------------------------------------------
X34 = (3, 4)
NODE_CASES = {
    "add": lambda m, x: x + x, "add scalar": lambda m, x: x + 1, "radd": lambda m, x: 1 + x,
    "sub": lambda m, x: x - 1, "rsub": lambda m, x: 1 - x, "mul": lambda m, x: x * 2,
    "div": lambda m, x: x / 2, "rdiv": lambda m, x: 2 / x, "neg": lambda m, x: -x,
    "pow scalar": lambda m, x: x ** 2, "pow tensor": lambda m, x: x ** x,
    "rpow": lambda m, x: 2 ** x, "exp": lambda m, x: x.exp(), "log": lambda m, x: x.log(),
    "sqrt": lambda m, x: x.sqrt(), "abs": lambda m, x: x.abs(), "sin": lambda m, x: x.sin(),
    "cos": lambda m, x: x.cos(), "tanh": lambda m, x: x.tanh(),
    "sigmoid": lambda m, x: x.sigmoid(), "relu": lambda m, x: x.relu(),
    "clamp": lambda m, x: x.clamp(0, 1), "clamp min": lambda m, x: x.clamp(min=0),
    "sign": lambda m, x: x.sign(), "reciprocal": lambda m, x: x.reciprocal(),
    "sum": lambda m, x: x.sum(), "sum dim": lambda m, x: x.sum(0),
    "mean": lambda m, x: x.mean(), "mean dim": lambda m, x: x.mean(1, keepdim=True),
    "max": lambda m, x: x.max(), "max dim": lambda m, x: x.max(0)[0],
    "min": lambda m, x: x.min(), "min dim": lambda m, x: x.min(1).values,
    "amax": lambda m, x: x.amax(0), "amin": lambda m, x: x.amin(),
    "norm": lambda m, x: x.norm(), "norm dim": lambda m, x: x.norm(dim=1),
    "var": lambda m, x: x.var(), "std": lambda m, x: x.std(0),
    "maximum": lambda m, x: m.maximum(x, x * 2), "minimum": lambda m, x: m.minimum(x, 0.5 * x),
    "reshape": lambda m, x: x.reshape(12), "view": lambda m, x: x.view(2, 6),
    "flatten": lambda m, x: x.flatten(), "transpose": lambda m, x: x.transpose(0, 1),
    "t": lambda m, x: x.t(), "T": lambda m, x: x.T, "mT": lambda m, x: x.mT,
    "permute": lambda m, x: x.permute(1, 0), "unsqueeze": lambda m, x: x.unsqueeze(1),
    "squeeze": lambda m, x: x.unsqueeze(0).squeeze(),
    "squeeze dim": lambda m, x: x.unsqueeze(0).squeeze(0),
    "squeeze dim no-op": lambda m, x: x.squeeze(1),
    "squeeze dims": lambda m, x: x.unsqueeze(0).squeeze((0, 1)),
    "expand": lambda m, x: x.expand(2, 3, 4), "select": lambda m, x: x[0],
    "slice": lambda m, x: x[1:], "index": lambda m, x: x[[0, 2]],
    "mask": lambda m, x: x[x > 0], "cat": lambda m, x: m.cat([x, x]),
    "stack": lambda m, x: m.stack([x, x]), "where": lambda m, x: m.where(x > 0, x, 0.0),
    "clone": lambda m, x: x.clone(), "to float32": lambda m, x: x.float(),
    "sum_to_size": lambda m, x: x.sum_to_size(1, 4),
    "mm": lambda m, x: x @ x.t(), "mv": lambda m, x: x @ x[0], "dot": lambda m, x: x[0] @ x[1],
    "vector @ matrix": lambda m, x: x[:, 0] @ x,
    "bce": lambda m, x: _bce(m)(x, m.ones(3, 4, dtype=m.float64)),
}


@pytest.mark.parametrize("name", NODE_CASES)
def test_node_names_match_pytorch(name):
    fn = NODE_CASES[name]
    ours, theirs = leaves([X34], domain="positive")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # x.T on 3-d and friends
        out_o, out_t = fn(ag, ours[0]), fn(torch, theirs[0])
    assert chain(out_o) == chain(out_t)
    assert type(out_o.grad_fn).__name__ == type(out_t.grad_fn).__name__
    assert graph(out_o.grad_fn) == graph(out_t.grad_fn)


def test_batched_matmul_node_is_ours():
    """A deliberate difference: PyTorch records reshapes around mm/bmm for batched operands
    (UnsafeViewBackward0 -> BmmBackward0 -> ViewBackward0 -> ExpandBackward0 ...); we record
    one BmmBackward0 node (plus SqueezeBackward4 when an operand is 1-d), which is easier to
    read. Values and gradients are identical (test_matmul_all_ranks)."""
    a = ag.ones(2, 3, 4, requires_grad=True)
    assert chain(a @ ag.ones(2, 4, 5)) == ["BmmBackward0"]
    assert chain(a @ ag.ones(4, 5)) == ["BmmBackward0"]
    assert chain(a @ ag.ones(4)) == ["SqueezeBackward4", "BmmBackward0"]
    out = ag.ones(3) @ ag.ones(2, 3, 4, requires_grad=True).exp()
    assert graph(out.grad_fn)[0] == "SqueezeBackward4"
    bmm = out.grad_fn.next_functions[0][0]
    assert [n and n.name() for n, _ in bmm.next_functions] == [None, "ExpBackward0"]


def test_next_functions_of_x_plus_2():
    xo, xt = ag.ones(2, 2, requires_grad=True), torch.ones(2, 2, requires_grad=True)
    yo, yt = xo + 2, xt + 2
    assert graph(yo.grad_fn) == graph(yt.grad_fn)
    assert yo.grad_fn.next_functions[0][0].variable is xo
    assert yo.grad_fn.next_functions[1] == (None, 0)


def test_next_functions_of_note_001_polynomial():
    ao, at = pair([2.0, 3.0])
    bo, bt = pair([6.0, 4.0])
    qo, qt = 3 * ao ** 3 - bo ** 2, 3 * at ** 3 - bt ** 2
    assert graph(qo.grad_fn) == graph(qt.grad_fn)
    assert chain(qo) == ["SubBackward0", "MulBackward0", "PowBackward0"]


def test_next_functions_of_note_002_linear_layer():
    """matmul(x, w) + b with a 1-d x: Add -> (SqueezeBackward4 -> MmBackward0, AccumulateGrad),
    and the unsqueezed x needs no gradient: (None, 0)."""
    x = array((5,), 1)
    wo, wt = pair(array((5, 3), 2))
    bo, bt = pair(array((3,), 3))
    zo = ag.matmul(ag.tensor(x), wo) + bo
    zt = torch.matmul(torch.tensor(x), wt) + bt
    assert graph(zo.grad_fn) == graph(zt.grad_fn)
    squeeze = zo.grad_fn.next_functions[0][0]
    assert squeeze.name() == "SqueezeBackward4"
    assert [n and n.name() for n, _ in squeeze.next_functions[0][0].next_functions] == [
        None, "torch::autograd::AccumulateGrad"]
    loss_o = _bce(ag)(zo, ag.zeros(3, dtype=ag.float64))
    loss_t = _bce(torch)(zt, torch.zeros(3, dtype=torch.float64))
    assert graph(loss_o.grad_fn) == graph(loss_t.grad_fn)
    loss_o.backward()
    loss_t.backward()
    assert_grads([wo, bo], [wt, bt])


def test_in_place_node_names():
    """add_ on a non-leaf is recorded as AddBackward0 on top of the old history."""
    for fn in (lambda t: t.add_(1), lambda t: t.mul_(2), lambda t: t.zero_(),
               lambda t: t.fill_(3.0), lambda t: t.sub_(1), lambda t: t.div_(2),
               lambda t: t.clamp_(0, 1)):
        ours, theirs = leaves([(3,)])
        out_o, out_t = fn(ours[0] * 1), fn(theirs[0] * 1)
        assert graph(out_o.grad_fn) == graph(out_t.grad_fn)


# --- module-level functions ------------------------------------------------------------------
MODULE_FUNCTIONS = {
    **{name: lambda m, x, y, name=name: getattr(m, name)(x) for name in (
        "abs", "exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid", "relu", "neg", "negative",
        "sign", "reciprocal", "sum", "mean", "amax", "amin", "var", "std", "norm", "max", "min",
        "flatten", "t", "squeeze", "clone")},
    **{name: lambda m, x, y, name=name: getattr(m, name)(x, y) for name in (
        "add", "sub", "mul", "div", "pow", "maximum", "minimum", "multiply", "subtract",
        "divide", "true_divide", "rsub", "eq", "ne", "lt", "le", "gt", "ge", "matmul", "mm")},
    "argmax": lambda m, x, y: m.argmax(x), "argmin": lambda m, x, y: m.argmin(x, 1),
    "reshape": lambda m, x, y: m.reshape(x, (-1,)), "transpose": lambda m, x, y: m.transpose(
        x, 0, 1), "permute": lambda m, x, y: m.permute(x, (1, 0)),
    "unsqueeze": lambda m, x, y: m.unsqueeze(x, 0), "cat": lambda m, x, y: m.cat([x, y]),
    "concat": lambda m, x, y: m.concat([x, y], 1),
    "concatenate": lambda m, x, y: m.concatenate([x, y]),
    "stack": lambda m, x, y: m.stack([x, y]), "where": lambda m, x, y: m.where(x > y, x, y),
    "select": lambda m, x, y: m.select(x, 1, 0), "mv": lambda m, x, y: m.mv(x, y[0]),
    "dot": lambda m, x, y: m.dot(x[0], y[1]), "addmm": lambda m, x, y: m.addmm(y, x, y),
    "clamp": lambda m, x, y: m.clamp(x, 0.8, 1.2), "clip": lambda m, x, y: m.clip(x, max=1.0),
    "binary_cross_entropy_with_logits": lambda m, x, y: m.binary_cross_entropy_with_logits(
        x, y.sigmoid(), None, None, 1),
}


@pytest.mark.parametrize("name", MODULE_FUNCTIONS)
def test_module_level_functions(name):
    """ag.exp(x), ag.matmul(a, b)... exist with PyTorch's names and give PyTorch's results."""
    assert callable(getattr(ag, name))
    if name == "binary_cross_entropy_with_logits":  # torch's low-level signature differs
        check(lambda m, x, y: (_bce(m) if m is torch else ag.binary_cross_entropy_with_logits)(
            x, y.sigmoid()), [(2, 2), (2, 2)], domain="positive")
        return
    check(MODULE_FUNCTIONS[name], [(2, 2), (2, 2)], domain="positive")
