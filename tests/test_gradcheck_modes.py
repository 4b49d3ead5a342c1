"""gradcheck's other ways of being called, against torch: inputs as a list, ``fast_mode``
(one random projection vᵀJu per input and output instead of whole Jacobians),
``check_batched_grad``, the keyword arguments PyTorch's tests pass, and where
``GradcheckError`` is imported from."""

from __future__ import annotations

import warnings

import pytest
from functions import mul_constant, square

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


def verdict(call, *args, **kwargs):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return repr(call(*args, **kwargs))
    except Exception as err:
        return f"{type(err).__name__}: {str(err).splitlines()[0]}"


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


def test_forward_mode_checks_are_refused_clearly():
    x = ag.tensor([1., 2.], dtype=ag.float64, requires_grad=True)
    with pytest.raises(NotImplementedError, match="no forward-mode AD"):
        ag.autograd.gradcheck(lambda t: t * 2, [x], check_forward_ad=True)
