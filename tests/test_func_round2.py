"""``ag.func`` against ``torch.func``, second round: what PyTorch's own functorch tests
(scripts/functorch_suite.py) found. Grad mode and inference mode around a transform, argnums
that name one argument twice, functions with no output, ``jvp(strict=True)``, jacrev's
``chunk_size`` check, and forward mode's private on/off switch."""

from __future__ import annotations

import numpy as np
import pytest
from oracle_helpers import assert_like_torch

X = np.random.default_rng(1).standard_normal(3)


def _x(m, requires_grad=False):
    return m.tensor(X, requires_grad=requires_grad)


def _grad_under_no_grad_is_a_constant(m):
    """no_grad around an inner grad: its result is a constant for the outer grad."""
    def h(x):
        with m.no_grad():
            shift = m.func.grad(lambda x: 0.25 * (x ** 4).sum())(x)
        return (x ** 3 - shift).sum()
    x = _x(m, True)
    y = m.func.grad(h)(x)
    return y, y.requires_grad, m.autograd.grad(y.sum(), x)[0]


def _vjp_fn_under_no_grad(m):
    x = _x(m, True)
    out, vjp_fn = m.func.vjp(lambda x: x ** 2, x)
    with m.no_grad():
        (y,) = vjp_fn(m.ones(3, dtype=m.float64))
    return y, y.requires_grad, out.requires_grad


def _vjp_under_no_grad_fn_outside(m):
    x = _x(m, True)
    with m.no_grad():
        out, vjp_fn = m.func.vjp(lambda x: x ** 2, x)
    (y,) = vjp_fn(m.ones(3, dtype=m.float64))
    return y, y.requires_grad, out.requires_grad, m.autograd.grad(y.sum(), x)[0]


def _grad_of_vjp_fn(m):
    """vjp_fn called inside grad: the cotangent is differentiated through."""
    _, vjp_fn = m.func.vjp(m.sin, _x(m))
    return m.func.grad(lambda v: vjp_fn(v)[0].sum())(m.ones(3, dtype=m.float64))


def _transforms_under_inference_mode(m):
    x = _x(m)
    with m.inference_mode():
        g = m.func.grad(lambda x: (x ** 3).sum())(x)
        h = m.func.jacrev(m.func.grad(lambda x: (x ** 3).sum()))(x)
        per_sample = m.func.vmap(m.func.grad(lambda x: (x ** 2).sum()))(x.reshape(3, 1))
        still_on = m.is_inference_mode_enabled()
    return g, h, per_sample, still_on


