"""In-place writes into views and into bases that have views, against PyTorch (issue 13).

A write through a view changes its base, a write into a base changes its views; PyTorch keeps
the graph true to the memory with ``CopySlices`` and ``AsStridedBackward0``. The fixed cases
are the issue's; the property test runs random programs of views, in-place ops and backward
on both libraries and wants the same gradients, or the same error.
"""

from __future__ import annotations

import os
import re
import sys

import numpy as np
import pytest
from fake_cupy import make_module
from functions import double_in_place
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import autograd_course as ag
from autograd_course import _backend

torch = pytest.importorskip("torch")


def _grad(t):
    return None if t.grad is None else t.grad.detach().cpu().numpy()


# --- the cases the issue lists ------------------------------------------------------------------
def test_inplace_on_a_view_of_a_non_leaf_rewrites_the_base(lib_pair=(ag, torch)):
    seen = []
    for m in lib_pair:
        x = m.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = x * 1
        y[0:2].mul_(10)
        y.sum().backward()
        seen.append((_grad(x), type(y.grad_fn).__name__, y.grad_fn.name()))
    np.testing.assert_array_equal(seen[0][0], [10.0, 10.0, 1.0])
    np.testing.assert_array_equal(seen[0][0], seen[1][0])
    assert seen[0][1] == seen[1][1] == "CopySlices"


def test_a_view_taken_before_its_base_changed_follows_the_base():
    seen = []
    for m in (ag, torch):
        x = m.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = x * 1
        v = y[0:2]
        y.mul_(5)
        v.sum().backward()
        seen.append((_grad(x), type(v.grad_fn).__name__))
    np.testing.assert_array_equal(seen[0][0], [5.0, 5.0, 0.0])
    np.testing.assert_array_equal(seen[0][0], seen[1][0])
    assert seen[0][1] == seen[1][1] == "AsStridedBackward0"


def _graph(m):
    x = m.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 1
    v = y[0:2]
    v.mul_(10)
    return [type(y.grad_fn).__name__, type(v.grad_fn).__name__,
            [(type(n).__name__, i) for n, i in y.grad_fn.next_functions],
            [(type(n).__name__, i) for n, i in v.grad_fn.next_functions]]


def test_the_graph_after_a_write_into_a_view_is_pytorchs():
    assert _graph(ag) == _graph(torch)


def _base_without_grad(m):
    w = m.tensor([1.0, 2.0], requires_grad=True)
    b = m.zeros(3)
    before = b[1:3]  # taken before b had any history
    b[0:2].add_(w)
    (b * m.tensor([1.0, 2.0, 3.0])).sum().backward()
    return [b.requires_grad, b.is_leaf, before.requires_grad,
            type(before.grad_fn).__name__, _grad(w).tolist()]


def test_a_write_of_a_tensor_that_requires_grad_into_a_plain_tensor():
    assert _base_without_grad(ag) == _base_without_grad(torch)


def _no_grad_view(m, other):
    x = m.ones(3, requires_grad=True)
    y = x * 1
    with m.no_grad():
        v = y[0:2]
    try:
        v.mul_(other(m))
    except RuntimeError as error:
        return str(error)
    raise AssertionError("a write into a view taken under no_grad was accepted")


@pytest.mark.parametrize("other", [lambda m: 2, lambda m: m.ones(2, requires_grad=True)])
def test_a_view_taken_under_no_grad_cannot_be_written_with_grad_on(other):
    assert _no_grad_view(ag, other) == _no_grad_view(torch, other)


def _double_backward(m):
    x = m.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * x
    y[0:2].mul_(3)
    v = y[1:3]  # a view whose history is re-made from y's
    seen = []
    for out, grad_outputs in ((y.sum(), None), (y, m.tensor([1.0, 2.0, 3.0])),
                              (v, m.ones(2, requires_grad=True))):
        (g,) = m.autograd.grad(out, x, grad_outputs=grad_outputs, create_graph=True)
        inputs = [x] if grad_outputs is None or not grad_outputs.requires_grad \
            else [x, grad_outputs]
        seen.append([_grad_of(gg) for gg in m.autograd.grad((g * g).sum(), inputs)])
    return seen


def _grad_of(t):
    return t.detach().cpu().numpy().tolist()


def test_double_backward_through_written_views():
    assert _double_backward(ag) == _double_backward(torch)


