"""What chapters 5 and 6 say about PyTorch, checked against PyTorch itself (the oracle).

Each test runs the chapter's example twice, once with ``torch`` and once with our package, and
asserts the claim the chapter makes for both, so the prose cannot drift from PyTorch.
"""


from __future__ import annotations

import numpy as np
import pytest
from functions import mul_constant

import autograd_course as ag


@pytest.fixture(params=["ag", "torch"])
def lib(request):
    """Our package, then PyTorch (the second is skipped where torch is not installed)."""
    return ag if request.param == "ag" else request.getfixturevalue("torch_oracle")


def _name(fn):
    """A node's name, as PyTorch spells it (``AccumulateGrad`` without its namespace)."""
    return None if fn is None else fn.name().replace("torch::autograd::", "")


# --- chapter 5 ------------------------------------------------------------------------------
def test_ch05_no_grad_records_nothing_and_restores_the_mode(lib):
    w = lib.ones(5, 3, requires_grad=True)
    with lib.no_grad():
        inside = lib.matmul(lib.ones(5), w)
        assert not lib.is_grad_enabled()
    assert lib.is_grad_enabled() and w.requires_grad
    assert not inside.requires_grad and inside.grad_fn is None and inside.is_leaf


def test_ch05_the_three_other_switches(lib):
    x = lib.ones(2, requires_grad=True)

    @lib.no_grad()
    def predict(t):
        return t * 2

    with lib.set_grad_enabled(False):
        p2 = x * 2
    with lib.no_grad():
        with lib.enable_grad():
            p3 = x * 2
    assert (predict(x).requires_grad, p2.requires_grad, p3.requires_grad) == (False, False, True)


def test_ch05_in_place_update_of_a_leaf(lib):
    w = lib.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError,
                       match="a leaf Variable that requires grad is being used in an in-place"):
        w.sub_(0.1)
    with lib.no_grad():
        w.sub_(0.1)
    assert np.allclose(w.tolist(), [0.9, 1.9]) and w.is_leaf and w.requires_grad


def _node_names(root):
    seen, stack = [], [root.grad_fn]
    while stack:
        node = stack.pop()
        if node is not None:
            seen.append(_name(node))
            stack.extend(fn for fn, _ in node.next_functions)
    return seen


def test_ch05_matmul_of_a_vector_is_a_matrix_product_then_a_squeeze(lib):
    w = lib.ones(5, 3, requires_grad=True)
    assert _node_names(lib.matmul(lib.ones(5), w)) == \
        ["SqueezeBackward4", "MmBackward0", "AccumulateGrad"]
    # the unsqueeze of the vector is recorded only when the vector itself requires grad
    assert _node_names(lib.matmul(lib.ones(5, requires_grad=True), w)) == \
        ["SqueezeBackward4", "MmBackward0", "AccumulateGrad", "UnsqueezeBackward0",
         "AccumulateGrad"]


def test_ch05_detach_shares_memory_and_the_version_counter(lib):
    z = lib.ones(3, requires_grad=True) * 2
    d = z.detach()
    assert d.data_ptr() == z.data_ptr() and not d.requires_grad and d.grad_fn is None
    d[0] = 100.0
    assert z[0].item() == 100.0 and z._version == d._version == 1


def test_ch05_write_through_a_detached_alias_is_caught(lib):
    z = lib.matmul(lib.ones(5), lib.ones(5, 3, requires_grad=True)) + lib.ones(3)
    loss = lib.nn.functional.binary_cross_entropy_with_logits(z, lib.zeros(3))
    z.detach()[0] = 0.0
    with pytest.raises(RuntimeError, match="modified by an inplace operation") as err:
        loss.backward()
    assert "output 0 of Add" in str(err.value)


def test_ch05_clone_copies_but_stays_in_the_graph(lib):
    z = lib.ones(3, requires_grad=True) * 2
    c = z.clone()
    assert c.data_ptr() != z.data_ptr() and c.requires_grad and _name(c.grad_fn) == "CloneBackward0"
    snap = z.detach().clone()
    z.detach().mul_(3)
    assert snap.tolist() == [2.0, 2.0, 2.0] and not snap.requires_grad


