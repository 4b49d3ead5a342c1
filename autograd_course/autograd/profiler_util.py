"""What the profiler hands back: ``FunctionEvent`` (one timed call), ``FunctionEventAvg`` (the
calls of one name added up), ``EventList`` (a list of either, which can nest its events, print
them as PyTorch's table and write a Chrome trace). PyTorch: ``torch/autograd/profiler_util.py``.

Times are in microseconds. An event's *total* time runs from its start to its end; its *self*
time is the total less its children's totals (the events that ran inside it):

    self_cpu_time_total(e) = cpu_time_total(e) - Σ cpu_time_total(child of e)
"""

from __future__ import annotations

import collections
import json

SPACING = 2  # between the table's columns
COLUMN = 12  # the width of every column but the name and the input shapes


def _format_time(time_us: float) -> str:
    """``1.234s``, ``1.234ms`` or ``1.234us``, as PyTorch's tables print times."""
    if time_us >= 1e6:
        return f"{time_us / 1e6:.3f}s"
    if time_us >= 1e3:
        return f"{time_us / 1e3:.3f}ms"
    return f"{time_us:.3f}us"


def _format_time_share(time_us: float, total_us: float) -> str:
    """``time_us`` as a percentage of ``total_us`` (``NaN`` when the total is 0)."""
    return "NaN" if total_us == 0 else f"{time_us * 100.0 / total_us:.2f}%"


class _TimeStrings:
    """The ``..._str`` forms of the times, shared by ``FunctionEvent`` and the averages."""

    device_time_total = self_device_time_total = 0  # no accelerator kernels are timed here

    @property
    def cpu_time(self) -> float:
        """The average time of one call."""
        return 0.0 if self.count == 0 else self.cpu_time_total / self.count

    cpu_time_str = property(lambda self: _format_time(self.cpu_time))
    cpu_time_total_str = property(lambda self: _format_time(self.cpu_time_total))
    self_cpu_time_total_str = property(lambda self: _format_time(self.self_cpu_time_total))


class Interval:
    """An event's start and end (in microseconds)."""

    def __init__(self, start: float, end: float) -> None:
        self.start, self.end = start, end

    def elapsed_us(self) -> float:
        return self.end - self.start


class FunctionEvent(_TimeStrings):
    """One timed range: an op call (``aten::mul``), a ``record_function`` block, or a node
    run by the backward engine. ``cpu_children``/``cpu_parent`` are filled by
    ``EventList._populate_cpu_children``."""

    def __init__(self, id, name, thread, start_us, end_us, fwd_thread=None, input_shapes=None,
                 stack=None, scope=0, use_device=None, cpu_memory_usage=0,
                 device_memory_usage=0, is_async=False, is_remote=False, sequence_nr=-1,
                 node_id=-1, device_type="cpu", device_index=0, is_legacy=True, **unused):
        self.id, self.node_id, self.name, self.thread = id, node_id, name, thread
        self.time_range = Interval(start_us, end_us)
        self.fwd_thread, self.sequence_nr, self.input_shapes = fwd_thread, sequence_nr, input_shapes
        self.stack, self.scope, self.use_device = stack or [], scope, use_device
        self.cpu_memory_usage, self.device_memory_usage = cpu_memory_usage, device_memory_usage
        self.is_async, self.is_remote, self.is_legacy = is_async, is_remote, is_legacy
        self.device_type, self.device_index = device_type, device_index
        self.cpu_children: list = []
        self.cpu_parent = None
        self.count = 1

    key = property(lambda self: self.name)  # what key_averages groups by

    @property
    def cpu_time_total(self) -> float:
        return self.time_range.elapsed_us()

    @property
    def self_cpu_time_total(self) -> float:
        return self.cpu_time_total - sum(child.cpu_time_total for child in self.cpu_children)

    def append_cpu_child(self, child: FunctionEvent) -> None:
        self.cpu_children.append(child)

    def set_cpu_parent(self, parent: FunctionEvent) -> None:
        self.cpu_parent = parent

    def __repr__(self) -> str:
        return (f"<FunctionEvent id={self.id} name={self.name} node_id={self.node_id} "
                f"cpu_time={self.cpu_time_str} start_us={self.time_range.start} "
                f"end_us={self.time_range.end} "
                f"cpu_children={[child.id for child in self.cpu_children]} "
                f"thread={self.thread} input_shapes={self.input_shapes} "
                f"seq_nr={self.sequence_nr}>")


