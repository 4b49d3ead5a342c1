"""In-place ops: ``add_``, ``mul_``, ``zero_``, ``copy_``, ``x[i] = v``...

An in-place op overwrites memory that the graph may have saved, so each one
1. refuses to touch a leaf that requires grad while grad mode is on (its ``.grad`` would no
   longer describe the values it holds),
2. bumps the tensor's version counter, so a saved copy that went stale is caught at backward,
3. when recording, re-points the tensor's ``grad_fn`` at the new operation: the tensor now
   stands for the result.
"""

from __future__ import annotations

from ..autograd import grad_mode
from ._util import is_tensor


def check_inplace(x, view: bool = False) -> None:
    if x._requires_grad and x.grad_fn is None and grad_mode.state.enabled:
        what = "a view of a leaf Variable" if view else "a leaf Variable"
        raise RuntimeError(
            f"{what} that requires grad is being used in an in-place operation."
        )


def apply_inplace(x, result) -> object:
    """Write ``result`` (an op's output) into ``x``'s memory and make ``x`` stand for it."""
    xp = x._xp
    if result._data.shape != x._data.shape:
        raise RuntimeError(
            f"output with shape {list(x.shape)} doesn't match the broadcast shape "
            f"{list(result.shape)}"
        )
    if result._data.dtype != x._data.dtype and result._data.dtype.kind == "f" and \
            x._data.dtype.kind in "biu":
        raise RuntimeError(
            f"result type Float can't be cast to the desired output type "
            f"{x.dtype.name.capitalize()}"
        )
    xp.copyto(x._data, result._data, casting="unsafe")
    x._bump_version()
    if result.grad_fn is not None:
        x.grad_fn, x._output_nr, x._requires_grad = result.grad_fn, result._output_nr, True
    return x


def _inplace(x, op, *args):
    check_inplace(x)
    return apply_inplace(x, op(x, *args))


def add_(x, other, *, alpha=1):
    from .arithmetic import add

    return _inplace(x, lambda a, b: add(a, b, alpha=alpha), other)


def sub_(x, other, *, alpha=1):
    from .arithmetic import sub

    return _inplace(x, lambda a, b: sub(a, b, alpha=alpha), other)


def mul_(x, other):
    from .arithmetic import mul

    return _inplace(x, mul, other)


def div_(x, other):
    from .arithmetic import div

    return _inplace(x, div, other)


def clamp_(x, min=None, max=None):  # noqa: A002
    from .unary import clamp

    return _inplace(x, lambda a: clamp(a, min, max))


def copy_(x, src):
    """Copy ``src``'s values into ``x`` (broadcasting); gradients flow to ``src``."""
    check_inplace(x)
    if not is_tensor(src):
        src = x._new(x._xp.asarray(src, dtype=x._data.dtype))
    if src._device != x._device:
        src = src.to(x._device)
    src = src.to(x.dtype).expand(x.shape) if tuple(src.shape) != tuple(x.shape) else \
        src.to(x.dtype)
    result = src if src.grad_fn is not None or not src._requires_grad else src * 1
    return apply_inplace(x, result)


def fill_(x, value):
    check_inplace(x)
    if is_tensor(value):
        value = value.item()
    x._data[...] = value
    x._bump_version()
    if grad_mode.state.enabled and x.grad_fn is not None:
        x.grad_fn, x._requires_grad = None, False  # a constant now: nothing flows back
    return x


def zero_(x):
    """Set every element to 0 in place (what you do to ``.grad`` between steps)."""
    return fill_(x, 0)


def setitem(x, key, value) -> None:
    """``x[key] = value``. When autograd is watching, the write is recorded (CopySlices)."""
    from .shape import IndexPut, _key_data

    check_inplace(x, view=True)
    data_key = _key_data(key)
    if not is_tensor(value):
        value = x._new(x._xp.asarray(value, dtype=x._data.dtype))
    if grad_mode.state.enabled and (x._requires_grad or value._requires_grad):
        apply_inplace(x, IndexPut.apply(x, data_key, value.to(x.dtype)))
        return
    x._data[data_key] = value._data
    x._bump_version()