def test_ch05_detach_in_the_middle_of_a_graph(lib):
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    out = ((a * 3).detach() * a).sum()
    names = [_name(fn) for fn, _ in out.grad_fn.next_functions[0][0].next_functions]
    out.backward()
    a2 = lib.tensor([1.0, 2.0], requires_grad=True)
    ((a2 * 3) * a2).sum().backward()
    assert a.grad.tolist() == [3.0, 6.0] and a2.grad.tolist() == [6.0, 12.0]
    assert names == [None, "AccumulateGrad"]


def test_ch05_a_frozen_input_has_no_edge(lib):
    w = lib.tensor([1.0, 2.0])
    x = lib.tensor([3.0, 4.0], requires_grad=True)
    y = w * x
    assert [(_name(fn), nr) for fn, nr in y.grad_fn.next_functions] == \
        [(None, 0), ("AccumulateGrad", 0)]
    y.sum().backward()
    assert w.grad is None and x.grad.tolist() == [1.0, 2.0]


def test_ch05_only_leaves_can_be_frozen(lib):
    hidden = lib.ones(4, 3) @ lib.ones(3, 5, requires_grad=True)
    with pytest.raises(RuntimeError) as err:
        hidden.requires_grad_(False)
    assert "only change requires_grad flags of leaf variables" in str(err.value)
    assert "detach()" in str(err.value)


def test_ch05_straight_through_clamp(lib):
    x = lib.tensor([-0.5, 0.25, 1.5], requires_grad=True)
    y = x + (x.clamp(0, 1) - x).detach()
    y.sum().backward()
    assert y.tolist() == [0.0, 0.25, 1.0] and x.grad.tolist() == [1.0, 1.0, 1.0]
    x2 = lib.tensor([-0.5, 0.25, 1.5], requires_grad=True)
    x2.clamp(0, 1).sum().backward()
    assert x2.grad.tolist() == [0.0, 1.0, 0.0]


def test_ch05_review_no_grad_decorator_with_enable_grad_inside(lib):
    @lib.no_grad()
    def doubled(t):
        with lib.enable_grad():
            return t * 2

    assert doubled(lib.tensor([1.0], requires_grad=True)).requires_grad
    assert lib.is_grad_enabled()


# --- chapter 6 ------------------------------------------------------------------------------
def _function_base(lib):
    return lib.autograd.Function


def _mul_constant(lib, fixed: bool):
    if fixed:
        return mul_constant(lib)
    return mul_constant(lib, backward=lambda ctx, grad_output: (grad_output, None))


def _my_exp(lib, sloppy: bool = False):
    class MyExp(_function_base(lib)):
        @staticmethod
        def forward(ctx, x):
            y = x.exp()
            if sloppy:
                ctx.y = y
            else:
                ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, grad_output):
            y = ctx.y if sloppy else ctx.saved_tensors[0]
            return grad_output * y

    return MyExp


def test_ch06_the_notes_mul_constant_gives_ones_and_fails_gradcheck(lib):
    note = _mul_constant(lib, fixed=False)
    a = lib.rand(3, 3, requires_grad=True)
    b = note.apply(a, 5)
    assert b.grad_fn.name() == "MulConstantBackward"
    assert [_name(fn) for fn, _ in b.grad_fn.next_functions] == ["AccumulateGrad"]
    b.backward(lib.ones_like(a))
    assert (a.grad == 1).all()
    a64 = lib.rand(3, dtype=lib.float64, requires_grad=True)
    error = ag.autograd.GradcheckError if lib is ag else RuntimeError  # torch's is a subclass
    with pytest.raises(error, match="Jacobian mismatch for output 0 with respect to input 0"):
        lib.autograd.gradcheck(note.apply, (a64, 5))
    assert lib.autograd.gradcheck(note.apply, (a64, 5), raise_exception=False) is False
    assert lib.autograd.gradcheck(_mul_constant(lib, fixed=True).apply, (a64, 5))


