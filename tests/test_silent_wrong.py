"""Ordinary code that gave a wrong number with no error (issue 13), grouped by cause.

Each case runs with ``autograd_course`` and with ``torch`` and must show the same values,
gradients, dtypes, or the same error (see ``oracle_helpers``).
"""

from __future__ import annotations

import numpy as np
import pytest
from oracle_helpers import assert_like_torch, with_grad

import autograd_course as ag

torch = pytest.importorskip("torch")

NAN, INF = float("nan"), float("inf")
M = (np.arange(12.0).reshape(3, 4) - 5).tolist()


def F(m):
    return m.nn.functional


def case_id(value) -> str:
    return str(value)


# --- indexing: uint8 masks, negative steps ------------------------------------------------------
INDEXING = {
    "uint8 tensor is a mask": lambda m: m.arange(4.0)[m.tensor([1, 0, 1, 0], dtype=m.uint8)],
    "uint8 mask gradient": with_grad(
        lambda m, x: x[m.tensor([1, 0, 1, 0], dtype=m.uint8)] * 2, [1.0, -2.0, 3.0, 0.5]
    ),
    "uint8 2-d mask": with_grad(lambda m, x: x[m.tensor([[1, 0, 0, 1]] * 3, dtype=m.uint8)], M),
    "x[::-1]": lambda m: m.arange(4.0)[::-1],
    "x[:, ::-1]": lambda m: m.ones(2, 3)[:, ::-1],
    "x[0, ::-2]": lambda m: m.ones(2, 3)[0, ::-2],
    "x[::0]": lambda m: m.arange(3)[::0],
    "x[::2] gradient": with_grad(lambda m, x: x[::2], [1.0, 2.0, 3.0, 4.0]),
    "mask and list": with_grad(lambda m, x: x[x > 0], M),
    "list of pairs": with_grad(lambda m, x: x[[0, 2], [1, 3]], M),
    "repeated index": with_grad(lambda m, x: x[[0, 0, 2]], [1.0, 2.0, 3.0]),
    "int8 index tensor": lambda m: m.ones(3)[m.tensor([0], dtype=m.int8)],
    "int16 index tensor": lambda m: m.ones(3)[m.tensor([0], dtype=m.int16)],
    "int32 index tensor": with_grad(
        lambda m, x: x[m.tensor([2, 2], dtype=m.int32)], [1.0, 2.0, 3.0]
    ),
}


@pytest.mark.parametrize("name", list(INDEXING))
def test_indexing(name):
    assert_like_torch(INDEXING[name], warns=True)


# --- saved index tensors, masks and conditions are version-checked ------------------------------
def _modified_after_forward(make, change):
    """A case: x -> make(m, x, holder) saves holder's tensor; change it; backward."""

    def case(m):
        x = m.tensor([1.0, 2.0, 3.0], requires_grad=True)
        out, held = make(m, x)
        change(held)
        out.sum().backward()
        return x.grad

    return case


VERSIONED = {
    "index tensor, item set": _modified_after_forward(
        lambda m, x: (lambda i: (x[i] * 2, i))(m.tensor([0, 0, 2])), lambda i: i.__setitem__(0, 1)
    ),
    "index tensor, add_": _modified_after_forward(
        lambda m, x: (lambda i: (x[i], i))(m.tensor([0, 1])), lambda i: i.add_(1)
    ),
    "index tensor in a tuple key": _modified_after_forward(
        lambda m, x: (lambda i: (x[None, i], i))(m.tensor([2, 0])), lambda i: i.fill_(0)
    ),
}
VERSIONED_BOOL = {
    "bool mask": _modified_after_forward(
        lambda m, x: (lambda k: (x[k], k))(m.tensor([True, False, True])),
        lambda k: k.__setitem__(1, True),
    ),
    "where condition": _modified_after_forward(
        lambda m, x: (lambda c: (m.where(c, x, 0.0), c))(m.tensor([True, False, True])),
        lambda c: c.__setitem__(1, True),
    ),
    "uint8 mask": _modified_after_forward(
        lambda m, x: (lambda k: (x[k], k))(m.tensor([1, 0, 1], dtype=m.uint8)),
        lambda k: k.__setitem__(0, 0),
    ),
    "int32 index": _modified_after_forward(
        lambda m, x: (lambda i: (x[i], i))(m.tensor([1, 0, 1], dtype=m.int32)),
        lambda i: i.__setitem__(0, 0),
    ),
}


