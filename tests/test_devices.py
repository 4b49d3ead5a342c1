"""Every op, layer, loss and optimizer on every device, against the same computation on the CPU.

The ``device`` fixture runs each test on ``cpu`` and on a GPU: real CUDA when CuPy sees one
(``ag.cuda.is_available()``), otherwise the fake CuPy of tests/fake_cupy.py under the device
name ``cuda``. The fake's "GPU" arrays refuse host arrays and it offers only what CuPy offers,
so an op that leaves the device, or reaches for a NumPy-only function, fails here too.

Each check builds the inputs on the device, runs forward and backward (with a random upstream
gradient, so every element's gradient matters), and compares values and gradients with the
CPU run in float64. It also asserts that every result, gradient and optimizer state is on the
device, as the array type of the device.
"""

from __future__ import annotations

import io
import sys

import numpy as np
import pytest
from fake_cupy import make_module

import autograd_course as ag
from autograd_course import _backend, nn, ops, optim
from autograd_course.nn import functional as F


def _real_cuda() -> bool:
    """True when real CuPy sees a GPU (the fake is never installed at collection time)."""
    return ag.cuda.is_available() and not getattr(_backend._cupy, "is_fake", False)


GPU = "cuda" if _real_cuda() else "fake-cuda"
MIXED = (r"^Expected all tensors to be on the same device, but found at least two devices, "
         r"(cuda:0 and cpu|cpu and cuda:0)!")
RTOL, ATOL = 1e-9, 1e-12  # float64 on both sides: only the summation order may differ
# x / 0 and the like: the package silences NumPy's warnings, as PyTorch is silent, but pytest
# resets warning filters for each test
pytestmark = pytest.mark.filterwarnings("ignore:.*encountered in:RuntimeWarning")


def _use(name: str, monkeypatch) -> str:
    if name == "fake-cuda":
        module = make_module()
        monkeypatch.setattr(_backend, "_cupy", module)
        monkeypatch.setitem(sys.modules, "cupy", module)
        return "cuda"
    return name


@pytest.fixture(params=["cpu", GPU])
def device(request, monkeypatch) -> str:
    """'cpu', then 'cuda' (real, or the fake CuPy when there is no GPU)."""
    return _use(request.param, monkeypatch)


@pytest.fixture(params=[GPU])
def gpu(request, monkeypatch) -> str:
    """'cuda' only: for checks that need two devices."""
    return _use(request.param, monkeypatch)


# --- helpers ---------------------------------------------------------------------------------
def assert_on(t, device: str) -> None:
    """``t`` lives on ``device``: its ``device`` says so and its array is that device's type."""
    assert isinstance(t, ag.Tensor), type(t)
    if device == "cpu":  # a NumPy array (or, for 0-d results, possibly a NumPy scalar)
        assert str(t.device) == "cpu", t.device
        assert type(t._data) is np.ndarray or isinstance(t._data, np.generic), type(t._data)
    else:
        assert str(t.device) == "cuda:0", t.device
        assert isinstance(t._data, _backend.cupy().ndarray) and type(t._data) is not np.ndarray


def host(t) -> np.ndarray:
    return t.detach().cpu().numpy()


def assert_close(actual, expected, rtol=RTOL, atol=ATOL) -> None:
    """Same dtype and shape, values equal up to float64 rounding."""
    if isinstance(expected, ag.Tensor):
        assert actual.dtype == expected.dtype and actual.shape == expected.shape
        actual, expected = host(actual), host(expected)
        scale = float(np.abs(expected).max()) if expected.size and expected.dtype.kind == "f" \
            else 1.0
        np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol * max(scale, 1.0))
    else:
        assert actual == expected


def _tensors(result) -> list:
    if isinstance(result, ag.Tensor):
        return [result]
    if isinstance(result, (tuple, list)):
        return [r for r in result if isinstance(r, ag.Tensor)]
    return []


def _upstream(out, device: str):
    """A fixed random gradient for ``out`` (the same on every device)."""
    rng = np.random.default_rng(abs(hash(out.shape)) % 2**32)
    return ag.tensor(rng.standard_normal(out.shape), dtype=out.dtype).to(device)


def backward_random(outputs, device: str) -> None:
    """backward() of sum(out · g) over the outputs that require grad, g random but fixed."""
    terms = [(o * _upstream(o, device)).sum() for o in outputs
             if o.requires_grad and o.is_floating_point()]
    if terms:
        sum(terms[1:], terms[0]).backward()


def run(fn, arrays, device: str):
    """``fn`` on leaves made from ``arrays`` on ``device``; forward and backward results."""
    leaves = [ag.tensor(a).to(device) for a in arrays]
    for leaf in leaves:
        assert_on(leaf, device)
        if leaf.is_floating_point():
            leaf.requires_grad_()
    result = fn(*leaves)
    outputs = _tensors(result)
    for out in outputs:
        assert_on(out, device)
    backward_random(outputs, device)
    grads = [leaf.grad for leaf in leaves if leaf.requires_grad]
    for g in grads:
        if g is not None:
            assert_on(g, device)
    return result, outputs, grads


def check_against_cpu(fn, arrays, device: str, rtol=RTOL, atol=ATOL) -> None:
    ref_result, ref_outputs, ref_grads = run(fn, arrays, "cpu")
    result, outputs, grads = run(fn, arrays, device)
    if not ref_outputs:  # a Python value (allclose, equal)
        assert result == ref_result
    assert len(outputs) == len(ref_outputs)
    for out, ref in zip(outputs, ref_outputs):
        assert_close(out, ref, rtol, atol)
    for g, ref in zip(grads, ref_grads):
        assert (g is None) == (ref is None)
        if ref is not None:
            assert_close(g, ref, rtol, atol)


# --- inputs ----------------------------------------------------------------------------------
def normal(*shape):
    return ("normal", shape)


def positive(*shape):
    return ("positive", shape)


def prob(*shape):
    return ("prob", shape)


def ints(*shape, high=5):
    return ("ints", shape, high)


def bools(*shape):
    return ("bools", shape)


def f32(*shape):
    return ("f32", shape)


def make_arrays(specs, seed: int):
    rng = np.random.default_rng(seed)
    out = []
    for kind, shape, *extra in specs:
        if kind == "normal":
            out.append(rng.standard_normal(shape))
        elif kind == "f32":
            out.append(rng.standard_normal(shape).astype(np.float32))
        elif kind == "positive":
            out.append(rng.uniform(0.5, 2.0, shape))
        elif kind == "prob":
            out.append(rng.uniform(0.05, 0.95, shape))
        elif kind == "ints":
            out.append(rng.integers(0, extra[0], shape).astype(np.int64))
        else:
            out.append(rng.integers(0, 2, shape).astype(bool))
    return out


def _idx(x, values):
    """An int64 index tensor on ``x``'s device."""
    return ag.tensor(values, device=x.device)


def _setitem(key):
    def fn(x, v):
        y = x * 1.0
        y[key(y) if callable(key) else key] = v
        return y
    return fn


def _dropout(x):
    ag.manual_seed(3)  # the mask comes from our generator: the same on every device
    return F.dropout(x, 0.4)


