"""Optimizers against PyTorch: 5-step trajectories for every option (float64, to 1e-12),
the SGD table of torch_semantics.md §13, errors, zero_grad, frozen parameters, StepLR."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import autograd_course as ag
from autograd_course import nn, optim

torch = pytest.importorskip("torch")

X = np.random.default_rng(0).standard_normal((6, 3))
Y = np.random.default_rng(1).standard_normal((6, 2))


def trajectory(lib, make_opt, steps=5, frozen_bias=False):
    """Train a Linear(3, 2) on a fixed problem; return the parameters after each step."""
    if lib is ag:
        model = nn.Linear(3, 2).double()
        x, y, mse = ag.tensor(X), ag.tensor(Y), nn.functional.mse_loss
    else:
        model = torch.nn.Linear(3, 2).double()
        x, y, mse = torch.tensor(X), torch.tensor(Y), torch.nn.functional.mse_loss
    with lib.no_grad():
        model.weight.copy_(lib.tensor([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6]], dtype=lib.float64))
        model.bias.copy_(lib.tensor([0.05, -0.05], dtype=lib.float64))
    if frozen_bias:
        model.bias.requires_grad_(False)
    opt = make_opt(lib.optim, model)
    history = []
    for _ in range(steps):
        opt.zero_grad()
        loss = mse(model(x), y)
        loss.backward()
        opt.step()
        history.append([p.detach().numpy().copy() for p in model.parameters()])
    return history, opt


def assert_same_trajectory(make_opt, **kw):
    ours, _ = trajectory(ag, make_opt, **kw)
    theirs, _ = trajectory(torch, make_opt, **kw)
    for step_ours, step_theirs in zip(ours, theirs):
        for a, t in zip(step_ours, step_theirs):
            np.testing.assert_allclose(a, t, rtol=0, atol=1e-12)


SGD_OPTIONS = [
    dict(lr=0.1), dict(lr=0.1, momentum=0.9), dict(lr=0.1, momentum=0.9, nesterov=True),
    dict(lr=0.1, momentum=0.9, dampening=0.3), dict(lr=0.1, weight_decay=0.1),
    dict(lr=0.1, momentum=0.9, weight_decay=0.1, dampening=0.1),
    dict(lr=0.1, momentum=0.9, weight_decay=0.1, nesterov=True),
    dict(lr=0.05, momentum=0.5, maximize=True), dict(),
]


@pytest.mark.parametrize("options", SGD_OPTIONS, ids=str)
def test_sgd_trajectory_matches_pytorch(options):
    assert_same_trajectory(lambda o, m: o.SGD(m.parameters(), **options))


ADAM_OPTIONS = [
    dict(), dict(lr=0.05), dict(lr=0.05, betas=(0.8, 0.99)), dict(lr=0.05, eps=1e-3),
    dict(lr=0.05, weight_decay=0.1), dict(lr=0.05, amsgrad=True),
    dict(lr=0.05, amsgrad=True, weight_decay=0.1), dict(lr=0.05, maximize=True),
]


@pytest.mark.parametrize("options", ADAM_OPTIONS, ids=str)
@pytest.mark.parametrize("name", ["Adam", "AdamW"])
def test_adam_trajectories_match_pytorch(name, options):
    assert_same_trajectory(lambda o, m: getattr(o, name)(m.parameters(), **options))


def test_adam_state_matches_pytorch():
    _, ours = trajectory(ag, lambda o, m: o.Adam(m.parameters(), lr=0.05, amsgrad=True))
    _, theirs = trajectory(torch, lambda o, m: o.Adam(m.parameters(), lr=0.05, amsgrad=True))
    for p_ours, p_theirs in zip(ours.param_groups[0]["params"],
                                theirs.param_groups[0]["params"]):
        s_ours, s_theirs = ours.state[p_ours], theirs.state[p_theirs]
        assert list(s_ours) == list(s_theirs)
        assert repr(s_ours["step"]) == repr(s_theirs["step"]) == "tensor(5.)"
        for key in ("exp_avg", "exp_avg_sq", "max_exp_avg_sq"):
            np.testing.assert_allclose(s_ours[key].numpy(), s_theirs[key].numpy(), atol=1e-12)


# --- torch_semantics.md §13: loss = (p**2).sum(), p0 = [1, 2], lr = 1e-2 --------------------
SEMANTICS_TABLE = [
    (dict(), [[0.98, 1.96], [0.9604, 1.9208], [0.941192, 1.882384]]),
    (dict(momentum=0.9), [[0.98, 1.96], [0.9424, 1.8848], [0.889712, 1.779424]]),
    (dict(momentum=0.9, nesterov=True),
     [[0.962, 1.924], [0.909244, 1.818488], [0.844528328, 1.689056656]]),
    (dict(momentum=0.9, weight_decay=0.1),
     [[0.979, 1.958], [0.939541, 1.879082], [0.884297539, 1.768595078]]),
    (dict(momentum=0.9, dampening=0.1),
     [[0.98, 1.96], [0.94436, 1.88872], [0.89528552, 1.79057104]]),
    (dict(momentum=0.9, weight_decay=0.1, dampening=0.1),
     [[0.979, 1.958], [0.9415969, 1.8831938], [0.89013792859, 1.78027585718]]),
    (dict(momentum=0.9, weight_decay=0.1, nesterov=True),
     [[0.9601, 1.9202], [0.90478201, 1.80956402], [0.837040906801, 1.674081813602]]),
    (dict(weight_decay=0.1), [[0.979, 1.958], [0.958441, 1.916882], [0.938313739, 1.876627478]]),
]


@pytest.mark.parametrize("options,expected", SEMANTICS_TABLE, ids=[str(o) for o, _ in
                                                                    SEMANTICS_TABLE])
def test_sgd_semantics_table(options, expected):
    p = ag.tensor([1.0, 2.0], dtype=ag.float64, requires_grad=True)
    opt = optim.SGD([p], lr=1e-2, **options)
    for want in expected:
        opt.zero_grad()
        (p**2).sum().backward()
        opt.step()
        np.testing.assert_allclose(p.detach().numpy(), want, rtol=0, atol=1e-12)


def test_sgd_momentum_buffer_after_three_steps():
    p = ag.tensor([1.0, 2.0], requires_grad=True)
    opt = optim.SGD([p], lr=1e-2, momentum=0.9)
    for _ in range(3):
        opt.zero_grad()
        (p**2).sum().backward()
        opt.step()
    assert repr(opt.state[p]["momentum_buffer"]) == "tensor([ 5.2688, 10.5376])"
    assert p.tolist() == [0.8897120356559753, 1.7794240713119507]  # float32, as PyTorch


@pytest.mark.parametrize("call,kind,message", [
    (lambda: optim.SGD([ag.zeros(1, requires_grad=True)], lr=0.1, momentum=0.9, dampening=0.1,
                       nesterov=True), ValueError,
     "Nesterov momentum requires a momentum and zero dampening"),
    (lambda: optim.SGD([ag.zeros(1, requires_grad=True)], nesterov=True), ValueError,
     "Nesterov momentum requires a momentum and zero dampening"),
    (lambda: optim.SGD([ag.zeros(1, requires_grad=True)], lr=-1), ValueError,
     "Invalid learning rate: -1"),
    (lambda: optim.SGD([ag.zeros(1, requires_grad=True)], momentum=-0.1), ValueError,
     "Invalid momentum value: -0.1"),
    (lambda: optim.SGD([ag.zeros(1, requires_grad=True)], weight_decay=-0.1), ValueError,
     "Invalid weight_decay value: -0.1"),
    (lambda: optim.SGD([]), ValueError, "optimizer got an empty parameter list"),
    (lambda: optim.SGD(ag.zeros(2, requires_grad=True)), TypeError,
     "params argument given to the optimizer should be an iterable of Tensors or dicts, but "
     "got torch.FloatTensor"),
    (lambda: optim.SGD([ag.zeros(2, requires_grad=True) * 2]), ValueError,
     "can't optimize a non-leaf Tensor"),
    (lambda: optim.Adam([ag.zeros(1, requires_grad=True)], lr=-1), ValueError,
     "Invalid learning rate: -1"),
    (lambda: optim.Adam([ag.zeros(1, requires_grad=True)], eps=-1), ValueError,
     "Invalid epsilon value: -1"),
    (lambda: optim.Adam([ag.zeros(1, requires_grad=True)], betas=(1.0, 0.9)), ValueError,
     "Invalid beta parameter at index 0: 1.0"),
    (lambda: optim.Adam([ag.zeros(1, requires_grad=True)], betas=(0.9, -0.9)), ValueError,
     "Invalid beta parameter at index 1: -0.9"),
    (lambda: optim.AdamW([ag.zeros(1, requires_grad=True)], weight_decay=-1), ValueError,
     "Invalid weight_decay value: -1"),
])
def test_optimizer_errors(call, kind, message):
    with pytest.raises(kind) as err:
        call()
    assert str(err.value) == message


def test_errors_are_pytorchs_words():
    for ours, theirs in [
        (lambda: optim.SGD([]), lambda: torch.optim.SGD([])),
        (lambda: optim.SGD(ag.zeros(2, requires_grad=True)),
         lambda: torch.optim.SGD(torch.zeros(2, requires_grad=True))),
        (lambda: optim.SGD([ag.zeros(2, requires_grad=True) * 2]),
         lambda: torch.optim.SGD([torch.zeros(2, requires_grad=True) * 2])),
    ]:
        with pytest.raises(Exception) as a:
            ours()
        with pytest.raises(Exception) as t:
            theirs()
        assert (type(a.value), str(a.value)) == (type(t.value), str(t.value))


def test_default_learning_rate_and_repr():
    p = ag.zeros(1, requires_grad=True)
    opt = optim.SGD([p])
    assert opt.param_groups[0]["lr"] == 0.001
    text = repr(optim.SGD([p], lr=0.1, momentum=0.9))
    assert text.startswith("SGD (\nParameter Group 0\n    dampening: 0\n")
    assert "    lr: 0.1\n" in text and "    momentum: 0.9\n" in text and text.endswith(")")


def test_parameters_without_grad_are_skipped():
    history, opt = trajectory(ag, lambda o, m: o.SGD(m.parameters(), lr=0.1, momentum=0.9),
                              frozen_bias=True)
    assert all(np.array_equal(step[1], [0.05, -0.05]) for step in history)
    assert not np.array_equal(history[0][0], history[-1][0])
    bias = opt.param_groups[0]["params"][1]
    assert bias not in opt.state
    assert_same_trajectory(lambda o, m: o.Adam(m.parameters(), lr=0.1), frozen_bias=True)


def test_zero_grad_and_param_groups():
    a = ag.ones(2, requires_grad=True)
    b = ag.ones(2, requires_grad=True)
    opt = optim.SGD([{"params": [a]}, {"params": [b], "lr": 1.0}], lr=0.1)
    (a.sum() + b.sum()).backward()
    opt.step()
    assert a.tolist() == pytest.approx([0.9, 0.9]) and b.tolist() == [0.0, 0.0]
    opt.zero_grad()
    assert a.grad is None and b.grad is None
    (a.sum()).backward()
    opt.zero_grad(set_to_none=False)
    assert a.grad.tolist() == [0.0, 0.0]
    with pytest.raises(ValueError, match="some parameters appear in more than one"):
        opt.add_param_group({"params": [a]})


def test_state_dict_round_trip_resumes_identically():
    make = lambda o, m: o.Adam(m.parameters(), lr=0.05)
    full, _ = trajectory(ag, make, steps=4)
    first, opt = trajectory(ag, make, steps=2)
    state = opt.state_dict()
    assert sorted(state["state"]) == [0, 1] and state["param_groups"][0]["params"] == [0, 1]
    params = opt.param_groups[0]["params"]
    fresh = optim.Adam(params, lr=0.05)
    fresh.load_state_dict(state)
    x, y = ag.tensor(X), ag.tensor(Y)
    model = nn.Linear(3, 2).double()
    model.weight, model.bias = params
    for step in range(2, 4):
        fresh.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        fresh.step()
        for a, b in zip(full[step], [p.detach().numpy() for p in params]):
            np.testing.assert_allclose(a, b, atol=1e-12)


def test_step_lr_matches_pytorch():
    def lrs(lib):
        p = lib.zeros(1, requires_grad=True)
        opt = lib.optim.SGD([p], lr=0.5)
        sched = lib.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)
        out = []
        for _ in range(8):
            p.grad = lib.zeros(1)
            opt.step()
            sched.step()
            out.append((opt.param_groups[0]["lr"], sched.get_last_lr()[0], sched.last_epoch))
        return out

    assert lrs(ag) == lrs(torch)


def test_note_000_sgd_step_changes_only_parameters_with_grad():
    lin1, lin2 = nn.Linear(2, 2), nn.Linear(2, 2)
    for p in lin1.parameters():
        p.requires_grad_(False)
    before = [p.detach().numpy().copy() for p in itertools.chain(lin1.parameters(),
                                                                  lin2.parameters())]
    opt = optim.SGD(list(lin1.parameters()) + list(lin2.parameters()), lr=1e-2, momentum=0.9)
    lin2(lin1(ag.ones(1, 2))).sum().backward()
    opt.step()
    after = [p.detach().numpy() for p in itertools.chain(lin1.parameters(), lin2.parameters())]
    assert [np.array_equal(a, b) for a, b in zip(before, after)] == [True, True, False, False]
