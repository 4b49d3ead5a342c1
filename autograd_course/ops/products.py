"""Products of more than two dims: ``bmm``/``baddbmm`` (a batch of matrix products),
``einsum`` (any product written in index notation), ``outer``, ``kron``, ``cross`` and the
pairwise distances ``cdist``.

* bmm:   out[b] = A[b] @ B[b]        dA[b] = g[b] @ B[b]ᵀ,  dB[b] = A[b]ᵀ @ g[b]
* einsum("ij,jk->ik", A, B): each operand's dims are lined up on one set of letters
  (missing letters are size-1 dims), the operands are multiplied (broadcasting) and the
  letters not in the output summed away. That is a product and a sum, so autograd
  differentiates it as it does any product and sum.
* cross(a, b) along a dim of size 3     d/da = b × g,  d/db = g × a
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import _messages
from ..autograd import forward_ad
from ..autograd.function import Function
from ..autograd.profiler import recorded_as
from .arrange import diagonal
from .broadcasting import broadcast_shape
from .combine import where
from .devices import same_device
from .dims import normalize_dim
from .operands import binary_operands
from .promotion import not_implemented
from .shape import permute

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


class Bmm(Function):
    node_name = "BmmBackward0"
    jvp = forward_ad.bilinear

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a._new(a._xp.matmul(a._data, b._data))

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        return (grad.bmm(b.transpose(1, 2)) if need_a else None,
                a.transpose(1, 2).bmm(grad) if need_b else None)


class Baddbmm(Function):
    """beta · input + alpha · (batch1 @ batch2)."""

    node_name = "BaddbmmBackward0"

    @staticmethod
    def forward(ctx, x, a, b, beta, alpha):
        ctx.save_for_backward(a, b)
        ctx.beta, ctx.alpha = beta, alpha
        product = a._xp.matmul(a._data, b._data) * alpha
        return a._new((product if beta == 0 else x._data * beta + product).astype(a._data.dtype))

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        grad_x = grad * ctx.beta if ctx.needs_input_grad[0] else None
        return (grad_x, grad.bmm(b.transpose(1, 2)) * ctx.alpha,
                a.transpose(1, 2).bmm(grad) * ctx.alpha, None, None)

    @staticmethod
    def jvp(ctx, t_x, t_a, t_b, *_):
        """β·t_x + α·(t_a @ b + a @ t_b)."""
        _, a, b = ctx.fw_args[:3]
        return forward_ad.add_tangents(
            None if t_x is None else t_x * ctx.beta,
            None if t_a is None else t_a.bmm(b) * ctx.alpha,
            None if t_b is None else a.bmm(t_b) * ctx.alpha)


class Cross(Function):
    node_name = "LinalgCrossBackward0"
    jvp = forward_ad.bilinear

    @staticmethod
    def forward(ctx, a, b, dim):
        ctx.save_for_backward(a, b)
        ctx.dim = dim
        return a._new(a._xp.cross(a._data, b._data, axis=dim))

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return Cross.apply(b, grad, ctx.dim), Cross.apply(grad, a, ctx.dim), None


def _check_3d(t, name: str) -> None:
    if t.ndim != 3:
        raise RuntimeError(f"{name} must be a 3D tensor")


def bmm(input: Tensor, mat2: Tensor) -> Tensor:
    """A batch of matrix products: ``(b, n, m) @ (b, m, p) -> (b, n, p)``, no broadcasting."""
    _check_3d(input, "batch1")
    _check_3d(mat2, "batch2")
    if input.shape[0] != mat2.shape[0] or input.shape[2] != mat2.shape[1]:
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: [{input.shape[0]}, "
            f"{input.shape[2]}] but got: [{mat2.shape[0]}, {mat2.shape[1]}].")
    if input._data.dtype != mat2._data.dtype:
        raise RuntimeError(f"expected scalar type {_type(input)} but found {_type(mat2)}")
    if input._data.dtype == bool:
        raise not_implemented("bmm", input)
    same_device(input, mat2)
    return Bmm.apply(input, mat2)


def _type(t) -> str:
    return {"float32": "Float", "float64": "Double", "int64": "Long"}.get(t._data.dtype.name,
                                                                          t._data.dtype.name)


def baddbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta: float = 1,
            alpha: float = 1) -> Tensor:
    """``beta * input + alpha * bmm(batch1, batch2)`` (input broadcasts). For integer tensors
    PyTorch converts ``beta`` and ``alpha`` to the integer type, dropping any fraction
    (1.5 → 1, -2.7 → -2)."""
    if batch1._data.dtype == bool:
        raise not_implemented("baddbmm", batch1)
    bmm(batch1.detach(), batch2.detach())  # the same checks and errors as bmm
    if batch1._data.dtype.kind in "iu":
        beta, alpha = int(beta), int(alpha)
    return Baddbmm.apply(input, batch1, batch2, beta, alpha)


def outer(input: Tensor, vec2: Tensor) -> Tensor:
    """``out[i, j] = input[i] * vec2[j]``."""
    if input.ndim != 1 or vec2.ndim != 1:
        raise RuntimeError(f"outer: Expected 1-D argument self, but got {input.ndim}-D"
                           if input.ndim != 1 else
                           f"outer: Expected 1-D argument vec2, but got {vec2.ndim}-D")
    return input.reshape(-1, 1) * vec2


ger = outer


def kron(input: Tensor, other: Tensor) -> Tensor:
    """The Kronecker product: each element of ``input`` times the whole of ``other``."""
    n = max(input.ndim, other.ndim)
    a = input.reshape((1,) * (n - input.ndim) + tuple(input.shape))
    b = other.reshape((1,) * (n - other.ndim) + tuple(other.shape))
    # a's dims at even positions, b's at odd: (a0, b0, a1, b1, ...), then merged pairwise
    spread_a = a.reshape([s for d in a.shape for s in (d, 1)])
    spread_b = b.reshape([s for d in b.shape for s in (1, d)])
    return (spread_a * spread_b).reshape([x * y for x, y in zip(a.shape, b.shape)])


def cross(input: Tensor, other: Tensor, dim: int | None = None) -> Tensor:
    """The cross product of 3-vectors along ``dim`` (the first dim of ``input`` of size 3
    when None, which PyTorch warns is deprecated); the other dims broadcast."""
    input, other = binary_operands(input, other)
    if dim is None:
        _messages.warn_once(_CROSS_DIM_WARNING, stacklevel=2)  # once, as PyTorch
        dim = next((d for d, s in enumerate(input.shape) if s == 3), None)
        if dim is None:
            raise RuntimeError("no dimension of size 3 in input")
    if input.ndim != other.ndim:
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    axis = normalize_dim(dim, input.ndim)
    if input.shape[axis] != 3 or other.shape[axis] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got "
                           f"{input.shape[axis]} and {other.shape[axis]}")
    shape = broadcast_shape(input.shape, other.shape)  # (their gradients summed back)
    input, other = (t if t.shape == shape else t.expand(shape) for t in (input, other))
    return Cross.apply(input, other, axis)


_CROSS_DIM_WARNING = (
    "Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass the "
    "dim explicitly or simply use torch.linalg.cross.\nThe default value of dim will change to "
    "agree with that of linalg.cross in a future release.")


def cdist(x1: Tensor, x2: Tensor, p: float = 2.0, compute_mode: str | None = None) -> Tensor:
    """Distances between each row of ``x1`` and each row of ``x2`` (the p-norm of their
    difference), batched over leading dims."""
    if x1.ndim < 2 or x2.ndim < 2:
        raise RuntimeError(f"cdist only supports at least 2D tensors, X1 got: {x1.ndim}D")
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError("X1 and X2 must have the same number of columns. X1: "
                           f"{x1.shape[-1]} X2: {x2.shape[-1]}")
    diff = x1.unsqueeze(-2) - x2.unsqueeze(-3)
    if p == 2:  # the square root's gradient is 0 (not NaN) where the distance is 0
        squared = (diff * diff).sum(-1)
        zero = squared == 0
        return where(zero, 0.0, where(zero, 1.0, squared).sqrt())
    return diff.norm(p, -1)


@recorded_as("aten::einsum")  # one operator in PyTorch: one event of the profiler here too
def einsum(equation: str, *operands: Tensor) -> Tensor:
    """Sum of products written in index notation: ``einsum("bij,bjk->bik", a, b)``."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    _check_equation(equation, operands)
    equation = equation.replace(" ", "")
    inputs, arrow, output = equation.partition("->")
    terms = _expand_ellipsis(inputs.split(","), operands)
    letters = "".join(terms)
    if arrow:
        output = _expand_output(output, terms)
    else:  # implicit output: the ellipsis dims, then the letters seen once, alphabetically
        spare = sorted({c for c in letters if c in _SPARE}, key=_SPARE.index)
        output = "".join(spare) + "".join(
            sorted(c for c in set(letters) if c not in _SPARE and letters.count(c) == 1))
    order = list(output) + sorted(set(letters) - set(output))
    product, seen = None, {}
    for i, (term, t) in enumerate(zip(terms, operands)):
        t, term = _distinct(t, term)
        if len(term) != t.ndim:
            raise RuntimeError(f"einsum(): the number of subscripts in the equation "
                               f"({len(term)}) does not match the number of dimensions "
                               f"({t.ndim}) for operand {i} and no ellipsis "
                               "was given")
        for c, size in zip(term, t.shape):
            if seen.get(c, size) != size and 1 not in (seen[c], size):
                raise RuntimeError(f"einsum(): subscript {c} has size {size} for operand {i} "
                                   f"which does not broadcast with previously seen size "
                                   f"{seen[c]}")
            seen[c] = size if seen.get(c, 1) == 1 else seen[c]
        present = [c for c in order if c in term]
        t = permute(t, [term.index(c) for c in present]) if t.ndim else t
        t = t.reshape([t.shape[present.index(c)] if c in present else 1 for c in order])
        product = t if product is None else product * t
    summed = tuple(range(len(output), len(order)))
    return product.sum(summed) if summed else product


