"""``ag.nn``: layers, losses and the ``Module`` machinery, shaped like ``torch.nn``.

    model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10))
    loss = nn.CrossEntropyLoss()(model(x), y)
"""

from . import functional, init, utils
from .activation import ELU, GELU, LeakyReLU, LogSoftmax, ReLU, Sigmoid, SiLU, Softmax, Tanh
from .containers import Identity, ModuleList, Sequential
from .conv import Conv2d
from .dropout import Dropout
from .embedding_norm import (
    Embedding,
    GroupNorm,
    LayerNorm,
    ModuleDict,
    ParameterList,
    Softplus,
    Unflatten,
)
from .linear import Flatten, Linear
from .loss import (
    BCELoss,
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    HuberLoss,
    KLDivLoss,
    L1Loss,
    MSELoss,
    NLLLoss,
    SmoothL1Loss,
)
from .module import Module
from .more_layers import (
    Conv1d,
    ConvTranspose2d,
    Fold,
    MultiheadAttention,
    PReLU,
    Unfold,
    Upsample,
)
from .normalization import BatchNorm1d, BatchNorm2d, InstanceNorm2d
from .parameter import Parameter
from .pooling import AdaptiveAvgPool2d, AvgPool2d, MaxPool2d
from .rnn import LSTM, LSTMCell

__all__ = [
    "AdaptiveAvgPool2d", "AvgPool2d", "BCELoss", "BCEWithLogitsLoss", "BatchNorm1d",
    "BatchNorm2d", "Conv2d", "CrossEntropyLoss", "Dropout", "ELU", "Flatten", "GELU",
    "HuberLoss", "Identity", "KLDivLoss", "L1Loss", "LeakyReLU", "Linear", "LogSoftmax",
    "MSELoss", "MaxPool2d", "Module", "ModuleList", "NLLLoss", "Parameter", "ReLU",
    "Sequential", "SiLU", "Sigmoid", "SmoothL1Loss", "Softmax", "Tanh", "functional", "init",
    "utils",    "Embedding", "GroupNorm", "LayerNorm", "ModuleDict", "ParameterList", "Softplus",
    "Unflatten", "Conv1d", "ConvTranspose2d", "Fold", "MultiheadAttention", "PReLU", "Unfold",
    "Upsample", "LSTM", "LSTMCell",
]
