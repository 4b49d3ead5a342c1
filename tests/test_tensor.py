"""The Tensor API: attributes, factories, dtypes, conversions, autograd state, reprs.

``EXPRESSIONS`` pairs an expression (written against ``torch``) with what PyTorch 2.13 shows
for it (its repr, or ``Type: message``). We evaluate it with ``torch`` bound to our package
and require the same string; with the oracle installed, PyTorch is asked again live. Reprs
print dtypes as PyTorch does (``dtype=torch.float64``): our dtypes are spelled ``torch.*`` on
purpose, so every output in the course can be diffed against PyTorch's.
The tests below the table cover behaviour a single expression cannot show.
"""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

import autograd_course as ag

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def evaluate(expression: str, lib) -> str:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = eval(expression, {"torch": lib, "np": np})
        return _ADDRESS.sub(" at 0x…", repr(value))
    except Exception as err:  # the error is what we compare
        return f"{type(err).__name__}: {err}"


EXPRESSIONS = [
    ('torch.zeros(2, 3).shape',
     'torch.Size([2, 3])'),
    ('torch.zeros(2, 3).size()',
     'torch.Size([2, 3])'),
    ('torch.zeros(2, 3).size(1)',
     '3'),
    ('torch.zeros(2, 3).size(-1)',
     '3'),
    ('torch.zeros(2, 3).dim()',
     '2'),
    ('torch.zeros(2, 3, 4).ndim',
     '3'),
    ('torch.zeros(2, 3).numel()',
     '6'),
    ('torch.zeros(2, 3).dtype',
     'torch.float32'),
    ('torch.zeros(2, 3).device',
     "device(type='cpu')"),
    ('torch.zeros(2, 3).is_cuda',
     'False'),
    ('torch.zeros(2, 3).is_leaf',
     'True'),
    ('torch.zeros(2, 3).requires_grad',
     'False'),
    ('torch.zeros(2, 3).grad_fn',
     'None'),
    ('torch.zeros(2, 3).shape == (2, 3)',
     'True'),
    ('torch.Size([2, 3])',
     'torch.Size([2, 3])'),
    ('str(torch.zeros(2, 3).shape)',
     "'torch.Size([2, 3])'"),
    ('torch.zeros(2, 3).shape.numel()',
     '6'),
    ('torch.tensor(3.5)',
     'tensor(3.5000)'),
    ('torch.tensor(3)',
     'tensor(3)'),
    ('torch.tensor(True)',
     'tensor(True)'),
    ('torch.tensor([1, 2, 3])',
     'tensor([1, 2, 3])'),
    ('torch.tensor([1., 2, 3])',
     'tensor([1., 2., 3.])'),
    ('torch.tensor([True, False])',
     'tensor([ True, False])'),
    ('torch.tensor([[1, 2], [3, 4]], dtype=torch.float64)',
     'tensor([[1., 2.],\n        [3., 4.]], dtype=torch.float64)'),
    ('torch.tensor([1.5, 2.5], dtype=torch.int64)',
     'tensor([1, 2])'),
    ('torch.tensor([], dtype=torch.float32)',
     'tensor([])'),
    ('torch.tensor([])',
     'tensor([])'),
    ('torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)',
     'tensor([[1., 2.],\n        [3., 4.]], requires_grad=True)'),
    ('torch.tensor(np.array([1., 2.]))',
     'tensor([1., 2.], dtype=torch.float64)'),
    ('torch.tensor(np.array([1, 2], dtype=np.int32))',
     'tensor([1, 2], dtype=torch.int32)'),
    ('torch.tensor(np.float64(2.5))',
     'tensor(2.5000, dtype=torch.float64)'),
    ('torch.tensor([np.float64(1.0), 2.0])',
     'tensor([1., 2.], dtype=torch.float64)'),
    ('torch.as_tensor([1., 2.])',
     'tensor([1., 2.])'),
    ('torch.as_tensor(np.array([1., 2.]))',
     'tensor([1., 2.], dtype=torch.float64)'),
    ('torch.as_tensor([1, 2], dtype=torch.float32)',
     'tensor([1., 2.])'),
    ('torch.from_numpy(np.array([1., 2.], dtype=np.float32))',
     'tensor([1., 2.])'),
    ('torch.from_numpy(np.arange(4).reshape(2, 2))',
     'tensor([[0, 1],\n        [2, 3]])'),
    ('torch.from_numpy([1, 2])',
     'TypeError: expected np.ndarray (got list)'),
    ('torch.zeros(2)',
     'tensor([0., 0.])'),
    ('torch.zeros((2, 2))',
     'tensor([[0., 0.],\n        [0., 0.]])'),
    ('torch.zeros([2, 1, 2])',
     'tensor([[[0., 0.]],\n\n        [[0., 0.]]])'),
    ('torch.zeros(2, dtype=torch.int64)',
     'tensor([0, 0])'),
    ('torch.zeros(2, requires_grad=True)',
     'tensor([0., 0.], requires_grad=True)'),
    ("torch.zeros(2, device='cpu')",
     'tensor([0., 0.])'),
    ('torch.ones(2, 2)',
     'tensor([[1., 1.],\n        [1., 1.]])'),
    ('torch.ones(3, dtype=torch.bool)',
     'tensor([True, True, True])'),
    ('torch.ones(2, dtype=torch.float64, requires_grad=True)',
     'tensor([1., 1.], dtype=torch.float64, requires_grad=True)'),
    ('torch.full((2, 2), 7.)',
     'tensor([[7., 7.],\n        [7., 7.]])'),
    ('torch.full((2,), 3)',
     'tensor([3, 3])'),
    ('torch.full((2,), True)',
     'tensor([True, True])'),
    ('torch.full((2,), 1.5, dtype=torch.float64)',
     'tensor([1.5000, 1.5000], dtype=torch.float64)'),
    ('torch.full((2,), 2., requires_grad=True)',
     'tensor([2., 2.], requires_grad=True)'),
    ('torch.eye(3)',
     'tensor([[1., 0., 0.],\n        [0., 1., 0.],\n        [0., 0., 1.]])'),
    ('torch.eye(2, 3)',
     'tensor([[1., 0., 0.],\n        [0., 1., 0.]])'),
    ('torch.eye(2, dtype=torch.int64)',
     'tensor([[1, 0],\n        [0, 1]])'),
    ('torch.eye(2, requires_grad=True)',
     'tensor([[1., 0.],\n        [0., 1.]], requires_grad=True)'),
    ('torch.arange(5)',
     'tensor([0, 1, 2, 3, 4])'),
    ('torch.arange(1, 4)',
     'tensor([1, 2, 3])'),
    ('torch.arange(0, 1, 0.25)',
     'tensor([0.0000, 0.2500, 0.5000, 0.7500])'),
    ('torch.arange(0., 3.)',
     'tensor([0., 1., 2.])'),
    ('torch.arange(5, dtype=torch.float32)',
     'tensor([0., 1., 2., 3., 4.])'),
    ('torch.arange(3, dtype=torch.float64, requires_grad=True)',
     'tensor([0., 1., 2.], dtype=torch.float64, requires_grad=True)'),
    ('torch.linspace(0, 1, 5)',
     'tensor([0.0000, 0.2500, 0.5000, 0.7500, 1.0000])'),
    ('torch.linspace(0, 1, 3, dtype=torch.float64)',
     'tensor([0.0000, 0.5000, 1.0000], dtype=torch.float64)'),
    ('torch.linspace(-1, 1, 4, requires_grad=True)',
     'tensor([-1.0000, -0.3333,  0.3333,  1.0000], requires_grad=True)'),
    ('torch.zeros_like(torch.ones(2, 2))',
     'tensor([[0., 0.],\n        [0., 0.]])'),
    ('torch.ones_like(torch.zeros(2, dtype=torch.int64))',
     'tensor([1, 1])'),
    ('torch.ones_like(torch.zeros(2), dtype=torch.float64)',
     'tensor([1., 1.], dtype=torch.float64)'),
    ('torch.zeros_like(torch.ones(2), requires_grad=True)',
     'tensor([0., 0.], requires_grad=True)'),
    ('torch.ones_like(torch.ones(2, requires_grad=True))',
     'tensor([1., 1.])'),
    ('torch.rand(2, 3).dtype',
     'torch.float32'),
    ('torch.rand(2, 3).shape',
     'torch.Size([2, 3])'),
    ('torch.rand(2, dtype=torch.float64).dtype',
     'torch.float64'),
    ('torch.rand(2, requires_grad=True).requires_grad',
     'True'),
    ('torch.randn(4).dtype',
     'torch.float32'),
    ('torch.randn((2, 2)).shape',
     'torch.Size([2, 2])'),
    ('torch.randn(2, dtype=torch.float64, requires_grad=True).dtype',
     'torch.float64'),
    ('torch.randint(0, 10, (3,)).dtype',
     'torch.int64'),
    ('torch.randint(10, (2, 2)).shape',
     'torch.Size([2, 2])'),
    ('torch.randint(0, 10, (3,), dtype=torch.float32).dtype',
     'torch.float32'),
    ('torch.rand_like(torch.zeros(2, 2)).shape',
     'torch.Size([2, 2])'),
    ('torch.randn_like(torch.zeros(3, dtype=torch.float64)).dtype',
     'torch.float64'),
    ('torch.rand(3).min().item() >= 0 and torch.rand(3).max().item() < 1',
     'True'),
    ('torch.randint(0, 1, (2,), requires_grad=True)',
     'RuntimeError: Only Tensors of floating point and complex dtype can require gradients'),
    ('(torch.ones(2) * 2.5).dtype',
     'torch.float32'),
    ('(torch.ones(2) + 1).dtype',
     'torch.float32'),
    ('(torch.ones(2) + np.float64(1.5)).dtype',
     'torch.float32'),
    ('(2.5 * torch.ones(2)).dtype',
     'torch.float32'),
    ('(torch.ones(2) / 3).dtype',
     'torch.float32'),
    ('(torch.ones(2, dtype=torch.int64) * 2.5).dtype',
     'torch.float32'),
    ('(torch.ones(2, dtype=torch.int64) * 2).dtype',
     'torch.int64'),
    ('(torch.ones(2, dtype=torch.int64) / 2).dtype',
     'torch.float32'),
    ('(torch.ones(2) + torch.ones(2, dtype=torch.float64)).dtype',
     'torch.float64'),
    ('(torch.ones(2) + torch.ones(2, dtype=torch.int64)).dtype',
     'torch.float32'),
    ('(torch.ones(2, dtype=torch.bool) + 1).dtype',
     'torch.int64'),
    ('(torch.tensor(2.5) ** 2).dtype',
     'torch.float32'),
    ('torch.float32',
     'torch.float32'),
    ('torch.float64',
     'torch.float64'),
    ('torch.int64',
     'torch.int64'),
    ('torch.bool',
     'torch.bool'),
    ('torch.float',
     'torch.float32'),
    ('torch.double',
     'torch.float64'),
    ('torch.long',
     'torch.int64'),
    ('torch.float32.is_floating_point',
     'True'),
    ('torch.int64.is_floating_point',
     'False'),
    ('torch.tensor(2.5).item()',
     '2.5'),
    ('torch.tensor(3).item()',
     '3'),
    ('torch.tensor(True).item()',
     'True'),
    ('torch.tensor([[7.]]).item()',
     '7.0'),
    ('torch.tensor([1., 2.]).item()',
     'RuntimeError: a Tensor with 2 elements cannot be converted to Scalar'),
    ('torch.tensor([1., 2.]).tolist()',
     '[1.0, 2.0]'),
    ('torch.tensor([[1, 2], [3, 4]]).tolist()',
     '[[1, 2], [3, 4]]'),
    ('torch.tensor(2.5).tolist()',
     '2.5'),
    ('torch.tensor([1., 2.]).numpy()',
     'array([1., 2.], dtype=float32)'),
    ('torch.tensor([1., 2.], requires_grad=True).numpy()',
     "RuntimeError: Can't call numpy() on Tensor that requires grad. Use "
     "tensor.detach().numpy() instead."),
    ('torch.tensor([1., 2.], requires_grad=True).detach().numpy()',
     'array([1., 2.], dtype=float32)'),
    ('float(torch.tensor([2.5]))',
     '2.5'),
    ('float(torch.tensor([1., 2.]))',
     'ValueError: only one element tensors can be converted to Python scalars'),
    ('int(torch.tensor(3.7))',
     '3'),
    ('int(torch.tensor([1, 2]))',
     'ValueError: only one element tensors can be converted to Python scalars'),
    ('bool(torch.tensor([0.]))',
     'False'),
    ('bool(torch.tensor(1))',
     'True'),
    ('bool(torch.tensor([1., 2.]))',
     'RuntimeError: Boolean value of Tensor with more than one value is ambiguous'),
    ('bool(torch.tensor([]))',
     'RuntimeError: Boolean value of Tensor with no values is ambiguous'),
    ('len(torch.zeros(4, 2))',
     '4'),
    ('len(torch.tensor(1.))',
     'TypeError: len() of a 0-d tensor'),
    ('list(torch.tensor([1., 2.]))',
     '[tensor(1.), tensor(2.)]'),
    ('list(torch.tensor([[1, 2], [3, 4]]))',
     '[tensor([1, 2]), tensor([3, 4])]'),
    ('list(torch.tensor(1.))',
     'TypeError: iteration over a 0-d tensor'),
    ('[float(v) for v in torch.tensor([1., 2.])]',
     '[1.0, 2.0]'),
    ('float(torch.tensor(2., requires_grad=True))',
     '2.0'),
    ('torch.tensor(2., requires_grad=True).item()',
     '2.0'),
    ('torch.tensor([1., 2.], requires_grad=True).tolist()',
     '[1.0, 2.0]'),
    ('torch.tensor([1, 2]).float()',
     'tensor([1., 2.])'),
    ('torch.tensor([1, 2]).double()',
     'tensor([1., 2.], dtype=torch.float64)'),
    ('torch.tensor([1.7, -2.7]).long()',
     'tensor([ 1, -2])'),
    ('torch.tensor([1, 0]).bool()',
     'tensor([ True, False])'),
    ('torch.tensor([1., 2.]).to(torch.float64)',
     'tensor([1., 2.], dtype=torch.float64)'),
    ("torch.tensor([1., 2.]).to('cpu')",
     'tensor([1., 2.])'),
    ('torch.tensor([1., 2.]).to(dtype=torch.int64)',
     'tensor([1, 2])'),
    ('torch.tensor([1., 2.]).to(torch.ones(1, dtype=torch.float64))',
     'tensor([1., 2.], dtype=torch.float64)'),
    ("torch.tensor([1., 2.]).to('cpu', torch.float64)",
     'tensor([1., 2.], dtype=torch.float64)'),
    ('torch.tensor([1., 2.], requires_grad=True).double()',
     'tensor([1., 2.], dtype=torch.float64, grad_fn=<ToCopyBackward0>)'),
    ('torch.tensor([1., 2.], requires_grad=True).to(torch.float64).grad_fn.name()',
     "'ToCopyBackward0'"),
    ('torch.tensor([1., 2.], requires_grad=True).float().grad_fn',
     'None'),
    ('torch.tensor([1., 2.]).cpu()',
     'tensor([1., 2.])'),
    ('torch.tensor([1., 2.]).type()',
     "'torch.FloatTensor'"),
    ('torch.tensor([1, 2]).type()',
     "'torch.LongTensor'"),
    ('torch.tensor([1., 2.]).is_floating_point()',
     'True'),
    ('torch.tensor([1, 2]).is_floating_point()',
     'False'),
    ('torch.tensor([1., 2.]).element_size()',
     '4'),
    ('torch.tensor([1., 2.], requires_grad=True).clone()',
     'tensor([1., 2.], grad_fn=<CloneBackward0>)'),
    ('torch.tensor([1., 2.], requires_grad=True).clone().grad_fn.name()',
     "'CloneBackward0'"),
    ('torch.tensor([1., 2.], requires_grad=True).detach()',
     'tensor([1., 2.])'),
    ('torch.tensor([1., 2.], requires_grad=True).data',
     'tensor([1., 2.])'),
    ('torch.tensor([1., 2.], requires_grad=True).data.requires_grad',
     'False'),
    ('(torch.tensor([1., 2.], requires_grad=True) * 2).data',
     'tensor([2., 4.])'),
    ('(torch.tensor([1., 2.], requires_grad=True) * 2).data.is_leaf',
     'True'),
    ('torch.tensor([1., 2.]).requires_grad_()',
     'tensor([1., 2.], requires_grad=True)'),
    ('torch.tensor([1., 2.]).requires_grad_(False)',
     'tensor([1., 2.])'),
    ('torch.tensor([1., 2.], requires_grad=True).requires_grad_(False)',
     'tensor([1., 2.])'),
    ('torch.tensor([1., 2.]).requires_grad_().is_leaf',
     'True'),
    ('torch.tensor([1, 2]).requires_grad_(False)',
     'tensor([1, 2])'),
    ('torch.tensor([1., 2.], requires_grad=True).all()',
     'tensor(True)'),
    ('torch.tensor([1., 0.]).all()',
     'tensor(False)'),
    ('torch.tensor([1., 0.]).any()',
     'tensor(True)'),
    ('torch.tensor([0., 0.]).any()',
     'tensor(False)'),
    ('torch.tensor([[True, False], [True, True]]).all(dim=1)',
     'tensor([False,  True])'),
    ('torch.tensor([[True, False], [False, False]]).any(dim=0)',
     'tensor([ True, False])'),
    ('torch.tensor(3.14159)',
     'tensor(3.1416)'),
    ('torch.tensor(-0.5, dtype=torch.float64)',
     'tensor(-0.5000, dtype=torch.float64)'),
    ('torch.tensor(7)',
     'tensor(7)'),
    ('torch.tensor([1., 2.5, 3.])',
     'tensor([1.0000, 2.5000, 3.0000])'),
    ('torch.tensor([1, 2], dtype=torch.float64)',
     'tensor([1., 2.], dtype=torch.float64)'),
    ('torch.tensor([[1., 2.], [3., 4.]], dtype=torch.float64, requires_grad=True)',
     'tensor([[1., 2.],\n        [3., 4.]], dtype=torch.float64, requires_grad=True)'),
    ('torch.arange(8.).reshape(2, 2, 2)',
     'tensor([[[0., 1.],\n         [2., 3.]],\n\n        [[4., 5.],\n         [6., 7.]]])'),
    ('torch.arange(8).reshape(2, 2, 2)',
     'tensor([[[0, 1],\n         [2, 3]],\n\n        [[4, 5],\n         [6, 7]]])'),
    ('torch.arange(12, dtype=torch.float64).reshape(2, 2, 3) / 7',
     'tensor([[[0.0000, 0.1429, 0.2857],\n         [0.4286, 0.5714, 0.7143]],\n\n'
     '        [[0.8571, 1.0000, 1.1429],\n         [1.2857, 1.4286, 1.5714]]], '
     'dtype=torch.float64)'),
    ('torch.ones(2, 1, 2, requires_grad=True) * 2',
     'tensor([[[2., 2.]],\n\n        [[2., 2.]]], grad_fn=<MulBackward0>)'),
    ('torch.tensor([1e-5, 1.])',
     'tensor([1.0000e-05, 1.0000e+00])'),
    ('torch.tensor([1e10, 1.])',
     'tensor([1.0000e+10, 1.0000e+00])'),
    ('torch.tensor([123456.789, 0.1])',
     'tensor([1.2346e+05, 1.0000e-01])'),
    ('torch.tensor([[0.1, -0.25], [100., 3.]])',
     'tensor([[  0.1000,  -0.2500],\n        [100.0000,   3.0000]])'),
    ('torch.zeros(0, 3)',
     'tensor([], size=(0, 3))'),
    ('torch.tensor([True, False, True])',
     'tensor([ True, False,  True])'),
    ('torch.ones(2, dtype=torch.int32)',
     'tensor([1, 1], dtype=torch.int32)'),
    ('torch.ones(2, dtype=torch.float16)',
     'tensor([1., 1.], dtype=torch.float16)'),
    ("torch.tensor([float('nan'), float('inf'), -float('inf'), 1.])",
     'tensor([nan, inf, -inf, 1.])'),
]