# --- random programs ---------------------------------------------------------------------------
SHAPE = (3, 4)

_step = st.one_of(
    st.tuples(st.just("slice"), st.integers(0, 9), st.integers(0, 1), st.integers(0, 2),
              st.integers(1, 3)),
    st.tuples(st.just("select"), st.integers(0, 9), st.integers(0, 1), st.integers(0, 2)),
    st.tuples(st.just("transpose"), st.integers(0, 9)),
    st.tuples(st.just("flatten"), st.integers(0, 9)),
    st.tuples(st.just("mul_"), st.integers(0, 9), st.sampled_from([2.0, -0.5, 3.0])),
    st.tuples(st.just("add_w"), st.integers(0, 9)),
    st.tuples(st.just("mul_w"), st.integers(0, 9)),
    st.tuples(st.just("zero_"), st.integers(0, 9)),
    st.tuples(st.just("copy_w"), st.integers(0, 9)),
    st.tuples(st.just("setitem"), st.integers(0, 9), st.integers(0, 2)),
    st.tuples(st.just("setslice"), st.integers(0, 9), st.integers(0, 2)),
    st.tuples(st.just("div_w"), st.integers(0, 9)),
    st.tuples(st.just("unsqueeze"), st.integers(0, 9)),
    st.tuples(st.just("reshape"), st.integers(0, 9)),
    st.tuples(st.just("index"), st.integers(0, 9)),
    st.tuples(st.just("square"), st.integers(0, 9)),
    st.tuples(st.just("times"), st.integers(0, 9), st.integers(0, 9)),
)


def _run(m, program, loss_picks, seed: int):
    """Run ``program`` with library ``m``: what it returns is compared across libraries."""
    rng = np.random.default_rng(seed)
    x = m.tensor(rng.standard_normal(SHAPE), requires_grad=True)
    tensors, leaves = [x * 1.5], [x]

    def new_leaf(shape):
        leaf = m.tensor(rng.standard_normal(shape), requires_grad=True)
        leaves.append(leaf)
        return leaf

    def pick(i):
        return tensors[i % len(tensors)]

    for step in program:
        kind, t = step[0], pick(step[1])
        try:
            if kind == "slice":
                dim, start, length = step[2] % max(t.dim(), 1), step[3], step[4]
                if t.dim() == 0 or start >= t.shape[dim]:
                    continue
                key = (slice(None),) * dim + (slice(start, start + length),)
                tensors.append(t[key])
            elif kind == "select":
                dim, index = step[2] % max(t.dim(), 1), step[3]
                if t.dim() == 0 or index >= t.shape[dim]:
                    continue
                tensors.append(t.select(dim, index))
            elif kind == "transpose":
                tensors.append(t.transpose(0, -1) if t.dim() else t)
            elif kind == "flatten":
                tensors.append(t.view(-1))
            elif kind == "mul_":
                t.mul_(step[2])
            elif kind == "add_w":
                t.add_(new_leaf(tuple(t.shape)))
            elif kind == "mul_w":
                t.mul_(new_leaf(tuple(t.shape)))
            elif kind == "zero_":
                t.zero_()
            elif kind == "copy_w":
                t.copy_(new_leaf(tuple(t.shape)) * 2)
            elif kind == "setitem":
                if t.dim() == 0 or step[2] >= t.shape[0]:
                    continue
                t[step[2]] = new_leaf(tuple(t.shape[1:]))
            elif kind == "setslice":
                if t.dim() == 0 or step[2] >= t.shape[0]:
                    continue
                t[step[2]:] = new_leaf((t.shape[0] - step[2],) + tuple(t.shape[1:])) * 3
            elif kind == "div_w":
                t.div_(new_leaf(tuple(t.shape)).exp())
            elif kind == "unsqueeze":
                tensors.append(t.unsqueeze(-1))
            elif kind == "reshape":  # a view when it can be, else a copy
                tensors.append(t.reshape(-1))
            elif kind == "index":  # advanced indexing: a copy
                if t.dim() and t.shape[0] >= 2:
                    tensors.append(t[[1, 0]])
            elif kind == "square":
                tensors.append(t * t)
            elif kind == "times":
                other = pick(step[2])
                if tuple(other.shape) != tuple(t.shape):
                    continue
                tensors.append(t * other)
        except RuntimeError as error:
            return ("error at", kind, str(error).split("\n")[0])
    weights = np.random.default_rng(seed + 1)
    loss = 0
    for i in loss_picks:
        t = pick(i)
        loss = loss + (t * m.tensor(weights.standard_normal(tuple(t.shape)))).sum()
    if not isinstance(loss, (ag.Tensor, torch.Tensor)) or not loss.requires_grad:
        return ("no graph",)
    try:
        loss.backward()
    except RuntimeError as error:
        return ("error in backward", str(error).split("\n")[0])
    return ("grads", [_grad(leaf) for leaf in leaves])


