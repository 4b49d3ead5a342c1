"""A learner's ``Function`` under forward-mode AD: what PyTorch checks of its ``jvp``.

A built-in op's forward-mode rule is written here once and trusted; a learner's ``jvp`` is
checked, as PyTorch's ``_process_forward_mode_AD`` (custom_function.cpp) checks it, so that
tangents keep the same aliasing as the values they go with:

* ``forward`` runs with forward mode off (``ForwardOff``): its own ops carry no tangents; the
  ``jvp`` gives the outputs theirs.
* An input changed in place (``ctx.mark_dirty``) is returned as itself, so its tangent must
  change in place too: the ``jvp`` must write into the tangent it was given (its version
  moves) and return that very tensor.
* An output that is a view of an input (or the input itself, which a ``Function`` returns as
  a view of it) must get a tangent that is the same view of the input's tangent: a view
  whose base is that tangent (or that tangent's base, when the tangent is itself a view).
  Then writing through the output writes through the input, for tangents as for values.
"""

from __future__ import annotations

from ..tensor_base import TensorBase
from . import grad_mode
from .forward_switch import switch

INPLACE_NOT_INPLACE = (
    "An inplace custom Function is not modifying the forward mode gradients inplace. If the "
    "forward is modifying an input inplace, then the jvp function must modify the "
    "corresponding gradient inplace.")
INPLACE_NOT_AS_IS = (
    "An inplace custom Function is not returning the forward mode gradients as-is. If the "
    "forward is modifying an input inplace, then the jvp function must modify the gradient "
    "inplace and return it as-is.")
VIEW_NOT_A_VIEW = ("A custom Function's forward is returning a view (or an input as-is) but "
                   "the jvp is not returning a view.")
VIEW_OTHER_BASE = ("A custom Function is returning a view but the jvp is not returning a view "
                   "of the same base as the given grad input.")
VIEW_OF_OTHER = ("A custom Function is returning a view but the jvp is not returning a view "
                 "of the given grad input.")


class ForwardOff:
    """``with ForwardOff():`` around a learner's ``forward``: grad mode and forward mode off
    (nothing its ops do is recorded or carries a tangent); both restored afterwards."""

    def __enter__(self) -> None:
        self.grad, self.forward = grad_mode.state.enabled, switch.enabled
        grad_mode.state.enabled = switch.enabled = False

    def __exit__(self, *exc_info) -> None:
        grad_mode.state.enabled, switch.enabled = self.grad, self.forward


def versions(tangents) -> list:
    """Each input tangent's version before the ``jvp`` runs (None: no tangent, or an
    inference tensor, which keeps no version)."""
    return [None if t is None or t._inference else t._version for t in tangents]


def check_dirty(args: tuple, dirty, outputs: tuple, result: tuple, given: list,
                before: list) -> None:
    """An output marked dirty is an input; if that input had a tangent (``given``, with its
    version ``before``), the ``jvp`` must have changed it in place and returned it as is."""
    for out, t in zip(outputs, result):
        if not any(out is d for d in dirty):
            continue
        i = next((i for i, a in enumerate(args) if a is out), None)
        if i is None or given[i] is None:
            continue  # (an input without tangent: the returned one becomes its tangent)
        if t is None or (before[i] is not None and t._version == before[i]):
            raise RuntimeError(INPLACE_NOT_INPLACE)
        if t is not given[i]:
            raise RuntimeError(INPLACE_NOT_AS_IS)


def _base_of(tensor):
    return tensor if tensor._base is None else tensor._base


def check_views(args: tuple, given: list, dirty, raw: tuple, outputs: tuple,
                result: tuple) -> None:
    """Each output (as returned: an input comes back as a view of it) that is a view of an
    input with a tangent must get, from the ``jvp``, a view of that tangent's base."""
    for plain, out, t in zip(raw, outputs, result):
        if t is None or not isinstance(out, TensorBase) or out._base is None or any(
                plain is d for d in dirty):
            continue
        j = next((j for j, a in enumerate(args)
                  if isinstance(a, TensorBase) and _base_of(a) is out._base), None)
        if j is None or given[j] is None:
            continue
        if t._base is None:
            raise RuntimeError(VIEW_NOT_A_VIEW)
        if given[j]._base is not None and t._base is not given[j]._base:
            raise RuntimeError(VIEW_OTHER_BASE)
        if given[j]._base is None and t._base is not given[j]:
            raise RuntimeError(VIEW_OF_OTHER)