@pytest.mark.parametrize(("expression", "expected"), EXPRESSIONS,
                         ids=[e for e, _ in EXPRESSIONS])
def test_expression(expression, expected):
    assert evaluate(expression, ag) == expected


@pytest.mark.parametrize("expression", [e for e, _ in EXPRESSIONS])
def test_expression_against_torch(expression, torch_oracle):
    if "rand" in expression and "dtype" not in expression and "shape" not in expression:
        torch_oracle.manual_seed(0)
        ag.manual_seed(0)
    assert evaluate(expression, ag) == evaluate(expression, torch_oracle)


# --- requires_grad --------------------------------------------------------------------------
def test_requires_grad_is_settable_on_leaves():
    x = ag.tensor([1., 2.])
    x.requires_grad = True
    assert x.requires_grad and x.is_leaf and x.grad is None
    (x * x).sum().backward()
    assert repr(x.grad) == "tensor([2., 4.])"
    x.requires_grad = False
    assert (x * 2).grad_fn is None


def test_requires_grad_spreads_through_operations_and_stops_at_constants():
    x = ag.tensor([1.], requires_grad=True)
    c = ag.tensor([2.])
    y = x * c
    assert (y.requires_grad, y.is_leaf, (c * c).requires_grad) == (True, False, False)


@pytest.mark.parametrize("make", [
    lambda: ag.tensor([1, 2], requires_grad=True),
    lambda: ag.zeros(2, dtype=ag.int64, requires_grad=True),
    lambda: ag.arange(3, requires_grad=True),
    lambda: ag.full((2,), True, requires_grad=True),
    lambda: ag.randint(0, 3, (2,), requires_grad=True),
])
def test_integer_factories_refuse_requires_grad(make):
    with pytest.raises(RuntimeError, match="^Only Tensors of floating point and complex dtype "
                                           "can require gradients$"):
        make()


