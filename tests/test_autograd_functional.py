"""``ag.autograd.functional`` (jacobian, hessian, vjp, jvp, vhp, hvp) against
``torch.autograd.functional``: values, shapes, the tuple structure of what comes back, whether
the results keep a graph (``create_graph``), and the errors of ``strict`` mode and bad ``v``."""

from __future__ import annotations

import pytest
from oracle_helpers import assert_like_torch

import autograd_course as ag


def structure(value):
    """'T' for a tensor, nested tuples for tuples, so that (T,) and T differ."""
    if isinstance(value, tuple):
        return tuple(structure(v) for v in value)
    if isinstance(value, list):
        return ["list"] + [structure(v) for v in value]
    return "T" if hasattr(value, "grad_fn") else repr(value)


def flat(value):
    """Every tensor in a nested result, in order, with whether it requires grad."""
    if isinstance(value, (tuple, list)):
        return [x for v in value for x in flat(v)]
    return [value, value.requires_grad]


def shown(result):
    return [structure(result), flat(result)]


def point(m, *shapes, seed=0):
    """Deterministic inputs (the same numbers for both libraries), float64."""
    out = []
    for k, shape in enumerate(shapes):
        n = 1
        for s in shape:
            n *= s
        values = [((i * 7 + 3 * k + seed) % 11) / 5 - 1 for i in range(n)]
        out.append(m.tensor(values, dtype=m.float64).reshape(shape))
    return out


def cubic(x):
    return x ** 3 + x.sum() * x


def scalar(x):
    return (x ** 3).sum() + (x[0] * x).sum()


def two_in(a, b):
    return a * b.sum() + b.exp().sum()


def two_out(x):
    return x ** 2, x.sin().sum()


def two_in_two_out(a, b):
    return a * b, (a + b).sum()


def two_in_scalar(a, b):
    return (a ** 2 * b).sum() + (b ** 3).sum()


def get(m, name):
    return getattr(m.autograd.functional, name)


@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("vectorize", [False, True])
@pytest.mark.parametrize("case", ["one_one", "tuple_in", "tuple_out", "tuple_both", "single"])
def test_jacobian(case, vectorize, create_graph):
    def run(m):
        jacobian = get(m, "jacobian")
        if case == "one_one":
            (x,) = point(m, (2, 3))
            return shown(jacobian(cubic, x, create_graph=create_graph, vectorize=vectorize))
        if case == "tuple_in":
            a, b = point(m, (3,), (2,))
            return shown(jacobian(two_in, (a, b), create_graph=create_graph,
                                  vectorize=vectorize))
        if case == "tuple_out":
            (x,) = point(m, (4,))
            return shown(jacobian(two_out, x, create_graph=create_graph, vectorize=vectorize))
        if case == "tuple_both":
            a, b = point(m, (3,), (3,))
            return shown(jacobian(two_in_two_out, (a, b), create_graph=create_graph,
                                  vectorize=vectorize))
        (x,) = point(m, (3,))
        return shown(jacobian(cubic, (x,), create_graph=create_graph, vectorize=vectorize))

    assert_like_torch(run)


def test_jacobian_of_inputs_that_require_grad_keeps_the_graph_only_with_create_graph():
    def run(m):
        (x,) = point(m, (3,))
        x.requires_grad_()
        plain = m.autograd.functional.jacobian(cubic, x)
        kept = m.autograd.functional.jacobian(cubic, x, create_graph=True)
        kept.sum().backward()
        return [plain.requires_grad, plain.grad_fn is None, kept.requires_grad, x.grad]

    assert_like_torch(run)


def test_jacobian_independent_input_zeros_or_strict_error():
    def lenient(m):
        a, b = point(m, (2,), (3,))
        return shown(m.autograd.functional.jacobian(lambda a, b: a * 2, (a, b)))

    def strict(m):
        a, b = point(m, (2,), (3,))
        return m.autograd.functional.jacobian(lambda a, b: a * 2, (a, b), strict=True)

    def strict_constant(m):
        (x,) = point(m, (2,))
        return m.autograd.functional.jacobian(lambda x: x.detach() * 2, x, strict=True)

    def strict_vectorized(m):
        (x,) = point(m, (2,))
        return m.autograd.functional.jacobian(cubic, x, strict=True, vectorize=True)

    def forward_mode_not_vectorized(m):
        (x,) = point(m, (2,))
        return m.autograd.functional.jacobian(cubic, x, strategy="forward-mode")

    def forward_mode_create_graph(m):
        (x,) = point(m, (2,))
        return m.autograd.functional.jacobian(cubic, x, strategy="forward-mode",
                                              vectorize=True, create_graph=True)

    def bad_strategy(m):
        (x,) = point(m, (2,))
        return m.autograd.functional.jacobian(cubic, x, strategy="sideways")

    for case in (lenient, strict, strict_constant, strict_vectorized,
                 forward_mode_not_vectorized, forward_mode_create_graph, bad_strategy):
        assert_like_torch(case)


