"""The APIs that nanoGPT, minGPT, makemore and the "zero to hero" lectures use, against PyTorch
(issue 44): ``torch.utils.data``'s submodules, ``RandomSampler(replacement=True,
num_samples=...)``, ``histogram``/``histc``, every form of ``randint``, ``y[0] = t`` with
leading size-1 dims in ``t``, and dropout switched off by ``eval()``."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from oracle_helpers import assert_like_torch, outcome

import autograd_course as ag

torch = pytest.importorskip("torch")


# --- torch.utils.data.{dataset, sampler, dataloader} ------------------------------------------
@pytest.mark.parametrize("module, names", [
    ("dataloader", ["DataLoader", "default_collate", "default_convert"]),
    ("dataset", ["Dataset", "TensorDataset"]),
    ("sampler", ["Sampler", "SequentialSampler", "RandomSampler", "BatchSampler"]),
])
def test_data_submodules_are_modules_holding_the_same_classes(module, names):
    ours = importlib.import_module(f"autograd_course.utils.data.{module}")
    theirs = importlib.import_module(f"torch.utils.data.{module}")
    for name in names:
        assert hasattr(theirs, name)
        assert getattr(ours, name) is getattr(ag.utils.data, name)


SAMPLER_CASES = {
    "replacement_100": lambda m: (m.manual_seed(0), list(m.utils.data.RandomSampler(
        range(10), replacement=True, num_samples=100)))[1],
    "replacement_default_count": lambda m: (m.manual_seed(1), list(m.utils.data.RandomSampler(
        range(7), replacement=True)))[1],
    "replacement_generator": lambda m: list(m.utils.data.RandomSampler(
        range(50), replacement=True, num_samples=40, generator=m.Generator().manual_seed(3))),
    "num_samples_without_replacement": lambda m: (m.manual_seed(2), list(
        m.utils.data.RandomSampler(range(4), num_samples=10)))[1],
    "two_passes_then_randn": lambda m: (m.manual_seed(4), [
        list(s) for s in [m.utils.data.RandomSampler(range(9), True, 5)] * 2], m.randn(2))[1:],
    "len": lambda m: len(m.utils.data.RandomSampler(range(3), replacement=True,
                                                    num_samples=17)),
    "loader_with_it": lambda m: (m.manual_seed(5), list(m.utils.data.DataLoader(
        m.utils.data.TensorDataset(m.arange(20)), batch_size=4,
        sampler=m.utils.data.RandomSampler(range(20), replacement=True, num_samples=10))))[1],
    "bad_num_samples": lambda m: m.utils.data.RandomSampler(range(3), num_samples=0),
    "bad_replacement": lambda m: m.utils.data.RandomSampler(range(3), replacement=1),
}


@pytest.mark.parametrize("name", SAMPLER_CASES)
def test_random_sampler_draws_what_torch_draws(name):
    assert_like_torch(SAMPLER_CASES[name])


# --- randint -----------------------------------------------------------------------------------
RANDINT_CASES = {
    "high_size": lambda m: m.randint(3, (6,)),
    "high_size_keyword": lambda m: m.randint(3, size=(6,)),
    "keywords_only": lambda m: m.randint(high=5, size=(2, 3)),
    "keywords_any_order": lambda m: m.randint(size=[4], high=9, low=2),
    "low_high_size": lambda m: m.randint(2, 9, (2, 3)),
    "low_high_size_keyword": lambda m: m.randint(-4, 4, size=(7,)),
    "low_keyword_high": lambda m: m.randint(1, high=3, size=(5,)),
    "torch_size": lambda m: m.randint(1, 3, m.Size([2, 2])),
    "dtype_float": lambda m: m.randint(10, (4,), dtype=m.float32),
    "dtype_int32": lambda m: m.randint(0, 100, (4,), dtype=m.int32),
    "float_requires_grad": lambda m: m.randint(3, (2,), dtype=m.float64, requires_grad=True),
    "big_range": lambda m: m.randint(0, 2**40, (3,)),
    "tensor_bound": lambda m: m.randint(m.tensor(3), (4,)),
}


@pytest.mark.parametrize("name", RANDINT_CASES)
def test_randint_every_form_gives_torchs_numbers(name):
    def case(m):
        m.manual_seed(7)
        first = RANDINT_CASES[name](m)
        return [first, m.randint(0, 1000, (3,)), m.randint(5, (2,), generator=m.Generator().
                                                           manual_seed(11))]
    assert_like_torch(case)


@pytest.mark.parametrize("call", [
    "randint(3)", "randint()", "randint(3, 5)", "randint(3., (2,))", "randint(0, 3., (2,))",
    "randint(3, 1, (2,))", "randint(2, 2, (1,))", "randint(3, (2,), requires_grad=True)",
])
def test_randint_refuses_what_torch_refuses(call):
    ours = outcome(lambda: eval(f"m.{call}", {"m": ag}))
    theirs = outcome(lambda: eval(f"m.{call}", {"m": torch}))
    assert ours.startswith(("TypeError", "RuntimeError")) and ours == theirs


def test_randint_missing_size_lists_torchs_forms_in_full():
    with pytest.raises(TypeError) as ours:
        ag.randint(3)
    with pytest.raises(TypeError) as theirs:
        torch.randint(3)
    assert str(ours.value) == str(theirs.value)


# --- histogram, histc --------------------------------------------------------------------------
def _data(m, n=200, seed=0, dtype="float32"):
    values = np.random.default_rng(seed).normal(size=n) * 3
    return m.tensor(values, dtype=getattr(m, dtype))


HISTOGRAM_CASES = {
    "bins_int": lambda m: m.histogram(_data(m), 10),
    "bins_keyword_range": lambda m: m.histogram(_data(m), bins=7, range=(-2.0, 3.0)),
    "range_ints": lambda m: m.histogram(_data(m), 5, range=(0, 4)),
    "bins_tensor": lambda m: m.histogram(_data(m), m.tensor([-5.0, -1.0, 0.0, 0.5, 6.0])),
    "weight": lambda m: m.histogram(_data(m), 6, weight=_data(m, seed=1).abs()),
    "density": lambda m: m.histogram(_data(m), 9, density=True),
    "density_weight_edges": lambda m: m.histogram(
        _data(m), m.tensor([-4.0, 0.0, 1.0, 4.0]), weight=_data(m, seed=2).abs(), density=True),
    "float64": lambda m: m.histogram(_data(m, dtype="float64"), 13),
    "two_dims_read_flat": lambda m: m.histogram(_data(m).view(20, 10), 4),
    "many_bins": lambda m: m.histogram(_data(m, 5000, 3), 100),
    "edges_hit": lambda m: m.histogram(m.arange(11.0) / 10, 10),
    "one_value": lambda m: m.histogram(m.tensor([2.0, 2.0]), 2),
    "empty": lambda m: m.histogram(m.tensor([]), 3),
    "method": lambda m: _data(m).histogram(4, range=(-1.0, 1.0)),
    "names": lambda m: [type(m.histogram(_data(m), 3)).__name__,
                        m.histogram(_data(m), 3).hist, m.histogram(_data(m), 3).bin_edges],
    "ints_refused": lambda m: m.histogram(m.tensor([1, 2]), 3),
    "zero_bins": lambda m: m.histogram(_data(m), 0),
    "range_reversed": lambda m: m.histogram(_data(m), 3, range=(4.0, 1.0)),
    "nan": lambda m: m.histogram(m.tensor([1.0, float("nan")]), 2),
    "weight_dtype": lambda m: m.histogram(_data(m), 3, weight=_data(m, dtype="float64")),
    "bins_dtype": lambda m: m.histogram(_data(m), m.tensor([0.0, 1.0], dtype=m.float64)),
    "histc": lambda m: m.histc(_data(m), 10),
    "histc_min_max": lambda m: m.histc(_data(m), bins=6, min=-1, max=2.5),
    "histc_default_bins": lambda m: m.histc(_data(m, 3000, 4)),
    "histc_edges_hit": lambda m: m.histc(m.arange(21.0) / 20, 20, 0, 1),
    "histc_method_float64": lambda m: _data(m, dtype="float64").histc(5),
    "histc_equal_min_max": lambda m: m.histc(_data(m), 4, min=2, max=2),
    "histc_empty": lambda m: m.histc(m.tensor([]), 3),
    "histc_ints": lambda m: m.histc(m.tensor([1, 2]), 4),
    "histc_reversed": lambda m: m.histc(_data(m), 3, min=4, max=1),
    "histc_inf": lambda m: m.histc(m.tensor([1.0, float("inf")]), 2),
}


@pytest.mark.parametrize("name", HISTOGRAM_CASES)
def test_histogram_counts_and_edges_are_torchs(name):
    assert_like_torch(HISTOGRAM_CASES[name], rtol=0, atol=0)


def test_histogram_prints_as_torchs_named_tuple_and_is_not_differentiable():
    def case(m):
        x = m.tensor([1.0, 2.0, 1.0, 4.0], requires_grad=True)
        result = m.histogram(x, bins=3)
        try:
            result.hist.sum().backward()
        except RuntimeError as err:
            return repr(result), str(err), repr(m.histc(x, 3))
        raise AssertionError("backward through a histogram should fail")
    assert case(ag) == case(torch)


# --- y[key] = t, t with leading size-1 dims ----------------------------------------------------
def _write(m, target, key, value_shape, grad=True):
    def case(_):
        w = m.arange(1.0, 1.0 + np.prod(target), dtype=m.float64).view(*target)
        w.requires_grad_(grad)
        y = w * 1
        t = (m.arange(np.prod(value_shape), dtype=m.float64) + 10).view(*value_shape)
        t.requires_grad_(True)
        y[key] = t * 2
        (y * y).sum().backward()
        return [y, t.grad, w.grad if grad else m.zeros(1), type(y.grad_fn).__name__]
    return case


SETITEM_CASES = {
    "row_from_1xn": ((3, 27), 0, (1, 27), True),
    "row_from_1x1xn": ((3, 5), 1, (1, 1, 5), True),
    "scalar_from_1x1": ((4,), 0, (1, 1), True),
    "column_from_1x1": ((4, 3), (slice(None), 0), (1, 1), True),
    "slice_from_1xkxn": ((4, 3), slice(1, 3), (1, 2, 3), True),
    "whole_from_1xkxn": ((2, 3), Ellipsis, (1, 2, 3), True),
    "index_list_from_1xkxn": ((4, 3), [0, 2], (1, 2, 3), True),
    "no_history_in_y": ((3, 27), 0, (1, 27), False),
}


@pytest.mark.parametrize("name", SETITEM_CASES)
def test_setitem_drops_leading_ones_of_the_value_as_torch(name):
    target, key, value_shape, grad = SETITEM_CASES[name]
    ours = _write(ag, target, key, value_shape, grad)(None)
    theirs = _write(torch, target, key, value_shape, grad)(None)
    assert ours[3] == theirs[3]
    for a, b in zip(ours[:3], theirs[:3]):
        assert tuple(a.shape) == tuple(b.shape)
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-12)


def test_setitem_without_autograd_and_a_mismatch_as_torch():
    def case(m):
        y = m.zeros(3)
        y[0] = m.ones(1, 1)
        z = m.zeros(2, 4)
        z[1] = m.arange(4.0).view(1, 1, 4)
        return [y, z]
    assert_like_torch(case)
    for bad in ("y = m.zeros(3, 4); y[0] = m.ones(2, 4)", "y = m.zeros(3, 4); y[0] = m.ones(3)",
                "y = m.zeros(3, 4); y[0:2] = m.ones(3, 4)"):
        ours, theirs = outcome(exec, bad, {"m": ag}), outcome(exec, bad, {"m": torch})
        assert ours.startswith("RuntimeError: ") and ours == theirs


# --- dropout in attention: on while training, off after eval() -------------------------------
def _attention_with_dropout(m):
    m.manual_seed(0)
    nn, F = m.nn, m.nn.functional

    class Attention(nn.Module):
        def __init__(self):
            super().__init__()
            self.qkv = nn.Linear(8, 24)
            self.attn_dropout, self.resid_dropout = nn.Dropout(0.25), nn.Dropout(0.1)
            self.register_buffer("mask", m.tril(m.ones(5, 5)).view(1, 1, 5, 5))

        def forward(self, x):
            q, k, v = self.qkv(x).split(8, dim=2)
            att = (q @ k.transpose(-2, -1)) / 8 ** 0.5
            att = att.masked_fill(self.mask[:, :, :5, :5] == 0, float("-inf"))
            att = self.attn_dropout(F.softmax(att, dim=-1))
            return self.resid_dropout(F.dropout(att @ v, 0.2, self.training))

    layer = Attention()
    x = m.randn(1, 2, 5, 8, requires_grad=True)[0]
    train = layer(x)
    train.sum().backward()
    layer.eval()
    with m.no_grad():
        evaluated = layer(x)
    return [train, x.grad, evaluated, layer.training, layer.attn_dropout.training]


def test_dropout_in_attention_trains_and_is_off_after_eval():
    assert_like_torch(_attention_with_dropout, rtol=1e-5, atol=1e-6)


def test_iter_of_a_loader_draws_its_seed_at_once_as_torch():
    """makemore and minGPT call iter(loader) before other random draws (a model's init): the
    loader's base seed is drawn by iter(), the sampler's seed by the first next()."""
    def case(m):
        m.manual_seed(9)
        data = m.utils.data
        loader = data.DataLoader(data.TensorDataset(m.arange(10)), batch_size=3, sampler=(
            data.RandomSampler(range(10), replacement=True, num_samples=6)))
        batches = iter(loader)
        between = m.randn(3)
        return [between, next(batches), next(batches), m.rand(2)]
    assert_like_torch(case)