_WHICH = re.compile(r"inplace operation: .*")


def _same(ours, theirs) -> bool:
    """Same gradients, or the same error (at whichever step). When several saved tensors went
    stale, PyTorch and we may check a different one first, so the version error is compared
    without the part that describes the stale tensor."""
    if ours[0] == "grads" or theirs[0] == "grads":
        return ours[0] == theirs[0] and len(ours[1]) == len(theirs[1]) and all(
            (a is None and b is None) or (a is not None and b is not None and np.allclose(a, b))
            for a, b in zip(ours[1], theirs[1]))
    return _WHICH.sub("inplace operation", ours[-1]) == _WHICH.sub("inplace operation", theirs[-1])


@settings(max_examples=int(os.environ.get("VIEW_PROGRAMS", "500")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(program=st.lists(_step, min_size=1, max_size=8),
       loss_picks=st.lists(st.integers(0, 9), min_size=1, max_size=3),
       seed=st.integers(0, 2**16))
def test_random_view_and_inplace_programs_match_pytorch(program, loss_picks, seed):
    ours, theirs = _run(ag, program, loss_picks, seed), _run(torch, program, loss_picks, seed)
    event(" ".join(map(str, theirs[:2])) if theirs[0] == "error at" else theirs[0])
    assert _same(ours, theirs), (program, loss_picks, ours, theirs)


# --- every kind of in-place op, written into a view ---------------------------------------------
INPLACE_OPS = {
    "add_ alpha": lambda m, v, w: v.add_(w, alpha=0.5),
    "sub_ alpha": lambda m, v, w: v.sub_(w, alpha=2),
    "mul_": lambda m, v, w: v.mul_(w),
    "div_": lambda m, v, w: v.div_(w.exp()),
    "clamp_": lambda m, v, w: v.clamp_(min=0.5, max=2.5),
    "fill_": lambda m, v, w: v.fill_(3.0),
    "fill_ tensor": lambda m, v, w: v.fill_(w.sum()),
    "zero_": lambda m, v, w: v.zero_(),
    "copy_": lambda m, v, w: v.copy_(w),
    "masked_fill_": lambda m, v, w: v.masked_fill_(m.tensor([True, False]), 7.0),
    "index_put_ accumulate": lambda m, v, w: v.index_put_((m.tensor([1, 1]),), w, accumulate=True),
    "setitem list": lambda m, v, w: v.__setitem__([0], w[1:]),
    "setitem ellipsis": lambda m, v, w: v.__setitem__(Ellipsis, w),
    "relu inplace": lambda m, v, w: m.nn.functional.relu(v, inplace=True),
    "leaky_relu inplace": lambda m, v, w: m.nn.functional.leaky_relu(v, 0.1, inplace=True),
    "pow_": lambda m, v, w: v.pow_(2),
    "pow_ tensor": lambda m, v, w: v.pow_(w),
    **{method: lambda m, v, w, method=method: getattr(v, method)()
       for method in ("relu_", "sigmoid_", "tanh_", "exp_", "log_", "sqrt_", "reciprocal_",
                      "abs_", "neg_", "sign_", "sin_", "cos_")},
}


def _write_into_view(m, op):
    x = m.tensor([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]], requires_grad=True)
    w = m.tensor([0.5, -1.5], requires_grad=True)
    y = x * 1.5
    other_view = y[:, 1]  # a view of y taken before the write
    v = y[:, 0:2][1]      # the view written into: y[1, 0:2]
    op(m, v, w)
    weights = m.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    ((y * weights).sum() + (other_view * m.tensor([7.0, 8.0])).sum()).backward()
    return type(y.grad_fn).__name__, [_grad(t) if t.is_leaf else t.detach().numpy()
                                      for t in (y, x, w)]


@pytest.mark.parametrize("name", sorted(INPLACE_OPS))
def test_each_inplace_op_into_a_view(name):
    (our_node, ours), (their_node, theirs) = (_write_into_view(m, INPLACE_OPS[name])
                                              for m in (ag, torch))
    assert our_node == their_node == "CopySlices"
    for a, b in zip(ours, theirs):
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)


