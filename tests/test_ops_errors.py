"""Misuse of the ops raises what PyTorch raises: the same exception type and message.

Each case is a ``lambda m: ...`` run with ``ag`` and with ``torch``; the exception type and the
first line of the message must be identical.
"""

from __future__ import annotations

import pytest
from ops_helpers import error_of

import autograd_course as ag

torch = pytest.importorskip("torch")


def _bce(m):
    fn = "binary_cross_entropy_with_logits"
    return getattr(m.nn.functional, fn) if m is torch else getattr(ag.ops, fn)


ERRORS = {
    # broadcasting: the message names both sizes and the dimension
    "add": lambda m: m.ones(2, 3) + m.ones(2, 4),
    "mul 3-d": lambda m: m.ones(2, 3) * m.ones(4, 1, 4),
    "sub leading": lambda m: m.ones(3, 1) - m.ones(2, 1, 1).expand(2, 4, 1),
    "div": lambda m: m.ones(5) / m.ones(3),
    "pow": lambda m: m.ones(2) ** m.ones(3),
    "eq": lambda m: m.ones(2, 3) == m.ones(3, 2),
    "lt": lambda m: m.ones(4) < m.ones(3),
    "maximum": lambda m: m.maximum(m.ones(2), m.ones(3)),
    "where": lambda m: m.where(m.ones(2, dtype=m.bool), m.ones(3), 0.0),
    "where condition": lambda m: m.where(m.ones(2), m.ones(2), 0.0),
    "add_ grows": lambda m: m.ones(3).add_(m.ones(2, 3)),
    "mul_ mismatch": lambda m: m.ones(3).mul_(m.ones(4)),
    "copy_ mismatch": lambda m: m.zeros(2, 3).copy_(m.ones(4)),
    "copy_ grows": lambda m: m.zeros(2, 3).copy_(m.ones(2, 1, 3)),
    # matmul
    "mm shapes": lambda m: m.ones(2, 3) @ m.ones(4, 5),
    "vector @ matrix": lambda m: m.ones(3) @ m.ones(4, 5),
    "matrix @ vector": lambda m: m.ones(2, 3) @ m.ones(4),
    "dot sizes": lambda m: m.ones(3) @ m.ones(4),
    "batched @ matrix": lambda m: m.ones(2, 3, 4) @ m.ones(5, 6),
    "4-d @ matrix": lambda m: m.ones(4, 2, 3, 4) @ m.ones(5, 6),
    "batched @ vector": lambda m: m.ones(2, 3, 4) @ m.ones(5),
    "vector @ batched": lambda m: m.ones(5) @ m.ones(2, 3, 4),
    "batched @ batched": lambda m: m.ones(2, 3, 4) @ m.ones(2, 5, 6),
    "matrix @ batched": lambda m: m.ones(2, 3) @ m.ones(4, 4, 5),
    "4-d @ 4-d": lambda m: m.ones(4, 2, 3, 4) @ m.ones(4, 2, 5, 6),
    "batch broadcast": lambda m: m.ones(2, 3, 4) @ m.ones(3, 4, 5),
    "batch broadcast 4-d": lambda m: m.ones(4, 2, 3, 4) @ m.ones(3, 4, 5),
    "0-d": lambda m: m.tensor(2.0) @ m.ones(3),
    "python number": lambda m: m.ones(2, 2) @ 2,
    "reflected number": lambda m: 2 @ m.ones(2, 2),
    "matmul number": lambda m: m.matmul(m.ones(2), 2),
    "dtype mm": lambda m: m.ones(2, 3) @ m.ones(3, 2, dtype=m.float64),
    "dtype dot": lambda m: m.ones(3) @ m.ones(3, dtype=m.float64),
    "dtype mv": lambda m: m.ones(2, 3) @ m.ones(3, dtype=m.float64),
    "dtype bmm": lambda m: m.ones(2, 3, 4) @ m.ones(2, 4, 5, dtype=m.float64),
    "dtype long": lambda m: m.ones(2, 3, dtype=m.long) @ m.ones(3, 2),
    "mm vector": lambda m: m.mm(m.ones(3), m.ones(3, 2)),
    "mm mat2": lambda m: m.mm(m.ones(2, 3), m.ones(3)),
    "mv matrix": lambda m: m.mv(m.ones(2, 3), m.ones(3, 2)),
    "dot 2-d": lambda m: m.dot(m.ones(3), m.ones(3, 1)),
    # indexing
    "index too big": lambda m: m.ones(3, 4)[5],
    "index too negative": lambda m: m.ones(3, 4)[-4],
    "index second dim": lambda m: m.ones(3, 4, 5)[0, 9],
    "index after slice": lambda m: m.ones(3, 4, 5)[:, 9],
    "index after ellipsis": lambda m: m.ones(3, 4, 5)[..., 7],
    "list out of range": lambda m: m.ones(3, 4)[[0, 5]],
    "list second": lambda m: m.ones(3, 4, 5)[[0, 1], [0, 9]],
    "tensor after slice": lambda m: m.ones(3, 4, 5)[:, m.tensor([0, 4])],
    "too many indices": lambda m: m.ones(3, 4, 5)[0, 0, 0, 0],
    "0-d index": lambda m: m.tensor(3.0)[0],
    "mask shape": lambda m: m.ones(3, 4, 5)[m.tensor([True, False])],
    "mask 2-d shape": lambda m: m.ones(3, 4, 5)[m.ones(3, 5, dtype=m.bool)],
    "float index tensor": lambda m: m.ones(3)[m.tensor([0.5])],
    "float index": lambda m: m.ones(3)[1.5],
    "select dim": lambda m: m.ones(2, 3).select(2, 0),
    # reductions
    "sum dim": lambda m: m.ones(3).sum(1),
    "sum repeated": lambda m: m.ones(3).sum((0, 0)),
    "mean dim": lambda m: m.ones(2, 3).mean(-3),
    "mean of ints": lambda m: m.tensor([1, 2]).mean(),
    "max of empty": lambda m: m.ones(0).max(),
    "max dim": lambda m: m.ones(2, 3).max(2),
    "argmax dim": lambda m: m.ones(2, 3).argmax(5),
    "var of ints": lambda m: m.tensor([1, 2]).var(),
    "norm repeated": lambda m: m.ones(3).norm(dim=(0, 0)),
    # shape ops
    "view": lambda m: m.ones(2, 3).view(4),
    "reshape": lambda m: m.ones(2, 3).reshape(5, -1),
    "expand": lambda m: m.ones(2, 3).expand(4, 3),
    "permute length": lambda m: m.ones(2, 3).permute(0),
    "transpose dim": lambda m: m.ones(2, 3).transpose(0, 2),
    "squeeze dim": lambda m: m.ones(2, 3).squeeze(5),
    "unsqueeze dim": lambda m: m.ones(2, 3).unsqueeze(3),
    "flatten dim": lambda m: m.ones(2, 3).flatten(2),
    "t of 3-d": lambda m: m.ones(2, 3, 4).t(),
    "cat sizes": lambda m: m.cat([m.ones(2, 3), m.ones(2, 4)]),
    "cat ndim": lambda m: m.cat([m.ones(2, 3), m.ones(3)]),
    "cat 0-d": lambda m: m.cat([m.tensor(1.0), m.tensor(2.0)]),
    "cat dim": lambda m: m.cat([m.ones(2), m.ones(2)], 1),
    "stack sizes": lambda m: m.stack([m.ones(3), m.ones(3), m.ones(4)]),
    # functions
    "clamp without bounds": lambda m: m.ones(3).clamp(),
    "int to negative power": lambda m: m.tensor([1, 2]) ** -1,
    "bce sizes": lambda m: _bce(m)(m.ones(3), m.ones(4)),
    "bce reduction": lambda m: _bce(m)(m.ones(3), m.ones(3), reduction="avg"),
    "in-place float into int": lambda m: m.tensor([1, 2]).add_(1.5),
    "in-place on expand": lambda m: m.ones(3, 1).expand(3, 4).add_(1),
    "copy_ into expand": lambda m: m.ones(1).expand(3).copy_(m.zeros(3)),
    "fill_ with a vector": lambda m: (m.ones(3, requires_grad=True) * 1).fill_(m.ones(2)),
}


