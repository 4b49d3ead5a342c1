"""ag.nn.Module machinery: registration, naming, state dicts, modes, containers, reprs.

Reprs and error messages are compared with PyTorch's own (torch is the oracle)."""

from __future__ import annotations

import copy
import math
from collections import OrderedDict

import numpy as np
import pytest

import autograd_course as ag
from autograd_course import nn

torch = pytest.importorskip("torch")


class Net(nn.Module):
    def __init__(self, lib) -> None:
        super().__init__()
        self.fc1 = lib.Linear(4, 3)
        self.act = lib.ReLU()
        self.block = lib.Sequential(lib.Linear(3, 3), lib.BatchNorm1d(3))
        self.fc2 = lib.Linear(3, 2, bias=False)

    def forward(self, x):
        return self.fc2(self.block(self.act(self.fc1(x))))


class TorchNet(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = torch.nn.Linear(4, 3)
        self.act = torch.nn.ReLU()
        self.block = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.BatchNorm1d(3))
        self.fc2 = torch.nn.Linear(3, 2, bias=False)


def test_registration_order_and_dotted_names_match_pytorch():
    ours, theirs = Net(nn), TorchNet()
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    assert [n for n, _ in ours.named_buffers()] == [n for n, _ in theirs.named_buffers()]
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert [n for n, _ in ours.named_modules()] == [n for n, _ in theirs.named_modules()]
    assert [n for n, _ in ours.named_children()] == ["fc1", "act", "block", "fc2"]
    assert len(list(ours.children())) == 4 and len(list(ours.modules())) == 7
    assert all(isinstance(p, nn.Parameter) for p in ours.parameters())
    assert ours.get_submodule("block.1") is ours.block[1]
    assert ours.get_parameter("block.0.bias") is ours.block[0].bias


def test_parameters_are_registered_on_assignment_and_replaced():
    m = nn.Module()
    m.w = nn.Parameter(ag.ones(2))
    m.sub = nn.Linear(2, 2)
    m.plain = ag.ones(2)  # a plain tensor is an ordinary attribute, not a parameter
    assert [n for n, _ in m.named_parameters()] == ["w", "sub.weight", "sub.bias"]
    m.sub = nn.Identity()  # replacing a sub-module drops its parameters
    assert [n for n, _ in m.named_parameters()] == ["w"]
    del m.w
    assert list(m.parameters()) == []
    with pytest.raises(AttributeError, match="'Module' object has no attribute 'nothing'"):
        m.nothing


def test_shared_parameter_listed_once():
    lin = nn.Linear(2, 2)
    seq = nn.Sequential(lin, nn.ReLU(), lin)
    assert len(list(seq.parameters())) == 2
    assert list(seq.state_dict()) == ["0.weight", "0.bias", "2.weight", "2.bias"]


def test_assigning_a_tensor_to_a_parameter_slot_is_pytorchs_type_error():
    with pytest.raises(TypeError) as ours:
        nn.Linear(2, 2).weight = ag.zeros(2, 2)
    with pytest.raises(TypeError) as theirs:
        torch.nn.Linear(2, 2).weight = torch.zeros(2, 2)
    assert str(ours.value) == str(theirs.value)


def test_parameter_before_init_is_an_error():
    class Bad(nn.Module):
        def __init__(self):
            self.w = nn.Parameter(ag.ones(1))

    with pytest.raises(AttributeError, match="before Module.__init__"):
        Bad()


def test_forward_missing_message():
    with pytest.raises(NotImplementedError, match=r'Module \[Module\] is missing the required'):
        nn.Module()(ag.ones(1))


def test_parameter_repr_matches_pytorch():
    for data in ([[0.25, -1.5], [3.0, 0.0]], [1.0, 2.0]):
        for rg in (True, False):
            ours = nn.Parameter(ag.tensor(data), requires_grad=rg)
            theirs = torch.nn.Parameter(torch.tensor(data), requires_grad=rg)
            assert repr(ours) == repr(theirs)
            assert str(ours) == str(theirs)
    ours = nn.Parameter(ag.tensor([1.0, 2.0], dtype=ag.float64))
    assert repr(ours) == repr(torch.nn.Parameter(torch.tensor([1.0, 2.0], dtype=torch.float64)))


