"""What ``ag.func.vmap`` costs: per-sample gradients of a small MLP, ``vmap(grad(loss_one))``
against a Python loop of backward passes, here and in PyTorch.

    python benchmarks/func_vmap.py --batch 64

This package's ``vmap`` runs the function once per sample and stacks the results (its
docstring says so), so ``vmap(grad(...))`` costs what the loop costs; PyTorch's runs the
function once on batched tensors. Both results are checked against the loop. Each time is the
median of ``--repeat`` runs, in milliseconds.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import autograd_course


def per_sample(lib, batch: int, repeat: int) -> tuple[float, float]:
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(20, 32), lib.nn.Tanh(), lib.nn.Linear(32, 5))
    params = {name: p.detach() for name, p in model.named_parameters()}
    xs = lib.tensor(np.random.default_rng(0).standard_normal((batch, 20)), dtype=lib.float32)
    ys = lib.tensor(np.arange(batch) % 5)

    def loss_one(params, x, y):
        logits = lib.func.functional_call(model, params, (x.unsqueeze(0),))
        return lib.nn.functional.cross_entropy(logits, y.unsqueeze(0))

    def by_vmap():
        return lib.func.vmap(lib.func.grad(loss_one), in_dims=(None, 0, 0))(params, xs, ys)

    def by_loop():
        grads = []
        for i in range(batch):
            model.zero_grad()
            lib.nn.functional.cross_entropy(model(xs[i:i + 1]), ys[i:i + 1]).backward()
            grads.append(model[0].weight.grad.clone())
        return lib.stack(grads)

    assert np.allclose(by_vmap()["0.weight"].numpy(), by_loop().numpy(), atol=1e-5)
    return _median_ms(by_vmap, repeat), _median_ms(by_loop, repeat)


def _median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return 1e3 * statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    libs = [("autograd_course", autograd_course)]
    try:
        import torch
        libs.append(("torch", torch))
    except ImportError:
        pass
    print(f"per-sample gradients, batch {args.batch} (median of {args.repeat}, ms)")
    for name, lib in libs:
        vmapped, looped = per_sample(lib, args.batch, args.repeat)
        print(f"{name:16s} vmap(grad): {vmapped:8.1f}   loop of backward: {looped:8.1f}")


if __name__ == "__main__":
    main()
