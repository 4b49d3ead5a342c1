"""Calls PyTorch runs that used to crash here, numbers as the first argument of binary
functions, and keywords PyTorch takes (issue 44), against PyTorch.

Each case runs the same code with ``ag`` and with ``torch`` (``assert_like_torch``): the
values, dtypes and shapes shown, the gradients the case returns, and for an exception its
type and first line must be the same. Where PyTorch's argument parser refuses a call, the
whole message (every signature line) is compared.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest
from oracle_helpers import assert_like_torch

import autograd_course as ag

R = np.random.default_rng(44)
IMG = R.standard_normal((1, 2, 4, 5))
ROW = R.standard_normal((2, 5))
VOL = R.standard_normal((1, 1, 3, 4, 5))


def _padded(data, pads, mode):
    """A case: pad a float64 leaf, backward through a fixed weighting; [out, grad, grad_fn]."""

    def case(m):
        x = m.tensor(data, requires_grad=True)
        out = m.nn.functional.pad(x, pads, mode=mode)
        weights = m.tensor(np.arange(out.numel(), dtype=np.float64).reshape(tuple(out.shape)))
        (out * weights).sum().backward()
        return [out, x.grad]

    return case


# --- 1. crashes where PyTorch runs -----------------------------------------------------------
@pytest.mark.parametrize("mode", ["constant", "reflect", "replicate", "circular"])
@pytest.mark.parametrize("data", [ROW, IMG], ids=["1d", "2d"])
def test_negative_pads_crop_as_pytorch_does(torch_oracle, mode, data):
    for pads in itertools.product([-2, -1, 0, 1, 2], repeat=2 * (data.ndim - 2 or 1)):
        if data.ndim == 2 and len(pads) != 2:
            continue
        assert_like_torch(_padded(data, pads, mode))


@pytest.mark.parametrize("mode", ["constant", "reflect", "replicate", "circular"])
def test_negative_pads_of_a_volume(torch_oracle, mode):
    for pads in [(-1, 1, 1, -1, 0, 1), (1, -2, 0, 0, -1, 0), (-1, -1, -1, -1, 1, 0)]:
        assert_like_torch(_padded(VOL, pads, mode))


@pytest.mark.parametrize("mode", ["constant", "reflect", "replicate", "circular"])
def test_negative_pads_that_empty_a_dim_are_refused_as_in_pytorch(torch_oracle, mode):
    for pads in [(-3, -3), (-6, 0)]:
        assert_like_torch(lambda m, p=pads: m.nn.functional.pad(m.tensor(ROW), p, mode=mode))


def test_negative_edge_pads_keep_pytorch_node_names(torch_oracle):
    for mode in ("reflect", "replicate"):
        def case(m, mode=mode):
            x = m.tensor(IMG, requires_grad=True)
            return type(m.nn.functional.pad(x, (-1, 1, 1, -1), mode=mode).grad_fn).__name__
        assert_like_torch(case)


@pytest.mark.parametrize("index_shape", [(2, 0), (3, 0), (2, 0, 1), (0,)])
def test_gather_with_an_empty_index(torch_oracle, index_shape):
    def case(m):
        x = m.tensor(ROW, requires_grad=True)
        out = m.gather(x, 1, m.zeros(index_shape, dtype=m.int64))
        out.sum().backward()
        return [out, x.grad]

    assert_like_torch(case)


def test_gather_of_a_0d_tensor_with_an_empty_index(torch_oracle):
    assert_like_torch(lambda m: m.gather(m.tensor(1.0), 0, m.zeros(0, dtype=m.int64)))


def test_avg_pool2d_takes_all_its_arguments_by_position(torch_oracle):
    def case(m):
        x = m.tensor(IMG, requires_grad=True)
        out = m.nn.functional.avg_pool2d(x, 2, 1, 1, True, False, 3)
        out.sum().backward()
        return [out, x.grad]

    assert_like_torch(case)


@pytest.mark.parametrize("data,mask", [(3.0, True), (3.0, False), ([3.0, 4.0], True),
                                       (3.0, [True, False])])
def test_masked_select_of_0d_operands(torch_oracle, data, mask):
    def case(m):
        x = m.tensor(data, requires_grad=True)
        out = m.masked_select(x, m.tensor(mask))
        out.sum().backward()
        return [out, x.grad]

    assert_like_torch(case)


@pytest.mark.parametrize("shapes,dim", [(((2, 3), (1, 3)), 1), (((2, 3), (1, 3)), None),
                                        (((3, 2), (3, 1)), None), (((1, 3), (3, 3)), None),
                                        (((4, 1, 3), (2, 3)), -1), (((2, 3), (3,)), None),
                                        (((2, 2), (2, 2)), -1), (((2, 2), (2, 2)), None)])
def test_cross_broadcasts_and_picks_its_default_dim_as_pytorch(torch_oracle, shapes, dim):
    a, b = (R.standard_normal(s) for s in shapes)

    def case(m):
        x, y = m.tensor(a, requires_grad=True), m.tensor(b, requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = m.cross(x, y, dim=dim)
        out.backward(m.ones(tuple(out.shape), dtype=m.float64))
        return [out, x.grad, y.grad, type(out.grad_fn).__name__]

    assert_like_torch(case)


def test_cross_without_dim_warns_as_pytorch(torch_oracle):
    for lib in (ag, torch_oracle):  # the warning is a once-only one: every time, for the test
        lib.set_warn_always(True)
    try:
        assert_like_torch(lambda m: m.cross(m.ones(2, 3), m.ones(2, 3)), warns=True)
    finally:
        for lib in (ag, torch_oracle):
            lib.set_warn_always(False)


def test_clamp_min_with_a_tensor_bound_gives_the_bound_its_gradient(torch_oracle):
    def case(m):
        x = m.tensor([1.0, 2.0, 3.0], requires_grad=True)
        low = m.tensor([[2.0, 2.0, 2.0], [0.0, 5.0, 3.0]], requires_grad=True)
        out = m.clamp_min(x, low)
        out.backward(m.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))
        return [out, x.grad, low.grad, type(out.grad_fn).__name__]

    assert_like_torch(case)
    assert_like_torch(lambda m: m.tensor([1.0, 5.0]).clamp_min(m.tensor([2.0, 2.0])))


def test_clamp_min_promotes_as_pytorch(torch_oracle):
    assert_like_torch(lambda m: m.clamp_min(m.tensor([1, 2, 3]), 2.5))
    assert_like_torch(lambda m: m.clamp_min(m.tensor([1, 2, 3]), m.tensor([2.5, 1.0, 1.0])))


@pytest.mark.parametrize("keepdim", [False, True])
def test_prod_of_a_0d_tensor_along_dim_0(torch_oracle, keepdim):
    def case(m):
        x = m.tensor(3.0, requires_grad=True)
        out = x.prod(dim=0, keepdim=keepdim)
        out.backward()
        return [out, x.grad]

    assert_like_torch(case)


def test_permute_of_a_0d_tensor(torch_oracle):
    def case(m):
        x = m.tensor(3.0, requires_grad=True)
        out = x.permute(()) * 2
        out.backward()
        return [out, x.grad]

    assert_like_torch(case)
    assert_like_torch(lambda m: m.tensor(3.0).permute())  # no dims at all: a TypeError


def test_unfold_and_fold_an_empty_batch(torch_oracle):
    def case(m):
        x = m.zeros(0, 3, 4, 4, requires_grad=True)
        cols = m.nn.functional.unfold(x, 2)
        back = m.nn.functional.fold(cols, (4, 4), 2)
        back.sum().backward()
        return [cols, back, x.grad]

    assert_like_torch(case)


@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("affine", [True, False])
def test_batch_norm_of_an_empty_batch(torch_oracle, training, affine):
    def case(m):
        x = m.zeros(0, 3, 2, requires_grad=True)
        mean, var = m.tensor([0.5, 1.0, 2.0]), m.tensor([1.0, 2.0, 3.0])
        w = m.tensor([2.0, 3.0, 4.0], requires_grad=True) if affine else None
        b = m.tensor([1.0, 1.0, 1.0], requires_grad=True) if affine else None
        out = m.nn.functional.batch_norm(x, mean, var, w, b, training=training)
        out.sum().backward()
        grads = [w.grad, b.grad] if affine else []
        return [out, mean, var, x.grad, *grads]

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no NumPy "mean of empty slice" on the way
        assert_like_torch(case, warns=True)


def test_batch_norm_layer_keeps_its_statistics_on_an_empty_batch(torch_oracle):
    def case(m):
        layer = m.nn.BatchNorm1d(3)
        layer(m.zeros(0, 3))
        return [layer.running_mean, layer.running_var, layer.num_batches_tracked]

    assert_like_torch(case)


# --- 2. a Python number first ----------------------------------------------------------------
OPERANDS = {"float": [1.0, 2.0, 3.0], "int": [1, 2, 3], "bool": [True, False, True]}
NUMBER_FIRST = ["eq", "ne", "lt", "le", "gt", "ge", "maximum", "minimum", "atan2", "hypot",
                "logical_and", "logical_or", "logical_xor", "isclose", "allclose", "equal",
                "rsub", "remainder",
                "floor_divide", "xlogy", "pow", "add", "sub", "mul", "div", "true_divide",
                "subtract", "multiply", "divide"]


def _full_message(lib, call):
    """The exception ``call(lib)`` raises, with its whole message, or None."""
    try:
        call(lib)
    except Exception as err:
        return type(err).__name__, str(err)
    return None


@pytest.mark.parametrize("name", NUMBER_FIRST)
@pytest.mark.parametrize("number", [2, 2.5, True], ids=["int", "float", "bool"])
@pytest.mark.parametrize("kind", list(OPERANDS))
def test_a_number_first(torch_oracle, name, number, kind):
    def case(m):
        return getattr(m, name)(number, m.tensor(OPERANDS[kind]))

    shown = assert_like_torch(case)
    if shown[0] == "error":  # the argument parser's text, all of its lines
        assert _full_message(ag, case) == _full_message(torch_oracle, case)


@pytest.mark.parametrize("name", ["maximum", "minimum", "atan2", "hypot", "logical_and",
                                  "isclose", "eq", "allclose", "equal"])
def test_a_number_second_where_pytorch_wants_a_tensor(torch_oracle, name):
    def function(m):
        return getattr(m, name)(m.tensor([1.0, 2.0]), 2)

    assert_like_torch(function)
    assert _full_message(ag, function) == _full_message(torch_oracle, function)


@pytest.mark.parametrize("name", ["maximum", "minimum", "atan2", "hypot", "allclose", "equal"])
def test_the_method_form_counts_positions_from_other(torch_oracle, name):
    def method(m):
        return getattr(m.tensor([1.0, 2.0]), name)(2)

    assert_like_torch(method)


@pytest.mark.parametrize("name", ["eq", "maximum", "pow", "xlogy"])
def test_two_numbers_where_pytorch_wants_a_tensor(torch_oracle, name):
    def case(m):
        return getattr(m, name)(2, 3)

    assert_like_torch(case)
    assert _full_message(ag, case) == _full_message(torch_oracle, case)


def test_lerp_with_a_number_where_a_tensor_goes(torch_oracle):
    for case in (lambda m: m.lerp(2, m.tensor([1.0, 2.0]), 0.5),
                 lambda m: m.lerp(m.tensor([1.0, 2.0]), 2, 0.5),
                 lambda m: m.lerp(2, m.tensor([1.0, 2.0]))):
        assert_like_torch(case)
        assert _full_message(ag, case) == _full_message(torch_oracle, case)


@pytest.mark.parametrize("name", ["div", "true_divide", "pow", "xlogy", "add", "sub", "mul",
                                  "remainder"])
def test_a_number_first_differentiates_as_pytorch(torch_oracle, name):
    def case(m):
        x = m.tensor([1.0, 2.0, 3.0], requires_grad=True)
        out = getattr(m, name)(2.5, x)
        if out.grad_fn is None or type(out.grad_fn).__name__ == "NotImplemented":
            return [out, type(out.grad_fn).__name__]
        out.sum().backward()
        return [out, x.grad, type(out.grad_fn).__name__]

    assert_like_torch(case)


def test_the_division_operator_still_multiplies_by_a_reciprocal(torch_oracle):
    def case(m):
        x = m.tensor([1.0, 2.0, 3.0], requires_grad=True)
        out = 2.5 / x
        out.sum().backward()
        return [out, x.grad, type(out.grad_fn).__name__]

    assert_like_torch(case, rtol=0, atol=0)
    assert_like_torch(lambda m: m.div(2.5, m.tensor([3.0])), rtol=0, atol=0)


def test_where_takes_numbers_for_both_values(torch_oracle):
    assert_like_torch(lambda m: m.where(m.tensor([True, False]), 2, m.tensor([1.0, 2.0])))
    assert_like_torch(lambda m: m.where(m.tensor([True, False]), 2, 3))


# --- 3. keywords PyTorch takes ---------------------------------------------------------------
@pytest.mark.parametrize("beta,alpha,bias", [(0.5, 2, np.ones((2, 2))), (0, 1, np.full(2, np.nan)),
                                             (2, 0, np.ones(2)), (1, 1, np.ones((1, 2)))])
def test_addmm_beta_and_alpha(torch_oracle, beta, alpha, bias):
    a, b = R.standard_normal((2, 3)), R.standard_normal((3, 2))

    def case(m):
        leaves = [m.tensor(v, requires_grad=True) for v in (bias, a, b)]
        out = m.addmm(*leaves, beta=beta, alpha=alpha)
        out.backward(m.tensor([[1.0, 2.0], [3.0, 4.0]]))
        return [out, *(t.grad for t in leaves), type(out.grad_fn).__name__]

    assert_like_torch(case)


def test_memory_formats_print_as_pytorch_s(torch_oracle):
    assert_like_torch(lambda m: [repr(m.contiguous_format), repr(m.preserve_format),
                                 repr(m.channels_last), str(m.channels_last_3d),
                                 type(m.preserve_format).__name__])


@pytest.mark.parametrize("name", ["contiguous_format", "preserve_format"])
def test_row_major_memory_formats_are_accepted(torch_oracle, name):
    def case(m):
        fmt = getattr(m, name)
        x = m.tensor(IMG).transpose(2, 3)
        return [x.contiguous(memory_format=fmt), x.clone(memory_format=fmt),
                m.zeros_like(x, memory_format=fmt), m.ones_like(x, memory_format=fmt),
                m.empty_like(x, memory_format=fmt).shape, m.full_like(x, 2.0, memory_format=fmt),
                x.to(m.float32, memory_format=fmt), m.clone(x, memory_format=fmt)]

    assert_like_torch(case)


def test_channels_last_is_refused_with_what_to_use_instead():
    x = ag.ones(1, 2, 2, 2)
    for call in (lambda: x.contiguous(memory_format=ag.channels_last),
                 lambda: x.to(memory_format=ag.channels_last),
                 lambda: ag.zeros_like(x, memory_format=ag.channels_last)):
        with pytest.raises(NotImplementedError, match="contiguous_format"):
            call()


def test_a_memory_format_must_be_one(torch_oracle):
    assert_like_torch(lambda m: m.ones(2).contiguous(memory_format=3))


@pytest.mark.parametrize("kwargs", [dict(kernel_size=2), dict(kernel_size=3, stride=2, padding=1),
                                    dict(kernel_size=2, dilation=2, ceil_mode=True),
                                    dict(kernel_size=(2, 3), stride=1)])
@pytest.mark.parametrize("batched", [True, False])
def test_max_pool2d_returns_pytorch_s_indices(torch_oracle, kwargs, batched):
    data = R.standard_normal((2, 2, 5, 6)) if batched else R.standard_normal((2, 5, 6))

    def case(m):
        x = m.tensor(data, requires_grad=True)
        out, indices = m.nn.functional.max_pool2d(x, return_indices=True, **kwargs)
        out.backward(m.tensor(np.arange(out.numel(), dtype=np.float64).reshape(out.shape)))
        return [out, indices, x.grad, type(out.grad_fn).__name__, indices.requires_grad]

    assert_like_torch(case)


def test_max_pool2d_layer_returns_indices_and_takes_them_by_position(torch_oracle):
    def case(m):
        x = m.tensor(IMG, requires_grad=True)
        out, indices = m.nn.MaxPool2d(2, 1, 0, 1, True)(x)
        positional = m.nn.functional.max_pool2d(x, 2, 1, 0, 1, False, True)
        out.sum().backward()
        return [out, indices, x.grad, *positional]

    assert_like_torch(case)


@pytest.mark.parametrize("reduce", ["add", "multiply"])
@pytest.mark.parametrize("src", ["tensor", "number"])
def test_scatter_reduce_keyword(torch_oracle, reduce, src):
    def case(m):
        x = m.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
        index = m.tensor([[0, 0], [1, 2]])
        source = m.tensor([[2.0, 3.0], [4.0, 5.0]]) if src == "tensor" else 3.0
        out = x.scatter(1, index, source, reduce=reduce)
        shown = [out, type(out.grad_fn).__name__]
        try:
            out.sum().backward()
        except RuntimeError as err:
            shown.append(str(err))
        return shown

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_like_torch(case)


def test_scatter_reduce_on_integers_and_as_a_function(torch_oracle):
    index = [[0, 0], [1, 2]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_like_torch(lambda m: m.ones(2, 3, dtype=m.int64).scatter(
            1, m.tensor(index), 2, reduce="multiply"))
        assert_like_torch(lambda m: m.scatter(m.ones(2, 3), 1, m.tensor(index), m.ones(2, 2),
                                              reduce="add"))
    assert_like_torch(lambda m: m.ones(2, 3).scatter(1, m.tensor(index), 2.0, reduce="mean"))


def test_scatter_reduce_with_a_tensor_warns_as_pytorch(torch_oracle):
    for lib in (ag, torch_oracle):
        lib.set_warn_always(True)
    try:
        assert_like_torch(lambda m: m.ones(2, 3).scatter(
            1, m.tensor([[0, 1]]), m.ones(1, 2), reduce="add"), warns=True)
    finally:
        for lib in (ag, torch_oracle):
            lib.set_warn_always(False)


SPATIAL = {4: ((2, 3, 4, 5), (2, 4, 5)), 3: ((2, 3, 4), (2, 4)), 5: ((2, 3, 2, 2, 3), (2, 2, 2, 3))}


@pytest.mark.parametrize("ndim", list(SPATIAL))
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("loss", ["nll_loss", "cross_entropy"])
def test_losses_on_spatial_class_scores(torch_oracle, ndim, reduction, weighted, loss):
    shape, target_shape = SPATIAL[ndim]
    scores = R.standard_normal(shape)
    target = R.integers(0, 3, target_shape)
    target.reshape(-1)[::4] = 1  # ignored below
    weight = np.array([0.2, 1.0, 3.0]) if weighted else None

    def case(m):
        x = m.tensor(scores, requires_grad=True)
        w = None if weight is None else m.tensor(weight)
        inputs = x.log_softmax(1) if loss == "nll_loss" else x
        out = getattr(m.nn.functional, loss)(inputs, m.tensor(target), weight=w,
                                             ignore_index=1, reduction=reduction)
        out.backward(m.tensor(np.arange(out.numel(), dtype=np.float64).reshape(out.shape) + 1))
        return [out, x.grad]

    assert_like_torch(case, rtol=1e-12, atol=1e-12)


def test_spatial_nll_loss_records_pytorch_s_nodes(torch_oracle):
    def case(m):
        names = []
        for shape, target_shape in SPATIAL.values():
            x = m.zeros(shape, requires_grad=True)
            for reduction in ("mean", "none"):
                out = m.nn.functional.nll_loss(x, m.zeros(target_shape, dtype=m.int64),
                                               reduction=reduction)
                names.append(type(out.grad_fn).__name__)
        return names

    assert_like_torch(case)


def test_spatial_cross_entropy_with_label_smoothing_and_probabilities(torch_oracle):
    scores = R.standard_normal((2, 3, 4, 5))
    probabilities = R.dirichlet(np.ones(3), (2, 4, 5)).transpose(0, 3, 1, 2).copy()
    target = R.integers(0, 3, (2, 4, 5))
    for tgt, smoothing in ((probabilities, 0.0), (probabilities, 0.2), (target, 0.1)):
        def case(m, tgt=tgt, smoothing=smoothing):
            x = m.tensor(scores, requires_grad=True)
            out = m.nn.functional.cross_entropy(x, m.tensor(tgt), label_smoothing=smoothing)
            out.backward()
            return [out, x.grad]

        assert_like_torch(case, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("shapes", [((2, 3, 4, 5), (2, 4)), ((2, 3, 4, 5), (2, 4, 6)),
                                    ((2, 3, 4, 5), (3, 4, 5)), ((2, 3, 4), (2, 5))])
def test_spatial_targets_that_do_not_fit_are_refused_as_in_pytorch(torch_oracle, shapes):
    shape, target_shape = shapes
    assert_like_torch(lambda m: m.nn.functional.nll_loss(
        m.zeros(shape), m.zeros(target_shape, dtype=m.int64)))


@pytest.mark.parametrize("channels,per_group,groups,kwargs,batched", [
    (4, 1, 2, {}, True), (6, 2, 3, dict(stride=2, padding=1, output_padding=1), True),
    (4, 3, 4, dict(dilation=2), False), (4, 2, 1, dict(stride=(1, 2)), True)])
def test_grouped_conv_transpose2d(torch_oracle, channels, per_group, groups, kwargs, batched):
    data = R.standard_normal((2, channels, 3, 4) if batched else (channels, 3, 4))
    kernel = R.standard_normal((channels, per_group, 2, 3))
    offsets = R.standard_normal(per_group * groups)

    def case(m):
        x, w, b = (m.tensor(v, requires_grad=True) for v in (data, kernel, offsets))
        out = m.nn.functional.conv_transpose2d(x, w, b, groups=groups, **kwargs)
        out.backward(m.tensor(np.arange(out.numel(), dtype=np.float64).reshape(out.shape)))
        return [out, x.grad, w.grad, b.grad]

    assert_like_torch(case, rtol=1e-12, atol=1e-12)


def test_grouped_conv_transpose2d_layer(torch_oracle):
    def case(m):
        m.manual_seed(0)
        layer = m.nn.ConvTranspose2d(4, 6, 3, stride=2, groups=2)
        return [layer.weight.shape, layer(m.ones(1, 4, 3, 3)).shape]

    assert_like_torch(case)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("dropout_p,is_causal", [(0.0, False), (0.4, False), (0.25, True)])
def test_scaled_dot_product_attention_dropout(torch_oracle, dtype, dropout_p, is_causal):
    q, k, v = (R.standard_normal(s) for s in ((2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 5)))

    def case(m):
        m.manual_seed(3)  # our dropout draws PyTorch's CPU stream: the same weights are dropped
        leaves = [m.tensor(a, dtype=getattr(m, dtype), requires_grad=True) for a in (q, k, v)]
        out = m.nn.functional.scaled_dot_product_attention(*leaves, dropout_p=dropout_p,
                                                           is_causal=is_causal)
        out.sum().backward()
        return [out, *(t.grad for t in leaves)]

    assert_like_torch(case, rtol=1e-5, atol=1e-6)


def test_attention_dropout_drops_a_fraction_p_and_keeps_the_mean():
    ag.manual_seed(0)
    n, p = 400, 0.3
    q, k = ag.zeros(1, n, 8), ag.zeros(1, n, 8)  # uniform weights 1/n
    v = ag.eye(n).unsqueeze(0)                   # so the output is the dropped weights
    weights = ag.nn.functional.scaled_dot_product_attention(q, k, v, dropout_p=p).numpy()
    dropped = (weights == 0).mean()
    assert abs(dropped - p) < 0.01
    np.testing.assert_allclose(weights[weights != 0], 1 / (n * (1 - p)), rtol=1e-5)
    assert abs(weights.sum(-1).mean() - 1.0) < 0.01


INTERPOLATE = [("linear", 3), ("bilinear", 4), ("bicubic", 4), ("trilinear", 5), ("area", 3),
               ("area", 4), ("area", 5), ("nearest-exact", 3), ("nearest-exact", 4),
               ("nearest-exact", 5)]
RESIZES = [dict(scale_factor=2), dict(scale_factor=0.5), dict(scale_factor=1.7),
           dict(size=3), dict(size=9), dict(scale_factor=1.5, recompute_scale_factor=True)]


@pytest.mark.parametrize("mode,ndim", INTERPOLATE)
@pytest.mark.parametrize("resize", range(len(RESIZES)))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_interpolate_modes(torch_oracle, mode, ndim, resize, dtype):
    data = R.standard_normal((2, 2, 5, 7, 3)[:ndim] if ndim < 5 else (1, 2, 3, 4, 5))
    corners = [None, False, True] if mode in ("linear", "bilinear", "bicubic", "trilinear") \
        else [None]
    for align_corners in corners:
        def case(m, align_corners=align_corners):
            x = m.tensor(data, dtype=getattr(m, dtype), requires_grad=True)
            out = m.nn.functional.interpolate(x, mode=mode, align_corners=align_corners,
                                              **RESIZES[resize])
            weights = np.arange(out.numel(), dtype=np.float64).reshape(tuple(out.shape)) % 7
            out.backward(m.tensor(weights, dtype=getattr(m, dtype)))
            return [out, x.grad]

        tolerance = 1e-12 if dtype == "float64" else 2e-5
        assert_like_torch(case, rtol=tolerance, atol=tolerance * 10)


def test_upsample_layer_bicubic(torch_oracle):
    def case(m):
        x = m.tensor(IMG, requires_grad=True)
        out = m.nn.Upsample(scale_factor=2, mode="bicubic", align_corners=True)(x)
        out.sum().backward()
        return [out, x.grad]

    assert_like_torch(case, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("mode,ndim,align_corners", [("linear", 4, None), ("bicubic", 3, None),
                                                     ("trilinear", 4, None), ("area", 4, True),
                                                     ("nearest-exact", 4, False)])
def test_interpolate_refusals_match_pytorch(torch_oracle, mode, ndim, align_corners):
    assert_like_torch(lambda m: m.nn.functional.interpolate(
        m.ones((1,) * ndim), scale_factor=2, mode=mode, align_corners=align_corners))


@pytest.mark.parametrize("shape,kwargs", [((3, 4), {}), ((2, 3, 4), dict(dim=(1, 2))),
                                          ((2, 3, 4), dict(dim=(2, 0), keepdim=True)),
                                          ((4, 3), dict(dim=(-1, -2)))])
@pytest.mark.parametrize("p", ["nuc", "fro"])
def test_matrix_norms(torch_oracle, shape, kwargs, p):
    data = R.standard_normal(shape)

    def case(m):
        x = m.tensor(data, requires_grad=True)
        out = m.norm(x, p=p, **kwargs)
        out.backward(m.ones(tuple(out.shape), dtype=m.float64))
        return [out, x.grad]

    assert_like_torch(case, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("shape,kwargs", [((2, 3, 4), {}), ((4,), {}), ((2, 3, 4), dict(dim=1))])
def test_nuclear_norm_refusals(torch_oracle, shape, kwargs):
    assert_like_torch(lambda m: m.norm(m.ones(shape), p="nuc", **kwargs))


@pytest.mark.parametrize("shape,args,transposed", [
    ((10,), (0, 3, 2), False), ((3, 7), (1, 2, 3), False), ((3, 7), (0, 2, 1), True),
    ((0, 3, 4), (2, 2, 1), False), ((), (0, 1, 1), False), ((4, 5), (-1, 5, 1), False),
    ((2, 5), (1, 0, 1), False), ((10,), (0, 11, 1), False), ((10,), (0, 3, 0), False)])
def test_tensor_unfold_windows(torch_oracle, shape, args, transposed):
    def case(m):
        x = m.tensor(np.arange(float(np.prod(shape))).reshape(shape), requires_grad=True)
        windows = (x.t() if transposed else x).unfold(*args)
        weights = m.tensor(np.arange(float(windows.numel())).reshape(tuple(windows.shape)))
        (windows * weights).sum().backward()
        return [windows, x.grad, type(windows.grad_fn).__name__]

    assert_like_torch(case)


def test_tensor_unfold_is_a_view(torch_oracle):
    def case(m):
        x = m.arange(6.0)
        windows = x.unfold(0, 2, 2)
        x[0] = 9.0
        return [windows, windows._base is x]

    assert_like_torch(case)


@pytest.mark.parametrize("args", [(2,), (2, 1, 1, True, False), (3, 2, 1), ((2,), (1,)),
                                  (2, None, 0, True)])
@pytest.mark.parametrize("batched", [True, False])
def test_avg_pool1d_takes_pytorch_s_positional_arguments(torch_oracle, args, batched):
    data = R.standard_normal((2, 3, 7) if batched else (3, 7))

    def case(m):
        x = m.tensor(data, requires_grad=True)
        out = m.nn.functional.avg_pool1d(x, *args)
        out.sum().backward()
        return [out, x.grad]

    assert_like_torch(case)


@pytest.mark.parametrize("shape,args", [((5,), (2,)), ((1, 1, 1, 5), (2,)), ((1, 2, 5), (6,)),
                                        ((1, 2, 5), (3, 1, 2))])
def test_avg_pool1d_refusals(torch_oracle, shape, args):
    assert_like_torch(lambda m: m.nn.functional.avg_pool1d(m.ones(shape), *args))


@pytest.mark.parametrize("beta,alpha,bias", [(0.5, 2, np.ones(2)), (0, 1, np.full(2, np.nan)),
                                             (1, 1, np.ones(1)), (2, 0, np.array(3.0)),
                                             (1, 1, np.ones(3))])
def test_addmv_beta_and_alpha(torch_oracle, beta, alpha, bias):
    mat, vec = R.standard_normal((2, 3)), R.standard_normal(3)

    def case(m):
        leaves = [m.tensor(v, requires_grad=True) for v in (bias, mat, vec)]
        out = m.addmv(*leaves, beta=beta, alpha=alpha)
        out.backward(m.tensor([1.0, 2.0], dtype=m.float64))
        return [out, *(t.grad for t in leaves), type(out.grad_fn).__name__]

    assert_like_torch(case)


def test_addmv_refusals(torch_oracle):
    ones = np.ones
    for shapes in (((2,), (2, 3), (4,)), ((2,), (3,), (3,)), ((2,), (2, 3), (3, 1))):
        assert_like_torch(lambda m, s=shapes: m.addmv(*(m.tensor(ones(x)) for x in s)))
    assert_like_torch(lambda m: m.addmv(m.ones(2), m.tensor(ones((2, 3))), m.tensor(ones(3))))
