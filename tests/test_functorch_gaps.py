"""What PyTorch's functorch tests needed that the package lacked (torch.take, torch.cov,
torch.get_rng_state / set_rng_state, nn.Buffer, nn.Dropout2d), each compared with torch, and
used under the transforms as those tests use them."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import autograd_course as ag


def outcome(call):
    try:
        return "ok", call()
    except Exception as e:  # the failure is the result compared
        return type(e).__name__, str(e)


def test_take_values_gradient_and_errors_like_torch(torch_oracle):
    def run(m):
        x = m.arange(6.0).reshape(2, 3).requires_grad_()
        index = m.tensor([[0, -1], [4, 4]])
        out = m.take(x, index)
        out.sum().backward()
        errors = [outcome(lambda i=i: m.take(x, i).tolist()) for i in
                  (m.tensor([1.0]), m.tensor([6]), m.tensor([-7]),
                   m.tensor([1], dtype=m.int32))]
        return (out.tolist(), out.grad_fn.name(), x.grad.tolist(), x.take(m.tensor([2])).tolist(),
                m.take(m.tensor(5.0), m.tensor(0)).tolist(), errors)

    assert run(ag) == run(torch_oracle)


def test_take_under_jacrev_like_autograd_functional(torch_oracle):
    def run(m):
        x = m.tensor([0.5, 1.0, 1.5, 2.0, 2.5])

        def f(t):
            return m.take(t, m.tensor([1, 1, 4]))
        return (m.func.jacrev(f)(x).tolist(), m.func.jacfwd(f)(x).tolist(),
                m.autograd.functional.jacobian(f, x).tolist())

    ours, theirs = run(ag), run(torch_oracle)
    assert ours == theirs and ours[0] == ours[1] == ours[2]


@pytest.mark.parametrize("weights", ["none", "fweights", "aweights", "both"])
@pytest.mark.parametrize("correction", [0, 1, 2])
def test_cov_like_torch(torch_oracle, weights, correction):
    def run(m):
        x = m.tensor([[1.0, 2.0, 4.0, 7.0], [0.0, 3.0, 1.0, 2.0], [5.0, 5.0, 6.0, 1.0]],
                     dtype=m.float64, requires_grad=True)
        kwargs = {}
        if weights in ("fweights", "both"):
            kwargs["fweights"] = m.tensor([1, 2, 1, 3])
        if weights in ("aweights", "both"):
            kwargs["aweights"] = m.tensor([0.5, 1.0, 2.0, 1.0], dtype=m.float64)
        c = m.cov(x, correction=correction, **kwargs)
        (c * m.arange(9.0, dtype=m.float64).reshape(3, 3)).sum().backward()
        return c.tolist(), x.grad.tolist()

    ours, theirs = run(ag), run(torch_oracle)
    assert np.allclose(ours[0], theirs[0], rtol=1e-12) and np.allclose(ours[1], theirs[1])


def test_cov_shapes_warnings_and_errors_like_torch(torch_oracle):
    def run(m):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            single = m.cov(m.tensor([[1.0], [2.0]])).tolist()  # one observation, correction 1
        return (m.cov(m.tensor([1, 2, 4])).tolist(), str(m.cov(m.tensor([1, 2, 4])).dtype),
                m.cov(m.tensor([[1.0, 2.0, 4.0]])).shape, str(single),
                # (PyTorch's C++ warning ends with where it was raised: compared up to there)
                [str(w.message).split(" (Triggered internally")[0] for w in caught
                 if w.category is UserWarning],
                outcome(lambda: m.cov(m.ones(2, 2, 2))),
                outcome(lambda: m.cov(m.tensor([True, False]))))

    assert run(ag) == run(torch_oracle)


def test_cov_under_vmap_of_jvp_like_torch(torch_oracle):
    """PyTorch's test_zerotensor_vmapjvp_interaction, with numbers compared."""
    def run(m):
        x = m.tensor([[1.0, 2.0], [0.5, -1.0], [3.0, 0.0], [2.0, 2.0]])
        tangent = m.tensor([0.5, -0.25])

        def push(dummy, x):
            return m.func.jvp(m.cov, (x,), (tangent,))
        out, jvp_out = m.func.vmap(m.func.vmap(push, (0, None)))(m.ones(4, 1), x)
        return out.shape, out[0, 0].tolist(), jvp_out[0, 0].tolist()

    ours, theirs = run(ag), run(torch_oracle)
    assert ours[0] == theirs[0]
    assert np.allclose(ours[1], theirs[1]) and np.allclose(ours[2], theirs[2])


def test_rng_state_round_trip_like_torch(torch_oracle):
    def run(m):
        m.manual_seed(7)
        state = m.get_rng_state()
        first = m.randn(3).tolist()
        m.set_rng_state(state)
        return str(state.dtype), tuple(state.shape), first == m.randn(3).tolist(), first

    assert run(ag) == run(torch_oracle)


