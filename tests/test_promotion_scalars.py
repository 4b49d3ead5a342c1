"""Issue 28, "wrong values, silently": a Python number or a 0-d tensor next to a tensor.

PyTorch converts every operand once, from its own dtype, to the dtype the op computes in
(``uint8 / -2`` divides by -2.0, not by the uint8 254), and for float16 ``*`` and ``/`` keeps a
number second operand in float32 (``half * 65536.`` is not inf). Each case is compared with
torch: dtype, shape and values, or the error's type and message.
"""

from __future__ import annotations

import pytest
from oracle_helpers import assert_like_torch

torch = pytest.importorskip("torch")


def _u8(m):
    return m.tensor([3, 250], dtype=m.uint8)


def _half(m):
    return m.tensor([0.5, 1e-3], dtype=m.float16)


VALUES = {
    # the lines, then the same with a 0-d tensor and in place
    "uint8 / -2": lambda m: _u8(m) / -2,
    "int8 / 300": lambda m: m.tensor([3], dtype=m.int8) / 300,
    "half * 65536.": lambda m: _half(m) * 65536.0,
    "half / (1 / 65536.)": lambda m: _half(m) / (1 / 65536.0),
    "half.mul_(65536.)": lambda m: _half(m).mul_(65536.0),
    "half.div_(1 / 65536.)": lambda m: _half(m).div_(1 / 65536.0),
    "uint8.clamp(min=-1)": lambda m: m.tensor([3, 4], dtype=m.uint8).clamp(min=-1),
    "uint8 / tensor(-2)": lambda m: _u8(m) / m.tensor(-2),
    "int8 / tensor(300)": lambda m: m.tensor([3], dtype=m.int8) / m.tensor(300),
    "half * tensor(65536.)": lambda m: _half(m) * m.tensor(65536.0),
    "half * tensor(65536., float64)": lambda m: _half(m) * m.tensor(65536.0, dtype=m.float64),
    "65536. * half": lambda m: 65536.0 * _half(m),
    "tensor(65536.) * half (first: rounded to half)": lambda m: m.tensor(65536.0) * _half(m),
    "half *= 65536.": lambda m: _half(m).__imul__(65536.0),
    "half.mul_(tensor(65536.))": lambda m: _half(m).mul_(m.tensor(65536.0)),
    "half // 1e-5": lambda m: m.tensor([1e-3], dtype=m.float16) // 1e-5,
    "half.div(1e-5, floor)": lambda m: m.tensor([1e-3], dtype=m.float16).div(
        1e-5, rounding_mode="floor"),
    "half % 1e-5 (rounded to half first)": lambda m: m.tensor([1e-3], dtype=m.float16) % 1e-5,
    "half + 70000. (rounded to half first)": lambda m: m.tensor([-65500.0],
                                                                dtype=m.float16) + 70000.0,
    "1e5 / half": lambda m: 1e5 / m.tensor([2.0], dtype=m.float16),
    # integers next to numbers that do not fit them wrap around, as in PyTorch
    "uint8 + 300": lambda m: _u8(m) + 300,
    "int + 2**63 (wraps)": lambda m: m.tensor([1]) + 2**63,
    "int8 + 2**63 + 5": lambda m: m.tensor([1], dtype=m.int8) + (2**63 + 5),
    "half.where(x == x, 70000.)": lambda m: m.tensor([1.0], dtype=m.float16).where(
        m.tensor([False]), 70000.0),
    "uint8 // 300": lambda m: _u8(m) // 300,
    "uint8 % -2": lambda m: _u8(m) % -2,
    "int8 * 300": lambda m: m.tensor([3, 120], dtype=m.int8) * 300,
    "int8 > 300": lambda m: m.tensor([3, 120], dtype=m.int8) > 300,
    "uint8 == -6": lambda m: _u8(m) == -6,
    "uint8 > tensor(-1)": lambda m: _u8(m) > m.tensor(-1),
    "uint8.clamp(min=-200)": lambda m: m.tensor([1], dtype=m.uint8).clamp(min=-200),
    "uint8.clamp(min=tensor(-300))": lambda m: m.tensor([3], dtype=m.uint8).clamp(
        min=m.tensor(-300)),
    "int8.div(300, trunc)": lambda m: m.tensor([3, -3], dtype=m.int8).div(
        300, rounding_mode="trunc"),
    "where(uint8, -1)": lambda m: m.where(m.tensor([False]), m.tensor([1], dtype=m.uint8), -1),
    "float32 ** 6.4e-183 (a double exponent)": lambda m: m.tensor([0.0, 2.0]) ** 6.4e-183,
    "bool ** True": lambda m: m.tensor([True, False]) ** True,
    "bool.clamp(max=tensor(False))": lambda m: m.tensor([False, True]).clamp(
        max=m.tensor(False)),
}


@pytest.mark.parametrize("name", list(VALUES))
def test_values_and_dtypes(name):
    assert_like_torch(VALUES[name], rtol=1e-3 if "half" in name else 1e-6, atol=0)


