"""Issue 48's faster convolution, pooling and batch norm against the plain algorithms and torch.

* ``pad_array`` (one filled array, the image copied in) against ``np.pad``;
* ``col2im`` onto the unpadded image against the padded image cropped (the old way);
* max pooling's ``_first_tap`` against ``argmax``, and NaN windows against PyTorch;
* batch norm's fused backward against the textbook formula and torch, every mask.
"""

import numpy as np
import pytest

import autograd_course as ag
from autograd_course.ops import conv
from autograd_course.ops.conv import col2im, pad_array, window_matrix, windows
from autograd_course.ops.pool import _first_tap

GEOMETRIES = [  # kernel, stride, dilation, pads (top, bottom, left, right), image (h, w)
    ((3, 3), (1, 1), (1, 1), (1, 1, 1, 1), (6, 5)),
    ((3, 3), (2, 2), (1, 1), (1, 1, 1, 1), (7, 8)),
    ((7, 7), (2, 2), (1, 1), (3, 3, 3, 3), (9, 9)),
    ((1, 1), (2, 2), (1, 1), (0, 0, 0, 0), (6, 7)),
    ((2, 3), (1, 2), (2, 1), (0, 1, 2, 0), (5, 6)),
    ((3, 3), (3, 3), (1, 1), (1, 2, 0, 2), (4, 4)),   # a tap that only sees padding
]


def _padded_col2im(dwin, image_hw, stride, dilation, pads):
    """The adjoint of ``windows`` written the plain way: onto the padded image, then cropped."""
    n, c, kh, kw, ho, wo = dwin.shape
    top, bottom, left, right = pads
    out = np.zeros((n, c, image_hw[0] + top + bottom, image_hw[1] + left + right), dwin.dtype)
    for i in range(kh):
        for j in range(kw):
            r, q = i * dilation[0], j * dilation[1]
            out[:, :, r: r + stride[0] * (ho - 1) + 1: stride[0],
                q: q + stride[1] * (wo - 1) + 1: stride[1]] += dwin[:, :, i, j]
    return out[:, :, top: top + image_hw[0], left: left + image_hw[1]]


@pytest.mark.parametrize("value", [0.0, -np.inf, 2.5])
@pytest.mark.parametrize("pads", [(0, 0, 0, 0), (1, 1, 1, 1), (0, 2, 3, 1)])
def test_pad_array_matches_np_pad(value, pads):
    data = np.random.default_rng(0).random((2, 3, 4, 5), dtype=np.float32)
    ours = pad_array(np, data, pads, value)
    expected = np.pad(data, ((0, 0), (0, 0), pads[:2], pads[2:]), constant_values=value)
    assert ours.dtype == expected.dtype
    np.testing.assert_array_equal(ours, expected)


def test_pad_array_integer_fill():
    data = np.arange(12, dtype=np.int64).reshape(1, 1, 3, 4)
    low = np.iinfo(np.int64).min
    ours = pad_array(np, data, (1, 0, 0, 2), low)
    np.testing.assert_array_equal(
        ours, np.pad(data, ((0, 0), (0, 0), (1, 0), (0, 2)), constant_values=low))


@pytest.mark.parametrize("small", [0, 2**40], ids=["slice-adds", "matrix"])
@pytest.mark.parametrize("kernel, stride, dilation, pads, image", GEOMETRIES)
def test_col2im_is_the_adjoint_of_windows(monkeypatch, small, kernel, stride, dilation, pads,
                                          image):
    """Both ways (a slice-add per tap, one product with the window matrix) against the
    padded-then-cropped reference."""
    monkeypatch.setattr(conv, "SMALL_COL2IM", small)
    rng = np.random.default_rng(1)
    h, w = image
    out_hw = tuple((s + p0 + p1 - d * (k - 1) - 1) // st + 1 for s, p0, p1, d, k, st in
                   zip(image, pads[::2], pads[1::2], dilation, kernel, stride))
    dwin = rng.random((2, 3) + kernel + out_hw)
    ours = col2im(np, dwin, (h, w), stride, dilation, pads)
    np.testing.assert_allclose(ours, _padded_col2im(dwin, (h, w), stride, dilation, pads),
                               rtol=1e-12, atol=0)
    # adjoint: <windows(pad(x)), dwin> == <x, col2im(dwin)>
    x = rng.random((2, 3, h, w))
    win = windows(np, pad_array(np, x, pads), kernel, stride, dilation, out_hw)
    np.testing.assert_allclose((win * dwin).sum(), (x * ours).sum(), rtol=1e-12)