def test_jacobian_forward_mode_vectorized_gives_the_same_values():
    def run(m):
        (x,) = point(m, (3,))
        return m.autograd.functional.jacobian(cubic, x, strategy="forward-mode", vectorize=True)

    assert_like_torch(run)


def test_non_tensor_inputs_and_outputs_are_type_errors():
    def bad_input(m):
        return m.autograd.functional.jacobian(cubic, 3.0)

    def bad_tuple_input(m):
        (x,) = point(m, (2,))
        return m.autograd.functional.vjp(lambda a, b: a, (x, 2.0), m.ones(2, dtype=m.float64))

    def bad_output(m):
        (x,) = point(m, (2,))
        return m.autograd.functional.jacobian(lambda x: 3.0, x)

    def bad_tuple_output(m):
        (x,) = point(m, (2,))
        return m.autograd.functional.jvp(lambda x: (x, "no"), x, m.ones(2, dtype=m.float64))

    for case in (bad_input, bad_tuple_input, bad_output, bad_tuple_output):
        assert_like_torch(case)


@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("vectorize", [False, True])
def test_hessian(create_graph, vectorize):
    def one(m):
        (x,) = point(m, (2, 2))
        return shown(m.autograd.functional.hessian(scalar, x, create_graph=create_graph,
                                                   vectorize=vectorize))

    def pair(m):
        a, b = point(m, (3,), (2,))
        return shown(m.autograd.functional.hessian(two_in_scalar, (a, b),
                                                   create_graph=create_graph,
                                                   vectorize=vectorize))

    def single_in_tuple(m):
        (x,) = point(m, (3,))
        return shown(m.autograd.functional.hessian(scalar, (x,), create_graph=create_graph))

    for case in (one, pair, single_in_tuple):
        assert_like_torch(case)


def test_hessian_refuses_non_scalar_functions_and_strict_linear_ones():
    def vector_out(m):
        (x,) = point(m, (3,))
        return m.autograd.functional.hessian(lambda x: x ** 2, x)

    def tuple_out(m):
        (x,) = point(m, (3,))
        return m.autograd.functional.hessian(lambda x: ((x ** 2).sum(), x.sum()), x)

    def linear_strict(m):
        (x,) = point(m, (3,))
        return m.autograd.functional.hessian(lambda x: (2 * x).sum(), x, strict=True)

    def linear_lenient(m):
        (x,) = point(m, (3,))
        return shown(m.autograd.functional.hessian(lambda x: (2 * x).sum(), x))

    for case in (vector_out, tuple_out, linear_strict, linear_lenient):
        assert_like_torch(case)


@pytest.mark.parametrize("name", ["vjp", "jvp"])
@pytest.mark.parametrize("create_graph", [False, True])
def test_vjp_jvp(name, create_graph):
    fn = get

    def one(m):
        (x,) = point(m, (2, 3))
        (v,) = point(m, (2, 3), seed=4)
        return shown(fn(m, name)(cubic, x, v, create_graph=create_graph))

    def tuple_in(m):
        a, b = point(m, (3,), (2,))
        (va,) = point(m, (3,), seed=1)
        (vb,) = point(m, (2,), seed=2)
        v = va if name == "vjp" else (va, vb)
        return shown(fn(m, name)(two_in, (a, b), v, create_graph=create_graph))

    def tuple_out(m):
        (x,) = point(m, (4,))
        v1, v2 = point(m, (4,), (), seed=3)
        v = (v1, v2) if name == "vjp" else v1
        return shown(fn(m, name)(two_out, x, v, create_graph=create_graph))

    def v_omitted_for_one_element(m):
        x = m.tensor([0.7], dtype=m.float64)
        return shown(fn(m, name)(lambda x: x.exp() * 3, x, create_graph=create_graph))

    def v_omitted_wrongly(m):
        (x,) = point(m, (3,))
        return fn(m, name)(cubic, x)

    def v_wrong_size(m):
        (x,) = point(m, (3,))
        return fn(m, name)(cubic, x, m.ones(4, dtype=m.float64))

    def v_wrong_length(m):
        a, b = point(m, (3,), (3,))
        return fn(m, name)(two_in_two_out, (a, b), (m.ones(3, dtype=m.float64),) * 3)

    def v_wrong_entry(m):
        a, b = point(m, (3,), (3,))
        v = (m.ones(3, dtype=m.float64), m.ones(2, dtype=m.float64))
        return fn(m, name)(two_in_two_out, (a, b), v)

    def v_tuple_for_single(m):
        (x,) = point(m, (3,))
        return fn(m, name)(cubic, x, (m.ones(3, dtype=m.float64),) * 2)

    for case in (one, tuple_in, tuple_out, v_omitted_for_one_element, v_omitted_wrongly,
                 v_wrong_size, v_wrong_length, v_wrong_entry, v_tuple_for_single):
        assert_like_torch(case)


