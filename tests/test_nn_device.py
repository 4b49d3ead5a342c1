"""Layers, losses, optimizers and ResNet on the CUDA code path, run on the CPU through the
fake CuPy of tests/fake_cupy.py: every array must stay on the "device" and the gradients
must equal the CPU ones."""

from __future__ import annotations

import types

import numpy as np
import pytest
from fake_cupy import FakeCupyArray, make_module

import autograd_course as ag
from autograd_course import _backend, nn, optim


@pytest.fixture
def fake_cupy(monkeypatch):
    module = make_module()
    # CuPy's as_strided returns a device view; NumPy's (which the fake forwards to) would
    # return a host array unless asked to keep the subclass.
    module.lib = types.SimpleNamespace(stride_tricks=types.SimpleNamespace(
        as_strided=lambda x, shape, strides: np.lib.stride_tricks.as_strided(
            x, shape, strides, subok=True)))
    monkeypatch.setattr(_backend, "_cupy", module)
    return module


def on_device(t) -> bool:
    return str(t.device) == "cuda:0" and isinstance(t._data, FakeCupyArray)


@pytest.mark.parametrize("make,shape", [
    (lambda: nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2), nn.Softmax(1)), (5, 4)),
    (lambda: nn.Sequential(nn.Conv2d(2, 4, 3, padding=1), nn.BatchNorm2d(4),
                           nn.ReLU(inplace=True), nn.MaxPool2d(2), nn.AvgPool2d(2),
                           nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten(), nn.BatchNorm1d(4)),
     (3, 2, 8, 8)),
    (lambda: nn.Sequential(nn.Conv2d(3, 2, 3, stride=2, groups=1), nn.AdaptiveAvgPool2d((2, 3))),
     (2, 3, 9, 9)),
    (lambda: ag.models.resnet18(num_classes=3), (2, 3, 32, 32)),
])
def test_model_on_cuda_matches_cpu(fake_cupy, make, shape):
    ag.manual_seed(0)
    model = make()
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    model(ag.tensor(x)).sum().backward()
    cpu_grads = [p.grad.numpy().copy() for p in model.parameters()]
    cpu_state = {k: v.numpy().copy() for k, v in model.state_dict().items()}
    model.load_state_dict({k: v for k, v in cpu_state.items()})  # undo the stats update
    model.zero_grad()
    assert model.to("cuda") is model
    assert all(on_device(t) for t in model.state_dict().values())
    out = model(ag.tensor(x).to("cuda"))
    assert on_device(out)
    out.sum().backward()
    for p, g in zip(model.parameters(), cpu_grads):
        assert on_device(p) and on_device(p.grad)
        np.testing.assert_allclose(p.grad.cpu().numpy(), g, rtol=1e-4, atol=1e-5)
    for make_opt in (lambda ps: optim.SGD(ps, lr=0.1, momentum=0.9, weight_decay=0.1),
                     lambda ps: optim.AdamW(ps, amsgrad=True)):
        opt = make_opt(model.parameters())
        opt.step()
        opt.step()
        assert all(on_device(p) for p in model.parameters())


def test_losses_on_cuda(fake_cupy):
    x = ag.randn(4, 3)
    t = ag.tensor([0, 2, 1, 1])
    for fn, args in [(nn.functional.cross_entropy, (x, t)),
                     (nn.functional.mse_loss, (x, x * 2)),
                     (nn.functional.l1_loss, (x, x * 2)),
                     (nn.functional.binary_cross_entropy, (x.sigmoid(), (x * 2).sigmoid())),
                     (nn.functional.binary_cross_entropy_with_logits, (x, (x * 2).sigmoid()))]:
        cpu = fn(*args)
        gpu = fn(*(a.to("cuda") for a in args))
        assert on_device(gpu)
        assert gpu.item() == pytest.approx(cpu.item(), rel=1e-6)


def test_layers_created_on_cuda_and_dropout(fake_cupy):
    ag.manual_seed(1)
    lin = nn.Linear(3, 2, device="cuda")
    ag.manual_seed(1)
    ref = nn.Linear(3, 2)
    assert on_device(lin.weight)
    assert np.array_equal(lin.weight.cpu().detach().numpy(), ref.weight.detach().numpy())
    out = nn.functional.dropout(ag.ones(10, device="cuda"), 0.5)
    assert on_device(out)