def test_parameter_shares_memory_and_is_a_leaf():
    t = ag.zeros(3)
    p = nn.Parameter(t)
    assert p.requires_grad and p.is_leaf and p.grad_fn is None
    t.fill_(2.0)
    assert p.tolist() == [2.0, 2.0, 2.0]
    assert type(p * 2) is ag.Tensor  # results of ops are plain tensors
    with pytest.raises(RuntimeError, match="floating point"):
        nn.Parameter(ag.tensor([1, 2]))


def test_deepcopy_keeps_parameters_and_values():
    m = nn.Sequential(nn.Linear(3, 2), nn.BatchNorm1d(2))
    c = copy.deepcopy(m)
    assert all(isinstance(p, nn.Parameter) for p in c.parameters())
    for (n1, p1), (n2, p2) in zip(m.state_dict().items(), c.state_dict().items()):
        assert n1 == n2 and np.array_equal(p1.numpy(), p2.numpy())
    c[0].weight.data.fill_(0.0)
    assert not np.all(m[0].weight.detach().numpy() == 0)


@pytest.mark.parametrize("make", [
    lambda lib: lib.Linear(5, 3),
    lambda lib: lib.Linear(5, 3, bias=False),
    lambda lib: lib.Conv2d(3, 8, 3, padding=1, bias=False),
    lambda lib: lib.Conv2d(3, 8, (3, 1), stride=2, dilation=2),
    lambda lib: lib.Conv2d(4, 8, 3, groups=2, padding="same"),
    lambda lib: lib.MaxPool2d(3, 2, 1),
    lambda lib: lib.MaxPool2d(2),
    lambda lib: lib.AvgPool2d(2),
    lambda lib: lib.AdaptiveAvgPool2d((1, 1)),
    lambda lib: lib.AdaptiveAvgPool2d(1),
    lambda lib: lib.BatchNorm1d(4),
    lambda lib: lib.BatchNorm2d(64, momentum=None, affine=False),
    lambda lib: lib.ReLU(), lambda lib: lib.ReLU(inplace=True), lambda lib: lib.Sigmoid(),
    lambda lib: lib.Tanh(), lambda lib: lib.Softmax(dim=1), lambda lib: lib.Softmax(),
    lambda lib: lib.LogSoftmax(dim=-1), lambda lib: lib.Flatten(), lambda lib: lib.Dropout(),
    lambda lib: lib.Dropout(0.2, inplace=True), lambda lib: lib.Identity(),
    lambda lib: lib.CrossEntropyLoss(), lambda lib: lib.MSELoss(), lambda lib: lib.L1Loss(),
    lambda lib: lib.NLLLoss(), lambda lib: lib.BCELoss(), lambda lib: lib.BCEWithLogitsLoss(),
    lambda lib: lib.Sequential(lib.Linear(2, 2), lib.ReLU(), lib.Linear(2, 2)),
    lambda lib: lib.Sequential(lib.Sequential(lib.Linear(2, 2)), lib.Identity()),
    lambda lib: lib.ModuleList([lib.Linear(2, 2), lib.Linear(2, 2), lib.ReLU()]),
    lambda lib: lib.ModuleList([lib.ReLU(), lib.Linear(2, 2), lib.Linear(2, 2), lib.Tanh()]),
    lambda lib: lib.ModuleList(), lambda lib: lib.Sequential(), lambda lib: lib.Module(),
])
def test_module_repr_matches_pytorch(make):
    assert repr(make(nn)) == repr(make(torch.nn))


def test_sequential_indexing_assignment_len_and_slices():
    seq = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
    assert len(seq) == 3 and isinstance(seq[-1], nn.Linear) and isinstance(seq[1], nn.ReLU)
    seq[1] = nn.Tanh()
    assert isinstance(seq[1], nn.Tanh) and [n for n, _ in seq.named_children()] == ["0", "1", "2"]
    head = seq[:2]
    assert isinstance(head, nn.Sequential) and len(head) == 2 and head[0] is seq[0]
    del seq[0]
    assert [n for n, _ in seq.named_children()] == ["0", "1"] and isinstance(seq[0], nn.Tanh)
    seq.append(nn.Sigmoid())
    assert len(seq) == 3
    with pytest.raises(IndexError, match="index 3 is out of range"):
        seq[3]
    named = nn.Sequential(OrderedDict([("first", nn.Linear(2, 2)), ("act", nn.ReLU())]))
    assert [n for n, _ in named.named_parameters()] == ["first.weight", "first.bias"]
    assert named(ag.ones(1, 2)).shape == (1, 2)


