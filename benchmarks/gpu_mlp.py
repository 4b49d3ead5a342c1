"""One SGD step of the 784-256-10 MLP (float32, ReLU, cross-entropy) at a large batch, on the
CPU and on the GPU: how much does the same course code gain from CuPy?

    python benchmarks/gpu_mlp.py --batch 8192   # NumPy and ours on the CPU, ours on CUDA
    python benchmarks/gpu_mlp.py --no-gpu       # the CPU part only

It is the MLP workload of ``benchmarks/run.py`` at a batch where the GPU has enough work: the
same weights, the same maths. The speed-up printed is NumPy-by-hand on the CPU (no autograd,
the fastest CPU version of this step) over our autograd on the GPU; the target is 20x.

Timing: each time is the median of ``--repeat`` steps after ``--warmup`` steps (the first GPU
steps compile CuPy's kernels). The GPU queues work and returns at once, so every timed GPU step
ends with ``cupy.cuda.Device().synchronize()``: without it the clock would stop before the GPU
had finished. NumPy uses its BLAS's default threads (``OMP_NUM_THREADS`` and friends change it).

Exit status: 0; 2 when a GPU was wanted but none is usable; 1 when the GPU's loss differs from
the CPU's, or (with ``--require-target``) when the speed-up is below ``--target``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]  # this checkout's autograd_course; workloads.py

from workloads import MLPData, mlp_numpy, mlp_ours  # noqa: E402  (the same MLP as run.py)

import autograd_course as ag  # noqa: E402
from autograd_course import _backend  # noqa: E402

TARGET = 20.0


def synchronize(device: str) -> None:
    """Wait until the GPU has finished the work queued so far (nothing to wait for on a CPU)."""
    if ag.device(device).type == "cuda":
        _backend.cupy().cuda.Device(ag.device(device).index).synchronize()


def seconds_per_step(step, device: str, repeat: int, warmup: int) -> float:
    """Median wall time of one step, each measured from a synchronised start to a
    synchronised end."""
    for _ in range(warmup):
        step()
    synchronize(device)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        step()
        synchronize(device)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def gpu_name() -> str:
    """The name CUDA reports for GPU 0."""
    name = _backend.cupy().cuda.runtime.getDeviceProperties(0)["name"]
    return name.decode() if isinstance(name, bytes) else str(name)


def measure(batch: int = 8192, repeat: int = 10, warmup: int = 3, gpu: bool = True) -> dict:
    """Seconds per step for NumPy by hand and ours on the CPU, and ours on the GPU (when
    ``gpu``), plus the first step's loss on each."""
    data = MLPData(batch=batch)
    results = {}
    runs = [("numpy", lambda: mlp_numpy(data), "cpu"), ("cpu", lambda: mlp_ours(data), "cpu")]
    if gpu:
        runs.append(("cuda", lambda: mlp_ours(data, "cuda"), "cuda"))
    for name, make, device in runs:
        first = make()()  # the first step's loss, from fresh weights
        results[f"{name}_loss"] = first.item() if hasattr(first, "item") else float(first)
        results[name] = seconds_per_step(make(), device, repeat, warmup)
    return results


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", type=int, default=8192)
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--target", type=float, default=TARGET,
                        help="speed-up over NumPy on the CPU to aim for (default 20)")
    parser.add_argument("--require-target", action="store_true",
                        help="exit 1 when the speed-up is below --target")
    parser.add_argument("--no-gpu", action="store_true", help="time the CPU only")
    args = parser.parse_args(argv)

    use_gpu = not args.no_gpu
    if use_gpu and not ag.cuda.is_available():
        print("gpu_mlp: no GPU found (CuPy is not installed, or it sees no NVIDIA device). "
              "Install the GPU extra with `pip install -e .[gpu]` on a machine with a GPU, "
              "or pass --no-gpu to time the CPU only.", file=sys.stderr)
        return 2
    print(f"MLP 784-256-10, float32, batch {args.batch}: one SGD step "
          f"(median of {args.repeat} after {args.warmup} warm-up steps); "
          f"{os.cpu_count()} CPU cores, NumPy {np.__version__}")
    r = measure(args.batch, args.repeat, args.warmup, use_gpu)
    rows = [("NumPy by hand, CPU", r["numpy"]), ("autograd_course, CPU", r["cpu"])]
    if use_gpu:
        rows.append((f"autograd_course, cuda:0 ({gpu_name()})", r["cuda"]))
    width = max(len(label) for label, _ in rows)
    for label, seconds in rows:
        print(f"  {label:<{width}} {1000 * seconds:10.2f} ms")
    if not use_gpu:
        return 0
    if not np.isclose(r["cuda_loss"], r["cpu_loss"], rtol=1e-4):
        print(f"gpu_mlp: the GPU's loss {r['cuda_loss']} differs from the CPU's "
              f"{r['cpu_loss']}", file=sys.stderr)
        return 1
    speedup, vs_ours = r["numpy"] / r["cuda"], r["cpu"] / r["cuda"]
    met = speedup >= args.target
    print(f"speed-up of the GPU step over NumPy on the CPU: {speedup:.1f}x "
          f"(over our CPU step {vs_ours:.1f}x), target {args.target:g}x "
          f"{'met' if met else 'NOT met'}")
    return 1 if args.require_target and not met else 0


if __name__ == "__main__":
    sys.exit(main())
