"""Every layer against PyTorch (float64, same weights): output, input gradient, parameter
gradients, BatchNorm's running statistics; plus grad_fn names and bad-input errors."""

from __future__ import annotations

import numpy as np
import pytest

import autograd_course as ag
from autograd_course import nn

torch = pytest.importorskip("torch")

TOL = dict(rtol=1e-10, atol=1e-12)


def copy_weights(ours, theirs) -> None:
    """PyTorch module's state into ours, through NumPy."""
    ours.load_state_dict({k: v.detach().numpy() for k, v in theirs.state_dict().items()})


def compare(make, shape, seed=0, steps=1, train=True, check_grad_fn=True):
    """Build the layer in both libraries, run ``steps`` forward/backward passes on random
    float64 inputs, and compare everything."""
    rng = np.random.default_rng(seed)
    theirs = make(torch.nn).double()
    ours = make(nn).double()
    copy_weights(ours, theirs)
    ours.train(train)
    theirs.train(train)
    for _ in range(steps):
        x = rng.standard_normal(shape)
        tx = torch.tensor(x, requires_grad=True)
        ax = ag.tensor(x, requires_grad=True)
        t_out, a_out = theirs(tx * 1.0), ours(ax * 1.0)  # "* 1" so in-place layers are legal
        assert a_out.shape == t_out.shape
        np.testing.assert_allclose(a_out.detach().numpy(), t_out.detach().numpy(), **TOL)
        if check_grad_fn:
            assert a_out.grad_fn.name() == t_out.grad_fn.name()
        g = rng.standard_normal(tuple(t_out.shape))
        t_out.backward(torch.tensor(g))
        a_out.backward(ag.tensor(g))
        np.testing.assert_allclose(ax.grad.numpy(), tx.grad.numpy(), **TOL)
    t_params = dict(theirs.named_parameters())
    for name, p in ours.named_parameters():
        np.testing.assert_allclose(p.grad.numpy(), t_params[name].grad.numpy(), **TOL,
                                   err_msg=name)
    t_state = theirs.state_dict()
    for name, v in ours.state_dict().items():
        np.testing.assert_allclose(v.numpy(), t_state[name].numpy(), **TOL, err_msg=name)
    return ours, theirs


@pytest.mark.parametrize("make,shape", [
    (lambda lib: lib.Linear(5, 3), (4, 5)),
    (lambda lib: lib.Linear(5, 3), (2, 6, 5)),
    (lambda lib: lib.Linear(5, 3), (5,)),
    (lambda lib: lib.Linear(5, 3, bias=False), (4, 5)),
])
def test_linear(make, shape):
    compare(make, shape)


def test_linear_grad_fn_is_addmm_with_pytorchs_edges():
    lin = nn.Linear(5, 3)
    out = lin(ag.randn(2, 5))
    assert out.grad_fn.name() == "AddmmBackward0"
    names = [None if f is None else f.name() for f, _ in out.grad_fn.next_functions]
    assert names == ["torch::autograd::AccumulateGrad", None, "TBackward0"]


@pytest.mark.parametrize("make,shape", [
    (lambda lib: lib.Conv2d(3, 4, 3), (2, 3, 7, 6)),
    (lambda lib: lib.Conv2d(3, 4, 3, padding=1, bias=False), (2, 3, 5, 5)),
    (lambda lib: lib.Conv2d(3, 6, (3, 2), stride=(2, 1), padding=(1, 2), dilation=(1, 2)),
     (2, 3, 9, 8)),
    (lambda lib: lib.Conv2d(3, 64, 7, stride=2, padding=3, bias=False), (1, 3, 16, 16)),
    (lambda lib: lib.Conv2d(4, 6, 3, groups=2), (2, 4, 6, 6)),
    (lambda lib: lib.Conv2d(2, 3, 4, padding="same"), (1, 2, 7, 7)),
    (lambda lib: lib.Conv2d(2, 3, 3, padding="valid"), (1, 2, 5, 5)),
    (lambda lib: lib.Conv2d(3, 4, 1, stride=2), (2, 3, 5, 5)),
])
@pytest.mark.filterwarnings("ignore:Using padding='same'")  # PyTorch's note about even kernels
def test_conv2d(make, shape):
    compare(make, shape)