def test_window_matrix_reads_the_windows():
    """windows(pad(x)) == M · x, channel by channel, and M is shared read-only."""
    x = np.random.default_rng(7).random((1, 2, 5, 6))
    kernel, stride, dilation, pads, out_hw = (3, 2), (2, 1), (1, 2), (1, 1, 2, 0), (3, 3)
    m = window_matrix(kernel, stride, dilation, pads, (5, 6), out_hw, "float64")
    win = windows(np, pad_array(np, x, pads), kernel, stride, dilation, out_hw)
    np.testing.assert_array_equal(win.reshape(2, -1), x.reshape(2, -1) @ m.T)
    assert not m.flags.writeable


@pytest.mark.parametrize("small", [0, 2**40], ids=["slice-adds", "matrix"])
@pytest.mark.parametrize("kernel, stride, dilation, pads, image",
                         [g for g in GEOMETRIES if g[3][0] == g[3][1] and g[3][2] == g[3][3]])
def test_conv2d_gradients_like_torch(torch_oracle, monkeypatch, small, kernel, stride, dilation,
                                     pads, image):
    monkeypatch.setattr(conv, "SMALL_COL2IM", small)
    torch = torch_oracle
    rng = np.random.default_rng(2)
    x = rng.standard_normal((2, 4) + image).astype(np.float32)
    w = rng.standard_normal((6, 2) + kernel).astype(np.float32)
    b = rng.standard_normal(6).astype(np.float32)
    args = (stride, (pads[0], pads[2]), dilation, 2)
    results = []
    for lib, conv2d in ((ag, ag.nn.functional.conv2d), (torch, torch.nn.functional.conv2d)):
        ts = [lib.tensor(a, requires_grad=True) for a in (x, w, b)]
        out = conv2d(*ts, *args)
        out.backward(lib.tensor(np.linspace(-1, 1, out.numel(), dtype=np.float32)
                                .reshape(tuple(out.shape))))
        results.append([out.detach().numpy()] + [t.grad.numpy() for t in ts])
    for ours, theirs in zip(*results):
        assert ours.dtype == theirs.dtype
        np.testing.assert_allclose(ours, theirs, rtol=1e-4, atol=1e-4)


def test_first_tap_is_argmax():
    rng = np.random.default_rng(3)
    for trial in range(50):
        flat = rng.integers(-2, 3, (2, 3, 1 + trial % 9, 4, 5)).astype(np.float32)
        if trial % 3 == 0:
            flat[rng.random(flat.shape) < 0.3] = -np.inf
        if trial % 4 == 0:
            flat[rng.random(flat.shape) < 0.3] = -0.0
        np.testing.assert_array_equal(_first_tap(np, flat, flat.max(axis=2)),
                                      flat.argmax(axis=2))


def test_max_pool2d_nan_windows_like_torch(torch_oracle):
    """PyTorch keeps a tap that is greater or NaN: a window's last NaN is its max."""
    torch = torch_oracle
    rng = np.random.default_rng(4)
    x = rng.integers(-3, 3, (2, 3, 7, 9)).astype(np.float32)
    x[rng.random(x.shape) < 0.25] = np.nan
    results = []
    for lib in (ag, torch):
        t = lib.tensor(x, requires_grad=True)
        out, idx = lib.nn.functional.max_pool2d(t, 3, 2, 1, return_indices=True)
        out.backward(lib.ones_like(out))
        results.append((out.detach().numpy(), idx.numpy(), t.grad.numpy()))
    (out, idx, grad), (t_out, t_idx, t_grad) = results
    assert np.isnan(t_out).any()  # the case this test is about
    np.testing.assert_array_equal(out, t_out)
    np.testing.assert_array_equal(idx, t_idx)
    np.testing.assert_array_equal(grad, t_grad)


def _textbook_bn_grads(dy, x_hat, invstd, weight, training):
    """dx = invstd · (g - mean(g) - x̂ · mean(g·x̂)) with g = dy·weight; dw = Σ dy·x̂; db = Σ dy."""
    axes, shape = (0, 2, 3), (1, -1, 1, 1)
    g = dy * weight.reshape(shape)
    if training:
        g = g - g.mean(axes, keepdims=True) - x_hat * (g * x_hat).mean(axes, keepdims=True)
    return g * invstd.reshape(shape), (dy * x_hat).sum(axes), dy.sum(axes)


