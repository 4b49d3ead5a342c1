"""The floor under issue 34's targets: how fast can a core in plain Python be at all?

    python3 benchmarks/floor.py            # the 999-op chain, 15 rounds
    python3 benchmarks/floor.py --n 100000 --rounds 3
    python3 benchmarks/floor.py --n 100000 --rounds 3 --gc-paused   # without the collector
    python3 benchmarks/floor.py --n 100000 --rounds 3 --freeze      # gc.freeze() after imports
    python3 benchmarks/floor.py --objects  # tracked objects per op of each core, no timing

Issue 34 measured "a plain ~100-line core with PyTorch's shape" (the ctx is the node, stored
``next_functions``, ``AccumulateGrad`` a node, the heap order, a version field) at about half
of PyTorch's time on the benchmark chain. This script builds such a core (``build(0)``, a
measuring instrument, not part of the course), then adds, one level at a time, the per-op
behaviours of PyTorch that our tests pin, each written as plainly as it can be:

0. the plain core: a Python number is used as it is; ``save_for_backward`` keeps a tuple;
   saved tensors are let go once a node has run (PyTorch's ``retain_graph=False``);
1. a Python number operand becomes a 0-d tensor of the tensor's dtype (PyTorch's wrapped
   number, which ``MulBackward0`` saves as ``_saved_other``);
2. saved tensors kept in records that check the tensor's version when unpacked (PyTorch's
   ``SavedVariable`` and its "modified by an inplace operation" error);
3. every gradient a backward returns checked against its input's shape and dtype, which the
   producer's node keeps (PyTorch's ``validate_outputs`` and ``input_metadata``);
4. per node, the engine asks whether it has hooks and whether anomaly mode is on, and checks
   that backward returned one gradient per input.

Levels 0-4 all store the graph the way ``autograd_course`` did when they were written: a
``next_functions`` tuple of ``(node, nr)`` pairs, a tuple of records for the saved tensors,
a 0-d tensor for a number operand. Level 5 (``build_compact()``) keeps level 4's behaviours
and stores the graph as PyTorch's C++ does: the node holds its edges as plain fields and
builds ``next_functions`` when it is read; a saved tensor and its version are fields of the
node (a saved output as its array and version counter, no record object); a number operand
stays a 0-d array and becomes a tensor only when backward reads it. ``--objects`` prints, per
core, how many objects per op the collector still tracks after a collection (what every full
collection walks), and ``--freeze`` calls ``gc.freeze()`` once everything is imported, so that
no collection walks PyTorch's and NumPy's own objects (the benchmark process holds them).

Each level runs the chain of ``benchmarks/workloads.py`` (``h * 1.01``, ``h + 0.1``,
``tanh``, then ``.sum().backward()``) in the same process as PyTorch and ``autograd_course``,
taking turns, each run after a full collection (so that none pays for another's garbage); its
gradient is checked against ours. See benchmarks/README.md ("the floor").
"""

from __future__ import annotations

import argparse
import gc
import heapq
import itertools
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # workloads.py imports this checkout's autograd_course
sys.path.insert(0, HERE)

import workloads as W  # noqa: E402

LEVELS = 5  # levels 0-4 from build(); level 5 is build_compact()