@pytest.mark.parametrize("name", list(VERSIONED))
def test_saved_index_tensors_are_version_checked(name):
    seen = assert_like_torch(VERSIONED[name])
    assert seen[0] == "error" and "modified by an inplace operation" in seen[2]


@pytest.mark.filterwarnings("ignore:indexing with dtype torch.uint8:UserWarning")
@pytest.mark.parametrize("name", list(VERSIONED_BOOL))
def test_saved_masks_are_version_checked(name):
    """The error is raised (no silently wrong gradient) ..."""
    with pytest.raises(
        RuntimeError,
        match=r"modified by an inplace operation: \[\S+ \[3\]\] "
        r"is at version 1; expected version 0",
    ):
        VERSIONED_BOOL[name](ag)


@pytest.mark.parametrize("name", list(VERSIONED_BOOL))
def test_saved_masks_error_message_is_pytorchs(name):
    """... and its message is PyTorch's word for word."""
    assert_like_torch(VERSIONED_BOOL[name])


def test_unmodified_saved_indices_still_work():
    assert_like_torch(
        with_grad(
            lambda m, x: x[m.tensor([2, 0, 2])] * m.where(m.tensor([True, False, True]), x, 0.0),
            [1.0, 2.0, 3.0],
        )
    )


# --- views: contiguous(), view() ----------------------------------------------------------------
def view(m, x, *shape):
    return ag.ops.view(x, *shape) if m is ag else x.view(*shape)


def contiguous(m, x):
    return ag.ops.contiguous(x) if m is ag else x.contiguous()


def is_contiguous(m, x):
    return ag.ops.is_contiguous(x) if m is ag else x.is_contiguous()


def _contiguous_copy(m, method=False):
    x = m.ones(2, 3)
    c = x.t().contiguous() if method else contiguous(m, x.t())
    c[0, 0] = 5.0  # must not write into x
    return [c is x, x, c]


LAYOUT = {
    "t().contiguous() is a copy": _contiguous_copy,
    "contiguous() of a contiguous tensor is itself": lambda m: (lambda x: contiguous(m, x) is x)(
        m.ones(2, 3)
    ),
    "t().view(6)": lambda m: view(m, m.ones(2, 3).t(), 6),
    "t().view(-1)": lambda m: view(m, m.ones(2, 3).t(), -1),
    "t().view(3, 2)": lambda m: view(m, m.arange(6.0).reshape(2, 3).t(), 3, 2),
    "sliced view": lambda m: view(m, m.ones(4, 6)[:, :3], 12),
    "sliced view that works": lambda m: view(m, m.arange(24.0).reshape(4, 6)[:, :3], 4, 3, 1),
    "view(-1, -1)": lambda m: view(m, m.ones(2, 3), -1, -1),
    "view(-2, 3)": lambda m: view(m, m.ones(2, 3), -2, 3),
    "view of nothing": lambda m: view(m, m.ones(0, 3), -1, 0),
    "reshape(-1, -1)": lambda m: m.ones(2, 3).reshape(-1, -1),
    "reshape of a transpose copies": lambda m: m.arange(6.0).reshape(2, 3).t().reshape(6),
    "is_contiguous": lambda m: [
        is_contiguous(m, t)
        for t in (
            m.ones(2, 3),
            m.ones(2, 3).t(),
            m.ones(2, 4)[:, ::2],
            m.ones(3, 1).expand(3, 4),
            m.ones(1, 3).t(),
            m.ones(0, 2).t(),
            m.tensor(1.0),
            m.ones(2, 3).t() + 1,
        )
    ],
    "contiguous() gradient": with_grad(
        lambda m, x: (
            contiguous(m, x.t()) * m.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], dtype=m.float64)
        ),
        [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]],
    ),
    "view gradient": with_grad(
        lambda m, x: (
            view(m, x, 3, 2) * m.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], dtype=m.float64)
        ),
        [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]],
    ),
}


@pytest.mark.parametrize("name", list(LAYOUT))
def test_views_and_copies(name):
    assert_like_torch(LAYOUT[name])


def test_view_and_contiguous_nodes():
    x = ag.ones(2, 3, requires_grad=True)
    assert ag.ops.contiguous(x.t()).grad_fn.name() == "CloneBackward0"
    assert ag.ops.view(x.t(), 3, 2).grad_fn.name() == "ViewBackward0"


