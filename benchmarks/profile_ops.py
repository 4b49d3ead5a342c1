"""What one recorded op costs: Python calls, and objects the cyclic garbage collector tracks.

    python3 benchmarks/profile_ops.py

Counts, for ``a * b`` (both ``(100,)`` float32 tensors that require grad):

* the Python functions called (``sys.setprofile`` "call" events) by the forward ``a * b``,
  and the files they are in;
* the same for the backward of ``(a * b).sum()``;
* per recorded op of a 999-op chain of ``h = h * b``, of ``h = h + b`` and of
  ``h = h.tanh()`` (the benchmark chain's three ops, with a tensor operand): the objects the
  collector tracks that the op leaves alive (``gc.get_objects()`` before and after, the
  collector paused), and the allocations it counts towards its next collection
  (``gc.get_count()[0]``).

and, for the benchmark's chain (``h * 1.01``, ``h + 0.1``, ``tanh``): the objects per op the
collector still tracks after a full collection, and the Python bytecode instructions per op
executed by the forward and by the backward, with the functions that execute most of them.

No timing: these numbers are the same on a loaded machine. See benchmarks/README.md.
"""

from __future__ import annotations

import gc
import os
import sys
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)  # profile this checkout's autograd_course

import autograd_course as ag  # noqa: E402


def calls(fn, setup=lambda: None) -> tuple[int, Counter]:
    """Python function calls made while ``fn(setup())`` runs (the setup not counted), and how
    many per file."""
    files = Counter()

    def profiler(frame, event, arg):
        if event == "call":
            files[os.path.relpath(frame.f_code.co_filename, ROOT)] += 1

    fn(setup())  # warm-up: first-use caches are not per-op work
    arg = setup()
    sys.setprofile(profiler)
    try:
        fn(arg)
    finally:
        sys.setprofile(None)
    files.pop(os.path.relpath(__file__, ROOT), None)  # fn itself
    return sum(files.values()), files


def leaves():
    a = ag.randn(100, requires_grad=True)
    b = ag.randn(100, requires_grad=True)
    return a, b


def forward_calls() -> tuple[int, Counter]:
    a, b = leaves()
    return calls(lambda _: a * b)


def backward_calls() -> tuple[int, Counter]:
    a, b = leaves()
    return calls(lambda loss: loss.backward(), lambda: (a * b).sum())


def tracked_per_op(op: str, n: int = 999) -> tuple[float, float]:
    """(objects tracked by the collector left alive, allocations it counted) per recorded op."""
    h, b = leaves()
    step = {"mul": lambda h: h * b, "add": lambda h: h + b, "tanh": lambda h: h.tanh()}[op]
    gc.collect()
    gc.disable()
    try:
        before, counted = len(gc.get_objects()), 0
        outs = h
        for _ in range(n):
            start = gc.get_count()[0]
            outs = step(outs)
            counted += gc.get_count()[0] - start
        after = len(gc.get_objects())
    finally:
        gc.enable()
    del outs
    return (after - before) / n, counted / n


def chain(h, n: int = 999):
    """The benchmark's chain (benchmarks/workloads.py): h * 1.01, h + 0.1, tanh, in turn."""
    for i in range(n):
        h = h * 1.01 if i % 3 == 0 else h + 0.1 if i % 3 == 1 else h.tanh()
    return h


def bytecodes_per_op(n: int = 999) -> tuple[Counter, Counter]:
    """Python bytecode instructions executed per op of the chain, forward and backward, per
    function ("opcode" trace events). Unlike a timing, the count is the same on a busy machine."""
    counts = Counter()

    def tracer(frame, event, arg):
        frame.f_trace_opcodes, frame.f_trace_lines = True, False
        if event == "opcode":
            code = frame.f_code
            counts[f"{os.path.relpath(code.co_filename, ROOT)}:{code.co_name}"] += 1
        return tracer

    chain(ag.randn(100, requires_grad=True), 30).sum().backward()  # warm-up
    x = ag.randn(100, requires_grad=True)
    sys.settrace(tracer)
    try:
        h = chain(x, n)
    finally:
        sys.settrace(None)
    forward = Counter({k: v / n for k, v in counts.items() if "profile_ops" not in k})
    counts.clear()
    loss = h.sum()
    sys.settrace(tracer)
    try:
        loss.backward()
    finally:
        sys.settrace(None)
    return forward, Counter({k: v / n for k, v in counts.items()})


def tracked_after_collection(n: int = 999) -> float:
    """Objects per op of the chain that the collector still tracks after a full collection
    (tuples of numbers only are untracked then): what every later full collection walks."""
    gc.collect()
    before = len(gc.get_objects())
    h = chain(ag.randn(100, requires_grad=True), n)
    gc.collect()
    alive = (len(gc.get_objects()) - before) / n
    del h
    return alive


def main() -> None:
    for what, (total, files) in (("a * b forward", forward_calls()),
                                 ("(a * b).sum() backward", backward_calls())):
        print(f"{what}: {total} Python calls in {len(files)} files")
        for name, count in files.most_common():
            print(f"    {count:4d}  {name}")
    print("\nper recorded op (tracked objects left alive / allocations the collector counted):")
    for op in ("mul", "add", "tanh"):
        alive, counted = tracked_per_op(op)
        print(f"  {op:5s} {alive:5.2f} / {counted:5.2f}")
    print(f"  chain: {tracked_after_collection():.2f} still tracked per op after a collection")
    for what, counts in zip(("forward", "backward"), bytecodes_per_op()):
        print(f"\nbytecodes per op of the 999-op chain, {what}: {sum(counts.values()):.0f}")
        for name, count in counts.most_common(10):
            print(f"    {count:6.1f}  {name}")


if __name__ == "__main__":
    main()
