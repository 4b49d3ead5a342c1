"""Forward mode's on/off switch, as PyTorch's private ``torch._C._set_fwd_grad_enabled``.

``forward_ad.py`` reads ``switch.enabled``: while it is off, ops carry no tangent, so what is
computed inside ``with _set_fwd_grad_enabled(False):`` is a constant for forward mode, as what
is computed inside ``no_grad`` is a constant for reverse mode. (``forward_ad`` re-exports
both names, as ``torch.autograd.forward_ad`` does.)
"""

from __future__ import annotations


class switch:
    enabled = True


def _is_fwd_grad_enabled() -> bool:
    """Whether ops propagate tangents."""
    return switch.enabled


class _set_fwd_grad_enabled:
    """Set the switch on construction (as PyTorch's does); restore it when the block ends."""

    def __init__(self, mode: bool) -> None:
        self.before, switch.enabled = switch.enabled, bool(mode)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc_info) -> None:
        switch.enabled = self.before