class FunctionEventAvg(_TimeStrings):
    """The events of one key (name, and input shapes if asked), added up: ``count`` calls,
    ``cpu_time_total`` and ``self_cpu_time_total`` summed, ``cpu_time`` their average."""

    def __init__(self) -> None:
        self.key = self.input_shapes = self.cpu_parent = None
        self.node_id, self.count, self.is_async, self.is_legacy = 0, 0, False, True
        self.cpu_time_total = self.self_cpu_time_total = 0
        self.cpu_children: list = []

    def add(self, other):
        """Add one event (or another average of the same key) in; returns ``self``."""
        if self.key is None:  # the first one sets what the group shares
            self.key, self.node_id, self.input_shapes = other.key, other.node_id, other.input_shapes
            self.cpu_parent, self.is_async = other.cpu_parent, other.is_async
        if not isinstance(other, (FunctionEvent, FunctionEventAvg)) or other.key != self.key:
            raise AssertionError(f"cannot add {other!r} to the average of {self.key!r}")
        self.cpu_time_total += other.cpu_time_total
        self.self_cpu_time_total += other.self_cpu_time_total
        self.count += other.count
        return self

    def __iadd__(self, other):
        return self.add(other)

    def __repr__(self) -> str:
        return (f"<FunctionEventAvg key={self.key} self_cpu_time={self.self_cpu_time_total_str}"
                f" cpu_time={self.cpu_time_str} input_shapes={self.input_shapes}>")


class EventList(list):
    """A list of events, with PyTorch's ways of reading them. ``str()`` is ``table()``."""

    def __init__(self, *args, use_device=None, profile_memory=False, with_flops=False,
                 **unused) -> None:
        super().__init__(*args)
        self._use_device, self._profile_memory, self._with_flops = (
            use_device, profile_memory, with_flops)

    def _populate_cpu_children(self) -> None:
        """Link each event to the innermost event around it on its thread (its parent).

        Per thread, walk the events by start time (the longer first at a tie) with a stack of
        candidate parents: pop those that cannot hold this event (ended before it starts, or
        before it ends); the top of the stack, if any, is then its parent.
        """
        by_thread = collections.defaultdict(list)
        for event in self:
            by_thread[event.thread].append(event)
        for events in by_thread.values():
            events.sort(key=lambda e: (e.time_range.start, -e.time_range.end))
            open_ranges: list = []
            for event in events:
                while open_ranges and not _holds(open_ranges[-1], event):
                    open_ranges.pop()
                if open_ranges:
                    open_ranges[-1].append_cpu_child(event)
                    event.set_cpu_parent(open_ranges[-1])
                open_ranges.append(event)

    @property
    def self_cpu_time_total(self) -> float:
        return sum(event.self_cpu_time_total for event in self)

    def key_averages(self, group_by_input_shape: bool = False, group_by_stack_n: int = 0,
                     group_by_overload_name: bool = False) -> EventList:
        """One ``FunctionEventAvg`` per name (and per input shapes, if asked), in the order
        the names first appear."""
        groups: dict = collections.defaultdict(FunctionEventAvg)
        for event in self:
            key = (event.key, str(event.input_shapes) if group_by_input_shape else None)
            groups[key].add(event)
        return EventList(groups.values(), use_device=self._use_device)

    def total_average(self) -> FunctionEventAvg:
        """All the events added up, under the key ``Total``."""
        total = FunctionEventAvg()
        for event in self:
            total.cpu_time_total += event.cpu_time_total
            total.self_cpu_time_total += event.self_cpu_time_total
            total.count += event.count
        total.key = "Total"
        return total

    def export_chrome_trace(self, path: str) -> None:
        """Write the events as a Chrome trace (JSON; open it in chrome://tracing or Perfetto):
        one complete event ("ph": "X") per range, its start and duration in microseconds."""
        trace = [{"name": e.name, "ph": "X", "cat": "cpu_op", "ts": e.time_range.start,
                  "dur": e.cpu_time_total, "pid": "CPU functions", "tid": e.thread,
                  "args": {"Input Dims": e.input_shapes or [], "Sequence number": e.sequence_nr}}
                 for e in self if isinstance(e, FunctionEvent)]
        with open(path, "w") as f:
            json.dump({"traceEvents": trace}, f)

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75,
              max_name_column_width=55, max_shapes_column_width=80, header=None,
              top_level_events_only=False) -> str:
        """PyTorch's table of the events: name, self and total CPU time (and their share of
        the sum of all self times), average time, number of calls, and the input shapes when
        any were recorded. ``sort_by`` names an attribute (largest first); ``row_limit`` -1:
        every row; ``top_level_events_only``: only events without a parent."""
        return _build_table(self, sort_by, row_limit, max_name_column_width,
                            max_shapes_column_width, header, top_level_events_only)

    def __str__(self) -> str:
        return self.table()


