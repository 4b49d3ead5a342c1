"""The layers added for the models learners build next (issue 31), against PyTorch: seeded
the same way, each gives PyTorch's parameters (names, shapes, initial values), output,
gradients and repr."""

from __future__ import annotations

import numpy as np
import pytest
from oracle_helpers import assert_like_torch

X = np.random.default_rng(5).standard_normal((2, 4, 6)).astype(np.float32)
IDX = np.array([[1, 0, 4], [3, 3, 2]])


def _run(m, layer, *inputs):
    out = layer(*inputs)
    first = out[0] if isinstance(out, tuple) else out
    (first * first).sum().backward()
    params = [(name, p, p.grad) for name, p in layer.named_parameters()]
    return [repr(layer), list(out) if isinstance(out, tuple) else out, params]


def _x(m):
    return m.tensor(X, requires_grad=True)


LAYERS = {
    "Embedding": lambda m: _run(m, m.nn.Embedding(5, 3), m.tensor(IDX)),
    "Embedding_padding": lambda m: _run(m, m.nn.Embedding(5, 3, padding_idx=3), m.tensor(IDX)),
    "LayerNorm": lambda m: _run(m, m.nn.LayerNorm(6), _x(m)),
    "LayerNorm_2d": lambda m: _run(m, m.nn.LayerNorm([4, 6], elementwise_affine=False), _x(m)),
    "LayerNorm_no_bias": lambda m: _run(m, m.nn.LayerNorm(6, bias=False), _x(m)),
    "GroupNorm": lambda m: _run(m, m.nn.GroupNorm(2, 4), _x(m)),
    "Softplus": lambda m: _run(m, m.nn.Softplus(beta=2.0), _x(m)),
    "Unflatten": lambda m: _run(m, m.nn.Unflatten(2, (2, 3)), _x(m)),
    "PReLU": lambda m: _run(m, m.nn.PReLU(4), _x(m)),
    "Conv1d": lambda m: _run(m, m.nn.Conv1d(4, 3, 3, padding=1), _x(m)),
    "ConvTranspose2d": lambda m: _run(m, m.nn.ConvTranspose2d(4, 2, 3, stride=2),
                                      _x(m).reshape(1, 4, 2, 6)),
    "Upsample": lambda m: _run(m, m.nn.Upsample(scale_factor=2, mode="bilinear"),
                               _x(m).reshape(1, 4, 2, 6)),
    "Unfold": lambda m: _run(m, m.nn.Unfold(2), _x(m).reshape(1, 4, 2, 6)),
    "Fold": lambda m: _run(m, m.nn.Fold((3, 4), 2), _x(m).reshape(1, 8, 6)),
    "MultiheadAttention": lambda m: _run(m, m.nn.MultiheadAttention(6, 2), _x(m), _x(m), _x(m)),
    "MultiheadAttention_batch_first_causal": lambda m: _run(
        m, m.nn.MultiheadAttention(6, 3, batch_first=True), _x(m), _x(m), _x(m), None, True,
        m.triu(m.ones(4, 4, dtype=m.bool), diagonal=1)),
    "MultiheadAttention_unbatched": lambda m: _run(
        m, m.nn.MultiheadAttention(6, 2, bias=False), _x(m)[0], _x(m)[1], _x(m)[1]),
}


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_layer_like_pytorch(name):
    def case(m):
        m.manual_seed(0)
        return LAYERS[name](m)

    assert_like_torch(case, rtol=1e-5, atol=1e-6)


def _containers(m):
    nn = m.nn
    blocks = nn.ModuleDict({"proj": nn.Linear(2, 3), "act": nn.Tanh()})
    blocks["out"] = nn.Linear(3, 1)
    params = nn.ParameterList([nn.Parameter(m.ones(2)), m.zeros(3)])
    params.append(nn.Parameter(m.full((1,), 2.0)))
    return [list(blocks.keys()), "act" in blocks, len(blocks), repr(blocks),
            [n for n, _ in blocks.named_parameters()], len(params),
            [n for n, _ in params.named_parameters()], [p.shape for p in params],
            params[-1], isinstance(params[1], nn.Parameter)]


def test_module_dict_and_parameter_list_like_pytorch():
    assert_like_torch(_containers)


@pytest.mark.parametrize("name", ["Embedding", "LayerNorm", "GroupNorm", "Softplus", "Unflatten",
                                  "PReLU", "Conv1d", "ConvTranspose2d", "Upsample", "Unfold",
                                  "Fold", "MultiheadAttention", "ModuleDict", "ParameterList"])
def test_constructor_parameters_are_pytorchs(name):
    import inspect

    import torch

    import autograd_course as ag

    def params(cls):
        return [(p.name, p.kind) for p in inspect.signature(cls.__init__).parameters.values()]

    assert params(getattr(ag.nn, name)) == params(getattr(torch.nn, name))
