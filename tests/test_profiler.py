"""``autograd.profiler``: the events it records, named as PyTorch's profiler names them, their
nesting and times, ``record_function``, the tables and the Chrome trace. What PyTorch's own
profiler tests of ``TestAutograd`` check (test_profiler, test_profiler_shapes,
test_record_function, test_profiler_aggregation_table...) is checked here in our words, with
torch's profiler as the oracle for the names."""

from __future__ import annotations

import json
import time

import numpy as np
import pytest

import autograd_course as ac
from autograd_course.autograd import profiler
from autograd_course.autograd.profiler_util import (
    EventList,
    FunctionEvent,
    FunctionEventAvg,
    _format_time,
)
from autograd_course.ops import profiler as ops_profiler

# code that is one operator in both libraries: the top-level events must be the same names
SAME_OPERATOR = {
    "mul": lambda m, x, w: x * 2, "add": lambda m, x, w: x + 4, "sub": lambda m, x, w: x - 1,
    "div": lambda m, x, w: x / 3, "rsub": lambda m, x, w: 1 - x, "pow": lambda m, x, w: x ** 2,
    "exp": lambda m, x, w: x.exp(), "log1p": lambda m, x, w: x.abs().log1p(),
    "tanh": lambda m, x, w: x.tanh(), "relu": lambda m, x, w: x.relu(),
    "softmax": lambda m, x, w: x.softmax(0), "log_softmax": lambda m, x, w: x.log_softmax(1),
    "sum": lambda m, x, w: x.sum(1), "mean": lambda m, x, w: x.mean(),
    "t": lambda m, x, w: x.t(), "view": lambda m, x, w: x.view(12),
    "select": lambda m, x, w: x[0], "slice": lambda m, x, w: x[:, 1:],
    "cat": lambda m, x, w: m.cat([x, x]), "stack": lambda m, x, w: m.stack([x, x]),
    "permute": lambda m, x, w: x.permute(1, 0), "clamp": lambda m, x, w: x.clamp(0, 1),
    "mul_": lambda m, x, w: x.clone().mul_(2), "max": lambda m, x, w: x.max(),
    "linear": lambda m, x, w: m.nn.functional.linear(x, w),
    "einsum": lambda m, x, w: m.einsum("ij->", x),
}
# code PyTorch runs as a composite operator around the one this package calls directly:
# each of our events is still one of torch's (e.g. matmul: aten::mm, inside aten::matmul)
COMPOSITE_IN_TORCH = {
    "reshape": lambda m, x, w: x.reshape(12), "matmul": lambda m, x, w: x @ w.t(),
    "chunk": lambda m, x, w: x.chunk(2, 1),
    "max_pool2d": lambda m, x, w: m.nn.functional.max_pool2d(x.reshape(1, 1, 3, 4), 2),
}


def _event_names(m, profiler_module, code):
    """(top-level names, all names) of the events of ``code`` on library ``m``."""
    x = m.tensor(np.arange(12.0).reshape(3, 4) / 10 - 0.5, requires_grad=True)
    w = m.tensor(np.ones((5, 4)) / 4)
    with profiler_module.profile() as prof:
        code(m, x, w)
    events = prof.function_events
    return [e.name for e in events if e.cpu_parent is None], [e.name for e in events]


@pytest.mark.parametrize("name", sorted(SAME_OPERATOR))
def test_op_events_are_named_as_torchs(name, torch_oracle):
    ours, _ = _event_names(ac, profiler, SAME_OPERATOR[name])
    theirs, _ = _event_names(torch_oracle, torch_oracle.autograd.profiler, SAME_OPERATOR[name])
    assert ours == theirs
    assert f"aten::{name}" in ours


@pytest.mark.parametrize("name", sorted(COMPOSITE_IN_TORCH))
def test_composite_ops_record_the_op_they_run_which_torch_records_inside(name, torch_oracle):
    ours, _ = _event_names(ac, profiler, COMPOSITE_IN_TORCH[name])
    _, theirs = _event_names(torch_oracle, torch_oracle.autograd.profiler,
                             COMPOSITE_IN_TORCH[name])
    assert ours and set(ours) <= set(theirs)
    assert f"aten::{name}" not in ours  # (the difference, stated in the module's docstring)


