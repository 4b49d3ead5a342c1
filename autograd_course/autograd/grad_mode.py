"""Grad mode: whether new operations are recorded in the graph.

One switch decides it. ``no_grad`` turns it off for a block (or a function, as a decorator),
``enable_grad`` turns it back on, ``set_grad_enabled(flag)`` sets it either way. Each restores
the previous state on exit, so they nest.
"""

from __future__ import annotations

import functools
import inspect
import warnings


class _GradMode:
    __slots__ = ("enabled", "inference", "user")

    def __init__(self) -> None:
        self.enabled = True
        self.inference = False  # inside inference_mode: new tensors report is_inference()
        # the mode the blocks below set; ``Function.apply`` turns ``enabled`` off around a
        # forward, not this (a view remembers whether it was taken under no_grad, views.py)
        self.user = True


state = _GradMode()


def _switch(mode: bool) -> tuple:
    """Set grad mode; return what to restore."""
    prev = state.enabled, state.user
    state.enabled = state.user = mode
    return prev


def is_grad_enabled() -> bool:
    """True when operations on tensors that require grad are being recorded."""
    return state.enabled


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


class inference_mode(no_grad):
    """Like ``no_grad``, and the tensors made inside report ``is_inference()``.

    (PyTorch also skips version counting there; our engine has no cheaper mode than no_grad.)
    """

    def __new__(cls, mode=True):
        if callable(mode):  # bare ``@inference_mode`` above a def
            return _decorate(mode, cls)
        return object.__new__(cls)

    def __init__(self, mode: bool = True) -> None:
        self.mode = not mode

    def __enter__(self) -> None:
        super().__enter__()
        self.prev_inference = state.inference
        state.inference = not self.mode

    def __exit__(self, *exc) -> None:
        super().__exit__(*exc)
        state.inference = self.prev_inference

    def __call__(self, func):
        mode = not self.mode
        return _decorate(func, lambda: inference_mode(mode))