def _check_equation(equation: str, operands) -> None:
    """PyTorch's checks of an einsum equation, in its order and with its messages: the
    characters of the input terms and the number of operands, each term's length against its
    operand's dims, then each output subscript (a letter of some input, at most once)."""
    arrow = equation.find("->")
    terms = _scan(equation if arrow < 0 else equation[:arrow], 0, len(operands))
    if len(terms) < len(operands):
        raise RuntimeError("einsum(): more operands were provided than specified in the "
                           "equation")
    for i, (term, t) in enumerate(zip(terms, operands)):
        if "." not in term and len(term) != t.ndim:
            raise RuntimeError(f"einsum(): the number of subscripts in the equation "
                               f"({len(term)}) does not match the number of dimensions "
                               f"({t.ndim}) for operand {i} and no ellipsis was given")
    if arrow < 0:
        return
    output = _scan(equation[arrow + 2:], arrow + 2, None)[0].replace("...", "")
    for n, c in enumerate(output):
        if c in output[:n]:
            raise RuntimeError(f"einsum(): output subscript {c} appears more than once in the "
                               "output")
        if c not in "".join(terms):
            raise RuntimeError(f"einsum(): output subscript {c} does not appear in the "
                               "equation for any input operand")


def _scan(side: str, start: int, operands: int | None) -> list[str]:
    """The terms of one side of an equation (``operands`` is None for the output), spaces
    dropped, each character checked as it comes: a letter, a comma between two of the
    ``operands``, or one ``...`` per term. ``start`` is where the side begins in the equation
    (PyTorch's messages count from there)."""
    terms, i = [""], 0
    while i < len(side):
        c = side[i]
        if c == ".":
            name = "output" if operands is None else f"operand {len(terms) - 1}"
            if "..." in terms[-1]:
                raise RuntimeError(f"einsum(): found '.' for {name} for which an ellipsis was "
                                   "already found")
            if side[i:i + 3] != "...":
                raise RuntimeError(f"einsum(): found '.' for {name} that is not part of any "
                                   "ellipsis" + (" (...)" if operands is None else ""))
            terms[-1], i = terms[-1] + "...", i + 3
            continue
        if c == "," and operands is not None:
            if len(terms) == operands:
                raise RuntimeError("einsum(): fewer operands were provided than specified in "
                                   "the equation")
            terms.append("")
        elif c != " ":
            if not (c.isascii() and c.isalpha()):
                raise RuntimeError(f"einsum(): invalid subscript given at index {start + i} in "
                                   "the equation string, subscripts must be in [a-zA-Z]")
            terms[-1] += c
        i += 1
    return terms


def _distinct(t, term: str):
    """A letter repeated within one operand (``"ii"``) takes that operand's diagonal."""
    while len(set(term)) != len(term):
        c = next(c for c in term if term.count(c) > 1)
        i, j = term.index(c), term.index(c, term.index(c) + 1)
        t = diagonal(t, 0, i, j)
        term = term[:i] + term[i + 1:j] + term[j + 1:] + c
    return t, term


# ``...`` is spelled with characters no equation can hold (its subscripts are ASCII letters,
# capitals included), one per dim: a tensor has at most 64
_SPARE = "".join(chr(0x100 + i) for i in range(64))


def _expand_ellipsis(terms, operands):
    """``...`` spelled with the spare characters, right-aligned like broadcasting."""
    out = []
    for term, t in zip(terms, operands):
        if "..." in term:
            n = t.ndim - (len(term) - 3)
            term = term.replace("...", _SPARE[len(_SPARE) - n:] if n else "")
        out.append(term)
    return out


def _expand_output(output: str, terms) -> str:
    if "..." not in output and "." not in output:
        return output
    spare = sorted({c for term in terms for c in term if c in _SPARE}, key=_SPARE.index)
    return output.replace("...", "".join(spare)).replace(".", "".join(spare))