def _holds(parent: FunctionEvent, event: FunctionEvent) -> bool:
    """Does ``event`` (starting no earlier than ``parent``) run inside ``parent``?"""
    return event.time_range.start < parent.time_range.end and (
        event.time_range.end <= parent.time_range.end)


def _build_table(events, sort_by, row_limit, max_name_width, max_shapes_width, header,
                 top_level_only) -> str:
    """The table ``EventList.table`` prints (the layout of PyTorch's ``_build_table``)."""
    if not events:
        return ""
    total = sum(event.self_cpu_time_total for event in events)  # the shares are of this
    with_shapes = any(event.input_shapes for event in events)
    name_width = min(max(len(event.key) for event in events) + 4, max_name_width)
    shapes_width = min(max(len(str(event.input_shapes)) for event in events) + 4,
                       max_shapes_width)
    headers = ["Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg",
               "# of Calls"] + (["Input Shapes"] if with_shapes else [])
    widths = [name_width] + [COLUMN] * 6 + ([shapes_width] if with_shapes else [])
    row_format = "".join("{: >" + str(w) + "}" + " " * SPACING for w in widths)
    separator = "".join("-" * w + " " * SPACING for w in widths)
    line_length = sum(widths) + SPACING * (len(widths) - 1)

    if sort_by is not None:
        events = sorted(events, key=lambda event: getattr(event, sort_by), reverse=True)
    if top_level_only:
        events = [event for event in events if event.cpu_parent is None]
    if row_limit > 0:
        events = events[:row_limit]

    lines = []
    if header is not None:
        lines += ["=" * line_length, header]
    if top_level_only:
        lines += ["=" * line_length, "This report only display top-level ops statistics"]
    lines += [separator, row_format.format(*headers), separator]
    for event in events:
        name = event.key
        if len(name) >= max_name_width - 3:
            name = name[:max_name_width - 3] + "..."
        row = [name, _format_time_share(event.self_cpu_time_total, total),
               event.self_cpu_time_total_str, _format_time_share(event.cpu_time_total, total),
               event.cpu_time_total_str, event.cpu_time_str, event.count]
        if with_shapes:
            row.append(str(event.input_shapes)[:shapes_width])
        lines.append(row_format.format(*row))
    lines += [separator, f"Self CPU time total: {_format_time(total)}"]
    return "\n".join(lines) + "\n"