def test_the_aten_name_rule():
    assert profiler.aten_name(ac.ops.arithmetic.Mul) == "aten::mul"
    names = {cls.node_name: profiler.aten_name(cls) for cls in ac.autograd.Function.__subclasses__()
             if cls.node_name}  # (the direct subclasses: enough for a sample)
    assert names.get("AddmmBackward0") == "aten::addmm"
    assert names.get("MaxPool2DWithIndicesBackward0") == "aten::max_pool2d_with_indices"
    assert names.get("Log1PBackward0") == "aten::log1p"
    assert names.get("ToCopyBackward0") == "aten::to"
    assert all(name.startswith("aten::") and name == name.lower() for name in names.values())


def test_profiling_switches_on_and_off_and_events_come_after():
    x = ac.randn(10, 10)
    prof = profiler.profile()
    assert prof.function_events is None and not ac.autograd._profiler_enabled()
    with prof:
        assert ac.autograd._profiler_enabled()
        x * 2 + 4
    assert not ac.autograd._profiler_enabled()
    assert [e.name for e in prof.function_events] == ["aten::mul", "aten::add"]
    x * 2  # not recorded any more
    assert len(prof.function_events) == 2
    assert not profiler.kineto_available()
    with pytest.raises(RuntimeError, match="Kineto"):
        profiler.profile(use_kineto=True)


def test_profile_is_off_after_an_error_in_the_block():
    with pytest.raises(ValueError, match="boom"):
        with profiler.profile():
            raise ValueError("boom")
    assert not ac.autograd._profiler_enabled()


def test_nesting_and_self_time():
    x = ac.randn(10, 10)
    with profiler.profile() as prof:
        with profiler.record_function("outer"):
            y = x * 2 + 4
            with profiler.record_function("inner"):
                y = y - 1
                time.sleep(0.002)
        y / 1
    events = {e.name: e for e in prof.function_events}
    outer, inner = events["outer"], events["inner"]
    assert [e.name for e in outer.cpu_children] == ["aten::mul", "aten::add", "inner"]
    assert [e.name for e in inner.cpu_children] == ["aten::sub"]
    assert events["aten::sub"].cpu_parent is inner and events["aten::div"].cpu_parent is None
    children = sum(e.cpu_time_total for e in outer.cpu_children)
    assert outer.self_cpu_time_total == pytest.approx(outer.cpu_time_total - children)
    assert inner.cpu_time_total >= 2000  # µs: the sleep is inside it
    assert inner.self_cpu_time_total > 0.9 * inner.cpu_time_total  # and not in its child
    total = sum(e.self_cpu_time_total for e in prof.function_events)
    assert prof.self_cpu_time_total == pytest.approx(total)
    # ids follow the start times
    starts = [e.time_range.start for e in prof.function_events]
    assert starts == sorted(starts) and [e.id for e in prof.function_events] == [1, 2, 3, 4, 5, 6]


def test_an_op_inside_an_op_is_its_child():
    layer = ac.nn.Linear(20, 30)
    with profiler.profile(record_shapes=True) as prof:
        layer(ac.randn(128, 20))
    (linear,) = [e for e in prof.function_events if e.name == "aten::linear"]
    assert linear.input_shapes == [[128, 20], [30, 20], [30]]
    assert [e.name for e in linear.cpu_children] == ["aten::t", "aten::addmm"]


def test_shapes_only_when_asked():
    x = ac.randn(3, 4)
    with profiler.profile() as prof:
        x * 2
    assert prof.function_events[0].input_shapes == []
    with profiler.profile(record_shapes=True) as prof:
        x * 2
    assert prof.function_events[0].input_shapes == [[3, 4], []]


