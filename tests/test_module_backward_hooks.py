"""``nn.Module.register_full_backward_hook`` and ``register_full_backward_pre_hook`` against
PyTorch: what the hooks receive, replacing gradients, several inputs and outputs, inputs that
do not require grad, removal, and the checks on what a hook returns."""

from __future__ import annotations

import pytest
from oracle_helpers import assert_like_torch


def _values(grads):
    return [None if g is None else g.tolist() for g in grads]


def _scale(m):
    class Scale(m.nn.Module):
        def forward(self, x, y=None):
            return x * 3 if y is None else x * y

    return Scale()


def test_the_hooks_see_the_gradients_of_inputs_and_outputs():
    def case(m):
        module = _scale(m)
        log = []
        module.register_full_backward_pre_hook(lambda mod, go: log.append(
            ("pre", mod is module, _values(go))))
        module.register_full_backward_hook(lambda mod, gi, go: log.append(
            ("hook", mod is module, _values(gi), _values(go))))
        x = m.tensor([1.0, 2.0], requires_grad=True)
        out = module(x)
        (out * out).sum().backward()
        return [log, x.grad, out.grad_fn.name()]

    assert_like_torch(case)


def test_the_hooks_may_replace_gradients():
    def case(m):
        module = _scale(m)
        module.register_full_backward_pre_hook(lambda mod, go: (go[0] * 10,))
        module.register_full_backward_hook(lambda mod, gi, go: (gi[0] + 1, None))
        x = m.tensor([1.0, 2.0], requires_grad=True)
        y = m.tensor([4.0, 5.0], requires_grad=True)
        module(x, y).sum().backward()
        return [x.grad, y.grad]

    assert_like_torch(case)


def test_several_outputs_and_an_input_that_does_not_require_grad():
    def case(m):
        class Split(m.nn.Module):
            def forward(self, x, k):
                return x * k, x.exp(), 7

        module = Split()
        log = []
        module.register_full_backward_hook(lambda mod, gi, go: log.append(
            (_values(gi), _values(go))))
        x = m.tensor([1.0, 2.0], requires_grad=True)
        a, b, seven = module(x, m.tensor([2.0, 2.0]))
        (a.sum() + b.sum() * 0).backward()
        return [log, x.grad, seven]

    assert_like_torch(case, rtol=1e-5)


def test_no_input_requires_grad():
    def case(m):
        linear = m.nn.Linear(2, 1)
        log = []
        linear.register_full_backward_hook(lambda mod, gi, go: log.append(
            (len(gi), gi[0], [g.shape for g in go])))
        linear(m.ones(3, 2)).sum().backward()
        return log

    assert_like_torch(case)


@pytest.mark.parametrize("which", ["hook", "pre hook", "no input hook"])
def test_a_hook_returning_the_wrong_count_is_refused(which):
    def case(m):
        module = _scale(m)
        x = m.tensor([1.0, 2.0], requires_grad=which != "no input hook")
        if which == "pre hook":
            module.register_full_backward_pre_hook(lambda mod, go: (go[0], go[0]))
        else:
            module.register_full_backward_hook(lambda mod, gi, go: (m.ones(2), m.ones(2)))
        w = m.ones(2, requires_grad=True)
        (module(x) * w).sum().backward()

    assert_like_torch(case)


def test_removed_hooks_no_longer_run_and_no_grad_skips_them():
    def case(m):
        module = _scale(m)
        log = []
        handle = module.register_full_backward_hook(lambda mod, gi, go: log.append("hook"))
        x = m.tensor([1.0, 2.0], requires_grad=True)
        module(x).sum().backward()
        with m.no_grad():
            quiet = module(x)
        handle.remove()
        module(x).sum().backward()
        return [log, quiet.requires_grad, x.grad]

    assert_like_torch(case)
