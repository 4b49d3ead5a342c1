"""``checkpoint`` keeps its tensor inputs as saved tensors, as PyTorch 2.13 does: the
saved-tensor hooks around the call see them (chapter 10 counts them in its byte totals), an
input changed in place before backward is refused, and under ``no_grad`` nothing is kept and
the hooks see nothing."""

from __future__ import annotations

from oracle_helpers import assert_like_torch


def _packed_bytes(m, run):
    sizes = []

    def pack(t):
        sizes.append(t.numel() * t.element_size())
        return t

    with m.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = run()
    return sorted(sizes), out


def test_the_hooks_around_a_checkpoint_see_its_inputs():
    def case(m):
        x = m.tensor([1.0, 2.0, -3.0], requires_grad=True)
        w = m.tensor([0.5, -1.0, 0.25], dtype=m.float64, requires_grad=True)
        sizes, y = _packed_bytes(m, lambda: m.utils.checkpoint.checkpoint(
            lambda a, b, k: (a * b).tanh() * k, x, w.float(), 3, use_reentrant=False))
        y.sum().backward()
        return [sizes, x.grad, w.grad]

    assert_like_torch(case)


def test_checkpoint_sequential_keeps_each_segment_input():
    def case(m):
        m.manual_seed(0)
        layers = m.nn.Sequential(*[m.nn.Linear(4, 4) for _ in range(6)])
        x = m.ones(2, 4, requires_grad=True)
        sizes, y = _packed_bytes(m, lambda: m.utils.checkpoint.checkpoint_sequential(
            layers, 3, x, use_reentrant=False))
        y.sum().backward()
        return [sizes, x.grad]

    assert_like_torch(case)


def test_an_input_changed_in_place_before_backward_is_refused():
    def case(m):
        x = m.tensor([1.0, 2.0], requires_grad=True)
        h = x * 1
        y = m.utils.checkpoint.checkpoint(lambda a: a.exp(), h, use_reentrant=False)
        h.add_(1)
        y.sum().backward()
        return x.grad

    assert_like_torch(case)


def test_under_no_grad_nothing_is_kept():
    def case(m):
        x = m.tensor([1.0, 2.0], requires_grad=True)
        with m.no_grad():
            sizes, y = _packed_bytes(m, lambda: m.utils.checkpoint.checkpoint(
                lambda a: a.exp(), x, use_reentrant=False))
        return [sizes, y, y.requires_grad]

    assert_like_torch(case)
