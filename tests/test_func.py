"""``ag.func`` (grad, grad_and_value, vjp, jvp, jacrev, jacfwd, hessian, vmap,
functional_call) against ``torch.func``: values, shapes, nesting, whether results keep a graph,
and the errors for bad input (argnums, outputs that are not tensors, tangents that do not fit)."""

from __future__ import annotations

import numpy as np
import pytest
from oracle_helpers import assert_like_torch

RNG = np.random.default_rng(0)
X, W = RNG.standard_normal(3), RNG.standard_normal((2, 3))
XS, YS = RNG.standard_normal((4, 3)), RNG.standard_normal(4)
BATCH3 = RNG.standard_normal((2, 3, 4))


def f(x):
    return (x.sin() * x).sum()


def layer(x, w):
    return (w @ x).exp()


def sq_loss(w, x, y):
    return (x @ w - y) ** 2


CASES = {
    "grad": lambda m, F, x, w: F.grad(f)(x),
    "grad_of_grad": lambda m, F, x, w: F.grad(lambda x: F.grad(f)(x).sum())(x),
    "grad_and_value_argnums": lambda m, F, x, w: F.grad_and_value(
        lambda x, w: (w @ x).tanh().sum(), argnums=(0, 1))(x, w),
    "grad_negative_argnum": lambda m, F, x, w: F.grad(
        lambda x, w: (w @ x).tanh().sum(), argnums=-1)(x, w),
    "grad_has_aux": lambda m, F, x, w: F.grad(lambda x: (f(x), x.cos()), has_aux=True)(x),
    "grad_dict_input": lambda m, F, x, w: sorted(F.grad(
        lambda p: (p["w"] @ p["x"]).sum())({"w": w, "x": x}).items()),
    "grad_requires_grad_input": lambda m, F, x, w: F.grad(f)(x.clone().requires_grad_()),
    "vjp": lambda m, F, x, w: (lambda p, fn: (p, fn(m.ones(2, dtype=m.float64))))(
        *F.vjp(layer, x, w)),
    "vjp_has_aux": lambda m, F, x, w: (lambda p, fn, aux: (p, fn(m.ones(3, dtype=m.float64)),
                                                           aux))(
        *F.vjp(lambda x: (x.exp(), x.sum()), x, has_aux=True)),
    "jvp": lambda m, F, x, w: F.jvp(lambda x: x.exp() * 2, (x,), (m.ones(3, dtype=m.float64),)),
    "jvp_tuple": lambda m, F, x, w: F.jvp(lambda a, b: (a * b, a + b), (x, x), (x, x)),
    "jvp_has_aux": lambda m, F, x, w: F.jvp(lambda a: (a.exp(), a.cos()), (x,), (x,),
                                            has_aux=True),
    "jvp_float64_tangent_on_float32": lambda m, F, x, w: F.jvp(
        lambda a: a.sin(), (x.float(),), (x,)),
    "jacrev": lambda m, F, x, w: F.jacrev(layer, argnums=(0, 1))(x, w),
    "jacrev_tuple_out": lambda m, F, x, w: F.jacrev(lambda x: (x.sin(), x.sum()))(x),
    "jacfwd": lambda m, F, x, w: F.jacfwd(layer, argnums=(0, 1))(x, w),
    "jacfwd_has_aux": lambda m, F, x, w: F.jacfwd(lambda x: (x.sin(), x.sum()), has_aux=True)(x),
    "hessian": lambda m, F, x, w: F.hessian(f)(x),
    "jacrev_jacrev": lambda m, F, x, w: F.jacrev(F.jacrev(f))(x),
    "jacfwd_jacfwd": lambda m, F, x, w: F.jacfwd(F.jacfwd(f))(x),
    "per_sample_grads": lambda m, F, x, w: F.vmap(F.grad(sq_loss), in_dims=(None, 0, 0))(
        x, m.tensor(XS), m.tensor(YS)),
    "vmap_nested": lambda m, F, x, w: F.vmap(F.vmap(lambda a: a.sin().sum()))(m.tensor(BATCH3)),
    "vmap_in_out_dims": lambda m, F, x, w: F.vmap(lambda a: a * 2, in_dims=1, out_dims=1)(w),
    "vmap_out_dims_none": lambda m, F, x, w: F.vmap(
        lambda a: (a, m.ones(2)), out_dims=(0, None))(w),
    "vmap_number_arg": lambda m, F, x, w: F.vmap(lambda a, k: a * k, in_dims=(0, None))(w, 2.0),
    "vmap_dict": lambda m, F, x, w: F.vmap(lambda d: d["a"] * 2)({"a": w}),
    "vmap_jacrev": lambda m, F, x, w: F.vmap(F.jacrev(lambda a: a.sin() * a.sum()))(w),
}


def run(name):
    def case(m):
        return CASES[name](m, m.func, m.tensor(X), m.tensor(W))
    return case


