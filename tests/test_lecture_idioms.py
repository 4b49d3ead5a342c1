"""Idioms of the classic "building neural networks from scratch" lectures, one line each,
against PyTorch: NumPy spellings PyTorch accepts (``keepdims=True``), ``log10`` of a loss
curve, counting bigrams with ``N[ix1, ix2] += 1``, sampling with a seeded ``Generator``,
``kaiming_normal_`` with tanh's gain, picking each row's target with a ``range``."""

from __future__ import annotations

import pytest
from oracle_helpers import assert_like_torch


def _count_bigrams(m):
    N = m.zeros((3, 3), dtype=m.int32)
    for a, b in [(0, 1), (0, 1), (2, 0)]:
        N[a, b] += 1
    P = (N + 1).float()
    P /= P.sum(1, keepdims=True)
    return [N, P]


def _manual_backprop(m):
    logits = m.tensor([[1.0, 2.0, 0.5], [0.1, -1.0, 2.0]], requires_grad=True)
    Yb = m.tensor([2, 0])
    logprobs = logits.log_softmax(1)
    loss = -logprobs[range(2), Yb].mean()
    loss.backward()
    dlogits = m.nn.functional.softmax(logits, 1)
    dlogits[range(2), Yb] -= 1
    dlogits /= 2
    return [loss, logits.grad, (dlogits - logits.grad).abs().max().item() < 1e-6,
            m.allclose(dlogits, logits.grad)]


IDIOMS = {
    "log10": lambda m: m.tensor([1.0, 10.0]).log10(),
    "log10_fn": lambda m: m.log10(m.tensor([1.0, 10.0])),
    "log2": lambda m: m.tensor([1.0, 8.0]).log2(),
    "sum_keepdims": lambda m: m.ones(2, 3).sum(1, keepdims=True),
    "mean_keepdims": lambda m: m.ones(2, 3).mean(1, keepdims=True),
    "pow_neg1": lambda m: m.ones(2, 3).sum(1, keepdim=True) ** -1,
    "max_values": lambda m: m.ones(2, 3).max(1, keepdim=True).values,
    "kaiming_normal": lambda m: (m.manual_seed(0), m.nn.init.kaiming_normal_(
        m.empty(3, 4), mode="fan_in", nonlinearity="tanh"))[1],
    "tolist": lambda m: m.ones(2, 2).view(-1).tolist(),
    "var_unbiased": lambda m: m.arange(6.0).reshape(2, 3).var(0, keepdim=True, unbiased=True),
    "multinomial_generator": lambda m: m.multinomial(
        m.tensor([0.2, 0.8]), num_samples=5, replacement=True,
        generator=m.Generator().manual_seed(2147483647)),
    "randint_generator": lambda m: m.randint(0, 10, (5,),
                                            generator=m.Generator().manual_seed(42)),
    "one_hot_float": lambda m: m.nn.functional.one_hot(m.tensor([0, 2]), num_classes=3).float(),
    "saturated": lambda m: (m.tensor([0.995, -0.2]).abs() > 0.99).float().mean(),
    "count_bigrams": _count_bigrams,
    "manual_backprop": _manual_backprop,
    "loss_curve": lambda m: m.tensor([0.5, 0.25, 1.0, 2.0]).log10().view(-1, 2).mean(1),
}


@pytest.mark.parametrize("name", sorted(IDIOMS))
def test_lecture_idiom_like_pytorch(name):
    assert_like_torch(IDIOMS[name])
