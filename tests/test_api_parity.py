"""Everyday PyTorch idioms (issue 14), each checked against PyTorch itself: formatting,
NumPy operands, narrow/stride/contiguity, new_* factories, type_as, where(cond), softmax's
dtype=, dtype attributes, grad-mode decorators, devices and the accelerator, new modules."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from ops_helpers import assert_same, error_of

import autograd_course as ag


def both(fn):
    """``fn(m)`` for ag and torch."""
    return fn(ag), fn(torch)


# --- __format__ ----------------------------------------------------------------------------
@pytest.mark.parametrize("spec", ["", ".4f", ">10.2e", "+.1f", "g"])
@pytest.mark.parametrize("value", [3.14159, -0.000123, 12345.678])
def test_format_of_a_0d_tensor_is_its_number(value, spec):
    ours, theirs = both(lambda m: format(m.tensor(value) * 2, spec))
    assert ours == theirs


def test_format_of_int_bool_and_nd_tensors():
    ours, theirs = both(lambda m: (f"{m.tensor(3)}", f"{m.tensor(True)}", f"{m.tensor(7):04d}",
                                   f"{m.ones(2, requires_grad=True)}", f"{m.zeros(2, 2)}"))
    assert ours == theirs
    assert error_of(lambda: f"{ag.ones(2):.2f}") == error_of(lambda: f"{torch.ones(2):.2f}")
    ours, theirs = both(
        lambda m: (f"{m.nn.Parameter(m.tensor(1.5))}",
                   error_of(lambda: f"{m.nn.Parameter(m.tensor(1.5)):.2f}")))
    assert ours == theirs


# --- NumPy operands --------------------------------------------------------------------------
NUMPY_CASES = [
    "t + np.array([1.0, 2.0, 3.0])", "t + np.array([1, 2, 3])", "t * np.array(2.0)",
    "t - np.array([1, 2, 3], dtype=np.int32)", "t / np.array([2.0, 4.0, 8.0], np.float32)",
    "i + np.array([1, 2, 3])", "i * np.array([1.5, 2.0, 0.5])", "t + np.float64(1.5)",
    "t * np.bool_(True)", "np.bool_(False) + t", "np.float64(2) * i", "np.int64(3) - t",
    "i // np.int64(2)", "t % np.float32(0.75)", "t ** np.int64(2)", "np.float32(2) / t",
    "g * np.float64(2.0)", "np.float32(1.0) - g", "g + np.bool_(True)",
]


@pytest.mark.parametrize("expr", NUMPY_CASES)
def test_numpy_values_next_to_a_tensor(expr):
    def run(m):
        env = {"np": np, "t": m.tensor([1.5, -2.0, 4.0]), "i": m.tensor([3, -4, 5]),
               "g": m.tensor([1.0, 2.0, 3.0], requires_grad=True)}
        return eval(expr, env)

    ours, theirs = both(run)
    assert_same(ours, theirs)
    if theirs.grad_fn is not None:
        assert ours.grad_fn.name() == theirs.grad_fn.name()


def test_numpy_array_next_to_a_tensor_that_requires_grad_is_refused_like_torch():
    ours, theirs = both(lambda m: error_of(
        lambda: m.ones(2, requires_grad=True) + np.array([1.0, 2.0])))
    assert ours == theirs


# --- layout: narrow, stride, is_contiguous, contiguous -----------------------------------------
@pytest.mark.parametrize("expr", [
    "x.narrow(0, 1, 2)", "x.narrow(1, 0, 3)", "x.narrow(-1, -3, 2)", "x.narrow(1, 4, 0)",
])
def test_narrow(expr):
    def run(m):
        x = m.tensor(np.arange(12.0).reshape(3, 4), requires_grad=True)
        y = eval(expr, {"x": x})
        (y * 2).sum().backward()
        return y, x.grad, y.grad_fn.name()

    (y_o, g_o, n_o), (y_t, g_t, n_t) = both(run)
    assert_same(y_o, y_t)
    assert_same(g_o, g_t)
    assert n_o == n_t == "SliceBackward0"


def test_narrow_out_of_range_error():
    ours, theirs = both(lambda m: error_of(lambda: m.ones(3, 4).narrow(1, 2, 3)))
    assert ours == theirs


@pytest.mark.parametrize("expr", [
    "x", "x.t()", "x[:, 1:]", "x[::2]", "x.unsqueeze(1)", "x.permute(1, 0)",
    "x.t().contiguous()", "x[0]", "x.expand(2, 3, 4)", "x.reshape(4, 3)", "x.transpose(0, 1)[1]",
    "m.zeros(0, 3)", "m.tensor(5.0)", "x[:, :1]", "x[1:2]", "x[:, 2]", "x.t()[:1]",
])
def test_stride_and_contiguity(expr):
    def run(m):
        x = m.ones(3, 4)
        y = eval(expr, {"x": x, "m": m})
        return y.stride(), y.is_contiguous(), y.contiguous().is_contiguous(), \
            y.stride(0) if y.ndim else None

    ours, theirs = both(run)
    assert ours == theirs


def test_contiguous_copy_records_clone():
    ours, theirs = both(lambda m: m.ones(2, 3, requires_grad=True).t().contiguous().grad_fn
                        .name())
    assert ours == theirs == "CloneBackward0"


# --- new_* factories and type_as -----------------------------------------------------------
@pytest.mark.parametrize("expr", [
    "x.new_zeros(2, 3)", "x.new_zeros((2,))", "x.new_ones(2, dtype=m.int64)",
    "x.new_full((2, 2), 7)", "x.new_full((3,), 1.5, dtype=m.float64)",
    "x.new_tensor([1, 2, 3])", "x.new_tensor(2.5)", "i.new_tensor([1.7, -2.2])",
    "i.new_ones(3)", "x.new_empty((2, 1)).shape", "x.new_zeros(2, requires_grad=True)",
    "x.type_as(i)", "i.type_as(x)", "x.type_as(x.double())",
    "m.ones(2, dtype=m.float64).new_zeros(1)",
])
def test_new_factories_and_type_as(expr):
    def run(m):
        x, i = m.tensor([1.5, 2.5], dtype=m.float32), m.tensor([1, 2])
        return eval(expr, {"x": x, "i": i, "m": m})

    ours, theirs = both(run)
    if isinstance(theirs, torch.Size):
        assert tuple(ours) == tuple(theirs)
    else:
        assert_same(ours, theirs)
        assert ours.requires_grad == theirs.requires_grad and ours.is_leaf


# --- where(cond), nonzero, softmax dtype ----------------------------------------------------
def test_where_with_one_argument_and_nonzero():
    def run(m):
        c = m.tensor([[1, 0, 2], [0, 0, 3]])
        return (m.where(c > 0), m.nonzero(c), c.nonzero(as_tuple=True), m.argwhere(c),
                m.where(m.tensor(True)), m.nonzero(m.zeros(2, 2)))

    ours, theirs = both(run)
    for o, t in zip(ours, theirs):
        if isinstance(t, tuple):
            assert len(o) == len(t)
            for a, b in zip(o, t):
                assert_same(a, b)
        else:
            assert_same(o, t)


@pytest.mark.parametrize("fn", ["softmax", "log_softmax"])
def test_softmax_dtype_argument(fn):
    def run(m):
        x = m.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]], requires_grad=True)
        outs = (getattr(m, fn)(x, 1, dtype=m.float64), getattr(x, fn)(-1, m.float64),
                getattr(m.nn.functional, fn)(x, dim=0, dtype=m.float64))
        sum(o.sum() * (k + 1) for k, o in enumerate(outs)).backward()
        return outs, x.grad, [o.grad_fn.next_functions[0][0].name() for o in outs]

    (outs_o, g_o, names_o), (outs_t, g_t, names_t) = both(run)
    for o, t in zip(outs_o, outs_t):
        assert_same(o, t, rtol=1e-12)
    assert_same(g_o, g_t, rtol=1e-6)
    assert names_o == names_t


# --- dtypes ------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["float16", "float32", "float64", "int8", "uint8", "int16",
                                  "int32", "int64", "bool"])
def test_dtype_attributes(name):
    ours, theirs = both(lambda m: getattr(m, name))
    for attr in ("is_signed", "is_floating_point", "is_complex", "itemsize"):
        assert getattr(ours, attr) == getattr(theirs, attr), attr
    assert str(ours.to_real()) == str(theirs.to_real())


# --- grad-mode decorators ------------------------------------------------------------------
def test_bare_and_called_decorators():
    def run(m):
        x = m.ones(2, requires_grad=True)

        @m.no_grad
        def bare(t):
            return t * 2

        @m.no_grad()
        def called(t):
            return t * 2

        @m.enable_grad
        def enabled(t):
            return t * 2

        @m.inference_mode
        def inferred(t):
            return t * 2

        with m.no_grad():
            inside = enabled(x).requires_grad
        return (bare(x).requires_grad, called(x).requires_grad, inside,
                inferred(x).requires_grad, bare.__name__, m.is_grad_enabled())

    ours, theirs = both(run)
    assert ours == theirs == (False, False, True, False, "bare", True)


def test_no_grad_on_a_generator_function_applies_inside_the_body_only():
    def run(m):
        x = m.ones(1, requires_grad=True)
        seen = []

        @m.no_grad()
        def batches(n):
            for k in range(n):
                reply = yield (x * k).requires_grad, m.is_grad_enabled()
                seen.append(reply)
            return "done"

        gen = batches(3)
        first = next(gen)
        outside = m.is_grad_enabled(), (x * 2).requires_grad  # the caller's mode, between steps
        second = gen.send("hello")
        rest = list(gen)

        @m.no_grad
        def bare_gen():
            yield m.is_grad_enabled()

        def outer():
            value = yield from batches(1)
            return value

        results = list(outer())
        return first, outside, second, rest, seen, list(bare_gen()), results

    ours, theirs = both(run)
    assert ours == theirs


# --- devices and the accelerator -----------------------------------------------------------
def test_device_objects_and_default_device():
    def run(m):
        before = m.get_default_device()
        m.set_default_device("cpu")
        made = (m.zeros(2).device, m.tensor([1.0]).device, m.randn(2).device,
                m.nn.Linear(2, 2).weight.device)
        m.set_default_device(None)
        return (repr(before), [repr(d) for d in made], repr(m.device("cpu")),
                str(m.device("cuda", 1)), m.device("cuda:1").index, m.device("cpu").type,
                repr(m.get_default_device()))

    ours, theirs = both(run)
    assert ours == theirs


def test_accelerator_without_a_gpu(monkeypatch):
    from autograd_course import _backend

    monkeypatch.setattr(_backend, "cuda_available", lambda: False)
    assert ag.accelerator.is_available() is False
    assert ag.accelerator.current_accelerator() is None
    assert ag.accelerator.device_count() == 0
    assert ag.accelerator.current_device_index() == -1
    device = ag.accelerator.current_accelerator().type if ag.accelerator.is_available() \
        else "cpu"
    assert device == "cpu"
    if not torch.accelerator.is_available():  # the oracle on this machine agrees
        assert torch.accelerator.current_accelerator() is None


def test_default_device_cuda_through_the_fake_cupy(monkeypatch):
    """With CuPy present (the fake one here), set_default_device('cuda') puts factories and
    layers on the GPU and the accelerator reports CUDA."""
    from fake_cupy import make_module

    from autograd_course import _backend

    monkeypatch.setattr(_backend, "_cupy", make_module())
    assert ag.accelerator.is_available()
    assert ag.accelerator.current_accelerator().type == "cuda"
    ag.set_default_device("cuda")
    try:
        assert ag.zeros(2).device.type == "cuda"
        assert ag.nn.Linear(2, 3).weight.device.type == "cuda"
        x = ag.linspace(-1, 1, 5)
        assert x.device.type == "cuda" and ag.get_default_device().type == "cuda"
    finally:
        ag.set_default_device("cpu")
    assert ag.zeros(1).device.type == "cpu"


# --- modules and out-of-scope names ----------------------------------------------------------
@pytest.mark.parametrize("expr", [
    "nn.LeakyReLU()", "nn.LeakyReLU(0.2, inplace=True)", "nn.ELU(alpha=0.5)", "nn.GELU()",
    "nn.GELU(approximate='tanh')", "nn.SiLU()", "nn.HuberLoss(delta=2.0)", "nn.SmoothL1Loss()",
    "nn.KLDivLoss(reduction='batchmean')",
    "nn.Sequential(nn.Linear(2, 3), nn.GELU(), nn.Linear(3, 1), nn.SiLU())",
])
def test_new_module_reprs(expr):
    ours, theirs = both(lambda m: repr(eval(expr, {"nn": m.nn})))
    assert ours == theirs


def test_new_modules_compute_like_the_functions():
    def run(m):
        x = m.tensor([[-1.5, 0.25, 2.0]], dtype=m.float64, requires_grad=True)
        y = m.tensor([[0.5, 0.5, -1.0]], dtype=m.float64)
        outs = [m.nn.LeakyReLU(0.2)(x), m.nn.ELU()(x), m.nn.GELU()(x), m.nn.SiLU()(x),
                m.nn.HuberLoss(delta=0.5)(x, y), m.nn.SmoothL1Loss(beta=0.5)(x, y),
                m.nn.KLDivLoss(reduction="batchmean")(x.log_softmax(1), y.softmax(1))]
        return outs

    for o, t in zip(*both(run)):
        assert_same(o, t, rtol=1e-12)
        assert o.grad_fn.name() == t.grad_fn.name()


@pytest.mark.parametrize("make", [
    lambda m, y: m.nn.functional.leaky_relu(y, 0.1, inplace=True),
    lambda m, y: m.nn.ELU(alpha=0.7, inplace=True)(y),
    lambda m, y: m.nn.functional.silu(y, inplace=True),
    lambda m, y: m.nn.LeakyReLU(inplace=True)(y),
], ids=["leaky_relu_", "elu_", "silu_", "LeakyReLU_"])
def test_in_place_activations(make):
    def run(m):
        x = m.tensor([-1.0, 0.5, 2.0, -0.25], dtype=m.float64, requires_grad=True)
        y = x * 1.0
        z = make(m, y)
        (g,) = m.autograd.grad((z * z).sum(), x, create_graph=True)
        (h,) = m.autograd.grad(g.sum(), x)
        return z is y, y, y.grad_fn.name(), g, h

    ours, theirs = both(run)
    assert ours[0] == theirs[0] is True and ours[2] == theirs[2]
    for o, t in zip(ours[3:], theirs[3:]):
        assert_same(o, t)
    assert_same(ours[1], theirs[1])


@pytest.mark.parametrize("name", ["compile", "jit", "hub", "onnx"])
def test_out_of_scope_names_say_what_to_use(name):
    with pytest.raises(AttributeError, match="autograd_course has no"):
        getattr(ag, name)
    with pytest.raises(AttributeError, match="has no attribute 'not_a_name'"):
        ag.not_a_name


# --- out=, backends, torchvision stand-in, downloaded data sets -------------------------------
@pytest.mark.parametrize("expr", [
    "m.matmul(a, a.T, out=o)", "m.mul(a, a, out=o)", "m.add(a, 1.5, out=o)",
    "m.sub(a, a * 2, out=o)", "m.div(a, 2, out=o)", "m.exp(a, out=o)",
    "m.cat([a, a], dim=0, out=o)", "m.mm(a, a, out=o)",
])
def test_out_keyword_writes_into_the_given_tensor(expr):
    def run(m):
        a = m.tensor([[1.0, 2.0], [3.0, 4.0]])
        o = m.zeros(2, 2)
        result = eval(expr, {"m": m, "a": a, "o": o})
        return result is o, o

    (same_o, o_o), (same_t, o_t) = both(run)
    assert same_o is same_t is True
    assert_same(o_o, o_t, rtol=1e-6)  # float32 exp: last-bit differences


def test_out_keyword_refuses_arguments_that_require_grad():
    ours, theirs = both(lambda m: error_of(
        lambda: m.mul(m.ones(2, requires_grad=True), 2.0, out=m.zeros(2))))
    assert ours == theirs


def test_backends_answer_like_a_machine_without_mps():
    assert ag.backends.mps.is_available() is False
    assert ag.backends.mps.is_available() == torch.backends.mps.is_available()


def test_backends_say_there_is_no_mkldnn_layout():
    # PyTorch's CPU wheel has MKL-DNN (oneDNN); here x.to_mkldnn() does not exist, so the
    # same question, asked the same way, answers False (PyTorch's tests skip on it)
    assert callable(torch.backends.mkldnn.is_available)
    assert ag.backends.mkldnn.is_available() is False
    assert not hasattr(ag.ones(1), "to_mkldnn") and hasattr(torch.ones(1), "to_mkldnn")


def test_torchvision_stand_in_names_the_replacement():
    from autograd_course import vision

    with pytest.raises(NotImplementedError, match=r"load_digits\(\)"):
        vision.datasets.FashionMNIST
    with pytest.raises(NotImplementedError, match="ToTensor.*not needed"):
        vision.transforms.ToTensor
    with pytest.raises(NotImplementedError, match="weights=None"):
        vision.models.ResNet18_Weights.DEFAULT
    assert vision.models.resnet18 is ag.models.resnet18
    with pytest.raises(NotImplementedError, match="resnet18 and resnet34"):
        vision.models.vgg16
    with pytest.raises(AttributeError, match=r"FashionMNIST.*load_digits\(\)"):
        ag.datasets.FashionMNIST
    with pytest.raises(AttributeError, match="has no attribute 'nothing'"):
        ag.datasets.nothing


# --- one list of op functions ------------------------------------------------------------------
def test_autograd_course_re_exports_exactly_the_ops_list():
    """``ag.<op>`` is ``ops.<op>`` for every name in ``ops.__all__``, and no name of
    ``ops.NOT_TOP_LEVEL`` leaks to the top level (``ag.is_tensor`` is ag's own)."""
    assert "exp" in ag.ops.__all__ and "add_" not in ag.ops.__all__
    for name in ag.ops.__all__:
        assert getattr(ag, name) is getattr(ag.ops, name), name
    leaked = {name for name in ag.ops.NOT_TOP_LEVEL if hasattr(ag, name)} - {"is_tensor"}
    assert not leaked
    assert ag.is_tensor is not ag.ops.is_tensor
