"""How a view was made decides whether PyTorch lets you write into it (autograd/views.py,
``register_view`` and ``refusal``), each case checked against PyTorch: the value, the
gradient, or the error type and message.

A learner's Function that returns its input returns a view of it; a view a learner's Function
returns, and any view of that view, cannot be written into in place while autograd watches;
nor can a view of a view taken under ``no_grad`` or ``inference_mode``, nor one of several
views made together (``unbind``, ``split``), even when the tensor they look at does not
require grad but the value written does.
"""

from __future__ import annotations

import pytest
from functions import identity, view_of_input
from oracle_helpers import assert_like_torch


def _same(m):
    """A Function that returns its input as is; its backward doubles the gradient."""
    return identity(m, backward=lambda ctx, g: 2 * g, name="Same", returns_input=True)


def _first_two(m):
    class FirstTwo(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x[:2]

        @staticmethod
        def backward(ctx, g):
            return m.cat([g, g.new_zeros(1)])

    return FirstTwo


@pytest.mark.parametrize("source", ["leaf", "non-leaf", "no grad"])
def test_an_input_returned_as_is_comes_back_as_a_view_of_it(source):
    def case(m):
        a = m.tensor([1.0, 2.0, 3.0], requires_grad=source != "no grad")
        x = a.clone() if source == "non-leaf" else a
        y = _same(m).apply(x)
        shown = [y is x, y._is_view(), y._base is x, y.requires_grad, y.data_ptr() == x.data_ptr()]
        if source != "no grad":
            (y * y).sum().backward()
            shown.append(a.grad)
        return shown

    assert_like_torch(case)


def test_an_input_returned_under_no_grad_is_not_a_view():
    def case(m):
        a = m.tensor([1.0, 2.0], requires_grad=True).clone()
        with m.no_grad():
            y = _same(m).apply(a)
        return [y is a, y._is_view(), y.requires_grad, y.data_ptr() == a.data_ptr()]

    assert_like_torch(case)


@pytest.mark.parametrize("fn", [_same, _first_two], ids=["input as is", "a view"])
@pytest.mark.parametrize("source", ["leaf", "non-leaf"])
def test_writing_into_a_custom_functions_view_is_refused(fn, source):
    def case(m):
        a = m.ones(3, requires_grad=True)
        v = fn(m).apply(a if source == "leaf" else a.clone())
        v.add_(1)

    assert_like_torch(case)


@pytest.mark.parametrize("fn", [_same, _first_two], ids=["input as is", "a view"])
def test_writing_into_it_is_allowed_when_nothing_requires_grad(fn):
    def case(m):
        a = m.ones(3)
        v = fn(m).apply(a)
        v.add_(1)
        with m.no_grad():
            v.mul_(3)
        return [v, a, v.requires_grad]

    assert_like_torch(case)


@pytest.mark.parametrize("fn", [_same, _first_two], ids=["input as is", "a view"])
@pytest.mark.parametrize("view", ["slice", "view", "transpose of unsqueeze"])
def test_a_view_of_a_custom_functions_view_is_refused_too(fn, view):
    def case(m):
        a = m.ones(3, requires_grad=True).clone()
        v = fn(m).apply(a)
        w = {"slice": lambda: v[:1], "view": lambda: v.view(-1),
             "transpose of unsqueeze": lambda: v.unsqueeze(0).t()}[view]()
        w.mul_(2)

    assert_like_torch(case)


def test_a_custom_functions_view_of_a_plain_tensor_written_with_a_value_that_requires_grad():
    def case(m):
        a = m.rand(1, 2)
        b = m.rand(1, requires_grad=True)
        view_a = view_of_input(m, "MyFn").apply(a)
        view_a += b

    assert_like_torch(case)


def test_copy_into_it_too():
    def case(m):
        a = m.rand(1, 2)
        b = m.rand(1, requires_grad=True)
        view_of_input(m, "MyFn").apply(a).copy_(b)

    assert_like_torch(case)


def test_a_custom_functions_view_taken_under_no_grad_then_written_with_grad_on():
    def case(m):
        a = m.ones(3, requires_grad=True).clone()
        with m.no_grad():
            v = _first_two(m).apply(a)
        v.add_(1)

    assert_like_torch(case)


@pytest.mark.parametrize("op", ["unbind", "split", "chunk"])
def test_one_of_several_views_of_a_plain_tensor_written_with_a_value_that_requires_grad(op):
    def case(m):
        a = m.rand(2, 2)
        b = m.rand(2, requires_grad=True)
        piece = {"unbind": lambda: a.unbind()[0], "split": lambda: a.split(1)[0][0],
                 "chunk": lambda: a.chunk(2)[1][0]}[op]()
        piece.copy_(b)

    assert_like_torch(case)


def test_a_select_of_a_plain_tensor_can_be_written_with_a_value_that_requires_grad():
    def case(m):
        a = m.rand(1, 2)
        b = m.rand(1, requires_grad=True)
        a.select(1, 0).copy_(b)
        a.sum().backward()
        return [a.requires_grad, b.grad]

    assert_like_torch(case)


@pytest.mark.parametrize("mode", ["no_grad", "inference_mode"])
def test_a_view_of_a_view_taken_in_a_mode_without_grad_keeps_that_reason(mode):
    def case(m):
        x = m.zeros(2)
        with getattr(m, mode)():
            y = x.view(2)
        y.requires_grad_(True)
        z = y.view(2)
        z /= 2

    assert_like_torch(case)


def test_a_view_taken_under_no_grad_of_a_plain_tensor_written_with_a_value_that_requires_grad():
    def case(m):
        x = m.zeros(2)
        with m.no_grad():
            y = x[:1]
        y.copy_(m.ones(1, requires_grad=True))

    assert_like_torch(case)


def test_views_taken_with_grad_on_can_still_be_written():
    def case(m):
        a = m.tensor([1.0, 2.0, 3.0], requires_grad=True)
        b = a.clone()
        b[:2].view(2).mul_(3)
        p = b.unsqueeze(0)[0, 1:]
        p.add_(1)
        b.sum().backward()
        return [b, a.grad]

    assert_like_torch(case)


# --- mark_dirty and views -------------------------------------------------------------------
def _adds_in_place(m, both: bool):
    class AddsInPlace(m.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            a.add_(b)
            ctx.mark_dirty(a)
            return (a, a + b) if both else a

        @staticmethod
        def backward(ctx, *grads):
            return grads[0], grads[-1]

    return AddsInPlace


@pytest.mark.parametrize("both", [False, True], ids=["one output", "two outputs"])
@pytest.mark.parametrize("mode", ["grad", "no_grad", "nothing requires grad"])
def test_a_dirty_input_that_is_a_view_must_be_the_only_output(both, mode):
    def case(m):
        a = m.ones(3, requires_grad=mode != "nothing requires grad")
        b = m.ones(2, requires_grad=mode != "nothing requires grad")
        x = a.clone()[:2]
        if mode == "no_grad":
            with m.no_grad():
                out = _adds_in_place(m, both).apply(x, b)
        else:
            out = _adds_in_place(m, both).apply(x, b)
        first = out[0] if both else out
        shown = [first is x, x, x._version]
        if mode == "grad":
            first.sum().backward()
            shown += [a.grad, b.grad]
        return shown

    assert_like_torch(case)


@pytest.mark.parametrize("make", ["view of a new tensor", "new tensor"])
@pytest.mark.parametrize("requires_grad", [True, False])
def test_mark_dirty_on_a_tensor_that_is_not_an_input(make, requires_grad):
    """A view that is not an input is refused, another new tensor only warned about; and
    both only when the call is recorded."""
    def case(m):
        class Func(m.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                out = x.clone().view_as(x) if make.startswith("view") else x.clone()
                ctx.mark_dirty(out)
                return out

            @staticmethod
            def backward(ctx, g):
                return g

        a = m.tensor([1.0], requires_grad=requires_grad)
        out = Func.apply(a.clone())
        return [out, out._is_view(), out.requires_grad]

    assert_like_torch(case, warns=True)


def _returns_input(m, how: str):
    class ReturnsInput(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            if how == "dirty":
                x.add_(1)
                ctx.mark_dirty(x)
            elif how == "non-differentiable":
                ctx.mark_non_differentiable(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    return ReturnsInput


@pytest.mark.parametrize("how", ["as is", "dirty", "non-differentiable"])
@pytest.mark.parametrize("mode", ["grad", "no_grad"])
@pytest.mark.parametrize("source", ["requires grad", "plain", "view that requires grad"])
def test_what_a_returned_input_comes_back_as(how, mode, source):
    """The same object, a view of it, or a new tensor on its memory: the identity, whether
    it is a view and of what, requires_grad, and the version counts."""
    def case(m):
        a = m.ones(3, requires_grad=source != "plain").clone()
        x = a[:2] if source.startswith("view") else a
        fn = _returns_input(m, how)
        if mode == "no_grad":
            with m.no_grad():
                y = fn.apply(x)
        else:
            y = fn.apply(x)
        return [y is x, y._is_view(), y._base is x, y._base is a, y.requires_grad,
                y._version, x._version, y.data_ptr() == x.data_ptr()]

    assert_like_torch(case)
