"""Layers of a small language model: ``Embedding`` (a learnt lookup table), ``LayerNorm``
and ``GroupNorm`` (normalise each sample), ``Softplus``, ``Unflatten``, and the containers
``ModuleDict`` and ``ParameterList``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .. import creation
from ..autograd.grad_mode import no_grad
from . import functional as F
from . import init
from .module import Module
from .parameter import Parameter


class Embedding(Module):
    """A table of ``num_embeddings`` vectors of size ``embedding_dim``, initialised N(0, 1);
    ``emb(idx)`` looks up a row per index."""

    def __init__(self, num_embeddings: int, embedding_dim: int, padding_idx: int | None = None,
                 max_norm: float | None = None, norm_type: float = 2.0,
                 scale_grad_by_freq: bool = False, sparse: bool = False, _weight=None,
                 _freeze: bool = False, device=None, dtype=None) -> None:
        super().__init__()
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        if padding_idx is not None and padding_idx < 0:
            padding_idx += num_embeddings
        self.padding_idx = padding_idx
        self.max_norm, self.norm_type = max_norm, norm_type
        self.scale_grad_by_freq, self.sparse = scale_grad_by_freq, sparse
        if _weight is None:
            self.weight = Parameter(creation.empty(num_embeddings, embedding_dim, device=device,
                                                   dtype=dtype), requires_grad=not _freeze)
            self.reset_parameters()
        else:
            self.weight = Parameter(_weight, requires_grad=not _freeze)

    def reset_parameters(self) -> None:
        init.normal_(self.weight)
        if self.padding_idx is not None:
            with no_grad():
                self.weight[self.padding_idx].fill_(0)

    def forward(self, input):
        return F.embedding(input, self.weight, self.padding_idx, self.max_norm,
                           self.norm_type, self.scale_grad_by_freq, self.sparse)

    def extra_repr(self) -> str:
        s = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.padding_idx is not None:
            s += f", padding_idx={self.padding_idx}"
        return s


def _affine_parameters(module, shape, affine: bool, bias: bool, device, dtype) -> None:
    """A normalisation layer's learnable scale (ones) and shift (zeros) of ``shape``, or
    ``None`` for each that is switched off, registered as PyTorch's layers register them."""
    scale = creation.ones(*shape, device=device, dtype=dtype) if affine else None
    shift = creation.zeros(*shape, device=device, dtype=dtype) if affine and bias else None
    module.register_parameter("weight", None if scale is None else Parameter(scale))
    module.register_parameter("bias", None if shift is None else Parameter(shift))


class LayerNorm(Module):
    """Normalise over the last dims (``normalized_shape``), then scale and shift per
    feature."""

    def __init__(self, normalized_shape, eps: float = 1e-5, elementwise_affine: bool = True,
                 bias: bool = True, device=None, dtype=None) -> None:
        super().__init__()
        shape = (normalized_shape,) if isinstance(normalized_shape, int) else normalized_shape
        self.normalized_shape, self.eps = tuple(shape), eps
        self.elementwise_affine, self._bias = elementwise_affine, bias
        _affine_parameters(self, shape, elementwise_affine, bias, device, dtype)

    def forward(self, input):
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}, "
                f"bias={self.elementwise_affine and self._bias}")


class GroupNorm(Module):
    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-5,
                 affine: bool = True, device=None, dtype=None, *, bias: bool = True) -> None:
        super().__init__()
        if num_channels % num_groups:
            raise ValueError("num_channels must be divisible by num_groups")
        self.num_groups, self.num_channels, self.eps, self.affine = (
            num_groups, num_channels, eps, affine)
        _affine_parameters(self, (num_channels,), affine, bias, device, dtype)

    def forward(self, input):
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}, "
                f"bias={self.bias is not None}")


class Softplus(Module):
    def __init__(self, beta: float = 1.0, threshold: float = 20.0) -> None:
        super().__init__()
        self.beta, self.threshold = beta, threshold

    def forward(self, input):
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self) -> str:
        return f"beta={self.beta}, threshold={self.threshold}"


class Unflatten(Module):
    def __init__(self, dim: int, unflattened_size) -> None:
        super().__init__()
        self.dim, self.unflattened_size = dim, tuple(unflattened_size)

    def forward(self, input):
        return input.unflatten(self.dim, self.unflattened_size)

    def extra_repr(self) -> str:
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"


class ModuleDict(Module):
    """Modules by name, registered as submodules (their parameters are the model's)."""

    def __init__(self, modules: Mapping[str, Module] | None = None) -> None:
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key: str) -> Module:
        return self._modules[key]

    def __setitem__(self, key: str, module: Module) -> None:
        setattr(self, key, module)

    def __delitem__(self, key: str) -> None:
        del self._modules[key]

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules)

    def __contains__(self, key: str) -> bool:
        return key in self._modules

    def keys(self):
        return self._modules.keys()

    def items(self):
        return self._modules.items()

    def values(self):
        return self._modules.values()

    def update(self, modules) -> None:
        pairs = modules.items() if isinstance(modules, Mapping) else modules
        for key, module in pairs:
            self[key] = module


class ParameterList(Module):
    """Parameters in a list, registered as ``"0"``, ``"1"``..."""

    def __init__(self, values: Iterable | None = None) -> None:
        super().__init__()
        self._size = 0
        for v in values or ():
            self.append(v)

    def append(self, value) -> ParameterList:
        if not isinstance(value, Parameter):
            value = Parameter(value)
        self.register_parameter(str(self._size), value)
        self._size += 1
        return self

    def __getitem__(self, idx: int):
        return self._parameters[str(idx % self._size if idx < 0 else idx)]

    def __len__(self) -> int:
        return self._size

    def __iter__(self):
        return iter(self._parameters[str(i)] for i in range(self._size))
