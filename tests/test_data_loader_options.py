"""DataLoader's other options against PyTorch's: ``sampler``, ``batch_sampler``,
``num_workers`` (loaded in this process here, the same batches in the same order),
``worker_init_fn``, ``pin_memory``, ``timeout``, ``prefetch_factor``, ``persistent_workers``,
PyTorch's checks of them, and its parameter list (names and order)."""

from __future__ import annotations

import inspect

import pytest
from oracle_helpers import assert_like_torch

import autograd_course as ag

torch = pytest.importorskip("torch")


def _loader(m, **kw):
    data = m.utils.data
    ds = data.TensorDataset(m.arange(10), m.arange(10) * 2.0)
    return data.DataLoader(ds, **kw)


CASES = {
    "sampler_list": lambda m: list(_loader(m, sampler=[3, 1, 4, 1, 5], batch_size=2)),
    "sampler_class": lambda m: list(_loader(
        m, sampler=m.utils.data.SequentialSampler(range(7)), batch_size=3, drop_last=True)),
    "random_sampler": lambda m: (m.manual_seed(3), list(_loader(
        m, sampler=m.utils.data.RandomSampler(range(10)), batch_size=4)))[1],
    "shuffle_seeded": lambda m: (m.manual_seed(5), list(_loader(m, shuffle=True,
                                                                batch_size=3)))[1],
    "shuffle_generator": lambda m: list(_loader(m, shuffle=True, batch_size=4,
                                                generator=m.Generator().manual_seed(7))),
    "batch_sampler": lambda m: list(_loader(m, batch_sampler=[[0, 2], [9], [4, 5, 6]])),
    "batch_sampler_class": lambda m: list(_loader(m, batch_sampler=m.utils.data.BatchSampler(
        range(5), 2, drop_last=False))),
    "lengths": lambda m: [len(_loader(m, batch_sampler=[[1, 2], [3]])),
                          len(_loader(m, sampler=[1, 2, 3], batch_size=2)),
                          len(_loader(m, batch_size=4, drop_last=True))],
    "num_workers": lambda m: list(_loader(m, batch_size=4, num_workers=2, prefetch_factor=2,
                                          timeout=5, persistent_workers=True)),
    "positional_order": lambda m: list(m.utils.data.DataLoader(
        m.utils.data.TensorDataset(m.arange(6)), 2, False, [5, 0, 1], None, 0, None, False,
        True)),
    "errors_workers": lambda m: _loader(m, num_workers=-1),
    "errors_timeout": lambda m: _loader(m, timeout=-1),
    "errors_prefetch": lambda m: _loader(m, prefetch_factor=2),
    "errors_persistent": lambda m: _loader(m, persistent_workers=True),
    "errors_sampler_shuffle": lambda m: _loader(m, sampler=[1], shuffle=True),
    "errors_batch_sampler": lambda m: _loader(m, batch_sampler=[[1]], batch_size=2),
    "errors_batch_sampler_drop": lambda m: _loader(m, batch_sampler=[[1]], drop_last=True),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_data_loader_options_like_pytorch(name):
    assert_like_torch(CASES[name])


def test_pin_memory_warns_like_pytorch_without_an_accelerator():
    assert_like_torch(lambda m: list(_loader(m, batch_size=5, pin_memory=True)), warns=True)


def test_worker_init_fn_is_called_with_each_worker_id_per_pass():
    calls = []
    loader = _loader(ag, batch_size=5, num_workers=3, worker_init_fn=calls.append)
    list(loader)
    list(loader)
    assert calls == [0, 1, 2, 0, 1, 2]
    calls.clear()
    loader = _loader(ag, batch_size=5, num_workers=2, worker_init_fn=calls.append,
                     persistent_workers=True)
    list(loader)
    list(loader)
    assert calls == [0, 1]  # persistent workers start once


def test_parameters_are_pytorchs():
    from torch.utils.data import DataLoader

    ours = inspect.signature(ag.utils.data.DataLoader.__init__).parameters
    theirs = inspect.signature(DataLoader.__init__).parameters
    assert [(p.name, p.kind, p.default) for p in ours.values()] == \
        [(p.name, p.kind, p.default) for p in theirs.values()]


def test_batch_size_none_gives_converted_samples_like_pytorch():
    assert_like_torch(lambda m: list(_loader(m, batch_size=None, sampler=[3, 1])))
    assert_like_torch(lambda m: list(_loader(m, batch_size=None,
                                             collate_fn=lambda s: s[1] * 2))[:3])
