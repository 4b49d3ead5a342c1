"""gradcheck's other ways of being called, against torch: inputs as a list, ``fast_mode``
(one random projection vᵀJu per input and output instead of whole Jacobians),
``check_batched_grad``, the keyword arguments PyTorch's tests pass, and where
``GradcheckError`` is imported from."""

from __future__ import annotations

import numpy as np
import pytest
from functions import mul_constant, square
from oracle_helpers import outcome

import autograd_course as ag


def cases(lib):
    """(name, func, inputs) for right and wrong backwards, written against ``lib``."""
    MulConstant, Square = mul_constant(lib), square(lib)

    class Wrong(lib.autograd.Function):
        @staticmethod
        def forward(ctx, t):
            return t * 2

        @staticmethod
        def backward(ctx, grad):
            return grad * 3

    class SquaresItsGrad(lib.autograd.Function):  # not linear in grad: still passes in torch
        @staticmethod
        def forward(ctx, t):
            return t * 2

        @staticmethod
        def backward(ctx, grad):
            return grad * grad * 0 + 2 * grad

    x = lib.tensor([1., 2., 3.], dtype=lib.float64, requires_grad=True)
    y = lib.tensor([0.5, -1., 2.], dtype=lib.float64, requires_grad=True)
    return [
        ("mul_constant", MulConstant.apply, (x, 5)),
        ("square", Square.apply, [x]),
        ("two_inputs", lambda a, b: (a * b).exp() / (b * b + 1), [x, y]),
        ("two_outputs", lambda a, b: (a.sin() * b, a.sum()), (x, y)),
        ("wrong", Wrong.apply, [x]),
        ("detached_output", lambda t: t.detach() * 2, (x,)),
        ("squares_its_grad", SquaresItsGrad.apply, (x,)),
    ]


verdict = outcome  # the value's repr, or the error's type and first line


@pytest.mark.parametrize("kwargs", [
    {}, {"fast_mode": True}, {"check_batched_grad": True},
    {"fast_mode": True, "check_batched_grad": True}, {"raise_exception": False, "fast_mode": True},
    {"nondet_tol": 1e-10, "check_undefined_grad": False, "check_grad_dtypes": True},
])
def test_gradcheck_verdicts_like_torch(torch_oracle, kwargs):
    ours = [(n, verdict(ag.autograd.gradcheck, f, i, **kwargs)) for n, f, i in cases(ag)]
    theirs = [(n, verdict(torch_oracle.autograd.gradcheck, f, i, **kwargs))
              for n, f, i in cases(torch_oracle)]
    assert ours == theirs


@pytest.mark.parametrize("kwargs", [{}, {"fast_mode": True}, {"check_batched_grad": True}])
def test_gradgradcheck_verdicts_like_torch(torch_oracle, kwargs):
    def run(lib):
        Square = square(lib)

        class NotTwice(Square):
            @staticmethod
            def backward(ctx, grad):
                (t,) = ctx.saved_tensors
                return 2 * t.detach() * grad

        x = lib.tensor([0.5, 2.], dtype=lib.float64, requires_grad=True)
        return [verdict(lib.autograd.gradgradcheck, f, [x], **kwargs)
                for f in (Square.apply, NotTwice.apply, lambda t: t ** 3)]

    assert run(ag) == run(torch_oracle)


def test_fast_mode_message_has_torchs_form(torch_oracle):
    """The numbers differ (PyTorch draws its own random vectors); the text around them and
    the slow-mode Jacobians it recomputes are the same."""
    def message(lib):
        name, func, inputs = cases(lib)[4]
        with pytest.raises(RuntimeError) as err:
            lib.autograd.gradcheck(func, inputs, fast_mode=True)
        lines = str(err.value).split("\n")
        return [line for line in lines
                if not line.startswith(("numerical:", "analytical:"))], lines

    (ours, our_lines), (theirs, their_lines) = message(ag), message(torch_oracle)
    assert ours[:-2] == theirs[:-2]
    assert our_lines[1].startswith("numerical:") and their_lines[1].startswith("numerical:")
    assert ours[-2].startswith("The max per-element difference (slow mode) is: 1.0")
    assert theirs[-2].startswith("The max per-element difference (slow mode) is: 1.0")


def test_argument_errors_like_torch(torch_oracle):
    def run(lib):
        x = lib.tensor([1., 2.], dtype=lib.float64, requires_grad=True)
        return [
            verdict(lambda: lib.autograd.gradcheck(lambda t: t * 2, [x], check_backward_ad=False,
                                                   check_batched_grad=True)),
            verdict(lambda: lib.autograd.gradgradcheck(lambda t: t * 2, [x],
                                                       check_rev_over_rev=False)),
            verdict(lambda: lib.autograd.gradcheck(lambda t: t * 2, [])),
        ]

    assert run(ag) == run(torch_oracle)


