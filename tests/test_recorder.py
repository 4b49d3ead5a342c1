"""``viz.GradientRecorder`` against PyTorch: the same recorder, attached with the hooks both
libraries share, on the same MLP trained on the same data, records the same numbers and sees
its hooks fire in the same order on ``autograd_course.nn`` and on ``torch.nn``; ``remove()``
leaves no hook on either; the drawings; saturation found where a bad initialisation puts it.
Also the package's full backward hooks themselves, on the layers the recorder watches."""

from __future__ import annotations

import io
import math

import numpy as np
import pytest
from oracle_helpers import assert_like_torch

import autograd_course as ag
from autograd_course.viz import GradientRecorder, progress
from autograd_course.viz.recorder import chosen_layers
from autograd_course.viz.recorder.progress import postfix

SIZES = (6, 16, 16, 4)  # Linear-Tanh-Linear-Tanh-Linear
LR = 0.1


def _mlp(m, sizes=SIZES):
    layers = []
    for i, (fan_in, fan_out) in enumerate(zip(sizes, sizes[1:])):
        layers.append(m.nn.Linear(fan_in, fan_out))
        if i < len(sizes) - 2:
            layers.append(m.nn.Tanh())
    return m.nn.Sequential(*layers)


def _weights(sizes=SIZES, scale=None, seed=0, bias=0.1):
    """Seeded weights and biases; ``scale(fan_in)`` multiplies each weight (default: 1/fan_in
    ** 0.5, as nn.Linear's own initialisation roughly), ``bias`` each bias."""
    rng = np.random.default_rng(seed)
    scale = scale or (lambda fan_in: fan_in ** -0.5)
    values = []
    for fan_in, fan_out in zip(sizes, sizes[1:]):
        values.append(rng.standard_normal((fan_out, fan_in)) * scale(fan_in))
        values.append(rng.standard_normal(fan_out) * bias)
    return values


def _model(m, dtype, sizes=SIZES, **weights):
    model = _mlp(m, sizes).to(getattr(m, dtype))
    with m.no_grad():
        for p, w in zip(model.parameters(), _weights(sizes, **weights)):
            p.copy_(m.tensor(w, dtype=getattr(m, dtype)))
    return model


def _data(n=32, features=SIZES[0], classes=SIZES[-1], seed=1):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((n, features)), rng.integers(0, classes, n)


def _train(m, dtype="float64", steps=2, lr_in_step=False, **options):
    """Train the MLP ``steps`` SGD steps with a recorder attached; the recorder."""
    model = _model(m, dtype)
    x, y = _data()
    x, y = m.tensor(x, dtype=getattr(m, dtype)), m.tensor(y)
    recorder = GradientRecorder(model, **options)
    optimizer = m.optim.SGD(model.parameters(), lr=LR)
    for _ in range(steps):
        loss = m.nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        with recorder.step(lr=LR if lr_in_step else None):
            optimizer.step()
    return recorder


# --- (1) the same numbers on both libraries -------------------------------------------------
@pytest.mark.filterwarnings("ignore:Full backward hook is firing")
@pytest.mark.parametrize("gradients", ["tensor", "module"])
@pytest.mark.parametrize("dtype,rtol,atol,lr_in_step", [
    ("float64", 1e-6, 1e-15, False), ("float32", 1e-5, 1e-9, True)])
def test_the_same_recorder_records_the_same_numbers_on_torch(torch_oracle, gradients, dtype,
                                                             rtol, atol, lr_in_step):
    """rtol for every number; atol only for those that are 0 but for rounding (the mean of the
    gradient of a cross-entropy's logits: each row of it sums to 0)."""
    ours = _train(ag, dtype, lr_in_step=lr_in_step, gradients=gradients)
    theirs = _train(torch_oracle, dtype, lr_in_step=lr_in_step, gradients=gradients)
    assert ours.steps == theirs.steps == 2
    assert ours.history.keys() == theirs.history.keys()
    compared = 0
    for kind, rows in theirs.history.items():
        assert ours.history[kind].keys() == rows.keys(), kind
        for name, row in rows.items():
            for stat, values in row.items():
                assert len(values) == 2 and not any(math.isnan(v) for v in values), (kind, name)
                np.testing.assert_allclose(ours.history[kind][name][stat], values, rtol=rtol,
                                           atol=atol, err_msg=f"{kind} {name} {stat}")
                compared += 2
    assert compared == 2 * (5 * 3 + 5 * 2 + 6 * 4)  # 5 layers, 6 parameters
    for kind, histograms in theirs.histograms.items():
        assert ours.histograms[kind].keys() == histograms.keys(), kind
        for name, (counts, edges) in histograms.items():
            our_counts, our_edges = ours.histograms[kind][name]
            span = edges[-1] - edges[0]  # an edge near 0 is as close as the others
            np.testing.assert_allclose(our_edges, edges, rtol=rtol, atol=rtol * span)
            assert our_counts.sum() == counts.sum()
            if dtype == "float64":
                np.testing.assert_array_equal(our_counts, counts, err_msg=f"{kind} {name}")
            else:  # a value on a bin's edge may fall either side of it
                assert np.abs(our_counts - counts).sum() <= 2, (kind, name)
    assert ours.report().splitlines()[0] == theirs.report().splitlines()[0]
    assert len(ours.report().splitlines()) == 5 + 5 + 6