CASES = {
    "grad_under_no_grad_is_a_constant": _grad_under_no_grad_is_a_constant,
    "vjp_fn_under_no_grad": _vjp_fn_under_no_grad,
    "vjp_under_no_grad_fn_outside": _vjp_under_no_grad_fn_outside,
    "grad_of_vjp_fn": _grad_of_vjp_fn,
    "transforms_under_inference_mode": _transforms_under_inference_mode,
    "argnums_naming_one_argument_twice": lambda m: m.func.grad(m.mul, argnums=(0, -2))(
        _x(m), _x(m)),
    "argnums_out_of_range_before_repeats": lambda m: m.func.grad(m.mul, argnums=(5, 5))(
        _x(m), _x(m)),
    "vjp_of_none": lambda m: m.func.vjp(lambda _: None, _x(m)),
    "vjp_of_empty_tuple": lambda m: m.func.vjp(lambda _: (), _x(m)),
    "jvp_of_none": lambda m: m.func.jvp(lambda _: None, (_x(m),), (_x(m),)),
    "jacrev_of_empty_tuple": lambda m: m.func.jacrev(lambda x: ())(_x(m)),
    "jacfwd_of_empty_tuple": lambda m: m.func.jacfwd(lambda x: ())(_x(m)),
    "jvp_strict_independent_output": lambda m: m.func.jvp(
        lambda x: (x, m.ones(2)), (_x(m),), (_x(m),), strict=True),
    "jvp_strict_dependent_output": lambda m: m.func.jvp(
        lambda x: x.sin(), (_x(m),), (_x(m),), strict=True),
    "jacrev_chunk_size_zero": lambda m: m.func.jacrev(m.sin, chunk_size=0)(_x(m)),
    "jacrev_chunk_size_negative": lambda m: m.func.jacrev(m.sin, chunk_size=-2)(_x(m)),
    "jacrev_chunked_preallocated": lambda m: m.func.jacrev(
        lambda x: (x.sin(), x.sum()), chunk_size=2, _preallocate_and_copy=True)(_x(m)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_results_are_torchs(name):
    assert_like_torch(CASES[name])


def _switched_off(m):
    fwAD = m.autograd.forward_ad
    x, t = _x(m), m.ones(3, dtype=m.float64)
    with fwAD.dual_level():
        dual = fwAD.make_dual(x, t)
        with fwAD._set_fwd_grad_enabled(False):
            inside = fwAD._is_fwd_grad_enabled()
            constant = fwAD.unpack_dual(dual * 2).tangent
        after = fwAD.unpack_dual(dual * 2).tangent
    return inside, constant, after, fwAD._is_fwd_grad_enabled()


def _jvp_under_switch_off(m):
    """jvp turns tangents on for its own function, as functorch's does."""
    x, t = _x(m), m.ones(3, dtype=m.float64)
    with m.autograd.forward_ad._set_fwd_grad_enabled(False):
        return m.func.jvp(m.sin, (x,), (t,))


def _shift_computed_with_switch_off(m):
    def f(x):
        with m.autograd.forward_ad._set_fwd_grad_enabled(False):
            shift = x ** 2
        return x ** 2 - shift
    return m.func.jvp(f, (_x(m),), (m.ones(3, dtype=m.float64),))


@pytest.mark.parametrize("case", [_switched_off, _jvp_under_switch_off,
                                  _shift_computed_with_switch_off])
def test_forward_switch_is_torchs(case):
    assert_like_torch(case)


def test_a_failing_oracle_case_would_be_caught():
    """The comparison itself tells a wrong result from torch's (so the cases above can fail)."""
    with pytest.raises(AssertionError):
        assert_like_torch(lambda m: m.tensor(1.0) if m.__name__ == "torch" else m.tensor(2.0))


# ops that PyTorch's functorch tests use and the package lacked: tan (its forward rule too)
# and diagflat
M = np.random.default_rng(2).standard_normal((2, 3))


def _tan_all_ways(m):
    x = m.tensor(M, requires_grad=True)
    y = x.tan()
    (g,) = m.autograd.grad(y.sum(), x, create_graph=True)
    (gg,) = m.autograd.grad(g.sum(), x)
    _, jv = m.func.jvp(m.tan, (m.tensor(M),), (m.ones(2, 3, dtype=m.float64),))
    return y, type(y.grad_fn).__name__, g, gg, jv, str(m.tan(m.tensor([1, 2])).dtype)


OP_CASES = {
    "tan": _tan_all_ways,
    "diagflat_matrix": lambda m: m.diagflat(m.tensor(M)),
    "diagflat_offset": lambda m: (m.diagflat(m.tensor(M), 1), m.tensor(M).diagflat(-2)),
    "diagflat_grad": lambda m: m.func.grad(lambda x: (m.diagflat(x) * 2).sum())(m.tensor(M)),
    "jacrev_of_sin_is_diagflat_of_cos": lambda m: (
        m.func.jacrev(m.sin)(m.tensor(M[0])) - m.diagflat(m.tensor(M[0]).cos())).abs().max(),
}


@pytest.mark.parametrize("name", sorted(OP_CASES))
def test_ops_are_torchs(name):
    assert_like_torch(OP_CASES[name])


def _grad_of_an_inference_tensor(m):
    with m.inference_mode():
        x = m.tensor(X)
        g = m.func.grad(lambda x: (x ** 2).sum())(x)
        return g, m.is_inference_mode_enabled()


AUX_CASES = {
    "grad_aux_int": lambda m: m.func.grad(lambda x: (x.sum(), 1), has_aux=True)(_x(m)),
    "grad_aux_str_in_list": lambda m: m.func.grad(
        lambda x: (x.sum(), [x, "abc"]), has_aux=True)(_x(m)),
    "vjp_aux_float": lambda m: m.func.vjp(lambda x: (x, 1.0), _x(m), has_aux=True),
    "jvp_aux_int_in_list": lambda m: m.func.jvp(
        lambda x: (x, [x, 1]), (_x(m),), (_x(m),), has_aux=True),
    "jacfwd_aux_int": lambda m: m.func.jacfwd(lambda x: (x, 1), has_aux=True)(_x(m)),
    "jacrev_aux_int": lambda m: m.func.jacrev(lambda x: (x, 1), has_aux=True)(_x(m)),
    "jacrev_aux_pytree": lambda m: (lambda jac, aux: (jac, sorted(aux), aux["a"], aux["b"]))(
        *m.func.jacrev(lambda x: (x.sin(), {"a": x.cos(), "b": [x.tan()]}), has_aux=True)(
            _x(m))),
    "grad_of_an_inference_tensor": _grad_of_an_inference_tensor,
}


@pytest.mark.parametrize("name", sorted(AUX_CASES))
def test_aux_and_inference_inputs_are_torchs(name):
    assert_like_torch(AUX_CASES[name])


def _sin_sum(m):
    return lambda x: m.sin(x).sum()


def _hooks_around(m, transform):
    with m.autograd.graph.save_on_cpu():
        return transform(_sin_sum(m))(_x(m))


def _hooks_inside(m, transform):
    def g(x):
        with m.autograd.graph.save_on_cpu():
            return _sin_sum(m)(x)
    return transform(g)(_x(m))


HOOK_CASES = {
    "grad_hooks_around": lambda m: _hooks_around(m, m.func.grad),
    "grad_hooks_inside": lambda m: _hooks_inside(m, m.func.grad),
    "jacrev_hooks_inside": lambda m: _hooks_inside(m, m.func.jacrev),
    "hessian_hooks_around": lambda m: _hooks_around(m, m.func.hessian),
    "vjp_hooks_around": lambda m: _hooks_around(m, lambda f: lambda x: m.func.vjp(f, x)[0]),
    "jvp_hooks_allowed": lambda m: _hooks_inside(
        m, lambda f: lambda x: m.func.jvp(f, (x,), (m.ones(3, dtype=m.float64),))),
    "hooks_work_again_after": lambda m: (_hooks_around(m, lambda f: f),
                                         m.func.grad(_sin_sum(m))(_x(m))),
}


@pytest.mark.parametrize("name", sorted(HOOK_CASES))
def test_saved_tensor_hooks_are_refused_as_torch(name):
    assert_like_torch(HOOK_CASES[name])
