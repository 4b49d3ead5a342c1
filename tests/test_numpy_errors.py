"""Misuse raises PyTorch's own exception (type and message), never a NumPy error from inside
the implementation, and input PyTorch refuses is refused (issue 13)."""

from __future__ import annotations

import pytest
from oracle_helpers import assert_like_torch

torch = pytest.importorskip("torch")


def F(m):
    return m.nn.functional


def conv(m, x_shape, w_shape, **kwargs):
    return F(m).conv2d(m.ones(*x_shape), m.ones(*w_shape), **kwargs)


ERRORS = {
    # shapes
    "transpose(0, 0) of a 0-d tensor": lambda m: m.tensor(1.0).transpose(0, 0),
    "transpose(-1, 0) of a 0-d tensor": lambda m: m.tensor(1.0).transpose(-1, 0),
    "transpose(0, 1) of a 0-d tensor": lambda m: m.tensor(1.0).transpose(0, 1),
    "permute() without dims": lambda m: m.ones(3).permute(),
    "expand(-1, 3) of a 1-d tensor": lambda m: m.ones(3).expand(-1, 3),
    "expand(2, -1, 3)": lambda m: m.ones(3).expand(2, -1, 3),
    "cat with a legacy empty 1-d tensor": lambda m: m.cat([m.ones(2, 3), m.ones(0)]),
    "cat of only empty 1-d tensors": lambda m: m.cat([m.ones(0), m.ones(0)]),
    # reductions over nothing
    "max(0) over an empty dim": lambda m: m.ones(0, 3).max(0),
    "max(1) with an empty batch": lambda m: m.ones(0, 3).max(1),
    "min(0) over an empty dim": lambda m: m.ones(0, 3).min(0),
    "argmax() of an empty tensor": lambda m: m.ones(0).argmax(),
    "argmax(0) over an empty dim": lambda m: m.ones(0, 3).argmax(0),
    "argmin(1) with an empty batch": lambda m: m.ones(0, 3).argmin(1),
    "amax(0) over an empty dim": lambda m: m.ones(0, 3).amax(0),
    "amax(1) with an empty batch": lambda m: m.ones(0, 3).amax(1),
    "amax() of an empty tensor": lambda m: m.ones(0, 3).amax(),
    "max() of an empty tensor": lambda m: m.ones(0).max(),
    # bool and integer misuse
    "-bool": lambda m: -m.tensor([True]),
    "bool - bool": lambda m: m.tensor([True]) - m.tensor([True]),
    "abs of bool": lambda m: m.tensor([True]).abs(),
    "relu of bool": lambda m: m.tensor([True]).relu(),
    "bool ** bool": lambda m: m.tensor([True]) ** m.tensor([True]),
    "True ** bool": lambda m: True ** m.tensor([True, False]),
    "clamp of bool by bools": lambda m: m.tensor([True]).clamp(True, True),
    "int ** -1": lambda m: m.tensor([3]) ** -1,
    "uint8 ** 300": lambda m: m.tensor([1, 2], dtype=m.uint8) ** 300,
    "where(uint8, 300)": lambda m: m.where(
        m.tensor([True, False]), m.tensor([1, 2], dtype=m.uint8), 300
    ),
    "clamp(int8, max=300)": lambda m: m.tensor([1, 2], dtype=m.int8).clamp(max=300),
    "bool matrix product": lambda m: m.ones(2, 2, dtype=m.bool) @ m.ones(2, 2, dtype=m.bool),
    "bool dot": lambda m: m.ones(2, dtype=m.bool) @ m.ones(2, dtype=m.bool),
    "bool matrix @ vector": lambda m: m.ones(2, 2, dtype=m.bool) @ m.ones(2, dtype=m.bool),
    "bool batched product": lambda m: m.ones(2, 2, 2, dtype=m.bool) @ m.ones(2, 2, 2, dtype=m.bool),
    # conv2d arguments
    "conv2d groups not dividing out_channels": lambda m: conv(
        m, (1, 4, 5, 5), (3, 2, 3, 3), groups=2
    ),
    "conv2d groups=0": lambda m: conv(m, (1, 4, 5, 5), (4, 4, 3, 3), groups=0),
    "conv2d padding='same', stride=2": lambda m: conv(
        m, (1, 1, 5, 5), (1, 1, 3, 3), padding="same", stride=2
    ),
    "conv2d padding='same', stride=(1, 2)": lambda m: conv(
        m, (1, 1, 5, 5), (1, 1, 3, 3), padding="same", stride=(1, 2)
    ),
    "conv2d padding='same', stride=1": lambda m: conv(
        m, (1, 1, 5, 5), (1, 1, 2, 2), padding="same"
    ),
    "conv2d padding='full'": lambda m: conv(m, (1, 1, 5, 5), (1, 1, 3, 3), padding="full"),
    "conv2d negative padding": lambda m: conv(m, (1, 1, 5, 5), (1, 1, 3, 3), padding=-1),
    "conv2d stride 0": lambda m: conv(m, (1, 1, 5, 5), (1, 1, 3, 3), stride=0),
    "conv2d stride 0 and negative padding": lambda m: conv(
        m, (1, 1, 5, 5), (1, 1, 3, 3), stride=0, padding=-1
    ),
    "conv2d dilation 0": lambda m: conv(m, (1, 1, 5, 5), (1, 1, 3, 3), dilation=0),
    "conv2d groups 0 and dilation 0": lambda m: conv(
        m, (1, 1, 5, 5), (1, 1, 3, 3), groups=0, dilation=0
    ),
    "conv2d 3-d weight": lambda m: conv(m, (1, 1, 5, 5), (1, 3, 3)),
    "conv2d 5-d weight": lambda m: conv(m, (1, 1, 5, 5), (1, 1, 1, 3, 3)),
    "conv2d bias of the wrong size": lambda m: F(m).conv2d(
        m.ones(1, 1, 5, 5), m.ones(2, 1, 3, 3), bias=m.ones(3)
    ),
    "conv2d 2-d bias": lambda m: F(m).conv2d(
        m.ones(1, 1, 5, 5), m.ones(2, 1, 3, 3), bias=m.ones(2, 1)
    ),
    # pooling arguments
    "max_pool2d kernel 0": lambda m: F(m).max_pool2d(m.ones(1, 1, 4, 4), 0),
    "max_pool2d stride 0": lambda m: F(m).max_pool2d(m.ones(1, 1, 4, 4), 2, stride=0),
    "max_pool2d negative stride": lambda m: F(m).max_pool2d(m.ones(1, 1, 4, 4), 2, stride=-1),
    "max_pool2d negative kernel": lambda m: F(m).max_pool2d(m.ones(1, 1, 4, 4), -1),
    "max_pool2d dilation 0": lambda m: F(m).max_pool2d(m.ones(1, 1, 4, 4), 2, dilation=0),
    "max_pool2d negative padding": lambda m: F(m).max_pool2d(m.ones(1, 1, 4, 4), 2, padding=-1),
    "avg_pool2d kernel 0": lambda m: F(m).avg_pool2d(m.ones(1, 1, 4, 4), 0),
    "adaptive_avg_pool2d to -1": lambda m: F(m).adaptive_avg_pool2d(m.ones(1, 1, 4, 4), -1),
    "adaptive_avg_pool2d to 0": lambda m: F(m).adaptive_avg_pool2d(m.ones(1, 1, 4, 4), 0),
    # losses PyTorch refuses
    "cross_entropy int32 target": lambda m: F(m).cross_entropy(
        m.ones(2, 3), m.tensor([0, 1], dtype=m.int32)
    ),
    "cross_entropy 2-d target of other shape": lambda m: F(m).cross_entropy(
        m.ones(2, 3), m.ones(2, 4)
    ),
    # index tensors that do not broadcast together
    "list and empty list": lambda m: m.ones(2, 1)[[1, 1], []],
    "2-d index and list": lambda m: m.ones(2, 3)[m.tensor([[0, 1], [1, 1]]), [0, 0, 0]],
    "index and mask": lambda m: m.ones(2, 2, 2)[
        m.tensor([[1, 0], [1, 1]]), m.tensor([False, False])
    ],
    "three shapes": lambda m: m.ones(1, 3, 3)[
        m.tensor([[0, 0]]), m.tensor([False, False, True]), [1, 0, 0]
    ],
    "int8 index": lambda m: m.ones(3)[m.tensor([0], dtype=m.int8)],
    # found by the side-by-side probe
    "isclose of float and long": lambda m: m.isclose(m.tensor([1.0, 2.0]), m.tensor([1, 3])),
    "allclose of float32 and float64": lambda m: m.allclose(m.ones(2), m.ones(2, dtype=m.float64)),
    "float & float": lambda m: m.tensor([1.0]) & m.tensor([1.0]),
    "float | float": lambda m: m.tensor([1.0]) | m.tensor([1.0]),
    "sum_to_size that cannot": lambda m: m.ones(3, 4).sum_to_size(2, 4),
    "argmax of bool": lambda m: m.tensor([False, True]).argmax(),
    "argmin(0) of bool": lambda m: m.tensor([False, True]).argmin(0),
    "add with a float alpha to ints": lambda m: m.add(m.tensor([1]), m.tensor([2]), alpha=0.5),
    "sub with a float alpha to ints": lambda m: m.sub(m.tensor([1]), m.tensor([2]), alpha=0.5),
    "max_pool2d of an empty image": lambda m: F(m).max_pool2d(m.ones(1, 0, 4, 4), 2),
    "max_pool2d of an empty unbatched image": lambda m: F(m).max_pool2d(m.ones(0, 4, 4), 2),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_same_error_as_pytorch(name):
    assert_like_torch(ERRORS[name])


def test_no_numpy_exception_leaks_from_these_cases():
    import autograd_course as ag

    for name, case in ERRORS.items():
        try:
            case(ag)
        except Exception as exc:  # the type's module is what is checked
            assert not type(exc).__module__.startswith("numpy"), (name, exc)


ENGINE = {
    "autograd.grad(ndarray, x)": lambda m: m.autograd.grad(
        __import__("numpy").ones(3), m.ones(3, requires_grad=True)
    ),
    "autograd.backward(ndarray)": lambda m: m.autograd.backward(__import__("numpy").ones(3)),
    "autograd.grad(y, ndarray)": lambda m: m.autograd.grad(
        m.ones(3, requires_grad=True).sum(), __import__("numpy").ones(3)
    ),
}


@pytest.mark.parametrize("name", list(ENGINE))
def test_engine_refuses_arrays(name):
    assert_like_torch(ENGINE[name])
