"""ag.models.resnet18 against a ResNet-18 built from torch.nn modules with the same weights
(torchvision cannot be installed beside torch 2.13 here, so the reference below follows
torchvision's code), plus note 000's training step and fine-tuning example."""

from __future__ import annotations

import numpy as np
import pytest

import autograd_course as ag
from autograd_course import nn, optim
from autograd_course.models import resnet18

torch = pytest.importorskip("torch")
tnn = torch.nn


class TorchBasicBlock(tnn.Module):
    """torchvision.models.resnet.BasicBlock (same attribute names and order)."""

    expansion = 1

    def __init__(self, inplanes, planes, stride=1, downsample=None):
        super().__init__()
        self.conv1 = tnn.Conv2d(inplanes, planes, 3, stride, 1, bias=False)
        self.bn1 = tnn.BatchNorm2d(planes)
        self.relu = tnn.ReLU(inplace=True)
        self.conv2 = tnn.Conv2d(planes, planes, 3, 1, 1, bias=False)
        self.bn2 = tnn.BatchNorm2d(planes)
        self.downsample = downsample
        self.stride = stride

    def forward(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        if self.downsample is not None:
            identity = self.downsample(x)
        out += identity
        return self.relu(out)


class TorchResNet18(tnn.Module):
    """torchvision.models.resnet18's structure, names and initialisation."""

    def __init__(self, num_classes=1000):
        super().__init__()
        self.inplanes = 64
        self.conv1 = tnn.Conv2d(3, 64, kernel_size=7, stride=2, padding=3, bias=False)
        self.bn1 = tnn.BatchNorm2d(64)
        self.relu = tnn.ReLU(inplace=True)
        self.maxpool = tnn.MaxPool2d(kernel_size=3, stride=2, padding=1)
        self.layer1 = self._make_layer(64, 2)
        self.layer2 = self._make_layer(128, 2, 2)
        self.layer3 = self._make_layer(256, 2, 2)
        self.layer4 = self._make_layer(512, 2, 2)
        self.avgpool = tnn.AdaptiveAvgPool2d((1, 1))
        self.fc = tnn.Linear(512, num_classes)
        for m in self.modules():
            if isinstance(m, tnn.Conv2d):
                tnn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")
            elif isinstance(m, tnn.BatchNorm2d):
                tnn.init.constant_(m.weight, 1)
                tnn.init.constant_(m.bias, 0)

    def _make_layer(self, planes, blocks, stride=1):
        downsample = None
        if stride != 1 or self.inplanes != planes:
            downsample = tnn.Sequential(tnn.Conv2d(self.inplanes, planes, 1, stride, bias=False),
                                        tnn.BatchNorm2d(planes))
        layers = [TorchBasicBlock(self.inplanes, planes, stride, downsample)]
        self.inplanes = planes
        layers += [TorchBasicBlock(planes, planes) for _ in range(1, blocks)]
        return tnn.Sequential(*layers)

    def forward(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        return self.fc(torch.flatten(self.avgpool(x), 1))


@pytest.fixture(scope="module")
def pair():
    """Our resnet18 and the reference, same seed; both float64."""
    ag.manual_seed(0)
    torch.manual_seed(0)
    return resnet18().double(), TorchResNet18().double()


def test_parameter_count_names_and_repr(pair):
    ours, theirs = pair
    assert sum(p.numel() for p in ours.parameters()) == 11_689_512
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    assert list(ours.state_dict()) == list(theirs.state_dict())
    for name in ("conv1.weight", "bn1.running_mean", "layer1.0.conv1.weight",
                 "layer2.0.downsample.0.weight", "layer2.0.downsample.1.num_batches_tracked",
                 "fc.weight", "fc.bias"):
        assert name in ours.state_dict()
    assert repr(ours).replace("BasicBlock", "TorchBasicBlock").replace(
        "ResNet(", "TorchResNet18(", 1) == repr(theirs)


def test_initialisation_matches_pytorch_after_the_same_seed(pair):
    ours, theirs = pair  # built after manual_seed(0) in both libraries
    t_state = theirs.state_dict()
    for name, value in ours.state_dict().items():
        np.testing.assert_array_equal(value.numpy(), t_state[name].numpy(), err_msg=name)


def _copy(ours, theirs):
    ours.load_state_dict({k: v.detach().numpy() for k, v in theirs.state_dict().items()})


def test_forward_and_gradients_match_pytorch(pair):
    ours, theirs = pair
    _copy(ours, theirs)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3, 64, 64))
    g = rng.standard_normal((2, 1000))
    ax, tx = ag.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    ours.zero_grad()
    theirs.zero_grad()
    a_out, t_out = ours.train()(ax), theirs.train()(tx)
    np.testing.assert_allclose(a_out.detach().numpy(), t_out.detach().numpy(),
                               rtol=1e-9, atol=1e-10)
    assert a_out.grad_fn.name() == t_out.grad_fn.name() == "AddmmBackward0"
    a_out.backward(ag.tensor(g))
    t_out.backward(torch.tensor(g))
    t_params = dict(theirs.named_parameters())
    for name in ("conv1.weight", "fc.weight", "fc.bias", "layer2.0.downsample.0.weight"):
        a_grad, t_grad = ours.get_parameter(name).grad.numpy(), t_params[name].grad.numpy()
        np.testing.assert_allclose(a_grad, t_grad, rtol=1e-8, atol=1e-9 * np.abs(t_grad).max(),
                                   err_msg=name)
    for name, p in ours.named_parameters():  # and every other parameter
        t_grad = t_params[name].grad.numpy()
        np.testing.assert_allclose(p.grad.numpy(), t_grad, rtol=1e-7,
                                   atol=1e-9 * np.abs(t_grad).max(), err_msg=name)
    np.testing.assert_allclose(ax.grad.numpy(), tx.grad.numpy(), rtol=1e-7,
                               atol=1e-9 * np.abs(tx.grad.numpy()).max())
    t_state = theirs.state_dict()
    for name, value in ours.state_dict().items():  # running statistics moved the same way
        np.testing.assert_allclose(value.numpy(), t_state[name].numpy(), rtol=1e-10,
                                   atol=1e-12, err_msg=name)
    with ag.no_grad(), torch.no_grad():
        np.testing.assert_allclose(ours.eval()(ax).numpy(), theirs.eval()(tx).numpy(),
                                   rtol=1e-9, atol=1e-10)
    ours.train()


