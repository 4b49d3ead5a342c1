"""``ag.autograd.forward_ad`` (dual numbers) against ``torch.autograd.forward_ad``: the tangent
every op's ``jvp`` rule gives, the API and its errors, custom Functions' ``jvp``,
forward-over-reverse Hessian-vector products, and ``jacobian(strategy="forward-mode")``."""

from __future__ import annotations

import numpy as np
import pytest
from oracle_helpers import assert_like_torch

import autograd_course as ag
from autograd_course import _messages


def fwad(m):
    return m.autograd.forward_ad


def F(m):
    return m.nn.functional


# name: (function of the dual inputs, their shapes)
OPS = {
    "add": (lambda m, a, b: a + b * 2, [(3, 4), (4,)]),
    "sub_alpha": (lambda m, a, b: m.sub(a, b, alpha=3), [(3, 4), (3, 4)]),
    "rsub": (lambda m, a: 2 - a, [(3,)]),
    "mul_broadcast": (lambda m, a, b: a * b, [(3, 4), (4,)]),
    "div_broadcast": (lambda m, a, b: a / (b.abs() + 1), [(3, 4), (4,)]),
    "neg": (lambda m, a: -a, [(3,)]),
    "pow_tensors": (lambda m, a, b: a.abs().pow(b), [(3, 4), (4,)]),
    "pow_scalar": (lambda m, a: a ** 3 + 2 ** a + (a.abs() + 1).sqrt(), [(3,)]),
    "exp_log": (lambda m, a: a.exp() + (a.abs() + 1).log() + (a.abs() + 1).log2()
                + (a.abs() + 1).log10() + a.abs().log1p() + a.expm1(), [(3,)]),
    "trig": (lambda m, a: a.sin() * a.cos() + m.atan2(a, a + 3), [(3,)]),
    "sigmoid_tanh": (lambda m, a: a.tanh() + a.sigmoid(), [(5,)]),
    "activations": (lambda m, a: F(m).relu(a) + F(m).leaky_relu(a, 0.1) + F(m).elu(a)
                    + F(m).gelu(a) + F(m).silu(a) + F(m).softplus(a), [(5,)]),
    "softmax": (lambda m, a: F(m).softmax(a, dim=1), [(3, 4)]),
    "log_softmax": (lambda m, a: F(m).log_softmax(a, dim=-1), [(3, 4)]),
    "mm": (lambda m, a, b: a @ b, [(3, 4), (4, 5)]),
    "mv": (lambda m, a, b: a @ b, [(3, 4), (4,)]),
    "dot": (lambda m, a, b: a @ b, [(4,), (4,)]),
    "bmm": (lambda m, a, b: a @ b, [(2, 3, 4), (2, 4, 5)]),
    "matmul_broadcast": (lambda m, a, b: a @ b, [(2, 3, 4), (4, 5)]),
    "linear": (lambda m, x, w, b: F(m).linear(x, w, b), [(3, 4), (5, 4), (5,)]),
    "sum_mean": (lambda m, a: a.sum() + a.sum(0).sum() + a.mean() + a.mean(1, keepdim=True).sum(),
                 [(3, 4)]),
    "mean_dims": (lambda m, a: a.mean((0, 2)), [(2, 3, 4)]),
    "var_std": (lambda m, a: a.var() + a.std(1).sum(), [(3, 4)]),
    "norm": (lambda m, a: a.norm(), [(3, 4)]),
    "max": (lambda m, a: a.max() + a.amax(1).sum() + a.max(1).values.sum(), [(3, 4)]),
    "logsumexp": (lambda m, a: a.logsumexp(1), [(3, 4)]),
    "prod": (lambda m, a: a.prod(1) + a.prod(), [(3, 4)]),
    "views": (lambda m, a: a.view(4, 3).t().reshape(12).unsqueeze(0).expand(2, 12).permute(1, 0)
              .transpose(0, 1).flatten().squeeze().clone(), [(3, 4)]),
    "indexing": (lambda m, a: a[1:, ::2] * 2 + a[[0, 1]].sum() + a[0, 1], [(3, 4)]),
    "cat_stack": (lambda m, a, b: m.cat([a, b]).sum(0) + m.stack([a, b]).sum(1).sum(0),
                  [(3, 4), (3, 4)]),
    "where": (lambda m, a, b: m.where(a > 0, a, b), [(3, 4), (3, 4)]),
    "gather": (lambda m, a: a.gather(1, m.tensor([[0, 1], [1, 2], [3, 0]])), [(3, 4)]),
    "clamp": (lambda m, a: a.clamp(-0.5, 0.5) + a.clamp(min=0.1), [(3, 4)]),
    "abs_sign": (lambda m, a: a.abs() + a.sign(), [(3, 4)]),
    "maximum": (lambda m, a, b: m.maximum(a, b) + m.minimum(a, b), [(3, 4), (3, 4)]),
    "split_unbind": (lambda m, a: a.split(2, dim=1)[1] * a.unbind(1)[0].unsqueeze(1), [(3, 4)]),
    "arrange": (lambda m, a: a.repeat(2, 1).flip(0).roll(1, 0).tril() + a.repeat(2, 1).triu(),
                [(3, 4)]),
    "diagonal": (lambda m, a: a.diagonal().sum() + a.trace(), [(4, 4)]),
    "cumsum": (lambda m, a: a.cumsum(1), [(3, 4)]),
    "mse": (lambda m, a, b: F(m).mse_loss(a, b), [(3, 4), (3, 4)]),
    "mse_none": (lambda m, a, b: F(m).mse_loss(a, b, reduction="none"), [(3, 4), (3, 4)]),
    "cross_entropy": (lambda m, a: F(m).cross_entropy(a, m.tensor([0, 2, 1])), [(3, 4)]),
    "nll": (lambda m, a: F(m).nll_loss(a, m.tensor([0, 2, 1])), [(3, 4)]),
    "bce_logits": (lambda m, a, b: F(m).binary_cross_entropy_with_logits(a, b.sigmoid()),
                   [(3, 4), (3, 4)]),
    "bce": (lambda m, a, b: F(m).binary_cross_entropy(a.sigmoid(), b.sigmoid()),
            [(3, 4), (3, 4)]),
    "huber_l1": (lambda m, a, b: F(m).huber_loss(a, b) + F(m).smooth_l1_loss(a, b)
                 + F(m).l1_loss(a, b), [(3, 4), (3, 4)]),
    "conv2d": (lambda m, x, w, b: F(m).conv2d(x, w, b, padding=1), [(2, 3, 5, 5), (4, 3, 3, 3),
                                                                      (4,)]),
    "conv1d": (lambda m, x, w: F(m).conv1d(x, w, stride=2), [(2, 3, 7), (4, 3, 3)]),
    "max_pool2d": (lambda m, x: F(m).max_pool2d(x, 2), [(2, 3, 4, 4)]),
    "max_pool2d_padded": (lambda m, x: F(m).max_pool2d(x, 3, stride=2, padding=1),
                          [(1, 2, 5, 5)]),
    "avg_pool": (lambda m, x: F(m).avg_pool2d(x, 2).sum() + F(m).adaptive_avg_pool2d(x, 1).sum(),
                 [(2, 3, 4, 4)]),
    "layer_norm": (lambda m, x, w, b: F(m).layer_norm(x, (4,), w, b), [(3, 4), (4,), (4,)]),
    "embedding": (lambda m, w: F(m).embedding(m.tensor([0, 2, 2]), w), [(4, 3)]),
    "pad_constant": (lambda m, x: F(m).pad(x, (1, 2), value=3.0), [(3, 4)]),
    "masked_fill": (lambda m, x: x.masked_fill(x > 0, 2.0), [(3, 4)]),
    "in_place": (lambda m, x: x.clone().mul_(2).add_(x).exp_(), [(3, 4)]),
}


