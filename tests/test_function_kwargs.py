"""``Function.apply`` takes keyword arguments, bound to ``forward``'s parameters (issue 14)."""

from __future__ import annotations

import pytest

import autograd_course as ag


def _scaled(lib, **kwargs):
    class Scale(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, factor=2.0, shift=0.0):
            ctx.factor = factor
            return x * factor + shift

        @staticmethod
        def backward(ctx, grad):
            return grad * ctx.factor, None, None

    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = Scale.apply(x, **kwargs)
    y.sum().backward()
    return y.tolist(), x.grad.tolist(), type(y.grad_fn).__name__


def _outcome(lib, kwargs):
    try:
        return _scaled(lib, **kwargs)
    except TypeError as e:
        return ("TypeError", str(e))


@pytest.mark.parametrize("kwargs", [{}, {"factor": 5.0}, {"shift": 1.0},
                                    {"factor": 3.0, "shift": -1.0}])
def test_keywords_bind_like_torch(torch_oracle, kwargs):
    assert _outcome(ag, kwargs) == _outcome(torch_oracle, kwargs)


def test_a_keyword_past_a_gap_is_refused_not_dropped():
    with pytest.raises(TypeError, match="missing required argument: 'factor'"):
        _scaled(ag, shift=1.0)


def test_keyword_values_used():
    values, grads, name = _scaled(ag, factor=5.0)
    assert values == [5.0, 10.0] and grads == [5.0, 5.0] and name == "ScaleBackward"


def test_unknown_keyword_is_a_type_error():
    with pytest.raises(TypeError):
        _scaled(ag, nope=1.0)