def test_ops_run_by_backward_are_recorded_under_their_node(torch_oracle):
    def run(m, profiler_module):
        x = m.ones(3, requires_grad=True)
        y = (x * 3).sum()
        with profiler_module.profile() as prof:
            y.backward()
        return prof.function_events

    ours, theirs = run(ac, profiler), run(torch_oracle, torch_oracle.autograd.profiler)
    (node,) = [e for e in ours if e.name == "MulBackward0"]
    assert node.cpu_parent.name == "autograd::engine::evaluate_function: MulBackward0"
    assert "aten::mul" in [e.name for e in node.cpu_children]
    nodes = [e.name for e in ours if e.cpu_parent is None]
    assert nodes == [e.name for e in theirs if e.cpu_parent is None and "::engine::" in e.name]
    assert node.sequence_nr == node.cpu_parent.sequence_nr >= 0


def test_record_function_as_context_and_decorator():
    calls = []

    @profiler.record_function("my_func")
    def f(a, b):
        calls.append(a)
        return a + b

    assert f(1, 2) == 3  # no profile: it only runs the function
    with profiler.profile() as prof:
        f(1, 2)
        with profiler.record_function("block") as rf:
            assert isinstance(rf, profiler.record_function)
            ac.ones(2) * 2
    names = [e.name for e in prof.function_events]
    assert names == ["my_func", "block", "aten::mul"] and calls == [1, 1]
    assert all(e.count == 1 for e in prof.function_events)
    assert "my_func" in str(prof)


def test_record_function_exited_out_of_order_does_not_raise():
    rf = profiler.record_function("outer")
    with profiler.profile() as prof:
        rf.__enter__()
        with profiler.record_function("inner"):
            rf.__exit__(None, None, None)
    assert sorted(e.name for e in prof.function_events) == ["inner", "outer"]


def test_record_function_ops_of_torch_ops_profiler():
    x = ac.randn(10, 10)
    with profiler.profile() as prof:
        handle = ops_profiler._record_function_enter("bar", None)
        try:
            x * 2 + 4
        finally:
            ops_profiler._record_function_exit(handle)
    (bar,) = [e for e in prof.function_events if "bar" in e.name]
    assert bar.count == 1 and [e.name for e in bar.cpu_children] == ["aten::mul", "aten::add"]


def test_table_is_str_and_has_torchs_layout(torch_oracle):
    def run(m, profiler_module):
        x = m.ones(1024)
        with profiler_module.profile(record_shapes=True) as prof:
            m.einsum("i->", x)
        return prof

    ours, theirs = run(ac, profiler), run(torch_oracle, torch_oracle.autograd.profiler)
    assert str(ours) == ours.table() and str(theirs) == theirs.table()
    ours_lines, their_lines = ours.table().splitlines(), theirs.table().splitlines()
    assert ours_lines[1].split() == their_lines[1].split()  # the header
    assert ours_lines[-1].startswith("Self CPU time total: ")
    assert len(ours_lines[0]) == len(ours_lines[1]) and set(ours_lines[0]) == {"-", " "}
    row = ours_lines[3].rstrip()
    assert row.split()[0] == "aten::einsum" and row.split()[-3:] == ["1", "[[],", "[1024]]"]


def test_table_options():
    x = ac.randn(5, 3)
    with profiler.profile(record_shapes=True) as prof:
        for _ in range(3):
            with profiler.record_function("step"):
                (x * 2).sum()
    table = prof.table(sort_by="self_cpu_time_total", row_limit=2, header="TEST",
                       top_level_events_only=True)
    lines = table.splitlines()
    assert lines[1] == "TEST" and set(lines[0]) == {"="}
    assert lines[3] == "This report only display top-level ops statistics"
    assert [line.split()[0] for line in lines[7:9]] == ["step", "step"] and lines[9][0] == "-"
    averages = prof.key_averages()
    assert [(a.key, a.count) for a in averages] == [
        ("step", 3), ("aten::mul", 3), ("aten::sum", 3)]
    grouped = prof.key_averages(group_by_input_shape=True)
    assert len(grouped) == 3 and grouped[1].input_shapes == [[5, 3], []]
    average = averages[1]
    assert average.cpu_time == pytest.approx(average.cpu_time_total / 3)
    assert prof.table(row_limit=-1).count("aten::mul") == 3
    long = "x" * 60
    with profiler.profile() as prof:
        with profiler.record_function(long):
            pass
    assert "x" * 52 + "..." in prof.table() and long not in prof.table()


