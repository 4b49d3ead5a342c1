"""Issue 28: PyTorch's checks before it computes, its objects and its messages.

Every case runs on both libraries and compares what a learner sees: values, dtypes, shapes,
the type and first line of an error (the whole text where it has several lines), warnings.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest
from oracle_helpers import assert_like_torch, observe

import autograd_course as ag

torch = pytest.importorskip("torch")


def F(m):
    return m.nn.functional


# --- accepted where PyTorch refuses -----------------------------------------------------------
REFUSED = {
    "bool - 1": lambda m: m.tensor([True, False]) - 1,
    "bool - bool": lambda m: m.tensor([True]) - m.tensor([True]),
    "float - True": lambda m: m.ones(2) - True,
    "1 - bool": lambda m: 1 - m.tensor([True]),
    "True - float": lambda m: True - m.ones(2),
    "int - bool tensor": lambda m: m.tensor([1]) - m.tensor([True]),
    "bool.sub(1)": lambda m: m.tensor([True]).sub(1),
    "bool.sub_(True)": lambda m: m.tensor([True]).sub_(True),
    "-bool": lambda m: -m.tensor([True, False]),
    "bool.neg_()": lambda m: m.tensor([True]).neg_(),
    "bool // bool": lambda m: m.tensor([True]) // m.tensor([True]),
    "bool // True": lambda m: m.tensor([True]) // True,
    "True // bool": lambda m: True // m.tensor([True]),
    "bool.div(bool, trunc)": lambda m: m.tensor([True]).div(m.tensor([True]),
                                                             rounding_mode="trunc"),
    "bool % True": lambda m: m.tensor([True]) % True,
    "bool ** bool tensor": lambda m: m.tensor([True]) ** m.tensor(True),
    "bool.clamp(True, False)": lambda m: m.tensor([True]).clamp(True, False),
    "bool.add_(1)": lambda m: m.tensor([True]).add_(1),
    "huber_loss(delta=0)": lambda m: F(m).huber_loss(m.ones(2), m.zeros(2), delta=0),
    "huber_loss(delta=-1)": lambda m: F(m).huber_loss(m.ones(2), m.zeros(2), delta=-1.0),
    "HuberLoss(delta=0)": lambda m: m.nn.HuberLoss(delta=0)(m.ones(2), m.zeros(2)),
    "cross_entropy(probabilities, ignore_index=0)": lambda m: F(m).cross_entropy(
        m.ones(2, 3), m.ones(2, 3) / 3, ignore_index=0),
    "CrossEntropyLoss(ignore_index=1)(probabilities)": lambda m: m.nn.CrossEntropyLoss(
        ignore_index=1)(m.ones(2, 3), m.ones(2, 3) / 3),
    "F.gelu(x, 'tanh')": lambda m: F(m).gelu(m.ones(2), "tanh"),
    "F.gelu(x, approximate='bad')": lambda m: F(m).gelu(m.ones(2), approximate="bad"),
}


@pytest.mark.parametrize("name", list(REFUSED))
def test_refused_as_pytorch_refuses(name):
    ours = assert_like_torch(REFUSED[name])
    assert ours[0] == "error"


STILL_ACCEPTED = {
    "bool + True": lambda m: m.tensor([True, False]) + True,
    "bool // 2": lambda m: m.tensor([True]) // 2,
    "bool % 2": lambda m: m.tensor([True]) % 2,
    "huber_loss(delta=0.5)": lambda m: F(m).huber_loss(m.ones(2), m.zeros(2), delta=0.5),
    "cross_entropy(probabilities, ignore_index=-100)": lambda m: F(m).cross_entropy(
        m.ones(2, 3), m.ones(2, 3) / 3, ignore_index=-100),
    "cross_entropy(probabilities, ignore_index=-1)": lambda m: F(m).cross_entropy(
        m.ones(2, 3), m.ones(2, 3) / 3, ignore_index=-1),
    "F.gelu(x, approximate='tanh')": lambda m: F(m).gelu(m.ones(2), approximate="tanh"),
    "nn.GELU('tanh')": lambda m: m.nn.GELU("tanh")(m.ones(2)),
}


@pytest.mark.parametrize("name", list(STILL_ACCEPTED))
def test_still_accepted(name):
    assert_like_torch(STILL_ACCEPTED[name])


# --- torch.Size -------------------------------------------------------------------------------
SIZES = {
    "shape[1:]": lambda s: s[1:],
    "shape[::-1]": lambda s: s[::-1],
    "shape[0:0]": lambda s: s[0:0],
    "shape[0]": lambda s: s[0],
    "shape + (1,)": lambda s: s + (1,),
    "(1,) + shape": lambda s: (1,) + s,
    "shape + shape": lambda s: s + s,
    "shape * 2": lambda s: s * 2,
    "2 * shape": lambda s: 2 * s,
    "shape + [1]": lambda s: s + [1],
    "shape == (2, 3)": lambda s: s == (2, 3),
}


@pytest.mark.parametrize("name", list(SIZES))
def test_size_slices_and_sums_are_sizes(name):
    def case(m):
        out = SIZES[name](m.zeros(2, 3).shape)
        return (type(out).__name__, repr(out))

    assert_like_torch(case)


def test_shape_slice_feeds_a_reshape():
    assert_like_torch(lambda m: m.zeros(2, 3, 4).reshape(m.zeros(2, 3, 4).shape[1:] + (2,)))


# --- zero_grad(set_to_none=False) ---------------------------------------------------------------
@pytest.mark.parametrize("owner", ["optimizer", "module"])
def test_zero_grad_keeps_the_same_grad_tensor(owner):
    def case(m):
        layer = m.nn.Linear(2, 1)
        opt = m.optim.SGD(layer.parameters(), lr=0.1)
        layer(m.ones(3, 2)).sum().backward()
        kept = layer.weight.grad
        (opt if owner == "optimizer" else layer).zero_grad(set_to_none=False)
        same = layer.weight.grad is kept
        layer(m.ones(3, 2)).sum().backward()
        return [same, kept, layer.weight.grad is kept]

    ours = assert_like_torch(case)
    assert ours[1][0] is True and ours[1][2] is True


def test_zero_grad_of_a_grad_with_history_detaches_it_in_place():
    def case(m):
        x = m.tensor([1.0, 2.0], requires_grad=True)
        (x**3).sum().backward(create_graph=True)
        kept = x.grad
        m.optim.SGD([x], lr=0.1).zero_grad(set_to_none=False)
        return [x.grad is kept, kept, kept.grad_fn is None, kept.requires_grad]

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the create_graph warning
        assert_like_torch(case)


# --- warnings -----------------------------------------------------------------------------------
def _schedule(m, optimizer_first):
    p = m.nn.Parameter(m.ones(1))
    opt = m.optim.SGD([p], lr=0.1)
    sched = m.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
    for _ in range(2):
        if optimizer_first:
            opt.step()
        sched.step()
        if not optimizer_first:
            opt.step()
    return sched.get_last_lr()


@pytest.mark.parametrize("optimizer_first", [True, False])
def test_scheduler_stepped_before_the_optimizer_warns(optimizer_first):
    ours = assert_like_torch(lambda m: _schedule(m, optimizer_first), warns=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _schedule(ag, optimizer_first)
    assert len(caught) == (0 if optimizer_first else 1), ours


def test_scheduler_on_an_optimizer_that_never_steps_warns_once():
    def case(m):
        opt = m.optim.SGD([m.nn.Parameter(m.ones(1))], lr=0.1)
        sched = m.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
        for _ in range(3):
            sched.step()
        return sched.get_last_lr()

    assert_like_torch(case, warns=True)


CREATE_GRAPH_ONCE = textwrap.dedent("""
    import warnings, sys
    import {lib} as m
    warnings.simplefilter("always")
    x = m.tensor(2., requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(3):
            (x ** 3).backward(create_graph=True)
    print(len(caught), str(caught[0].message).split(" (Triggered")[0] if caught else "")
""")


def test_create_graph_warning_comes_once_per_process():
    """PyTorch warns with TORCH_WARN_ONCE: the first backward(create_graph=True) of a process
    warns, the next ones do not. Run in fresh processes, since the first may be anywhere."""
    seen = {}
    for lib in ("autograd_course", "torch"):
        done = subprocess.run([sys.executable, "-c", CREATE_GRAPH_ONCE.format(lib=lib)],
                              capture_output=True, text=True, timeout=120, check=True)
        seen[lib] = done.stdout.strip()
    assert seen["autograd_course"] == seen["torch"]
    assert seen["torch"].startswith("1 Using backward() with create_graph=True")


# --- missing pieces -----------------------------------------------------------------------------
PIECES = {
    "div_(2, floor) int": lambda m: m.tensor([3, -3]).div_(2, rounding_mode="floor"),
    "div_(2, floor) float": lambda m: m.tensor([3.0, -3.0]).div_(2, rounding_mode="floor"),
    "div_(2, trunc) float": lambda m: m.tensor([3.5, -3.5]).div_(2, rounding_mode="trunc"),
    "div_(2, 'bad')": lambda m: m.tensor([3, -3]).div_(2, rounding_mode="bad"),
    "int.div_(2)": lambda m: m.tensor([3, -3]).div_(2),
    "x ^ y": lambda m: m.tensor([3, 5]) ^ m.tensor([1, 1]),
    "x ^ 1": lambda m: m.tensor([3, 5]) ^ 1,
    "3 ^ x": lambda m: 3 ^ m.tensor([1, 2]),
    "bool ^ True": lambda m: m.tensor([True, False]) ^ True,
    "bool ^ int": lambda m: m.tensor([True]) ^ m.tensor([1]),
    "int8 ^ 300": lambda m: m.tensor([1], dtype=m.int8) ^ 300,
    "float ^ float": lambda m: m.tensor([1.0]) ^ m.tensor([1.0]),
    "int ^ 1.5": lambda m: m.tensor([1]) ^ 1.5,
    "x ^= 1": lambda m: m.tensor([3, 5]).__ixor__(1),
    "bitwise_xor_": lambda m: m.tensor([3]).bitwise_xor_(1),
    "torch.bitwise_xor": lambda m: m.bitwise_xor(m.tensor([3]), m.tensor([1])),
    "type('torch.DoubleTensor')": lambda m: m.tensor([1, 2]).type("torch.DoubleTensor"),
    "type('torch.FloatTensor')": lambda m: m.tensor([1], dtype=m.uint8).type("torch.FloatTensor"),
    "type('torch.HalfTensor')": lambda m: m.tensor([1]).type("torch.HalfTensor"),
    "type('torch.ByteTensor')": lambda m: m.tensor([1]).type("torch.ByteTensor"),
    "type('torch.CharTensor')": lambda m: m.tensor([1]).type("torch.CharTensor"),
    "type('torch.BoolTensor')": lambda m: m.tensor([1]).type("torch.BoolTensor"),
    "type('torch.Tensor')": lambda m: m.tensor([1]).type("torch.Tensor"),
    "type(float64)": lambda m: m.tensor([1]).type(m.float64),
    "type(dtype=float32)": lambda m: m.tensor([1]).type(dtype=m.float32),
    "type()": lambda m: m.tensor([1, 2]).type(),
    "type('float')": lambda m: m.tensor([1]).type("float"),
    "type('torch.float32')": lambda m: m.tensor([1]).type("torch.float32"),
    "type(5)": lambda m: m.tensor([1]).type(5),
    "randn(size=()) shape": lambda m: m.randn(size=()).shape,
    "randn(size=(2, 3)) shape": lambda m: m.randn(size=(2, 3)).shape,
    "rand(size=(2,)) dtype": lambda m: str(m.rand(size=(2,)).dtype),
    "zeros(size=(2, 3))": lambda m: m.zeros(size=(2, 3)),
    "ones(size=())": lambda m: m.ones(size=()),
}


@pytest.mark.parametrize("name", list(PIECES))
def test_missing_pieces(name):
    assert_like_torch(PIECES[name])


def test_randn_with_size_keyword_draws_pytorchs_numbers():
    def case(m):
        m.manual_seed(0)
        return [m.randn(size=()), m.randn(size=(2, 2)), m.rand(size=(3,))]

    assert_like_torch(case)


def test_removable_handle_is_a_context_manager():
    def case(m):
        x = m.tensor([1.0, 2.0], requires_grad=True)
        with x.register_hook(lambda g: g * 10):
            (x * 2).sum().backward()
        first = x.grad.clone()
        x.grad = None
        (x * 2).sum().backward()
        layer, calls = m.nn.Linear(2, 1), []
        with layer.register_forward_hook(lambda *args: calls.append(1)) as handle:
            layer(m.ones(1, 2))
        layer(m.ones(1, 2))
        return [first, x.grad, len(calls), type(handle).__name__]

    assert_like_torch(case)


# --- reshape of a non-contiguous tensor ---------------------------------------------------------
RESHAPES = {
    "contiguous": lambda x: x.reshape(8),
    "t().reshape(8)": lambda x: x.t().reshape(8),
    "t().reshape(-1)": lambda x: x.t().reshape(-1),
    "t().flatten()": lambda x: x.t().flatten(),
    "t().reshape(4, 2) (a view)": lambda x: x.t().reshape(4, 2),
    "[:, ::2].reshape(4) (a view)": lambda x: x[:, ::2].reshape(4),
    "[:, 1].reshape(2, 1)": lambda x: x[:, 1].reshape(2, 1),
    "[0].reshape(2, 2)": lambda x: x[0].reshape(2, 2),
    "t()[::2].reshape(4)": lambda x: x.t()[::2].reshape(4),
    "expand().reshape(16)": lambda x: x.expand(2, 2, 4).reshape(16),
}


@pytest.mark.parametrize("name", list(RESHAPES))
def test_reshape_records_what_pytorch_records(name):
    def case(m):
        x = m.arange(8.0).reshape(2, 4).requires_grad_()
        out = RESHAPES[name](x)
        node = out.grad_fn
        chain = [node.name()] + [f.name() for f, _ in node.next_functions if f is not None]
        (out * m.arange(float(out.numel())).reshape(out.shape)).sum().backward()
        return [out, chain, out._base is x or out._base is x._base, x.grad]

    assert_like_torch(case)


def test_reshape_copy_is_not_a_view_of_the_input():
    def case(m):
        x = m.arange(6.0).reshape(2, 3)
        y = x.t().reshape(6)
        y[0] = 100.0
        return [x, y, y._base is None]

    assert_like_torch(case)


# --- messages and exception types ---------------------------------------------------------------
MESSAGES = {
    "select(0, 5)": lambda m: m.ones(2, 3).select(0, 5),
    "select(1, -4)": lambda m: m.ones(2, 3).select(1, -4),
    "select on 0-d": lambda m: m.tensor(1.0).select(0, 0),
    "select(2, 0)": lambda m: m.ones(2, 3).select(2, 0),
    "torch.select(x, 0, 2)": lambda m: m.select(m.ones(2, 3), 0, 2),
    "select(0, -2) works": lambda m: m.arange(6).reshape(2, 3).select(0, -2),
    "int.clamp_(min=0.5)": lambda m: m.tensor([1, 2]).clamp_(min=0.5),
    "int32.clamp_(min=0.5)": lambda m: m.tensor([1], dtype=m.int32).clamp_(min=0.5),
    "int16.clamp_(max=0.5)": lambda m: m.tensor([1], dtype=m.int16).clamp_(max=0.5),
    "from_numpy(np.float64)": lambda m: m.from_numpy(np.float64(1)),
    "from_numpy(list)": lambda m: m.from_numpy([1]),
    "matmul(t, ndarray)": lambda m: m.matmul(m.tensor([1.0]), np.array([1.0])),
    "matmul(ndarray, t)": lambda m: m.matmul(np.array([1.0]), m.tensor([1.0])),
    "x.grad = ndarray": lambda m: setattr(m.ones(2, requires_grad=True), "grad", np.ones(2)),
    "backward([y], [ndarray])": lambda m: m.autograd.backward(
        [m.ones(2, requires_grad=True).sum()], [np.array(1.0)]),
    "tensor(int, requires_grad=True)": lambda m: m.tensor([1], requires_grad=True),
    "ones(long, requires_grad=True)": lambda m: m.ones(2, dtype=m.long, requires_grad=True),
    "int.requires_grad = True": lambda m: setattr(m.tensor([1]), "requires_grad", True),
    "int.requires_grad_()": lambda m: m.tensor([1]).requires_grad_(),
    "tensor([-1], uint8)": lambda m: m.tensor([-1], dtype=m.uint8),
    "tensor(-1, uint8)": lambda m: m.tensor(-1, dtype=m.uint8),
    "tensor([[1, -2]], uint8)": lambda m: m.tensor([[1, -2]], dtype=m.uint8),
    "tensor([-255], uint8)": lambda m: m.tensor([-255], dtype=m.uint8),
    "tensor([-256], uint8)": lambda m: m.tensor([-256], dtype=m.uint8),
    "tensor([300], uint8)": lambda m: m.tensor([300], dtype=m.uint8),
    "tensor([-1.5], uint8)": lambda m: m.tensor([-1.5], dtype=m.uint8),
    "tensor([-129], int8)": lambda m: m.tensor([-129], dtype=m.int8),
    "tensor([1e10], int32)": lambda m: m.tensor([1e10], dtype=m.int32),
    "tensor([2.7, -2.7], int64)": lambda m: m.tensor([2.7, -2.7], dtype=m.int64),
    "tensor([True, -1], uint8)": lambda m: m.tensor([True, -1], dtype=m.uint8),
    "tensor([2**63])": lambda m: m.tensor([2**63]),
    "full(-1, uint8)": lambda m: m.full((2,), -1, dtype=m.uint8),
    "full(300, uint8)": lambda m: m.full((2,), 300, dtype=m.uint8),
    "BCE weight (4,)": lambda m: F(m).binary_cross_entropy(m.full((2, 3), 0.5), m.ones(2, 3),
                                                           weight=m.ones(4)),
    "BCE weight (3, 1)": lambda m: F(m).binary_cross_entropy(m.full((2, 3), 0.5), m.ones(2, 3),
                                                             weight=m.ones(3, 1)),
    "BCE weight (2, 3, 1)": lambda m: F(m).binary_cross_entropy(
        m.full((2, 3), 0.5), m.ones(2, 3), weight=m.ones(2, 3, 1)),
    "BCE weight (2, 1) works": lambda m: F(m).binary_cross_entropy(
        m.full((2, 3), 0.5), m.ones(2, 3), weight=m.ones(2, 1)),
    "BCELoss(weight=(4,))": lambda m: m.nn.BCELoss(weight=m.ones(4))(m.full((2, 3), 0.5),
                                                                      m.ones(2, 3)),
    "BCE logits pos_weight (4,)": lambda m: F(m).binary_cross_entropy_with_logits(
        m.ones(2, 3), m.ones(2, 3), pos_weight=m.ones(4)),
    "BCE logits weight (4,)": lambda m: F(m).binary_cross_entropy_with_logits(
        m.ones(2, 3), m.ones(2, 3), weight=m.ones(4)),
    "BCE logits weight (2, 3, 1)": lambda m: F(m).binary_cross_entropy_with_logits(
        m.ones(2, 3), m.ones(2, 3), weight=m.ones(2, 3, 1)),
    "BCE logits pos_weight (2, 1, 3)": lambda m: F(m).binary_cross_entropy_with_logits(
        m.ones(2, 3), m.ones(2, 3), pos_weight=m.ones(2, 1, 3)),
    "BCE logits pos_weight (3,) works": lambda m: F(m).binary_cross_entropy_with_logits(
        m.ones(2, 3), m.ones(2, 3), pos_weight=m.full((3,), 2.0)),
}


@pytest.mark.parametrize("name", list(MESSAGES))
def test_messages_and_exception_types(name):
    assert_like_torch(MESSAGES[name])


def test_steplr_initial_lr_message_in_full():
    def case(m):
        opt = m.optim.SGD([m.nn.Parameter(m.ones(1))], lr=0.1)
        m.optim.lr_scheduler.StepLR(opt, 1, last_epoch=3)

    ours, theirs = observe(ag, case), observe(torch, case)
    assert ours == theirs and ours[0][1] == "KeyError"
    with pytest.raises(KeyError) as ag_error:
        case(ag)
    with pytest.raises(KeyError) as torch_error:
        case(torch)
    assert str(ag_error.value) == str(torch_error.value)


@pytest.mark.parametrize("array", [np.array(["a"]), np.array([1], dtype=object)], ids=repr)
def test_unsupported_numpy_dtype_named_by_its_type(array):
    """The type is named as PyTorch names it (numpy.str_); the list of supported types that
    follows is ours (no complex or wide unsigned types)."""
    ours, theirs = observe(ag, lambda m: m.tensor(array))[0], observe(torch,
                                                                      lambda m: m.tensor(array))[0]
    assert ours[:2] == theirs[:2] == ("error", "TypeError")
    assert ours[2].split(". The only")[0] == theirs[2].split(". The only")[0]


def _unsigned(m, dtype="uint16"):
    return m.from_numpy(np.array([1, 2], dtype=dtype))


@pytest.mark.parametrize("dtype", ["uint16", "uint32", "uint64"])
def test_numpy_unsigned_arrays_meet_a_not_implemented_error(dtype):
    """PyTorch makes the tensor but has almost no operations for it (its error is a
    NotImplementedError); we have no such dtype and refuse it with the same exception type
    when it is made, saying how to convert it."""
    theirs = observe(torch, lambda m: _unsigned(m, dtype) + 1)[0]
    assert theirs[:2] == ("error", "NotImplementedError")
    for make in (lambda m: _unsigned(m, dtype), lambda m: m.tensor(np.ones(2, dtype=dtype)),
                 lambda m: m.as_tensor(np.ones(2, dtype=dtype))):
        ours = observe(ag, make)[0]
        assert ours[:2] == ("error", "NotImplementedError"), ours
        assert f"autograd_course has no {dtype} dtype" in ours[2]
        assert "array.astype(np.int64)" in ours[2]


def test_function_keyword_messages_name_forward():
    def case(m, **kwargs):
        class Scale(m.autograd.Function):
            @staticmethod
            def forward(ctx, x, scale=2.0):
                return x * scale

            @staticmethod
            def backward(ctx, grad):
                return grad * 2, None

        return Scale.apply(m.ones(2, requires_grad=True), **kwargs)

    assert_like_torch(lambda m: case(m, bad=3.0))
