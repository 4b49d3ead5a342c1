"""Matrix products. ``matmul`` picks the product PyTorch would (dot, mv, mm, batched) so the
graph shows the same nodes: a 1-d ``x @ W`` becomes unsqueeze → mm → squeeze."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .. import _messages
from ..autograd import forward_ad
from ..autograd.function import Function
from .broadcasting import broadcast_error
from .devices import same_device
from .operands import is_tensor, tensors_only
from .out_arg import write_out
from .plain_backward import plain_backward
from .promotion import not_implemented, scalar_type
from .shape import MatmulSqueeze

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


def _shape_error(a, b, shape_a=None):
    """PyTorch's message for ``A @ B`` when A's columns do not match B's rows."""
    shape_a = shape_a or "x".join(map(str, a.shape))
    shape_b = "x".join(map(str, b.shape))
    return RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({shape_a} and {shape_b})")


def _column_major(data) -> bool:
    """A matrix stored column by column: the transpose of a C-ordered one, like ``W.t()``."""
    flags = data.flags
    return flags.f_contiguous and not flags.c_contiguous


def _mm_grads(ctx, grad, a, b, need_a: bool, need_b: bool):
    """dA = dC Bᵀ and dB = Aᵀ dC, each computed in its input's memory layout, as PyTorch does.

    ``nn.Linear`` multiplies by ``W.t()``, a column-major view; computing dB as (dCᵀ A)ᵀ
    gives it that same layout, so after ``TBackward0`` the weight's gradient is row-major
    (C-contiguous) like the weight itself, with no transposing copy anywhere.
    """
    a_cols, b_cols = ctx.column_major
    if plain_backward(grad, a, b):  # nothing records it: the same products, on the arrays
        g = grad._data
        grad_a = grad._new((b._data @ g.T).T if a_cols else g @ b._data.T) if need_a else None
        grad_b = grad._new((g.T @ a._data).T if b_cols else a._data.T @ g) if need_b else None
        return grad_a, grad_b
    grad_a = grad_b = None  # (Mm.apply directly: grad, a and b already agree in dtype and shape)
    if need_a:
        grad_a = Mm.apply(b, grad.t()).t() if a_cols else Mm.apply(grad, b.t())
    if need_b:
        grad_b = Mm.apply(grad.t(), a).t() if b_cols else Mm.apply(a.t(), grad)
    return grad_a, grad_b


class Mm(Function):
    """C = A B;  dA = dC Bᵀ, dB = Aᵀ dC."""

    node_name = "MmBackward0"
    jvp = forward_ad.bilinear
    saved_names = ("self", "mat2")

    @staticmethod
    def forward(ctx, a, b):
        if a._data.shape[1] != b._data.shape[0]:
            raise _shape_error(a, b)
        need_a, need_b = ctx.needs_input_grad
        ctx.save_for_backward(a if need_b else None, b if need_a else None)
        ctx.column_major = _column_major(a._data), _column_major(b._data)
        return a._new(a._data @ b._data)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        return _mm_grads(ctx, grad, a, b, need_a, need_b)


class Mv(Function):
    """y = A x;  dA = dy xᵀ (outer product), dx = Aᵀ dy."""

    node_name = "MvBackward0"
    jvp = forward_ad.bilinear
    saved_names = ("self", "vec")

    @staticmethod
    def forward(ctx, a, x):
        if a.shape[1] != x.shape[0]:
            raise RuntimeError(
                f"size mismatch, got input ({a.shape[0]}), mat ({a.shape[0]}x{a.shape[1]}), "
                f"vec ({x.shape[0]})"
            )
        ctx.save_for_backward(a, x)
        return a._new(a._data @ x._data)

    @staticmethod
    def backward(ctx, grad):
        a, x = ctx.saved_tensors
        need_a, need_x = ctx.needs_input_grad
        return (grad.unsqueeze(1).mm(x.unsqueeze(0)) if need_a else None,
                a.t().mv(grad) if need_x else None)


class Dot(Function):
    """s = x · y;  dx = ds y, dy = ds x."""

    node_name = "DotBackward0"
    jvp = forward_ad.bilinear
    saved_names = ("self", "tensor")

    @staticmethod
    def forward(ctx, x, y):
        if x.shape != y.shape:
            raise RuntimeError(
                "inconsistent tensor size, expected tensor [{}] and src [{}] to have the same "
                "number of elements, but got {} and {} elements respectively".format(
                    x.shape[0], y.shape[0], x.shape[0], y.shape[0])
            )
        ctx.save_for_backward(x, y)
        return x._new(x._xp.asarray(x._data @ y._data))

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        return grad * y, grad * x


