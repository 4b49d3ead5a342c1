"""Idioms of the classic "building neural networks from scratch" lectures, one line each,
against PyTorch: NumPy spellings PyTorch accepts (``keepdims=True``), ``log10`` of a loss
curve, counting bigrams with ``N[ix1, ix2] += 1``, sampling with a seeded ``Generator``,
``kaiming_normal_`` with tanh's gain, picking each row's target with a ``range``."""

from __future__ import annotations

import math

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


# --- the GPT lecture's (and nanoGPT's) idioms -----------------------------------------------
def _clip(m):
    m.manual_seed(0)
    lin = m.nn.Linear(3, 2)
    lin(m.ones(4, 3)).pow(2).sum().backward()
    total = m.nn.utils.clip_grad_norm_(lin.parameters(), 0.1)
    return [total, lin.weight.grad, lin.bias.grad]


def _apply_init(m):
    m.manual_seed(0)
    net = m.nn.Sequential(m.nn.Linear(3, 2), m.nn.ReLU(), m.nn.Linear(2, 2))

    def init(module):
        if isinstance(module, m.nn.Linear):
            m.nn.init.normal_(module.weight, mean=0.0, std=0.02)
            m.nn.init.zeros_(module.bias)

    net.apply(init)
    return list(net.parameters())


def _param_groups(m):
    m.manual_seed(0)
    net = m.nn.Linear(3, 2)
    decay = [p for p in net.parameters() if p.dim() >= 2]
    no_decay = [p for p in net.parameters() if p.dim() < 2]
    opt = m.optim.AdamW([{"params": decay, "weight_decay": 0.1},
                         {"params": no_decay, "weight_decay": 0.0}], lr=1e-2, betas=(0.9, 0.95))
    net(m.ones(2, 3)).sum().backward()
    opt.step()
    return list(net.parameters())


def _top_k_filter(m):
    logits = m.tensor([[1.0, 3.0, 2.0, 0.5]])
    v, _ = m.topk(logits, 2)
    logits[logits < v[:, [-1]]] = -float("Inf")
    return m.nn.functional.softmax(logits, dim=-1)


def _causal_attention(m):
    B, T, C, nh = 2, 3, 4, 2
    m.manual_seed(0)
    x = m.randn(B, T, C, requires_grad=True)
    bias = m.tril(m.ones(T, T)).view(1, 1, T, T)
    q = x.view(B, T, nh, C // nh).transpose(1, 2)
    att = (q @ q.transpose(-2, -1)) * (1.0 / math.sqrt(q.size(-1)))
    att = att.masked_fill(bias[:, :, :T, :T] == 0, float("-inf"))
    y = (m.nn.functional.softmax(att, dim=-1) @ q).transpose(1, 2).contiguous().view(B, T, C)
    targets = m.tensor([0, 1, 2, 3, -1, 1])
    loss = m.nn.functional.cross_entropy(y.view(-1, y.size(-1)), targets, ignore_index=-1)
    loss.backward()
    return [y, loss, x.grad]


def _cosine_schedule(m):
    opt = m.optim.SGD([m.nn.Parameter(m.ones(1))], lr=0.1)
    schedule = m.optim.lr_scheduler.CosineAnnealingLR(opt, 4, eta_min=0.01)
    rates = []
    for _ in range(10):
        opt.step()
        schedule.step()
        rates.append(opt.param_groups[0]["lr"])
    return rates + schedule.get_last_lr()


GPT_IDIOMS = {"clip_grad_norm": _clip, "apply_init": _apply_init,
              "param_groups": _param_groups, "top_k_filter": _top_k_filter,
              "causal_attention": _causal_attention, "cosine_schedule": _cosine_schedule}


@pytest.mark.parametrize("name", sorted(GPT_IDIOMS))
def test_gpt_idiom_like_pytorch(name):
    assert_like_torch(GPT_IDIOMS[name], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("kwargs", [
    dict(label_smoothing=0.1),
    dict(label_smoothing=0.2, reduction="sum"),
    dict(label_smoothing=0.3, reduction="none"),
    dict(label_smoothing=0.1, ignore_index=2),
    dict(label_smoothing=0.1, weight=[0.5, 2.0, 1.0, 1.5]),
    dict(label_smoothing=0.25, weight=[0.5, 2.0, 1.0, 1.5], ignore_index=0, reduction="none"),
    dict(label_smoothing=0.1, probabilities=True),
    dict(label_smoothing=1.5),
])
def test_cross_entropy_label_smoothing_like_pytorch(kwargs):
    """Label smoothing as transformer training uses it: (1 - ε) · nll + ε · the mean of
    -log p over the classes, for class indices and for class probabilities."""
    def case(m, kwargs=kwargs):
        kwargs = dict(kwargs)
        logits = m.tensor([[1.0, 2.0, 0.5, -1.0], [0.1, -1.0, 2.0, 0.3],
                           [0.0, 0.5, 0.5, 1.0]], dtype=m.float64, requires_grad=True)
        target = m.tensor([2, 0, 3])
        if kwargs.pop("probabilities", False):
            target = m.tensor([[0.1, 0.2, 0.3, 0.4], [1.0, 0, 0, 0], [0.25] * 4],
                              dtype=m.float64)
        if "weight" in kwargs:
            kwargs["weight"] = m.tensor(kwargs["weight"], dtype=m.float64)
        loss = m.nn.functional.cross_entropy(logits, target, **kwargs)
        loss.sum().backward()
        return [loss, logits.grad]

    assert_like_torch(case, rtol=1e-10, atol=1e-12)
