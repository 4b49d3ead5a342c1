"""Benchmarks: our autograd against NumPy by hand, PyTorch, DeZero and micrograd.

Run with ``make bench`` (or ``python benchmarks/run.py --quick``). Every workload runs in this
one process. Each time is the median of 2 x ``--repeat`` runs (7 by default), see ``time_each``.
Times are reported as ratios to the same work written by hand in NumPy (forward and backward,
no autograd); resnet18 as a ratio to PyTorch with the same number of threads. Peak memory is
measured with ``tracemalloc`` (it sees Python's and NumPy's allocations).

Libraries that are not installed are skipped: ``pip install -r requirements-bench.txt`` adds
DeZero and micrograd. No test asserts on these numbers; they are for reading (see
``benchmarks/README.md`` for the results and what limits them).
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import statistics
import sys
import time
import tracemalloc


def _threads_from_argv(default: int = 1) -> int:
    """``--threads N``, read before NumPy loads: its BLAS takes the thread count from the
    environment at import time."""
    for i, arg in enumerate(sys.argv):
        if arg == "--threads" and i + 1 < len(sys.argv):
            return int(sys.argv[i + 1])
        if arg.startswith("--threads="):
            return int(arg.split("=", 1)[1])
    return default


THREADS = _threads_from_argv()
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = str(THREADS)

import numpy as np  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)  # measure this checkout's autograd_course, wherever it is installed
sys.setrecursionlimit(10_000)  # only so that the *other* libraries get a fair chance

import workloads as W  # noqa: E402

import autograd_course as ag  # noqa: E402
from autograd_course.autograd.graph import Node  # noqa: E402

LIBS = ("numpy", "ours", "torch", "dezero", "micrograd")
# Issue 48's targets: our time over PyTorch's, measured in the same process (and ahead of
# DeZero everywhere). The tiny GPT keeps its own target, over NumPy by hand.
TARGETS_VS_TORCH = {"mlp": 1.0, "chain1k": 1.0, "chain100k": 1.3, "resnet": 1.0}
TARGETS = {"gpt": 3.0}


# --- measuring ------------------------------------------------------------------------------
def time_each(fns: dict, repeat: int) -> dict:
    """Median seconds per callable (or the exception's name when one fails on the warm-up).

    Each library runs a warm-up and ``repeat`` runs in one block; the blocks run once in
    order and once in reverse order, and the median is over both. (Taking turns run by run
    lets one library's allocations slow down the next: after a DeZero step NumPy and ours ran
    10-15% slower. And whichever library runs right after a large workload pays for memory
    the allocator has just handed back: PyTorch's resnet18 ran in 37 ms before ours and in
    50 ms after it. Both orders even that out.)
    """
    results, times = {}, {name: [] for name in fns}
    for order in (list(fns), list(fns)[::-1]):
        for name in order:
            if name in results:
                continue
            fn = fns[name]
            try:
                fn()  # warm-up
            except RecursionError:
                results[name] = "RecursionError"
                continue
            for _ in range(repeat):
                start = time.perf_counter()
                fn()
                times[name].append(time.perf_counter() - start)
    for name, t in times.items():
        if name not in results:
            results[name] = statistics.median(t)
    return results


def peak_mb(fn, calls: int = 1) -> float:
    """Peak traced memory (MiB) while ``fn`` runs ``calls`` times, above what was live before."""
    gc.collect()
    tracemalloc.start()
    for _ in range(calls):
        fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def graph_objects() -> tuple[int, int]:
    """(graph nodes, saved tensors) alive now."""
    gc.collect()
    nodes = saved = 0
    for obj in gc.get_objects():
        kind = type(obj)  # not isinstance: some proxies warn when asked for __class__
        if issubclass(kind, Node):  # a node keeps its saved tensors in its own fields
            nodes += 1
            saved += sum(1 for kept in getattr(obj, "saved", None) or () if kept is not None)
    return nodes, saved


def optional(name):
    try:
        if name == "dezero":
            np.int = int  # DeZero's PyPI release still uses the alias NumPy 2 removed
        return __import__(name)
    except Exception:
        return None


# --- the workloads ---------------------------------------------------------------------------
def bench_mlp(repeat, torch, dz) -> dict:
    data = W.MLPData()
    fns = {"numpy": W.mlp_numpy(data), "ours": W.mlp_ours(data)}
    if torch:
        fns["torch"] = W.mlp_torch(torch, data)
    if dz:
        fns["dezero"] = W.mlp_dezero(dz, data)
    row = {"key": "mlp", "workload": "MLP 784-256-10, batch 128, float32, SGD step",
           "times": time_each(fns, repeat)}
    row["peak"] = {"numpy": peak_mb(W.mlp_numpy(data)), "ours": peak_mb(W.mlp_ours(data))}
    error = W.mlp_gradient_error(data)
    row["check"] = f"MLP gradients, by hand vs ours: max rel. error {error:.1e}"
    return row


def bench_chain(n, size, repeat, torch, dz, mg) -> dict:
    x0 = np.linspace(-1, 1, size).astype(np.float32)
    fns = {"numpy": W.chain_numpy(x0, n), "ours": W.chain_ours(x0, n)}
    if torch:
        fns["torch"] = W.chain_torch(torch, x0, n)
    if dz:
        fns["dezero"] = W.chain_dezero(dz, x0, n)
    if mg:
        fns["micrograd"] = W.chain_micrograd(x0, n)
    reps = repeat if n <= 1000 else max(3, (repeat + 1) // 2)
    row = {"key": "chain1k" if n <= 1000 else "chain100k",
           "workload": f"chain of {n:,} element-wise ops on ({size},)",
           "times": time_each(fns, reps)}
    row["peak"] = {"numpy": peak_mb(fns["numpy"]), "ours": peak_mb(fns["ours"])}
    if n > 1000:  # what the cyclic garbage collector costs here (timeit pauses it too)
        gc.disable()
        try:
            paused = time_each({k: fns[k] for k in ("numpy", "ours")}, reps)
        finally:
            gc.enable()
        row["note"] = (f"chain of {n:,} with the cyclic GC paused (gc.disable()): ours "
                       f"{paused['ours'] / paused['numpy']:.2f}× NumPy by hand")
    hand, ours = W.chain_numpy_grad(x0, n), W.chain_ours_grad(x0, n).numpy()
    err = float(np.abs(hand - ours).max() / (np.abs(hand).max() or 1.0))
    row["check"] = f"chain of {n:,}: gradient by hand vs ours: max rel. error {err:.1e}"
    return row


def bench_resnet(repeat, torch) -> dict:
    data = W.resnet_input()
    fns = {"ours": W.resnet_ours(data)}
    if torch:
        fns["torch"] = W.resnet_torch(torch, data)
    row = {"key": "resnet", "workload": "resnet18, 1x3x64x64, forward + backward",
           "times": time_each(fns, repeat), "base": "torch"}
    row["peak"] = {"ours": peak_mb(fns["ours"])}
    return row


def bench_gpt(repeat, torch) -> dict:
    """The tiny GPT of the learner script: one AdamW step, the same code on both libraries.
    Both start from the same seed and batch, so their first losses must agree."""
    fns = {"ours": W.gpt_step(ag)}
    if torch:
        fns["torch"] = W.gpt_step(torch)
    row = {"key": "gpt", "workload": "tiny GPT (2 blocks, 4 heads, 32 dims), batch 16x16, "
           "AdamW step", "times": time_each(fns, repeat), "base": "torch"}
    row["peak"] = {"ours": peak_mb(W.gpt_step(ag))}
    if torch:
        ours, theirs = W.gpt_step(ag)().item(), W.gpt_step(torch)().item()
        row["check"] = (f"tiny GPT first loss, ours vs PyTorch: {ours:.6f} vs {theirs:.6f} "
                        f"(rel. difference {abs(ours - theirs) / abs(theirs):.1e})")
    return row


def memory_checks() -> list[str]:
    """Nothing accumulates over many steps; no_grad records no graph and saves nothing."""
    data = W.MLPData()
    lines = []
    step = W.mlp_ours(data)
    step()
    few, many = peak_mb(step, 10), peak_mb(step, 200)
    verdict = "ok" if abs(many - few) <= 0.05 * few else "GROWS"
    lines.append(f"MLP peak memory, 200 steps vs 10 steps: {many:.2f} vs {few:.2f} MiB "
                 f"({(many / few - 1) * 100:+.1f}%, target within 5%: {verdict})")
    for name, model, x in (
        ("MLP", W.mlp_ours_model(data), ag.from_numpy(data.x)),
        ("resnet18", ag.models.resnet18(), ag.from_numpy(W.resnet_input())),
    ):
        base = graph_objects()
        out = model(x)
        recorded = graph_objects()
        del out
        with ag.no_grad():
            out = model(x)
            held = graph_objects()
        del out
        lines.append(
            f"{name} forward: {recorded[0] - base[0]} nodes / {recorded[1] - base[1]} saved "
            f"tensors recorded; under no_grad: {held[0] - base[0]} nodes / "
            f"{held[1] - base[1]} saved tensors")
    return lines


def digits_training_time() -> float:
    """Seconds to train chapter 7's network on the digits: 15 epochs, as the notebook does."""
    F = ag.nn.functional
    images, labels = ag.datasets.load_digits()
    x = images.reshape(len(images), 64)
    ag.manual_seed(0)
    order = ag.randperm(len(x))
    test_idx, train_idx = order[:360], order[360:]
    loader = ag.utils.data.DataLoader(
        ag.utils.data.TensorDataset(x[train_idx], labels[train_idx]), batch_size=32,
        shuffle=True)
    model = ag.nn.Sequential(ag.nn.Linear(64, 64), ag.nn.ReLU(), ag.nn.Linear(64, 10))
    opt = ag.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    sched = ag.optim.lr_scheduler.StepLR(opt, step_size=10, gamma=0.1)
    start = time.perf_counter()
    for _ in range(15):
        for xb, yb in loader:
            opt.zero_grad()
            F.cross_entropy(model(xb), yb).backward()
            opt.step()
        sched.step()
        with ag.no_grad():
            (model(x[test_idx]).argmax(1) == labels[test_idx]).float().mean().item()
    return time.perf_counter() - start


def notebook_times() -> list[tuple[str, float]]:
    """Wall time to execute each notebook (kernel start included), course then solutions."""
    import nbclient
    import nbformat

    results = []
    for folder in ("notebooks", os.path.join("notebooks", "solutions")):
        path = os.path.join(ROOT, folder)
        names = sorted(f for f in os.listdir(path) if f.endswith(".ipynb")) if os.path.isdir(
            path) else []
        for name in names:
            nb = nbformat.read(os.path.join(path, name), as_version=4)
            start = time.perf_counter()
            status = "ok"
            try:
                nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                        resources={"metadata": {"path": path}}).execute()
            except Exception as error:  # report it and go on timing the others
                status = f"FAILED ({type(error).__name__})"
            results.append((os.path.join(folder, name)[len("notebooks/"):],
                            time.perf_counter() - start, status))
    return results


