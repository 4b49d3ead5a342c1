# The pieces a learner meets next, after the lecture GPT: the words of tiny_text.txt as a
# Dataset of padded sequences (targets past the word's end are -1, skipped by cross_entropy's
# ignore_index), an endless loader made of RandomSampler(replacement=True, num_samples=...),
# a transformer block with one fused q/k/v projection and dropout on the attention weights and
# on the residual branch, AdamW with two parameter groups (weight decay on matrices only),
# gradient clipping, a histogram of the hidden activations, then sampling in eval mode with a
# top-k cut and multinomial draws.
import math
from pathlib import Path

import torch
import torch.nn as nn
from torch.nn import functional as F
from torch.utils.data import Dataset
from torch.utils.data.dataloader import DataLoader

torch.manual_seed(44)
words = sorted(set((Path(__file__).parent / "tiny_text.txt").read_text().split()))
letters = sorted(set("".join(words)))
to_id = {c: i + 1 for i, c in enumerate(letters)}  # 0 marks the start and the end of a word
longest = max(len(w) for w in words)
print("words:", len(words), "letters:", len(letters), "longest:", longest)


class Words(Dataset):
    def __init__(self, items):
        self.items = items

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        ids = torch.tensor([to_id[c] for c in self.items[i]], dtype=torch.long)
        x = torch.zeros(longest + 1, dtype=torch.long)
        y = torch.zeros(longest + 1, dtype=torch.long)
        x[1:1 + len(ids)] = ids
        y[:len(ids)] = ids
        y[len(ids) + 1:] = -1
        return x, y


order = torch.randperm(len(words)).tolist()
train, test = Words([words[i] for i in order[8:]]), Words([words[i] for i in order[:8]])
x0, y0 = train[0]
print("first:", train.items[0], x0.tolist(), y0.tolist())

sampler = torch.utils.data.RandomSampler(train, replacement=True, num_samples=10_000)
print("sampler:", len(sampler), list(torch.utils.data.RandomSampler(
    range(5), replacement=True, num_samples=12, generator=torch.Generator().manual_seed(2))))
batches = iter(DataLoader(train, batch_size=12, sampler=sampler))


class Attention(nn.Module):
    def __init__(self, width, heads, p):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(width, 3 * width)
        self.out = nn.Linear(width, width)
        self.attn_dropout, self.resid_dropout = nn.Dropout(p), nn.Dropout(p)
        causal = torch.tril(torch.ones(longest + 1, longest + 1))
        self.register_buffer("causal", causal.view(1, 1, longest + 1, longest + 1))

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.qkv(x).split(C, dim=2)
        q, k, v = (t.view(B, T, self.heads, C // self.heads).transpose(1, 2) for t in (q, k, v))
        scores = q @ k.transpose(-2, -1) * (1.0 / math.sqrt(k.size(-1)))
        scores = scores.masked_fill(self.causal[:, :, :T, :T] == 0, float("-inf"))
        weights = self.attn_dropout(F.softmax(scores, dim=-1))
        y = (weights @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.resid_dropout(self.out(y))


class Model(nn.Module):
    def __init__(self, vocab, width=24, heads=2, p=0.1):
        super().__init__()
        self.tokens = nn.Embedding(vocab, width)
        self.places = nn.Embedding(longest + 1, width)
        self.norm1, self.norm2 = nn.LayerNorm(width), nn.LayerNorm(width)
        self.attn = Attention(width, heads, p)
        self.mlp = nn.Sequential(nn.Linear(width, 4 * width), nn.GELU(),
                                 nn.Linear(4 * width, width))
        self.head = nn.Linear(width, vocab, bias=False)
        self.p = p

    def forward(self, idx, targets=None):
        T = idx.size(1)
        x = self.tokens(idx) + self.places(torch.arange(T, dtype=torch.long).unsqueeze(0))
        x = F.dropout(x, self.p, self.training)
        x = x + self.attn(self.norm1(x))
        self.hidden = self.mlp[0](self.norm2(x))
        x = x + self.mlp[2](self.mlp[1](self.hidden))
        logits = self.head(x)
        if targets is None:
            return logits, None
        return logits, F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1),
                                       ignore_index=-1)


model = Model(len(letters) + 1)
matrices = [p for n, p in model.named_parameters() if p.dim() >= 2]
vectors = [p for n, p in model.named_parameters() if p.dim() < 2]
print("groups:", len(matrices), sum(p.numel() for p in matrices), len(vectors),
      sum(p.numel() for p in vectors))
optimizer = torch.optim.AdamW([{"params": matrices, "weight_decay": 0.1},
                               {"params": vectors, "weight_decay": 0.0}],
                              lr=5e-3, betas=(0.9, 0.95))
for step in range(40):
    x, y = next(batches)
    logits, loss = model(x, y)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    if step % 8 == 0:
        print(f"train: step {step} loss {loss.item():.5f} norm {norm.item():.5f}")

counts, edges = torch.histogram(model.hidden.detach().view(-1), bins=6, range=(-3.0, 3.0))
print("histogram:", counts.tolist(), [round(e, 3) for e in edges.tolist()])
print("histc:", torch.histc(model.hidden.detach().view(-1), bins=5).tolist())

model.eval()
with torch.no_grad():
    x, y = next(iter(DataLoader(test, batch_size=len(test))))
    print("test loss:", f"{model(x, y)[1].item():.4f}", "training:", model.training,
          model.attn.attn_dropout.training)


@torch.no_grad()
def sample(count, top_k):
    idx = torch.zeros(count, 1, dtype=torch.long)
    for _ in range(longest):
        logits = model(idx)[0][:, -1, :]
        kth, _ = torch.topk(logits, top_k)
        logits[logits < kth[:, [-1]]] = -float("Inf")
        idx = torch.cat((idx, torch.multinomial(F.softmax(logits, dim=-1), num_samples=1)), 1)
    out = []
    for row in idx[:, 1:].tolist():
        row = row[:row.index(0)] if 0 in row else row
        out.append("".join(letters[i - 1] for i in row))
    return out


print("sample:", " ".join(sample(6, top_k=4)))

starts = torch.randint(len(letters) + 1, size=(5,))
print("randint:", starts.tolist(), torch.randint(2, 9, (3,)).tolist(),
      torch.randint(high=4, size=(2, 2)).tolist())

# one embedding row written into a table from a (1, width) tensor that needs its gradient
table = torch.zeros(3, 24)
row = model.tokens(torch.tensor([[5]]))[0]
table[0] = row * 2
table[1:2] = torch.ones(1, 1, 24)
(table ** 2).sum().backward()
print("setitem:", table.grad_fn, row.shape, f"{model.tokens.weight.grad[5].sum().item():.5f}")