def dual_case(fn, shapes, seed=0):
    rng = np.random.default_rng(seed)
    primals = [rng.standard_normal(s) for s in shapes]
    tangents = [rng.standard_normal(s) for s in shapes]

    def case(m):
        with fwad(m).dual_level():
            args = [fwad(m).make_dual(m.tensor(p), m.tensor(t)) for p, t in zip(primals, tangents)]
            primal, tangent = fwad(m).unpack_dual(fn(m, *args))
            return [primal, tangent]

    return case


@pytest.mark.parametrize("name", sorted(OPS))
def test_tangent_of_each_op_is_torchs(name):
    fn, shapes = OPS[name]
    assert_like_torch(dual_case(fn, shapes), rtol=1e-6, atol=1e-8)


def test_an_op_without_a_rule_refuses_naming_it(torch_oracle):
    torch = torch_oracle
    with torch.autograd.forward_ad.dual_level():  # torch's message, for an op it has no rule for
        x = torch.autograd.forward_ad.make_dual(torch.ones(2), torch.ones(2))
        with pytest.raises(NotImplementedError) as theirs:
            torch.special.zeta(x, x)
    assert str(theirs.value) == _messages.no_forward_ad("special_zeta")
    with ag.autograd.forward_ad.dual_level():
        x = ag.autograd.forward_ad.make_dual(ag.ones(2, 3), ag.ones(2, 3))
        with pytest.raises(NotImplementedError) as ours:
            x.cumprod(1)
    assert str(ours.value) == _messages.no_forward_ad("cumprod")


