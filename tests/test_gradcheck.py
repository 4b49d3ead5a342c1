"""``ag.autograd.gradcheck`` / ``gradgradcheck``: the API, PyTorch's messages, and that they
catch wrong backwards (first and second order)."""

from __future__ import annotations

import re
import warnings

import pytest
from functions import mul_constant, square

import autograd_course as ag
from autograd_course.autograd import GradcheckError, gradcheck, gradgradcheck


def functions(lib):
    """Custom Functions, right and wrong, written against ``lib`` (ag or torch)."""

    MulConstant = mul_constant(lib)

    class MulConstantWrong(MulConstant):
        @staticmethod
        def backward(ctx, grad_output):
            return grad_output, None  # the note's bug: forgets the constant

    Square = square(lib)

    class SquareNotTwiceDifferentiable(Square):
        @staticmethod
        def backward(ctx, grad):
            (t,) = ctx.saved_tensors
            return 2 * t.detach() * grad  # right value, but its own derivative is lost

    class SlightlyOff(lib.autograd.Function):
        @staticmethod
        def forward(ctx, t):
            return t * 2

        @staticmethod
        def backward(ctx, grad):
            return grad * 2.0002  # relative error 1e-4

    class TwoOutputs(lib.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            return a * b, a + b

        @staticmethod
        def backward(ctx, g_product, g_sum):
            return g_sum, g_product + g_sum  # swapped-up: wrong for both inputs

    return MulConstant, MulConstantWrong, Square, SquareNotTwiceDifferentiable, SlightlyOff, \
        TwoOutputs


(MulConstant, MulConstantWrong, Square, SquareNotTwiceDifferentiable, SlightlyOff,
 TwoOutputs) = functions(ag)


def double(*values):
    return ag.tensor(list(values), dtype=ag.float64, requires_grad=True)


def test_correct_functions_pass():
    x, y = double(1., 2., 3.), double(-1., 0.5, 4.)
    assert gradcheck(MulConstant.apply, (x, 5)) is True
    assert gradcheck(Square.apply, (x,)) is True
    assert gradcheck(lambda a, b: (a * b).exp() / (b * b + 1), (x, y))
    assert gradcheck(lambda a: a.reshape(3, 1) @ a.reshape(1, 3), (x,))
    assert gradcheck(lambda a, b: (a.sin() * b, a.sum()), (x, y))


def test_inputs_may_be_a_single_tensor_and_include_non_tensors():
    assert gradcheck(lambda t: t * 3, double(1., 2.))
    assert gradcheck(lambda t, k, name: t ** k, (double(1., 2.), 3, "ignored"))


def test_the_notes_wrong_mul_constant_is_caught():
    with pytest.raises(GradcheckError) as error:
        gradcheck(MulConstantWrong.apply, (double(1., 2., 3.), 5))
    assert str(error.value) == (
        "Jacobian mismatch for output 0 with respect to input 0,\n"
        "numerical:tensor([[5.0000, 0.0000, 0.0000],\n        [0.0000, 5.0000, 0.0000],\n"
        "        [0.0000, 0.0000, 5.0000]], dtype=torch.float64)\n"
        "analytical:tensor([[1., 0., 0.],\n        [0., 1., 0.],\n        [0., 0., 1.]], "
        "dtype=torch.float64)\n"
    )
    assert isinstance(error.value, RuntimeError)  # GradcheckError is a RuntimeError, as in torch


def test_raise_exception_false_returns_false():
    assert gradcheck(MulConstantWrong.apply, (double(1., 2.), 5), raise_exception=False) is False
    assert gradgradcheck(SquareNotTwiceDifferentiable.apply, (double(1., 2.),),
                         raise_exception=False) is False


def test_mismatch_names_the_output_and_the_input():
    with pytest.raises(GradcheckError, match="^Jacobian mismatch for output 0 with respect to "
                                             "input 0,\n"):
        gradcheck(TwoOutputs.apply, (double(1., 2.), double(3., 4.)))


def test_tolerances_decide():
    x = double(1., 2.)
    assert gradcheck(SlightlyOff.apply, (x,))  # default rtol=1e-3 accepts a 1e-4 error
    assert not gradcheck(SlightlyOff.apply, (x,), rtol=1e-6, atol=0., raise_exception=False)
    assert gradcheck(SlightlyOff.apply, (x,), rtol=0., atol=1e-3)
    assert gradcheck(Square.apply, (x,), eps=1e-3, atol=1e-2, rtol=0)


def test_float32_inputs_warn_and_fail_like_pytorch():
    a32 = ag.tensor([1., 2., 3.], requires_grad=True)
    message = ("Input #0 requires gradient and is not a double precision floating point or "
               "complex. This check will likely fail if all the inputs are not of double "
               "precision floating point or complex. ")
    with pytest.warns(UserWarning, match=f"^{re.escape(message)}$"):
        with pytest.raises(GradcheckError) as error:
            gradcheck(MulConstant.apply, (a32, 5))
    assert str(error.value) == (
        "Jacobian mismatch for output 0 with respect to input 0,\n"
        "numerical:tensor([[5.0068, 0.0000, 0.0000],\n        [0.0000, 4.7684, 0.0000],\n"
        "        [0.0000, 0.0000, 4.7684]])\n"
        "analytical:tensor([[5., 0., 0.],\n        [0., 5., 0.],\n        [0., 0., 5.]])\n"
    )


def test_no_input_requiring_grad_is_an_error():
    with pytest.raises(ValueError, match="^gradcheck expects at least one input tensor to "
                                         "require gradient, but none of them have "
                                         "requires_grad=True.$"):
        gradcheck(lambda t: t * 2, (ag.tensor([1.], dtype=ag.float64),))


def test_output_cut_from_the_graph_is_caught():
    with pytest.raises(GradcheckError, match="^Numerical gradient for function expected to be "
                                             "zero$"):
        gradcheck(lambda t: t.detach() * 2, (double(1., 2.),))


def test_inputs_are_left_unchanged():
    x = double(1., 2.)
    gradcheck(lambda t: t.exp(), (x,))
    assert x.tolist() == [1.0, 2.0] and x._version == 0 and x.grad is None


def test_non_contiguous_input_is_perturbed_correctly():
    x = ag.tensor([[1., 2., 3.], [4., 5., 6.]], dtype=ag.float64).t().detach()
    x.requires_grad_()
    assert gradcheck(lambda t: t * t * ag.tensor([[1.], [2.], [3.]], dtype=ag.float64), (x,))


def test_gradgradcheck_passes_twice_differentiable_functions():
    x, y = double(0.5, 2.), double(1.5, -1.)
    assert gradgradcheck(lambda t: t ** 3, (x,))
    assert gradgradcheck(Square.apply, (x,))
    assert gradgradcheck(lambda a, b: (a * b).sin() + a.exp() * b, (x, y))
    assert gradgradcheck(lambda a: a.tanh().sum(), (x,), ag.tensor(2., dtype=ag.float64))


def test_gradgradcheck_catches_a_backward_that_is_not_differentiable():
    with pytest.raises(GradcheckError, match="^Jacobian mismatch for output 0 with respect to "
                                             "input 0,\n"):
        gradgradcheck(SquareNotTwiceDifferentiable.apply, (double(1., 2.),))


# --- against PyTorch ------------------------------------------------------------------------
def _verdicts(lib):
    fns = functions(lib)
    x = lib.tensor([1., 2.], dtype=lib.float64, requires_grad=True)
    y = lib.tensor([3., 4.], dtype=lib.float64, requires_grad=True)
    check, check2 = lib.autograd.gradcheck, lib.autograd.gradgradcheck
    cases = [
        lambda: check(fns[0].apply, (x, 5)), lambda: check(fns[1].apply, (x, 5)),
        lambda: check(fns[2].apply, (x,)), lambda: check(fns[4].apply, (x,), rtol=1e-6, atol=0),
        lambda: check(fns[5].apply, (x, y)), lambda: check2(fns[2].apply, (x,)),
        lambda: check2(fns[3].apply, (x,)), lambda: check(lambda t: t.detach(), (x,)),
    ]
    seen = []
    for case in cases:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                seen.append(repr(case()))
        except Exception as err:
            seen.append(f"{type(err).__name__}: {str(err).splitlines()[0]}")
    return seen


def test_same_verdicts_as_torch(torch_oracle):
    assert _verdicts(ag) == _verdicts(torch_oracle)


def test_same_float32_report_as_torch(torch_oracle):
    def report(lib):
        a32 = lib.tensor([1., 2., 3.], requires_grad=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                lib.autograd.gradcheck(functions(lib)[0].apply, (a32, 5))
            except Exception as err:
                return str(err), [str(w.message)[:60] for w in caught]
        return None

    assert report(ag) == report(torch_oracle)
