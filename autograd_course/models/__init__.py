"""``ag.models``: ready-made architectures (torchvision's ResNets, without downloads)."""

from .resnet import BasicBlock, ResNet, resnet18, resnet34

__all__ = ["BasicBlock", "ResNet", "resnet18", "resnet34"]