def test_conv2d_unbatched_input():
    compare(lambda lib: lib.Conv2d(3, 4, 3), (3, 6, 6), check_grad_fn=False)


@pytest.mark.parametrize("make,shape", [
    (lambda lib: lib.MaxPool2d(2), (2, 3, 8, 6)),
    (lambda lib: lib.MaxPool2d(3, stride=2, padding=1), (2, 3, 9, 8)),
    (lambda lib: lib.MaxPool2d((3, 2), stride=(2, 1), padding=(1, 1), dilation=(2, 1)),
     (1, 2, 9, 7)),
    (lambda lib: lib.MaxPool2d(3, stride=2, ceil_mode=True), (1, 2, 8, 8)),
    (lambda lib: lib.MaxPool2d(2), (3, 6, 6)),
    (lambda lib: lib.AvgPool2d(2), (2, 3, 8, 6)),
    (lambda lib: lib.AvgPool2d(3, stride=2, padding=1), (2, 3, 9, 8)),
    (lambda lib: lib.AvgPool2d(3, stride=2, padding=1, count_include_pad=False), (1, 2, 9, 8)),
    (lambda lib: lib.AvgPool2d(3, stride=2, padding=1, ceil_mode=True), (1, 2, 8, 8)),
    (lambda lib: lib.AvgPool2d(3, divisor_override=2), (1, 2, 6, 6)),
    (lambda lib: lib.AvgPool2d(2), (3, 6, 6)),
    (lambda lib: lib.AdaptiveAvgPool2d((1, 1)), (2, 3, 5, 7)),
    (lambda lib: lib.AdaptiveAvgPool2d((2, 3)), (2, 3, 5, 7)),
    (lambda lib: lib.AdaptiveAvgPool2d(4), (2, 3, 9, 10)),
    (lambda lib: lib.AdaptiveAvgPool2d((None, 2)), (1, 2, 5, 7)),
])
def test_pooling(make, shape):
    compare(make, shape)


def test_max_pool_ties_go_to_the_first_maximum_like_pytorch():
    x = np.zeros((1, 1, 5, 5))
    tx, ax = torch.tensor(x, requires_grad=True), ag.tensor(x, requires_grad=True)
    torch.nn.functional.max_pool2d(tx, 3, 1, 1).sum().backward()
    nn.functional.max_pool2d(ax, 3, 1, 1).sum().backward()
    assert np.array_equal(ax.grad.numpy(), tx.grad.numpy())


@pytest.mark.parametrize("make,shape,steps", [
    (lambda lib: lib.BatchNorm1d(4), (6, 4), 3),
    (lambda lib: lib.BatchNorm1d(3), (5, 3, 4), 3),
    (lambda lib: lib.BatchNorm2d(3), (4, 3, 5, 5), 3),
    (lambda lib: lib.BatchNorm2d(3, momentum=None), (4, 3, 5, 5), 3),
    (lambda lib: lib.BatchNorm2d(3, momentum=0.3, eps=1e-3), (2, 3, 4, 4), 2),
    (lambda lib: lib.BatchNorm2d(3, affine=False), (4, 3, 3, 3), 2),
    (lambda lib: lib.BatchNorm2d(3, track_running_stats=False), (4, 3, 3, 3), 2),
    (lambda lib: lib.BatchNorm1d(4, bias=False), (6, 4), 2),
])
def test_batch_norm_training_and_running_statistics(make, shape, steps):
    ours, theirs = compare(make, shape, steps=steps)
    if ours.track_running_stats:
        assert ours.num_batches_tracked.item() == steps
    # and evaluation mode with the accumulated statistics
    compare_eval = np.random.default_rng(1).standard_normal(shape)
    ours.eval()
    theirs.eval()
    tx = torch.tensor(compare_eval, requires_grad=True)
    ax = ag.tensor(compare_eval, requires_grad=True)
    t_out, a_out = theirs(tx), ours(ax)
    np.testing.assert_allclose(a_out.detach().numpy(), t_out.detach().numpy(), **TOL)
    assert a_out.grad_fn.name() == t_out.grad_fn.name() == "NativeBatchNormBackward0"
    t_out.sum().backward()
    a_out.sum().backward()
    np.testing.assert_allclose(ax.grad.numpy(), tx.grad.numpy(), **TOL)


