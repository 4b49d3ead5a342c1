"""Matrix products. ``matmul`` picks the product PyTorch would (dot, mv, mm, batched) so the
graph shows the same nodes: a 1-d ``x @ W`` becomes unsqueeze → mm → squeeze."""

from __future__ import annotations

from ..autograd.function import Function


def _shape_error(a, b, name="mat1 and mat2"):
    shape_a = "x".join(map(str, a.shape))
    shape_b = "x".join(map(str, b.shape))
    return RuntimeError(f"{name} shapes cannot be multiplied ({shape_a} and {shape_b})")


class Mm(Function):
    """C = A B;  dA = dC Bᵀ, dB = Aᵀ dC."""

    node_name = "MmBackward0"

    @staticmethod
    def forward(ctx, a, b):
        if a.shape[1] != b.shape[0]:
            raise _shape_error(a, b)
        need_a, need_b = ctx.needs_input_grad
        ctx.save_for_backward(a if need_b else None, b if need_a else None)
        return a._new(a._data @ b._data)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        return (grad.mm(b.t()) if need_a else None,
                a.t().mm(grad) if need_b else None)


class Mv(Function):
    """y = A x;  dA = dy xᵀ (outer product), dx = Aᵀ dy."""

    node_name = "MvBackward0"

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
    """C = A @ B over leading (broadcast) batch dims;  dA = dC Bᵀ, dB = Aᵀ dC, summed back."""

    node_name = "BmmBackward0"

    @staticmethod
    def forward(ctx, a, b):
        if a.shape[-1] != b.shape[-2]:
            raise RuntimeError(
                f"Expected size for first two dimensions of batch2 tensor to be: "
                f"[{b.shape[0] if b.ndim > 2 else 1}, {a.shape[-1]}] but got: "
                f"[{b.shape[0] if b.ndim > 2 else 1}, {b.shape[-2]}]."
            )
        ctx.save_for_backward(a, b)
        return a._new(a._xp.matmul(a._data, b._data))

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        grad_a = matmul(grad, b.transpose(-1, -2)).sum_to_size(a.shape) if need_a else None
        grad_b = matmul(a.transpose(-1, -2), grad).sum_to_size(b.shape) if need_b else None
        return grad_a, grad_b


class Addmm(Function):
    """out = bias + A B (what ``nn.Linear`` does on a batch);  dbias = Σ dout over rows."""

    node_name = "AddmmBackward0"

    @staticmethod
    def forward(ctx, bias, a, b):
        if a.shape[1] != b.shape[0]:
            raise _shape_error(a, b)
        need_bias, need_a, need_b = ctx.needs_input_grad
        ctx.save_for_backward(a if need_b else None, b if need_a else None)
        ctx.bias_shape = bias.shape
        out = a._data @ b._data
        out += bias._data
        return a._new(out)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        need_bias, need_a, need_b = ctx.needs_input_grad
        return (grad.sum_to_size(ctx.bias_shape) if need_bias else None,
                grad.mm(b.t()) if need_a else None,
                a.t().mm(grad) if need_b else None)


def mm(a, b):
    if a.ndim != 2 or b.ndim != 2:
        raise RuntimeError("self must be a matrix" if a.ndim != 2 else "mat2 must be a matrix")
    return Mm.apply(a, b)


def mv(a, x):
    return Mv.apply(a, x)


def dot(x, y):
    if x.ndim != 1 or y.ndim != 1:
        raise RuntimeError(
            f"1D tensors expected, but got {x.ndim}D and {y.ndim}D tensors"
        )
    return Dot.apply(x, y)


def addmm(bias, a, b):
    return Addmm.apply(bias, a, b)


def matmul(a, b):
    """Matrix product with PyTorch's rules for 1-d, 2-d and batched operands."""
    from .shape import MatmulSqueeze
    from ._util import binary_operands

    a, b = binary_operands(a, b)
    if a.ndim == 0 or b.ndim == 0:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {a.ndim}D and "
            f"{b.ndim}D"
        )
    if a.ndim == 1 and b.ndim == 1:
        return dot(a, b)
    if a.ndim == 2 and b.ndim == 1:
        return Mv.apply(a, b)
    if a.ndim == 1 and b.ndim == 2:
        if a.shape[0] != b.shape[0]:
            raise RuntimeError(
                f"mat1 and mat2 shapes cannot be multiplied (1x{a.shape[0]} and "
                f"{b.shape[0]}x{b.shape[1]})"
            )
        return MatmulSqueeze.apply(Mm.apply(a.unsqueeze(0), b), (0,))
    if a.ndim == 2 and b.ndim == 2:
        return Mm.apply(a, b)
    if a.ndim == 1:
        return MatmulSqueeze.apply(BatchedMatmul.apply(a.unsqueeze(0), b), (-2,))
    if b.ndim == 1:
        return MatmulSqueeze.apply(BatchedMatmul.apply(a, b.unsqueeze(1)), (-1,))
    return BatchedMatmul.apply(a, b)