@pytest.mark.parametrize("name", sorted(CASES))
def test_results_are_torchs(name):
    assert_like_torch(run(name))


def test_functional_call_grads_of_a_module():
    def case(m):
        m.manual_seed(0)
        lin = m.nn.Linear(3, 2).double()
        params = {k: v.detach() for k, v in lin.named_parameters()}
        for p in params.values():  # the same values on both sides
            p.copy_(m.arange(p.numel(), dtype=m.float64).reshape(p.shape) / 7 - 0.3)
        x = m.tensor(XS)
        grads = m.func.grad(lambda p, x: m.func.functional_call(lin, p, (x,)).sum())(params, x)
        out = m.func.functional_call(lin, {"weight": m.ones(2, 3, dtype=m.float64)}, x)
        return [sorted(grads.items()), out, lin.weight]

    assert_like_torch(case)


ERRORS = {
    "argnum_too_big": lambda m, F, x: F.grad(f, argnums=1)(x),
    "argnum_too_small": lambda m, F, x: F.grad(f, argnums=-2)(x),
    "argnum_float": lambda m, F, x: F.grad(f, argnums=1.5)(x),
    "argnums_empty": lambda m, F, x: F.grad(f, argnums=())(x),
    "argnums_repeated": lambda m, F, x: F.grad(lambda a, b: (a * b).sum(), argnums=(0, 0))(x, x),
    "grad_of_vector": lambda m, F, x: F.grad(lambda x: x.sin())(x),
    "grad_of_number": lambda m, F, x: F.grad(lambda x: 3.0)(x),
    "grad_tuple_without_aux": lambda m, F, x: F.grad(lambda x: (x.sum(), 2))(x),
    "grad_aux_not_a_pair": lambda m, F, x: F.grad(lambda x: x.sum(), has_aux=True)(x),
    "grad_of_a_number_input": lambda m, F, x: F.grad(lambda x: x.sum())(3.0),
    "jvp_tangent_shape": lambda m, F, x: F.jvp(lambda x: x.sin(), (x,), (m.ones(2),)),
    "jvp_primals_not_tuple": lambda m, F, x: F.jvp(lambda x: x.sin(), x, (x,)),
    "jvp_structure": lambda m, F, x: F.jvp(lambda x: x.sin(), (x,), (x, x)),
    "jvp_int_output": lambda m, F, x: F.jvp(lambda x: 3, (x,), (x,)),
    "jvp_no_primals": lambda m, F, x: F.jvp(lambda: 3, (), ()),
    "vjp_int_output": lambda m, F, x: F.vjp(lambda x: 3, x),
    "vjp_cotangent_shape": lambda m, F, x: F.vjp(lambda x: x.sin(), x)[1](m.ones(2)),
    "vjp_number_input": lambda m, F, x: F.vjp(lambda x: x.sin(), 3.0),
    "jacrev_argnum": lambda m, F, x: F.jacrev(lambda x: x.sin(), argnums=2)(x),
    "jacfwd_argnum": lambda m, F, x: F.jacfwd(lambda x: x.sin(), argnums=2)(x),
    "jacrev_int_output": lambda m, F, x: F.jacrev(lambda x: 3)(x),
    "jacfwd_int_output": lambda m, F, x: F.jacfwd(lambda x: 3)(x),
    "vmap_sizes": lambda m, F, x: F.vmap(lambda a, b: a * b)(m.ones(2, 3), m.ones(3, 3)),
    "vmap_in_dim_range": lambda m, F, x: F.vmap(lambda a: a, in_dims=2)(m.ones(2, 3)),
    "vmap_in_dims_structure": lambda m, F, x: F.vmap(lambda a: a, in_dims=(0, 0))(m.ones(2, 3)),
    "vmap_in_dims_type": lambda m, F, x: F.vmap(lambda a: a, in_dims=None)(m.ones(2)),
    "vmap_number_input": lambda m, F, x: F.vmap(lambda a: a)(3.0),
    "vmap_returns_number": lambda m, F, x: F.vmap(lambda a: 3)(m.ones(2, 3)),
    "vmap_batched_out_dim_none": lambda m, F, x: F.vmap(lambda a: a, out_dims=None)(
        m.arange(6.0).reshape(2, 3)),
    "functional_call_strict": lambda m, F, x: F.functional_call(
        m.nn.Linear(3, 2), {"weight": m.ones(2, 3)}, m.ones(1, 3), strict=True),
    "functional_call_unexpected": lambda m, F, x: F.functional_call(
        m.nn.Linear(3, 2), {"wrong": m.ones(2, 3)}, m.ones(1, 3), strict=True),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_are_torchs(name):
    def case(m):
        return ERRORS[name](m, m.func, m.tensor(X))
    assert_like_torch(case)


def test_vmap_docstring_says_it_runs_per_sample():
    import autograd_course as ag
    assert "once per sample" in ag.func.vmap.__doc__.replace("\n", " ").lower() or \
        "per sample" in ag.func.vmap.__doc__.lower()