ERRORS = {
    "int.add_(t, alpha=0.5)": lambda m: m.tensor([1, 2]).add_(m.tensor([1, 2]), alpha=0.5),
    "int.add(t, alpha=0.5)": lambda m: m.tensor([1, 2]).add(m.tensor([1, 2]), alpha=0.5),
    "int.add(1, alpha=1.0)": lambda m: m.tensor([1]).add(1, alpha=1.0),
    "int.sub_(1, alpha=0.5)": lambda m: m.tensor([1]).sub_(1, alpha=0.5),
    "int.add(t, alpha=True)": lambda m: m.tensor([1]).add(m.tensor([1]), alpha=True),
    "half.add(1., alpha=70000.)": lambda m: m.tensor([1.0], dtype=m.float16).add(
        1.0, alpha=70000.0),
    "uint8.clamp(-1, 300)": lambda m: m.tensor([3], dtype=m.uint8).clamp(-1, 300),
    "uint8.clamp(min=-256)": lambda m: m.tensor([3], dtype=m.uint8).clamp(min=-256),
    "int32.clamp(2**31)": lambda m: m.tensor([1], dtype=m.int32).clamp(2**31),
    "half.clamp(max=70000.)": lambda m: m.tensor([1.0], dtype=m.float16).clamp(max=70000.0),
    "float32.clamp(max=1e40)": lambda m: m.tensor([1.0]).clamp(max=1e40),
    "int8 ** 300": lambda m: m.tensor([1], dtype=m.int8) ** 300,
    "uint8 ** -256": lambda m: m.tensor([2], dtype=m.uint8) ** -256,
    "half ** 70000": lambda m: m.tensor([1.0], dtype=m.float16) ** 70000,
    "where(int16, 2**15)": lambda m: m.where(m.tensor([False]), m.tensor([1], dtype=m.int16),
                                             2**15),
    "where(float32, 3.5e38)": lambda m: m.where(m.tensor([False]), m.tensor([1.0]), 3.5e38),
    "int + 2**64 (past 64 bits)": lambda m: m.tensor([1]) + 2**64,
    "float * (-2**63 - 1)": lambda m: m.tensor([1.0]) * (-2**63 - 1),
    "float.clamp(max=2**64)": lambda m: m.tensor([1.0]).clamp(max=2**64),
    "bool %= 0 (the type first)": lambda m: m.tensor([False]).__imod__(0),
    "bool /= 0": lambda m: m.tensor([False]).__itruediv__(0),
    "bool -= 0": lambda m: m.tensor([False]).__isub__(0),
    "bool.pow_(-1)": lambda m: m.tensor([False]).pow_(-1),
    # in place: the result type must be castable to the tensor's
    "int.add_(1.5)": lambda m: m.tensor([1, 2]).add_(1.5),
    "int.mul_(1.5)": lambda m: m.tensor([1, 2]).mul_(1.5),
    "int.div_(2)": lambda m: m.tensor([3, -3]).div_(2),
    "int.add_(tensor(1.5, float64))": lambda m: m.tensor([1]).add_(m.tensor(1.5,
                                                                            dtype=m.float64)),
    "int.pow_(0.5)": lambda m: m.tensor([1]).pow_(0.5),
    "int.floor_divide_(0.5)": lambda m: m.tensor([1]).floor_divide_(0.5),
    "int.remainder_(0.5)": lambda m: m.tensor([1]).remainder_(0.5),
    "bool.mul_(2)": lambda m: m.tensor([True]).mul_(2),
    "bool.remainder_(2)": lambda m: m.tensor([True]).remainder_(2),
    "int.clamp_(min=0.5)": lambda m: m.tensor([1, 2]).clamp_(min=0.5),
    "int8.clamp_(min=0.5)": lambda m: m.tensor([1], dtype=m.int8).clamp_(min=0.5),
    "uint8.clamp_(0.5)": lambda m: m.tensor([1], dtype=m.uint8).clamp_(0.5),
    "bool.clamp_(min=2)": lambda m: m.tensor([True]).clamp_(min=2),
    "int.clamp_(min=tensor(0.5))": lambda m: m.tensor([1]).clamp_(min=m.tensor(0.5)),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors(name):
    assert_like_torch(ERRORS[name])


ACCEPTED = {
    "int.add_(True)": lambda m: m.tensor([1]).add_(True),
    "bool.add_(True)": lambda m: m.tensor([True]).add_(True),
    "bool.add(bool, alpha=True)": lambda m: m.tensor([True]).add(m.tensor([True]), alpha=True),
    "int8.add_(int64 tensor)": lambda m: m.tensor([1], dtype=m.int8).add_(m.tensor([1])),
    "float.add_(float64 tensor)": lambda m: m.tensor([1.0]).add_(m.tensor([1.5],
                                                                          dtype=m.float64)),
    "int.add(2.5, alpha=2)": lambda m: m.tensor([1]).add(2.5, alpha=2),
    "float.add(int, alpha=2.5)": lambda m: m.tensor([1.0]).add(m.tensor([1]), alpha=2.5),
}


@pytest.mark.parametrize("name", list(ACCEPTED))
def test_accepted(name):
    assert_like_torch(ACCEPTED[name])


def test_half_product_keeps_its_gradient():
    """The float32 number of ``half * 65536.`` is also what backward multiplies by."""
    def case(m):
        x = m.tensor([0.5, 1e-3], dtype=m.float16, requires_grad=True)
        (x * 65536.0).sum().backward()
        return [x * 65536.0, x.grad]

    assert_like_torch(case, rtol=1e-3, atol=0)
