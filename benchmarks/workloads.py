"""The benchmark workloads, each written once per library.

Every ``*_numpy`` / ``*_ours`` / ``*_torch`` / ``*_dezero`` / ``*_micrograd`` function does its
set-up (models, weights, inputs) and returns a zero-argument callable that runs the workload
once, so only the work itself is timed.

"NumPy by hand" is the baseline every ratio is taken against: the same forward and backward
maths, written the way one would write it without autograd (idiomatic NumPy, same dtype, same
memory layout, no tricks in either direction). ``run.py`` checks once that its gradients are the
ones our autograd computes, so the baseline does the same work.
"""

from __future__ import annotations

import numpy as np

import autograd_course as ag

LR = 0.01

# --- MLP 784-256-10, batch 128, float32: one SGD step -------------------------------------------


class MLPData:
    """Inputs, labels and initial weights shared by every library (PyTorch's layout: W is
    (out, in))."""

    def __init__(self, seed: int = 0, batch: int = 128) -> None:
        rng = np.random.default_rng(seed)
        self.x = rng.standard_normal((batch, 784)).astype(np.float32)
        self.labels = rng.integers(0, 10, batch).astype(np.int64)
        self.params = [
            (rng.standard_normal((256, 784)) * 0.05).astype(np.float32),
            np.zeros(256, np.float32),
            (rng.standard_normal((10, 256)) * 0.05).astype(np.float32),
            np.zeros(10, np.float32),
        ]


def mlp_numpy_grads(x, labels, w1, b1, w2, b2):
    """Loss and (dw1, db1, dw2, db2) of linear-relu-linear-cross-entropy, by hand."""
    n = x.shape[0]
    rows = np.arange(n)
    h = x @ w1.T + b1
    r = np.maximum(h, 0)
    logits = r @ w2.T + b2
    shifted = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(shifted)
    s = e.sum(axis=1, keepdims=True)
    loss = (np.log(s[:, 0]) - shifted[rows, labels]).mean()
    dlogits = e / s  # softmax ...
    dlogits[rows, labels] -= 1  # ... minus the one-hot labels ...
    dlogits /= n  # ... over the batch size (the loss is a mean)
    dw2 = dlogits.T @ r
    db2 = dlogits.sum(axis=0)
    dh = (dlogits @ w2) * (h > 0)
    dw1 = dh.T @ x
    db1 = dh.sum(axis=0)
    return loss, (dw1, db1, dw2, db2)


def mlp_numpy(data: MLPData):
    params = [p.copy() for p in data.params]  # trained in place, like the others' parameters

    def step():
        loss, grads = mlp_numpy_grads(data.x, data.labels, *params)
        for p, g in zip(params, grads):
            p -= LR * g
        return loss

    return step


def mlp_ours_model(data: MLPData):
    model = ag.nn.Sequential(ag.nn.Linear(784, 256), ag.nn.ReLU(), ag.nn.Linear(256, 10))
    with ag.no_grad():
        for p, v in zip(model.parameters(), data.params):
            p.copy_(ag.from_numpy(v))
    return model


def mlp_ours(data: MLPData, device: str = "cpu"):
    """The course's code: ``nn.Sequential``, ``F.cross_entropy``, ``backward``, ``optim.SGD``,
    with the model and the batch on ``device``. The step returns the loss as a tensor (no
    ``.item()``, which would wait for a GPU inside the step)."""
    model = mlp_ours_model(data).to(device)
    opt = ag.optim.SGD(model.parameters(), lr=LR)
    x, labels = ag.from_numpy(data.x).to(device), ag.from_numpy(data.labels).to(device)
    cross_entropy = ag.nn.functional.cross_entropy

    def step():
        opt.zero_grad()
        loss = cross_entropy(model(x), labels)
        loss.backward()
        opt.step()
        return loss

    return step


def mlp_torch(torch, data: MLPData):
    nn = torch.nn
    model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10))
    with torch.no_grad():
        for p, v in zip(model.parameters(), data.params):
            p.copy_(torch.from_numpy(v))
    opt = torch.optim.SGD(model.parameters(), lr=LR)
    x, labels = torch.from_numpy(data.x), torch.from_numpy(data.labels)
    cross_entropy = torch.nn.functional.cross_entropy

    def step():
        opt.zero_grad()
        loss = cross_entropy(model(x), labels)
        loss.backward()
        opt.step()
        return loss

    return step


