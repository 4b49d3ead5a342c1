"""Third round of autograd details PyTorch's own TestAutograd checks, each compared with torch
where the behaviour can be: the cached-tensor registry of ``torch._C``, ...
"""

from __future__ import annotations

import pytest
from oracle_helpers import assert_like_torch

import autograd_course as ac
from autograd_course.compat import _C


def test_cached_tensor_registry_is_a_set_by_identity(torch_oracle):
    def case(m):
        m._C._set_cached_tensors_enabled(True)
        try:
            a, b = m.zeros(3), m.zeros(3)  # equal values, two tensors
            m._C._add_cached_tensor(a)
            seen = [m._C._is_cached_tensor(a), m._C._is_cached_tensor(b)]
            m._C._add_cached_tensor(a)  # twice in, once out: gone
            m._C._remove_cached_tensor(a)
            seen.append(m._C._is_cached_tensor(a))
            m._C._add_cached_tensor(a)
        finally:
            m._C._set_cached_tensors_enabled(False)
        seen.append(m._C._is_cached_tensor(a))  # the registry is off
        return seen

    class Shim:
        _C = _C
        zeros = staticmethod(ac.zeros)

    assert case(Shim) == case(torch_oracle) == [True, False, False, False]


@pytest.mark.parametrize("name", ["var_mean", "std_mean"])
def test_var_mean_and_std_mean_unpack_each_saved_tensor_once(torch_oracle, name):
    def case(m):
        unpacked = []

        def unpack(t):
            unpacked.append(list(t.shape))
            return t

        w = m.tensor([[1.0, 4.0], [2.0, -3.0], [0.5, 1.0]], requires_grad=True)
        with m.autograd.graph.saved_tensors_hooks(lambda t: t, unpack):
            spread, mean = getattr(m, name)(w, dim=0)
        (spread * 3 + mean).sum().backward()
        return [sorted(unpacked), w.grad]  # x (and std) unpacked once each

    assert_like_torch(case)
