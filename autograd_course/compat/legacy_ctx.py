"""What old or low-level code still asks of a ``Function``'s ctx: ``ctx.saved_variables``, the
name ``saved_tensors`` had before PyTorch 0.4 (deprecated, with PyTorch's warning); PyTorch's
private switch ``ctx._materialize_non_diff_grads``; and the flag of a Function whose saved
tensors may be read only once (``clear_saved_tensors_on_access``). And what old code did with
a ``Function`` itself: make an instance of it (deprecated) and call it (refused)."""

from __future__ import annotations

import warnings

from .. import _messages


class LegacyCtx:
    """Mixed into ``BackwardNode`` (function.py)."""

    # False: backward gets None, not zeros, for the non-differentiable outputs (those marked
    # so, and integer ones: BackwardNode.non_differentiable_outputs)
    _materialize_non_diff_grads = True
    cleared_on_access = False  # saved_tensors read once by a clear_saved_tensors_on_access Function

    @property
    def saved_variables(self) -> tuple:
        warnings.warn("'saved_variables' is deprecated; use 'saved_tensors'", DeprecationWarning,
                      stacklevel=2)
        return self.saved_tensors


class LegacyFunction:
    """Mixed into ``Function`` (function.py): the style of PyTorch before 0.4, an instance per
    call, ``MyFunction()(x)``. Making one warns; calling it raises PyTorch's error."""

    def __init__(self, *args, **kwargs) -> None:
        warnings.warn(_messages.INSTANTIATED.format(cls=type(self)), DeprecationWarning,
                      stacklevel=2)

    def __call__(self, *args, **kwargs):
        raise RuntimeError(_messages.LEGACY_CALL)
