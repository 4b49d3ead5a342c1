"""A plain backward: one that records nothing, so a backward formula may work on the arrays.

The engine runs every backward formula with grad mode off unless ``create_graph=True``; a
formula's ops then build no graph, and their results are only ever added up. When, besides,
no input carries a forward-mode tangent and no profile records the ops (``aten::mm``...), an
op's formula may compute its result on the arrays directly: the same NumPy calls, the same
bits, without an op call (and its checks and views) per step. Each op that does so keeps its
formula in tensor ops for everything else, ``create_graph=True`` first.
"""

from __future__ import annotations

from ..autograd import forward_ad, grad_mode, profiler


def plain_backward(*tensors) -> bool:
    """No ``create_graph`` (grad mode off), no tangent on ``tensors``, no profile running."""
    return not (grad_mode.state.enabled or profiler.state.enabled
                or forward_ad.any_dual(tensors))