@pytest.mark.parametrize("lib", ["autograd_course", "torch"])
def test_the_numbers_are_the_lectures_formulas_in_each_library(torch_oracle, lib):
    """Each library's own ops, as in makemore part 3: ``t.mean()``, ``t.std()``,
    ``(t.abs() > 0.97).float().mean()``, ``t.grad.std()`` (kept with ``retain_grad``),
    ``p.grad.std() / p.std()`` and ``(lr * p.grad).std() / p.data.std()``."""
    m = ag if lib == "autograd_course" else torch_oracle
    model = _model(m, "float64")
    x, y = (m.tensor(v) for v in _data())
    recorder = GradientRecorder(model, layers=m.nn.Tanh)
    outputs = {}
    for name in ("1", "3"):
        model[int(name)].register_forward_hook(
            lambda mod, args, out, name=name: outputs.setdefault(name, out))
    loss = m.nn.functional.cross_entropy(model(x), y)
    for out in outputs.values():
        out.retain_grad()
    loss.backward()
    with recorder.step(lr=LR):
        with m.no_grad():
            for p in model.parameters():
                p -= LR * p.grad
    expected = {
        ("activations", "mean"): {n: t.mean().item() for n, t in outputs.items()},
        ("activations", "std"): {n: t.std().item() for n, t in outputs.items()},
        ("activations", "saturated"): {
            n: (t.abs() > 0.97).float().mean().item() for n, t in outputs.items()},
        ("gradients", "std"): {n: t.grad.std().item() for n, t in outputs.items()},
        ("parameters", "grad_to_data"): {
            n: (p.grad.std() / p.std()).item() for n, p in model.named_parameters()},
        ("parameters", "update_to_data"): {
            n: ((LR * p.grad).std() / p.data.std()).item() for n, p in model.named_parameters()},
    }
    assert recorder.latest("activations", "saturated")["1"] > 0  # the check can see a change
    for (kind, stat), values in expected.items():
        assert recorder.latest(kind, stat) == pytest.approx(values, rel=1e-6), (kind, stat)


def test_the_update_ratio_of_plain_sgd_is_lr_times_the_grad_ratio():
    """Measured from the change of the values, or given ``lr``: the lecture's
    ``(lr * p.grad).std() / p.data.std()``, which is ``lr`` times the grad:data ratio of the
    values after the step."""
    measured = _train(ag, steps=1)
    given = _train(ag, steps=1, lr_in_step=True)
    for name, row in measured.history["parameters"].items():
        assert row["update_to_data"][0] == pytest.approx(LR * row["grad_to_data"][0], rel=0.2)
        np.testing.assert_allclose(row["update_to_data"],
                                   given.history["parameters"][name]["update_to_data"],
                                   rtol=1e-9)


# --- (2) the hooks fire in torch's order ----------------------------------------------------
@pytest.mark.filterwarnings("ignore:Full backward hook is firing")
@pytest.mark.parametrize("gradients", ["tensor", "module"])
def test_the_hooks_fire_in_the_order_of_torch(torch_oracle, gradients):
    ours = _train(ag, gradients=gradients).last_events
    theirs = _train(torch_oracle, gradients=gradients).last_events
    layers = ["0", "1", "2", "3", "4"]
    assert theirs == [("forward", n) for n in layers] + [("backward", n) for n in layers[::-1]]
    assert ours == theirs


