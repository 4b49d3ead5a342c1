"""Activation functions, one module per family:

* ``rectifiers``: ``relu``, ``leaky_relu``, ``prelu``, ``elu``, ``threshold``
* ``sigmoids``: ``sigmoid``, ``tanh``, ``hardtanh``, ``glu``
* ``smooth_relus``: ``gelu``, ``silu``, ``softplus``, ``logsigmoid``, ``mish``, ``hardswish``
* ``softmax``: ``softmax``, ``log_softmax``
"""

from .rectifiers import elu, leaky_relu, prelu, relu, threshold
from .sigmoids import glu, hardtanh, sigmoid, tanh
from .smooth_relus import gelu, hardswish, logsigmoid, mish, silu, softplus
from .softmax import log_softmax, softmax