def test_module_list():
    ml = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])
    assert len(ml) == 3 and len(list(ml.parameters())) == 6
    ml.append(nn.ReLU())
    ml[0] = nn.Identity()
    assert isinstance(ml[0], nn.Identity) and isinstance(ml[-1], nn.ReLU)
    assert [n for n, _ in ml.named_parameters()] == ["1.weight", "1.bias", "2.weight", "2.bias"]


def test_train_eval_propagate():
    m = Net(nn)
    assert m.training and m.block[1].training
    assert m.eval() is m
    assert not any(mod.training for mod in m.modules())
    m.train()
    assert all(mod.training for mod in m.modules())


def test_zero_grad_sets_none_and_requires_grad_freezes():
    m = Net(nn)
    m(ag.randn(4, 4)).sum().backward()
    assert all(p.grad is not None for p in m.parameters())
    m.zero_grad()
    assert all(p.grad is None for p in m.parameters())
    m(ag.randn(4, 4)).sum().backward()
    m.zero_grad(set_to_none=False)
    assert all(np.all(p.grad.numpy() == 0) for p in m.parameters())
    assert m.requires_grad_(False) is m
    assert not any(p.requires_grad for p in m.parameters())


def test_state_dict_round_trip_with_tensors_and_numpy():
    src, dst = Net(nn), Net(nn)
    src(ag.randn(5, 4))  # moves BatchNorm's running statistics
    as_numpy = {k: v.numpy() for k, v in src.state_dict().items()}
    result = dst.load_state_dict(as_numpy)
    assert repr(result) == "<All keys matched successfully>"
    for k, v in dst.state_dict().items():
        assert np.array_equal(v.numpy(), as_numpy[k])
    dst2 = Net(nn)
    dst2.load_state_dict(src.state_dict())
    assert dst2.block[1].num_batches_tracked.item() == 1
    # state_dict entries share memory with the module (detached)
    sd = dst2.state_dict()
    assert sd["fc1.weight"].data_ptr() == dst2.fc1.weight.data_ptr()
    assert not sd["fc1.weight"].requires_grad


def test_load_state_dict_errors_match_pytorch():
    bad = {"weight": np.zeros((3, 4), np.float32), "extra": np.zeros(1, np.float32)}
    with pytest.raises(RuntimeError) as ours:
        nn.Linear(5, 3).load_state_dict(bad)
    with pytest.raises(RuntimeError) as theirs:
        torch.nn.Linear(5, 3).load_state_dict({k: torch.tensor(v) for k, v in bad.items()})
    assert str(ours.value) == str(theirs.value)
    assert "Missing key(s) in state_dict: \"bias\"" in str(ours.value)
    shape_only = {"0.weight": np.zeros((3, 4), np.float32), "0.bias": np.zeros(3, np.float32)}
    with pytest.raises(RuntimeError) as ours:
        nn.Sequential(nn.Linear(5, 3)).load_state_dict(shape_only)
    with pytest.raises(RuntimeError) as theirs:
        torch.nn.Sequential(torch.nn.Linear(5, 3)).load_state_dict(
            {k: torch.tensor(v) for k, v in shape_only.items()})
    assert str(ours.value) == str(theirs.value)


def test_load_state_dict_non_strict_reports_keys_and_copies_nothing_on_error():
    lin = nn.Linear(2, 2)
    before = lin.weight.detach().numpy().copy()
    result = lin.load_state_dict({"weight": np.ones((2, 2)), "junk": np.ones(1)}, strict=False)
    assert result.missing_keys == ["bias"] and result.unexpected_keys == ["junk"]
    assert np.all(lin.weight.detach().numpy() == 1)
    lin.weight.data.copy_(ag.tensor(before))
    with pytest.raises(RuntimeError, match="size mismatch for bias"):
        lin.load_state_dict({"weight": np.ones((2, 2)), "bias": np.ones(3)})
    assert np.array_equal(lin.weight.detach().numpy(), before)  # all or nothing


