"""A scaled input plus a scaled product: ``addmm`` (a matrix product: ``nn.Linear``), ``addbmm``
(a batch of matrix products, summed) and ``addr`` (an outer product), the siblings of ``addmv``
(linalg.py) and ``baddbmm`` (products.py).

* addbmm:  out = β·input + α·Σ_b A[b] @ B[b]
           dinput = β·dout,  dA[b] = α·dout @ B[b]ᵀ,  dB[b] = α·A[b]ᵀ @ dout
* addr:    out = β·input + α·(u ⊗ v),  out[i, j] = β·input[i, j] + α·u[i]·v[j]
           dinput = β·dout,  du = α·dout @ v,  dv = α·doutᵀ @ u

``input`` broadcasts to the result (its gradient is summed back to its shape). With β = 0
``input`` is not read at all (a NaN in it does not spread), as in PyTorch. For integer tensors
``addbmm`` drops the fraction of a float β or α (1.5 → 1), as ``addmm`` does, while ``addr``
refuses one; ``addr`` of bools is ``(β and input) or (α and u ⊗ v)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..autograd import forward_ad
from ..autograd.function import Function
from .devices import same_device
from .dims import normalize_dim
from .in_place_form import check_inplace, written_in_place
from .linalg import _column_major, _mm_grads, _shape_error
from .promotion import cast_to, not_implemented, result_type, scalar_type

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


def _scaled_input(input, beta, shape):
    """β·input as an array of the result's ``shape`` (zeros when β = 0: input is not read)."""
    xp = input._xp
    if beta == 0:
        return xp.zeros(shape, dtype=input._data.dtype)
    return xp.broadcast_to(input._data * beta if beta != 1 else input._data, shape)


# --- addmm: what nn.Linear records -------------------------------------------------------
class Addmm(Function):
    """out = β·bias + α·A B (what ``nn.Linear`` does on a batch, with β = α = 1);
    dbias = β·Σ dout over rows, dA = α·dout Bᵀ, dB = α·Aᵀ dout. With β = 0 the bias is not
    read at all (a NaN in it does not spread), as in PyTorch."""

    node_name = "AddmmBackward0"
    saved_names = ("mat1", "mat2")

    @staticmethod
    def forward(ctx, bias, a, b, beta=1, alpha=1):
        if a._data.shape[1] != b._data.shape[0]:
            raise _shape_error(a, b)
        need_bias, need_a, need_b = ctx.needs_input_grad[:3]
        ctx.save_for_backward(a if need_b else None, b if need_a else None)
        ctx.bias_shape, ctx.beta, ctx.alpha = bias._data.shape, beta, alpha
        ctx.column_major = _column_major(a._data), _column_major(b._data)
        out = a._data @ b._data
        if alpha != 1:
            out *= alpha
        if beta == 1:
            out += bias._data
        elif beta != 0:
            out += beta * bias._data
        else:  # still the shape that bias broadcasts to
            out = out + bias._xp.zeros_like(bias._data)
        return a._new(out)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        need_bias, need_a, need_b = ctx.needs_input_grad[:3]
        grad_bias = None
        if need_bias:
            grad_bias = (grad if ctx.beta == 1 else grad * ctx.beta).sum_to_size(ctx.bias_shape)
        grad_ab = grad if ctx.alpha == 1 else grad * ctx.alpha
        return (grad_bias, *_mm_grads(ctx, grad_ab, a, b, need_a, need_b), None, None)

    @staticmethod
    def jvp(ctx, t_bias, t_a, t_b, *_):
        """β·t_bias + α·(t_a @ b + a @ t_b)."""
        _, a, b = ctx.fw_args[:3]
        return forward_ad.add_tangents(
            None if t_bias is None else t_bias * ctx.beta,
            None if t_a is None else t_a.matmul(b) * ctx.alpha,
            None if t_b is None else a.matmul(t_b) * ctx.alpha)


