"""In-place ops: ``add_``, ``mul_``, ``exp_``, ``zero_``, ``copy_``, ``x[i] = v``...

An in-place op overwrites memory that the graph may have saved, so each one
1. refuses to touch a leaf that requires grad (or a view of one) while grad mode is on: its
   ``.grad`` would no longer describe the values it holds;
2. bumps the tensor's version counter, so a saved copy that went stale is caught at backward;
3. when recording, re-points the tensor's ``grad_fn`` at the new operation: the tensor now
   stands for the result, and the old history is one input of that node. A write into a view
   re-makes its base's history instead (``CopySlices``), and every view of a changed base gets
   a history taken afresh from it (autograd/views.py).

Each is a ``Function`` written as a learner writes one that changes its input: ``forward``
writes into ``x`` and calls ``ctx.mark_dirty(x)``, and ``Function.apply`` does 2. and 3., under
``no_grad`` too (an optimizer step: nothing is recorded, the version is bumped). The ops that
only exist in place (``fill_``, ``zero_``, ``copy_``, ``x[key] = v``) are written so here; the
in-place form of any other op is made from the op's own Function by ``written_in_place``
(in_place_form.py; ``Mul_ = written_in_place(Mul)``: ``x.mul_(y)``'s node is
``MulBackward0``, its backward ``Mul``'s). The functions below (``mul_``...) make 1. and
PyTorch's checks of the result's dtype before they call one (1. is ``check_inplace``, in
in_place_form.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .. import _messages
from ..autograd import forward_ad
from ..autograd.function import Function
from .activations.rectifiers import Relu
from .activations.sigmoids import Sigmoid, Tanh
from .arithmetic import Add, Div, Mul, Neg, Reciprocal, Sub
from .broadcasting import broadcast_error
from .clamping import Clamp, ClampTensors, clamp_bounds
from .compare import COMPARISONS, bitwise_xor
from .devices import same_device
from .dtype_checks import (
    check_alpha,
    check_clamp_cast,
    check_inplace_result,
    check_integer_power,
    check_sub,
)
from .exp_log import Exp, Log
from .in_place_form import check_inplace, recording, written_in_place
from .indexing import (
    IndexPut,
    getitem,
    index_sources,
    is_view_key,
    is_whole_key,
    key_data,
)
from .operands import binary_operands, check_fits, is_tensor
from .powers import Pow, PowScalar, Sqrt
from .promotion import not_implemented, result_type
from .rounding import (
    DivRounding,
    NotDifferentiable,
    Remainder,
    RemainderScalar,
    check_rounding_mode,
)
from .shape import expand
from .signs import Abs, Sign
from .trigonometry import Cos, Sin

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


Add_, Sub_, Mul_, Div_ = map(written_in_place, (Add, Sub, Mul, Div))
Pow_, PowScalar_, Clamp_, ClampTensors_ = map(written_in_place,
                                               (Pow, PowScalar, Clamp, ClampTensors))
DivRounding_, Remainder_, RemainderScalar_, NotDifferentiable_ = map(
    written_in_place, (DivRounding, Remainder, RemainderScalar, NotDifferentiable))
UNARY = {name: written_in_place(op) for name, op in {  # x.exp_() is UNARY["exp"].apply(x)
    "exp": Exp, "log": Log, "sqrt": Sqrt, "reciprocal": Reciprocal, "sin": Sin, "cos": Cos,
    "tanh": Tanh, "sigmoid": Sigmoid, "abs": Abs, "neg": Neg, "sign": Sign, "relu": Relu,
}.items()}
COMPARED_ = {key: written_in_place(op) for key, op in COMPARISONS.items()}  # x.eq_(y)...
FLOAT_FUNCTIONS = ("exp", "log", "sqrt", "reciprocal", "sin", "cos", "tanh", "sigmoid")


def _other(x, other, **kwargs):
    """``other`` as the op takes it next to ``x`` (``binary_operands``); x itself is not
    cast: the op computes in the promoted dtype and its result is cast into x's."""
    return binary_operands(x, other, **kwargs)[1]


def _check_kernel(x, other, kernel: str) -> None:
    """PyTorch's kernels for these ops have no bool version."""
    if result_type(x, other).kind == "b":
        raise not_implemented(kernel, x)


def add_(x: Tensor, other: Tensor | float, *, alpha: float = 1) -> Tensor:
    """x += alpha·other."""
    check_inplace(x, others=(other,), wrapped=not is_tensor(other))
    check_inplace_result(x, other)
    if type(alpha) is not int or alpha != 1:  # 1.0 and True are checked too
        check_alpha(x, alpha)
    other = _other(x, other)
    return Add_.apply(x, other, alpha) if alpha != 1 else Add_.apply(x, other)


def sub_(x: Tensor, other: Tensor | float, *, alpha: float = 1) -> Tensor:
    """x -= alpha·other."""
    check_sub(x, other)
    check_inplace(x, others=(other,), wrapped=not is_tensor(other))
    check_inplace_result(x, other)
    if type(alpha) is not int or alpha != 1:
        check_alpha(x, alpha)
    other = _other(x, other)
    return Sub_.apply(x, other, alpha) if alpha != 1 else Sub_.apply(x, other)


