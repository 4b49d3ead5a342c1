"""``torch.add(2, 3)``: the arithmetic ops whose first parameter takes a number (add, sub,
mul, div and their aliases, floor_divide) accept two numbers, the first made a 0-d tensor as
PyTorch's argument parser makes it; ops that take no number first refuse them, as PyTorch does.
"""

from __future__ import annotations

import pytest
from oracle_helpers import assert_like_torch

ACCEPTED = [
    lambda m: m.add(2, 3), lambda m: m.add(2.5, 3), lambda m: m.add(True, False),
    lambda m: m.mul(True, 3), lambda m: m.add(2, 3, alpha=2), lambda m: m.sub(2, 3),
    lambda m: m.subtract(2.0, 3), lambda m: m.multiply(2, 3.5), lambda m: m.div(2, 3),
    lambda m: m.divide(1, 0), lambda m: m.true_divide(3, 4), lambda m: m.floor_divide(7, 2),
    lambda m: m.div(7, 2, rounding_mode="floor"), lambda m: m.div(-7, 2, rounding_mode="trunc"),
    lambda m: m.add(2, 3, out=m.zeros(())), lambda m: m.sub(True, True),
]


@pytest.mark.parametrize("call", ACCEPTED)
def test_two_numbers_give_a_0d_tensor_of_their_promoted_dtype(torch_oracle, call):
    def case(m):
        result = call(m)
        return [result, str(result.dtype), result.requires_grad, str(result.device)]

    assert_like_torch(case)


@pytest.mark.parametrize("name", ["maximum", "minimum", "atan2", "hypot", "pow", "lerp",
                                  "eq", "lt", "remainder", "rsub", "xlogy", "matmul"])
def test_ops_that_take_no_number_first_refuse_two_numbers(torch_oracle, name):
    assert_like_torch(lambda m: getattr(m, name)(2, 3))
