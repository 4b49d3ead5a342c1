"""The nuclear norm of a matrix: the sum of its singular values (``norm(A, p='nuc')``).

With A = U Σ Vᵀ (the thin SVD), each singular value σ_i = u_iᵀ A v_i, so dσ_i/dA = u_i v_iᵀ
(for distinct singular values), and the gradient of Σ_i g_i σ_i is U diag(g) Vᵀ. PyTorch
computes the norm as ``svdvals(A).sum(-1)``: its node is ``SumBackward1`` over the SVD's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..autograd.function import Function
from .dims import normalize_dim

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


class SingularValues(Function):
    """σ = the singular values of each matrix (the last two dims), largest first;
    dA = U diag(dσ) Vᵀ."""

    node_name = "LinalgSvdBackward0"

    @staticmethod
    def forward(ctx, a):
        u, s, vh = a._xp.linalg.svd(a._data, full_matrices=False)
        ctx.u, ctx.vh = a._new(u), a._new(vh)
        return a._new(s)

    @staticmethod
    def backward(ctx, grad):
        return (ctx.u * grad.unsqueeze(-2)).matmul(ctx.vh)


def nuclear_norm(input: Tensor, dim: tuple[int, int] | None = None,
                 keepdim: bool = False) -> Tensor:
    """Σ singular values of the matrices spanned by the two dims ``dim`` (the last two)."""
    if input.ndim < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 "
                           "dimensions.")
    if dim is None and input.ndim != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got "
                           f"{' '.join(str(d) for d in range(input.ndim))}")
    dims = (0, 1) if dim is None else (dim,) if isinstance(dim, int) else tuple(dim)
    if len(dims) != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got "
                           f"{' '.join(str(d) for d in dims)}")
    rows, cols = (normalize_dim(d, input.ndim) for d in dims)
    matrices = input.movedim((rows, cols), (-2, -1))
    out = SingularValues.apply(matrices).sum(-1)
    if keepdim:
        for d in sorted((rows, cols)):
            out = out.unsqueeze(d)
    return out
