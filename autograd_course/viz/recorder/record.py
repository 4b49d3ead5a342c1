"""``GradientRecorder``: the health of a whole model's activations and gradients, step by step.

The recorder only uses hooks that ``autograd_course.nn`` and ``torch.nn`` both offer, so the
same recorder watches a model of either library:

* ``module.register_forward_hook(hook)``: ``hook(module, inputs, output)`` sees each chosen
  layer's output (its *activation*) right after the layer ran;
* ``output.register_hook(hook)``: ``hook(grad)`` sees the gradient of the loss with respect to
  that output during backward (with ``gradients="module"``,
  ``module.register_full_backward_hook(hook)`` instead: its ``grad_output[0]``);
* a parameter's ``.grad`` and its values before and after the optimizer's step.

One training step, as in makemore part 3::

    recorder = GradientRecorder(model, layers=nn.Tanh)
    for x, y in progress(batches, recorder):
        loss = loss_fn(model(x), y)       # forward hooks: activations
        optimizer.zero_grad()
        loss.backward()                   # tensor hooks: gradients of the outputs
        with recorder.step():             # parameters: grad:data and update:data ratios
            optimizer.step()
    recorder.remove()                     # no hook is left on the model

Forwards that build no graph (under ``no_grad``, e.g. an evaluation) are not recorded. When a
layer runs several times in one step, its values of all the runs are taken together.
"""

from __future__ import annotations

import math
from contextlib import contextmanager

import numpy as np

from . import plots, stats

LAYER_STATS = ("mean", "std", "saturated")
GRADIENT_STATS = ("mean", "std")
PARAMETER_STATS = ("grad_std", "data_std", "grad_to_data", "update_to_data")


def _is_leaf(module) -> bool:
    return next(iter(module.children()), None) is None


def chosen_layers(model, layers) -> list[tuple[str, object]]:
    """``(name, module)`` of the layers to watch: every module without children when
    ``layers`` is None, the modules of the given type(s), or the modules with the given
    names (as ``model.named_modules()`` spells them)."""
    named = list(model.named_modules())
    if layers is None:
        return [(name, m) for name, m in named if _is_leaf(m)]
    if isinstance(layers, type) or (isinstance(layers, tuple)
                                    and all(isinstance(t, type) for t in layers)):
        return [(name, m) for name, m in named if isinstance(m, layers)]
    by_name = dict(named)
    names = [layers] if isinstance(layers, str) else list(layers)
    missing = [n for n in names if n not in by_name]
    if missing:
        raise KeyError(f"the model has no module named {', '.join(map(repr, missing))}; "
                       f"its modules: {', '.join(repr(n) for n in by_name)}")
    return [(n, by_name[n]) for n in names]