def mlp_dezero(dz, data: MLPData):
    import dezero.functions as F

    model = dz.models.MLP((256, 10), activation=F.relu)  # DeZero's W is (in, out), float32
    opt = dz.optimizers.SGD(LR).setup(model)

    def step():
        model.cleargrads()
        loss = F.softmax_cross_entropy(model(data.x), data.labels)
        loss.backward()
        opt.update()
        return loss

    return step


def mlp_gradient_error(data: MLPData) -> float:
    """Largest relative difference between the hand-written gradients and ours."""
    model = mlp_ours_model(data)
    loss = ag.nn.functional.cross_entropy(model(ag.from_numpy(data.x)),
                                          ag.from_numpy(data.labels))
    loss.backward()
    hand_loss, hand = mlp_numpy_grads(data.x, data.labels, *data.params)
    worst = abs(loss.item() - hand_loss) / abs(hand_loss)
    for p, g in zip(model.parameters(), hand):
        worst = max(worst, float(np.abs(p.grad.numpy() - g).max() / np.abs(g).max()))
    return worst


# --- chains of element-wise ops: h = tanh(h * 1.01 + 0.1), one op at a time -------------------


def chain_generic(h, n: int, tanh):
    for i in range(n):
        k = i % 3
        if k == 0:
            h = h * 1.01
        elif k == 1:
            h = h + 0.1
        else:
            h = tanh(h)
    return h


def chain_numpy_grad(x0, n: int):
    """Forward keeping what backward needs (tanh's outputs), then the chain rule backwards."""
    h = x0
    saved = []
    for i in range(n):
        k = i % 3
        if k == 0:
            h = h * 1.01
        elif k == 1:
            h = h + 0.1
        else:
            h = np.tanh(h)
            saved.append(h)
    g = np.ones_like(h)  # d(sum)/dh
    for i in reversed(range(n)):
        k = i % 3
        if k == 0:
            g = g * 1.01
        elif k == 2:
            y = saved.pop()
            g = g * (1 - y * y)
    return g


def chain_ours_grad(x0, n: int):
    x = ag.tensor(x0, requires_grad=True)
    chain_generic(x, n, ag.tanh).sum().backward()
    return x.grad


def chain_numpy(x0, n):
    return lambda: chain_numpy_grad(x0, n)


def chain_ours(x0, n):
    return lambda: chain_ours_grad(x0, n)


def chain_torch(torch, x0, n):
    def run():
        x = torch.tensor(x0, requires_grad=True)
        chain_generic(x, n, torch.tanh).sum().backward()
        return x.grad

    return run


def chain_dezero(dz, x0, n):
    import dezero.functions as F

    def run():
        x = dz.Variable(x0)
        F.sum(chain_generic(x, n, F.tanh)).backward()
        return x.grad

    return run


def chain_micrograd(x0, n):
    """micrograd works on one scalar; its PyPI release has no tanh, so relu takes its place."""
    from micrograd.engine import Value

    def run():
        x = Value(float(x0[0]))
        chain_generic(x, n, lambda v: v.relu()).backward()
        return x.grad

    return run


# --- resnet18, 1x3x64x64, forward + backward ----------------------------------------------------


def resnet_input(seed: int = 0):
    return np.random.default_rng(seed).random((1, 3, 64, 64), dtype=np.float32)


def resnet_ours(data):
    ag.manual_seed(0)
    model = ag.models.resnet18()
    x = ag.from_numpy(data)

    def run():
        model.zero_grad()
        model(x).sum().backward()

    return run


