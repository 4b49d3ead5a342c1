"""The legacy names old PyTorch code still uses, against torch: ``autograd.Variable``, the
``FloatTensor``/``LongTensor``/... constructors and their ``isinstance`` rule, ``Tensor.new``,
``torch.inf``/``nan``/``pi``/``e`` and ``Tensor.is_complex``."""

from __future__ import annotations

import pytest
from oracle_helpers import assert_like_torch

LEGACY = ["FloatTensor", "DoubleTensor", "HalfTensor", "LongTensor", "IntTensor", "ShortTensor",
          "ByteTensor", "BoolTensor"]


def test_variable_returns_a_new_leaf_sharing_memory():
    def run(m):
        from_base = m.ones(2)
        v = m.autograd.Variable(from_base)
        w = m.autograd.Variable(from_base, requires_grad=True)
        nonleaf = m.autograd.Variable(m.ones(2, requires_grad=True) * 2)
        v.add_(1)  # the same memory: from_base changes too
        return [v is from_base, v.requires_grad, w.requires_grad, w.is_leaf,
                from_base.requires_grad, nonleaf.grad_fn is None, nonleaf.requires_grad,
                from_base, isinstance(from_base, m.autograd.Variable),
                isinstance(3, m.autograd.Variable), issubclass(m.Tensor, m.autograd.Variable),
                type(v).__name__]

    assert_like_torch(run)


def test_variable_volatile_warns_and_data_must_be_a_tensor():
    def volatile(m):
        return m.autograd.Variable(m.ones(2), volatile=True).requires_grad

    def not_a_tensor(m):
        return m.autograd.Variable([1.0, 2.0])

    assert_like_torch(volatile, warns=True)
    assert_like_torch(not_a_tensor)


@pytest.mark.parametrize("name", LEGACY)
def test_legacy_constructors(name):
    def run(m):
        cls = getattr(m, name)
        return [cls(2, 3).shape, cls(m.Size([4])).shape, cls().shape, cls([1, 0, 1]),
                cls((2, 1)), repr(cls), cls.__name__, issubclass(cls, m.Tensor)]

    assert_like_torch(run)


@pytest.mark.parametrize("name", LEGACY)
def test_isinstance_asks_for_the_dtype(name):
    def run(m):
        cls = getattr(m, name)
        samples = [m.ones(2), m.ones(2, dtype=m.float64), m.ones(2).long(), m.ones(2).int(),
                   m.ones(2).bool(), m.ones(2).half(), m.ones(2, dtype=m.uint8),
                   m.ones(2, dtype=m.int16), 3.0, [1.0]]
        return [isinstance(s, cls) for s in samples]

    assert_like_torch(run)


def test_legacy_constructor_of_a_tensor():
    def same_dtype(m):
        t = m.ones(2)
        out = m.FloatTensor(t)
        out.add_(1)
        return [out is t, t]

    def other_dtype(m):
        return m.FloatTensor(m.ones(2, dtype=m.float64))

    def long_of_long(m):
        return m.LongTensor(m.tensor([1, 2]))

    for case in (same_dtype, other_dtype, long_of_long):
        assert_like_torch(case)


def test_tensor_new():
    def run(m):
        t = m.ones(2, 3)
        n = t.long()
        d = t.double()
        return [t.new(2, 3).shape, t.new([1, 2]), t.new(), t.new(m.Size([1, 2])).shape,
                n.new([1.5]), d.new((2, 1)), str(t.new(2).dtype), str(n.new(3).dtype),
                t.new([1]).requires_grad, t.new(t) is t]

    assert_like_torch(run)


def test_constants_and_is_complex():
    def run(m):
        return [m.inf, m.nan != m.nan, m.pi, m.e, type(m.pi).__name__, m.ones(1).is_complex(),
                m.ones(1).long().is_complex(), -m.inf < 0]

    assert_like_torch(run)


def test_volatile_attribute_warns_and_is_false():
    def read(m):
        return m.randn(3).volatile

    def write(m):
        t = m.randn(3)
        t.volatile = True
        return t.requires_grad

    assert_like_torch(read, warns=True)
    assert_like_torch(write, warns=True)