def mul_(x: Tensor, other: Tensor | float) -> Tensor:
    """x *= other."""
    check_inplace(x, others=(other,), wrapped=not is_tensor(other))
    check_inplace_result(x, other)
    return Mul_.apply(x, _other(x, other, opmath=True))


def div_(x: Tensor, other: Tensor | float, *, rounding_mode: str | None = None) -> Tensor:
    """x /= other (rounded down or towards 0 with ``rounding_mode='floor'``/``'trunc'``)."""
    check_inplace(x, others=(other,), wrapped=not is_tensor(other))
    check_inplace_result(x, other, floats=rounding_mode is None)
    if rounding_mode is None:
        return Div_.apply(x, _other(x, other, floats=True, opmath=True))
    check_rounding_mode(rounding_mode)
    other = _other(x, other, opmath=True)
    _check_kernel(x, other, f"div_{rounding_mode}_cpu")
    return DivRounding_.apply(x, other, rounding_mode)


def floor_divide_(x: Tensor, other: Tensor | float) -> Tensor:
    """x //= other (PyTorch records it, but cannot differentiate it)."""
    check_inplace(x, others=(other,), wrapped=not is_tensor(other))
    check_inplace_result(x, other)
    other = _other(x, other, opmath=True)
    _check_kernel(x, other, "div_floor_cpu")
    return NotDifferentiable_.apply(x, other, "floor_divide_")


def remainder_(x: Tensor, other: Tensor | float) -> Tensor:
    """x %= other."""
    check_inplace(x, others=(other,))
    check_inplace_result(x, other)
    number = not is_tensor(other)
    other = _other(x, other)
    _check_kernel(x, other, "remainder_cpu")
    return RemainderScalar_.apply(x, other._data) if number else Remainder_.apply(x, other)


def pow_(x: Tensor, exponent: Tensor | float) -> Tensor:
    """x = x ** exponent."""
    check_inplace(x, others=(exponent,))
    check_integer_power(x, exponent)
    check_inplace_result(x, exponent)
    if is_tensor(exponent):
        _check_kernel(x, exponent, "pow")
        return Pow_.apply(x, _other(x, exponent))
    check_fits(exponent, x._data.dtype, floats=x._data.dtype == np.float16)
    return PowScalar_.apply(x, exponent)


def compare_(x: Tensor, other: Tensor | float, name: str) -> Tensor:
    """``x.eq_(other)``...: the comparison, as 1 or 0 in x's dtype, written into x."""
    check_inplace(x, others=(other,))
    return COMPARED_[name, not is_tensor(other)].apply(x, _other(x, other), name)


def unary_(x: Tensor, name: str) -> Tensor:
    """``x.name()``, an element-wise op (``exp``, ``relu``...), written into x itself."""
    check_inplace(x)
    kind = x._data.dtype.kind
    if name in FLOAT_FUNCTIONS:
        check_inplace_result(x, None, floats=True)
    elif kind == "b" and name in ("abs", "neg", "relu"):
        getattr(x, name)()  # the op refuses a bool tensor before computing: let it say so
    return UNARY[name].apply(x)


def clamp_(x: Tensor, min: float | Tensor | None = None,
           max: float | Tensor | None = None) -> Tensor:
    """Clamp x into [min, max] in place."""
    check_inplace(x, others=(min, max))
    check_clamp_cast(x, min, max)
    check_inplace_result(x, min, max)
    _, min, max = clamp_bounds(x, min, max)
    if is_tensor(min) or is_tensor(max):  # the bounds get gradients
        return ClampTensors_.apply(x, min, max)
    return Clamp_.apply(x, min, max)


def bitwise_xor_(x: Tensor, other: Tensor | float) -> Tensor:
    """x ^= other (integers and bools, which autograd never records): ``copy_``'s Function
    writes the result in."""
    check_inplace(x, others=(other,))
    check_inplace_result(x, other)
    return Copy.apply(x, bitwise_xor(x, other))


class Fill(Function):
    """x = value everywhere;  x's old values get zero gradient (they were all overwritten)."""

    node_name = "FillBackward2"

    @staticmethod
    def forward(ctx, x, value):
        x._data[...] = value
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad._new(grad._xp.zeros_like(grad._data)), None


class Zero(Fill):
    node_name = "ZeroBackward0"


class FillTensor(Function):
    """x = value (a 0-d tensor) everywhere;  dvalue = Σ dout, dx = 0."""

    node_name = "FillBackward3"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, x, value):
        x._data[...] = value._data
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad._new(grad._xp.zeros_like(grad._data)), grad.sum()


def fill_(x: Tensor, value: Tensor | float) -> Tensor:
    """Set every element to ``value`` in place."""
    check_inplace(x, others=(value,))
    if not is_tensor(value):
        return (Zero if value == 0 and type(value) is int else Fill).apply(x, value)
    if value.ndim and recording(x, value):
        raise RuntimeError(
            "fill_ only supports 0-dimension value tensor but got tensor with "
            f"{value.ndim} dimensions."
        )
    return FillTensor.apply(x, value)