def test_batch_norm_eval_leaves_running_stats_alone():
    bn = nn.BatchNorm2d(2).eval()
    bn(ag.randn(3, 2, 4, 4))
    assert bn.running_mean.tolist() == [0.0, 0.0] and bn.num_batches_tracked.item() == 0


@pytest.mark.parametrize("make,shape", [
    (lambda lib: lib.ReLU(), (3, 4)),
    (lambda lib: lib.ReLU(inplace=True), (3, 4)),
    (lambda lib: lib.Sigmoid(), (3, 4)),
    (lambda lib: lib.Tanh(), (3, 4)),
    (lambda lib: lib.Softmax(dim=1), (3, 4)),
    (lambda lib: lib.Softmax(dim=0), (3, 4, 2)),
    (lambda lib: lib.LogSoftmax(dim=-1), (3, 4)),
    (lambda lib: lib.Flatten(), (2, 3, 4, 5)),
    (lambda lib: lib.Flatten(0, 2), (2, 3, 4, 5)),
    (lambda lib: lib.Identity(), (2, 3)),
])
def test_activations_and_shape_layers(make, shape):
    compare(make, shape, check_grad_fn=not isinstance(make(nn), nn.Identity))


def test_inplace_relu_overwrites_its_input():
    x = ag.randn(3, 3, requires_grad=True)
    h = x * 1
    out = nn.ReLU(inplace=True)(h)
    assert out is h and out.grad_fn.name() == "ReluBackward0"
    assert np.all(h.detach().numpy() >= 0)
    out.sum().backward()
    assert np.array_equal(x.grad.numpy(), (x.detach().numpy() > 0).astype(np.float32))


def test_dropout_mask_matches_pytorch_and_eval_is_identity():
    for p in (0.5, 0.2):
        ag.manual_seed(3)
        torch.manual_seed(3)
        x = np.random.default_rng(0).standard_normal((4, 50))
        tx, ax = torch.tensor(x, requires_grad=True), ag.tensor(x, requires_grad=True)
        t_out, a_out = torch.nn.Dropout(p)(tx), nn.Dropout(p)(ax)
        np.testing.assert_array_equal(a_out.detach().numpy(), t_out.detach().numpy())
        assert a_out.grad_fn.name() == t_out.grad_fn.name() == "MulBackward0"
        t_out.sum().backward()
        a_out.sum().backward()
        np.testing.assert_array_equal(ax.grad.numpy(), tx.grad.numpy())
    layer = nn.Dropout(0.5).eval()
    x = ag.randn(3, 3)
    assert layer(x) is x
    assert np.all(nn.functional.dropout(ag.ones(10), 1.0).numpy() == 0)
    with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1"):
        nn.Dropout(1.5)


def test_dropout_float32_mask_matches_pytorch():
    ag.manual_seed(11)
    torch.manual_seed(11)
    a = nn.functional.dropout(ag.ones(1000), 0.1)
    t = torch.nn.functional.dropout(torch.ones(1000), 0.1)
    np.testing.assert_array_equal(a.numpy(), t.numpy())


