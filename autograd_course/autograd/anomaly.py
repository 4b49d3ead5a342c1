"""Anomaly mode: find the forward line whose backward went wrong.

When a backward formula fails, the error points into the engine, not at the line of your
forward pass that recorded the node. Under ``detect_anomaly()`` every node records the stack of
the forward call that made it (``node.metadata["traceback_"]``), and when running a node in
backward raises, a warning shows that forward stack. With ``check_nan`` (the default) a node
whose backward returns NaN raises at once, naming the node and which of its outputs.
"""

from __future__ import annotations

import os
import traceback
import warnings

import numpy as np

from .._backend import to_numpy


class _State:
    enabled = False
    check_nan = True


state = _State()
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def is_anomaly_enabled() -> bool:
    return state.enabled


def is_anomaly_check_nan_enabled() -> bool:
    return state.check_nan


class detect_anomaly:
    """Context manager: anomaly mode on inside it (it warns that it slows everything)."""

    def __init__(self, check_nan: bool = True) -> None:
        self.prev, self.prev_check_nan = state.enabled, state.check_nan
        self.check_nan = check_nan
        warnings.warn("Anomaly Detection has been enabled. This mode will increase the runtime "
                      "and should only be enabled for debugging.", UserWarning, stacklevel=2)

    def __enter__(self) -> None:
        state.enabled, state.check_nan = True, self.check_nan

    def __exit__(self, *exc) -> None:
        state.enabled, state.check_nan = self.prev, self.prev_check_nan


class set_detect_anomaly:
    """Turn anomaly mode on or off now; as a context manager, restore it on exit."""

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        self.prev, self.prev_check_nan = state.enabled, state.check_nan
        state.enabled, state.check_nan = mode, check_nan

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc) -> None:
        state.enabled, state.check_nan = self.prev, self.prev_check_nan


def store_traceback(node) -> None:
    """Keep the stack of the forward call that is making ``node`` (without the package's own
    frames, as PyTorch's C++ ops have none)."""
    stack = traceback.extract_stack()
    while stack and stack[-1].filename.startswith(_PACKAGE):
        stack.pop()
    node.metadata["traceback_"] = traceback.format_list(stack)


def check_nan(node, grad_inputs) -> None:
    """PyTorch's error when a node's backward returned NaN."""
    for i, g in enumerate(grad_inputs):
        if g is not None and np.isnan(to_numpy(g._data)).any():
            raise RuntimeError(f"Function '{node.name()}' returned nan values in its {i}th "
                               "output.")


def report(node) -> None:
    """Running ``node`` in backward raised: warn with the forward stack that made it."""
    stack = node.metadata.get("traceback_") if node._metadata else None
    if stack is None:
        warnings.warn("Error detected in " + node.name() + ". No forward pass information "
                      "available. Enable detect anomaly during forward pass for more "
                      "information.", UserWarning, stacklevel=4)
        return
    warnings.warn(f"Error detected in {node.name()}. Traceback of forward call that caused "
                  "the error:\n" + "".join(stack), UserWarning, stacklevel=4)
