"""PyTorch's ``out=`` keyword (``torch.matmul(a, b, out=c)``): the result is written into an
existing tensor instead of a new one.

Such a write cannot be part of a graph, so, as in PyTorch, it is refused when an argument
(``out`` included) requires grad while grad mode is on. A different shape replaces ``out``'s
contents (PyTorch resizes it).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..autograd import forward_ad, grad_mode
from .operands import is_tensor

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


def _any_requires_grad(values) -> bool:
    for v in values:
        if is_tensor(v) and v._requires_grad:
            return True
        if isinstance(v, (list, tuple)) and _any_requires_grad(v):
            return True
    return False


def write_out(out: Tensor, fn: Callable[..., Tensor], *args: object, **kwargs: object) -> Tensor:
    """``fn(*args, **kwargs)`` written into the existing tensor ``out``: what the ops that take
    ``out=`` (``add``, ``exp``, ``matmul``...) do when it is given."""
    if grad_mode.state.enabled and _any_requires_grad((out, *args, *kwargs.values())):
        raise RuntimeError(
            f"{fn.__name__}(): functions with out=... arguments don't support automatic "
            "differentiation, but one of the arguments requires grad.")
    if forward_ad.state.active and forward_ad.has_tangent((out, *args, *kwargs.values())):
        raise NotImplementedError(f"Trying to use forward AD with {fn.__name__}_out that does "
                                  "not support it because it is an out= function")
    with grad_mode.no_grad():
        result = fn(*args, **kwargs)
        if result.shape == out.shape:
            out.copy_(result.to(out.dtype))
        else:
            out.data = result.to(out.dtype)
    return out


def with_out(fn: Callable[..., Tensor]) -> Callable[..., Tensor]:
    """``fn`` with an extra ``out=`` keyword that receives the result in place (for a function
    of your own; the built-in ops take ``out=`` themselves)."""

    @functools.wraps(fn)
    def wrapper(*args, out=None, **kwargs):
        if out is None:
            return fn(*args, **kwargs)
        return write_out(out, fn, *args, **kwargs)

    return wrapper