# (id, function, inputs): every public function of autograd_course.ops, and the Tensor
# methods and nn.functional functions built on them.
OP_CASES = [
    # arithmetic, with broadcasting and Python numbers
    ("add", lambda a, b: ops.add(a, b), [normal(3, 4), normal(4)]),
    ("add-alpha", lambda a, b: ops.add(a, b, alpha=2.5), [normal(3, 1), normal(1, 4)]),
    ("sub", lambda a, b: ops.sub(a, b, alpha=0.5) + ops.subtract(b, a), [normal(3, 4)] * 2),
    ("mul", lambda a, b: ops.mul(a, b) + ops.multiply(a, 2.0), [normal(2, 3), normal(3)]),
    ("div", lambda a, b: ops.div(a, b) + ops.divide(1.0, b) + ops.true_divide(a, 4),
     [normal(2, 3), positive(2, 3)]),
    ("neg", lambda a: ops.neg(a) + ops.negative(a) - a, [normal(5)]),
    ("pow", lambda a, b: ops.pow(a, b) + ops.pow(a, 3) + 2.0 ** b + a ** 0.5,
     [positive(2, 3), normal(2, 3)]),
    ("reciprocal", lambda a: ops.reciprocal(a), [positive(4)]),
    ("rsub", lambda a, b: ops.rsub(a, b, alpha=2) + ops.rsub(a, 1.5), [normal(3), normal(3)]),
    ("rdiv", lambda a, b: ops.rdiv(a, 1.5) + ops.rdiv(a, b), [normal(3), normal(3)]),
    ("operators", lambda a, b: (1 - a) * (b + 2) / (3 + b * b) - (-a) ** 2,
     [normal(3, 2), normal(2)]),
    ("int-arith", lambda i, j: (i + j, i * 2, i - j, i / (j + 1), -i, i ** 2),
     [ints(3, 4), ints(3, 4)]),
    ("promotion", lambda a, b, i: (a + b, a * i, i * 1.5, i + True,
                                   b * ag.tensor(2.0).to(b.device)),
     [f32(3), normal(3), ints(3)]),
    ("floor_divide-remainder", lambda a, b, i: (
        ops.floor_divide(a.detach(), b.detach()), ops.remainder(a, b), ops.remainder(a, 0.7),
        i // 2, i % 3, ag.div(a, b, rounding_mode="trunc")),
     [normal(3, 4), positive(3, 4), ints(3, 4)]),
    ("masked_fill-where", lambda a, m: (ops.masked_fill(a, m, 0.5), ops.masked_fill_(a * 1.0, m, 2),
                                        ops.nonzero(m), ops.argwhere(m), ag.where(m)),
     [normal(3, 4), bools(3, 4)]),
    ("index_put_", lambda a, v: ops.index_put_(a * 1.0, (_idx(a, [0, 2, 0]),), v,
                                               accumulate=True), [normal(3, 4), normal(4)]),
    ("activations", lambda a: (ops.leaky_relu(a, 0.1), ops.elu(a), ops.gelu(a),
                               ops.gelu(a, approximate="tanh"), ops.silu(a)), [normal(3, 4)]),
    ("extra-losses", lambda a, b, p, q: (ops.huber_loss(a, b, delta=0.5), ops.smooth_l1_loss(a, b),
                                         ops.kl_div(p.log(), q, reduction="batchmean"),
                                         ops.xlogy(p, q)),
     [normal(3, 4), normal(3, 4), prob(3, 4), prob(3, 4)]),
    # unary
    ("abs-sign", lambda a: ops.abs(a) + ops.sign(a) * a, [normal(6)]),
    ("exp-log", lambda a, p: ops.exp(a) + ops.log(p), [normal(4), positive(4)]),
    ("sqrt", lambda p: ops.sqrt(p), [positive(2, 3)]),
    ("sin-cos-tanh", lambda a: ops.sin(a) * ops.cos(a) + ops.tanh(a), [normal(3, 3)]),
    ("tan", lambda a: ops.tan(a), [normal(3, 3)]),
    ("diagflat", lambda x: (ops.diagflat(x), ops.diagflat(x, 1)), [normal(3, 4)]),
    ("sigmoid-relu", lambda a: ops.sigmoid(a) + ops.relu(a), [normal(3, 3)]),
    ("clamp", lambda a: ops.clamp(a, -0.5, 0.5) + ops.clamp(a, min=0.1) + ops.clip(a, max=-0.2),
     [normal(10)]),
    ("clamp-int", lambda i: ops.clamp(i, 1, 3), [ints(6)]),
    # reductions
    ("sum", lambda a: (ops.sum(a), ops.sum(a, 1), ops.sum(a, (0, 2), keepdim=True)),
     [normal(2, 3, 4)]),
    ("sum-dtype", lambda i: ops.sum(i, dtype=ag.float64) + ops.sum(i, 0).sum(), [ints(3, 2)]),
    ("mean", lambda a: (ops.mean(a), ops.mean(a, -1, keepdim=True), a.mean((0, 1))),
     [normal(2, 3, 4)]),
    ("max-min", lambda a: (ops.max(a), ops.min(a), *ops.max(a, 1), *ops.min(a, 0, True)),
     [normal(4, 5)]),
    ("max-binary", lambda a, b: ops.max(a, b) + ops.min(a, b), [normal(3, 4), normal(4)]),
    ("amax-amin", lambda a: (ops.amax(a), ops.amax(a, 1), ops.amin(a, (0, 1)),
                             ops.amin(a, 0, True)),
     [normal(3, 4)]),
    ("argmax-argmin", lambda a: (ops.argmax(a), ops.argmax(a, 1), ops.argmin(a, 0, True),
                                 ops.argmin(a)), [normal(3, 4)]),
    ("all-any", lambda b: (ops.all(b), ops.any(b), ops.all(b, 1), ops.any(b, 0, True)),
     [bools(3, 4)]),
    ("sum_to_size", lambda a: ops.sum_to_size(a, 1, 4) + ops.sum_to_size(a, (3, 1)).sum(),
     [normal(3, 4)]),
    # statistics
    ("norm", lambda a: (ops.norm(a), ops.norm(a, 1), ops.norm(a, 2, 1), a.norm(dim=0)),
     [normal(3, 4)]),
    ("var-std", lambda a: (ops.var(a), ops.std(a, 1), ops.var(a, 0, unbiased=False),
                           ops.std(a, correction=0), ops.var(a, 1, keepdim=True)),
     [normal(3, 4)]),
    # shapes and views
    ("clone", lambda a: ops.clone(a) * 2, [normal(2, 3)]),
    ("expand", lambda a: ops.expand(a, 2, 3, 4) + a.expand_as(ag.ones(3, 4).to(a.device)),
     [normal(3, 1)]),
    ("flatten", lambda a: (ops.flatten(a), ops.flatten(a, 1), a.flatten(0, 1)), [normal(2, 3, 2)]),
    ("permute", lambda a: ops.permute(a, 2, 0, 1) * 1.5, [normal(2, 3, 4)]),
    ("reshape-view", lambda a: (ops.reshape(a, 4, -1), a.view(2, 2, 3), a.view_as(a)),
     [normal(3, 4)]),
    ("squeeze", lambda a: (ops.squeeze(a), ops.squeeze(a, 1), ops.unsqueeze(a, 0)),
     [normal(3, 1, 4, 1)]),
    ("transpose", lambda a: (ops.t(a), ops.transpose(a, 0, 1), a.T, ops.numpy_t(a), a.mT),
     [normal(3, 4)]),
    ("contiguous", lambda a: a.t().contiguous() + 0, [normal(3, 4)]),
    ("views", lambda a: (ops.view(a, 4, 3), ops.contiguous(ops.t(a)) * 2,
                         ops.matrix_transpose(a)), [normal(3, 4)]),
    ("is_contiguous", lambda a: (ops.is_contiguous(a), ops.is_contiguous(ops.t(a))),
     [normal(3, 4)]),
    ("select", lambda a: ops.select(a, 1, 2) + ops.select(a, 0, -1).sum(), [normal(3, 4)]),
    ("getitem-basic", lambda a: (a[1], a[:, 1:3], a[::2], a[..., -1],
                                 a[None, 1:, 2]), [normal(3, 4)]),
    ("getitem-advanced", lambda a: (a[[2, 0, 2]], a[:, [1, 1]], a[_idx(a, [[0, 1], [2, 0]])],
                                    ops.getitem(a, (_idx(a, [0, 2]), _idx(a, [1, 3])))),
     [normal(3, 4)]),
    ("getitem-mask", lambda a: (a[a > 0], a[(a.sum(1) > 0)]), [normal(4, 3)]),
    ("setitem-basic", _setitem((slice(1, None), slice(None, None, 2))), [normal(3, 4), normal(2)]),
    ("setitem-int", _setitem(1), [normal(3, 4), normal(4)]),
    ("setitem-index", _setitem(lambda y: _idx(y, [2, 0])), [normal(3, 4), normal(2, 4)]),
    ("setitem-mask", _setitem(lambda y: y > 0.3), [normal(3, 4), normal()]),
    ("setitem-scalar", _setitem((0, 1)), [normal(2, 3), normal()]),
    ("setitem-number", lambda a: _put(a * 1, (0, slice(1, None)), 7.0), [normal(2, 3)]),
    # combining
    ("cat", lambda a, b: (ops.cat([a, b]), ops.concat([a, a], 1), ops.concatenate((b, a), -1)),
     [normal(2, 3), normal(2, 3)]),
    ("cat-promote", lambda a, b: ops.cat([a, b]), [f32(2), normal(3)]),
    ("stack", lambda a, b: (ops.stack([a, b]), ops.stack([a, b, a], 1)), [normal(2, 3)] * 2),
    ("where", lambda c, a, b: (ops.where(c, a, b), ops.where(a > 0, a, 0.0),
                               ops.where(c, 1.0, b)), [bools(3, 4), normal(3, 4), normal(4)]),
    # matrix products of every rank
    ("matmul-1x1", lambda a, b: ops.matmul(a, b) + ops.dot(a, b), [normal(3), normal(3)]),
    ("matmul-2x1", lambda a, b: ops.matmul(a, b) + ops.mv(a, b), [normal(2, 3), normal(3)]),
    ("matmul-1x2", lambda a, b: a @ b, [normal(3), normal(3, 4)]),
    ("matmul-2x2", lambda a, b: ops.matmul(a, b) + ops.mm(a, b), [normal(2, 3), normal(3, 4)]),
    ("matmul-3x2", lambda a, b: a @ b, [normal(5, 2, 3), normal(3, 4)]),
    ("matmul-2x3", lambda a, b: a @ b, [normal(2, 3), normal(5, 3, 4)]),
    ("matmul-3x3", lambda a, b: a @ b, [normal(5, 2, 3), normal(5, 3, 4)]),
    ("matmul-4x3-broadcast", lambda a, b: a @ b, [normal(2, 1, 2, 3), normal(5, 3, 4)]),
    ("matmul-4x1", lambda a, b: a @ b, [normal(4, 5, 2, 3), normal(3)]),
    ("matmul-1x3", lambda a, b: a @ b, [normal(3), normal(2, 3, 4)]),
    ("addmm", lambda c, a, b: ops.addmm(c, a, b), [normal(4), normal(2, 3), normal(3, 4)]),
    ("addmm-scaled", lambda c, a, b: ops.addmm(c, a, b, beta=0.5, alpha=2),
     [normal(4), normal(2, 3), normal(3, 4)]),
    ("addmv", lambda c, a, b: ops.addmv(c, a, b, beta=0.5, alpha=2),
     [normal(2), normal(2, 3), normal(3)]),
    ("addbmm", lambda c, a, b: ops.addbmm(c, a, b, beta=0.5, alpha=2),
     [normal(3), normal(2, 4, 2), normal(2, 2, 3)]),
    ("addr", lambda c, u, v: ops.addr(c, u, v, beta=0.5, alpha=2),
     [normal(4, 1), normal(4), normal(3)]),
    # comparisons and logic
    ("compare", lambda a, b: (ops.eq(a, b), ops.ne(a, 0.5), ops.lt(a, b), ops.le(a, 0.0),
                              ops.gt(a, b), ops.ge(b, a), a == a, a != b, a < 1, a >= b),
     [normal(3, 4), normal(4)]),
    ("logical", lambda b, c: (ops.logical_and(b, c), ops.logical_or(b, c), ops.logical_xor(b, c),
                              ops.logical_not(b), b & c, b | c, ~b),
     [bools(3, 4), bools(3, 4)]),
    ("bitwise", lambda i, j: (ops.bitwise_and(i, j), ops.bitwise_or(i, j), ops.bitwise_not(i),
                              ops.bitwise_xor(i, j), i & 3, i | j, i ^ 5),
     [ints(3, 4, high=8), ints(3, 4, high=8)]),
    ("close", lambda a, b: (ops.isclose(a, b), ops.isclose(a, a + 1e-9)), [normal(5), normal(5)]),
    ("allclose", lambda a, b: ops.allclose(a, a + 1e-9) and not ops.allclose(a, b),
     [normal(5), normal(5)]),
    ("equal", lambda a, b: (ops.equal(a, a * 1), ops.equal(a, b)), [normal(5), normal(5)]),
    ("finite", lambda a: (ops.isfinite(a / 0), ops.isinf(a / 0), ops.isnan(a * 0 / 0),
                          ops.isnan(a)), [normal(5)]),
    ("maximum-minimum", lambda a, b: ops.maximum(a, b) + ops.minimum(a, 0.0 * b),
     [normal(3, 4), normal(4)]),
    # in-place ops (on non-leaves, so they are recorded)
    ("add_", lambda a, b: ops.add_(a * 1, b, alpha=2).add_(1.5), [normal(3, 4), normal(4)]),
    ("sub_", lambda a, b: ops.sub_(a * 1, b, alpha=0.5).sub_(2), [normal(3, 4), normal(3, 4)]),
    ("mul_-div_", lambda a, b: ops.div_(ops.mul_(a * 1, b), b * b + 1).mul_(3),
     [normal(3), normal(3)]),
    ("clamp_", lambda a: ops.clamp_(a * 1, -0.3, 0.4), [normal(8)]),
    ("fill_-zero_", lambda a: (ops.fill_(a * 1, 2.5), ops.zero_(a * 1), a * 1), [normal(3)]),
    ("copy_", lambda a, b: ops.copy_(a * 1, b) * a, [normal(2, 3), normal(3)]),
    ("iops", lambda a, b: _iops(a * 1, b), [normal(3), normal(3)]),
    # conversions
    ("casts", lambda a: (a.float(), a.double() * 2, a.long(), a.int(), a.bool(), a.half(),
                         a.to(ag.float32), a.to(a.long())), [normal(4)]),
    ("detach", lambda a: a.detach() + a, [normal(3)]),
    # nn.functional
    ("linear", lambda x, w, b: (F.linear(x, w, b), F.linear(x, w)),
     [normal(4, 5), normal(3, 5), normal(3)]),
    ("linear-3d", lambda x, w, b: F.linear(x, w, b), [normal(2, 4, 5), normal(3, 5), normal(3)]),
    ("activations", lambda x: (F.relu(x), F.sigmoid(x), F.tanh(x)), [normal(3, 4)]),
    ("softmax", lambda x: (F.softmax(x, 1), F.log_softmax(x, 0), F.softmax(x, -1)),
     [normal(3, 4)]),
    ("softmax-dtype", lambda x: (ops.softmax(x, 0, dtype=ag.float64),
                                 ops.log_softmax(x, -1, dtype=ag.float64)), [normal(3, 4)]),
    ("cross_entropy", lambda x, t: (F.cross_entropy(x, t), F.cross_entropy(x, t, reduction="sum"),
                                    F.cross_entropy(x, t, reduction="none")),
     [normal(6, 4), ints(6, high=4)]),
    ("cross_entropy-options", lambda x, t, w: (
        F.cross_entropy(x, t, weight=w.abs() + 0.1),
        F.cross_entropy(x, t, ignore_index=2),
        F.cross_entropy(x, t, weight=w.abs(), ignore_index=0, reduction="sum")),
     [normal(6, 4), ints(6, high=4), normal(4)]),
    ("cross_entropy-probs", lambda x, p: F.cross_entropy(x, F.softmax(p, 1)),
     [normal(5, 3), normal(5, 3)]),
    ("nll_loss", lambda x, t, w: (F.nll_loss(F.log_softmax(x, 1), t),
                                  F.nll_loss(x, t, weight=w.abs(), ignore_index=0),
                                  F.nll_loss(x, t, reduction="none")),
     [normal(6, 4), ints(6, high=4), normal(4)]),
    ("mse-l1", lambda x, y: (F.mse_loss(x, y), F.mse_loss(x, y, reduction="none"),
                             F.l1_loss(x, y), F.l1_loss(x, y, reduction="sum")),
     [normal(3, 4), normal(3, 4)]),
    ("bce", lambda p, y, w: (F.binary_cross_entropy(p, y), F.binary_cross_entropy(p, y, w),
                             F.binary_cross_entropy(p, y, reduction="none")),
     [prob(3, 4), prob(3, 4), positive(3, 4)]),
    ("bce-with-logits", lambda x, y, w, pw: (
        ops.binary_cross_entropy_with_logits(x, y),
        F.binary_cross_entropy_with_logits(x, y, weight=w),
        F.binary_cross_entropy_with_logits(x, y, pos_weight=pw, reduction="sum"),
        F.binary_cross_entropy_with_logits(x, y, w, pos_weight=pw, reduction="none")),
     [normal(3, 4), prob(3, 4), positive(3, 4), positive(4)]),
    ("one_hot", lambda t: (F.one_hot(t), F.one_hot(t, 6)), [ints(5, high=4)]),
    ("conv2d", lambda x, w, b: F.conv2d(x, w, b),
     [normal(2, 3, 7, 7), normal(4, 3, 3, 3), normal(4)]),
    ("conv2d-stride-pad", lambda x, w: F.conv2d(x, w, stride=2, padding=1),
     [normal(2, 3, 8, 7), normal(4, 3, 3, 3)]),
    ("conv2d-dilation", lambda x, w, b: F.conv2d(x, w, b, stride=(1, 2), padding=(2, 1),
                                                 dilation=2),
     [normal(1, 2, 9, 9), normal(3, 2, 3, 2), normal(3)]),
    ("conv2d-groups", lambda x, w: F.conv2d(x, w, groups=2, padding=1),
     [normal(2, 4, 5, 5), normal(6, 2, 3, 3)]),
    ("conv2d-3d-input", lambda x, w: F.conv2d(x, w), [normal(3, 6, 6), normal(2, 3, 2, 2)]),
    ("max_pool2d", lambda x: (F.max_pool2d(x, 2), F.max_pool2d(x, 3, 2, 1),
                              F.max_pool2d(x, 2, dilation=2, ceil_mode=True)),
     [normal(2, 3, 7, 7)]),
    ("avg_pool2d", lambda x: (F.avg_pool2d(x, 2), F.avg_pool2d(x, 3, 2, 1),
                              F.avg_pool2d(x, 3, 2, 1, count_include_pad=False),
                              F.avg_pool2d(x, 2, ceil_mode=True),
                              F.avg_pool2d(x, 2, divisor_override=3)),
     [normal(2, 3, 7, 7)]),
    ("adaptive_avg_pool2d", lambda x: (F.adaptive_avg_pool2d(x, 1),
                                       F.adaptive_avg_pool2d(x, (2, 3)),
                                       F.adaptive_avg_pool2d(x, (None, 2))), [normal(2, 3, 7, 5)]),
    ("batch_norm", lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True),
     [normal(4, 3, 2, 2), normal(3), normal(3)]),
    ("batch_norm-eval", lambda x, m, v, w, b: F.batch_norm(x, m.detach(), v.detach(), w, b),
     [normal(5, 3), normal(3), positive(3), normal(3), normal(3)]),
    ("dropout", lambda x: (_dropout(x), F.dropout(x, 0.0), F.dropout(x, 1.0),
                           F.dropout(x, 0.5, training=False)), [normal(4, 5)]),
    # the op families of issue 31
    ("split-chunk-unbind", lambda x: (*ops.split(x, 2, 1), *ops.split(x, [1, 3], 1),
                                      *ops.chunk(x, 2), *ops.unbind(x, 1),
                                      ops.narrow(x, 1, -3, 2)), [normal(3, 4)]),
    ("arrange", lambda x: (ops.flip(x, [0]), ops.roll(x, 1, 1), ops.repeat(x, 2, 1),
                           ops.tile(x, (2,)), ops.tril(x), ops.triu(x, 1), ops.diagonal(x),
                           ops.diag(x), ops.diag(x[0]), ops.trace(x), ops.movedim(x, 0, 1),
                           ops.swapaxes(x, 0, 1), ops.unflatten(x, 1, (2, 2)),
                           ops.hstack([x, x]), ops.vstack([x, x])), [normal(3, 4)]),
    ("scan", lambda x: (ops.cumsum(x, 1), ops.cumprod(x, 0), ops.prod(x), ops.prod(x, 1),
                        ops.logsumexp(x, 1), *ops.var_mean(x, 0), *ops.std_mean(x, 1),
                        ops.median(x), ops.median(x, 1)[0], ops.count_nonzero(x), ops.cov(x)),
     [normal(3, 4)]),
    ("gather-scatter", lambda x, s: (
        ops.gather(x, 1, _idx(x, [[0, 3], [2, 2], [1, 0]])),
        ops.scatter(x, 1, _idx(x, [[0, 3], [2, 1], [1, 0]]), s),
        ops.scatter_add(x, 1, _idx(x, [[0, 3], [2, 2], [1, 0]]), s),
        ops.index_select(x, 1, _idx(x, [3, 0, 3])), ops.masked_select(x, x > 0),
        ops.take(x, _idx(x, [[0, 11], [5, -1]]))),
     [normal(3, 4), normal(3, 2)]),
    ("special", lambda x, y: (ops.log1p(y), ops.log2(y), ops.log10(y), ops.expm1(x),
                              ops.erf(x), ops.round(x * 3),
                              ops.trunc(x * 3), ops.frac(x * 3), ops.atan2(x, y),
                              ops.hypot(x, y), ops.lerp(x, y, 0.3), ops.lerp(x, y, y),
                              ops.nan_to_num(x.log()), ops.clamp_min(x, 0.1),
                              ops.igamma(y.detach() + 1, y),  # (no derivative in input)
                              ops.igammac(y.detach() + 1, y)),
     [normal(3, 4), positive(3, 4)]),
    ("products", lambda a, b, v: (ops.bmm(a, b), ops.baddbmm(a @ b, a, b),
                                  ops.einsum("bij,bjk->bik", a, b), ops.outer(v, v),
                                  ops.ger(v, v), ops.kron(v, v), ops.cdist(a[0], b[0].t()),
                                  ops.cross(v[:3], v[1:])),
     [normal(2, 3, 4), normal(2, 4, 3), normal(4)]),
    ("sorting", lambda x, i: (*ops.sort(x, 1), ops.argsort(x, 0), *ops.topk(x, 2),
                              ops.unique(i), ops.bincount(i.reshape(-1)),
                              *ops.meshgrid(x[0], x[1], indexing="ij"),
                              (ag.manual_seed(0), ops.multinomial(x.exp(), 2))[1]),
     [normal(3, 4), ints(3, 4)]),
    ("distinct-search", lambda x, i: (*ops.unique(i, return_inverse=True, return_counts=True),
                                      *ops.unique(i, dim=1), *ops.unique_dim(i, 0),
                                      *ops.unique_consecutive(i, return_counts=True),
                                      *ops.unique_consecutive(i, return_inverse=True, dim=0),
                                      ops.searchsorted(ops.sort(x, 1)[0], x.detach()),
                                      ops.searchsorted(x[0].detach(), x.detach(),
                                                       sorter=ops.argsort(x[0]), right=True),
                                      ops.bucketize(x.detach(), ops.sort(x[0])[0], right=True)),
     [normal(3, 4), ints(3, 4)]),
    ("lobpcg", lambda a: tuple(  # (each eigenvector's sign made that of its largest entry)
        t for d, u in [ops.lobpcg(a @ a.mT / 10, k=2), ops.lobpcg(a @ a.mT, k=1, largest=False)]
        for t in (d, u * u.gather(-2, u.abs().max(-2, keepdim=True)[1]).sign())),
     [normal(2, 6, 6)]),
    ("histograms", lambda x, w: (ops.histc(x, 5), ops.histc(x, 4, min=-1, max=1),
                                 *ops.histogram(x.detach(), 6),  # (no derivative)
                                 *ops.histogram(x.detach(), 3, range=(-1.0, 2.0),
                                                weight=w.detach(), density=True)),
     [normal(4, 5), positive(4, 5)]),
    ("nn-ops-31", lambda x, w, e: (F.pad(x, (1, 2)), F.pad(x, (1, 1), mode="reflect"),
                                   F.embedding(_idx(x, [[0, 2], [1, 1]]), e),
                                   F.layer_norm(x, (4,), w, w), F.group_norm(x, 1),
                                   F.softplus(x), F.logsigmoid(x), F.hardtanh(x), F.glu(x),
                                   F.mish(x), F.hardswish(x), F.normalize(x),
                                   F.cosine_similarity(x, x + 1), F.prelu(x, w[:1]),
                                   F.scaled_dot_product_attention(x, x, x, is_causal=True)),
     [normal(2, 3, 4), normal(4), normal(3, 4)]),
    ("strided-draws", lambda x: (ops.as_strided(x, (2, 2), (1, 2)),
                                 ops.as_strided(x, (3,), (4,), 1),
                                 (ag.manual_seed(0), ops.bernoulli(x.sigmoid()))[1],
                                 (ag.manual_seed(0), ops.bernoulli_(x.detach() * 0, 0.5))[1]),
     [normal(3, 4)]),
    ("fold-resize", lambda x, w: (F.unfold(x, 2), F.fold(F.unfold(x, 2), (4, 5), 2),
                                  F.conv_transpose2d(x, w, stride=2),
                                  F.conv1d(x[0], w.reshape(3, 4, 2)),
                                  F.interpolate(x, scale_factor=2),
                                  F.interpolate(x, size=(5, 7), mode="bilinear")),
     [normal(1, 2, 4, 5), normal(2, 3, 2, 2)]),
]