@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_batch_norm_grads_like_textbook_and_torch(torch_oracle, training, dtype):
    torch = torch_oracle
    rng = np.random.default_rng(5)
    x = (rng.standard_normal((3, 4, 5, 6)) * 3 + 1).astype(dtype)
    w, b = rng.standard_normal(4).astype(dtype), rng.standard_normal(4).astype(dtype)
    mean, var = rng.standard_normal(4).astype(dtype), rng.random(4).astype(dtype) + 0.5
    dy = rng.standard_normal(x.shape).astype(dtype)
    results = []
    for lib in (ag, torch):
        ts = [lib.tensor(a, requires_grad=True) for a in (x, w, b)]
        out = lib.nn.functional.batch_norm(ts[0], lib.tensor(mean), lib.tensor(var), ts[1],
                                           ts[2], training=training)
        out.backward(lib.tensor(dy))
        results.append([out.detach().numpy()] + [t.grad.numpy() for t in ts])
    tol = 1e-4 if dtype == "float32" else 1e-10
    for ours, theirs in zip(*results):
        assert ours.dtype == theirs.dtype
        np.testing.assert_allclose(ours, theirs, rtol=tol, atol=tol)
    # the fused formula against the textbook one, on the same x̂
    x64 = x.astype(np.float64)
    m = x64.mean((0, 2, 3)) if training else mean.astype(np.float64)
    v = x64.var((0, 2, 3)) if training else var.astype(np.float64)
    invstd = 1 / np.sqrt(v + 1e-5)
    x_hat = (x64 - m.reshape(1, -1, 1, 1)) * invstd.reshape(1, -1, 1, 1)
    for ours, expected in zip(results[0][1:], _textbook_bn_grads(dy, x_hat, invstd, w, training)):
        np.testing.assert_allclose(ours, expected, rtol=tol, atol=tol)


@pytest.mark.parametrize("mask, affine", [
    ((True, False, False), True), ((False, True, False), True), ((False, False, True), True),
    ((True, True, True), True), ((True, False, False), False)])
def test_batch_norm_each_gradient_alone_like_torch(torch_oracle, mask, affine):
    torch = torch_oracle
    rng = np.random.default_rng(6)
    x = rng.standard_normal((2, 3, 4, 4))
    w, b = rng.standard_normal(3), rng.standard_normal(3)
    results = []
    for lib in (ag, torch):
        tx = lib.tensor(x, requires_grad=mask[0])
        tw = lib.tensor(w, requires_grad=mask[1]) if affine else None
        tb = lib.tensor(b, requires_grad=mask[2]) if affine else None
        out = lib.nn.functional.batch_norm(tx, None, None, tw, tb, training=True)
        wanted = [t for t, m in zip((tx, tw, tb), mask) if m and t is not None]
        results.append(lib.autograd.grad((out * out).sum(), wanted))
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("small", [0, 2**40], ids=["slice-adds", "matrix"])
def test_empty_batch_gradients_like_torch(torch_oracle, monkeypatch, small):
    """An empty batch (N = 0) has empty gradients, either way col2im runs."""
    monkeypatch.setattr(conv, "SMALL_COL2IM", small)
    torch = torch_oracle
    x, w = np.zeros((0, 2, 5)), np.ones((3, 2, 3))
    results = []
    for lib in (ag, torch):
        tx, tw = lib.tensor(x, requires_grad=True), lib.tensor(w, requires_grad=True)
        out = lib.nn.functional.avg_pool1d(tx, 3, 1, 1).sum() \
            + lib.nn.functional.conv1d(tx, tw, padding=1).sum()
        out.backward()
        results.append((tx.grad.numpy(), tw.grad.numpy()))
    for ours, theirs in zip(*results):
        assert ours.shape == theirs.shape
        np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("dtype", ["float32", "int64"])
@pytest.mark.parametrize("ceil_mode", [False, True])
def test_max_pool2d_lowest_values_point_inside_like_torch(torch_oracle, dtype, ceil_mode):
    """A window whose real pixels are all the lowest value (-inf, or int64's minimum) ties with
    the padding: PyTorch never looks at the padding, so its first real pixel wins."""
    torch = torch_oracle
    rng = np.random.default_rng(8)
    low = -np.inf if dtype == "float32" else np.iinfo(np.int64).min
    x = rng.integers(-2, 2, (2, 3, 6, 7)).astype(dtype)
    x[rng.random(x.shape) < 0.7] = low
    x[0, 0] = low  # one plane entirely
    results = []
    for lib in (ag, torch):
        t = lib.tensor(x, requires_grad=dtype == "float32")
        out, idx = lib.nn.functional.max_pool2d(t, 3, 2, 1, ceil_mode=ceil_mode,
                                                return_indices=True)
        grad = None
        if dtype == "float32":
            out.backward(lib.ones_like(out))
            grad = t.grad.numpy()
        results.append((out.detach().numpy(), idx.numpy(), grad))
    (out, idx, grad), (t_out, t_idx, t_grad) = results
    np.testing.assert_array_equal(out, t_out)
    np.testing.assert_array_equal(idx, t_idx)
    assert idx.min() >= 0
    if grad is not None:
        np.testing.assert_array_equal(grad, t_grad)