def test_grad_assignment_checks_type_shape_and_dtype():
    x = ag.tensor([1., 2.], requires_grad=True)
    with pytest.raises(TypeError, match="^assigned grad expected to be a Tensor or None but got "
                                        "grad of type list$"):
        x.grad = [1., 2.]
    with pytest.raises(RuntimeError, match="^attempting to assign a gradient of size '\\[3\\]'"):
        x.grad = ag.ones(3)
    with pytest.raises(RuntimeError, match="^attempting to assign a gradient with dtype 'double' "
                                           "to a tensor with grad_dtype 'Float'"):
        x.grad = ag.ones(2, dtype=ag.float64)
    x.grad = ag.ones(2)
    (x * 1).sum().backward()
    assert repr(x.grad) == "tensor([2., 2.])"
    x.grad = None
    assert x.grad is None


# --- hooks and retain_grad -------------------------------------------------------------------
def test_leaf_hook_sees_and_replaces_the_gradient_before_accumulation():
    x = ag.tensor([1., 2.], requires_grad=True)
    seen = []
    x.register_hook(lambda g: seen.append(g.tolist()))
    x.register_hook(lambda g: g * 10)
    (x * 3).sum().backward()
    assert seen == [[3.0, 3.0]]
    assert repr(x.grad) == "tensor([30., 30.])"


