"""ag.utils.data (Dataset, TensorDataset, DataLoader) and the shipped digits data set,
including a real training run: an MLP reaches >= 95% test accuracy, the same every time."""

from __future__ import annotations

import hashlib
import os

import numpy as np
import pytest

import autograd_course as ag
from autograd_course import nn, optim
from autograd_course.utils.data import DataLoader, Dataset, TensorDataset, default_collate

torch = pytest.importorskip("torch")
tdata = torch.utils.data

X = np.arange(26.0).reshape(13, 2)
Y = np.arange(13)


def batches(loader, epochs=2):
    return [[b[1].tolist() for b in loader] for _ in range(epochs)]


@pytest.mark.parametrize("options", [
    dict(batch_size=4), dict(batch_size=4, shuffle=True), dict(batch_size=5, drop_last=True),
    dict(batch_size=3, shuffle=True, drop_last=True), dict(batch_size=13, shuffle=True),
    dict(batch_size=1, shuffle=True),
], ids=str)
@pytest.mark.parametrize("own_generator", [False, True])
def test_dataloader_order_matches_pytorch(options, own_generator):
    """Same seed, same batches, epoch after epoch, and the global generator ends in the
    same state (PyTorch draws a base seed and a sampler seed on every pass)."""
    ag.manual_seed(5)
    torch.manual_seed(5)
    gen = ag.random.Generator().manual_seed(9) if own_generator else None
    tgen = torch.Generator().manual_seed(9) if own_generator else None
    ours = DataLoader(TensorDataset(ag.tensor(X), ag.tensor(Y)), generator=gen, **options)
    theirs = tdata.DataLoader(tdata.TensorDataset(torch.tensor(X), torch.tensor(Y)),
                              generator=tgen, **options)
    assert batches(ours, 3) == batches(theirs, 3)
    assert len(ours) == len(theirs)
    assert ag.rand(4).tolist() == torch.rand(4).tolist()


def test_batches_hold_the_rows_of_every_tensor():
    loader = DataLoader(TensorDataset(ag.tensor(X), ag.tensor(Y)), batch_size=5)
    xb, yb = next(iter(loader))
    assert isinstance(xb, ag.Tensor) and xb.shape == (5, 2) and yb.dtype == ag.int64
    assert xb.tolist() == X[:5].tolist()
    seen = np.concatenate([b[1].numpy() for b in loader])
    assert np.array_equal(seen, Y)
    assert [len(b[1]) for b in loader] == [5, 5, 3]


def test_tensor_dataset():
    ds = TensorDataset(ag.tensor(X), ag.tensor(Y))
    assert len(ds) == 13
    x, y = ds[3]
    assert x.tolist() == [6.0, 7.0] and y.item() == 3
    with pytest.raises(AssertionError, match="Size mismatch between tensors"):
        TensorDataset(ag.zeros(3), ag.zeros(4))


class Squares(Dataset):
    """A map-style dataset of plain Python values."""

    def __len__(self):
        return 5

    def __getitem__(self, i):
        return {"x": float(i), "y": i * i, "v": np.full(2, i, dtype=np.float32)}


def test_custom_dataset_and_default_collate_match_pytorch():
    ours = next(iter(DataLoader(Squares(), batch_size=3)))
    theirs = next(iter(tdata.DataLoader(Squares(), batch_size=3)))
    for key in ("x", "y", "v"):
        assert repr(ours[key]) == repr(theirs[key])
    pairs = [(ag.tensor([1.0, 2.0]), 0), (ag.tensor([3.0, 4.0]), 1)]
    xb, yb = default_collate(pairs)
    assert xb.tolist() == [[1.0, 2.0], [3.0, 4.0]] and yb.tolist() == [0, 1]
    with pytest.raises(NotImplementedError):
        len(Dataset())


def test_dataloader_argument_checks():
    with pytest.raises(ValueError, match="batch_size should be a positive integer value"):
        DataLoader(Squares(), batch_size=0)
    assert [s["y"] for s in DataLoader(Squares(), batch_size=None)] == [0, 1, 4, 9, 16]


# --- the digits data set --------------------------------------------------------------------
def test_digits_file_is_small_licensed_and_unchanged():
    folder = os.path.join(os.path.dirname(ag.__file__), "data")
    path = os.path.join(folder, "digits.npz")
    assert os.path.getsize(path) < 100_000
    with open(path, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    with open(os.path.join(folder, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    assert digest in readme and "CC BY 4.0" in readme and "Alpaydin" in readme


def test_load_digits():
    images, labels = ag.datasets.load_digits()
    assert images.shape == (1797, 8, 8) and images.dtype == ag.float32
    assert labels.shape == (1797,) and labels.dtype == ag.int64
    assert float(images.min()) == 0.0 and float(images.max()) == 1.0
    assert sorted(set(labels.tolist())) == list(range(10))
    raw, raw_labels = ag.datasets.load_digits(normalize=False, as_numpy=True)
    assert raw.dtype == np.uint8 and raw.max() == 16 and isinstance(raw_labels, np.ndarray)
    assert np.bincount(raw_labels).min() >= 170  # about 180 of each digit


def digits_split():
    """A fixed 80/20 split (seeded generator): 1437 training and 360 test images."""
    images, labels = ag.datasets.load_digits()
    x = images.reshape(-1, 64)
    perm = ag.randperm(len(x), generator=ag.random.Generator().manual_seed(0))
    train, test = perm[:1437], perm[1437:]
    return x[train], labels[train], x[test], labels[test]


def train_digits_mlp(epochs: int = 15):
    """The chapter's MLP: 64 -> 64 -> ReLU -> 10, SGD with momentum, batches of 32."""
    x_train, y_train, x_test, y_test = digits_split()
    ag.manual_seed(0)
    model = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 10))
    optimizer = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    loader = DataLoader(TensorDataset(x_train, y_train), batch_size=32, shuffle=True)
    for _ in range(epochs):
        for xb, yb in loader:
            optimizer.zero_grad()
            nn.functional.cross_entropy(model(xb), yb).backward()
            optimizer.step()
    model.eval()
    with ag.no_grad():
        accuracy = (model(x_test).argmax(1) == y_test).float().mean().item()
    return accuracy


def test_mlp_on_digits_reaches_95_percent_and_is_reproducible():
    first = train_digits_mlp()
    assert first >= 0.95
    assert train_digits_mlp() == first


def test_one_epoch_of_digits_training_matches_pytorch_step_by_step():
    """Data order, initialisation, loss and optimizer all as PyTorch: identical losses."""
    x_train, y_train, _, _ = digits_split()
    xs, ys = x_train.numpy().astype(np.float64), y_train.numpy()

    def run(lib, data_mod, f):
        lib.manual_seed(1)
        model = lib.nn.Sequential(lib.nn.Linear(64, 32), lib.nn.ReLU(),
                                  lib.nn.Linear(32, 10)).double()
        opt = lib.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True)
        loader = data_mod.DataLoader(data_mod.TensorDataset(lib.tensor(xs), lib.tensor(ys)),
                                     batch_size=64, shuffle=True)
        losses = []
        for xb, yb in loader:
            opt.zero_grad()
            loss = f.cross_entropy(model(xb), yb)
            loss.backward()
            opt.step()
            losses.append(loss.item())
        return losses

    ours = run(ag, ag.utils.data, nn.functional)
    theirs = run(torch, tdata, torch.nn.functional)
    np.testing.assert_allclose(ours, theirs, rtol=1e-10)