def _put(x, key, value):
    ops.setitem(x, key, value)
    return x


def _iops(a, b):
    a += b
    a -= 0.5
    a *= b
    a /= 2
    return a


@pytest.mark.parametrize("case", OP_CASES, ids=[c[0] for c in OP_CASES])
def test_op_on_device_matches_cpu(device, case):
    name, fn, specs = case
    check_against_cpu(fn, make_arrays(specs, seed=len(name)), device)


def test_every_public_op_has_a_device_case():
    """A new function in ``autograd_course.ops`` (top-level or not) needs a case in OP_CASES
    above."""
    with open(__file__, encoding="utf-8") as handle:
        source = handle.read()
    helpers = {"is_tensor", "silence_numpy_warnings"}
    names = [*ops.__all__, *sorted(ops.NOT_TOP_LEVEL)]
    assert "exp" in names and "add_" in names
    missing = [name for name in names if callable(getattr(ops, name))
               and not isinstance(getattr(ops, name), type(ops)) and name not in helpers
               and f"ops.{name}(" not in source]
    assert not missing


@pytest.mark.parametrize("fn", [
    lambda x: x.tanh().sum(), lambda x: (x.sigmoid() * x.exp()).sum(),
    lambda x: F.log_softmax(x @ x.t(), 1)[0, 1],
    lambda x: F.cross_entropy(x, ag.tensor([0, 2, 1], device=x.device)),
    lambda x: x.norm() * x.var(), lambda x: ag.where(x > 0, x ** 3, -x).sum(),
], ids=["tanh", "sigmoid-exp", "log_softmax", "cross_entropy", "norm-var", "where"])
def test_second_derivatives_on_device_match_cpu(device, fn):
    def hessian_vector(x):
        (g,) = ag.autograd.grad(fn(x), x, create_graph=True)
        assert_on(g, x.device.type)
        return g * g.detach()

    check_against_cpu(hessian_vector, make_arrays([normal(3, 3)], seed=5), device)


