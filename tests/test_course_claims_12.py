"""What chapter 12 (gradient health) says about PyTorch, checked against PyTorch itself.

Each test runs the chapter's example with our package and with ``torch`` (the oracle) and
asserts the claim for both: ``calculate_gain`` is 5/3 for tanh, sqrt(2) for ReLU,
sqrt(2 / (1 + a²)) for a leaky ReLU, 1 for linear and sigmoid; E[tanh(z)²] ≈ 0.394 (so
1/sqrt of it ≈ 1.59, close to 5/3) and E[relu(z)²] = 1/2 for z ~ N(0, 1); tanh passes back
under 1% of the gradient at an input of 3; a too-small gain makes the first layer's gradients
over ten times smaller than the last one's, 5/3 keeps them within 1.5x, a too-large gain
saturates over half of the later layers' outputs; training-mode BatchNorm ignores the scale of
its input and makes gains 0.5 and 5 the same network; a residual connection keeps the gradients
of a gain-0.5 network within 1.5x; a gain-1.5 linear chain's gradients explode;
``clip_grad_norm_`` returns the total norm from before clipping, scales by
max_norm / (total + 1e-6) clamped to 1 (nothing changes below max_norm), takes the largest
absolute entry for ``norm_type=inf``, and skips parameters whose ``.grad`` is None.
"""

from __future__ import annotations

import math

import pytest

import autograd_course as ag


@pytest.fixture(params=["ag", "torch"])
def lib(request):
    """Our package, then PyTorch (the second is skipped where torch is not installed)."""
    return ag if request.param == "ag" else request.getfixturevalue("torch_oracle")


def test_calculate_gain(lib):
    gain = lib.nn.init.calculate_gain
    assert gain("tanh") == 5 / 3 and gain("relu") == math.sqrt(2.0)
    assert gain("linear") == 1 and gain("sigmoid") == 1
    assert math.isclose(gain("leaky_relu"), math.sqrt(2 / (1 + 0.01 ** 2)))
    assert math.isclose(gain("leaky_relu", 0.2), math.sqrt(2 / (1 + 0.2 ** 2)))


def test_the_gain_derived_from_the_variance(lib):
    lib.manual_seed(0)
    z = lib.randn(1_000_000)
    var_tanh = z.tanh().pow(2).mean().item()
    assert abs(var_tanh - 0.394) < 0.002
    assert abs(1 / math.sqrt(var_tanh) - 1.59) < 0.01 < abs(1 / math.sqrt(var_tanh) - 5 / 3)
    assert abs(z.relu().pow(2).mean().item() - 0.5) < 0.01
    assert (1 - z.tanh() ** 2).mean().item() < 1


def test_tanh_saturated_passes_little_gradient(lib):
    u = lib.tensor(3.0, requires_grad=True)
    u.tanh().backward()
    assert math.isclose(u.grad.item(), 1 - math.tanh(3.0) ** 2, rel_tol=1e-5)
    assert u.grad.item() < 0.01


def _mlp(lib, gain, norm=False, residual=False):
    nn = lib.nn

    class Residual(nn.Module):
        def __init__(self, width):
            super().__init__()
            self.linear = nn.Linear(width, width)
            nn.init.normal_(self.linear.weight, 0.0, gain / math.sqrt(width))
            nn.init.zeros_(self.linear.bias)

        def forward(self, x):
            return x + self.linear(x).tanh()

    lib.manual_seed(1)
    if residual:
        return nn.Sequential(nn.Linear(64, 100), *[Residual(100) for _ in range(5)],
                             nn.Linear(100, 10))
    layers, fan_in = [], 64
    for _ in range(5):
        linear = nn.Linear(fan_in, 100, bias=not norm)
        nn.init.normal_(linear.weight, 0.0, gain / math.sqrt(fan_in))
        if not norm:
            nn.init.zeros_(linear.bias)
        layers += [linear] + ([nn.BatchNorm1d(100)] if norm else []) + [nn.Tanh()]
        fan_in = 100
    return nn.Sequential(*layers, nn.Linear(fan_in, 10))


def _tanh_outputs_and_grads(lib, model):
    """The outputs of each tanh (each residual block's tanh) and their gradients, after one
    backward of the chapter's loss, with tensor hooks as the recorder uses."""
    lib.manual_seed(0)
    X = lib.randn(512, 64)
    y = (X @ lib.randn(64, 10)).argmax(1)
    outs = []

    def keep(module, inputs, output):
        output.retain_grad()
        outs.append(output)

    handles = [m.register_forward_hook(keep) for m in model.modules()
               if isinstance(m, lib.nn.Tanh)]
    if not handles:  # residual blocks: hook the block, whose output is x + tanh(...)
        handles = [m.register_forward_hook(keep) for m in model.modules()
                   if type(m).__name__ == "Residual"]
    lib.nn.functional.cross_entropy(model(X), y).backward()
    for h in handles:
        h.remove()
    return outs


