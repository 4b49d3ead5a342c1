"""How many function transforms (``ag.func``: grad, vjp, jvp, jacrev, jacfwd, hessian, vmap)
are running now. The transforms count themselves in and out (``inside``, ``inside_vmap``:
vmap apart, as it differentiates nothing, so a ``grad`` inside it still gives plain results
and not ones that keep their graph); ``Function.apply``
reads the count: inside a transform, a learner's ``Function`` must define ``setup_context``
(a ``forward`` without ``ctx``), as PyTorch requires, since a transform calls its ``forward``
and its ``setup_context`` apart."""

from __future__ import annotations

NO_SETUP_CONTEXT = (
    "In order to use an autograd.Function with functorch transforms (vmap, grad, jvp, jacrev, "
    "...), it must override the setup_context staticmethod. For more details, please see "
    "https://pytorch.org/docs/main/notes/extending.func.html")


class depth:
    level = 0  # how many differentiating transforms (grad, vjp, jvp, jacrev...) are running
    vmaps = 0  # how many vmaps are running


def inside(func, *args, **kwargs):
    """``func(*args)`` one transform deeper."""
    depth.level += 1
    try:
        return func(*args, **kwargs)
    finally:
        depth.level -= 1


def inside_vmap(func, *args, **kwargs):
    """``func(*args)`` one vmap deeper."""
    depth.vmaps += 1
    try:
        return func(*args, **kwargs)
    finally:
        depth.vmaps -= 1


def check_function(cls) -> None:
    """Refuse a learner's Function without ``setup_context`` inside a transform."""
    if (depth.level or depth.vmaps) and not cls._setup_apart:
        raise RuntimeError(NO_SETUP_CONTEXT)