# --- layers ----------------------------------------------------------------------------------
def _bn_with_stats(bn):
    """A BatchNorm whose running statistics are not the initial 0 and 1 (for eval mode)."""
    rng = np.random.default_rng(9)
    with ag.no_grad():
        bn.running_mean.copy_(ag.tensor(rng.standard_normal(bn.num_features)))
        bn.running_var.copy_(ag.tensor(rng.uniform(0.5, 2.0, bn.num_features)))
        if bn.affine:
            bn.weight.copy_(ag.tensor(rng.standard_normal(bn.num_features)))
    return bn


LAYERS = [
    ("Linear", lambda: nn.Linear(5, 3), (4, 5), True),
    ("Linear-nobias-3d", lambda: nn.Linear(5, 3, bias=False), (2, 4, 5), True),
    ("Conv2d", lambda: nn.Conv2d(3, 4, 3), (2, 3, 7, 7), True),
    ("Conv2d-stride-padding", lambda: nn.Conv2d(3, 4, 3, stride=2, padding=1), (2, 3, 8, 7), True),
    ("Conv2d-dilation", lambda: nn.Conv2d(2, 3, (3, 2), stride=(2, 1), padding=2, dilation=2),
     (1, 2, 9, 9), True),
    ("Conv2d-groups", lambda: nn.Conv2d(4, 6, 3, padding=1, groups=2, bias=False), (2, 4, 5, 5),
     True),
    ("Conv2d-same", lambda: nn.Conv2d(2, 2, 3, padding="same"), (1, 2, 6, 6), True),
    ("MaxPool2d", lambda: nn.MaxPool2d(2), (2, 3, 6, 6), True),
    ("MaxPool2d-options", lambda: nn.MaxPool2d(3, stride=2, padding=1, ceil_mode=True),
     (2, 3, 7, 7), True),
    ("AvgPool2d", lambda: nn.AvgPool2d(2), (2, 3, 6, 6), True),
    ("AvgPool2d-options", lambda: nn.AvgPool2d(3, 2, padding=1, count_include_pad=False),
     (2, 3, 7, 7), True),
    ("AdaptiveAvgPool2d-1", lambda: nn.AdaptiveAvgPool2d((1, 1)), (2, 3, 5, 5), True),
    ("AdaptiveAvgPool2d-2x3", lambda: nn.AdaptiveAvgPool2d((2, 3)), (2, 3, 7, 8), True),
    ("BatchNorm1d-train", lambda: nn.BatchNorm1d(4), (6, 4), True),
    ("BatchNorm1d-train-3d", lambda: nn.BatchNorm1d(4), (3, 4, 5), True),
    ("BatchNorm1d-eval", lambda: _bn_with_stats(nn.BatchNorm1d(4)), (6, 4), False),
    ("BatchNorm2d-train", lambda: nn.BatchNorm2d(3), (4, 3, 3, 3), True),
    ("BatchNorm2d-eval", lambda: _bn_with_stats(nn.BatchNorm2d(3)), (4, 3, 3, 3), False),
    ("BatchNorm2d-no-affine", lambda: nn.BatchNorm2d(3, affine=False, momentum=0.3),
     (4, 3, 2, 2), True),
    ("BatchNorm2d-no-stats", lambda: nn.BatchNorm2d(3, track_running_stats=False),
     (4, 3, 2, 2), True),
    ("ReLU", lambda: nn.ReLU(), (3, 4), True),
    ("ReLU-inplace", lambda: nn.Sequential(nn.Linear(4, 4), nn.ReLU(inplace=True)), (3, 4), True),
    ("Sigmoid", lambda: nn.Sigmoid(), (3, 4), True),
    ("Tanh", lambda: nn.Tanh(), (3, 4), True),
    ("Softmax", lambda: nn.Softmax(dim=1), (3, 4), True),
    ("LogSoftmax", lambda: nn.LogSoftmax(dim=0), (3, 4), True),
    ("Flatten", lambda: nn.Flatten(), (2, 3, 2, 2), True),
    ("Flatten-dims", lambda: nn.Flatten(0, 1), (2, 3, 2), True),
    ("Dropout-train", lambda: nn.Dropout(0.3), (5, 6), True),
    ("Dropout-eval", lambda: nn.Dropout(0.3), (5, 6), False),
    ("Identity", lambda: nn.Identity(), (3,), True),
    ("Sequential-ModuleList", lambda: nn.Sequential(
        nn.Conv2d(2, 3, 3, padding=1), nn.BatchNorm2d(3), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(12, 2)), (2, 2, 4, 4), True),
]


