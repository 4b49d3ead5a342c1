"""``ag.autograd.profiler``: time what a block of code runs, as ``torch.autograd.profiler``.

    with profile(record_shapes=True) as prof:
        y = x * 2 + 4
    print(prof.table(sort_by="self_cpu_time_total"))

While a ``profile`` block runs, every call of a built-in op is one event, named as PyTorch's
operator (``aten::mul``), with its input shapes when ``record_shapes=True``; so is every
``record_function("name")`` block, and every node the backward engine runs (PyTorch's two
events: ``autograd::engine::evaluate_function: MulBackward0`` around ``MulBackward0``). An
event that starts and ends inside another is its child, so an op called by another op, or
inside a ``record_function`` block or a backward node, nests under it.

What it cannot do: there are no kernels here, so no device times and no ``aten::empty`` or
``aten::copy_`` events for the memory an op allocates; ops that are not ``Function`` calls
(creating tensors, comparisons) are not events; and the times are Python's (``perf_counter``),
so they include the interpreter's overhead. Kineto, PyTorch's tracing library, is not used
(``kineto_available()`` is False; ``use_kineto=True`` is refused).

The recording costs nothing when no profile runs but one flag check: ``state.enabled``, read
where a built-in op is applied (``function.py``) and where the engine runs a node.
"""

from __future__ import annotations

import contextlib
import functools
import re
import threading
import time

from ..tensor_base import TensorBase
from .profiler_util import EventList, FunctionEvent, FunctionEventAvg, _format_time  # noqa: F401


class _State:
    """Is a ``profile`` block running? And the ranges each running profile collects."""

    enabled = False  # the one flag the recording hooks read
    record_shapes = False
    collecting: list = []  # one list of _Range per running profile (nested profiles: several)


state = _State()


class _Range:
    """One timed range while it is recorded (times in ns of ``perf_counter_ns``)."""

    def __init__(self, name: str, inputs: tuple, sequence_nr: int) -> None:
        self.name, self.sequence_nr = name, sequence_nr
        self.input_shapes = _shapes(inputs) if state.record_shapes else []
        self.thread = threading.get_ident()
        self.end = None
        self.start = time.perf_counter_ns()
        for ranges in state.collecting:
            ranges.append(self)

    def close(self) -> None:
        self.end = time.perf_counter_ns()


def _shapes(inputs: tuple) -> list:
    """Per input, its shape as a list (``[]`` for what is not a tensor), as PyTorch's."""
    return [list(a._data.shape) if isinstance(a, TensorBase) else [] for a in inputs]


@contextlib.contextmanager
def _timed(name: str, inputs: tuple = (), sequence_nr: int = -1):
    """Record the block as one range, even when it raises."""
    timed = _Range(name, inputs, sequence_nr)
    try:
        yield
    finally:
        timed.close()


# --- the hooks: called only while state.enabled ---------------------------------------------
# a node's name is "<Op>Backward<N>"; these ops are not the snake case of <Op>
_ATEN_EXCEPTIONS = {"ToCopy": "to", "Copy": "copy_", "UnsafeView": "_unsafe_view",
                    "ReshapeAlias": "reshape"}


@functools.cache
def aten_name(cls) -> str:
    """The operator name of a built-in ``Function``, from its node's name in one rule:
    ``MulBackward0`` -> ``aten::mul``, ``MaxPool2DWithIndicesBackward0`` ->
    ``aten::max_pool2d_with_indices`` (snake case; a few exceptions above); an in-place form
    (``Mul_``) adds ``_``: ``aten::mul_``. A node not named ``...Backward<N>``
    (``NotImplemented``) gives the Function's class name in snake case."""
    found = re.fullmatch(r"(\w+?)Backwards?\d*(?:_copy)?", cls.node_name)
    op = found.group(1) if found else cls.__name__
    name = _ATEN_EXCEPTIONS.get(op) or re.sub(r"(?<=[a-z])(?=[A-Z])|(?<=\dD)(?=[A-Z])", "_",
                                              op).lower()
    in_place = cls.__name__.endswith("_")  # x.mul_(y): Mul_, made by ops/in_place_form.py
    return f"aten::{name}_" if in_place and not name.endswith("_") else f"aten::{name}"


def record_op(cls, args: tuple, run):
    """``run(cls, args)`` (a built-in op's apply) as one event named ``aten_name(cls)``."""
    with _timed(aten_name(cls), args):
        return run(cls, args)


def record_node(node, grads: list) -> list:
    """``node.apply(grads)`` in the backward engine, as PyTorch's two events."""
    name, number = node.name(), node.sequence_nr
    if name == "GraphRoot":  # the engine's own start (PyTorch's starts at the loss's node)
        return node.apply(grads)
    number = -1 if number >= 2**63 else number  # AccumulateGrad's (the largest): none
    with _timed(f"autograd::engine::evaluate_function: {name}", (), number):
        with _timed(name, grads, number):
            return node.apply(grads)


