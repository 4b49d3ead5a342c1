"""What some of PyTorch's own autograd tests (``test/test_autograd.py``, class
``TestAutograd``) check about gradcheck, the legacy names and ``as_strided``, restated here
in our own words and run on both libraries, so that CI holds it without PyTorch's file.

``scripts/torch_autograd_suite.py`` runs PyTorch's file itself; these are the checks of it
that this package's gradcheck, ``Variable``, ``FloatTensor``..., ``Tensor.new`` and
``as_strided`` must keep passing.
"""

from __future__ import annotations

import pytest
from oracle_helpers import assert_like_torch, outcome

import autograd_course as ag


@pytest.mark.parametrize("fast_mode", [False, True])
def test_gradcheck_accepts_one_tensor_not_in_a_tuple(torch_oracle, fast_mode):
    """A lone tensor is the only input; both checks pass for x ↦ 5x."""
    def run(lib):
        x = lib.tensor([0.2, 0.7, 0.1], dtype=lib.float64, requires_grad=True)
        return [outcome(lib.autograd.gradcheck, lambda t: t.mul(5), x, fast_mode=fast_mode),
                outcome(lib.autograd.gradgradcheck, lambda t: t.mul(5), x,
                        fast_mode=fast_mode)]

    assert run(torch_oracle) == run(ag)


def test_gradcheck_ignores_an_input_the_output_does_not_use(torch_oracle):
    """An input that requires grad but is unused has a zero Jacobian on both sides."""
    def run(lib):
        x = lib.tensor([0.3, 0.9], dtype=lib.float64, requires_grad=True)
        y = lib.tensor([1.5, -2.0], dtype=lib.float64, requires_grad=True)
        return [outcome(lib.autograd.gradcheck, lambda a, b: a * a, (x, y)),
                outcome(lib.autograd.gradgradcheck, lambda a, b: a * a, (x, y))]

    assert run(torch_oracle) == run(ag)


@pytest.mark.parametrize("fast_mode", [False, True])
def test_a_hook_that_shifts_the_gradient_is_a_jacobian_mismatch(torch_oracle, fast_mode):
    """A tensor hook adding 0.01 to the gradient makes backward wrong: the error is a
    GradcheckError (a RuntimeError), ``raise_exception=False`` turns it into False, and an
    error raised by the function itself is not swallowed."""
    def run(lib):
        from importlib import import_module

        gradcheck_error = import_module(f"{lib.__name__}.autograd.gradcheck").GradcheckError

        def shifted(t):
            out = t.clone()
            out.register_hook(lambda g: g + 1e-2)
            return out

        def broken(t):
            raise RuntimeError("Not a GradcheckError!")

        x = lib.ones(2, 2, dtype=lib.float64, requires_grad=True)
        try:
            lib.autograd.gradcheck(shifted, (x,), fast_mode=fast_mode)
            caught = None
        except gradcheck_error as err:
            caught = [isinstance(err, RuntimeError), str(err).splitlines()[0]]
        return [caught,
                outcome(lib.autograd.gradcheck, shifted, (x,), raise_exception=False,
                        fast_mode=fast_mode),
                outcome(lib.autograd.gradcheck, broken, (x,), raise_exception=False,
                        fast_mode=fast_mode)]

    assert run(torch_oracle) == run(ag)


@pytest.mark.parametrize("fast_mode", [False, True])
def test_outputs_that_do_not_require_grad(torch_oracle, fast_mode):
    """An output built outside the graph whose value still moves with the input is an
    error ('Numerical gradient for function expected to be zero'); no outputs at all pass."""
    def run(lib):
        x = lib.ones(1, dtype=lib.float64, requires_grad=True)
        return [outcome(lib.autograd.gradcheck, lambda t: lib.tensor([t.item()]), x,
                        fast_mode=fast_mode),
                outcome(lib.autograd.gradcheck, lambda t: lib.tensor([t.item()]), x,
                        raise_exception=False, fast_mode=fast_mode),
                outcome(lib.autograd.gradcheck, lambda t: (), (x,), fast_mode=fast_mode)]

    assert run(torch_oracle) == run(ag)


def test_a_function_returning_one_tensor_twice(torch_oracle):
    """A custom Function may return the same tensor twice: both outputs are one object,
    and gradcheck/gradgradcheck with inputs given as a list pass."""
    def run(lib):
        class Twice(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                out = x * 2
                return out, out

            @staticmethod
            def backward(ctx, g1, g2):
                return g1 * 2 + g2 * 2

        def fn(x):
            a, b = Twice.apply(x)
            assert a is b
            return a + b

        x = lib.tensor([[0.1, -0.4], [1.2, 0.3]], dtype=lib.float64, requires_grad=True)
        return [outcome(lib.autograd.gradcheck, fn, [x]),
                outcome(lib.autograd.gradgradcheck, fn, [x])]

    assert run(torch_oracle) == run(ag)


def test_indexing_a_variable_sends_ones_to_the_indexed_places():
    """``Variable(x, requires_grad=True)`` is a leaf; indexing it with ints, slices, a
    ``LongTensor`` or lists and summing sends 1 to each chosen element."""
    def run(m):
        x = m.arange(1.0, 17).view(4, 4)
        y = m.autograd.Variable(x, requires_grad=True)
        grads = []
        for index in (1, (1, 1), slice(1, None), m.LongTensor([0, 2]), ([1, 2], [2, 1]),
                      (Ellipsis, slice(2, None))):
            y.grad = None
            y[index].sum().backward()
            grads.append(y.grad)
        return [y.is_leaf, x.requires_grad, grads]

    assert_like_torch(run)


def test_a_new_tensor_written_into_a_slice_gets_its_gradient():
    """``x.new(size).fill_(7)`` made to require grad and written into ``y[index]``: the
    written value receives ones, the overwritten part of ``x`` receives zeros."""
    def run(m):
        x = m.ones(5, 5, requires_grad=True)
        y = x + 2
        value = x.new(x[1].size()).fill_(7)
        value.requires_grad = True
        y[1] = value
        y.backward(m.ones(5, 5))
        return [x.grad, value.grad, value.dtype == x.dtype]

    assert_like_torch(run)


def test_conversions_give_the_legacy_types():
    """``x.float()`` is a ``FloatTensor``, ``x.int()`` an ``IntTensor``, ``x.double()`` a
    ``DoubleTensor`` (and not a ``FloatTensor``)."""
    def run(m):
        x = m.randn(5, 5)
        return [isinstance(x.float(), m.FloatTensor), isinstance(x.int(), m.IntTensor),
                isinstance(x.double(), m.DoubleTensor), isinstance(x.double(), m.FloatTensor),
                isinstance(x.long(), m.LongTensor), isinstance(x > 0, m.BoolTensor)]

    assert_like_torch(run)


def test_as_strided_saves_its_storage_offset_argument():
    """The node of ``a.as_strided((3,), (1,), 1)`` is ``AsStridedBackward0``; its gradient
    puts ones on the three elements read, from the second on."""
    def run(m):
        a = m.ones(2, 2, requires_grad=True)
        out = a.as_strided((3,), (1,), 1)
        out.sum().backward()
        return [type(out.grad_fn).__name__, a.grad]

    assert_like_torch(run)
