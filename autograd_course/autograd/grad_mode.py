"""Grad mode: whether new operations are recorded in the graph; and inference mode.

One switch decides it. ``no_grad`` turns it off for a block (or a function, as a decorator),
``enable_grad`` turns it back on, ``set_grad_enabled(flag)`` sets it either way. Each restores
the previous state on exit, so they nest.

``inference_mode`` is a stricter ``no_grad``: inside it built-in ops record nothing, even under
``enable_grad``, and every tensor made is an *inference tensor* (``x.is_inference()``), which
PyTorch spares the autograd bookkeeping: it has no version counter (``x._version`` raises),
and outside inference mode it may not be changed in place, set to require grad, or saved for
backward (tensor_base.py, saved_tensor.py). A view of it is one too; a view of a normal tensor
taken inside stays normal. The switches themselves live below the tensor, in
``autograd_state.py``.
"""

from __future__ import annotations

import functools
import inspect
import warnings

from ..autograd_state import state
from ..tensor_base import TensorBase


def _switch(mode: bool) -> tuple:
    """Set grad mode; return what to restore."""
    prev = state.enabled, state.user
    state.enabled = state.user = mode
    return prev


def is_grad_enabled() -> bool:
    """True when operations on tensors that require grad are being recorded."""
    return state.enabled


def is_inference_mode_enabled() -> bool:
    """True inside ``inference_mode`` (and not inside an ``inference_mode(False)`` in it)."""
    return state.inference


def autograd_sees(operands) -> bool:
    """Whether PyTorch's autograd layer sees a built-in op on these operands (only there are
    ops recorded and in-place writes into leaves refused): never inside inference mode, even
    under ``enable_grad``, and not when every tensor operand is an inference tensor."""
    if state.inference:
        return False
    for t in operands:
        if isinstance(t, TensorBase) and not t._inference:
            return True
    return False


class set_grad_enabled:  # PyTorch's name
    """Set grad mode to ``mode``; as a context manager, restore the old mode on exit."""

    def __init__(self, mode: bool) -> None:
        self.mode = bool(mode)
        self.prev = _switch(self.mode)

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc) -> None:
        state.enabled, state.user = self.prev

    def __call__(self, func):
        state.enabled, state.user = self.prev  # used as a decorator: do not change the mode now
        mode = self.mode
        return _decorate(func, lambda: set_grad_enabled(mode))


DECORATED_CLASS = (
    "Decorating classes is deprecated and will be disabled in future versions. You should only "
    "decorate functions or methods. To preserve the current behavior of class decoration, you "
    "can directly decorate the `__init__` method and nothing else.")


def _decorate(func, make_block):
    """Wrap ``func`` so that it runs inside ``make_block()`` (a fresh context manager per call).

    A generator function gets the block around each step of its body only, as in PyTorch:
    the caller's code between two ``next()`` calls runs in the caller's own grad mode.
    A class still works, with PyTorch's warning: calling it runs its ``__init__`` in the block.
    """
    if inspect.isclass(func):
        warnings.warn(DECORATED_CLASS, FutureWarning, stacklevel=3)
        cls = func

        def func(*args, **kwargs):
            return cls(*args, **kwargs)
    if inspect.isgeneratorfunction(func):
        @functools.wraps(func)
        def generator_wrapper(*args, **kwargs):
            gen = func(*args, **kwargs)
            try:
                with make_block():
                    value = next(gen)
                while True:
                    try:
                        sent = yield value
                    except GeneratorExit:
                        with make_block():
                            gen.close()
                        raise
                    except BaseException as err:  # thrown in by the caller: pass it on
                        with make_block():
                            value = gen.throw(err)
                    else:
                        with make_block():
                            value = gen.send(sent)
            except StopIteration as done:  # the body returned: return its value too
                return done.value

        return generator_wrapper

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        with make_block():
            return func(*args, **kwargs)

    return wrapper


class _GradModeBlock:
    """Shared body of ``no_grad`` and ``enable_grad``: a mode to hold inside a block.

    Three spellings work, as in PyTorch: ``with no_grad():``, ``@no_grad()`` and the bare
    ``@no_grad`` (then the class is called with the function itself and returns the wrapper).
    """

    mode = True

    def __new__(cls, func=None):
        if func is not None and callable(func):  # bare ``@no_grad`` above a def
            return _decorate(func, cls)
        return super().__new__(cls)

    def __init__(self, func=None) -> None:
        pass

    def __enter__(self) -> None:
        self.prev = _switch(self.mode)

    def __exit__(self, *exc) -> None:
        state.enabled, state.user = self.prev

    def __call__(self, func):
        return _decorate(func, type(self))


class no_grad(_GradModeBlock):
    """Do not record operations: results have ``requires_grad=False`` and no ``grad_fn``.

    Use it for inference and for updating parameters by hand; it saves the memory the graph
    would hold.
    """

    mode = False


class enable_grad(_GradModeBlock):
    """Record operations again, even inside ``no_grad``."""

    mode = True


class inference_mode(_GradModeBlock):
    """``no_grad``, stricter: nothing is recorded inside, and the tensors made are inference
    tensors (see the top of this file). ``inference_mode(False)`` turns it off again, and grad
    mode on, until the block ends; as a decorator, ``@inference_mode`` or
    ``@inference_mode()``."""

    def __new__(cls, mode=True):
        if not isinstance(mode, bool):  # bare ``@inference_mode`` above a def (PyTorch's test)
            return _decorate(mode, cls)
        return object.__new__(cls)

    def __init__(self, mode: bool = True) -> None:
        self.mode = mode

    def __enter__(self) -> None:
        self.prev = state.enabled, state.user, state.inference
        state.enabled = state.user = not self.mode
        state.inference = self.mode

    def __exit__(self, *exc) -> None:
        state.enabled, state.user, state.inference = self.prev

    def __call__(self, func):
        mode = self.mode
        return _decorate(func, lambda: inference_mode(mode))
