"""What old code still asks of a ``Function``'s ctx: ``ctx.saved_variables``, the name
``saved_tensors`` had before PyTorch 0.4 (deprecated, with PyTorch's warning)."""

from __future__ import annotations

import warnings


class LegacyCtx:
    """Mixed into ``BackwardNode`` (function.py)."""

    @property
    def saved_variables(self) -> tuple:
        warnings.warn("'saved_variables' is deprecated; use 'saved_tensors'", DeprecationWarning,
                      stacklevel=2)
        return self.saved_tensors