def recorded_as(name: str):
    """Decorate a public function built from several ops (``F.linear``) so that a call is
    one event ``name`` around the events of those ops, as it is one operator in PyTorch."""
    def decorate(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            if not state.enabled:
                return fn(*args, **kwargs)
            with _timed(name, args):
                return fn(*args, **kwargs)
        return wrapper
    return decorate


# --- the public API ------------------------------------------------------------------------
def kineto_available() -> bool:
    """False: Kineto is PyTorch's C++ tracing library; this package times ops in Python."""
    return False


def _profiler_enabled() -> bool:
    """Is a ``profile`` block running?"""
    return state.enabled


class record_function(contextlib.ContextDecorator):
    """Mark a block (or, as a decorator, every call of a function) as one event ``name``;
    the ops run inside it become its children. Outside a ``profile`` it does nothing."""

    def __init__(self, name: str, args: str | None = None) -> None:
        self.name, self.args = name, args
        self.run_callbacks_on_exit = True
        self._open: list = []  # the ranges entered and not yet exited (a decorated recursion)

    def __enter__(self):
        self._open.append(_Range(self.name, (), -1) if state.enabled else None)
        return self

    def __exit__(self, *exc_info) -> bool:
        timed = self._open.pop() if self._open else None
        if timed is not None:
            timed.close()
        return False


def _record_function_enter(name: str, args: str | None = None) -> record_function:
    """``torch.ops.profiler._record_function_enter``: enter a ``record_function``; the
    handle it returns is given to ``_record_function_exit``."""
    return record_function(name, args).__enter__()


def _record_function_exit(handle: record_function) -> None:
    handle.__exit__(None, None, None)


_record_function_enter_new = _record_function_enter


class profile:
    """Record the events of the block (see the module's docstring). After the block:
    ``function_events`` (an ``EventList``, by start time), ``table()``, ``key_averages()``,
    ``self_cpu_time_total``, ``export_chrome_trace(path)``; ``str(prof)`` is ``prof.table()``.
    """

    def __init__(self, enabled: bool = True, *, use_cuda: bool = False, use_device=None,
                 record_shapes: bool = False, with_flops: bool = False,
                 profile_memory: bool = False, with_stack: bool = False,
                 with_modules: bool = False, use_kineto: bool = False, use_cpu: bool = True,
                 **unused) -> None:
        if use_kineto:
            raise RuntimeError("use_kineto=True needs Kineto, PyTorch's C++ tracing library, "
                               "which this package does not have (kineto_available() is False)")
        if use_cuda or use_device not in (None, "cpu"):
            raise RuntimeError("this profiler times CPU work only (there are no device kernels)")
        self.enabled, self.record_shapes, self.use_cpu = enabled, record_shapes, use_cpu
        self.use_device, self.use_kineto = use_device, use_kineto
        # accepted and kept, but nothing here counts flops or memory, or keeps stacks or modules
        self.with_flops, self.profile_memory = with_flops, profile_memory
        self.with_stack, self.with_modules = with_stack, with_modules
        self.entered = False
        self.function_events = None  # an EventList once the block has ended
        self._ranges: list = []

    def __enter__(self):
        if not self.enabled:
            return self
        if self.entered:
            raise RuntimeError("Profiler context manager is not reentrant")
        self.entered = True
        self._shapes_before = state.record_shapes
        state.record_shapes = state.record_shapes or self.record_shapes
        state.collecting = state.collecting + [self._ranges]
        state.enabled = True
        self._start = time.perf_counter_ns()
        return self

    def __exit__(self, *exc_info) -> bool:
        if not self.enabled:
            return False
        state.collecting = [r for r in state.collecting if r is not self._ranges]
        state.enabled = bool(state.collecting)
        state.record_shapes = self._shapes_before
        self.function_events = self._events()
        return False

    def _events(self) -> EventList:
        """The closed ranges as ``FunctionEvent``s, numbered by start time, nested."""
        ranges = sorted((r for r in self._ranges if r.end is not None),
                        key=lambda r: (r.start, -r.end))
        events = EventList(
            [FunctionEvent(id=i, name=r.name, thread=r.thread, start_us=(r.start - self._start)
                           / 1000, end_us=(r.end - self._start) / 1000,
                           input_shapes=r.input_shapes, sequence_nr=r.sequence_nr)
             for i, r in enumerate(ranges, start=1)])
        events._populate_cpu_children()
        return events

    def _finished(self) -> EventList:
        if self.function_events is None:
            raise RuntimeError("Profiler didn't finish running")
        return self.function_events

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75,
              max_name_column_width=55, max_shapes_column_width=80, header=None,
              top_level_events_only=False) -> str:
        return self._finished().table(sort_by, row_limit, max_src_column_width,
                                      max_name_column_width, max_shapes_column_width, header,
                                      top_level_events_only)

    def key_averages(self, group_by_input_shape: bool = False, group_by_stack_n: int = 0,
                     group_by_overload_name: bool = False) -> EventList:
        return self._finished().key_averages(group_by_input_shape, group_by_stack_n)

    def total_average(self) -> FunctionEventAvg:
        return self._finished().total_average()

    def export_chrome_trace(self, path: str) -> None:
        self._finished().export_chrome_trace(path)

    @property
    def self_cpu_time_total(self) -> float:
        """The sum of every event's self time: the time the profiled events took."""
        return self._finished().self_cpu_time_total

    def __str__(self) -> str:
        return self.table()

    def __repr__(self) -> str:
        return "<unfinished torch.autograd.profile>" if self.function_events is None else repr(
            self.function_events)