# --- on a GPU (real CuPy when there is one, else the fake CuPy of tests/fake_cupy.py) ---------
def _views_on(device):
    x = ag.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], device=device, requires_grad=True)
    w = ag.tensor([0.5, -1.5], device=device, requires_grad=True)
    y = x * 1.5
    before = y.t()[1]
    y[1, 0:2].mul_(w)
    y[0, 1:] = w * 2
    y.t()[2].add_(1.0)
    (y.sum() + (before * ag.tensor([3.0, 4.0], device=device)).sum()).backward()
    return [t.detach().cpu().numpy() for t in (y, before, x.grad, w.grad)]


def test_writes_into_views_on_the_gpu(monkeypatch):
    if not (ag.cuda.is_available() and not getattr(_backend._cupy, "is_fake", False)):
        module = make_module()
        monkeypatch.setattr(_backend, "_cupy", module)
        monkeypatch.setitem(sys.modules, "cupy", module)
    for on_gpu, on_cpu in zip(_views_on("cuda"), _views_on("cpu")):
        np.testing.assert_allclose(on_gpu, on_cpu, rtol=1e-6)


# --- a learner's Function that changes its input in place (ctx.mark_dirty) ----------------------
def _dirty(m, where):
    x = m.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 1
    before = y[1:3]
    target = {"view": lambda: y[0:2], "base": lambda: y, "leaf": lambda: x,
              "view of a leaf": lambda: x[0:2]}[where]()
    try:
        out = double_in_place(m).apply(target)
    except RuntimeError as error:
        return str(error)
    ((y * m.tensor([1.0, 2.0, 3.0])).sum() + (before * m.tensor([4.0, 5.0])).sum()).backward()
    return [out.grad_fn.name().split("::")[-1], y.grad_fn.name().split("::")[-1],
            before.grad_fn.name(), x.grad.tolist()]


@pytest.mark.parametrize("where", ["view", "base", "leaf", "view of a leaf"])
def test_mark_dirty_on_views_and_bases(where):
    assert _dirty(ag, where) == _dirty(torch, where)


# --- out= into a tensor that requires grad -----------------------------------------------------
def _out_into(m, where, grad_on):
    x = m.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 1
    out = {"non-leaf": lambda: y, "view": lambda: y[0:2], "leaf": lambda: x}[where]()
    try:
        with m.set_grad_enabled(grad_on):
            m.mul(m.ones(out.shape), 5.0, out=out)
    except RuntimeError as error:
        return str(error)
    return [x.detach().numpy().tolist(), y.detach().numpy().tolist()]


@pytest.mark.parametrize("grad_on", [True, False])
@pytest.mark.parametrize("where", ["non-leaf", "view", "leaf"])
def test_out_into_a_tensor_that_requires_grad(where, grad_on):
    assert _out_into(ag, where, grad_on) == _out_into(torch, where, grad_on)


def _write_after(m, method):
    x = m.tensor([0.5, 2.0, 3.0], requires_grad=True)
    y = x * 1
    getattr(y, method)()  # the op keeps its result for backward
    y.add_(1.0)  # ... and that result is now overwritten
    try:
        y.sum().backward()
    except RuntimeError as error:
        return str(error).split(":")[0]
    return x.grad.numpy()


@pytest.mark.parametrize("method", ["relu_", "sigmoid_", "tanh_", "exp_", "sqrt_",
                                    "reciprocal_"])
def test_in_place_ops_keep_their_result_itself(method):
    """An in-place op that keeps its result for backward keeps the tensor it wrote into (its
    Function marks it dirty and saves it), so a later write into it is refused at backward,
    with PyTorch's message (the gradient would use the overwritten values)."""
    ours = _write_after(ag, method)
    assert ours == _write_after(torch, method) == (
        "one of the variables needed for gradient computation has been modified by an "
        "inplace operation")