@pytest.mark.parametrize("name", ERRORS)
def test_error_matches_pytorch(name):
    fn = ERRORS[name]
    theirs = error_of(lambda: fn(torch))
    assert theirs is not None, "the oracle accepted it: the case is wrong"
    assert error_of(lambda: fn(ag)) == theirs


def test_broadcast_message_names_both_sizes():
    with pytest.raises(RuntimeError, match=r"The size of tensor a \(3\) must match the size of "
                                           r"tensor b \(4\) at non-singleton dimension 1"):
        ag.ones(2, 3) + ag.ones(2, 4)


def test_no_error_where_pytorch_has_none():
    """Things that look wrong but are fine in PyTorch are fine here too."""
    for fn in (lambda m: m.tensor(3.0).sum(0), lambda m: m.tensor(3.0).max(0).values,
               lambda m: m.ones(3)[5:], lambda m: m.ones(3, 4)[:, 0:0],
               lambda m: m.ones(3)[[]], lambda m: m.ones(2, 3).squeeze(1),
               lambda m: m.ones(3).t(), lambda m: m.ones(2, 3)[None, ..., None],
               lambda m: m.ones(2) + m.tensor(1.0, dtype=m.float64)):
        assert error_of(lambda fn=fn: fn(ag)) is None
        assert error_of(lambda fn=fn: fn(torch)) is None
        assert tuple(fn(ag).shape) == tuple(fn(torch).shape)
