"""``ag.utils.checkpoint``: trade compute for memory, as ``torch.utils.checkpoint`` does.

``checkpoint(function, *args, use_reentrant=False)`` runs ``function(*args)`` but keeps none
of the tensors its operations save for backward. It keeps a number in place of each (a pack
hook, see ``autograd.graph.saved_tensors_hooks``), and when backward first needs one, it runs
``function`` again, with grad mode on and the random state it had the first time, collecting
what that second run saves; each number then unpacks to its recomputed tensor.

``use_reentrant=True`` is PyTorch's older way (its default when the argument is left out, with
a warning): ``function`` runs under ``no_grad`` inside one ``Function``, whose backward runs it
again with grad mode on and calls ``backward`` on that fresh graph.
"""

from __future__ import annotations

import contextlib
import warnings

from .. import random as _random
from ..autograd import engine, grad_mode, hooks
from ..autograd.function import Function
from ..autograd.saved_tensor import SavedTensor
from ..autograd.saved_tensor_hooks import saved_tensors_hooks
from ..nn.containers import Sequential
from ..tensor_base import TensorBase

__all__ = ["CheckpointError", "GraphExecGroup", "checkpoint", "checkpoint_sequential",
           "set_checkpoint_debug_enabled", "set_checkpoint_early_stop"]

USE_REENTRANT = (
    "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. Starting "
    "in PyTorch 2.9, calling checkpoint without use_reentrant will raise an exception. "
    "use_reentrant=False is recommended, but if you need to preserve the current default "
    "behavior, you can pass use_reentrant=True. Refer to docs for more details on the "
    "differences between the two variants.")
DEBUG_TIP = (
    "\nTip: To see a more detailed error message, either pass `debug=True` to\n"
    "`torch.utils.checkpoint.checkpoint(...)` or wrap the code block\n"
    "with `with torch.utils.checkpoint.set_checkpoint_debug_enabled(True):` to\n"
    "enable checkpoint\u2011debug mode globally.\n")


DEBUG_EXPLAINED = (
    "\nERROR: Detected non-determinism while running activation checkpointing\n\n"
    "You are seeing this error because you passed `debug=True` to checkpoint and tensors to be "
    "saved during the original forward and differ between those saved during recomputation. "
    "This can happen if different operators were ran in the original forward and in the "
    "recomputation.\n")
OVERLAPPING = (
    "Performing two backward calls that overlap (i.e. require the same saved activation in "
    "order to compute gradients) is not allowed while under the "
    "torch.utils.checkpoint.GraphExecGroup context. ")

# what the context managers below set, for every checkpoint made (or run) under them;
# None: each checkpoint's own argument decides
_settings = {"early_stop": None, "debug": None, "group": None}


@contextlib.contextmanager
def set_checkpoint_early_stop(enable: bool):
    """Checkpoints made under it stop recomputing once all they need is saved (or not)."""
    previous, _settings["early_stop"] = _settings["early_stop"], enable
    try:
        yield
    finally:
        _settings["early_stop"] = previous


@contextlib.contextmanager
def set_checkpoint_debug_enabled(enabled: bool | None):
    """Overrides every checkpoint's ``debug`` argument (``None``: leaves it to them)."""
    previous, _settings["debug"] = _settings["debug"], enabled
    try:
        yield
    finally:
        _settings["debug"] = previous


class GraphExecGroup:
    """Backward calls made under one instance recompute each checkpoint at most once (they
    must then use disjoint parts of the graph: unpacking a tensor twice is an error)."""

    def __enter__(self) -> GraphExecGroup:
        if _settings["group"] is not None:
            raise RuntimeError(f"GraphExecGroup contexts cannot be nested. Already inside "
                               f"group {_settings['group']}")
        _settings["group"] = self
        return self

    def __exit__(self, *exc_info) -> None:
        _settings["group"] = None


REENTRANT_NEEDS_BACKWARD = (
    "When use_reentrant=True, torch.utils.checkpoint is incompatible with .grad() or passing "
    "an `inputs` parameter to .backward(). To resolve this error, you can either set "
    "use_reentrant=False, or call .backward() without passing the `inputs` argument.")


class CheckpointError(RuntimeError):
    """The recomputation did not save what the first run saved."""


class _StopRecomputing(Exception):
    """Raised inside the second run once it has saved everything backward needs."""


