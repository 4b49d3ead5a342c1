"""The resnet18 step of ``run.py`` (issue 48), two checkouts compared in ONE process.

On a shared machine, separate processes of the same commit differ by ±10% (page faults, other
jobs); steps of two checkouts interleaved in one process see the same conditions. This imports
this checkout's ``autograd_course`` and another checkout's side by side, times each op's
``forward`` by layer type, and runs their steps and PyTorch's in turn::

    python3 benchmarks/profile_resnet.py /path/to/other/checkout [--steps 40]

It prints, per layer type, the mean milliseconds per step of each checkout, then the median CPU
time per step of each and of PyTorch. One BLAS / PyTorch thread, as ``run.py`` uses by default.
No test asserts on these numbers.
"""

from __future__ import annotations

import os
import sys

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"  # before NumPy loads: its BLAS reads them once

import argparse  # noqa: E402
import collections  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# the op classes timed, by the layer type they belong to (the rest is the engine, the modules)
LAYER_TYPES = {
    "Convolution": "conv2d forward", "ConvolutionGrad": "conv2d backward",
    "NativeBatchNorm": "batch_norm forward", "BatchNormGrad": "batch_norm backward",
    "MaxPool2D": "max_pool2d forward", "MaxPool2DGrad": "max_pool2d backward",
    "Relu_": "relu_ forward", "Relu": "relu_ forward",
    "Add_": "residual add_ (and gradients summed)", "Add": "residual add_ (and gradients summed)",
    "Clone": "AccumulateGrad (first gradient copied)",
    "Mean": "adaptive avg pool (a mean)", "Expand": "adaptive avg pool (a mean)",
    "Div": "adaptive avg pool (a mean)",
}


def load(checkout: str):
    """``autograd_course`` from ``checkout``, as a module of its own (earlier copies stay
    loaded under the names their caller kept)."""
    for name in [n for n in sys.modules if n.split(".")[0] == "autograd_course"]:
        del sys.modules[name]
    sys.path.insert(0, checkout)
    try:
        import autograd_course
    finally:
        sys.path.remove(checkout)
    return autograd_course


def time_forwards(ag, totals: collections.defaultdict) -> None:
    """Wrap the ``forward`` of each op class in ``LAYER_TYPES`` with a timer into ``totals``."""
    pending, seen = [ag.autograd.function.Function], set()
    while pending:
        cls = pending.pop()
        pending += cls.__subclasses__()
        method = cls.__dict__.get("forward")
        if cls in seen or cls.__name__ not in LAYER_TYPES or not isinstance(method, staticmethod):
            continue
        seen.add(cls)

        def timed(*args, _forward=method.__func__, _key=LAYER_TYPES[cls.__name__], **kwargs):
            start = time.perf_counter()
            result = _forward(*args, **kwargs)
            totals[_key] += time.perf_counter() - start
            return result

        cls.forward = staticmethod(timed)


def resnet_step(ag, data):
    ag.manual_seed(0)
    model, x = ag.models.resnet18(), ag.from_numpy(data)

    def step():
        model.zero_grad()
        model(x).sum().backward()

    return step


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", help="the other checkout (its root folder)")
    parser.add_argument("--steps", type=int, default=40, help="steps of each (default 40)")
    args = parser.parse_args()
    sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
    import torch
    import workloads as W

    torch.set_num_threads(1)
    data = W.resnet_input()
    labels = {"other": os.path.abspath(args.other), "this": ROOT}
    steps, totals = {}, {}
    for label, checkout in labels.items():
        totals[label] = collections.defaultdict(float)
        ag = load(checkout)
        time_forwards(ag, totals[label])
        steps[label] = resnet_step(ag, data)
    steps["PyTorch"] = W.resnet_torch(torch, data)
    for step in steps.values():
        step()
        step()
    for per_type in totals.values():
        per_type.clear()
    cpu = {label: [] for label in steps}
    for i in range(args.steps):
        for label in (list(steps) if i % 2 else list(steps)[::-1]):
            start = time.process_time()
            steps[label]()
            cpu[label].append(time.process_time() - start)
    n = args.steps
    print(f"| layer type | other: {labels['other']} | this: {labels['this']} |\n|---|---|---|")
    for key in sorted(totals["other"], key=lambda k: -totals["other"][k]):
        print(f"| {key} | {totals['other'][key] / n * 1e3:.2f} | "
              f"{totals['this'][key] / n * 1e3:.2f} |")
    step_ms = {label: statistics.median(times) * 1e3 for label, times in cpu.items()}
    print("| the rest (engine, modules, fc, relu backward) | "
          + " | ".join(f"{step_ms[label] - sum(totals[label].values()) / n * 1e3:.2f}"
                       for label in ("other", "this")) + " |")
    print(f"| step (median CPU time of {n}) | {step_ms['other']:.2f} | {step_ms['this']:.2f} |")
    print(f"PyTorch {step_ms['PyTorch']:.2f} ms; other / PyTorch "
          f"{step_ms['other'] / step_ms['PyTorch']:.3f}, this / PyTorch "
          f"{step_ms['this'] / step_ms['PyTorch']:.3f}")


if __name__ == "__main__":
    main()