def test_unpack_dual_gives_the_named_tuple():
    def case(m):
        with fwad(m).dual_level() as level:
            x = m.tensor([1.0, 2.0])
            d = fwad(m).make_dual(x, m.tensor([3.0, 4.0]))
            unpacked = fwad(m).unpack_dual(d)
            plain = fwad(m).unpack_dual(x)
            shown = [level, type(unpacked).__name__, unpacked._fields, repr(plain.tangent),
                     d._base is x, unpacked.tangent, plain.primal is x]
        after = fwad(m).unpack_dual(d)
        return shown + [repr(after.tangent), fwad(m).enter_dual_level()]

    try:
        assert_like_torch(case)
    finally:
        for m in (ag, pytest.importorskip("torch")):
            fwad(m).exit_dual_level()


@pytest.mark.parametrize("case_name", [
    "no_level", "nested", "size", "int_primal", "int_tangent", "already_dual", "exit_other",
    "exit_none", "unpack_number", "level_arg"])
def test_errors_are_torchs(case_name):
    def case(m):
        fw = fwad(m)
        x = m.tensor([1.0, 2.0, 3.0])
        if case_name == "no_level":
            return fw.make_dual(x, x)
        if case_name == "exit_none":
            return fw.exit_dual_level()
        with fw.dual_level():
            if case_name == "nested":
                with fw.dual_level():
                    pass
            if case_name == "size":
                return fw.make_dual(x, m.ones(2))
            if case_name == "int_primal":
                return fw.make_dual(m.arange(3), x)
            if case_name == "int_tangent":
                return fw.make_dual(x, m.arange(3))
            if case_name == "already_dual":
                return fw.make_dual(fw.make_dual(x, x), x)
            if case_name == "exit_other":
                return fw.exit_dual_level(level=3)
            if case_name == "unpack_number":
                return fw.unpack_dual(3)
            if case_name == "level_arg":
                return fw.make_dual(x, x, level=5)
        return None

    assert_like_torch(case)


def test_custom_function_jvp_and_save_for_forward():
    def case(m):
        class Cube(m.autograd.Function):
            @staticmethod
            def forward(ctx, x, y, k):
                ctx.save_for_forward(x, y)
                return x ** 3 * y * k

            @staticmethod
            def backward(ctx, g):
                raise AssertionError("not used")

            @staticmethod
            def jvp(ctx, tx, ty, tk):
                x, y = ctx.saved_tensors
                return 3 * x ** 2 * y * tx * 2 + x ** 3 * ty * 2 + (0 if tk is None else 1)

        with fwad(m).dual_level():
            x = fwad(m).make_dual(m.tensor([1.0, 2.0]), m.tensor([1.0, -1.0]))
            return list(fwad(m).unpack_dual(Cube.apply(x, m.tensor([3.0, 4.0]), 2.0)))

    assert_like_torch(case)


def test_custom_function_without_jvp_refuses():
    def case(m):
        class Double(m.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, g):
                return g * 2

        with fwad(m).dual_level():
            return Double.apply(fwad(m).make_dual(m.ones(2), m.ones(2)))

    assert_like_torch(case)


def test_forward_over_reverse_is_a_hessian_vector_product():
    def case(m):
        x = m.tensor([0.5, -1.0, 2.0], dtype=m.float64, requires_grad=True)
        v = m.tensor([1.0, 2.0, -1.0], dtype=m.float64)
        with fwad(m).dual_level():
            d = fwad(m).make_dual(x, v)
            loss = (F(m).softmax(d, 0) * d.exp()).sum() + F(m).cross_entropy(d[None], m.tensor([1]))
            (g,) = m.autograd.grad(loss, d, create_graph=True)
            hv = fwad(m).unpack_dual(g).tangent
        reference = m.autograd.functional.hvp(
            lambda x: (F(m).softmax(x, 0) * x.exp()).sum()
            + F(m).cross_entropy(x[None], m.tensor([1])), x.detach(), v)[1]
        return [hv.detach(), reference]

    assert_like_torch(case)
    hv, reference = case(ag)
    assert np.allclose(hv.numpy(), reference.numpy())


