"""What old code still asks of a ``Function``'s ctx: ``ctx.saved_variables``, the name
``saved_tensors`` had before PyTorch 0.4 (deprecated, with PyTorch's warning); and what the
ctx keeps for PyTorch's private switch ``ctx._materialize_non_diff_grads``."""

from __future__ import annotations

import warnings


class LegacyCtx:
    """Mixed into ``BackwardNode`` (function.py)."""

    # False: backward gets None, not zeros, for the non-differentiable outputs (those marked
    # so, and integer ones), whose numbers recording keeps here
    _materialize_non_diff_grads = True
    non_differentiable_outputs: tuple = ()
    cleared_on_access = False  # saved_tensors read once by a clear_saved_tensors_on_access Function

    @property
    def saved_variables(self) -> tuple:
        warnings.warn("'saved_variables' is deprecated; use 'saved_tensors'", DeprecationWarning,
                      stacklevel=2)
        return self.saved_tensors