def _run_layer(make, shape, train: bool, device: str):
    ag.manual_seed(0)
    layer = make().double().train(train)
    assert layer.to(device) is layer
    for t in list(layer.parameters()) + list(layer.buffers()):
        assert_on(t, device)
    x = ag.tensor(np.random.default_rng(1).standard_normal(shape)).to(device).requires_grad_()
    ag.manual_seed(4)  # Dropout's mask
    out = layer(x)
    assert_on(out, device)
    backward_random([out], device)
    assert_on(x.grad, device)
    for p in layer.parameters():
        assert_on(p.grad, device)
    return out, x.grad, layer


@pytest.mark.parametrize("name,make,shape,train", LAYERS, ids=[c[0] for c in LAYERS])
def test_layer_on_device_matches_cpu(device, name, make, shape, train):
    ref_out, ref_grad, ref = _run_layer(make, shape, train, "cpu")
    out, grad, layer = _run_layer(make, shape, train, device)
    assert_close(out, ref_out)
    assert_close(grad, ref_grad)
    for p, q in zip(layer.parameters(), ref.parameters()):
        assert_close(p.grad, q.grad)
    for b, c in zip(layer.buffers(), ref.buffers()):
        assert_on(b, device)
        assert_close(b, c)  # BatchNorm's running statistics were updated alike