# --- the report ------------------------------------------------------------------------------
def cell(row, lib) -> str:
    t, base = row["times"].get(lib), row["times"].get(row.get("base", "numpy"))
    if t is None:
        return "—"
    if isinstance(t, str):
        return t
    if lib == row.get("base", "numpy"):
        return f"{t * 1e3:.2f} ms"
    return f"{t / base:.2f}×"


def verdict(row) -> str:
    """Whether ours meets its target: over PyTorch's time (issue 48), else over NumPy's."""
    times = row["times"]
    if row["key"] in TARGETS_VS_TORCH:
        target, base, over = TARGETS_VS_TORCH[row["key"]], times.get("torch"), " PyTorch"
    else:
        target, base, over = TARGETS[row["key"]], times.get(row.get("base", "numpy")), ""
    if not isinstance(base, float):
        return f"≤ {target}×{over} (no baseline)"
    ratio = times["ours"] / base
    met = "met" if ratio <= target else f"NOT met ({ratio / target:.2f}× over)"
    dezero = times.get("dezero")
    if isinstance(dezero, float):
        met += f"; DeZero {dezero / times['ours']:.2f}× ours"
    return f"{ratio:.2f}×{over}, ≤ {target}×: {met}"


def print_table(rows, markdown: bool) -> None:
    head = ["workload", "NumPy by hand", "ours", "PyTorch", "DeZero", "micrograd",
            "ours / target",
            "peak MiB (NumPy / ours)"]
    lines = []
    for row in rows:
        peak = row["peak"]
        lines.append([
            row["workload"] + (" (vs PyTorch)" if row.get("base") == "torch" else ""),
            *[cell(row, lib) for lib in LIBS], verdict(row),
            " / ".join(f"{peak[k]:.1f}" if k in peak else "—" for k in ("numpy", "ours")),
        ])
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for line in lines:
            print("| " + " | ".join(line) + " |")
        return
    widths = [max(len(r[i]) for r in [head] + lines) for i in range(len(head))]
    for line in [head] + lines:
        print("  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                        for i, (c, w) in enumerate(zip(line, widths))))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="runs per median (default 7)")
    parser.add_argument("--quick", action="store_true", help="3 runs per median")
    parser.add_argument("--notebooks", action="store_true", help="also time every notebook")
    parser.add_argument("--threads", type=int, default=1,
                        help="BLAS and PyTorch threads (default 1: see benchmarks/README.md)")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    parser.add_argument("--only", default="mlp,chain1k,chain100k,resnet,gpt,memory,digits",
                        help="comma-separated subset of: mlp chain1k chain100k resnet gpt "
                             "memory digits")
    args = parser.parse_args()
    repeat = 3 if args.quick else args.repeat
    only = set(args.only.split(","))
    torch, dz, mg = optional("torch"), optional("dezero"), optional("micrograd")
    threads = THREADS
    if torch is not None:
        torch.set_num_threads(threads)  # the same threads NumPy's BLAS uses

    print(f"machine: {platform.machine()} {platform.processor() or ''}, {os.cpu_count()} cores; "
          f"Python {platform.python_version()}, NumPy {np.__version__}"
          + (f", PyTorch {torch.__version__}" if torch else "")
          + f"; {threads} BLAS / PyTorch threads")
    print(f"medians of 2 x {repeat} runs (chain of 100,000: 2 x {max(3, (repeat + 1) // 2)}); "
          "ratio = time / NumPy-by-hand time (resnet18: / PyTorch time)\n")
    rows = []
    if "mlp" in only:
        rows.append(bench_mlp(repeat, torch, dz))
    if "chain1k" in only:
        rows.append(bench_chain(1000, 100, repeat, torch, dz, mg))
    if "chain100k" in only:
        rows.append(bench_chain(100_000, 1, repeat, torch, dz, mg))
    if "resnet" in only:
        rows.append(bench_resnet(max(3, (repeat + 1) // 2), torch))
    if "gpt" in only:
        rows.append(bench_gpt(repeat, torch))
    print_table(rows, args.markdown)
    for row in rows:
        if row["key"] in ("resnet", "gpt"):
            t = row["times"]
            print(f"\n{row['key']}: ours {t['ours'] * 1e3:.1f} ms"
                  + (f", PyTorch {t['torch'] * 1e3:.1f} ms" if "torch" in t else ""))
    for row in rows:
        if "note" in row:
            print(row["note"])
    print("\nchecks:")
    for row in rows:
        if "check" in row:
            print("  " + row["check"])
    if "memory" in only:
        for line in memory_checks():
            print("  " + line)
    if "digits" in only:
        print(f"\ndigits, chapter 7's MLP, 15 epochs: {digits_training_time():.2f} s")
    if args.notebooks:
        print("\nnotebook execution times (kernel start included):")
        total = 0.0
        for name, seconds, status in notebook_times():
            total += seconds
            print(f"  {name:40s} {seconds:6.1f} s  {status}")
        print(f"  {'total':40s} {total:6.1f} s")


if __name__ == "__main__":
    main()
