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


@pytest.mark.parametrize("change", [
    lambda v: v.t_(), lambda v: v.transpose_(0, 1), lambda v: v.swapdims_(1, 0),
    lambda v: v.swapaxes_(0, 0), lambda v: v.unsqueeze_(1), lambda v: v[:1].squeeze_(0),
    lambda v: v.as_strided_((3,), (2,), 1)])
def test_in_place_views_change_the_geometry_and_keep_the_gradient(torch_oracle, change):
    def case(m):
        leaf = m.tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]], requires_grad=True)
        view = (leaf * 2).view_as(leaf)
        returned = change(view)
        weights = m.arange(float(view.numel())).reshape(view.shape)
        (view * weights).sum().backward()
        return [returned is view or returned.shape == view.shape, view, leaf.grad]

    assert_like_torch(case)


@pytest.mark.parametrize("made_under_no_grad", [True, False])
def test_in_place_views_refused_as_writes_are(torch_oracle, made_under_no_grad):
    def case(m):
        leaf = m.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        seen = []
        try:
            leaf.t_()  # a leaf that requires grad: refused in grad mode
        except RuntimeError as err:
            seen.append(str(err))
        with m.no_grad():
            leaf.t_()  # allowed under no_grad
        seen.append(leaf.tolist())
        base = leaf.clone()
        with m.set_grad_enabled(not made_under_no_grad):
            view = base.unbind()[0] if not made_under_no_grad else base.view_as(base)
        try:
            view.unsqueeze_(0)
        except RuntimeError as err:
            seen.append(str(err).split(".")[0])
        return seen

    assert_like_torch(case)