def test_model_to_moves_parameters_buffers_and_grads(device):
    model = nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2), nn.Flatten(), nn.Linear(8, 2))
    params = list(model.parameters())
    model(ag.randn(2, 1, 4, 4)).sum().backward()
    optimizer = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    assert model.to(device) is model
    assert list(model.parameters()) == params  # the same Parameter objects: optimizers still work
    state = model.state_dict()
    assert set(state) >= {"1.running_mean", "1.running_var", "1.num_batches_tracked"}
    for t in list(state.values()) + [p.grad for p in params]:
        assert_on(t, device)
    assert all(isinstance(p, nn.Parameter) and p.is_leaf and p.requires_grad for p in params)
    model(ag.randn(2, 1, 4, 4).to(device)).sum().backward()
    optimizer.step()
    for p in params:
        assert_on(p, device)
        assert_on(optimizer.state[p]["momentum_buffer"], device)
    assert model.cpu() is model and all(str(p.device) == "cpu" for p in model.parameters())


def test_layers_built_on_the_device(device):
    ag.manual_seed(2)
    on_device = nn.Linear(3, 2, device=device)
    ag.manual_seed(2)
    reference = nn.Linear(3, 2)
    assert_on(on_device.weight, device)
    assert_on(on_device.bias, device)
    assert_close(on_device.weight, reference.weight.detach(), 0, 0)


# --- losses ----------------------------------------------------------------------------------
LOSSES = [
    ("MSELoss", lambda: nn.MSELoss(), normal(3, 4), normal(3, 4)),
    ("MSELoss-sum", lambda: nn.MSELoss(reduction="sum"), normal(3, 4), normal(3, 4)),
    ("L1Loss-none", lambda: nn.L1Loss(reduction="none"), normal(3, 4), normal(3, 4)),
    ("BCELoss", lambda: nn.BCELoss(), prob(3, 4), prob(3, 4)),
    ("BCELoss-weight", lambda: nn.BCELoss(weight=ag.tensor([1., 2., 0.5, 3.], dtype=ag.float64)),
     prob(3, 4), prob(3, 4)),
    ("BCEWithLogitsLoss", lambda: nn.BCEWithLogitsLoss(), normal(3, 4), prob(3, 4)),
    ("BCEWithLogitsLoss-options", lambda: nn.BCEWithLogitsLoss(
        weight=ag.tensor([1., 2., 0.5, 3.], dtype=ag.float64),
        pos_weight=ag.tensor([2., 1., 1., 0.5], dtype=ag.float64), reduction="sum"),
     normal(3, 4), prob(3, 4)),
    ("CrossEntropyLoss", lambda: nn.CrossEntropyLoss(), normal(6, 4), ints(6, high=4)),
    ("CrossEntropyLoss-options", lambda: nn.CrossEntropyLoss(
        weight=ag.tensor([1., 2., 0.5, 3.], dtype=ag.float64), ignore_index=1,
        reduction="sum"), normal(6, 4), ints(6, high=4)),
    ("NLLLoss", lambda: nn.NLLLoss(), normal(6, 4), ints(6, high=4)),
    ("NLLLoss-options", lambda: nn.NLLLoss(weight=ag.tensor([1., 2., 0.5, 3.], dtype=ag.float64),
                                           reduction="none"), normal(6, 4), ints(6, high=4)),
]