USER_LEVEL = {
    "x.t().contiguous()": lambda m: _contiguous_copy(m, method=True),
    "x.t().view(6)": lambda m: m.ones(2, 3).t().view(6),
    "x.t().is_contiguous()": lambda m: m.ones(2, 3).t().is_contiguous(),
    "1-d x.mT": lambda m: m.ones(3).mT,
}


@pytest.mark.parametrize("name", list(USER_LEVEL))
def test_tensor_methods_for_views(name):
    """The same through the Tensor methods a learner calls."""
    case = USER_LEVEL[name]
    assert_like_torch(lambda m: case(m) if m is torch else case(ag))


# --- special values -----------------------------------------------------------------------------
SPECIAL = {
    "0.0 ** x": with_grad(lambda m, x: 0.0**x, [0.0, 1.0, 2.0, -1.0]),
    "0 ** x": with_grad(lambda m, x: 0**x, [0.0, 1.0, 2.0]),
    "tensor(0.) ** x": with_grad(
        lambda m, x: m.tensor(0.0, dtype=m.float64) ** x, [0.0, 2.0, -1.0]
    ),
    "2.0 ** x": with_grad(lambda m, x: 2.0**x, [0.0, 1.5, -1.0]),
    "(-2.0) ** x": with_grad(lambda m, x: (-2.0) ** x, [1.0, 2.0]),
    "x ** 0": with_grad(lambda m, x: x**0, [0.0, 1.0]),
    "sign(nan)": lambda m: m.tensor([NAN, -1.0, 0.0, 2.0, -INF]).sign(),
    "sign(nan) gradient": with_grad(lambda m, x: x.sign(), [NAN, 1.0]),
    "sign of 0-d nan": lambda m: m.tensor(NAN).sign(),
    "sign of bool": lambda m: m.tensor([True, False]).sign(),
    "sum(dim=[])": lambda m: m.ones(2, 3).sum(dim=[]),
    "sum(dim=())": lambda m: m.ones(2, 3).sum(dim=()),
    "sum(dim=[], keepdim=True)": lambda m: m.ones(2, 3).sum(dim=[], keepdim=True),
    "sum(dim=[]) gradient": with_grad(lambda m, x: x.sum(dim=[]) * 2, M),
    "mean(dim=[])": lambda m: m.arange(6.0).reshape(2, 3).mean(dim=[]),
    "amax(dim=[])": lambda m: m.arange(6.0).reshape(2, 3).amax(dim=[]),
    "amin(dim=())": lambda m: m.arange(6.0).reshape(2, 3).amin(dim=()),
    "var(dim=[])": lambda m: m.arange(6.0).reshape(2, 3).var(dim=[]),
    "std(dim=[])": lambda m: m.arange(6.0).reshape(2, 3).std(dim=[]),
    "norm(dim=[])": lambda m: m.arange(6.0).reshape(2, 3).norm(dim=[]),
    "argmax(keepdim=True)": lambda m: m.tensor(M).argmax(keepdim=True),
    "all of uint8": lambda m: m.tensor([1, 2], dtype=m.uint8).all(),
    "any of uint8 along a dim": lambda m: m.tensor([[0, 2]], dtype=m.uint8).any(1),
    "int8 + 200 wraps": lambda m: m.tensor([1], dtype=m.int8) + 200,
    "uint8 + (-1) wraps": lambda m: m.tensor([0], dtype=m.uint8) + (-1),
    "norm(0) has no gradient": with_grad(lambda m, x: x.norm(0), M),
    "max_pool2d of an empty batch": lambda m: F(m).max_pool2d(m.ones(0, 1, 4, 4), 2),
    "avg_pool2d of an empty batch": lambda m: F(m).avg_pool2d(m.ones(0, 1, 4, 4), 2),
}


@pytest.mark.parametrize("name", list(SPECIAL))
def test_special_values(name):
    assert_like_torch(SPECIAL[name])