def _grad_stds(outs):
    return [o.grad.std().item() for o in outs]


def test_too_small_gain_vanishes_and_5_3_keeps_the_gradients_steady(lib):
    small = _grad_stds(_tanh_outputs_and_grads(lib, _mlp(lib, 0.5)))
    assert small[-1] / small[0] > 10
    right = _grad_stds(_tanh_outputs_and_grads(lib, _mlp(lib, 5 / 3)))
    assert max(right) / min(right) < 1.5


def test_too_large_gain_saturates_the_later_layers(lib):
    outs = _tanh_outputs_and_grads(lib, _mlp(lib, 5.0))
    for o in outs[2:]:
        assert (o.detach().abs() > 0.97).float().mean().item() > 0.5


def test_batchnorm_makes_the_gain_irrelevant_in_training_mode(lib):
    small = _grad_stds(_tanh_outputs_and_grads(lib, _mlp(lib, 0.5, norm=True)))
    large = _grad_stds(_tanh_outputs_and_grads(lib, _mlp(lib, 5.0, norm=True)))
    assert max(small) / min(small) < 1.5
    assert all(math.isclose(a, b, rel_tol=1e-3) for a, b in zip(small, large))
    lib.manual_seed(3)
    bn = lib.nn.BatchNorm1d(4)
    v = lib.randn(16, 4)
    assert bn.training and (bn(10 * v) - bn(v)).abs().max().item() < 1e-3


def test_a_residual_connection_keeps_a_small_gain_from_vanishing(lib):
    model = _mlp(lib, 0.5, residual=True)
    stds = _grad_stds(_tanh_outputs_and_grads(lib, model))
    assert len(stds) == 5 and max(stds) / min(stds) < 1.5


def _chain_total(lib, gain):
    lib.manual_seed(2)
    chain = lib.nn.Sequential(*[lib.nn.Linear(32, 32, bias=False) for _ in range(20)])
    for linear in chain:
        lib.nn.init.normal_(linear.weight, 0.0, gain / math.sqrt(32))
    chain(lib.randn(64, 32)).pow(2).mean().backward()
    params = list(chain.parameters())
    return params, math.sqrt(sum(p.grad.pow(2).sum().item() for p in params))


def test_a_gain_above_one_explodes_and_clipping_returns_the_norm_before(lib):
    _, total_one = _chain_total(lib, 1.0)
    params, total = _chain_total(lib, 1.5)
    assert total > 1e4 * total_one
    returned = lib.nn.utils.clip_grad_norm_(params, max_norm=1.0)
    after = math.sqrt(sum(p.grad.pow(2).sum().item() for p in params))
    assert math.isclose(returned.item(), total, rel_tol=1e-4)
    assert math.isclose(after, total / (total + 1e-6), rel_tol=1e-4)


def test_clip_grad_norm_1e6_below_max_norm_inf_and_none(lib):
    w = lib.tensor([3.0, 4.0], dtype=lib.float64, requires_grad=True)
    w.grad = lib.tensor([0.003, 0.004], dtype=lib.float64)  # total 0.005
    returned = lib.nn.utils.clip_grad_norm_([w], max_norm=0.001)
    assert math.isclose(returned.item(), 0.005, rel_tol=1e-12)
    coefficient = 0.001 / (0.005 + 1e-6)  # not 0.001 / 0.005
    assert lib.allclose(w.grad, lib.tensor([0.003, 0.004], dtype=lib.float64) * coefficient,
                        rtol=1e-12, atol=0)
    assert not lib.allclose(w.grad, lib.tensor([0.0006, 0.0008], dtype=lib.float64),
                            rtol=1e-9, atol=0)
    u = lib.tensor([3.0, 4.0], requires_grad=True)
    u.grad = lib.tensor([0.3, 0.4])  # total 0.5 < max_norm: left as it is
    assert math.isclose(lib.nn.utils.clip_grad_norm_([u], max_norm=1.0).item(), 0.5,
                        rel_tol=1e-6)
    assert lib.equal(u.grad, lib.tensor([0.3, 0.4]))
    a, b = lib.zeros(2, requires_grad=True), lib.zeros(2, requires_grad=True)
    a.grad, b.grad = lib.tensor([3.0, -4.0]), lib.tensor([1.0, 2.0])
    none = lib.zeros(3, requires_grad=True)
    assert none.grad is None
    total = lib.nn.utils.clip_grad_norm_([a, none, b], max_norm=10.0, norm_type=math.inf)
    assert total.item() == 4.0 and none.grad is None