# --- (3) nothing is left behind ---------------------------------------------------------------
def _hooks_on(m, model, outputs) -> int:
    """How many hooks the model's modules and the tensors ``outputs`` hold, read where each
    library stores them (torch: OrderedDicts, a tensor's ``_backward_hooks``; ours: lists, and a
    non-leaf tensor's hooks on its ``grad_fn``)."""
    count = 0
    for module in model.modules():
        for where in ("_forward_hooks", "_forward_pre_hooks", "_backward_hooks",
                      "_backward_pre_hooks"):
            count += len(getattr(module, where))
    for tensor in outputs:
        if m is ag:
            count += len(tensor.grad_fn.tensor_hooks() or [])
        else:
            count += len(tensor._backward_hooks or {})
    return count


@pytest.mark.filterwarnings("ignore:Full backward hook is firing")
@pytest.mark.parametrize("gradients", ["tensor", "module"])
@pytest.mark.parametrize("lib", ["autograd_course", "torch"])
def test_remove_leaves_no_hook(torch_oracle, lib, gradients):
    m = ag if lib == "autograd_course" else torch_oracle
    model = _model(m, "float64")
    outputs = []
    mine = model[1].register_forward_hook(lambda mod, args, out: outputs.append(out))
    x = m.tensor(_data()[0])
    with GradientRecorder(model, gradients=gradients) as recorder:
        model(x)
        hooks = 5 * (1 if gradients == "tensor" else 2) + 1  # module hooks, and mine
        tensor_hooks = 1 if gradients == "tensor" else 0  # on model[1]'s output
        assert _hooks_on(m, model, outputs) == hooks + tensor_hooks
    assert _hooks_on(m, model, outputs) == 1  # only mine
    assert not recorder.attached
    model(x).sum().backward()
    assert recorder.events == []
    mine.remove()
    assert _hooks_on(m, model, outputs) == 0


def test_a_step_takes_its_tensor_hooks_away_and_no_grad_forwards_are_not_recorded():
    model = _model(ag, "float64")
    x = ag.tensor(_data()[0])
    recorder = GradientRecorder(model, layers=ag.nn.Tanh)
    outputs = []
    model[3].register_forward_hook(lambda mod, args, out: outputs.append(out))
    model(x).sum().backward()
    assert len(outputs[0].grad_fn.tensor_hooks()) == 1
    with ag.no_grad():
        model(x)
    with recorder.step():
        pass
    assert outputs[0].grad_fn.tensor_hooks() == []
    assert recorder.last_events == [("forward", "1"), ("forward", "3"),
                                    ("backward", "3"), ("backward", "1")]
    with ag.no_grad():
        model(x)
    with recorder.step():
        pass
    assert recorder.last_events == []
    assert all(math.isnan(row["std"][1]) for row in recorder.history["activations"].values())


def test_choosing_the_layers():
    model = _mlp(ag)
    assert [n for n, _ in chosen_layers(model, None)] == ["0", "1", "2", "3", "4"]
    assert [n for n, _ in chosen_layers(model, ag.nn.Tanh)] == ["1", "3"]
    assert [n for n, _ in chosen_layers(model, (ag.nn.Tanh, ag.nn.Sequential))] == ["", "1", "3"]
    assert [n for n, _ in chosen_layers(model, ["4", "1"])] == ["4", "1"]
    with pytest.raises(KeyError, match="no module named '7'"):
        chosen_layers(model, ["1", "7"])
    with pytest.raises(ValueError, match="gradients must be 'module' or 'tensor'"):
        GradientRecorder(model, gradients="node")


# --- (4) the drawings ---------------------------------------------------------------------------
def test_the_plots_draw_one_line_per_layer_or_weight():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    recorder = _train(ag, steps=3, layers=ag.nn.Tanh)
    tanh_layers, weights = 2, 3

    fig = recorder.plot_activations()
    (ax,) = fig.axes
    assert len(ax.lines) == tanh_layers
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend[0].startswith("1 (Tanh): mean") and "saturated" in legend[0]
    x, y = ax.lines[0].get_data()
    assert len(x) == recorder.bins
    assert np.sum(y * np.diff(recorder.histograms["activations"]["1"][1])) == pytest.approx(1)

    assert len(recorder.plot_gradients().axes[0].lines) == tanh_layers
    assert len(recorder.plot_gradients(which="weights").axes[0].lines) == weights
    with pytest.raises(ValueError, match="which must be"):
        recorder.plot_gradients(which="biases")

    ax = recorder.plot_update_ratios().axes[0]
    assert len(ax.lines) == weights + 1  # and the guide
    assert list(ax.lines[-1].get_ydata()) == [-3, -3]
    ratios = recorder.history["parameters"]["0.weight"]["update_to_data"]
    np.testing.assert_allclose(ax.lines[0].get_ydata(), np.log10(ratios))
    assert len(ax.lines[0].get_xdata()) == recorder.steps == 3

    ax = recorder.plot_history("activations", "saturated").axes[0]
    assert ax.get_yscale() == "log" and len(ax.lines) == tanh_layers
    for figure in (fig, ax.figure):
        figure.savefig(io.BytesIO(), format="png")