def zero_(x: Tensor) -> Tensor:
    """Set every element to 0 in place (what you do to ``.grad`` between steps)."""
    check_inplace(x)
    return Zero.apply(x, 0)


class Copy(Function):
    """x = src (broadcast to x's shape, cast to x's dtype);  dsrc = dout summed back to
    src's shape, dx = 0 (x's old values are gone)."""

    node_name = "CopyBackwards"
    jvp = forward_ad.linear

    @staticmethod
    def forward(ctx, x, src):
        ctx.src_shape = src.shape
        x._data[...] = src._data
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, grad):
        need_x, need_src = ctx.needs_input_grad
        grad_x = grad._new(grad._xp.zeros_like(grad._data)) if need_x else None
        return grad_x, grad.sum_to_size(ctx.src_shape) if need_src else None


def _check_broadcast(shape, src_shape) -> None:
    """``src`` must broadcast to ``shape`` exactly (the result cannot grow)."""
    try:
        target = tuple(np.broadcast_shapes(shape, src_shape))
    except ValueError:
        raise broadcast_error(shape, src_shape) from None
    if target != tuple(shape):
        raise RuntimeError(
            f"output with shape {list(shape)} doesn't match the broadcast shape {list(target)}"
        )


def copy_(x: Tensor, src: Tensor) -> Tensor:
    """Copy ``src``'s values into ``x`` (broadcasting, casting); gradients flow to ``src``."""
    check_inplace(x, others=(src,))
    if not is_tensor(src):
        src = x._new(x._xp.asarray(src, dtype=x._data.dtype))
    if src._device != x._device:
        src = src.to(x._device)
    _check_broadcast(x.shape, src.shape)
    return Copy.apply(x, src)


class Set(Function):
    """x takes ``src``'s memory (not a copy: both see later writes), shape and values.
    PyTorch records the write but has no derivative for it: backward raises its error."""

    node_name = "NotImplemented"

    @staticmethod
    def forward(ctx, x, src):
        x._data = src._data
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("derivative for set_ is not implemented")


def set_(x: Tensor, source: Tensor | None = None) -> Tensor:
    """``x.set_(source)``: ``x`` looks at ``source``'s memory from now on (``x.set_()``: at
    none, an empty tensor). As in PyTorch, a leaf then gets a new ``AccumulateGrad``: a graph
    recorded before the change no longer leads to the tensor (``autograd.grad`` of it says
    it was not used)."""
    if source is None:
        source = x._new(x._xp.zeros(0, dtype=x._data.dtype))
    if source._data.dtype != x._data.dtype:
        raise RuntimeError(f"Could not set tensor of type {_messages.c_name(source._data.dtype)} "
                           f"to a tensor of type {_messages.c_name(x._data.dtype)}")
    check_inplace(x, others=(source,))
    Set.apply(x, source)
    if x.grad_fn is None:
        x._accumulate_grad = None  # a new one is made when next needed (node.gradient_edge)
    return x


def setitem(x: Tensor, key: object, value: Tensor | float) -> None:
    """``x[key] = value``. When autograd is watching, the write is recorded like PyTorch's:
    a ``copy_`` into the view ``x[key]`` for keys with ints and slices (so x's history becomes
    a CopySlices), IndexPutBackward0 for lists, tensors and masks, fill_/copy_ for
    ``x[...] = v``. Leading size-1 dimensions of ``value`` are dropped before broadcasting, as
    PyTorch does, so a (1, n) row fits into a (n,) slot."""
    view = is_view_key(key)
    check_inplace(x, view=view, written=x._data[key_data(key, x._xp)] if view else None,
                  others=(value,), wrapped=not view)
    if not is_tensor(value):
        value = x._new(x._xp.asarray(value, dtype=x._data.dtype))
    elif value._device != x._device:  # PyTorch copies across devices, except into index_put
        if not (view or value.ndim == 0 or is_whole_key(key)):
            same_device(x, value)
        value = value.to(x._device)
    ones = next((k for k, n in enumerate(value.shape) if n != 1), value.ndim)
    if ones:  # PyTorch drops the value's leading 1s first: y[0] = t of shape (1, n) into (n,)
        value = value.view(value.shape[ones:])
    if not recording(x, value):
        try:
            IndexPut.apply(x, key_data(key, x._xp), value)
        except ValueError:  # NumPy's words; PyTorch's are expand's, as it expands value
            expand(value, x._data[key_data(key, x._xp)].shape)
            raise
        return
    if is_whole_key(key):
        if value.ndim == 0:
            FillTensor.apply(x, value)
        else:
            copy_(x, value)
        return
    target = getitem(x, key) if view else None
    if target is not None and target._base is not None:
        copy_(target, value)  # as in PyTorch: a copy into the view x[key] re-makes x's history
        return
    IndexPut.apply(x, key_data(key, x._xp), value.to(x.dtype), index_sources(key))
