"""The recorder's drawings with matplotlib (imported when a drawing is made: the package works
without it). Each function returns a ``matplotlib.figure.Figure`` (Jupyter shows it once), or
draws into the ``ax`` it is given and returns that axes' figure.

* ``plot_activations``: one histogram (as a line, density) per layer of its outputs at the
  last step; the legend gives each layer's mean, std and saturated fraction.
* ``plot_gradients``: the same for the gradients of the layers' outputs, or of the weights
  (with their grad:data ratio).
* ``plot_update_ratios``: ``log10(std(update) / std(data))`` of each weight over the steps,
  with the dashed guide at -3 (updates about 1/1000 of the values per step).
* ``plot_history``: any recorded statistic over the steps, on a log scale by default.
"""

from __future__ import annotations

import numpy as np

GUIDE_LOG10_UPDATE_RATIO = -3.0


def _axes(ax, title: str):
    """``(figure, axes)``: a new figure of its own (not pyplot's), or ``ax``'s."""
    if ax is None:
        from matplotlib.figure import Figure

        fig = Figure(figsize=(10, 4), layout="constrained")
        ax = fig.add_subplot()
    ax.set_title(title)
    return ax.figure, ax


def _density(counts: np.ndarray, edges: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Bin centres and the counts as a density (area 1), as ``torch.histogram(density=True)``."""
    widths = np.diff(edges)
    total = counts.sum()
    density = counts / (total * widths) if total else counts.astype(float)
    return (edges[:-1] + edges[1:]) / 2, density


def _weights(recorder, names):
    """The parameters to draw: ``names``, or every 2-D one (the weights of the lecture)."""
    if names is not None:
        return list(names)
    return [n for n, shape in recorder.parameter_shapes.items() if len(shape) == 2]


def plot_activations(recorder, layers=None, ax=None):
    fig, ax = _axes(ax, "activation distribution")
    layers = list(recorder.histograms["activations"]) if layers is None else list(layers)
    for layer in layers:
        row = recorder.history["activations"][layer]
        x, y = _density(*recorder.histograms["activations"][layer])
        ax.plot(x, y, label=f"{recorder.label(layer)}: mean {row['mean'][-1]:+.2f}, "
                            f"std {row['std'][-1]:.2f}, saturated {row['saturated'][-1]:.1%}")
    ax.set_xlabel("output value")
    ax.set_ylabel("density")
    if layers:
        ax.legend(fontsize="small")
    return fig


def plot_gradients(recorder, which: str = "layers", names=None, ax=None):
    if which not in ("layers", "weights"):
        raise ValueError(f"which must be 'layers' or 'weights', got {which!r}")
    if which == "layers":
        fig, ax = _axes(ax, "gradient distribution (of the layers' outputs)")
        names = list(recorder.histograms["gradients"]) if names is None else list(names)
        for layer in names:
            row = recorder.history["gradients"][layer]
            x, y = _density(*recorder.histograms["gradients"][layer])
            ax.plot(x, y, label=f"{recorder.label(layer)}: mean {row['mean'][-1]:+.2e}, "
                                f"std {row['std'][-1]:.2e}")
    else:
        fig, ax = _axes(ax, "weights gradient distribution")
        names = [n for n in _weights(recorder, names) if n in recorder.histograms["parameters"]]
        for name in names:
            row = recorder.history["parameters"][name]
            x, y = _density(*recorder.histograms["parameters"][name])
            ax.plot(x, y, label=f"{name} {recorder.parameter_shapes[name]}: grad:data "
                                f"{row['grad_to_data'][-1]:.2e}")
    ax.set_xlabel("gradient value")
    ax.set_ylabel("density")
    if names:
        ax.legend(fontsize="small")
    return fig


def plot_update_ratios(recorder, names=None, ax=None):
    fig, ax = _axes(ax, "update:data ratio over the steps")
    names = _weights(recorder, names)
    for name in names:
        ratios = np.asarray(recorder.history["parameters"][name]["update_to_data"], dtype=float)
        with np.errstate(divide="ignore", invalid="ignore"):
            ax.plot(np.arange(len(ratios)), np.log10(ratios),
                    label=f"{name} {recorder.parameter_shapes[name]}")
    ax.axhline(GUIDE_LOG10_UPDATE_RATIO, color="k", linestyle="--", label="guide: 1e-3")
    ax.set_xlabel("step")
    ax.set_ylabel("log10(update std / data std)")
    ax.legend(fontsize="small")
    return fig


def plot_history(recorder, kind: str, stat: str, names=None, log: bool = True, ax=None):
    fig, ax = _axes(ax, f"{kind}: {stat} over the steps")
    rows = recorder.history[kind]
    names = list(rows) if names is None else list(names)
    for name in names:
        label = name if kind == "parameters" else recorder.label(name)
        ax.plot(np.arange(len(rows[name][stat])), rows[name][stat], label=label)
    if log:
        ax.set_yscale("log")
    ax.set_xlabel("step")
    ax.set_ylabel(stat)
    if names:
        ax.legend(fontsize="small")
    return fig
