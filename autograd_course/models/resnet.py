"""ResNet-18 and ResNet-34, built exactly like torchvision's (same modules, same names).

Because the attribute names match (``conv1``, ``bn1``, ``layer1.0.conv1``,
``layer2.0.downsample.0``, ``fc``...), a torchvision state dict exported to ``.npz`` loads
with ``load_state_dict`` as is. Nothing is downloaded: ``weights`` is a path you provide.

The idea of a residual block: the block learns a *correction* ``F(x)`` and outputs
``relu(F(x) + x)``. Gradients reach early layers through the ``+ x`` path undiminished,
which is what lets networks this deep train.
"""

from __future__ import annotations

from .. import nn
from ..serialization import load


def conv3x3(in_planes: int, out_planes: int, stride: int = 1) -> nn.Conv2d:
    return nn.Conv2d(in_planes, out_planes, kernel_size=3, stride=stride, padding=1,
                     bias=False)


def conv1x1(in_planes: int, out_planes: int, stride: int = 1) -> nn.Conv2d:
    return nn.Conv2d(in_planes, out_planes, kernel_size=1, stride=stride, bias=False)


class BasicBlock(nn.Module):
    """conv3x3 → BN → ReLU → conv3x3 → BN, plus the shortcut, then ReLU."""

    expansion = 1

    def __init__(self, inplanes: int, planes: int, stride: int = 1, downsample=None) -> None:
        super().__init__()
        self.conv1 = conv3x3(inplanes, planes, stride)
        self.bn1 = nn.BatchNorm2d(planes)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = conv3x3(planes, planes)
        self.bn2 = nn.BatchNorm2d(planes)
        self.downsample = downsample  # 1x1 conv + BN when the shape changes, else None
        self.stride = stride

    def forward(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        if self.downsample is not None:
            identity = self.downsample(x)
        out += identity
        return self.relu(out)


class ResNet(nn.Module):
    """Stem (7x7 conv, max pool), four stages of blocks, global average pool, linear head."""

    def __init__(self, block, layers, num_classes: int = 1000,
                 zero_init_residual: bool = False) -> None:
        super().__init__()
        self.inplanes = 64
        self.conv1 = nn.Conv2d(3, 64, kernel_size=7, stride=2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(64)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)
        self.layer1 = self._make_layer(block, 64, layers[0])
        self.layer2 = self._make_layer(block, 128, layers[1], stride=2)
        self.layer3 = self._make_layer(block, 256, layers[2], stride=2)
        self.layer4 = self._make_layer(block, 512, layers[3], stride=2)
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(512 * block.expansion, num_classes)
        for m in self.modules():  # torchvision's initialisation
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")
            elif isinstance(m, nn.BatchNorm2d):
                nn.init.constant_(m.weight, 1)
                nn.init.constant_(m.bias, 0)
        if zero_init_residual:
            for m in self.modules():
                if isinstance(m, BasicBlock):
                    nn.init.constant_(m.bn2.weight, 0)

    def _make_layer(self, block, planes: int, blocks: int, stride: int = 1) -> nn.Sequential:
        downsample = None
        if stride != 1 or self.inplanes != planes * block.expansion:
            downsample = nn.Sequential(conv1x1(self.inplanes, planes * block.expansion, stride),
                                       nn.BatchNorm2d(planes * block.expansion))
        layers = [block(self.inplanes, planes, stride, downsample)]
        self.inplanes = planes * block.expansion
        layers += [block(self.inplanes, planes) for _ in range(1, blocks)]
        return nn.Sequential(*layers)

    def forward(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        x = self.avgpool(x).flatten(1)
        return self.fc(x)


def _resnet(layers, weights, num_classes: int, **kwargs) -> ResNet:
    model = ResNet(BasicBlock, layers, num_classes=num_classes, **kwargs)
    if weights is not None:
        state = load(weights) if not hasattr(weights, "keys") else weights
        model.load_state_dict(state)
    return model


def resnet18(num_classes: int = 1000, weights=None, **kwargs) -> ResNet:
    """ResNet-18 (11,689,512 parameters with 1000 classes).

    ``weights``: a path to an ``.npz`` state dict (e.g. torchvision's weights exported with
    ``numpy.savez``), or a state dict; ``None`` keeps the random initialisation.
    """
    return _resnet([2, 2, 2, 2], weights, num_classes, **kwargs)


def resnet34(num_classes: int = 1000, weights=None, **kwargs) -> ResNet:
    """ResNet-34: the same blocks, [3, 4, 6, 3] of them per stage."""
    return _resnet([3, 4, 6, 3], weights, num_classes, **kwargs)