def test_to_double_float_keep_parameter_identity():
    m = Net(nn)
    weight = m.fc1.weight
    assert m.double() is m
    assert m.fc1.weight is weight and weight.dtype == ag.float64
    assert m.block[1].running_mean.dtype == ag.float64
    assert m.block[1].num_batches_tracked.dtype == ag.int64  # integers are not cast
    out = m(ag.randn(3, 4, dtype=ag.float64))
    assert out.dtype == ag.float64
    m.float()
    assert weight.dtype == ag.float32
    assert m.to("cpu") is m


def test_forward_hooks():
    lin = nn.Linear(2, 2)
    seen = []
    handle = lin.register_forward_hook(lambda mod, inp, out: seen.append(out.shape))
    lin(ag.ones(3, 2))
    handle.remove()
    lin(ag.ones(1, 2))
    assert seen == [(3, 2)]
    pre = lin.register_forward_pre_hook(lambda mod, inp: (inp[0] * 0,))
    assert np.allclose(lin(ag.ones(1, 2)).detach().numpy(), lin.bias.detach().numpy())
    pre.remove()


def test_apply_visits_children_before_parent():
    order = []
    m = nn.Sequential(nn.Sequential(nn.Linear(1, 1), nn.ReLU()), nn.Tanh())
    m.apply(lambda mod: order.append(type(mod).__name__))
    t = torch.nn.Sequential(torch.nn.Sequential(torch.nn.Linear(1, 1), torch.nn.ReLU()),
                            torch.nn.Tanh())
    expected = []
    t.apply(lambda mod: expected.append(type(mod).__name__))
    assert order == expected


def test_init_functions_match_pytorch_after_seed():
    cases = [
        (lambda t, lib: lib.kaiming_uniform_(t, a=math.sqrt(5)), (6, 4)),
        (lambda t, lib: lib.kaiming_normal_(t, mode="fan_out", nonlinearity="relu"),
         (8, 3, 3, 3)),
        (lambda t, lib: lib.xavier_uniform_(t, gain=lib.calculate_gain("tanh")), (5, 7)),
        (lambda t, lib: lib.xavier_normal_(t), (20, 30)),
        (lambda t, lib: lib.uniform_(t, -2.0, 3.0), (4, 5)),
        (lambda t, lib: lib.normal_(t, 1.0, 0.5), (3, 40)),
    ]
    for dtype, tdtype in ((ag.float32, torch.float32), (ag.float64, torch.float64)):
        for fn, shape in cases:
            ag.manual_seed(7)
            torch.manual_seed(7)
            ours = fn(ag.empty(*shape, dtype=dtype), nn.init)
            theirs = fn(torch.empty(*shape, dtype=tdtype), torch.nn.init)
            assert np.array_equal(ours.numpy(), theirs.numpy())
    for name, param in [("relu", None), ("leaky_relu", 0.2), ("tanh", None), ("selu", None),
                        ("conv2d", None), ("sigmoid", None)]:
        assert nn.init.calculate_gain(name, param) == torch.nn.init.calculate_gain(name, param)
    with pytest.raises(ValueError, match="fewer than 2 dimensions"):
        nn.init.kaiming_uniform_(ag.empty(3))


def test_linear_and_conv_default_init_match_pytorch_after_seed():
    ag.manual_seed(0)
    torch.manual_seed(0)
    ours, theirs = nn.Linear(5, 3), torch.nn.Linear(5, 3)
    assert np.array_equal(ours.weight.detach().numpy(), theirs.weight.detach().numpy())
    assert np.array_equal(ours.bias.detach().numpy(), theirs.bias.detach().numpy())
    ours, theirs = nn.Conv2d(3, 4, 3), torch.nn.Conv2d(3, 4, 3)
    assert np.array_equal(ours.weight.detach().numpy(), theirs.weight.detach().numpy())
    assert np.array_equal(ours.bias.detach().numpy(), theirs.bias.detach().numpy())
    ours = nn.Linear(4, 2, dtype=ag.float64)
    theirs = torch.nn.Linear(4, 2, dtype=torch.float64)
    assert np.array_equal(ours.weight.detach().numpy(), theirs.weight.detach().numpy())
    assert ag.rand(3).tolist() == torch.rand(3).tolist()  # same number of draws consumed
