"""Benchmarks: our autograd against NumPy by hand, PyTorch, DeZero and micrograd.

Run with ``make bench`` (or ``python benchmarks/run.py --quick``). Every workload runs in this
one process; each time is the median of ``--repeat`` runs (7 by default) after a warm-up, and
is reported as a ratio to the same work written by hand in NumPy (forward and backward, no
autograd). Peak memory is measured with ``tracemalloc`` (Python and NumPy allocations).
Libraries that are not installed are skipped; ``pip install -r requirements-bench.txt`` adds
DeZero and micrograd. No test asserts on these numbers: they are for reading.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import time
import tracemalloc

import numpy as np

sys.setrecursionlimit(10_000)  # only so that the *other* libraries get a fair chance

import autograd_course as ag  # noqa: E402


def median_time(fn, repeat: int) -> float:
    fn()  # warm-up
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def peak_memory(fn) -> int:
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


# --- workload 1: MLP 784-256-10, batch 128, one SGD step --------------------------------------
def mlp_setup(seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((128, 784)).astype(np.float32)
    labels = rng.integers(0, 10, 128)
    w1 = (rng.standard_normal((784, 256)) * 0.05).astype(np.float32)
    b1 = np.zeros(256, np.float32)
    w2 = (rng.standard_normal((256, 10)) * 0.05).astype(np.float32)
    b2 = np.zeros(10, np.float32)
    return x, labels, [w1, b1, w2, b2]


def mlp_numpy(x, labels, params, lr=0.01):
    w1, b1, w2, b2 = params
    h = x @ w1 + b1
    r = np.maximum(h, 0)
    logits = r @ w2 + b2
    shifted = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(shifted)
    p = e / e.sum(axis=1, keepdims=True)
    n = x.shape[0]
    loss = -np.log(p[np.arange(n), labels]).mean()
    dlogits = p
    dlogits[np.arange(n), labels] -= 1
    dlogits /= n
    dw2 = r.T @ dlogits
    db2 = dlogits.sum(axis=0)
    dr = dlogits @ w2.T
    dh = dr * (h > 0)
    dw1 = x.T @ dh
    db1 = dh.sum(axis=0)
    for p_, g in zip(params, (dw1, db1, dw2, db2)):
        p_ -= lr * g
    return loss


def mlp_ours(x, labels, params):
    tx, tl = ag.from_numpy(x), ag.from_numpy(labels.astype(np.int64))
    model = ag.nn.Sequential(ag.nn.Linear(784, 256), ag.nn.ReLU(), ag.nn.Linear(256, 10))
    with ag.no_grad():
        for p, v in zip(model.parameters(), (params[0].T, params[1], params[2].T, params[3])):
            p.copy_(ag.from_numpy(np.ascontiguousarray(v)))
    opt = ag.optim.SGD(model.parameters(), lr=0.01)

    def step():
        opt.zero_grad()
        loss = ag.nn.functional.cross_entropy(model(tx), tl)
        loss.backward()
        opt.step()

    return step


def mlp_torch(torch, x, labels, params):
    tx, tl = torch.from_numpy(x), torch.from_numpy(labels.astype(np.int64))
    model = torch.nn.Sequential(torch.nn.Linear(784, 256), torch.nn.ReLU(),
                                torch.nn.Linear(256, 10))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)

    def step():
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(tx), tl)
        loss.backward()
        opt.step()

    return step


def mlp_dezero(dz, x, labels, params):
    import dezero.functions as F
    import dezero.layers as L

    model = dz.models.Sequential(L.Linear(256), F.relu, L.Linear(10)) if hasattr(
        dz.models, "Sequential") else dz.models.MLP((256, 10))
    opt = dz.optimizers.SGD(0.01).setup(model)

    def step():
        model.cleargrads()
        loss = F.softmax_cross_entropy(model(x), labels)
        loss.backward()
        opt.update()

    return step


# --- workloads 2 and 3: chains of element-wise ops ----------------------------------------------
def chain_numpy(x0, n):
    h = x0
    saved = []
    for i in range(n):  # h = tanh(h * 1.01 + 0.1) pieces, one op per step
        k = i % 3
        if k == 0:
            h = h * 1.01
        elif k == 1:
            h = h + 0.1
        else:
            h = np.tanh(h)
            saved.append(h)
    g = np.ones_like(h)
    for i in reversed(range(n)):
        k = i % 3
        if k == 0:
            g = g * 1.01
        elif k == 2:
            y = saved.pop()
            g = g * (1 - y * y)
    return g


def chain_generic(x0, n, tanh):
    h = x0
    for i in range(n):
        k = i % 3
        if k == 0:
            h = h * 1.01
        elif k == 1:
            h = h + 0.1
        else:
            h = tanh(h)
    return h


def chain_ours(x0, n):
    x = ag.tensor(x0, requires_grad=True)
    chain_generic(x, n, ag.tanh).sum().backward()
    return x.grad


def chain_torch(torch, x0, n):
    x = torch.tensor(x0, requires_grad=True)
    chain_generic(x, n, torch.tanh).sum().backward()
    return x.grad


def chain_dezero(dz, x0, n):
    import dezero.functions as F

    x = dz.Variable(x0)
    y = F.sum(chain_generic(x, n, F.tanh))
    y.backward()
    return x.grad


def chain_micrograd(x0, n):
    from micrograd.engine import Value

    x = Value(float(x0[0]))
    chain_generic(x, n, lambda v: v.tanh()).backward()
    return x.grad


# --- workload 4: resnet18 forward + backward -------------------------------------------------
def resnet_ours():
    ag.manual_seed(0)
    model = ag.models.resnet18()
    data = ag.rand(1, 3, 64, 64)

    def run():
        model.zero_grad()
        model(data).sum().backward()

    return run


def resnet_torch(torch):
    from torch import nn

    def block(cin, cout, stride):
        down = None
        if stride != 1 or cin != cout:
            down = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))
        return cin, cout, stride, down

    class Basic(nn.Module):
        def __init__(self, cin, cout, stride, down):
            super().__init__()
            self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
            self.bn1 = nn.BatchNorm2d(cout)
            self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
            self.bn2 = nn.BatchNorm2d(cout)
            self.down = down

        def forward(self, x):
            out = self.bn2(self.conv2(torch.relu(self.bn1(self.conv1(x)))))
            return torch.relu(out + (x if self.down is None else self.down(x)))

    layers = [nn.Conv2d(3, 64, 7, 2, 3, bias=False), nn.BatchNorm2d(64), nn.ReLU(),
              nn.MaxPool2d(3, 2, 1)]
    cin = 64
    for cout, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
        layers += [Basic(*block(cin, cout, stride)), Basic(*block(cout, cout, 1))]
        cin = cout
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(512, 1000)]
    model = nn.Sequential(*layers)
    data = torch.rand(1, 3, 64, 64)

    def run():
        model.zero_grad()
        model(data).sum().backward()

    return run


def chain_row(n, size, repeat, torch, dz, mg) -> dict:
    """One table row: a chain of ``n`` element-wise ops on a tensor of ``size`` elements."""
    x0 = np.linspace(-1, 1, size).astype(np.float32)
    r = repeat if n == 1000 else max(3, repeat // 2)
    row = {"workload": f"chain of {n:,} ops on ({size},)",
           "numpy": median_time(lambda: chain_numpy(x0, n), r),
           "ours": median_time(lambda: chain_ours(x0, n), r)}
    if torch:
        row["torch"] = median_time(lambda: chain_torch(torch, x0, n), r)
    if dz and n <= 1000:
        row["dezero"] = median_time(lambda: chain_dezero(dz, x0, n), r)
    if mg and n <= 1000:
        row["micrograd"] = median_time(lambda: chain_micrograd(x0, n), r)
    row["peak_mb"] = peak_memory(lambda: chain_ours(x0, n)) / 2**20
    return row


# --- the report ------------------------------------------------------------------------------
def optional(name):
    try:
        if name == "dezero":
            np.int = int  # DeZero's PyPI release still uses the alias NumPy 2 removed
        return __import__(name)
    except Exception:
        return None


def digits_training_time() -> float:
    """Seconds to train the chapter-7 style MLP on the digits data set (5 epochs)."""
    x, y = ag.datasets.load_digits()
    ag.manual_seed(0)
    x = x.reshape(len(x), -1).float() / 16.0
    model = ag.nn.Sequential(ag.nn.Linear(64, 64), ag.nn.ReLU(), ag.nn.Linear(64, 10))
    opt = ag.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    loader = ag.utils.data.DataLoader(ag.utils.data.TensorDataset(x, y), batch_size=32,
                                      shuffle=True)
    start = time.perf_counter()
    for _ in range(5):
        for xb, yb in loader:
            opt.zero_grad()
            ag.nn.functional.cross_entropy(model(xb), yb).backward()
            opt.step()
    return time.perf_counter() - start


def notebook_times() -> list[tuple[str, float]]:
    root = os.path.join(os.path.dirname(__file__), "..", "notebooks")
    results = []
    for name in sorted(os.listdir(root)):
        if name.endswith(".ipynb"):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "nbconvert", "--to", "notebook", "--execute",
                            "--stdout", os.path.join(root, name)],
                           check=True, capture_output=True)
            results.append((name, time.perf_counter() - start))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--quick", action="store_true", help="3 repeats, no notebooks")
    parser.add_argument("--notebooks", action="store_true", help="also time every notebook")
    args = parser.parse_args()
    repeat = 3 if args.quick else args.repeat
    torch, dz, mg = optional("torch"), optional("dezero"), optional("micrograd")
    if torch is not None:
        torch.set_num_threads(os.cpu_count() or 1)

    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}, NumPy {np.__version__}"
          + (f", torch {torch.__version__}" if torch else ""))
    print(f"medians of {repeat} runs; ratio = time / NumPy-by-hand time\n")
    rows = []

    x, labels, params = mlp_setup()
    base = median_time(lambda: mlp_numpy(x, labels, [p.copy() for p in params]), repeat)
    row = {"workload": "MLP 784-256-10 b128 SGD step", "numpy": base,
           "ours": median_time(mlp_ours(x, labels, params), repeat)}
    if torch:
        row["torch"] = median_time(mlp_torch(torch, x, labels, params), repeat)
    if dz:
        row["dezero"] = median_time(mlp_dezero(dz, x, labels, params), repeat)
    row["peak_mb"] = peak_memory(mlp_ours(x, labels, params)) / 2**20
    rows.append(row)

    for n, size in ((1000, 100), (100_000, 1)):
        rows.append(chain_row(n, size, repeat, torch, dz, mg))

    res = {"workload": "resnet18 1x3x64x64 fwd+bwd (seconds)",
           "ours": median_time(resnet_ours(), max(3, repeat // 2))}
    if torch:
        res["torch"] = median_time(resnet_torch(torch), max(3, repeat // 2))
    rows.append(res)

    libs = ["ours", "torch", "dezero", "micrograd"]
    print(f"{'workload':40s} " + " ".join(f"{k:>12s}" for k in libs) + f" {'peak MB':>9s}")
    for row in rows:
        base = row.get("numpy")
        cells = []
        for k in libs:
            if k not in row:
                cells.append(f"{'—':>12s}")
            elif base:
                cells.append(f"{row[k] / base:11.2f}×")
            else:
                cells.append(f"{row[k]:11.3f}s")
        peak = f"{row['peak_mb']:9.1f}" if "peak_mb" in row else f"{'':9s}"
        print(f"{row['workload']:40s} " + " ".join(cells) + " " + peak)
        if base:
            print(f"{'  (NumPy by hand: %.3f ms)' % (base * 1e3):40s}")
    if "torch" in res:
        print(f"\nresnet18: ours / torch = {res['ours'] / res['torch']:.2f}")

    print(f"\ndigits MLP, 5 epochs: {digits_training_time():.2f} s")
    if args.notebooks:
        print("\nnotebook execution times:")
        for name, seconds in notebook_times():
            print(f"  {name:40s} {seconds:6.1f} s")


if __name__ == "__main__":
    main()