def test_ch06_gradcheck_in_float32_warns_and_fails(lib):
    a32 = lib.rand(3, requires_grad=True)
    with pytest.warns(UserWarning, match="not a double precision"):
        ok = lib.autograd.gradcheck(lambda t: t * 5, (a32,), raise_exception=False)
    assert ok is False


def test_ch06_needs_input_grad(lib):
    seen = []

    class ShowNeeds(_function_base(lib)):
        @staticmethod
        def forward(ctx, x, y, k):
            seen.append(tuple(ctx.needs_input_grad))
            return x * y * k

        @staticmethod
        def backward(ctx, grad_output):
            return None, None, None

    ShowNeeds.apply(lib.ones(2, requires_grad=True), lib.ones(2), 3)
    ShowNeeds.apply(lib.ones(2), lib.ones(2, requires_grad=True), 3)
    assert seen == [(True, False, False), (False, True, False)]


def test_ch06_saved_output_modified_in_place(lib):
    y = _my_exp(lib).apply(lib.tensor([0.0, 1.0], requires_grad=True))
    y.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation") as err:
        y.sum().backward()
    assert "output 0 of MyExp" in str(err.value)
    x = lib.tensor([0.0, 1.0], requires_grad=True)
    y = _my_exp(lib, sloppy=True).apply(x)
    y.add_(1)
    y.sum().backward()                      # no error, and a wrong gradient
    assert not np.allclose(x.grad.tolist(), x.detach().exp().tolist())


def test_ch06_saved_tensors_freed_and_retain_graph(lib):
    exp = _my_exp(lib)
    y = exp.apply(lib.tensor([0.0, 1.0], requires_grad=True))
    y.sum().backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        y.grad_fn.saved_tensors
    x = lib.tensor([0.0, 1.0], requires_grad=True)
    y = exp.apply(x)
    y.sum().backward(retain_graph=True)
    y.sum().backward()
    assert np.allclose(x.grad.tolist(), (2 * x.detach().exp()).tolist())


def test_ch06_storing_the_output_on_ctx_makes_a_cycle(lib):
    import gc
    import weakref

    def node_outlives_output(function):
        gc.disable()
        try:
            out = function.apply(lib.tensor([0.0, 1.0], requires_grad=True))
            node = weakref.ref(out.grad_fn)
            del out
            return node() is not None
        finally:
            gc.enable()

    assert not node_outlives_output(_my_exp(lib))
    assert node_outlives_output(_my_exp(lib, sloppy=True))
    gc.collect()


def test_ch06_mul_saves_only_what_backward_needs(torch_oracle):
    p = torch_oracle.tensor([1.0, 2.0], requires_grad=True)
    node = (p * torch_oracle.tensor([3.0, 4.0])).grad_fn
    assert node._saved_self is None and node._saved_other.tolist() == [3.0, 4.0]
    saved = (ag.tensor([1.0, 2.0], requires_grad=True) * ag.tensor([3.0, 4.0])).grad_fn
    assert saved.saved_tensors[0] is None and saved.saved_tensors[1].tolist() == [3.0, 4.0]


def test_ch06_one_gradient_for_two_inputs(lib):
    class OneGrad(_function_base(lib)):
        @staticmethod
        def forward(ctx, a, b):
            return a * b

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output

    out = OneGrad.apply(lib.ones(2, requires_grad=True), lib.ones(2, requires_grad=True))
    with pytest.raises(RuntimeError, match=r"incorrect number of gradients \(expected 2, got 1\)"):
        out.sum().backward()


def test_ch06_softplus_derivative_is_the_sigmoid(torch_oracle):
    x = torch_oracle.linspace(-3, 3, 7, dtype=torch_oracle.float64, requires_grad=True)
    torch_oracle.nn.functional.softplus(x).sum().backward()
    assert torch_oracle.allclose(x.grad, torch_oracle.sigmoid(x.detach()))