def test_non_leaf_hook_changes_what_flows_on():
    x = ag.tensor([1., 2.], requires_grad=True)
    y = x * 2
    y.register_hook(lambda g: g + 1)
    (y * 3).sum().backward()
    assert repr(x.grad) == "tensor([8., 8.])"  # (3 + 1) * 2


def test_handle_remove_unregisters_the_hook():
    for make in (lambda x: x, lambda x: x * 1):
        x = ag.tensor([1.], requires_grad=True)
        t = make(x)
        calls = []
        handle = t.register_hook(calls.append)
        handle.remove()
        handle.remove()  # a second remove is harmless
        (t * 2).sum().backward()
        assert calls == [] and repr(x.grad) == "tensor([2.])"


def test_hook_on_tensor_without_grad_is_refused():
    with pytest.raises(RuntimeError, match="^cannot register a hook on a tensor that doesn't "
                                           "require gradient$"):
        ag.tensor([1.]).register_hook(lambda g: g)


def test_retain_grad_runs_after_the_other_hooks_and_accumulates():
    x = ag.tensor([1., 2.], requires_grad=True)
    b = x * 3
    b.retain_grad()
    b.register_hook(lambda g: g * 2)  # registered later, still runs before retain_grad
    z = b.sum()
    z.backward(retain_graph=True)
    assert repr(b.grad) == "tensor([2., 2.])" and repr(x.grad) == "tensor([6., 6.])"
    z.backward()
    assert repr(b.grad) == "tensor([4., 4.])"