def test_progress_shows_the_recorders_last_step():
    pytest.importorskip("tqdm")
    recorder = _train(ag, steps=1, layers=ag.nn.Tanh)
    shown = postfix(recorder)
    saturated = max(recorder.latest("activations", "saturated").values())
    update = max(recorder.latest("parameters", "update_to_data").values())
    assert shown == {"saturated": f"{saturated:.1%}", "log10 update": f"{math.log10(update):.2f}"}
    out = io.StringIO()
    assert list(progress(range(4), recorder, file=out, mininterval=0)) == [0, 1, 2, 3]
    assert "4/4" in out.getvalue() and "saturated=" in out.getvalue()
    assert postfix(GradientRecorder(_mlp(ag))) == {}


# --- (5) saturation where the initialisation puts it ---------------------------------------------
SATURATION_SIZES = (30, 100, 100, 100, 100, 10)


@pytest.mark.parametrize("lib", ["autograd_course", "torch"])
def test_saturation_after_a_bad_and_a_good_initialisation(torch_oracle, lib):
    """Weights ~ N(0, 1) drive each tanh into its tails (more than half its outputs); the
    lecture's gain 5/3 / sqrt(fan_in) keeps the layers after the first (their inputs are tanh
    outputs) out of them: under 10 % on average (the first, fed N(0, 1) inputs, has ~20 %, as
    in the lecture)."""
    m = ag if lib == "autograd_course" else torch_oracle
    x = m.tensor(np.random.default_rng(2).standard_normal((200, SATURATION_SIZES[0])))
    saturation = {}
    for init, scale in (("bad", lambda fan_in: 1.0),
                        ("good", lambda fan_in: 5 / 3 / fan_in ** 0.5)):
        model = _model(m, "float64", SATURATION_SIZES, scale=scale, bias=0.0)
        with GradientRecorder(model, layers=m.nn.Tanh) as recorder:
            model(x).sum().backward()
            with recorder.step():
                pass
        saturation[init] = [v for v in recorder.latest("activations", "saturated").values()]
    assert len(saturation["bad"]) == 4
    assert min(saturation["bad"]) > 0.5, saturation
    assert np.mean(saturation["good"][1:]) < 0.1, saturation  # the lecture: 5-8 %
    assert max(saturation["good"]) < min(saturation["bad"]), saturation


# --- the package's full backward hooks on these layers --------------------------------------
def test_full_backward_hooks_see_torchs_gradients_on_the_recorders_layers():
    """grad_input and grad_output of every layer of an MLP with BatchNorm1d (makemore part 3's)
    and of the Sequential around them, in the order they arrive."""
    def case(m):
        nn = m.nn
        model = nn.Sequential(nn.Linear(3, 5), nn.BatchNorm1d(5), nn.Tanh(), nn.Linear(5, 2))
        model = model.double()
        with m.no_grad():
            for p, w in zip(model.parameters(), _weights((3, 5, 5, 2))[:2] + [np.ones(5),
                            np.zeros(5)] + _weights((5, 2), seed=3)):
                p.copy_(m.tensor(w))
        log = []
        for name, module in model.named_modules():
            module.register_full_backward_hook(lambda mod, gi, go, name=name: log.append(
                (name, [None if g is None else g for g in gi], list(go))))
        x = m.tensor(_data(8, 3)[0], requires_grad=True)
        (model(x) ** 2).sum().backward()
        return log

    assert_like_torch(case, rtol=1e-9)


def test_a_full_backward_hook_warns_as_torch_when_no_input_requires_grad():
    def case(m):
        linear = m.nn.Linear(2, 1)
        linear.register_full_backward_hook(lambda mod, gi, go: None)
        linear(m.ones(3, 2)).sum().backward()
        linear(m.ones(3, 2, requires_grad=True)).sum().backward()  # no warning
        return linear.weight.grad

    assert_like_torch(case, warns=True)
