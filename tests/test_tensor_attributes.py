"""A tensor takes attributes of the learner's own, as a PyTorch tensor does, and the state only
some tensors need (a view's base, hooks, a leaf's node) reads as unset until it is set."""

from __future__ import annotations

import pytest

import autograd_course as ag

torch = pytest.importorskip("torch")


@pytest.mark.parametrize("lib", [ag, torch], ids=["ours", "torch"])
def test_a_tensor_keeps_an_attribute_of_ones_own(lib):
    x = lib.ones(3, requires_grad=True)
    x.note = "first layer"
    y = x * 2
    y.step = 7
    assert (x.note, y.step) == ("first layer", 7)
    with pytest.raises(AttributeError):
        lib.ones(2).note  # another tensor does not have it


@pytest.mark.parametrize("lib", [ag, torch], ids=["ours", "torch"])
def test_state_that_few_tensors_need_reads_as_unset_until_it_is_set(lib):
    x = lib.ones(4, requires_grad=True)
    assert x._base is None and not x.retains_grad and not x.is_inference()
    y = x * 1
    view = y[1:]
    assert view._base is y and y._base is None
    y.retain_grad()
    assert y.retains_grad and not (y * 1).retains_grad
    handle = x.register_hook(lambda g: g * 2)
    (y * 1).sum().backward()
    assert x.grad.tolist() == [2.0] * 4
    handle.remove()