def _metadata(tensor) -> dict:
    return {"shape": tensor.shape, "dtype": tensor.dtype, "device": tensor.device}


class _Recomputation:
    """One checkpointed call: its inputs, what its first run saved (as numbers), and its
    recomputation, made once per backward pass (a ``retain_graph`` pass after it recomputes
    again). The tensor inputs are kept as saved tensors, as PyTorch keeps them: the saved-tensor
    hooks around the call see them, and an input changed in place before backward is an error."""

    def __init__(self, function, args, kwargs, rng_state, early_stop: bool, context,
                 debug: bool) -> None:
        self.function, self.kwargs, self.debug = function, kwargs, debug
        self.args = [SavedTensor(a, is_output=False) if isinstance(a, TensorBase) else a
                     for a in args]
        self.rng_state, self.early_stop, self.context = rng_state, early_stop, context
        self.saved = []  # the metadata of each tensor the first run saved
        self.recomputed = {}  # backward pass id -> the recomputed tensors, in saving order

    def pack(self, tensor) -> int:
        self.saved.append(_metadata(tensor))
        return len(self.saved) - 1

    def unpack(self, index: int):
        """The recomputed tensor: one recomputation per backward pass (or per
        ``GraphExecGroup``); outside backward, a recomputation of its own, not kept."""
        task, group = hooks.current_graph_task(), _settings["group"]
        if task is None and group is None:
            return self._recompute()[index]
        key = task.id if group is None else group
        if key not in self.recomputed:
            self.recomputed[key] = self._recompute()
        values = self.recomputed[key]
        if values[index] is None:
            raise CheckpointError(
                "torch.utils.checkpoint: Unpack is being triggered for a tensor that was "
                f"already unpacked once. {'' if group is None else OVERLAPPING}If you are "
                "calling ctx.saved_tensors in backward, make sure to do so only once. Otherwise "
                "please open an issue with details on your use case.")
        value, values[index] = values[index], None
        return value

    def _recompute(self) -> list:
        values = []

        def keep(tensor) -> None:
            if len(values) == len(self.saved):  # (only without early stop)
                raise CheckpointError("torch.utils.checkpoint: trying to save more tensors "
                                      "during recomputation than during the original forward "
                                      f"pass.\n{DEBUG_TIP}")
            values.append(tensor.detach() if tensor.requires_grad else tensor)
            if self.early_stop and len(values) == len(self.saved):
                raise _StopRecomputing  # the rest of the function is not needed

        state = _random.get_rng_state()
        if self.rng_state is not None:
            _random.set_rng_state(self.rng_state)
        try:
            with saved_tensors_hooks(keep, _never_unpacked), grad_mode.enable_grad(), \
                    self.context:
                self.function(*self._inputs(), **self.kwargs)
        except _StopRecomputing:
            pass
        finally:
            _random.set_rng_state(state)
        self._check(values)
        return values

    def _inputs(self) -> list:
        return [a.unpack(None) if isinstance(a, SavedTensor) else a for a in self.args]

    def _check(self, values: list) -> None:
        """The recomputation saved what the first run saved; else PyTorch's error, or with
        ``debug`` (instead) an explanation listing what each run saved."""
        try:
            self._compare(values)
        except CheckpointError:
            if not self.debug:
                raise
            saved = "".join(f"  {meta}\n" for meta in self.saved)
            again = "".join(f"  {_metadata(value)}\n" for value in values)
            raise CheckpointError(f"Tensors saved during the original forward:\n{saved}"
                                  f"Tensors saved during recomputation:\n{again}"
                                  f"{DEBUG_EXPLAINED}") from None

    def _compare(self, values: list) -> None:
        if len(values) != len(self.saved):
            raise CheckpointError(
                "torch.utils.checkpoint: A different number of tensors was saved during the "
                "original forward and recomputation.\n"
                f"Number of tensors saved during forward: {len(self.saved)}\n"
                f"Number of tensors saved during recomputation: {len(values)}.\n{DEBUG_TIP}")
        different = ""
        for i, (meta, value) in enumerate(zip(self.saved, values)):
            if meta != _metadata(value):
                different += (f"tensor at position {i}:\nsaved metadata: {meta}\n"
                              f"recomputed metadata: {_metadata(value)}\n")
        if different:
            raise CheckpointError(
                "torch.utils.checkpoint: Recomputed values for the following tensors have "
                f"different metadata than during the forward pass.\n{different}.\n{DEBUG_TIP}")