def test_gradcheck_error_is_imported_from_the_gradcheck_module_as_in_torch(torch_oracle):
    from torch.autograd.gradcheck import GradcheckError as TorchGradcheckError

    from autograd_course.autograd.gradcheck import GradcheckError

    assert issubclass(GradcheckError, RuntimeError)
    assert issubclass(TorchGradcheckError, RuntimeError)
    # in both, the name ``autograd.gradcheck`` is the function (it hides the module)
    assert callable(ag.autograd.gradcheck) and callable(torch_oracle.autograd.gradcheck)
    assert ag.autograd.GradcheckError is GradcheckError  # this package's older spelling
    with pytest.raises(GradcheckError):
        ag.autograd.gradcheck(cases(ag)[4][1], [cases(ag)[4][2][0]])


def test_forward_mode_checks_pass_and_catch_a_wrong_jvp(torch_oracle):
    """Forward-mode AD exists now (forward_ad.py): ``check_forward_ad=True`` compares its
    Jacobian with the numerical one, and a custom Function's wrong ``jvp`` fails as in torch."""
    for lib in (ag, torch_oracle):
        x = lib.tensor([1., 2.], dtype=lib.float64, requires_grad=True)
        assert lib.autograd.gradcheck(lambda t: (t * 2).sin(), [x], check_forward_ad=True)

        class WrongJvp(lib.autograd.Function):
            @staticmethod
            def forward(ctx, t):
                return t * 3

            @staticmethod
            def backward(ctx, g):
                return g * 3

            @staticmethod
            def jvp(ctx, t_t):
                return t_t * 2  # should be 3

        with pytest.raises(RuntimeError, match="forward mode mismatch"):
            lib.autograd.gradcheck(WrongJvp.apply, [x], check_forward_ad=True)


def nondeterministic(lib):
    """An identity whose backward multiplies by (1 + jitter·noise): not reentrant."""

    class NonDet(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, jitter=0.0):
            ctx.jitter = jitter
            return x

        @staticmethod
        def backward(ctx, grad):
            noise = lib.rand_like(grad)
            return NonDet.apply(grad, ctx.jitter) * (1 + noise * ctx.jitter), None

    return NonDet


@pytest.mark.parametrize("fast_mode", [False, True])
def test_backward_that_is_not_reentrant_is_caught_like_torch(torch_oracle, fast_mode):
    """Backward runs twice with the same incoming gradient; answers further apart than
    ``nondet_tol`` are PyTorch's 'Backward is not reentrant' error, for gradgradcheck too."""
    def run(lib):
        NonDet = nondeterministic(lib)
        x = lib.tensor([[0.5, -1.0], [2.0, 0.25]], dtype=lib.float64, requires_grad=True)
        checks = [
            (lib.autograd.gradcheck, 0.0, {}), (lib.autograd.gradcheck, 1e-6, {}),
            (lib.autograd.gradgradcheck, 1e-12, {}),
            (lib.autograd.gradcheck, 1e-6, {"nondet_tol": 1e-5}),
            (lib.autograd.gradgradcheck, 1e-12, {"nondet_tol": 1e-5}),
        ]
        return [verdict(check, lambda t, j=jitter: NonDet.apply(t, j), x,
                        check_batched_grad=False, fast_mode=fast_mode, **kw)
                for check, jitter, kw in checks]

    assert run(ag) == run(torch_oracle)


@pytest.mark.parametrize("fast_mode", [False, True])
def test_outputs_that_change_shape_or_dtype_when_perturbed(torch_oracle, fast_mode):
    def run(lib):
        a = lib.ones(1, dtype=lib.float64, requires_grad=True)

        def shape(x):
            return lib.cat([x, x]) if bool((x >= 1).all()) else x

        def dtype(x):
            return x.to(lib.float32) if bool((x >= 1).all()) else x

        return [verdict(lib.autograd.gradcheck, f, (a,), fast_mode=fast_mode)
                for f in (shape, dtype)]

    assert run(ag) == run(torch_oracle)


def test_deprecated_jacobian_helpers_like_torch(torch_oracle):
    def run(lib):
        from importlib import import_module

        module = import_module(f"{lib.__name__}.autograd.gradcheck")
        a = lib.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=lib.float64, requires_grad=True)
        b = lib.tensor([[0.5, 0.0], [1.0, -1.0]], dtype=lib.float64, requires_grad=True)
        with pytest.warns(FutureWarning, match="was part of PyTorch's private API"):
            numerical = module.get_numerical_jacobian(
                lambda t: (2 * t[0] + t[1], t[0] + 2 * t[1]), (a, b), eps=1e-6)
        with pytest.warns(FutureWarning, match="was part of PyTorch's private API"):
            jacobians, reentrant, sizes_ok, types_ok = module.get_analytical_jacobian(
                (a, b), 2 * a + b * b)
        refused = verdict(module.get_numerical_jacobian, lambda t: t[0], (a,), grad_out=2.0)
        return [[n.tolist() for n in numerical], [j.tolist() for j in jacobians], reentrant,
                sizes_ok, types_ok, refused]

    ours, theirs = run(ag), run(torch_oracle)
    assert ours[2:] == theirs[2:]
    for mine, torchs in zip(ours[:2], theirs[:2]):
        assert len(mine) == len(torchs)
        for m, t in zip(mine, torchs):
            assert np.allclose(m, t, atol=1e-6)
