"""The ctx API a learner's Function uses, and the misuse errors around it, against PyTorch:
mark_dirty, set_materialize_grads, once_differentiable, save_for_backward's type check, hook
results, deepcopy."""

from __future__ import annotations

import copy

import pytest
import torch

import autograd_course as ag


def _add_one_inplace(m):
    class AddOneInplace(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.add_(1)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, grad):
            return grad

    return AddOneInplace


@pytest.mark.parametrize("m", [ag, torch], ids=["ours", "torch"])
def test_mark_dirty_rebases_the_modified_input(m):
    a = m.tensor([1.0, 2.0], requires_grad=True)
    y = a * 2
    z = _add_one_inplace(m).apply(y)
    assert z is y and y.tolist() == [3.0, 5.0]
    assert y.grad_fn.name() == "AddOneInplaceBackward"
    y.sum().backward()
    assert a.grad.tolist() == [2.0, 2.0]


def test_mark_dirty_matches_torch_on_versions_and_leaves():
    results = []
    for m in (ag, torch):
        a = m.tensor([1.0, 2.0], requires_grad=True)
        y = a * 2
        _add_one_inplace(m).apply(y)
        leaf = m.tensor([1.0], requires_grad=True)
        try:
            _add_one_inplace(m).apply(leaf)
        except RuntimeError as e:
            message = str(e)
        else:
            raise AssertionError("an in-place Function on a leaf that requires grad must fail")
        results.append((y._version, "leaf Variable that requires grad" in message))
    assert results[0] == results[1]


def _two_outputs(m, materialize):
    seen = []

    class Split(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(materialize)
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, g1, g2):
            seen.append(None if g2 is None else g2.tolist())
            return g1 * 2 if g2 is None else g1 * 2 + g2 * 3

    return Split, seen


@pytest.mark.parametrize("materialize", [True, False])
def test_set_materialize_grads(materialize):
    results = []
    for m in (ag, torch):
        split, seen = _two_outputs(m, materialize)
        x = m.tensor([1.0, 2.0], requires_grad=True)
        first, _ = split.apply(x)
        first.sum().backward()
        results.append((seen, x.grad.tolist()))
    assert results[0] == results[1]
    assert results[0][0] == ([[0.0, 0.0]] if materialize else [None])


def _cube(m):
    class Cube(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x**3

        @staticmethod
        @m.autograd.function.once_differentiable
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * 3 * x**2

    return Cube


def test_once_differentiable_first_order_works_second_order_fails_like_torch():
    results = []
    for m in (ag, torch):
        x = m.tensor([2.0], requires_grad=True)
        y = _cube(m).apply(x)
        (g,) = m.autograd.grad((y * y).sum(), x, create_graph=True)
        assert g.tolist() == [192.0] and g.requires_grad  # 2·y·3x² = 2·8·12
        with pytest.raises(RuntimeError, match="marked with @once_differentiable"):
            g.sum().backward()
        (plain,) = m.autograd.grad(_cube(m).apply(x).sum(), x, create_graph=True)
        x.grad = None
        _cube(m).apply(x).sum().backward()
        results.append((g.grad_fn.name(), plain.requires_grad, x.grad.tolist()))
    assert results[0] == results[1]


def test_save_for_backward_refuses_a_number_like_torch():
    messages = []
    for m in (ag, torch):
        class SavesNumber(m.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x, 3.0)
                return x * 1

            @staticmethod
            def backward(ctx, grad):
                return grad

        with pytest.raises(TypeError) as info:
            SavesNumber.apply(m.tensor([1.0], requires_grad=True))
        messages.append(str(info.value))
    assert messages[0] == messages[1]


@pytest.mark.parametrize("make_result, kind", [
    (lambda m, g: m.ones(3), RuntimeError),
    (lambda m, g: g.double(), RuntimeError),
    (lambda m, g: 3, TypeError),
])
@pytest.mark.parametrize("leaf", [True, False])
def test_hook_results_are_checked_like_torch(make_result, kind, leaf):
    messages = []
    for m in (ag, torch):
        x = m.tensor([1.0, 2.0], requires_grad=True)

        def hook(g, m=m):
            return make_result(m, g)

        target = x if leaf else x * 2
        target.register_hook(hook)
        with pytest.raises(kind) as info:
            (target * 1).sum().backward()
        messages.append(str(info.value))
    assert messages[0] == messages[1]


def test_deepcopy_like_torch():
    messages = []
    for m in (ag, torch):
        x = m.tensor([1.0, 2.0], requires_grad=True)
        (x * x).sum().backward()
        y = copy.deepcopy(x)
        assert y.requires_grad and y.is_leaf and y.tolist() == [1.0, 2.0]
        assert y.grad.tolist() == [2.0, 4.0] and y.grad is not x.grad
        y.data.add_(1)
        assert x.tolist() == [1.0, 2.0]
        with pytest.raises(RuntimeError) as info:
            copy.deepcopy(x * 2)
        messages.append(str(info.value))
    assert messages[0] == messages[1]


def test_the_engine_sums_a_broadcast_gradient_back_like_torch():
    """Chapter 6: a backward may return a gradient of the output's (broadcast) shape; the
    engine sums it back to the input's shape, in PyTorch as here."""
    grads = []
    for m in (ag, torch):
        class AddRow(m.autograd.Function):
            @staticmethod
            def forward(ctx, x, row):
                return x + row

            @staticmethod
            def backward(ctx, grad):
                return grad, grad  # both of shape (2, 3): row's is summed by the engine

        x = m.ones(2, 3, requires_grad=True)
        row = m.ones(3, requires_grad=True)
        AddRow.apply(x, row).sum().backward()
        grads.append((row.grad.shape, row.grad.tolist(), x.grad.tolist()))
    assert grads[0][0] == (3,) and grads[0][1:] == grads[1][1:]
    assert tuple(grads[1][0]) == (3,)