def addmm(input: Tensor, mat1: Tensor, mat2: Tensor, *, beta: float = 1,
          alpha: float = 1) -> Tensor:
    """``beta * input + alpha * (mat1 @ mat2)``, input broadcasting."""
    same_device(input, mat1, mat2)
    if mat1._data.dtype.kind in "iu":  # PyTorch converts beta and alpha to the integer type
        beta, alpha = int(beta), int(alpha)
    if beta == 1 and alpha == 1:
        return Addmm.apply(input, mat1, mat2)
    return Addmm.apply(input, mat1, mat2, beta, alpha)


# --- addbmm, addr ---------------------------------------------------------------------------
class Addbmm(Function):
    """out = β·input + α·Σ_b batch1[b] @ batch2[b]. The sum of products is one matrix
    product, of the batches laid side by side: (n, B·m) @ (B·m, p), as PyTorch computes it."""

    node_name = "AddbmmBackward0"

    @staticmethod
    def forward(ctx, input, batch1, batch2, beta, alpha):
        ctx.save_for_backward(batch1, batch2)
        ctx.input_shape, ctx.beta, ctx.alpha = input.shape, beta, alpha
        (count, n, m), p = batch1.shape, batch2.shape[2]
        side_by_side = batch1._data.transpose(1, 0, 2).reshape(n, count * m)
        product = side_by_side @ batch2._data.reshape(count * m, p)
        out = _scaled_input(input, beta, (n, p)) + product * alpha
        return batch1._new(out.astype(batch1._data.dtype, copy=False))

    @staticmethod
    def backward(ctx, grad):
        batch1, batch2 = ctx.saved_tensors
        need_input, need_1, need_2 = ctx.needs_input_grad[:3]
        every = grad.unsqueeze(0).expand(batch1.shape[0], *grad.shape)  # dout for each b
        return ((grad * ctx.beta).sum_to_size(ctx.input_shape) if need_input else None,
                every.bmm(batch2.transpose(1, 2)) * ctx.alpha if need_1 else None,
                batch1.transpose(1, 2).bmm(every) * ctx.alpha if need_2 else None, None, None)


class Addr(Function):
    """out = β·input + α·(vec1 ⊗ vec2), for bools (β and input) or (α and vec1 ⊗ vec2)."""

    node_name = "AddrBackward0"

    @staticmethod
    def forward(ctx, input, vec1, vec2, beta, alpha):
        ctx.save_for_backward(vec1, vec2)
        ctx.input_shape, ctx.beta, ctx.alpha = input.shape, beta, alpha
        xp, shape = vec1._xp, (vec1.shape[0], vec2.shape[0])
        outer = vec1._data[:, None] * vec2._data[None, :]
        if outer.dtype == bool:
            kept = xp.broadcast_to(input._data, shape) if beta else xp.zeros(shape, bool)
            return vec1._new(kept | (outer & bool(alpha)))
        out = _scaled_input(input, beta, shape) + outer * alpha
        return vec1._new(out.astype(outer.dtype, copy=False))

    @staticmethod
    def backward(ctx, grad):
        vec1, vec2 = ctx.saved_tensors
        need_input, need_1, need_2 = ctx.needs_input_grad[:3]
        return ((grad * ctx.beta).sum_to_size(ctx.input_shape) if need_input else None,
                grad.mv(vec2) * ctx.alpha if need_1 else None,
                grad.t().mv(vec1) * ctx.alpha if need_2 else None, None, None)


def _size(t, dim: int) -> int:
    return t.shape[normalize_dim(dim, t.ndim)]  # PyTorch's IndexError for a missing dim