# --- bad input: the layer is named, with the expected and the received shape ----------------
def _error_pair(make, x_shape, kind=RuntimeError):
    with pytest.raises(kind) as ours:
        make(nn)(ag.zeros(*x_shape))
    with pytest.raises(kind) as theirs:
        make(torch.nn)(torch.zeros(*x_shape))
    return str(ours.value), str(theirs.value)


def test_linear_wrong_input_names_layer_and_shapes():
    ours, theirs = _error_pair(lambda lib: lib.Linear(5, 3), (2, 4))
    assert ours.startswith("Linear(in_features=5, out_features=3, bias=True): ")
    assert "(*, 5)" in ours and "[2, 4]" in ours
    assert ours.endswith(theirs)  # PyTorch's own message: mat1 and mat2 shapes cannot be ...


@pytest.mark.parametrize("make,shape,kind", [
    (lambda lib: lib.Conv2d(3, 64, 7), (1, 4, 64, 64), RuntimeError),
    (lambda lib: lib.Conv2d(3, 64, 7), (3, 64), RuntimeError),
    (lambda lib: lib.Conv2d(3, 64, 7), (1, 3, 4, 4), RuntimeError),
    (lambda lib: lib.BatchNorm2d(3), (2, 3, 4), ValueError),
    (lambda lib: lib.BatchNorm1d(3), (2, 3, 4, 5), ValueError),
    (lambda lib: lib.BatchNorm1d(3), (1, 3), ValueError),
    (lambda lib: lib.MaxPool2d(2), (4,), RuntimeError),
])
def test_layer_errors_name_the_layer_and_keep_pytorchs_message(make, shape, kind):
    ours, theirs = _error_pair(make, shape, kind)
    assert ours.startswith(repr(make(nn)) + ": ")
    assert theirs in ours


def test_batch_norm_channel_mismatch_names_expected_and_received():
    with pytest.raises(RuntimeError) as err:
        nn.BatchNorm2d(3)(ag.zeros(2, 4, 3, 3))
    text = str(err.value)
    assert text.startswith("BatchNorm2d(3, ") and "3 channels" in text and "[2, 4, 3, 3]" in text


def test_dtype_mismatch_errors_match_pytorch():
    with pytest.raises(RuntimeError) as ours:
        nn.functional.linear(ag.zeros(1, 2, dtype=ag.float64), nn.Linear(2, 2).weight)
    with pytest.raises(RuntimeError) as theirs:
        torch.nn.Linear(2, 2)(torch.zeros(1, 2, dtype=torch.float64))
    assert str(ours.value) == str(theirs.value)
    for bias in (True, False):
        with pytest.raises(RuntimeError) as ours:
            nn.Conv2d(2, 2, 1, bias=bias)(ag.zeros(1, 2, 3, 3, dtype=ag.float64))
        with pytest.raises(RuntimeError) as theirs:
            torch.nn.Conv2d(2, 2, 1, bias=bias)(torch.zeros(1, 2, 3, 3, dtype=torch.float64))
        assert str(ours.value).endswith(": " + str(theirs.value))


def test_double_backward_through_conv_says_it_is_not_supported():
    x = ag.randn(1, 1, 4, 4, requires_grad=True)
    conv = nn.Conv2d(1, 1, 3)
    (gx,) = ag.autograd.grad(conv(x).sum(), x, create_graph=True)
    with pytest.raises(RuntimeError, match="double backward through .* not implemented"):
        gx.sum().backward()


def test_conv_and_resnet_style_block_train_with_float32():
    net = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(inplace=True),
                        nn.MaxPool2d(2), nn.Flatten(), nn.Linear(4 * 4 * 4, 2))
    out = net(ag.randn(3, 1, 8, 8))
    assert out.shape == (3, 2) and out.dtype == ag.float32
    out.sum().backward()
    assert all(p.grad is not None and p.grad.dtype == ag.float32 for p in net.parameters())
