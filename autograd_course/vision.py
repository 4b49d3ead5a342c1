"""A stand-in for ``torchvision`` that says what the course offers instead.

torchvision's data sets download, its transforms work on PIL images, and its pretrained
weights download too: all outside this course. Mapped in place of ``torchvision`` (as the
learner-script runner does), ``from torchvision import datasets`` works, and using a name
raises an error naming the missing piece and the course's replacement; ``models.resnet18``
is our own ResNet (random initialisation, or weights from a local file).
"""

from __future__ import annotations

import types

from . import models as _models

_DATASETS_HINT = (
    "autograd_course downloads no data sets. Use the digits that ship with the package: "
    "images, labels = autograd_course.datasets.load_digits() (1,797 8x8 images as float32 "
    "in [0, 1], int64 labels), then autograd_course.utils.data.TensorDataset(images, labels) "
    "and DataLoader."
)
_TRANSFORMS_HINT = (
    "autograd_course has no image transforms (they work on PIL images). "
    "autograd_course.datasets.load_digits() already gives float tensors in [0, 1], so "
    "ToTensor() is not needed; write other steps as tensor operations (e.g. (x - mean) / std)."
)
_WEIGHTS_HINT = (
    "pretrained weights are a download, which autograd_course does not do. Call "
    "resnet18(weights=None) for a random initialisation, or pass weights= a local .npz file "
    "or a state dict you saved yourself."
)


class _Refusing(types.ModuleType):
    """A module whose every public name raises an error with ``hint``."""

    def __init__(self, name: str, hint: str) -> None:
        super().__init__(name)
        self._hint = hint

    def __getattr__(self, attr: str):
        if attr.startswith("__"):
            raise AttributeError(attr)
        raise NotImplementedError(f"torchvision.{self.__name__.split('.')[-1]}.{attr}: "
                                  f"{self._hint}")


class _Weights:
    """``ResNet18_Weights``: any choice of pretrained weights explains why there are none."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str):
        if attr.startswith("__"):
            raise AttributeError(attr)
        raise NotImplementedError(f"torchvision.models.{self._name}.{attr}: {_WEIGHTS_HINT}")


datasets = _Refusing("torchvision.datasets", _DATASETS_HINT)
transforms = _Refusing("torchvision.transforms", _TRANSFORMS_HINT)
models = _Refusing(
    "torchvision.models",
    "autograd_course.models has resnet18 and resnet34 (random initialisation, no downloads); "
    "build other architectures from autograd_course.nn layers.")
models.resnet18 = _models.resnet18
models.resnet34 = _models.resnet34
models.ResNet = _models.ResNet
models.ResNet18_Weights = _Weights("ResNet18_Weights")
models.ResNet34_Weights = _Weights("ResNet34_Weights")