def test_reverse_over_forward_differentiates_the_tangent():
    def case(m):
        x = m.tensor([0.5, -1.0, 2.0], dtype=m.float64, requires_grad=True)
        with fwad(m).dual_level():
            d = fwad(m).make_dual(x, m.ones(3, dtype=m.float64))
            tangent = fwad(m).unpack_dual((d.sin() * d).sum()).tangent
        return list(m.autograd.grad(tangent, x))

    assert_like_torch(case)


def exp_adder(x, y):
    return 2 * x.exp() + 3 * y, (x[:2] * y[1:]).sin()


@pytest.mark.parametrize("kind", ["one", "tuple", "hessian"])
def test_functional_forward_mode_jacobian_is_torchs(kind):
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal(3), rng.standard_normal(3)

    def case(m):
        functional = m.autograd.functional
        x, y = m.tensor(a), m.tensor(b)
        if kind == "one":
            return functional.jacobian(lambda x: x.exp().cumsum(0), x, vectorize=True,
                                       strategy="forward-mode")
        if kind == "tuple":
            return functional.jacobian(exp_adder, (x, y), vectorize=True, strategy="forward-mode")
        return functional.hessian(lambda x: (x.exp() * x).sum(), x, vectorize=True,
                                  outer_jacobian_strategy="forward-mode").detach()

    assert_like_torch(case)


def test_functional_forward_mode_without_vectorize_refuses():
    assert_like_torch(lambda m: m.autograd.functional.jacobian(
        lambda x: x.exp(), m.ones(2), strategy="forward-mode"))


def test_in_place_op_on_a_dual_tensor_updates_its_tangent():
    def case(m):
        with fwad(m).dual_level():
            d = fwad(m).make_dual(m.zeros(3), m.ones(3))
            d.mul_(2)
            d.add_(m.arange(3.0))
            d.exp_()
            return list(fwad(m).unpack_dual(d))

    assert_like_torch(case)


def test_a_dual_tensor_prints_its_tangent():
    def case(m):
        with fwad(m).dual_level():
            plain = m.tensor([0.8208, 1.5489])
            dual = fwad(m).make_dual(plain, m.tensor([0.1581, 0.6763]))
            leaf = m.tensor([0.5329, 0.6408], requires_grad=True)
            viewed = fwad(m).make_dual(leaf, m.tensor([0.0991, 0.3765]))
            primal = fwad(m).unpack_dual(dual).primal
            return [repr(plain), repr(dual), repr(viewed), repr(primal)]

    assert_like_torch(case)


def test_out_variants_refuse_dual_tensors():
    def case(m):
        with fwad(m).dual_level():
            foo = fwad(m).make_dual(m.rand(2), m.rand(2))
            return m.add(foo, m.rand(2), out=m.zeros(2))

    assert_like_torch(case)



@pytest.mark.parametrize("wrong", [False, True])
def test_custom_jvp_and_non_differentiable_outputs(wrong):
    def case(m):
        class Func(m.autograd.Function):
            @staticmethod
            def forward(ctx, x, y):
                out = y.clone()
                ctx.mark_non_differentiable(out)
                return x.clone(), out, m.tensor(3)

            @staticmethod
            def jvp(ctx, x_t, y_t, ):
                return x_t, (x_t.clone() if wrong else None), None

        with fwad(m).dual_level():
            x = fwad(m).make_dual(m.tensor(2.0), m.tensor(1.0))
            outs = Func.apply(x, m.tensor(3.0))
            return [repr(fwad(m).unpack_dual(o).tangent) for o in outs]

    assert_like_torch(case)


def test_in_place_writes_into_the_tangent_unless_it_is_expanded():
    def case(m):
        with fwad(m).dual_level():
            t = m.ones(3)
            d = fwad(m).make_dual(m.zeros(3), t)
            d.mul_(2)
            y = m.zeros(2, 3) + fwad(m).make_dual(m.ones(3), m.ones(3))  # tangent expanded
            y.mul_(3)
            return [t, fwad(m).unpack_dual(d).tangent, fwad(m).unpack_dual(y).tangent]

    assert_like_torch(case)
