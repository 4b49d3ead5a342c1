"""``Function`` with a separate ``setup_context(ctx, inputs, output)`` and a ``forward``
without ctx, and calling a built-in backward node directly (``y.grad_fn(grad)``), against
PyTorch."""

from __future__ import annotations

import pytest
from oracle_helpers import assert_like_torch


def _scale(m, log):
    class Scale(m.autograd.Function):
        @staticmethod
        def forward(x, k=3.0):
            log.append(("forward", m.is_grad_enabled()))
            return x * k

        @staticmethod
        def setup_context(ctx, inputs, output):
            log.append(("setup", len(inputs), inputs[1], output.tolist(), m.is_grad_enabled()))
            ctx.k = inputs[1]
            ctx.save_for_backward(inputs[0])

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * ctx.k + 0 * x, None

    return Scale


@pytest.mark.parametrize("call", ["positional", "keyword", "default", "no_grad"])
def test_setup_context_gets_the_inputs_and_the_output(call):
    def case(m):
        log = []
        scale = _scale(m, log)
        a = m.tensor([1.0, 2.0], requires_grad=True)
        if call == "no_grad":
            with m.no_grad():
                y = scale.apply(a, 2.0)
            return [log, y, y.requires_grad]
        y = {"positional": lambda: scale.apply(a, 2.0), "keyword": lambda: scale.apply(a, k=4.0),
             "default": lambda: scale.apply(a)}[call]()
        y.sum().backward()
        return [log, y, a.grad, y.grad_fn.name()]

    assert_like_torch(case)


def test_setup_context_with_several_outputs_and_double_backward():
    def case(m):
        class Powers(m.autograd.Function):
            @staticmethod
            def forward(x):
                return x * x, x * x * x

            @staticmethod
            def setup_context(ctx, inputs, output):
                ctx.save_for_backward(inputs[0])
                ctx.kinds = type(output).__name__

            @staticmethod
            def backward(ctx, g2, g3):
                (x,) = ctx.saved_tensors
                return g2 * 2 * x + g3 * 3 * x * x

        a = m.tensor([1.0, 2.0], dtype=m.float64, requires_grad=True)
        y2, y3 = Powers.apply(a)
        (g,) = m.autograd.grad((y2 + y3).sum(), a, create_graph=True)
        (gg,) = m.autograd.grad(g.sum(), a)
        return [y2.grad_fn.kinds, g, gg]

    assert_like_torch(case)


@pytest.mark.parametrize("which", ["ctx in forward too", "no setup_context"])
def test_the_two_styles_do_not_mix(which):
    def case(m):
        if which == "ctx in forward too":
            class F(m.autograd.Function):
                @staticmethod
                def forward(ctx, x):
                    return x * 2

                @staticmethod
                def setup_context(ctx, inputs, output):
                    pass

                @staticmethod
                def backward(ctx, g):
                    return g
        else:
            class F(m.autograd.Function):
                @staticmethod
                def forward(x):
                    return x * 2

                @staticmethod
                def backward(ctx, g):
                    return g
        F.apply(m.ones(2, requires_grad=True))

    assert_like_torch(case)


@pytest.mark.parametrize("op", [lambda a, b: a * b, lambda a, b: a.exp(), lambda a, b: a * 2,
                                lambda a, b: a.sum(), lambda a, b: a[1:]],
                         ids=["mul", "exp", "mul-scalar", "sum", "slice"])
def test_calling_a_built_in_backward_node(op):
    def case(m):
        a = m.tensor([1.0, 2.0, 3.0], requires_grad=True)
        b = m.tensor([3.0, 4.0, 5.0], requires_grad=True)
        y = op(a, b)
        g = m.ones_like(y)
        out = y.grad_fn(g)
        with m.no_grad():
            quiet = y.grad_fn(g)
        parts = out if isinstance(out, tuple) else (out,)
        return [type(out).__name__, out, [p is not None and p.requires_grad for p in parts],
                quiet]

    assert_like_torch(case)


def test_a_custom_functions_node_is_not_callable():
    def case(m):
        class F(m.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, g):
                return g

        F.apply(m.ones(2, requires_grad=True)).grad_fn(m.ones(2))

    assert_like_torch(case)
