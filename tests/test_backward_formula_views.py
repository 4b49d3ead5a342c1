"""Views a backward formula takes with grad mode off (autograd/views.py, ``register_view``):
their base keeps no entry for them, since no recorded write can give them a new history.
What a learner can do with such a view (one that ``autograd.grad`` returns) is checked
against PyTorch: write into it (refused, with PyTorch's message) and compute with it.
"""

from __future__ import annotations

from oracle_helpers import assert_like_torch, observe

import autograd_course as ag


def _gradient_view(m):
    """``autograd.grad`` of a reshape: the gradient is a view of ``grad_outputs``."""
    x = m.ones(2, 3, requires_grad=True)
    gout = m.arange(6.0)
    (gx,) = m.autograd.grad(x.reshape(6), x, gout)
    return x, gout, gx


def test_a_gradient_that_is_a_view_reads_as_in_pytorch(torch_oracle):
    def case(m):
        x, gout, gx = _gradient_view(m)
        return [gx, gx._base is gout, gx.requires_grad, gx.grad_fn is None, (gx * 2).sum()]

    assert_like_torch(case)


def test_a_recorded_write_into_it_is_refused_as_in_pytorch(torch_oracle):
    def case(m):
        x, gout, gx = _gradient_view(m)
        gx.mul_(m.ones(2, 3, requires_grad=True))

    ours = assert_like_torch(case)
    assert ours[0] == "error" and "created in no_grad mode" in ours[2]


def test_an_unrecorded_write_into_its_base_shows_through_it(torch_oracle):
    def case(m):
        x, gout, gx = _gradient_view(m)
        gout.add_(1)
        return [gx, gx._version, gx.grad_fn is None]

    assert_like_torch(case)


def test_its_base_keeps_no_entry_for_it_but_one_for_a_view_taken_with_grad_on():
    x, gout, gx = _gradient_view(ag)
    assert gx._base is gout and gout._views is None
    with ag.enable_grad():
        made_in_backward = []

        class Keeps(ag.autograd.Function):
            @staticmethod
            def forward(ctx, t):
                return t.clone()

            @staticmethod
            def backward(ctx, g):
                with ag.enable_grad():
                    made_in_backward.append(g[:1])  # grad mode on: kept
                made_in_backward.append(g[:1])  # grad mode off: not kept
                return g

        Keeps.apply(ag.ones(2, requires_grad=True)).sum().backward()
    on, off = made_in_backward
    assert on._base is off._base and list(on._base._views) == [on]


def test_after_a_recorded_write_into_its_base_it_keeps_no_history(torch_oracle):
    """Where this differs: PyTorch makes a view's new history when its ``grad_fn`` is read,
    and refuses to for a view made with grad mode off; here the view keeps no history (it
    was not listed to be given one, views.py's ``views_to_refresh``)."""
    def case(m):
        x, gout, gx = _gradient_view(m)
        gout.mul_(m.ones(6, requires_grad=True))
        return [gout.grad_fn is not None, gx.grad_fn]

    (theirs, _), (ours, _) = observe(torch_oracle, case), observe(ag, case)
    assert theirs[0] == "error" and "created in no_grad mode" in theirs[2]
    assert ours == ("value", [True, None])
