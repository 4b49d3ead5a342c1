"""How many function transforms (``ag.func``: grad, vjp, jvp, jacrev, jacfwd, hessian, vmap)
are running now. The transforms count themselves in and out (``inside``; ``deeper("vmaps")``:
vmap apart, as it differentiates nothing, so a ``grad`` inside it still gives plain results
and not ones that keep their graph); ``Function.apply``
reads the count: inside a transform, a learner's ``Function`` must define ``setup_context``
(a ``forward`` without ``ctx``), as PyTorch requires, since a transform calls its ``forward``
and its ``setup_context`` apart."""

from __future__ import annotations

import contextlib

NO_SETUP_CONTEXT = (
    "In order to use an autograd.Function with functorch transforms (vmap, grad, jvp, jacrev, "
    "...), it must override the setup_context staticmethod. For more details, please see "
    "https://pytorch.org/docs/main/notes/extending.func.html")


class depth:
    level = 0  # how many differentiating transforms (grad, vjp, jvp, jacrev...) are running
    vmaps = 0  # how many vmaps are running


@contextlib.contextmanager
def deeper(counter: str = "level"):
    """One transform deeper while the block runs (``counter``: "level" or "vmaps")."""
    setattr(depth, counter, getattr(depth, counter) + 1)
    try:
        yield
    finally:
        setattr(depth, counter, getattr(depth, counter) - 1)


def inside(func, *args, **kwargs):
    """``func(*args)`` one differentiating transform deeper."""
    with deeper():
        return func(*args, **kwargs)


def check_function(cls) -> None:
    """Refuse a learner's Function without ``setup_context`` inside a transform."""
    if (depth.level or depth.vmaps) and not cls._setup_apart:
        raise RuntimeError(NO_SETUP_CONTEXT)