def test_buffer_registers_like_torch(torch_oracle):
    def run(m):
        class Stats(m.nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.mean = m.nn.Buffer(m.zeros(2))
                self.scratch = m.nn.Buffer(m.ones(1), persistent=False)
                self.linear = m.nn.Linear(2, 2)

        module = Stats()
        b = m.nn.Buffer(m.ones(2, requires_grad=True))
        return (sorted(dict(module.named_buffers())), sorted(module.state_dict()),
                sorted(dict(module.named_parameters())), isinstance(b, m.nn.Buffer),
                isinstance(m.ones(1), m.nn.Buffer), b.requires_grad, b.is_leaf, b.persistent,
                m.nn.Buffer().shape)

    assert run(ag) == run(torch_oracle)


def test_dropout2d_like_torch(torch_oracle):
    """One draw per (sample, channel), the same numbers as PyTorch's after the same seed."""
    def run(m):
        m.manual_seed(0)
        x = m.ones(2, 3, 2, 2, requires_grad=True)
        layer = m.nn.Dropout2d(0.5)
        out = layer(x)
        out.sum().backward()
        layer.eval()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            m.nn.functional.dropout2d(m.ones(2, 3, 4), 0.5)
        return (repr(layer), out[:, :, 0, 0].tolist(), bool((out[:, :, 0] == out[:, :, 1]).all()),
                out.grad_fn.name(), x.grad[:, :, 0, 0].tolist(), layer(x).tolist() == x.tolist(),
                [str(w.message)[:60] for w in caught],
                outcome(lambda: m.nn.functional.dropout2d(x, 1.5)))

    assert run(ag) == run(torch_oracle)


@pytest.mark.parametrize("transform", ["vmap", "grad", "jacrev", "jacfwd", "grad_and_value",
                                       "hessian"])
def test_function_without_setup_context_refused_under_a_transform_like_torch(torch_oracle,
                                                                             transform):
    """A transform needs forward and setup_context apart: a Function whose forward takes ctx
    is refused with PyTorch's message; the same maths with setup_context runs."""
    def run(m):
        class SinWithCtx(m.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x.sin()

            @staticmethod
            def backward(ctx, gy):
                (x,) = ctx.saved_tensors
                return gy * x.cos()

        class SinApart(m.autograd.Function):
            generate_vmap_rule = True

            @staticmethod
            def forward(x):
                return x.sin()

            @staticmethod
            def setup_context(ctx, inputs, output):
                ctx.save_for_backward(inputs[0])
                ctx.save_for_forward(inputs[0])  # (what jvp's ctx.saved_tensors gives)

            @staticmethod
            def backward(ctx, gy):
                (x,) = ctx.saved_tensors
                return gy * x.cos()

            @staticmethod
            def jvp(ctx, t):
                (x,) = ctx.saved_tensors
                return t * x.cos()

        x = m.tensor([0.5, 1.0, 2.0])
        t = getattr(m.func, transform)
        scalar = transform in ("grad", "grad_and_value", "hessian")
        refused = outcome(lambda: t(lambda v: SinWithCtx.apply(v).sum() if scalar
                                    else SinWithCtx.apply(v))(x))
        plain = SinWithCtx.apply(x).tolist()  # (outside a transform: fine)
        apart = t(lambda v: SinApart.apply(v).sum() if scalar else SinApart.apply(v))(x)
        apart = apart[0] if isinstance(apart, tuple) else apart
        return refused, plain, apart.tolist()

    ours, theirs = run(ag), run(torch_oracle)
    assert ours[0] == theirs[0]
    assert theirs[0][0] == "RuntimeError" and "must override the setup_context" in theirs[0][1]
    assert np.allclose(ours[1], theirs[1]) and np.allclose(ours[2], theirs[2], atol=1e-6)


@pytest.mark.parametrize("inner", ["grad", "jacrev", "vjp"])
def test_per_sample_gradients_from_vmap_are_plain_tensors_like_torch(torch_oracle, inner):
    """vmap differentiates nothing: the gradients a grad inside it returns keep no graph
    (a vmap counted as a grad transform made them StackBackward0 results)."""
    def case(m):
        w = m.tensor([[0.5, -1.0], [2.0, 0.25]])
        xs = m.tensor([[1.0, 2.0], [3.0, -1.0], [0.0, 4.0]])

        def loss(w, x):
            return ((w @ x).tanh() ** 2).sum()

        if inner == "grad":
            per_sample = m.func.vmap(m.func.grad(loss), in_dims=(None, 0))(w, xs)
        elif inner == "jacrev":
            per_sample = m.func.vmap(m.func.jacrev(loss), in_dims=(None, 0))(w, xs)
        else:
            per_sample = m.func.vmap(lambda x: m.func.vjp(lambda w: loss(w, x), w)[1](
                m.tensor(1.0))[0])(xs)
        return [per_sample.requires_grad, per_sample.grad_fn is None], per_sample.numpy()

    (ours, values), (theirs, expected) = case(ag), case(torch_oracle)
    assert ours == theirs == [False, True]
    np.testing.assert_allclose(values, expected, rtol=1e-6, atol=1e-6)
