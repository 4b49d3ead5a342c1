"""``utils.checkpoint`` against PyTorch: the values and gradients, how often the function runs
(once forward, once more per backward pass, stopping early once backward has what it needs),
double backward, the random state of a recomputed dropout, the checks on what the second run
saves, the reentrant variant and its warnings, and ``checkpoint_sequential``."""

from __future__ import annotations

import pytest
from oracle_helpers import assert_like_torch

import autograd_course as ag


def _inputs(m):
    x = m.tensor([1.0, 2.0, -3.0], dtype=m.float64, requires_grad=True)
    w = m.tensor([0.5, -1.0, 0.25], dtype=m.float64, requires_grad=True)
    return x, w


@pytest.mark.parametrize("use_reentrant", [False, True])
def test_values_gradients_and_calls(use_reentrant):
    def case(m):
        x, w = _inputs(m)
        log = []

        def f(a, b):
            log.append("start")
            out = (a * b).exp().sin() * a
            log.append("end")
            return out

        y = m.utils.checkpoint.checkpoint(f, x, w, use_reentrant=use_reentrant)
        log.append("backward")
        y.sum().backward()
        return [y, x.grad, w.grad, log, y.grad_fn.name() if not use_reentrant else None]

    assert_like_torch(case)


def test_each_backward_pass_recomputes_again():
    def case(m):
        x, w = _inputs(m)
        log = []

        def f(a, b):
            log.append("run")
            return (a * b).tanh()

        y = m.utils.checkpoint.checkpoint(f, x, w, use_reentrant=False)
        y.sum().backward(retain_graph=True)
        y.sum().backward()
        (g,) = m.autograd.grad(m.utils.checkpoint.checkpoint(f, x, w, use_reentrant=False).sum(),
                               x)
        return [x.grad, w.grad, g, log]

    assert_like_torch(case)


def test_double_backward_through_a_checkpoint():
    def case(m):
        x, w = _inputs(m)
        y = m.utils.checkpoint.checkpoint(lambda a: (a ** 3).sin(), x, use_reentrant=False)
        (g,) = m.autograd.grad(y.sum(), x, create_graph=True)
        (gg,) = m.autograd.grad(g.sum(), x)
        return [g, gg]

    assert_like_torch(case)


def test_keyword_arguments_and_outputs_that_are_not_tensors():
    def case(m):
        x, w = _inputs(m)

        def f(a, *, scale):
            return a * scale, "label"

        y, label = m.utils.checkpoint.checkpoint(f, x, scale=w, use_reentrant=False)
        y.sum().backward()
        return [label, x.grad, w.grad]

    assert_like_torch(case)


def test_a_recomputed_dropout_gets_the_same_mask():
    """The second run draws the same random numbers as the first: the gradient is the one
    of the mask the forward used (checked within the package: its random numbers are its own)."""
    x = ag.ones(1000, dtype=ag.float64, requires_grad=True)
    ag.manual_seed(0)
    y = ag.utils.checkpoint.checkpoint(lambda a: ag.nn.functional.dropout(a * 1, 0.5),
                                       x, use_reentrant=False)
    after = ag.rand(3)
    y.sum().backward()
    assert ((x.grad == 2) == (y == 2)).all() and ((x.grad == 0) == (y == 0)).all()
    ag.manual_seed(0)
    ag.nn.functional.dropout(ag.ones(1000) * 1, 0.5)
    assert ag.equal(ag.rand(3), after)  # recomputing does not move the random state


def test_a_second_run_that_saves_differently_is_refused():
    def case(m):
        x, w = _inputs(m)
        runs = []

        def f(a):
            runs.append(1)
            return a.exp().exp() if len(runs) == 1 else a.exp()

        y = m.utils.checkpoint.checkpoint(f, x, use_reentrant=False)
        y.sum().backward()

    assert_like_torch(case)


def test_a_second_run_with_other_shapes_is_refused():
    def case(m):
        x, w = _inputs(m)
        runs = []

        def f(a):
            runs.append(1)
            return (a if len(runs) == 1 else a[:2]).exp().sum()

        m.utils.checkpoint.checkpoint(f, x, use_reentrant=False).backward()

    ours = assert_like_torch(case)
    assert ours[1] == "CheckpointError"


def test_the_reentrant_default_warns_and_checks_its_keywords():
    def case(m):
        x, w = _inputs(m)
        y = m.utils.checkpoint.checkpoint(lambda a: a.exp(), x)
        y.sum().backward()
        try:
            m.utils.checkpoint.checkpoint(lambda a: a, x, use_reentrant=True, other=1)
        except ValueError as e:
            return [x.grad, str(e)]

    assert_like_torch(case, warns=True)


def test_reentrant_with_no_input_requiring_grad_warns():
    def case(m):
        y = m.utils.checkpoint.checkpoint(lambda a: a.exp(), m.ones(2), use_reentrant=True)
        return y.requires_grad

    assert_like_torch(case, warns=True)


@pytest.mark.parametrize("segments", [1, 2, 3])
def test_checkpoint_sequential(segments):
    def case(m):
        x, w = _inputs(m)
        functions = [lambda a: a * w, m.tanh, lambda a: a.exp(), lambda a: a * a]
        y = m.utils.checkpoint.checkpoint_sequential(functions, segments, x,
                                                     use_reentrant=False)
        y.sum().backward()
        return [y, x.grad, w.grad]

    assert_like_torch(case)


def test_checkpoint_sequential_over_a_sequential_module():
    import torch

    ag.manual_seed(0)
    torch.manual_seed(0)
    ours, theirs = [m.nn.Sequential(m.nn.Linear(3, 4), m.nn.Tanh(), m.nn.Linear(4, 2))
                    for m in (ag, torch)]
    ours.load_state_dict({k: ag.tensor(v.detach().numpy()) for k, v in
                          theirs.state_dict().items()})
    grads = []
    for m, model in ((ag, ours), (torch, theirs)):
        x = m.tensor([[1.0, -2.0, 0.5]], requires_grad=True)
        m.utils.checkpoint.checkpoint_sequential(model, 2, x, use_reentrant=False).sum().backward()
        grads.append([x.grad.numpy(), model[0].weight.grad.numpy()])
    for a, b in zip(*grads):
        assert abs(a - b).max() < 1e-6