def test_retain_grad_is_idempotent():
    y = ag.tensor([1.], requires_grad=True) * 2
    y.retain_grad()
    y.retain_grad()
    (y * 1).sum().backward()
    assert repr(y.grad) == "tensor([1.])"


# --- detach, clone, .data ------------------------------------------------------------------
def test_detach_shares_memory_and_version_counter():
    x = ag.tensor([1., 2.], requires_grad=True)
    d = x.detach()
    assert d.data_ptr() == x.data_ptr() and d.is_leaf and not d.requires_grad
    d.mul_(3)
    assert repr(x) == "tensor([3., 6.], requires_grad=True)"
    assert x._version == d._version == 1
    assert x.detach().detach().data_ptr() == x.data_ptr()


def test_detach_in_place():
    x = ag.tensor([1., 2.], requires_grad=True)
    y = x * 2
    assert y.detach_() is y
    assert (y.requires_grad, y.grad_fn, y.is_leaf) == (False, None, True)
    (x * 1).sum().backward()  # x's own graph is untouched
    assert repr(x.grad) == "tensor([1., 1.])"


def test_clone_copies_memory_and_passes_the_gradient():
    x = ag.tensor([1., 2.], requires_grad=True)
    c = x.clone()
    assert c.data_ptr() != x.data_ptr()
    assert repr(c) == "tensor([1., 2.], grad_fn=<CloneBackward0>)"
    (c * c).sum().backward()
    assert repr(x.grad) == "tensor([2., 4.])"
    plain = ag.tensor([1., 2.])
    copy = plain.clone()
    copy.add_(1)
    assert repr(plain) == "tensor([1., 2.])" and copy.is_leaf


