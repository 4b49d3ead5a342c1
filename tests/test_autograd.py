"""``ag.autograd``: custom Functions and their ctx, grad mode, and version counters.

Scenarios are written once against ``lib`` and run on our package (checked against literal
expectations) and on PyTorch when the oracle is installed.
"""

from __future__ import annotations

import re

import pytest
from functions import identity, square

import autograd_course as ag

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def show(value) -> str:
    return _ADDRESS.sub(" at 0x…", repr(value))


def attempt(thunk) -> str:
    try:
        return show(thunk())
    except Exception as err:
        return f"{type(err).__name__}: {err}"


# --- Function and ctx -----------------------------------------------------------------------
def multi_output(lib):
    """Several outputs, one of them marked non-differentiable; what backward receives."""
    received = []

    class Split(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            index = lib.tensor([0, 1])
            ctx.mark_non_differentiable(index)
            return x * 2, x * 3, index

        @staticmethod
        def backward(ctx, g1, g2, g_index):
            received.extend(show(g) for g in (g1, g2, g_index))
            return g1 * 2 + g2 * 3

    x = lib.tensor([1., 2.], requires_grad=True)
    a, b, index = Split.apply(x)
    seen = [a.grad_fn is b.grad_fn, show(a.grad_fn), (index.requires_grad, index.grad_fn)]
    a.sum().backward()
    return seen + received + [show(x.grad)]


MULTI_OUTPUT = [
    True, "<torch.autograd.function.SplitBackward object at 0x…>", (False, None),
    "tensor([1., 1.])", "tensor([0., 0.])", "tensor([0, 0])", "tensor([2., 2.])",
]


def forward_returning_input(lib):
    Ident = identity(lib, name="Ident", returns_input=True)
    x = lib.tensor([1., 2.], requires_grad=True)
    y = Ident.apply(x)
    seen = [y is x, y.data_ptr() == x.data_ptr(), show(y.grad_fn), x.is_leaf]
    y.sum().backward()
    return seen + [show(x.grad)]


FORWARD_RETURNING_INPUT = [False, True, "<torch.autograd.function.IdentBackward object at 0x…>",
                           True, "tensor([1., 1.])"]


def grad_mode_inside(lib):
    """Forward runs with grad mode off; so does backward unless create_graph is set."""
    seen = []

    class Inside(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            seen.append(("forward", (x * 2).requires_grad, lib.is_grad_enabled()))
            return x.clone()

        @staticmethod
        def backward(ctx, g):
            seen.append(("backward", lib.is_grad_enabled()))
            (x,) = ctx.saved_tensors
            return g * x

    x = lib.tensor([1., 2.], requires_grad=True)
    Inside.apply(x).sum().backward()
    lib.autograd.grad(Inside.apply(x).sum(), x, create_graph=True)
    return seen + [show(x.grad)]


GRAD_MODE_INSIDE = [("forward", False, False), ("backward", False), ("forward", False, False),
                    ("backward", True), "tensor([1., 2.])"]


def non_tensor_output(lib):
    got = []

    class WithNumber(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, 5

        @staticmethod
        def backward(ctx, g, g_number):
            got.append(g_number)
            return g

    x = lib.tensor([1., 2.], requires_grad=True)
    out, number = WithNumber.apply(x)
    out.sum().backward()
    return [number, got, show(x.grad)]


NON_TENSOR_OUTPUT = [5, [None], "tensor([1., 1.])"]


def saved_input_modified(lib):
    Square = square(lib)
    x = lib.tensor([1., 2.], requires_grad=True)
    h = x * 1
    s = Square.apply(h)
    h.add_(1)
    leaf = lib.tensor([1., 2.], requires_grad=True)
    s2 = Square.apply(leaf)
    with lib.no_grad():
        leaf.mul_(2)
    return [attempt(lambda: s.sum().backward()), attempt(lambda: s2.sum().backward())]


_MODIFIED = ("RuntimeError: one of the variables needed for gradient computation has been "
             "modified by an inplace operation: [torch.FloatTensor [2]]{} is at version 1; "
             "expected version 0 instead. Hint: enable anomaly detection to find the operation "
             "that failed to compute its gradient, with "
             "torch.autograd.set_detect_anomaly(True, check_nan=False).")
SAVED_INPUT_MODIFIED = [_MODIFIED.format(", which is output 0 of Add,"), _MODIFIED.format("")]


def ctx_attributes_and_retained_graph(lib):
    class Scale(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, factor, *, _unused=None):
            ctx.factor = factor
            ctx.save_for_backward(x)
            return x * factor

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * ctx.factor, None

    x = lib.tensor([1., 2.], requires_grad=True)
    y = Scale.apply(x, 3.)
    node = y.grad_fn
    seen = [node.factor, show(node.saved_tensors[0]), node.needs_input_grad]
    y.sum().backward(retain_graph=True)
    y.sum().backward()
    seen.append(show(x.grad))
    seen.append(attempt(lambda: node.saved_tensors))
    return seen


CTX_ATTRIBUTES = [
    3.0, "tensor([1., 2.], requires_grad=True)", (True, False), "tensor([6., 6.])",
    "RuntimeError: Trying to backward through the graph a second time (or directly access saved "
    "tensors after they have already been freed). Saved intermediate values of the graph are "
    "freed when you call .backward() or autograd.grad(). Specify retain_graph=True if you need "
    "to backward through the graph a second time or if you need to access saved tensors after "
    "calling backward.",
]


def grad_modes(lib):
    seen = []
    with lib.no_grad():
        with lib.enable_grad():
            seen.append(lib.is_grad_enabled())
            with lib.set_grad_enabled(False):
                seen.append(lib.is_grad_enabled())
            seen.append(lib.is_grad_enabled())
        seen.append(lib.is_grad_enabled())
    seen.append(lib.is_grad_enabled())
    lib.set_grad_enabled(False)  # a plain call switches the mode
    seen.append(lib.is_grad_enabled())
    lib.set_grad_enabled(True)

    @lib.enable_grad()
    def recorded(t):
        return (t * 2).requires_grad

    @lib.set_grad_enabled(False)
    def unrecorded(t):
        return (t * 2).requires_grad

    x = lib.tensor([1.], requires_grad=True)
    with lib.no_grad():
        seen.append(recorded(x))
    seen += [unrecorded(x), lib.is_grad_enabled()]
    try:
        with lib.no_grad():
            raise KeyError("boom")
    except KeyError:
        seen.append(lib.is_grad_enabled())
    return seen


GRAD_MODES = [True, False, True, False, True, False, True, False, True, True]


SCENARIOS = {
    multi_output: MULTI_OUTPUT, forward_returning_input: FORWARD_RETURNING_INPUT,
    grad_mode_inside: GRAD_MODE_INSIDE, non_tensor_output: NON_TENSOR_OUTPUT,
    saved_input_modified: SAVED_INPUT_MODIFIED,
    ctx_attributes_and_retained_graph: CTX_ATTRIBUTES, grad_modes: GRAD_MODES,
}


@pytest.mark.parametrize("scenario", list(SCENARIOS), ids=[f.__name__ for f in SCENARIOS])
def test_scenario(scenario):
    assert scenario(ag) == SCENARIOS[scenario]


@pytest.mark.parametrize("scenario", list(SCENARIOS), ids=[f.__name__ for f in SCENARIOS])
def test_scenario_against_torch(scenario, torch_oracle):
    assert scenario(ag) == scenario(torch_oracle)


# --- behaviour specific to our implementation ----------------------------------------------
def test_node_names_and_classes():
    x = ag.tensor([1.], requires_grad=True)
    y = x * 2
    assert type(y.grad_fn).__name__ == "MulBackward0" == y.grad_fn.name()
    assert isinstance(y.grad_fn, ag.autograd.BackwardNode)
    assert isinstance(y.grad_fn, ag.autograd.Node)
    acc = y.grad_fn.next_functions[0][0]
    assert isinstance(acc, ag.autograd.AccumulateGrad) and acc.variable is x
    assert y.grad_fn.next_functions[0][0] is (x * 3).grad_fn.next_functions[0][0]  # one per leaf


def test_sequence_numbers_increase():
    x = ag.tensor([1.], requires_grad=True)
    a = x * 2
    b = a + 1
    assert a.grad_fn._sequence_nr() < b.grad_fn._sequence_nr()


def test_saved_tensors_before_recording_are_the_inputs():
    class Peek(ag.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            assert ctx.saved_tensors[0] is x
            return x * 1

        @staticmethod
        def backward(ctx, g):
            return g

    Peek.apply(ag.tensor([1.], requires_grad=True))


def test_saved_output_comes_back_linked_to_its_node():
    class Exp(ag.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x.exp()
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, g):
            (y,) = ctx.saved_tensors
            assert y.grad_fn is ctx  # it is the output, as PyTorch gives it back
            return g * y

    x = ag.tensor([0.], requires_grad=True)
    Exp.apply(x).sum().backward()
    assert x.grad.tolist() == [1.0]