def _never_unpacked(packed):
    raise AssertionError("a tensor saved while recomputing is not unpacked")


def checkpoint(function, *args, use_reentrant: bool | None = None, context_fn=None,
               determinism_check: str = "default", debug: bool = False,
               early_stop: bool = True, **kwargs):
    """``function(*args, **kwargs)``, keeping nothing for backward: recomputed when needed."""
    if use_reentrant is None:
        warnings.warn(USE_REENTRANT, UserWarning, stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs and use_reentrant:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))
    if use_reentrant:
        if context_fn is not None or debug is not False:
            raise ValueError("Passing `context_fn` or `debug` is only supported when "
                             "use_reentrant=False.")
        return CheckpointFunction.apply(function, preserve, *args)
    if not grad_mode.is_grad_enabled():  # nothing is saved: nothing to recompute
        return function(*args, **kwargs)
    rng_state = _random.get_rng_state() if preserve else None
    forward_context, recompute_context = (context_fn() if context_fn is not None else
                                          (contextlib.nullcontext(), contextlib.nullcontext()))
    if _settings["early_stop"] is not None:
        early_stop = _settings["early_stop"]
    debug = debug if _settings["debug"] is None else _settings["debug"]
    call = _Recomputation(function, args, kwargs, rng_state, early_stop, recompute_context,
                          debug)
    with saved_tensors_hooks(call.pack, call.unpack), forward_context:
        return function(*args, **kwargs)


class CheckpointFunction(Function):
    """``use_reentrant=True``: forward under no_grad; backward runs it again and backward
    through that."""

    @staticmethod
    def forward(ctx, function, preserve, *args):
        ctx.function, ctx.args = function, args
        ctx.rng_state = _random.get_rng_state() if preserve else None
        if not any(isinstance(a, TensorBase) and a.requires_grad for a in args):
            warnings.warn("None of the inputs have requires_grad=True. Gradients will be None",
                          UserWarning, stacklevel=4)
        return function(*args)

    @staticmethod
    def backward(ctx, *grad_outputs):
        task = hooks.current_graph_task()  # its nested backward can only fill .grad
        if task.is_grad or task.wanted is not None:
            raise RuntimeError(REENTRANT_NEEDS_BACKWARD)
        inputs = [a.detach().requires_grad_(a.requires_grad) if isinstance(a, TensorBase)
                  else a for a in ctx.args]
        state = _random.get_rng_state()
        if ctx.rng_state is not None:
            _random.set_rng_state(ctx.rng_state)
        try:
            with grad_mode.enable_grad():
                outputs = ctx.function(*inputs)
        finally:
            _random.set_rng_state(state)
        outputs = outputs if isinstance(outputs, tuple) else (outputs,)
        pairs = [(o, g) for o, g in zip(outputs, grad_outputs)
                 if isinstance(o, TensorBase) and o.requires_grad]
        if not pairs:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is "
                               "not necessary")
        engine.backward([o for o, _ in pairs], [g for _, g in pairs])
        grads = [a.grad if isinstance(a, TensorBase) else None for a in inputs]
        return (None, None, *grads)


def checkpoint_sequential(functions, segments: int, input, use_reentrant: bool | None = None,
                          **kwargs):
    """Run ``functions`` (a list, or a ``Sequential``) in ``segments`` pieces; checkpoint all
    but the last."""
    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint.checkpoint_sequential: the use_reentrant parameter should "
            "be passed explicitly. In version 2.9 we will raise an exception if use_reentrant "
            "is not passed. use_reentrant=False is recommended, but if you need to preserve "
            "the current default behavior, you can pass use_reentrant=True. Refer to docs for "
            "more details on the differences between the two variants.", UserWarning,
            stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))

    def run(start: int, end: int):
        def forward(x):
            for j in range(start, end + 1):
                x = functions[j](x)
            return x
        return forward

    if isinstance(functions, Sequential):
        functions = list(functions.children())
    size = len(functions) // segments
    end = -1
    for start in range(0, size * (segments - 1), size):
        end = start + size - 1
        input = checkpoint(run(start, end), input, use_reentrant=use_reentrant,
                           preserve_rng_state=preserve)
    return run(end + 1, len(functions) - 1)(input)