def test_data_is_the_same_memory_outside_autograd():
    x = ag.tensor([1., 2.], requires_grad=True)
    d = x.data
    assert d.data_ptr() == x.data_ptr() and not d.requires_grad and d.is_leaf
    d.add_(1)
    assert x._version == 0 and repr(x) == "tensor([2., 3.], requires_grad=True)"
    x.data = ag.tensor([5., 6., 7.])
    assert repr(x) == "tensor([5., 6., 7.], requires_grad=True)" and x.shape == (3,)


# --- conversions ---------------------------------------------------------------------------------
def test_numpy_shares_memory_both_ways():
    x = ag.tensor([1., 2.])
    array = x.numpy()
    array[0] = 10.
    assert repr(x) == "tensor([10.,  2.])"
    source = np.array([1., 2.])
    t = ag.from_numpy(source)
    source[1] = 5.
    assert repr(t) == "tensor([1., 5.], dtype=torch.float64)"
    assert ag.as_tensor(source).data_ptr() == t.data_ptr()
    assert ag.tensor(source).data_ptr() != t.data_ptr()  # tensor() always copies


def test_python_number_conversions():
    assert float(ag.tensor(2.5)) == 2.5 and isinstance(float(ag.tensor(2)), float)
    assert int(ag.tensor([[7.9]])) == 7 and isinstance(ag.tensor(3).item(), int)
    assert isinstance(ag.tensor(3.).item(), float) and isinstance(ag.tensor(True).item(), bool)
    assert bool(ag.tensor(0.)) is False and bool(ag.tensor([2])) is True
    assert [1, 2, 3][ag.tensor(1)] == 2  # __index__ for integer tensors
    with pytest.raises(RuntimeError, match="^a Tensor with 2 elements cannot be converted to "
                                           "Scalar$"):
        ag.ones(2).item()


