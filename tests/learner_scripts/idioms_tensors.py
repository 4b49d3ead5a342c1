# Everyday tensor idioms a learner writes, printed so two runs can be compared.
import numpy as np
import torch

torch.manual_seed(0)
x = torch.randn(3, 4)
loss = (x ** 2).mean()
print(f"loss {loss:.4f} | plain {loss} | wide {loss:>12.6f} | sci {loss:.3e}")
print(f"count {torch.tensor(7)} flag {torch.tensor(True)} | {x[0]}")
print("as str:", str(x.sum()), "format:", format(x.sum(), ".2f"))

# // and %
a = torch.tensor([7.5, -7.5, 3.0, -1.25])
b = torch.tensor([2.0, 2.0, -2.0, 0.5])
print(a // b, a % b, a // 2, a % 2)
i = torch.tensor([7, -7, 9, -1])
print(i // 2, i % 3, i // torch.tensor([2, 2, -4, 3]), i % -4, 17 // torch.tensor([3, 5]))
print(torch.div(a, b, rounding_mode="floor"), torch.div(a, b, rounding_mode="trunc"))
print(torch.div(i, 2, rounding_mode="trunc"), torch.div(i, 2), i / 2, torch.remainder(a, 1.5))
steps = torch.arange(10)
print("even steps:", steps[steps % 2 == 0], "rows:", steps // 3)

# NumPy values next to tensors
arr = np.array([0.5, 1.0, 2.0, 4.0])
print(a + arr, a * np.float32(2), np.float64(3) - a, a * np.bool_(True), i + np.int64(1))
print((a + arr).dtype, (i * np.array([1, 2, 3, 4])).dtype, (a < np.float64(0)).tolist())

# masked_fill, where(cond), nonzero, index_put_
scores = torch.tensor([[0.2, 1.5, -0.3], [2.0, -1.0, 0.7]])
mask = scores < 0
print(scores.masked_fill(mask, float("-inf")).softmax(dim=-1))
print(scores.masked_fill(mask, 0.0), torch.where(mask), torch.nonzero(mask))
filled = scores.clone()
filled.masked_fill_(~mask, 1.0)
print(filled)
rows, cols = torch.where(scores > 0.5)
print(rows, cols, scores[rows, cols])
grid = torch.zeros(3, 3)
grid.index_put_((torch.tensor([0, 1, 2]), torch.tensor([2, 1, 0])), torch.tensor([1.0, 2.0, 3.0]))
counts = torch.zeros(4)
counts.index_put_((torch.tensor([0, 2, 2, 3, 2]),), torch.tensor(1.0), accumulate=True)
print(grid, counts)

# narrow, stride, contiguity
m = torch.arange(12.0).reshape(3, 4)
print(m.narrow(0, 1, 2), m.narrow(1, 2, 2), m.narrow(-1, -1, 1).squeeze())
print(m.stride(), m.t().stride(), m.t().is_contiguous(), m.t().contiguous().stride())
print(m[:, 1:].stride(), m[:, 1:].is_contiguous(), m.is_contiguous(), m.stride(1))

# new_* and type_as
print(x.new_zeros(2, 2), x.new_ones(3), x.new_full((2,), 3.5), x.new_tensor([1, 2]))
print(i.new_tensor([1.5, 2.5]), i.new_zeros(2).dtype, x.new_empty(1, 2).shape)
print(i.type_as(x), x[0].type_as(i), x.new_ones(2, dtype=torch.int64))

# softmax with dtype, dtype attributes
logits = torch.tensor([[1.0, 2.0, 3.0]], dtype=torch.float16)
print(torch.softmax(logits.float(), dim=1, dtype=torch.float64))
print(x[:1].softmax(-1, dtype=torch.float64), x[:1].log_softmax(1, torch.float64))
for dt in (torch.float16, torch.float32, torch.float64, torch.int8, torch.uint8, torch.int64,
           torch.bool):
    print(dt, dt.is_signed, dt.is_floating_point, dt.is_complex, dt.itemsize)
print(torch.is_floating_point(x), torch.is_tensor(x), torch.numel(x))

# out= and in-place rounding division
product = torch.empty(3, 3)
torch.matmul(m, m.T, out=product)
torch.mul(m, 0.5, out=m)
steps //= 4
halves = torch.tensor([5.5, -5.5])
halves %= 2
print(product, m, steps, halves)