def test_chrome_trace_is_json_with_every_event(tmp_path):
    x = ac.randn(4, 4)
    with profiler.profile(record_shapes=True) as prof:
        with profiler.record_function("outer"):
            x * 2 + 4
    path = tmp_path / "trace.json"
    prof.export_chrome_trace(str(path))
    trace = json.loads(path.read_text())["traceEvents"]
    assert [e["name"] for e in trace] == ["outer", "aten::mul", "aten::add"]
    assert all(e["ph"] == "X" and e["dur"] >= 0 for e in trace)
    assert trace[1]["ts"] >= trace[0]["ts"] and trace[1]["args"]["Input Dims"] == [[4, 4], []]


def test_populate_cpu_children_and_averages_by_hand():
    """PyTorch's test_profiler_aggregation_fake and test_profiler_function_event_avg (left out
    of the suite by its rule on threads), with their numbers."""
    events = EventList()
    ranges = [(1, [(0, 1, 1), (1, 2, 2)]), (0, [(0, 2, 3), (1, 2, 4), (1, 3, 5)])]
    for thread, spans in ranges:
        for start, end, id in spans:
            events.append(FunctionEvent(id=id, node_id=0, name="", thread=thread,
                                        start_us=start, end_us=end))
    events._populate_cpu_children()
    # [1, 3] pushes [0, 2] out; [1, 2] is then its child
    assert [[c.id for c in e.cpu_children] for e in events] == [[], [], [], [], [4]]

    avg = FunctionEventAvg()
    avg.add(FunctionEvent(id=0, node_id=0, name="foo", thread=0, start_us=10, end_us=15))
    avg.add(FunctionEvent(id=1, node_id=0, name="foo", thread=0, start_us=20, end_us=30))
    avg.add(avg)
    assert (avg.key, avg.count, avg.cpu_time_total, avg.self_cpu_time_total) == (
        "foo", 4, 30, 30)
    assert avg.cpu_time == 7.5 and avg.device_time_total == 0
    assert [_format_time(t) for t in (1.5, 1500, 2.5e6)] == ["1.500us", "1.500ms", "2.500s"]


def test_resize_under_the_profiler_and_like_torch(torch_oracle):
    def run(m):
        x = m.tensor(np.arange(12.0).reshape(3, 4))
        y = x.resize_([3, 2])
        first = (y is x, x.tolist(), x._version)
        x.resize_(2, 2)
        grown = m.tensor(np.arange(3.0)).resize_(2, 2)
        return first, x.tolist(), grown.shape, grown.flatten()[:3].tolist()

    with profiler.profile():
        ours = run(ac)
    assert ours == run(torch_oracle)
    for m in (ac, torch_oracle):
        with pytest.raises(RuntimeError, match="^cannot resize variables that require grad$"):
            m.ones(3, requires_grad=True).resize_(2)


def test_an_lstm_under_the_profiler(tmp_path):
    """PyTorch's test_profiler_aggregation_lstm, in our words: many calls of a layer, their
    averages per input shapes, the top-level table, and the trace."""
    lstm = ac.nn.LSTM(10, 20, 2)
    with profiler.profile(record_shapes=True) as prof:
        for _ in range(3):
            lstm(ac.randn(5, 3, 10), (ac.randn(2, 3, 20), ac.randn(2, 3, 20)))
    averages = {(a.key, str(a.input_shapes)): a for a in
                prof.key_averages(group_by_input_shape=True)}
    # 3 calls x 5 steps: layer 0's input linear, then 3 x 5 x 3 more linears of the hidden size
    assert averages[("aten::linear", "[[3, 10], [80, 10], [80]]")].count == 15
    assert averages[("aten::linear", "[[3, 20], [80, 20], [80]]")].count == 45
    table = prof.key_averages(group_by_input_shape=True).table(
        sort_by="self_cpu_time_total", row_limit=10, top_level_events_only=True)
    assert len(table.splitlines()) == 5 + 10 + 2 and "Input Shapes" in table
    assert prof.self_cpu_time_total > 0
    prof.export_chrome_trace(str(tmp_path / "lstm.json"))
    assert len(json.loads((tmp_path / "lstm.json").read_text())["traceEvents"]) == len(
        prof.function_events)
