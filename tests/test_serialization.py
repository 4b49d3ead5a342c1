"""ag.save / ag.load: tensors, state dicts and checkpoints as .npz, never pickle."""

from __future__ import annotations

import io
from collections import OrderedDict

import numpy as np
import pytest

import autograd_course as ag
from autograd_course import nn, optim


def test_tensor_round_trip_keeps_dtype_values_and_requires_grad(tmp_path):
    for t in (ag.randn(3, 4), ag.arange(5), ag.tensor([True, False]),
              ag.randn(2, dtype=ag.float64, requires_grad=True), ag.tensor(3.5)):
        path = tmp_path / "t.pt"
        ag.save(t, path)
        back = ag.load(path)
        assert isinstance(back, ag.Tensor) and back.dtype == t.dtype and back.shape == t.shape
        assert back.tolist() == t.tolist() and back.requires_grad == t.requires_grad


def test_path_is_used_exactly_as_given(tmp_path):
    path = tmp_path / "model.pt"
    ag.save(ag.ones(2), str(path))
    assert path.exists() and not (tmp_path / "model.pt.npz").exists()


def test_state_dict_round_trip_into_a_new_model(tmp_path):
    model = nn.Sequential(nn.Linear(4, 3), nn.BatchNorm1d(3), nn.Linear(3, 2))
    model(ag.randn(5, 4))
    path = tmp_path / "weights.npz"
    ag.save(model.state_dict(), path)
    state = ag.load(path)
    assert isinstance(state, OrderedDict) and list(state) == list(model.state_dict())
    fresh = nn.Sequential(nn.Linear(4, 3), nn.BatchNorm1d(3), nn.Linear(3, 2))
    fresh.load_state_dict(state)
    for (k, a), b in zip(model.state_dict().items(), fresh.state_dict().values()):
        assert np.array_equal(a.numpy(), b.numpy()) and a.dtype == b.dtype, k
    x = ag.randn(2, 4)
    model.eval()
    fresh.eval()
    assert np.array_equal(model(x).detach().numpy(), fresh(x).detach().numpy())


def test_checkpoint_with_optimizer_state_and_plain_values(tmp_path):
    model = nn.Linear(2, 1)
    opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    model(ag.ones(3, 2)).sum().backward()
    opt.step()
    checkpoint = {"model": model.state_dict(), "optimizer": opt.state_dict(), "epoch": 3,
                  "name": "linear", "best": 0.25, "history": [1.0, 0.5], "shape": (2, 1),
                  "nothing": None}
    buffer = io.BytesIO()
    ag.save(checkpoint, buffer)
    buffer.seek(0)
    back = ag.load(buffer)
    assert back["epoch"] == 3 and back["name"] == "linear" and back["best"] == 0.25
    assert back["history"] == [1.0, 0.5] and back["shape"] == (2, 1) and back["nothing"] is None
    assert list(back["optimizer"]["state"]) == [0, 1]  # integer keys survive
    buf = back["optimizer"]["state"][0]["momentum_buffer"]
    assert np.array_equal(buf.numpy(), opt.state[model.weight]["momentum_buffer"].numpy())
    fresh = optim.SGD(nn.Linear(2, 1).parameters(), lr=0.5)
    fresh.load_state_dict(back["optimizer"])
    assert fresh.param_groups[0]["lr"] == 0.1


def test_plain_npz_of_named_arrays_loads_as_a_state_dict(tmp_path):
    path = tmp_path / "exported.npz"
    np.savez(path, weight=np.ones((3, 2), np.float32), bias=np.zeros(3, np.float32))
    state = ag.load(path)
    assert list(state) == ["weight", "bias"] and state["weight"].dtype == ag.float32
    lin = nn.Linear(2, 3)
    lin.load_state_dict(state)
    assert lin.weight.tolist() == [[1.0, 1.0]] * 3


def test_no_pickle_is_ever_written_or_read(tmp_path):
    path = tmp_path / "evil.npz"
    np.savez(path, payload=np.array([{"a": 1}], dtype=object))  # an object array needs pickle
    with pytest.raises(ValueError, match="allow_pickle"):
        ag.load(path)
    ag.save({"w": ag.ones(2)}, tmp_path / "ok.npz")
    with np.load(tmp_path / "ok.npz", allow_pickle=False) as archive:
        assert all(archive[name].dtype != object for name in archive.files)


def test_unsupported_objects_are_refused():
    with pytest.raises(TypeError, match="ag.save stores tensors"):
        ag.save({"model": nn.Linear(1, 1)}, io.BytesIO())