def test_len_and_iteration_give_rows():
    m = ag.tensor([[1., 2.], [3., 4.]], requires_grad=True)
    rows = list(m)
    assert len(m) == 2 and len(rows) == 2
    assert repr(rows[1].detach()) == "tensor([3., 4.])"
    sum(row.sum() for row in rows).backward()  # rows stay in the graph
    assert repr(m.grad) == "tensor([[1., 1.],\n        [1., 1.]])"
    with pytest.raises(TypeError, match="^len\\(\\) of a 0-d tensor$"):
        len(ag.tensor(1.))
    with pytest.raises(TypeError, match="^iteration over a 0-d tensor$"):
        iter(ag.tensor(1.))


def test_casts_keep_the_graph_and_give_the_gradient_the_leaf_dtype():
    x = ag.tensor([1., 2.], requires_grad=True)
    y = x.double()
    assert repr(y) == "tensor([1., 2.], dtype=torch.float64, grad_fn=<ToCopyBackward0>)"
    (y * y).sum().backward()
    assert repr(x.grad) == "tensor([2., 4.])"  # float32, like x
    assert x.float() is x and x.to(ag.float32) is x and x.to("cpu") is x
    assert x.to(ag.float32, copy=True) is not x
    assert x.long().dtype == ag.int64 and not x.long().requires_grad


