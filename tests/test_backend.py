"""The device logic, run on the CPU through a fake CuPy (tests/fake_cupy.py).

The fake's "GPU" arrays refuse to mix with NumPy arrays, as CuPy's do, so any op that forgets
to keep its work on the tensor's device fails here. The numbers themselves are NumPy's, so
results can be compared with the same computation on the CPU.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest
from fake_cupy import FakeCupyArray, make_module

import autograd_course as ag
from autograd_course import _backend


@pytest.fixture
def fake_cupy(monkeypatch):
    """Install the fake as the CuPy module the backend has loaded."""
    module = make_module()
    monkeypatch.setattr(_backend, "_cupy", module)
    return module


@pytest.fixture
def no_cupy(monkeypatch):
    """A machine where ``import cupy`` fails."""
    monkeypatch.setattr(_backend, "_cupy", None)
    monkeypatch.setitem(sys.modules, "cupy", None)  # makes the import raise ImportError


def on_gpu(t) -> bool:
    return str(t.device) == "cuda:0" and isinstance(t._data, FakeCupyArray)


# --- where tensors live ----------------------------------------------------------------------
def test_cuda_tensors_report_cuda_0(fake_cupy):
    x = ag.tensor([1., 2.], device="cuda")
    assert on_gpu(x) and x.is_cuda
    assert repr(x.device) == "device(type='cuda', index=0)"
    assert x.device == ag.device("cuda:0") == "cuda:0"
    assert ag.zeros(2).device == "cpu" and not ag.zeros(2).is_cuda


def test_cuda_repr(fake_cupy):
    x = ag.tensor([1., 2.], device="cuda", requires_grad=True)
    assert repr(x) == "tensor([1., 2.], device='cuda:0', requires_grad=True)"
    assert repr(x * 2) == "tensor([2., 4.], device='cuda:0', grad_fn=<MulBackward0>)"
    assert repr(ag.ones(2, dtype=ag.float64, device="cuda")) == (
        "tensor([1., 1.], device='cuda:0', dtype=torch.float64)"
    )
    assert repr(ag.tensor(3, device="cuda")) == "tensor(3, device='cuda:0')"


@pytest.mark.parametrize("make", [
    lambda: ag.tensor([1., 2.], device="cuda"),
    lambda: ag.as_tensor(np.ones(2), device="cuda"),
    lambda: ag.zeros(2, 2, device="cuda"),
    lambda: ag.ones(3, device="cuda:0"),
    lambda: ag.full((2,), 7., device="cuda"),
    lambda: ag.eye(2, device="cuda"),
    lambda: ag.arange(4, device="cuda"),
    lambda: ag.linspace(0, 1, 3, device="cuda"),
    lambda: ag.rand(2, device="cuda"),
    lambda: ag.randn(2, device=ag.device("cuda")),
    lambda: ag.randint(0, 5, (3,), device="cuda"),
    lambda: ag.zeros_like(ag.ones(2, device="cuda")),
    lambda: ag.randn_like(ag.ones(2, device="cuda")),
    lambda: ag.ones(2).cuda(),
    lambda: ag.ones(2).to("cuda"),
])
def test_factories_and_moves_make_device_tensors(fake_cupy, make):
    assert on_gpu(make())


def test_cuda_random_numbers_are_the_cpu_numbers(fake_cupy):
    """Our generator runs on the host; the same seed gives the same values on either device."""
    ag.manual_seed(7)
    cpu = ag.randn(4).tolist()
    ag.manual_seed(7)
    assert ag.randn(4, device="cuda").tolist() == cpu


OPS = [
    lambda a, b: a + b, lambda a, b: a - 2 * b, lambda a, b: a * b / (b + 3),
    lambda a, b: (a ** 2).sqrt() + a.abs(), lambda a, b: a.exp().log(),
    lambda a, b: a.sin() * b.cos() + a.tanh() + a.sigmoid() + a.relu(),
    lambda a, b: a.clamp(-0.5, 0.5), lambda a, b: a.sum() + b.mean(),
    lambda a, b: a.max(dim=1).values + a.argmax(dim=1), lambda a, b: a.norm() * b.var(),
    lambda a, b: a.reshape(3, 2).t() @ b.reshape(3, 2), lambda a, b: a @ b.T,
    lambda a, b: a.transpose(0, 1).flatten(), lambda a, b: a.permute(1, 0).unsqueeze(0),
    lambda a, b: a.unsqueeze(1).squeeze(1).expand(2, 2, 3), lambda a, b: a[0] + a[:, 1:].sum(),
    lambda a, b: a[[1, 0]] * a[a > 0].sum(), lambda a, b: ag.cat([a, b])[1:3] + ag.stack([a, b])[0],
    lambda a, b: ag.where(a > b, a, b),
    lambda a, b: ag.matmul(a[0], b[1]),
    lambda a, b: ag.maximum(a, b) + ag.minimum(a, a.new_zeros(())),
    lambda a, b: ag.nn.functional.binary_cross_entropy_with_logits(a, b.sigmoid()),
]


COMPARE = [lambda a, b: (a > b) | (a == b) & (a != 0), lambda a, b: ~(a < b).all() & (a >= 0)]


@pytest.mark.parametrize("op", OPS + COMPARE)
def test_ops_stay_on_the_device_and_agree_with_the_cpu(fake_cupy, op):
    ag.manual_seed(0)
    a, b = ag.randn(2, 3, dtype=ag.float64), ag.randn(2, 3, dtype=ag.float64)
    on_cpu = op(a, b)
    on_cuda = op(a.cuda(), b.cuda())
    assert on_gpu(on_cuda)
    assert on_cuda.dtype == on_cpu.dtype
    np.testing.assert_allclose(on_cuda.cpu().numpy(), on_cpu.numpy())


@pytest.mark.parametrize("op", OPS)
def test_backward_on_the_device(fake_cupy, op):
    ag.manual_seed(1)
    a, b = ag.randn(2, 3, dtype=ag.float64), ag.randn(2, 3, dtype=ag.float64)
    grads = []
    for device in ("cpu", "cuda"):
        x = a.to(device).detach().requires_grad_()
        y = b.to(device).detach().requires_grad_()
        op(x, y).sum().backward()
        grads.append((x.grad, y.grad))
    for cpu_grad, cuda_grad in zip(*grads):
        if cpu_grad is None:
            assert cuda_grad is None
            continue
        assert on_gpu(cuda_grad)
        np.testing.assert_allclose(cuda_grad.cpu().numpy(), cpu_grad.numpy())


def test_in_place_ops_on_the_device(fake_cupy):
    x = ag.zeros(3, device="cuda")
    x.add_(1)
    x.mul_(ag.tensor([1., 2., 3.], device="cuda"))
    x[0] = 10.
    x[1:] = ag.tensor([5., 6.], device="cuda")
    assert on_gpu(x) and x.tolist() == [10.0, 5.0, 6.0] and x._version == 4
    x.zero_()
    assert x.tolist() == [0.0, 0.0, 0.0]


def test_second_derivatives_on_the_device(fake_cupy):
    x = ag.tensor(2., device="cuda", requires_grad=True)
    (g,) = ag.autograd.grad(x ** 4, x, create_graph=True)
    (g2,) = ag.autograd.grad(g, x)
    assert on_gpu(g2) and (g.item(), g2.item()) == (32.0, 48.0)


def test_gradcheck_on_the_device(fake_cupy):
    x = ag.tensor([1., 2.], dtype=ag.float64, device="cuda", requires_grad=True)
    assert ag.autograd.gradcheck(lambda t: (t * t).exp(), (x,))


# --- moving between devices -------------------------------------------------------------------
def test_cpu_cuda_round_trip(fake_cupy):
    x = ag.tensor([1., 2.])
    y = x.to("cuda")
    assert on_gpu(y) and y.to("cuda") is y and y.cuda() is y
    back = y.cpu()
    assert back.device == "cpu" and type(back._data) is np.ndarray
    assert back.tolist() == [1.0, 2.0] and back.data_ptr() != x.data_ptr()


def test_gradient_flows_back_across_devices(fake_cupy):
    x = ag.tensor([1., 2.], requires_grad=True)
    y = x.to("cuda")
    assert repr(y) == "tensor([1., 2.], device='cuda:0', grad_fn=<ToCopyBackward0>)"
    (y * y).sum().backward()
    assert x.grad.device == "cpu" and repr(x.grad) == "tensor([2., 4.])"


def test_mixing_devices_is_refused(fake_cupy):
    message = ("^Expected all tensors to be on the same device, but found at least two devices, "
               "cuda:0 and cpu!$")
    with pytest.raises(RuntimeError, match=message):
        ag.ones(2, device="cuda") + ag.ones(2)
    with pytest.raises(RuntimeError, match=message):
        ag.ones(2, device="cuda").mul_(ag.ones(2))
    with pytest.raises(RuntimeError, match="^Expected all tensors to be on the same device, "
                                           "but found at least two devices, cpu and cuda:0!$"):
        ag.ones(2) @ ag.ones(2, device="cuda")
    assert on_gpu(ag.ones(2, device="cuda") * 3.0)  # Python numbers are fine


def test_numpy_of_a_cuda_tensor_says_use_cpu(fake_cupy):
    x = ag.ones(2, device="cuda")
    with pytest.raises(TypeError, match=r"^can't convert cuda:0 device type tensor to numpy\. Use "
                                        r"Tensor\.cpu\(\) to copy the tensor to host memory "
                                        r"first\.$"):
        x.numpy()
    assert x.cpu().numpy().tolist() == [1.0, 1.0]


def test_python_values_of_cuda_tensors(fake_cupy):
    x = ag.tensor([[1.5, 2.]], device="cuda")
    assert x.tolist() == [[1.5, 2.0]] and x[0, 0].item() == 1.5 and float(x[0, 1]) == 2.0
    assert bool(x[0, 0]) and np.asarray(x).tolist() == [[1.5, 2.0]]


def test_detach_and_data_share_device_memory(fake_cupy):
    x = ag.ones(2, device="cuda", requires_grad=True)
    assert x.detach().data_ptr() == x.data_ptr() and on_gpu(x.detach()) and on_gpu(x.data)


def test_a_missing_device_index_is_an_error(fake_cupy):
    with pytest.raises(RuntimeError, match="invalid device ordinal"):
        ag.ones(2, device="cuda:1")


# --- availability and seeding --------------------------------------------------------------
def test_is_available_with_the_fake(fake_cupy):
    assert ag.cuda.is_available() and ag.cuda.device_count() == 1


def test_is_available_without_cupy(no_cupy):
    assert ag.cuda.is_available() is False and ag.cuda.device_count() == 0
    assert ag.ones(2).tolist() == [1.0, 1.0]  # the CPU never needs CuPy


def test_missing_cupy_gives_a_clear_error(no_cupy):
    with pytest.raises(RuntimeError, match=r"^CUDA tensors need CuPy, which is not installed\. "
                                           r"Install the GPU extra with `pip install -e "
                                           r"\.\[gpu\]`"):
        ag.zeros(2, device="cuda")
    with pytest.raises(RuntimeError, match="CUDA tensors need CuPy"):
        ag.ones(2).cuda()


def test_cupy_is_imported_lazily_and_seeded_on_load(monkeypatch):
    module = make_module()
    monkeypatch.setattr(_backend, "_cupy", None)
    monkeypatch.setitem(sys.modules, "cupy", module)
    ag.manual_seed(11)
    assert _backend._cupy is None  # seeding the CPU does not import CuPy
    ag.ones(1, device="cuda")
    assert _backend._cupy is module and module.random.seeds == [11]


def test_manual_seed_seeds_a_loaded_cupy(fake_cupy):
    ag.manual_seed(3)
    ag.cuda.manual_seed(4)
    assert fake_cupy.random.seeds == [3, 4]


def test_the_fake_refuses_host_arrays_like_cupy(fake_cupy):
    """The fake is only useful if it fails where CuPy would."""
    with pytest.raises(TypeError, match="Unsupported type"):
        fake_cupy.asarray([1., 2.]) + np.ones(2)