class GradientRecorder:
    """Records, at every ``step()``, for each chosen layer the mean, std and saturated fraction
    of its output and the mean and std of its output's gradient, and for each parameter the
    std of its gradient and values, the grad:data ratio and the update:data ratio.

    Args:
        model: an ``nn.Module`` of ``autograd_course`` or of ``torch``.
        layers: which modules to watch (see ``chosen_layers``): None for every leaf module,
            a type or tuple of types (e.g. ``nn.Tanh``), or a list of module names.
        saturation: an output ``a`` counts as saturated when ``|a| > saturation``.
        bins: the number of bins of the histograms (of the last step).
        gradients: ``"tensor"`` to read the gradient of each output with
            ``output.register_hook`` (no node added to the graph), ``"module"`` with
            ``register_full_backward_hook`` (PyTorch then warns about a first layer whose input
            requires no grad; in-place changes of a hooked output are refused).

    After each step: ``history[kind][name][stat]`` is the list of that number over the steps
    (kind ``"activations"``, ``"gradients"`` or ``"parameters"``; NaN for a step where it was
    not seen), ``histograms[kind][name]`` the ``(counts, edges)`` of the last step, and
    ``last_events`` the hooks that fired in that step, in order, as ``("forward", layer)`` and
    ``("backward", layer)``.
    """

    def __init__(self, model, layers=None, *, saturation: float = 0.97, bins: int = 50,
                 gradients: str = "tensor") -> None:
        if gradients not in ("module", "tensor"):
            raise ValueError(f"gradients must be 'module' or 'tensor', got {gradients!r}")
        self.model, self.saturation, self.bins, self.gradients = (
            model, saturation, bins, gradients)
        self.layers = dict(chosen_layers(model, layers))
        self.layer_types = {name: type(m).__name__ for name, m in self.layers.items()}
        self.parameter_shapes = {name: tuple(p.shape) for name, p in model.named_parameters()}
        self.steps = 0
        self.history = {
            "activations": {n: {s: [] for s in LAYER_STATS} for n in self.layers},
            "gradients": {n: {s: [] for s in GRADIENT_STATS} for n in self.layers},
            "parameters": {n: {s: [] for s in PARAMETER_STATS} for n in self.parameter_shapes},
        }
        self.histograms = {"activations": {}, "gradients": {}, "parameters": {}}
        self.events: list[tuple[str, str]] = []
        self.last_events: list[tuple[str, str]] = []
        self._seen = {"activations": {}, "gradients": {}}
        self._handles: list = []
        self._tensor_handles: list = []
        self.attached = False
        self.attach()

    # --- hooks ----------------------------------------------------------------------------
    def attach(self) -> GradientRecorder:
        """Put the hooks on the layers (``__init__`` does; again after ``remove()``)."""
        if self.attached:
            return self
        for name, module in self.layers.items():
            self._handles.append(module.register_forward_hook(self._forward_hook(name)))
            if self.gradients == "module":
                self._handles.append(
                    module.register_full_backward_hook(self._backward_hook(name)))
        self.attached = True
        return self

    def remove(self) -> None:
        """Take away every hook the recorder added (module hooks and tensor hooks) and drop
        what it saw of an unfinished step; ``history`` stays."""
        for handle in self._handles + self._tensor_handles:
            handle.remove()
        self._handles, self._tensor_handles = [], []
        self._seen, self.events = {"activations": {}, "gradients": {}}, []
        self.attached = False

    def __enter__(self) -> GradientRecorder:
        return self

    def __exit__(self, *exc_info) -> None:
        self.remove()

    def _forward_hook(self, name: str):
        def hook(module, inputs, output):
            tensor = stats.first_tensor(output)
            if tensor is None or not tensor.requires_grad:
                return None  # no graph: an evaluation, not a training step
            self.events.append(("forward", name))
            self._seen["activations"].setdefault(name, []).append(stats.to_numpy(tensor))
            if self.gradients == "tensor":
                self._tensor_handles.append(tensor.register_hook(self._tensor_hook(name)))
            return None
        return hook

    def _backward_hook(self, name: str):
        def hook(module, grad_input, grad_output):
            self._gradient_arrived(name, grad_output[0])
            return None
        return hook

    def _tensor_hook(self, name: str):
        def hook(grad):
            self._gradient_arrived(name, grad)
            return None
        return hook

    def _gradient_arrived(self, name: str, grad) -> None:
        if grad is None:
            return
        self.events.append(("backward", name))
        self._seen["gradients"].setdefault(name, []).append(stats.to_numpy(grad))

    # --- steps ----------------------------------------------------------------------------
    @contextmanager
    def step(self, lr: float | None = None):
        """``with recorder.step(): optimizer.step()`` ends one recorded step.

        The parameters' gradients and values are read on entering; on leaving, the update
        is ``values after - values before`` (any optimizer), or ``-lr * grad`` when ``lr``
        is given (Karpathy's ``(lr * p.grad).std() / p.data.std()`` for plain SGD, free of
        the rounding in ``after - before``). Then the step's numbers go into ``history``.
        """
        params = dict(self.model.named_parameters())
        grads = {n: None if p.grad is None else stats.to_numpy(p.grad)
                 for n, p in params.items()}
        before = {n: stats.to_numpy(p) for n, p in params.items()}
        yield self
        after = {n: stats.to_numpy(p) for n, p in params.items()}
        for name in self.parameter_shapes:
            grad = grads.get(name)
            measured = lr is None or grad is None  # a parameter without grad: its change
            update = after[name] - before[name] if measured else -lr * grad
            self._commit_parameter(name, grad, after[name], update)
        self._commit_layers()

    def _commit_parameter(self, name, grad, data, update) -> None:
        row = self.history["parameters"][name]
        row["data_std"].append(stats.std(data))
        row["update_to_data"].append(stats.ratio(update, data))
        if grad is None:
            row["grad_std"].append(math.nan)
            row["grad_to_data"].append(math.nan)
            return
        row["grad_std"].append(stats.std(grad))
        row["grad_to_data"].append(stats.ratio(grad, data))
        self.histograms["parameters"][name] = stats.histogram(grad, self.bins)

    def _commit_layers(self) -> None:
        for kind, names in (("activations", LAYER_STATS), ("gradients", GRADIENT_STATS)):
            for layer, row in self.history[kind].items():
                seen = self._seen[kind].get(layer)
                if seen is None:
                    for stat in names:
                        row[stat].append(math.nan)
                    continue
                values = seen[0] if len(seen) == 1 else np.concatenate(seen)
                row["mean"].append(stats.mean(values))
                row["std"].append(stats.std(values))
                if kind == "activations":
                    row["saturated"].append(stats.saturated(values, self.saturation))
                self.histograms[kind][layer] = stats.histogram(values, self.bins)
        for handle in self._tensor_handles:  # the step's graph is done with
            handle.remove()
        self._tensor_handles = []
        self._seen = {"activations": {}, "gradients": {}}
        self.last_events, self.events = self.events, []
        self.steps += 1

    # --- reading --------------------------------------------------------------------------
    def label(self, layer: str) -> str:
        """``"name (Type)"``, how plots and reports name a layer."""
        return f"{layer or 'model'} ({self.layer_types[layer]})"

    def latest(self, kind: str, stat: str) -> dict[str, float]:
        """``{name: value}`` of one statistic at the last step."""
        return {name: row[stat][-1] for name, row in self.history[kind].items() if row[stat]}

    def report(self) -> str:
        """The last step as text, one line per layer and per parameter, like the lecture's
        printouts."""
        lines = []
        for layer, row in self.history["activations"].items():
            if row["mean"]:
                lines.append(f"{self.label(layer)}: mean {row['mean'][-1]:+.2f}, "
                             f"std {row['std'][-1]:.2f}, "
                             f"saturated {row['saturated'][-1]:.2%}")
        for layer, row in self.history["gradients"].items():
            if row["std"]:
                lines.append(f"{self.label(layer)} output grad: mean {row['mean'][-1]:+e}, "
                             f"std {row['std'][-1]:e}")
        for name, row in self.history["parameters"].items():
            if row["grad_std"]:
                lines.append(f"{name} {self.parameter_shapes[name]}: grad std "
                             f"{row['grad_std'][-1]:e}, grad:data {row['grad_to_data'][-1]:e}, "
                             f"update:data {row['update_to_data'][-1]:e}")
        return "\n".join(lines)

    # --- drawing (matplotlib) -------------------------------------------------------------
    def plot_activations(self, layers=None, ax=None):
        """Histograms of the layers' outputs at the last step (see ``plots``)."""
        return plots.plot_activations(self, layers=layers, ax=ax)

    def plot_gradients(self, which: str = "layers", names=None, ax=None):
        """Histograms of the gradients at the last step: of the layers' outputs
        (``which="layers"``) or of the weights (``which="weights"``)."""
        return plots.plot_gradients(self, which=which, names=names, ax=ax)

    def plot_update_ratios(self, names=None, ax=None):
        """log10 of the update:data ratio of each weight over the steps."""
        return plots.plot_update_ratios(self, names=names, ax=ax)

    def plot_history(self, kind: str, stat: str, names=None, log: bool = True, ax=None):
        """One statistic of ``history`` over the steps, one curve per layer or parameter."""
        return plots.plot_history(self, kind, stat, names=names, log=log, ax=ax)