@pytest.mark.parametrize("name,make,x_spec,y_spec", LOSSES, ids=[c[0] for c in LOSSES])
def test_loss_on_device_matches_cpu(device, name, make, x_spec, y_spec):
    results = {}
    for where in ("cpu", device):
        loss_fn = make().to(where)
        for t in loss_fn.buffers():
            assert_on(t, where)
        results[where] = run(loss_fn, make_arrays([x_spec, y_spec], seed=3), where)
    (_, ref_outs, ref_grads), (_, outs, grads) = results["cpu"], results[device]
    assert_close(outs[0], ref_outs[0])
    for g, ref in zip(grads, ref_grads):
        assert_close(g, ref)


# --- optimizers ------------------------------------------------------------------------------
OPTIMIZERS = [
    ("SGD", lambda ps: optim.SGD(ps, lr=0.1)),
    ("SGD-momentum", lambda ps: optim.SGD(ps, lr=0.1, momentum=0.9)),
    ("SGD-dampening-wd", lambda ps: optim.SGD(ps, lr=0.1, momentum=0.9, dampening=0.3,
                                              weight_decay=0.05)),
    ("SGD-nesterov", lambda ps: optim.SGD(ps, lr=0.05, momentum=0.8, nesterov=True,
                                          weight_decay=0.1)),
    ("SGD-maximize", lambda ps: optim.SGD(ps, lr=0.1, momentum=0.5, maximize=True)),
    ("Adam", lambda ps: optim.Adam(ps, lr=0.01)),
    ("Adam-wd-amsgrad", lambda ps: optim.Adam(ps, lr=0.01, betas=(0.8, 0.9), eps=1e-6,
                                              weight_decay=0.1, amsgrad=True)),
    ("Adam-maximize", lambda ps: optim.Adam(ps, lr=0.01, maximize=True)),
    ("AdamW", lambda ps: optim.AdamW(ps, lr=0.01)),
    ("AdamW-amsgrad", lambda ps: optim.AdamW(ps, lr=0.02, weight_decay=0.5, amsgrad=True)),
]


def _train(make_optimizer, device: str, steps: int = 4):
    ag.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 3), nn.Tanh(), nn.Linear(3, 2)).double().to(device)
    optimizer = make_optimizer(model.parameters())
    scheduler = optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)
    rng = np.random.default_rng(0)
    x = ag.tensor(rng.standard_normal((5, 4))).to(device)
    y = ag.tensor(rng.standard_normal((5, 2))).to(device)
    history = []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        optimizer.step()
        scheduler.step()
        history.append((loss.item(), scheduler.get_last_lr()))
    return model, optimizer, history


@pytest.mark.parametrize("name,make", OPTIMIZERS, ids=[c[0] for c in OPTIMIZERS])
def test_optimizer_on_device_matches_cpu(device, name, make):
    ref_model, ref_opt, ref_history = _train(make, "cpu")
    model, opt, history = _train(make, device)
    for (loss, lrs), (ref_loss, ref_lrs) in zip(history, ref_history):
        assert loss == pytest.approx(ref_loss, rel=1e-12) and lrs == ref_lrs
    for p, q in zip(model.parameters(), ref_model.parameters()):
        assert_on(p, device)
        assert_on(p.grad, device)
        assert_close(p.detach(), q.detach())
        state, ref_state = opt.state[p], ref_opt.state[q]
        assert state.keys() == ref_state.keys()
        for key, value in state.items():
            if key == "step":  # a CPU scalar tensor, as in PyTorch (its value drives the maths)
                assert str(value.device) == "cpu" and value.item() == ref_state[key].item()
            else:
                assert_on(value, device)
                assert_close(value, ref_state[key])


# --- the course's model ----------------------------------------------------------------------
def _resnet_step(device: str):
    ag.manual_seed(0)
    model = ag.models.resnet18(num_classes=5).double().to(device)
    x = ag.tensor(np.random.default_rng(0).standard_normal((2, 3, 32, 32))).to(device)
    out = model(x)
    assert_on(out, device)
    backward_random([out], device)
    return out, model


def test_resnet18_forward_and_backward_on_device_match_cpu(device):
    ref_out, ref = _resnet_step("cpu")
    out, model = _resnet_step(device)
    assert_close(out, ref_out, rtol=1e-7, atol=1e-10)
    for p, q in zip(model.parameters(), ref.parameters()):
        assert_on(p, device)
        assert_on(p.grad, device)
        assert_close(p.grad, q.grad, rtol=1e-6, atol=1e-9)
    for b, c in zip(model.buffers(), ref.buffers()):
        assert_on(b, device)
        assert_close(b, c, rtol=1e-7, atol=1e-10)


# --- what the device is, and what happens at its borders -------------------------------------
def test_device_prints_cuda_0(gpu):
    x = ag.ones(2, device=gpu)
    assert str(x.device) == "cuda:0" and x.device == "cuda" and x.is_cuda
    assert repr(x.device) == "device(type='cuda', index=0)" and x.device.type == "cuda"
    assert repr(x) == "tensor([1., 1.], device='cuda:0')"
    assert ag.cuda.is_available() and ag.cuda.device_count() >= 1


@pytest.mark.parametrize("fn", [
    lambda g, c: g + c, lambda g, c: c * g, lambda g, c: g @ c, lambda g, c: ag.cat([g, c]),
    lambda g, c: ag.stack([c, g]), lambda g, c: ag.where(g > 0, g, c),
    lambda g, c: ag.maximum(g, c), lambda g, c: g.add_(c), lambda g, c: g.mul_(c),
    lambda g, c: F.mse_loss(g, c), lambda g, c: F.binary_cross_entropy(g.sigmoid(), c.sigmoid()),
    lambda g, c: F.cross_entropy(g[None], ag.tensor([1])),
    lambda g, c: F.linear(c[None], g[None]),
    lambda g, c: F.conv2d(g.reshape(1, 1, 1, 3), c.reshape(1, 1, 1, 3)),
    lambda g, c: F.batch_norm(g[None], c, c, training=False),
    lambda g, c: ag.isclose(g, c),
], ids=["add", "mul", "matmul", "cat", "stack", "where", "maximum", "add_", "mul_", "mse",
        "bce", "cross_entropy", "linear", "conv2d", "batch_norm", "isclose"])
def test_mixing_devices_raises_pytorchs_error(gpu, fn):
    g, c = ag.ones(3, device=gpu), ag.ones(3)
    with pytest.raises(RuntimeError, match=MIXED):
        fn(g, c)