def build(level: int):
    """The ``Tensor`` class of a minimal core with the behaviours of levels 0..``level``."""
    wrap, records, validate, checks = level >= 1, level >= 2, level >= 3, level >= 4
    sequence = itertools.count()

    class State:
        grad_enabled = True
        anomaly = False

    class Tensor:
        __slots__ = ("data", "requires_grad", "grad_fn", "output_nr", "grad", "version", "acc")

        def __init__(self, data, requires_grad=False):
            self.data, self.requires_grad, self.grad_fn = data, requires_grad, None
            self.output_nr, self.grad, self.version, self.acc = 0, None, 0, None

        def _operand(self, other):
            if wrap and not isinstance(other, Tensor):
                return Tensor(np.asarray(other, dtype=self.data.dtype))
            return other

        def __mul__(self, other):
            return Mul.apply(self, self._operand(other))

        def __add__(self, other):
            return Add.apply(self, self._operand(other))

        def tanh(self):
            return Tanh.apply(self)

        def sum(self):
            return Sum.apply(self)

        def backward(self):
            run_backward(self)

    class Node:
        next_functions = ()
        sequence_nr = 0
        hooked = False
        saved = ()

        def __lt__(self, other):  # the ready heap runs the larger sequence number first
            return self.sequence_nr > other.sequence_nr

    class AccumulateGrad(Node):
        def __init__(self, variable):
            self.variable, self.sequence_nr = variable, 2**64 - 1
            self.meta = ((variable.data.shape, variable.data.dtype),)

        def apply(self, grads):
            leaf = self.variable
            if leaf.grad is None:
                leaf.grad = Tensor(grads[0].data.copy())
            else:
                leaf.grad.data += grads[0].data
            return ()

    def edge(t):
        if not isinstance(t, Tensor):
            return None
        if t.grad_fn is not None:
            return (t.grad_fn, t.output_nr)
        if not t.requires_grad:
            return (None, 0)
        if t.acc is None:
            t.acc = AccumulateGrad(t)
        return (t.acc, 0)

    class Saved:
        __slots__ = ("tensor", "version")

        def __init__(self, tensor):
            self.tensor, self.version = tensor, tensor.version

        def unpack(self):
            if self.tensor.version != self.version:
                raise RuntimeError("modified by an inplace operation")
            return self.tensor

    class Ctx(Node):
        def save_for_backward(self, *tensors):
            self.saved = tuple([Saved(t) for t in tensors]) if records else tensors

        @property
        def saved_tensors(self):
            return tuple([s.unpack() for s in self.saved]) if records else self.saved

        def apply(self, grads):
            result = self.function.backward(self, *grads)
            result = result if isinstance(result, tuple) else (result,)
            if checks and len(result) != len(self.next_functions):
                raise RuntimeError("wrong number of gradients")
            if validate:
                for grad, e in zip(result, self.next_functions):
                    if grad is not None and e is not None and e[0] is not None:
                        shape, dtype = e[0].meta[e[1]]
                        if grad.data.shape != shape or grad.data.dtype != dtype:
                            raise RuntimeError("invalid gradient")
            return result

    class Function:
        def __init_subclass__(cls):
            cls.Node = type(cls.__name__ + "Backward0", (Ctx,), {"function": cls})

        @classmethod
        def apply(cls, *args):
            ctx = cls.Node()
            needs = tuple([isinstance(a, Tensor) and a.requires_grad for a in args])
            ctx.needs_input_grad = needs
            enabled = State.grad_enabled
            State.grad_enabled = False
            try:
                out = cls.forward(ctx, *args)
            finally:
                State.grad_enabled = enabled
            if enabled and True in needs:
                ctx.sequence_nr = next(sequence)
                ctx.next_functions = tuple([edge(a) for a in args])
                if validate:  # the output's (shape, dtype), shared with an input's if equal
                    meta = (out.data.shape, out.data.dtype)
                    for e in ctx.next_functions:
                        if e is not None and e[0] is not None and e[0].meta[e[1]] == meta:
                            meta = e[0].meta[e[1]]
                            break
                    ctx.meta = (meta,)
                out.requires_grad, out.grad_fn = True, ctx
            return out

    class Mul(Function):
        @staticmethod
        def forward(ctx, a, b):
            if isinstance(b, Tensor):
                ctx.save_for_backward(b)
                return Tensor(a.data * b.data)
            ctx.other = b
            return Tensor(a.data * b)

        @staticmethod
        def backward(ctx, grad):
            other = ctx.saved_tensors[0] if ctx.saved else ctx.other
            return grad * other, None

    class Add(Function):
        @staticmethod
        def forward(ctx, a, b):
            return Tensor(a.data + (b.data if isinstance(b, Tensor) else b))

        @staticmethod
        def backward(ctx, grad):
            return grad, None

    class Tanh(Function):
        @staticmethod
        def forward(ctx, x):
            y = Tensor(np.tanh(x.data))
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, grad):
            (y,) = ctx.saved_tensors
            return TanhBackward.apply(grad, y)

    class TanhBackward(Function):
        @staticmethod
        def forward(ctx, grad, y):
            return Tensor(grad.data * (1 - y.data * y.data))

    class Sum(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.shape = x.data.shape
            return Tensor(np.asarray(x.data.sum()))

        @staticmethod
        def backward(ctx, grad):
            return Tensor(np.broadcast_to(grad.data, ctx.shape))

    class Root(Node):
        def __init__(self, tensor):
            self.next_functions = (edge(tensor),)

        def apply(self, grads):
            return grads

    def run_backward(tensor):
        root = Root(tensor)
        dependencies, stack = {}, [root]
        while stack:
            for e in stack.pop().next_functions:
                if e is None or e[0] is None:
                    continue
                if e[0] in dependencies:
                    dependencies[e[0]] += 1
                else:
                    dependencies[e[0]] = 1
                    stack.append(e[0])
        buffers = {root: [Tensor(np.ones_like(tensor.data))]}
        ready = [root]
        State.grad_enabled = False
        try:
            while ready:
                node = heapq.heappop(ready)
                grads = buffers.pop(node)
                if checks and (node.hooked or State.anomaly):
                    raise NotImplementedError("no hooks or anomaly mode in this core")
                grad_inputs = node.apply(grads)
                node.saved = ()  # retain_graph=False: saved tensors go once the node ran
                for grad, e in zip(grad_inputs, node.next_functions):
                    if grad is None or e is None or e[0] is None:
                        continue
                    child = e[0]
                    dependencies[child] -= 1
                    slots = buffers.get(child)
                    if slots is None:
                        buffers[child] = [grad]
                    else:
                        slots[0] = Tensor(slots[0].data + grad.data)
                    if dependencies[child] == 0:
                        heapq.heappush(ready, child)
        finally:
            State.grad_enabled = True

    return Tensor


def build_compact():
    """Level 5: level 4's behaviours, the graph stored as PyTorch's C++ stores it."""
    sequence = itertools.count()

    class State:
        grad_enabled = True
        anomaly = False

    class VersionCounter:  # c10::VariableVersion, made when a saved output needs it
        __slots__ = ("value",)

        def __init__(self):
            self.value = 0

    class Tensor:
        __slots__ = ("data", "requires_grad", "grad_fn", "output_nr", "grad", "counter", "acc")

        def __init__(self, data, requires_grad=False):
            self.data, self.requires_grad, self.grad_fn = data, requires_grad, None
            self.output_nr, self.grad, self.counter, self.acc = 0, None, None, None

        @property
        def version(self):
            return 0 if self.counter is None else self.counter.value

        def _operand(self, other):  # a wrapped number: a 0-d array of the tensor's dtype
            return other if isinstance(other, Tensor) else np.asarray(other, self.data.dtype)

        def __mul__(self, other):
            return Mul.apply(self, self._operand(other))

        def __add__(self, other):
            return Add.apply(self, self._operand(other))

        def tanh(self):
            return Tanh.apply(self)

        def sum(self):
            return Sum.apply(self)

        def backward(self):
            run_backward(self)

    class Node:
        # the edges, as fields (every op of this core has one or two inputs)
        next0 = next1 = None
        nr0 = nr1 = 0
        inputs = 0
        sequence_nr = 0
        hooked = False
        meta = None  # the output's (shape, dtype)

        @property
        def next_functions(self):  # built when read, as PyTorch's binding builds it
            return ((self.next0, self.nr0), (self.next1, self.nr1))[:self.inputs]

        def __lt__(self, other):
            return self.sequence_nr > other.sequence_nr

    class AccumulateGrad(Node):
        def __init__(self, variable):
            self.variable, self.sequence_nr = variable, 2**64 - 1
            self.meta = (variable.data.shape, variable.data.dtype)

        def apply(self, grads):
            leaf = self.variable
            if leaf.grad is None:
                leaf.grad = Tensor(grads[0].data.copy())
            else:
                leaf.grad.data += grads[0].data
            return ()

    def edge(t):
        if not isinstance(t, Tensor):
            return (None, 0)
        if t.grad_fn is not None:
            return (t.grad_fn, t.output_nr)
        if not t.requires_grad:
            return (None, 0)
        if t.acc is None:
            t.acc = AccumulateGrad(t)
        return (t.acc, 0)

    class Ctx(Node):
        # the saved tensor (every op of this core saves at most one), as fields
        to_save = saved = counter = None
        version = 0

        def save_for_backward(self, tensor):
            self.to_save = tensor

        def keep_saved(self, output):
            t, self.to_save = self.to_save, None
            if t is output:  # an output: its array and counter (the tensor would be a cycle)
                if t.counter is None:
                    t.counter = VersionCounter()
                self.saved, self.counter, self.version = t.data, t.counter, t.counter.value
            elif isinstance(t, Tensor):
                self.saved, self.version = t, t.version
            else:
                self.saved = t  # a wrapped number's 0-d array: nothing can change it

        @property
        def saved_tensors(self):
            s = self.saved
            if isinstance(s, Tensor):
                if s.version != self.version:
                    raise RuntimeError("modified by an inplace operation")
                return (s,)
            if self.counter is None:
                return (Tensor(s),)  # a wrapped number, made a tensor now
            if self.counter.value != self.version:
                raise RuntimeError("modified by an inplace operation")
            out = Tensor(s, requires_grad=True)
            out.grad_fn, out.counter = self, self.counter
            return (out,)

        def apply(self, grads):
            result = self.function.backward(self, *grads)
            result = result if isinstance(result, tuple) else (result,)
            if len(result) != self.inputs:
                raise RuntimeError("wrong number of gradients")
            for grad, child in zip(result, (self.next0, self.next1)):
                if grad is not None and child is not None:
                    shape, dtype = child.meta
                    if grad.data.shape != shape or grad.data.dtype != dtype:
                        raise RuntimeError("invalid gradient")
            return result

    class Function:
        def __init_subclass__(cls):
            cls.Node = type(cls.__name__ + "Backward0", (Ctx,), {"function": cls})

        @classmethod
        def apply(cls, *args):
            ctx = cls.Node()
            needs = tuple([isinstance(a, Tensor) and a.requires_grad for a in args])
            ctx.needs_input_grad = needs
            enabled = State.grad_enabled
            State.grad_enabled = False
            try:
                out = cls.forward(ctx, *args)
            finally:
                State.grad_enabled = enabled
            if enabled and True in needs:
                ctx.sequence_nr = next(sequence)
                ctx.inputs = len(args)
                ctx.next0, ctx.nr0 = edge(args[0])
                if len(args) > 1:
                    ctx.next1, ctx.nr1 = edge(args[1])
                meta = (out.data.shape, out.data.dtype)
                for child in (ctx.next0, ctx.next1):  # shared with an input's if equal
                    if child is not None and child.meta == meta:
                        meta = child.meta
                        break
                ctx.meta = meta
                out.requires_grad, out.grad_fn = True, ctx
                if ctx.to_save is not None:
                    ctx.keep_saved(out)
            return out

    def data_of(operand):
        return operand.data if isinstance(operand, Tensor) else operand

    class Mul(Function):
        @staticmethod
        def forward(ctx, a, b):
            ctx.save_for_backward(b)
            return Tensor(a.data * data_of(b))

        @staticmethod
        def backward(ctx, grad):
            (other,) = ctx.saved_tensors
            return grad * other, None

    class Add(Function):
        @staticmethod
        def forward(ctx, a, b):
            return Tensor(a.data + data_of(b))

        @staticmethod
        def backward(ctx, grad):
            return grad, None

    class Tanh(Function):
        @staticmethod
        def forward(ctx, x):
            y = Tensor(np.tanh(x.data))
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, grad):
            (y,) = ctx.saved_tensors
            return TanhBackward.apply(grad, y)

    class TanhBackward(Function):
        @staticmethod
        def forward(ctx, grad, y):
            return Tensor(grad.data * (1 - y.data * y.data))

    class Sum(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.shape = x.data.shape  # a plain tuple
            return Tensor(np.asarray(x.data.sum()))

        @staticmethod
        def backward(ctx, grad):
            return Tensor(np.broadcast_to(grad.data, ctx.shape))

    class Root(Node):
        def __init__(self, tensor):
            self.next0, self.nr0 = edge(tensor)
            self.inputs = 1

        def apply(self, grads):
            return grads

    def run_backward(tensor):
        root = Root(tensor)
        dependencies, stack = {}, [root]
        while stack:
            node = stack.pop()
            for child in (node.next0, node.next1):
                if child is None:
                    continue
                if child in dependencies:
                    dependencies[child] += 1
                else:
                    dependencies[child] = 1
                    stack.append(child)
        buffers = {root: [Tensor(np.ones_like(tensor.data))]}
        ready = [root]
        State.grad_enabled = False
        try:
            while ready:
                node = heapq.heappop(ready)
                grads = buffers.pop(node)
                if node.hooked or State.anomaly:
                    raise NotImplementedError("no hooks or anomaly mode in this core")
                grad_inputs = node.apply(grads)
                node.saved = node.counter = None  # retain_graph=False
                for grad, child in zip(grad_inputs, (node.next0, node.next1)):
                    if grad is None or child is None:
                        continue
                    dependencies[child] -= 1
                    slots = buffers.get(child)
                    if slots is None:
                        buffers[child] = [grad]
                    else:
                        slots[0] = Tensor(slots[0].data + grad.data)
                    if dependencies[child] == 0:
                        heapq.heappush(ready, child)
        finally:
            State.grad_enabled = True

    return Tensor


def chain(tensor_cls, x0, n):
    def run():
        x = tensor_cls(x0.copy(), requires_grad=True)
        W.chain_generic(x, n, lambda h: h.tanh()).sum().backward()
        return x.grad.data

    return run


def tracked_per_op(forward, n) -> float:
    """Objects per op of a recorded chain the collector still tracks after a full collection
    (a tuple of numbers only is untracked then): what every later full collection walks."""
    gc.collect()
    before = len(gc.get_objects())
    out = forward()
    gc.collect()
    alive = (len(gc.get_objects()) - before) / n
    del out
    return alive


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=999, help="ops in the chain")
    parser.add_argument("--rounds", type=int, default=15, help="runs of each, taking turns")
    parser.add_argument("--threads", type=int, default=1, help="PyTorch's threads")
    parser.add_argument("--gc-paused", action="store_true",
                        help="pause the cyclic collector during each timed run")
    parser.add_argument("--freeze", action="store_true",
                        help="gc.freeze() once everything is imported and built")
    parser.add_argument("--objects", action="store_true",
                        help="print the tracked objects per op of each core, then stop")
    args = parser.parse_args()
    import torch

    torch.set_num_threads(args.threads)
    size = 100 if args.n <= 1000 else 1  # as benchmarks/run.py: (100,) for 1,000, (1,) beyond
    x0 = np.random.default_rng(0).standard_normal(size).astype(np.float32)
    runs = {"torch": W.chain_torch(torch, x0, args.n), "ours": W.chain_ours(x0, args.n)}
    cores = {f"level {level}": build(level) for level in range(LEVELS)}
    cores[f"level {LEVELS}"] = build_compact()
    for name, tensor_cls in cores.items():
        runs[name] = chain(tensor_cls, x0, args.n)
    if args.objects:
        forwards = {"ours": lambda: W.chain_generic(W.ag.tensor(x0, requires_grad=True),
                                                     args.n, W.ag.tanh)}
        for name, cls in cores.items():
            forwards[name] = (lambda cls=cls: W.chain_generic(
                cls(x0.copy(), requires_grad=True), args.n, lambda h: h.tanh()))
        print(f"objects the collector tracks per op of a {args.n:,}-op chain, after a collection")
        for name, forward in forwards.items():
            print(f"  {name:8s} {tracked_per_op(forward, args.n):5.2f}")
        return
    if args.freeze:  # the objects alive now (PyTorch's, NumPy's, ours) are never walked again
        gc.collect()
        gc.freeze()
    expected = runs["ours"]().numpy()
    for name, fn in runs.items():
        got = fn()
        got = got.numpy() if hasattr(got, "numpy") else got
        if not np.allclose(got, expected, rtol=1e-4, atol=1e-6):
            raise SystemExit(f"{name}: the gradient differs from autograd_course's")
    times = {name: [] for name in runs}
    for _ in range(args.rounds):
        for name, fn in runs.items():
            gc.collect()  # each run starts with the collector in the same state
            if args.gc_paused:
                gc.disable()
            start = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
            gc.enable()
    reference = np.median(times["torch"])
    paused = ", collector paused" if args.gc_paused else ""
    paused += ", gc.freeze() after the imports" if args.freeze else ""
    print(f"chain of {args.n:,} ops on ({size},), forward + backward; medians of {args.rounds}"
          f"{paused}")
    for name, ts in times.items():
        median = np.median(ts)
        print(f"  {name:8s} {median * 1e3:9.2f} ms  {median / reference:5.2f}x PyTorch")


if __name__ == "__main__":
    main()