class BatchedMatmul(Function):
    """C = A @ B over leading (broadcast) batch dims;  dA = dC Bᵀ, dB = Aᵀ dC, summed back
    over the batch dims that were broadcast.

    PyTorch reaches the same numbers through reshapes around ``mm``/``bmm`` (its graph shows
    ``UnsafeViewBackward0``, ``BmmBackward0``...); we record this one node instead, so a
    batched product reads as one step. That node name is our own choice.
    """

    node_name = "BmmBackward0"
    jvp = forward_ad.bilinear
    saved_names = ("self", "mat2")

    @staticmethod
    def forward(ctx, a, b):
        need_a, need_b = ctx.needs_input_grad
        ctx.save_for_backward(a if need_b else None, b if need_a else None)
        ctx.shapes = a.shape, b.shape
        return a._new(a._xp.matmul(a._data, b._data))

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        a_shape, b_shape = ctx.shapes
        grad_a = matmul(grad, b.transpose(-1, -2)).sum_to_size(a_shape) if need_a else None
        grad_b = matmul(a.transpose(-1, -2), grad).sum_to_size(b_shape) if need_b else None
        return grad_a, grad_b


def mm(input: Tensor, mat2: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Matrix × matrix."""
    if out is not None:
        return write_out(out, mm, input, mat2)
    tensors_only("mm", input, mat2, names=("input", "mat2"))
    if input.ndim != 2 or mat2.ndim != 2:
        raise RuntimeError("self must be a matrix" if input.ndim != 2 else "mat2 must be a matrix")
    return matmul(input, mat2)


def mv(input: Tensor, vec: Tensor) -> Tensor:
    """Matrix × vector."""
    if input.ndim != 2 or vec.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {input.ndim}, {vec.ndim}")
    return matmul(input, vec)


def dot(input: Tensor, tensor: Tensor) -> Tensor:
    """Vector · vector."""
    tensors_only("dot", input, tensor, names=("input", "tensor"))
    if input.ndim != 1 or tensor.ndim != 1:
        raise RuntimeError(
            f"1D tensors expected, but got {input.ndim}D and {tensor.ndim}D tensors"
        )
    if input._data.dtype != tensor._data.dtype:
        raise _dtype_error(input, tensor)
    return Dot.apply(input, tensor)


class Addmv(Function):
    """out = β·bias + α·M v;  dbias = β·dout (summed to its shape), dM = α·dout vᵀ,
    dv = α·Mᵀ dout. With β = 0 the bias is not read."""

    node_name = "AddmvBackward0"
    saved_names = ("mat", "vec")

    @staticmethod
    def forward(ctx, bias, mat, vec, beta, alpha):
        ctx.save_for_backward(mat, vec)
        ctx.bias_shape, ctx.beta, ctx.alpha = bias._data.shape, beta, alpha
        out = alpha * (mat._data @ vec._data)
        out = out + (bias._xp.zeros_like(bias._data) if beta == 0 else beta * bias._data)
        return mat._new(out.astype(mat._data.dtype, copy=False))

    @staticmethod
    def backward(ctx, grad):
        mat, vec = ctx.saved_tensors
        need_bias, need_mat, need_vec = ctx.needs_input_grad[:3]
        return ((grad * ctx.beta).sum_to_size(ctx.bias_shape) if need_bias else None,
                (grad * ctx.alpha).unsqueeze(1) * vec if need_mat else None,
                mat.t().matmul(grad * ctx.alpha) if need_vec else None, None, None)

    @staticmethod
    def jvp(ctx, t_bias, t_mat, t_vec, *_):
        """β·t_bias + α·(t_M v + M t_v)."""
        _, mat, vec = ctx.fw_args[:3]
        return forward_ad.add_tangents(
            None if t_bias is None else t_bias * ctx.beta,
            None if t_mat is None else t_mat.matmul(vec) * ctx.alpha,
            None if t_vec is None else mat.matmul(t_vec) * ctx.alpha)


def addmv(input: Tensor, mat: Tensor, vec: Tensor, *, beta: float = 1,
          alpha: float = 1) -> Tensor:
    """``beta * input + alpha * (mat @ vec)``, input broadcasting to the result (integer
    tensors: ``beta`` and ``alpha`` lose their fraction first, 0.6 → 0, as in PyTorch)."""
    same_device(input, mat, vec)
    if mat.ndim != 2 or vec.ndim != 1 or input.ndim > 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got {input.ndim}, {mat.ndim}, "
                           f"{vec.ndim}")
    if mat.shape[1] != vec.shape[0] or input.numel() not in (1, mat.shape[0]):
        raise RuntimeError(f"size mismatch, got input ({input.numel()}), mat "
                           f"({mat.shape[0]}x{mat.shape[1]}), vec ({vec.shape[0]})")
    if not input._data.dtype == mat._data.dtype == vec._data.dtype:
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got "
                           f"{scalar_type(input)}, {scalar_type(mat)}, and {scalar_type(vec)}")
    if mat._data.dtype.kind in "iu":  # PyTorch converts beta and alpha to the integer type
        beta, alpha = int(beta), int(alpha)
    return Addmv.apply(input, mat, vec, beta, alpha)


_CPP_NAMES = {"float32": "float", "float64": "double", "int64": "long int", "int32": "int",
              "float16": "c10::Half", "bool": "bool", "int16": "short int", "int8": "signed char",
              "uint8": "unsigned char"}


def _dtype_error(a, b) -> RuntimeError:
    """PyTorch refuses to multiply matrices of different dtypes; its message depends on the
    kernel that the shapes lead to."""
    name_a, name_b = scalar_type(a), scalar_type(b)
    if a.ndim == 1 and b.ndim == 1:
        return RuntimeError(
            f"dot : expected both vectors to have same dtype, but found {name_a} and {name_b}"
        )
    if b.ndim == 1:
        return RuntimeError(
            f"addmv input tensors must have the same dtype, but got {name_b}, {name_a}, and "
            f"{name_b}"
        )
    if b.ndim == 2:
        cpp_a, cpp_b = _CPP_NAMES[str(a._data.dtype)], _CPP_NAMES[str(b._data.dtype)]
        return RuntimeError(
            f"expected m1 and m2 to have the same dtype, but got: {cpp_a} != {cpp_b}"
        )
    return RuntimeError(f"expected scalar type {name_a} but found {name_b}")


def _batch_error(a_shape, b_shape) -> RuntimeError:
    """k of A does not match k of B in a batched product: PyTorch's bmm message."""
    batch = 1
    for n in np.broadcast_shapes(a_shape[:-2], b_shape[:-2]):
        batch *= n
    return RuntimeError(
        f"Expected size for first two dimensions of batch2 tensor to be: [{batch}, "
        f"{a_shape[-1]}] but got: [{batch}, {b_shape[-2]}]."
    )


def matmul(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Matrix product with PyTorch's rules for 1-d, 2-d and batched operands.

    1-d @ 1-d is a dot product, 2-d @ 1-d a matrix-vector product, 1-d @ 2-d becomes
    unsqueeze → mm → squeeze (as in PyTorch's graph), 2-d @ 2-d is ``mm``; anything with more
    dims is a batched product whose leading dims broadcast.
    """
    if out is not None:
        return write_out(out, matmul, input, other)
    for position, (name, t) in enumerate((("input", input), ("other", other)), start=1):
        if not is_tensor(t):
            raise TypeError(f"matmul(): argument '{name}' (position {position}) must be Tensor, "
                            f"not {_messages.python_type(t)}")
    if input._device != other._device:
        raise RuntimeError(
            "Expected all tensors to be on the same device, but found at least two devices, "
            f"{input._device} and {other._device}!"
        )
    if input.ndim == 0 or other.ndim == 0:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {input.ndim}D and "
            f"{other.ndim}D"
        )
    if input._data.dtype != other._data.dtype:
        raise _dtype_error(input, other)
    if input._data.dtype.kind == "b":  # PyTorch has no bool matrix kernels
        kernel = ("dot" if input.ndim == 1 and other.ndim == 1
                  else "addmv_impl_cpu" if other.ndim == 1
                  else "addmm_impl_cpu_" if other.ndim == 2 else "bmm")
        raise not_implemented(kernel, input)
    if input.ndim == 1 and other.ndim == 1:
        return dot(input, other)
    if other.ndim == 1:
        if input.shape[-1] != other.shape[0]:
            rows = input.numel() // input.shape[-1]
            raise RuntimeError(f"size mismatch, got input ({rows}), mat "
                               f"({rows}x{input.shape[-1]}), vec ({other.shape[0]})")
        if input.ndim == 2:
            return Mv.apply(input, other)
        return MatmulSqueeze.apply(BatchedMatmul.apply(input, other.unsqueeze(1)),
                                   (input.ndim - 1,))
    if other.ndim == 2:
        if input.shape[-1] != other.shape[0]:
            rows = input.numel() // input.shape[-1] if input.ndim > 1 else 1
            raise _shape_error(input, other, shape_a=f"{rows}x{input.shape[-1]}")
        if input.ndim == 1:
            return MatmulSqueeze.apply(Mm.apply(input.unsqueeze(0), other), (0,))
        if input.ndim == 2:
            return Mm.apply(input, other)
        return BatchedMatmul.apply(input, other)
    a_shape = (1,) + tuple(input.shape) if input.ndim == 1 else tuple(input.shape)
    try:
        np.broadcast_shapes(a_shape[:-2], other.shape[:-2])
    except ValueError:
        raise broadcast_error(a_shape[:-2], other.shape[:-2]) from None
    if a_shape[-1] != other.shape[-2]:
        raise _batch_error(a_shape, other.shape)
    if input.ndim == 1:
        return MatmulSqueeze.apply(BatchedMatmul.apply(input.unsqueeze(0), other),
                                   (other.ndim - 2,))
    return BatchedMatmul.apply(input, other)