def test_weights_argument_loads_an_npz_state_dict(tmp_path, pair):
    """torchvision-style float32 weights exported with numpy.savez load as they are."""
    _, theirs = pair
    state = {k: (v.float() if v.is_floating_point() else v).detach().numpy()
             for k, v in theirs.state_dict().items()}
    path = tmp_path / "resnet18.npz"
    np.savez(path, **state)
    model = resnet18(weights=str(path)).eval()
    for name, value in model.state_dict().items():
        np.testing.assert_array_equal(value.numpy(), state[name], err_msg=name)
    reference = TorchResNet18()
    reference.load_state_dict({k: torch.tensor(v) for k, v in state.items()})
    x = np.random.default_rng(3).standard_normal((1, 3, 32, 32)).astype(np.float32)
    with ag.no_grad(), torch.no_grad():
        np.testing.assert_allclose(model(ag.tensor(x)).numpy(),
                                   reference.eval()(torch.tensor(x)).numpy(), rtol=1e-4,
                                   atol=1e-5)
    assert resnet18(num_classes=10).fc.out_features == 10


def test_note_000_training_step():
    """Note 000, verbatim apart from the names: forward, loss, backward, one SGD step."""
    model = resnet18()
    data = ag.rand(1, 3, 64, 64)
    labels = ag.rand(1, 1000)
    prediction = model(data)
    assert prediction.shape == (1, 1000) and prediction.grad_fn.name() == "AddmmBackward0"
    loss = (prediction - labels).sum()
    loss.backward()
    assert all(p.grad is not None and p.grad.shape == p.shape for p in model.parameters())
    before = {n: p.detach().numpy().copy() for n, p in model.named_parameters()}
    optimizer = optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
    optimizer.step()
    for name, p in model.named_parameters():
        expected = before[name] - 1e-2 * p.grad.numpy()  # first step: buffer = grad
        np.testing.assert_allclose(p.detach().numpy(), expected, rtol=1e-6, atol=1e-7)
    assert len(optimizer.state) == len(before)


@pytest.mark.parametrize("optimize_all", [False, True])
def test_fine_tuning_only_changes_the_new_head(optimize_all):
    model = resnet18()
    for param in model.parameters():  # freeze everything
        param.requires_grad = False
    model.fc = nn.Linear(512, 10)  # a new, trainable classifier
    assert [n for n, p in model.named_parameters() if p.requires_grad] == ["fc.weight",
                                                                          "fc.bias"]
    params = model.parameters() if optimize_all else model.fc.parameters()
    optimizer = optim.SGD(params, lr=1e-2, momentum=0.9)
    before = {n: p.detach().numpy().copy() for n, p in model.named_parameters()}
    prediction = model(ag.rand(2, 3, 64, 64))
    assert prediction.shape == (2, 10)
    nn.functional.cross_entropy(prediction, ag.tensor([3, 7])).backward()
    optimizer.step()
    for name, p in model.named_parameters():
        changed = not np.array_equal(before[name], p.detach().numpy())
        assert changed == name.startswith("fc."), name
        assert (p.grad is not None) == name.startswith("fc."), name