@pytest.mark.parametrize("name", ["vjp", "jvp"])
def test_vjp_jvp_strict(name):
    def independent(m):
        a, b = point(m, (3,), (3,))
        v = m.ones(3, dtype=m.float64)
        vs = v if name == "vjp" else (v, v)
        return get(m, name)(lambda a, b: a * 2, (a, b), vs, strict=True)

    def lenient(m):
        a, b = point(m, (3,), (3,))
        v = m.ones(3, dtype=m.float64)
        vs = v if name == "vjp" else (v, v)
        return shown(get(m, name)(lambda a, b: a * 2, (a, b), vs))

    def constant_output(m):
        (x,) = point(m, (3,))
        return get(m, name)(lambda x: x.detach() + 1, x, m.ones(3, dtype=m.float64),
                            strict=True)

    def constant_output_lenient(m):
        (x,) = point(m, (3,))
        return shown(get(m, name)(lambda x: x.detach() + 1, x, m.ones(3, dtype=m.float64)))

    def linear_create_graph_strict(m):
        (x,) = point(m, (3,))
        return get(m, name)(lambda x: 2 * x, x, m.ones(3, dtype=m.float64),
                            create_graph=True, strict=True)

    for case in (independent, lenient, constant_output, constant_output_lenient,
                 linear_create_graph_strict):
        assert_like_torch(case)


@pytest.mark.parametrize("name", ["vhp", "hvp"])
@pytest.mark.parametrize("create_graph", [False, True])
def test_vhp_hvp(name, create_graph):
    def one(m):
        (x,) = point(m, (2, 2))
        (v,) = point(m, (2, 2), seed=5)
        return shown(get(m, name)(scalar, x, v, create_graph=create_graph))

    def pair(m):
        a, b = point(m, (3,), (2,))
        va, vb = point(m, (3,), (2,), seed=2)
        return shown(get(m, name)(two_in_scalar, (a, b), (va, vb), create_graph=create_graph))

    def vector_output(m):
        (x,) = point(m, (3,))
        return get(m, name)(lambda x: x ** 2, x, m.ones(3, dtype=m.float64))

    def tuple_output(m):
        (x,) = point(m, (3,))
        return get(m, name)(lambda x: ((x ** 2).sum(),), x, m.ones(3, dtype=m.float64))

    def v_omitted_wrongly(m):
        (x,) = point(m, (3,))
        return get(m, name)(scalar, x)

    def linear_strict(m):
        (x,) = point(m, (3,))
        return get(m, name)(lambda x: (2 * x).sum(), x, m.ones(3, dtype=m.float64),
                            strict=True)

    def linear_lenient(m):
        (x,) = point(m, (3,))
        return shown(get(m, name)(lambda x: (2 * x).sum(), x, m.ones(3, dtype=m.float64)))

    def quadratic_strict(m):  # the Hessian is a constant: it does not depend on the input
        (x,) = point(m, (3,))
        return get(m, name)(lambda x: (x * x).sum(), x, m.ones(3, dtype=m.float64),
                            strict=True, create_graph=True)

    for case in (one, pair, vector_output, tuple_output, v_omitted_wrongly, linear_strict,
                 linear_lenient, quadratic_strict):
        assert_like_torch(case)


def test_hessian_vector_products_agree_with_the_hessian():
    """H v from hvp, vᵀH from vhp and the full Hessian times v: one number three ways."""
    F = ag.autograd.functional
    (x,) = point(ag, (4,))
    (v,) = point(ag, (4,), seed=3)
    h = F.hessian(scalar, x)
    _, hv = F.hvp(scalar, x, v)
    _, vh = F.vhp(scalar, x, v)
    assert ag.allclose(hv, h @ v) and ag.allclose(vh, v @ h)


def test_functional_is_reachable_as_in_torch():
    import autograd_course.autograd.functional as by_import

    assert ag.autograd.functional is by_import
    assert sorted(n for n in by_import.__all__) == ["hessian", "hvp", "jacobian", "jvp", "vhp",
                                                    "vjp"]