@pytest.mark.parametrize("make,shape", [
    (lambda: nn.Linear(3, 2), (4, 3)), (lambda: nn.Conv2d(1, 2, 3), (1, 1, 5, 5)),
    (lambda: nn.BatchNorm1d(3), (4, 3)),
    (lambda: ag.models.resnet18(num_classes=2), (2, 3, 16, 16)),
], ids=["Linear", "Conv2d", "BatchNorm1d", "resnet18"])
def test_a_layer_on_the_gpu_refuses_cpu_input(gpu, make, shape):
    layer = make().to(gpu)
    with pytest.raises(RuntimeError, match=MIXED):
        layer(ag.randn(*shape))
    assert_on(layer(ag.randn(*shape).to(gpu)), gpu)


def test_python_numbers_and_copies_cross_devices(gpu):
    """What PyTorch allows between devices: Python numbers, ``copy_`` and ``.to``."""
    g = ag.ones(3, device=gpu, requires_grad=True)
    assert_on(g * 2.5 + 1, gpu)
    target = ag.zeros(3, device=gpu)
    target.copy_(ag.tensor([1., 2., 3.]))
    assert_on(target, gpu)
    assert target.tolist() == [1.0, 2.0, 3.0]
    back = ag.zeros(3)
    back.copy_(target)
    assert_on(back, "cpu")
    assert back.tolist() == [1.0, 2.0, 3.0]
    x = ag.tensor([1., 2.], requires_grad=True)
    (x.to(gpu) * ag.tensor([3., 4.], device=gpu)).sum().backward()
    assert_on(x.grad, "cpu")
    assert x.grad.tolist() == [3.0, 4.0]


def test_cpu_scalars_and_cpu_indices_work_with_gpu_tensors(gpu):
    """PyTorch takes a 0-d CPU tensor next to a GPU tensor as a number, and CPU indices for
    indexing a GPU tensor."""
    g = ag.tensor([1., 2., 3.], device=gpu, requires_grad=True)
    s = ag.tensor(2.0, requires_grad=True)
    out = g * s + ag.tensor(1.0) + (s > 0)  # (a bool may not be subtracted, as in PyTorch)
    assert_on(out, gpu)
    out.sum().backward()
    assert_on(g.grad, gpu)
    assert_on(s.grad, "cpu")  # the scalar's gradient comes back to its device
    assert g.grad.tolist() == [2.0, 2.0, 2.0] and s.grad.item() == 6.0
    g.grad = None
    picked = g[ag.tensor([2, 0, 2])]
    assert_on(picked, gpu)
    picked.sum().backward()
    assert g.grad.tolist() == [1.0, 0.0, 2.0]
    y = ag.zeros(2, 3, device=gpu)
    y[0] = ag.tensor([1., 2., 3.])  # basic indexing copies across devices, like copy_
    y[ag.tensor([1]), ag.tensor([2])] = ag.tensor(5.0)  # a CPU scalar for index_put
    y.add_(ag.tensor(1.0))
    assert_on(y, gpu)
    assert y.tolist() == [[2.0, 3.0, 4.0], [1.0, 1.0, 6.0]]
    with pytest.raises(RuntimeError, match=MIXED):
        y[ag.tensor([0, 1])] = ag.ones(2, 3)
    with pytest.raises(RuntimeError, match="indices should be either on cpu or on the same "
                                           "device as the indexed tensor"):
        ag.zeros(3)[ag.tensor([0], device=gpu)]


def test_numpy_of_a_cuda_tensor_explains_cpu(gpu):
    x = ag.ones(2, device=gpu)
    with pytest.raises(TypeError, match=r"^can't convert cuda:0 device type tensor to numpy\. "
                                        r"Use Tensor\.cpu\(\) to copy the tensor to host memory "
                                        r"first\.$"):
        x.numpy()
    assert x.cpu().numpy().tolist() == [1.0, 1.0]


def test_python_values_come_back_from_the_device(gpu):
    x = ag.tensor([[1.5, -2.0]], device=gpu)
    assert x.tolist() == [[1.5, -2.0]] and x[0, 0].item() == 1.5
    assert float(x[0, 1]) == -2.0 and int(x[0, 0]) == 1 and bool(x[0, 0])
    assert x.sum().item() == -0.5 and (x > 0).any().item() is True
    assert len(x) == 1 and [row.tolist() for row in x] == [[1.5, -2.0]]
    assert f"{x[0, 0].item():.2f}" == "1.50"


def test_manual_seed_seeds_both_generators(gpu):
    cupy = _backend.cupy()
    ag.manual_seed(5)
    first = (ag.randn(3, device=gpu).tolist(), cupy.random.rand(3).tolist())
    ag.manual_seed(5)
    second = (ag.randn(3, device=gpu).tolist(), cupy.random.rand(3).tolist())
    assert first == second
    ag.manual_seed(6)
    assert cupy.random.rand(3).tolist() != first[1]


def test_save_a_gpu_model_and_load_it_where_asked(gpu, tmp_path):
    """``ag.save`` copies to the host; ``ag.load`` puts tensors on the CPU, or on
    ``map_location``."""
    model = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2)).to(gpu)
    path = tmp_path / "model.pt"
    ag.save(model.state_dict(), path)
    for where in ("cpu", gpu):
        loaded = ag.load(path, map_location=None if where == "cpu" else where)
        for key, value in model.state_dict().items():
            assert_on(loaded[key], where)
            assert_close(loaded[key].to(gpu), value, 0, 0)
    buffer = io.BytesIO()
    ag.save(ag.arange(3, device=gpu), buffer)
    buffer.seek(0)
    assert_on(ag.load(buffer, map_location=gpu), gpu)


def test_the_gpu_benchmark_times_the_device_and_waits_for_it(gpu, capsys):
    """benchmarks/gpu_mlp.py (run by scripts/gpu_check.sh) on a small batch: the GPU step
    gives the CPU's loss, and every timed GPU step ends with a device synchronisation."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "benchmarks" / "gpu_mlp.py"
    spec = importlib.util.spec_from_file_location("gpu_mlp", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    waits = []
    real_synchronize = bench.synchronize
    bench.synchronize = lambda device: (waits.append(device), real_synchronize(device))
    result = bench.measure(batch=64, repeat=2, warmup=1)
    assert result["cuda_loss"] == pytest.approx(result["cpu_loss"], rel=1e-5)
    assert result["numpy_loss"] == pytest.approx(result["cpu_loss"], rel=1e-5)
    assert waits.count("cuda") == 1 + 2  # after the warm-up, and after each timed step
    assert bench.main(["--batch", "32", "--repeat", "1", "--warmup", "1"]) == 0
    out = capsys.readouterr().out
    assert "autograd_course, cuda:0" in out and "speed-up of the GPU step over NumPy" in out


def test_data_loader_over_gpu_tensors_gives_gpu_batches(gpu):
    from autograd_course.utils.data import DataLoader, TensorDataset

    x = ag.arange(10, dtype=ag.float64, device=gpu).reshape(5, 2)
    y = ag.arange(5, device=gpu)
    ag.manual_seed(0)
    for dataset in (TensorDataset(x, y), [(x[i], y[i]) for i in range(5)]):
        batches = list(DataLoader(dataset, batch_size=2, shuffle=True))
        for xb, yb in batches:
            assert_on(xb, gpu)
            assert_on(yb, gpu)
        assert sorted(v for _, yb in batches for v in yb.tolist()) == [0, 1, 2, 3, 4]
