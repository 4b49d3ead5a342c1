"""The package's full backward hooks on the layers ``viz.GradientRecorder`` watches, against
PyTorch."""

from __future__ import annotations

import numpy as np
from oracle_helpers import assert_like_torch


def _weights(sizes, scale=None, seed=0, bias=0.1):
    """Seeded weights and biases; ``scale(fan_in)`` multiplies each weight (default: 1/fan_in
    ** 0.5, as nn.Linear's own initialisation roughly), ``bias`` each bias."""
    rng = np.random.default_rng(seed)
    scale = scale or (lambda fan_in: fan_in ** -0.5)
    values = []
    for fan_in, fan_out in zip(sizes, sizes[1:]):
        values.append(rng.standard_normal((fan_out, fan_in)) * scale(fan_in))
        values.append(rng.standard_normal(fan_out) * bias)
    return values


def _data(n, features, classes=4, seed=1):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((n, features)), rng.integers(0, classes, n)


# --- the package's full backward hooks on these layers --------------------------------------
def test_full_backward_hooks_see_torchs_gradients_on_the_recorders_layers():
    """grad_input and grad_output of every layer of an MLP with BatchNorm1d (makemore part 3's)
    and of the Sequential around them, in the order they arrive."""
    def case(m):
        nn = m.nn
        model = nn.Sequential(nn.Linear(3, 5), nn.BatchNorm1d(5), nn.Tanh(), nn.Linear(5, 2))
        model = model.double()
        with m.no_grad():
            for p, w in zip(model.parameters(), _weights((3, 5, 5, 2))[:2] + [np.ones(5),
                            np.zeros(5)] + _weights((5, 2), seed=3)):
                p.copy_(m.tensor(w))
        log = []
        for name, module in model.named_modules():
            module.register_full_backward_hook(lambda mod, gi, go, name=name: log.append(
                (name, [None if g is None else g for g in gi], list(go))))
        x = m.tensor(_data(8, 3)[0], requires_grad=True)
        (model(x) ** 2).sum().backward()
        return log

    assert_like_torch(case, rtol=1e-9)


def test_a_full_backward_hook_warns_as_torch_when_no_input_requires_grad():
    def case(m):
        linear = m.nn.Linear(2, 1)
        linear.register_full_backward_hook(lambda mod, gi, go: None)
        linear(m.ones(3, 2)).sum().backward()
        linear(m.ones(3, 2, requires_grad=True)).sum().backward()  # no warning
        return linear.weight.grad

    assert_like_torch(case, warns=True)
