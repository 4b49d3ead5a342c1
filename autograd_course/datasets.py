"""Small real data sets that ship with the package (no download, works offline).

``load_digits()``: 1,797 handwritten digits as 8x8 images (UCI, CC BY 4.0; see
``autograd_course/data/README.md`` for origin and licence). Small enough to train an MLP in
seconds on a laptop CPU, real enough that it is not a toy.
"""

from __future__ import annotations

import os

import numpy as np

from . import creation, dtypes

_DATA = os.path.join(os.path.dirname(__file__), "data")


def load_digits(*, normalize: bool = True, as_numpy: bool = False):
    """The digits data set as ``(images, labels)``.

    ``images`` has shape (1797, 8, 8): float32 in [0, 1] (the 0..16 pixel counts divided by
    16) when ``normalize``, else the raw uint8 counts. ``labels`` is int64, shape (1797,),
    values 0..9. Tensors by default; NumPy arrays with ``as_numpy=True``.
    """
    with np.load(os.path.join(_DATA, "digits.npz"), allow_pickle=False) as archive:
        images, labels = archive["images"], archive["labels"]
    if normalize:
        images = images.astype(np.float32) / np.float32(16.0)
    if as_numpy:
        return images, labels
    return (creation.tensor(images, dtype=dtypes.from_numpy(images.dtype)),
            creation.tensor(labels, dtype=dtypes.int64))


_DOWNLOADED = ("MNIST", "FashionMNIST", "CIFAR10", "CIFAR100", "ImageNet", "KMNIST", "EMNIST",
               "SVHN", "STL10", "CelebA")


def __getattr__(name: str):
    """torchvision's data sets download their files; say what to use here instead."""
    if name in _DOWNLOADED:
        raise AttributeError(
            f"autograd_course.datasets has no {name}: torchvision.datasets.{name} downloads "
            "its files, which the course does not do. Use load_digits() (8x8 digit images "
            "that ship with the package) with utils.data.TensorDataset and DataLoader.")
    raise AttributeError(f"module 'autograd_course.datasets' has no attribute '{name}'")
