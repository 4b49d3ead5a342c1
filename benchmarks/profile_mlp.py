"""The MLP step of ``run.py`` (issue 48), profiled: the Python calls of one step, counted by
cProfile (deterministic), and the median time per step of ours and of PyTorch at batch 128
and at batch 2, where the GEMMs are nearly free and the Python shows.

    python3 benchmarks/profile_mlp.py           # calls per step, times at batch 128 and 2
    python3 benchmarks/profile_mlp.py --top 30  # and the 30 functions with most own time
                                                # over 300 steps at batch 2

One BLAS / PyTorch thread, as ``run.py`` uses by default. No test asserts on these numbers.
"""

from __future__ import annotations

import os
import sys

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"  # before NumPy loads: its BLAS reads them once

import cProfile  # noqa: E402
import io  # noqa: E402
import pstats  # noqa: E402
import time  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)  # this checkout's autograd_course, as run.py measures it

import workloads as W  # noqa: E402


def per_step_us(step, repeats: int) -> float:
    """Median over 7 blocks of ``repeats`` steps, after 20 warm-up steps (µs per step)."""
    for _ in range(20):
        step()
    blocks = []
    for _ in range(7):
        start = time.perf_counter()
        for _ in range(repeats):
            step()
        blocks.append((time.perf_counter() - start) / repeats * 1e6)
    return sorted(blocks)[3]


def calls_per_step(step) -> int:
    """The Python calls cProfile counts in one step (after a few to warm up)."""
    for _ in range(5):
        step()
    profile = cProfile.Profile()
    profile.enable()
    step()
    profile.disable()
    return pstats.Stats(profile).total_calls


def main() -> None:
    print("calls in one step (batch 2):", calls_per_step(W.mlp_ours(W.MLPData(batch=2))))
    try:
        import torch
        torch.set_num_threads(1)
    except ImportError:
        torch = None
    for batch, repeats in ((128, 40), (2, 300)):
        data = W.MLPData(batch=batch)
        ours = per_step_us(W.mlp_ours(data), repeats)
        line = f"batch {batch:3}: ours {ours:7.0f} µs"
        if torch is not None:
            theirs = per_step_us(W.mlp_torch(torch, data), repeats)
            line += f", PyTorch {theirs:7.0f} µs, ours / PyTorch {ours / theirs:.2f}"
        print(line)
    if "--top" in sys.argv:
        top = int(sys.argv[sys.argv.index("--top") + 1])
        step = W.mlp_ours(W.MLPData(batch=2))
        profile = cProfile.Profile()
        profile.enable()
        for _ in range(300):
            step()
        profile.disable()
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(top)
        print(out.getvalue())


if __name__ == "__main__":
    main()
