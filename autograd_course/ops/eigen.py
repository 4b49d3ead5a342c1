"""Eigenpairs of symmetric matrices: ``lobpcg``.

For a symmetric ``A`` (or a batch of them), ``A U = U diag(D)``: the columns of ``U`` are
orthonormal eigenvectors, ``D`` their eigenvalues. ``lobpcg(A, k)`` gives the ``k`` largest
(or, with ``largest=False``, smallest) of them.

PyTorch's ``lobpcg`` finds them by iterating (LOBPCG: it only ever multiplies ``A`` by a few
vectors, which suits huge sparse matrices). For the small dense matrices of a course this
module decomposes ``A`` completely (``SymEig``) and keeps ``k`` eigenpairs: the same
eigenpairs, each eigenvector up to its sign (LOBPCG's sign depends on where it started).

The backward of the complete decomposition, with ``F[i, j] = 1 / (d_j - d_i)`` off the
diagonal (0 on it):  dA = U (diag(dD) + (Uᵀ dU) ∘ F) Uᵀ.  The eigenpairs that were not kept
get zero gradients, which gives what PyTorch computes for the kept ones alone (through a
Sylvester equation). The formula is made of differentiable ops on the saved ``D`` and ``U``,
so it can itself be differentiated (``create_graph``). As in PyTorch, when ``A`` requires
grad it is first made exactly symmetric, ``(A + Aᵀ) / 2``, so its gradient is symmetric too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..autograd.function import Function
from .combine import where

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


class SymEig(Function):
    """D, U = the eigenvalues (ascending) and eigenvectors of the symmetric A."""

    node_name = "SymEigBackward"

    @staticmethod
    def forward(ctx, A):
        values, vectors = A._xp.linalg.eigh(A._data)
        D, U = A._new(values), A._new(vectors)
        ctx.save_for_backward(D, U)
        return D, U

    @staticmethod
    def backward(ctx, grad_D, grad_U):
        D, U = ctx.saved_tensors
        gaps = D.unsqueeze(-2) - D.unsqueeze(-1)  # gaps[i, j] = d_j - d_i
        identity = D.new_ones(D.shape[-1]).diag()
        off_diagonal = identity == 0
        F = where(off_diagonal, 1 / where(off_diagonal, gaps, 1.0), 0.0)
        inner = (U.mT @ grad_U) * F if grad_U is not None else 0.0
        if grad_D is not None:
            inner = inner + grad_D.unsqueeze(-1) * identity  # diag(dD)
        return U @ inner @ U.mT


def _pairs_to_keep(m: int, k: int, largest: bool) -> list:
    """Which of the ascending eigenpairs to return, in PyTorch's order: the largest first
    (descending), or the smallest first (ascending)."""
    return list(range(m - 1, m - 1 - k, -1)) if largest else list(range(k))


def lobpcg(A: Tensor, k: int | None = None, B: Tensor | None = None, X: Tensor | None = None,
           n: int | None = None, iK: Tensor | None = None, niter: int | None = None,
           tol: float | None = None, largest: bool | None = None, method: str | None = None,
           tracker=None, ortho_iparams=None, ortho_fparams=None, ortho_bparams=None) -> tuple:
    """(D, U): the ``k`` largest (``largest=False``: smallest) eigenvalues of the symmetric
    ``A`` and their eigenvectors, as columns. ``X``: the starting vectors of PyTorch's
    iteration (here only their number counts: ``k`` defaults to it). ``niter``, ``tol``,
    ``method`` and the other iteration settings are accepted and not needed; a generalized
    problem (``B``) is not supported."""
    if A.shape[-2] != A.shape[-1]:
        raise AssertionError(f"A must be square, got shape {A.shape}")
    if B is not None:
        raise NotImplementedError("autograd_course's lobpcg solves A x = λ x only (B=None)")
    m = A.shape[-1]
    k = (1 if X is None else X.shape[-1]) if k is None else k
    n = (k if n is None else n) if X is None else X.shape[-1]
    if m < 3 * n:
        raise ValueError(f"LOBPCG algorithm is not applicable when the number of A rows (={m})"
                         f" is smaller than 3 x the number of requested eigenpairs (={n})")
    if A.requires_grad:
        A = (A + A.mT) / 2
    D, U = SymEig.apply(A)
    keep = _pairs_to_keep(m, k, True if largest is None else largest)
    index = A._new(A._xp.asarray(keep, dtype=np.int64))
    return D.index_select(-1, index), U.index_select(-1, index)