def _addbmm_checks(input, batch1, batch2) -> None:
    """PyTorch's checks, in its order: input expands to the result's (n, p); both batches
    3-D, with as many matrices and matching inner sizes; one dtype (input's against batch2's
    first); a kernel for it (none for bool)."""
    input.expand(_size(batch1, 1), _size(batch2, 2))
    for name, batch in (("batch1", batch1), ("batch2", batch2)):
        if batch.ndim != 3:
            raise RuntimeError(f"{name} must be a 3D tensor")
    if batch1.shape[0] != batch2.shape[0]:
        raise RuntimeError("batch1 and batch2 must have same number of batches, got "
                           f"{batch1.shape[0]} and {batch2.shape[0]}")
    if batch1.shape[2] != batch2.shape[1]:
        raise RuntimeError(f"Incompatible matrix sizes for bmm ({batch1.shape[1]}x"
                           f"{batch1.shape[2]} and {batch2.shape[1]}x{batch2.shape[2]})")
    for first, second, name in ((input, batch2, "self"), (batch1, batch2, "mat1")):
        if first._data.dtype != second._data.dtype:
            raise RuntimeError(f"{name} and mat2 must have the same dtype, but got "
                               f"{scalar_type(first)} and {scalar_type(second)}")
    if batch1._data.dtype == bool:
        raise not_implemented("addmm_impl_cpu_", batch1)


def addbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta: float = 1,
           alpha: float = 1) -> Tensor:
    """``beta * input + alpha * bmm(batch1, batch2).sum(0)``: a batch of matrix products
    added up (input broadcasts to the (n, p) result)."""
    same_device(input, batch1, batch2)
    _addbmm_checks(input, batch1, batch2)
    if batch1._data.dtype.kind in "iu":  # PyTorch converts beta and alpha to the integer type
        beta, alpha = int(beta), int(alpha)
    return Addbmm.apply(input, batch1, batch2, beta, alpha)


def _addr_operands(input, vec1, vec2, beta, alpha) -> list:
    """PyTorch's checks, in its order, and the three operands in their promoted dtype."""
    for name, vec in (("vec1", vec1), ("vec2", vec2)):
        if vec.ndim != 1:
            raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {vec.ndim}-D")
    input.expand(vec1.shape[0], vec2.shape[0])
    dtype = result_type(input, vec1, vec2)
    for name, number in (("beta", beta), ("alpha", alpha)):
        if dtype.kind in "biu" and isinstance(number, float):
            raise RuntimeError(f"For integral input tensors, argument {name} must not be a "
                               "floating point number.")
    return cast_to(dtype, input, vec1, vec2)


def addr(input: Tensor, vec1: Tensor, vec2: Tensor, *, beta: float = 1,
         alpha: float = 1) -> Tensor:
    """``beta * input + alpha * outer(vec1, vec2)``; the three tensors are promoted to one
    dtype (PyTorch's ``result_type``), and input broadcasts to the (len(vec1), len(vec2))
    result."""
    same_device(input, vec1, vec2)
    return Addr.apply(*_addr_operands(input, vec1, vec2, beta, alpha), beta, alpha)


Addbmm_, Addr_ = written_in_place(Addbmm), written_in_place(Addr)


def addbmm_(x: Tensor, batch1: Tensor, batch2: Tensor, *, beta: float = 1,
            alpha: float = 1) -> Tensor:
    """``x.addbmm_(batch1, batch2)``: ``addbmm`` written into x (its node: AddbmmBackward0)."""
    check_inplace(x, others=(batch1, batch2))
    same_device(x, batch1, batch2)
    _addbmm_checks(x, batch1, batch2)
    if batch1._data.dtype.kind in "iu":
        beta, alpha = int(beta), int(alpha)
    return Addbmm_.apply(x, batch1, batch2, beta, alpha)


def addr_(x: Tensor, vec1: Tensor, vec2: Tensor, *, beta: float = 1,
          alpha: float = 1) -> Tensor:
    """``x.addr_(vec1, vec2)``: ``addr`` written into x (its node: AddrBackward0)."""
    if x.ndim != 2:
        raise RuntimeError(f"2D tensor expected, got {x.ndim}D tensor for input")
    check_inplace(x, others=(vec1, vec2))
    same_device(x, vec1, vec2)
    _, vec1, vec2 = _addr_operands(x, vec1, vec2, beta, alpha)
    return Addr_.apply(x, vec1, vec2, beta, alpha)