def resnet_torch(torch, data):
    """torchvision's resnet18, spelled out (torchvision is not a dependency)."""
    from torch import nn

    class BasicBlock(nn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
            self.bn1 = nn.BatchNorm2d(cout)
            self.relu = nn.ReLU(inplace=True)
            self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
            self.bn2 = nn.BatchNorm2d(cout)
            self.downsample = None
            if stride != 1 or cin != cout:
                self.downsample = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False),
                                                nn.BatchNorm2d(cout))

        def forward(self, x):
            out = self.relu(self.bn1(self.conv1(x)))
            out = self.bn2(self.conv2(out))
            out += x if self.downsample is None else self.downsample(x)
            return self.relu(out)

    layers = [nn.Conv2d(3, 64, 7, 2, 3, bias=False), nn.BatchNorm2d(64), nn.ReLU(inplace=True),
              nn.MaxPool2d(3, 2, 1)]
    cin = 64
    for cout, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
        layers += [BasicBlock(cin, cout, stride), BasicBlock(cout, cout, 1)]
        cin = cout
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(512, 1000)]
    model = nn.Sequential(*layers)
    x = torch.from_numpy(data)

    def run():
        model.zero_grad()
        model(x).sum().backward()

    return run


# --- a tiny GPT (the learner script's model): one AdamW step ---------------------------------
GPT = dict(vocab=27, block=16, batch=16, n_embd=32, n_head=4, n_layer=2)


def gpt_step(lib):
    """One training step of a tiny GPT (token and position embeddings, causal attention heads
    with tril/masked_fill/softmax, LayerNorm, MLP blocks, AdamW), written once against the
    library ``lib`` (``torch`` or ``autograd_course``): the same code runs on both."""
    nn, F = lib.nn, lib.nn.functional
    c = GPT
    head_size = c["n_embd"] // c["n_head"]

    class Head(nn.Module):
        def __init__(self):
            super().__init__()
            self.key = nn.Linear(c["n_embd"], head_size, bias=False)
            self.query = nn.Linear(c["n_embd"], head_size, bias=False)
            self.value = nn.Linear(c["n_embd"], head_size, bias=False)
            self.register_buffer("tril", lib.tril(lib.ones(c["block"], c["block"])))

        def forward(self, x):
            T = x.shape[1]
            k, q = self.key(x), self.query(x)
            wei = q @ k.transpose(-2, -1) * head_size ** -0.5
            wei = wei.masked_fill(self.tril[:T, :T] == 0, float("-inf"))
            return F.softmax(wei, dim=-1) @ self.value(x)

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.heads = nn.ModuleList([Head() for _ in range(c["n_head"])])
            self.proj = nn.Linear(c["n_embd"], c["n_embd"])
            self.ffwd = nn.Sequential(nn.Linear(c["n_embd"], 4 * c["n_embd"]), nn.ReLU(),
                                      nn.Linear(4 * c["n_embd"], c["n_embd"]))
            self.ln1, self.ln2 = nn.LayerNorm(c["n_embd"]), nn.LayerNorm(c["n_embd"])

        def forward(self, x):
            h = self.ln1(x)
            x = x + self.proj(lib.cat([head(h) for head in self.heads], dim=-1))
            return x + self.ffwd(self.ln2(x))

    class GPTModel(nn.Module):
        def __init__(self):
            super().__init__()
            self.tok = nn.Embedding(c["vocab"], c["n_embd"])
            self.pos = nn.Embedding(c["block"], c["n_embd"])
            self.blocks = nn.Sequential(*[Block() for _ in range(c["n_layer"])])
            self.ln_f = nn.LayerNorm(c["n_embd"])
            self.lm_head = nn.Linear(c["n_embd"], c["vocab"])

        def forward(self, idx, targets):
            B, T = idx.shape
            x = self.tok(idx) + self.pos(lib.arange(T))
            logits = self.lm_head(self.ln_f(self.blocks(x)))
            return F.cross_entropy(logits.view(B * T, -1), targets.view(B * T))

    lib.manual_seed(0)
    model = GPTModel()
    optimizer = lib.optim.AdamW(model.parameters(), lr=1e-3)
    rng = np.random.default_rng(0)
    tokens = rng.integers(0, c["vocab"], (c["batch"], c["block"] + 1))
    x, y = lib.tensor(tokens[:, :-1]), lib.tensor(tokens[:, 1:])

    def run():
        loss = model(x, y)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        return loss

    return run