CROSS_ENTROPY = {
    "every target ignored": with_grad(
        lambda m, x: F(m).cross_entropy(x, m.tensor([-100, -100])), M[:2]
    ),
    "every target ignored, sum": with_grad(
        lambda m, x: F(m).cross_entropy(x, m.tensor([-100, -100]), reduction="sum"), M[:2]
    ),
    "every target ignored, none": with_grad(
        lambda m, x: F(m).cross_entropy(x, m.tensor([-100, -100]), reduction="none"), M[:2]
    ),
    "every target ignored, weights": with_grad(
        lambda m, x: F(m).cross_entropy(
            x, m.tensor([-100, -100]), weight=m.ones(4, dtype=m.float64)
        ),
        M[:2],
    ),
    "custom ignore_index": with_grad(
        lambda m, x: F(m).cross_entropy(x, m.tensor([1, 1]), ignore_index=1), M[:2]
    ),
    "some targets ignored": with_grad(
        lambda m, x: F(m).cross_entropy(x, m.tensor([-100, 2])), M[:2]
    ),
    "zero class weights (0/0 is NaN, not ignored)": with_grad(
        lambda m, x: F(m).cross_entropy(x, m.tensor([0, 1]), weight=m.zeros(4, dtype=m.float64)),
        M[:2],
    ),
    "1-d input, ignored target": with_grad(
        lambda m, x: F(m).cross_entropy(x, m.tensor(-100)), M[0]
    ),
    "nll_loss, every target ignored": with_grad(
        lambda m, x: F(m).nll_loss(x, m.tensor([-100, -100])), M[:2]
    ),
}


@pytest.mark.parametrize("name", list(CROSS_ENTROPY))
def test_cross_entropy_with_ignored_targets(name):
    assert_like_torch(CROSS_ENTROPY[name])


VARIANCE = {}
for _data in ([1.0, 3.0, 7.0], [1.0, 2.0], [2.0], [], 2.0):
    for _c in (0, 1, 2, 3):
        for _op in ("var", "std"):
            VARIANCE[f"{_op} of {_data}, correction={_c}"] = with_grad(
                lambda m, x, op=_op, c=_c: getattr(x, op)(correction=c), _data
            )
VARIANCE["var along a dim of one"] = with_grad(lambda m, x: x.var(1), [[1.0], [2.0]])
VARIANCE["std along a dim of one"] = with_grad(lambda m, x: x.std(1), [[1.0], [2.0]])
VARIANCE["std along an empty dim"] = lambda m: m.ones(0, 2).std(0)


@pytest.mark.parametrize("name", list(VARIANCE))
def test_variance_without_degrees_of_freedom(name):
    """One element: NaN and PyTorch's warning, never ZeroDivisionError."""
    assert_like_torch(VARIANCE[name], warns=True)


# --- softmax of unusual inputs ------------------------------------------------------------------
SOFTMAX = {
    "empty": lambda m: F(m).softmax(m.ones(0), 0),
    "empty log": lambda m: F(m).log_softmax(m.ones(0, 3), 1),
    "0-d": lambda m: F(m).softmax(m.tensor(2.0), 0),
    "all -inf": with_grad(lambda m, x: F(m).softmax(x, 0), [-INF, -INF]),
    "log, one -inf": with_grad(lambda m, x: F(m).log_softmax(x, 0), [-INF, 0.0]),
    "+inf": with_grad(lambda m, x: F(m).softmax(x, 0), [INF, 0.0]),
}


@pytest.mark.parametrize("name", list(SOFTMAX))
def test_softmax_edges(name):
    assert_like_torch(SOFTMAX[name])


def _setitem_then_modify(m, mask):
    x = m.tensor([1.0, 2.0, 3.0], requires_grad=True)
    v = m.tensor([7.0, 8.0], requires_grad=True)
    y = x * 1
    i = m.tensor([True, False, True]) if mask else m.tensor([0, 2])
    y[i] = v
    i[1 if mask else 0] = True if mask else 1
    y.sum().backward()
    return [x.grad, v.grad]


def test_index_put_saves_its_index_tensors():
    """IndexPut version-checks the index tensors it is given (``index_sources(key)``)."""
    from autograd_course.ops.indexing import IndexPut, index_sources, key_data

    x = ag.tensor([1.0, 2.0, 3.0], requires_grad=True).clone()  # IndexPut writes into x
    i = ag.tensor([0, 2])
    y = IndexPut.apply(x, key_data(i, x._xp), ag.tensor(5.0), index_sources(i))
    i[0] = 1
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


@pytest.mark.parametrize("mask", [False, True], ids=["index", "mask"])
def test_setitem_index_modified_after_the_write(mask):
    assert_like_torch(lambda m: _setitem_then_modify(m, mask))