def test_python_types_as_dtypes():
    assert ag.ones(2).to(float).dtype == ag.float64 == ag.zeros(2, dtype=float).dtype
    assert ag.ones(2).to(int).dtype == ag.int64 and ag.ones(2).to(bool).dtype == ag.bool
    assert ag.ones(2).to(np.dtype(np.float64)).dtype == ag.float64  # what the engine passes


def test_device_object():
    d = ag.device("cpu")
    assert (repr(d), str(d), d == "cpu", d.type, d.index) == (
        "device(type='cpu')", "cpu", True, "cpu", None)
    c = ag.device("cuda:1")
    assert (repr(c), str(c), c.index) == ("device(type='cuda', index=1)", "cuda:1", 1)
    assert ag.device("cuda", 0) == "cuda:0"
    with pytest.raises(RuntimeError, match="^Expected one of cpu, cuda device type at start of "
                                           "device string: tpu$"):
        ag.device("tpu")


# --- factories and the generator ---------------------------------------------------------------
def test_manual_seed_repeats_and_matches_torch_numbers():
    ag.manual_seed(0)
    first = ag.rand(3).tolist()
    ag.manual_seed(0)
    assert ag.rand(3).tolist() == first
    assert first == [0.49625658988952637, 0.7682217955589294, 0.08847743272781372]


def test_like_factories_copy_shape_dtype_device():
    base = ag.zeros(2, 3, dtype=ag.float64)
    for make in (ag.zeros_like, ag.ones_like, ag.rand_like, ag.randn_like):
        t = make(base)
        assert (t.shape, t.dtype, t.device) == (base.shape, ag.float64, base.device)
    assert ag.ones_like(base, requires_grad=True).requires_grad


def test_factories_make_leaves():
    for t in (ag.zeros(2, requires_grad=True), ag.randn(2, requires_grad=True),
              ag.linspace(0, 1, 3, requires_grad=True), ag.eye(2, requires_grad=True)):
        assert t.is_leaf and t.requires_grad and t.grad_fn is None


# --- repr -------------------------------------------------------------------------------------
@pytest.mark.parametrize(("make", "expected"), [
    (lambda: ag.tensor(2., requires_grad=True) * 3, "tensor(6., grad_fn=<MulBackward0>)"),
    (lambda: ag.tensor(2., dtype=ag.float64, requires_grad=True),
     "tensor(2., dtype=torch.float64, requires_grad=True)"),
    (lambda: ag.tensor([1.5, 2.], dtype=ag.float64) * ag.tensor(1., requires_grad=True),
     "tensor([1.5000, 2.0000], dtype=torch.float64, grad_fn=<MulBackward0>)"),
    (lambda: ag.ones(2, 2, dtype=ag.float64, requires_grad=True) + 1,
     "tensor([[2., 2.],\n        [2., 2.]], dtype=torch.float64, grad_fn=<AddBackward0>)"),
    (lambda: ag.arange(8.).reshape(2, 2, 2),
     "tensor([[[0., 1.],\n         [2., 3.]],\n\n        [[4., 5.],\n         [6., 7.]]])"),
    (lambda: ag.tensor([1, 2]).to(ag.int32), "tensor([1, 2], dtype=torch.int32)"),
])
def test_repr(make, expected):
    assert repr(make()) == expected == str(make())
