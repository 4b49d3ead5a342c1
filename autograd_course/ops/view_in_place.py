"""In-place view ops: ``x.t_()``, ``x.transpose_(0, 1)``, ``x.squeeze_(0)``, ``x.unsqueeze_(0)``,
``x.swapdims_(0, 1)``, ``x.as_strided_(size, stride)``; and ``x.resize_(size)``, which is not
differentiable (below).

They change only how ``x`` looks at its memory (shape, strides, offset), never the values, so
there is no new backward to write: ``x`` takes the geometry and the history of the same op
taken out of place (``x.t()``, whose node is ``TBackward0``). What PyTorch adds, and so does
this module, are its refusals: in grad mode, a leaf that requires grad may not change (as for
any in-place op), and a view made in a way that forbids writing into it (under no_grad, by an
op with several view outputs such as ``unbind``, inside a custom Function) may not change
either; the tensor keeps the reason, so a later write into it is refused as before. Under
no_grad a view with a history gets it afresh from its base
(``AsStridedBackward0``), as PyTorch does when it next reads the view's ``grad_fn``.
"""

from __future__ import annotations

import math

from .. import _messages
from ..autograd import grad_mode, views
from .shape import _shape_arg


def view_in_place(tensor, view_op, *args):
    """``tensor`` becomes ``view_op(tensor, *args)``: its geometry, and its history if
    recorded. Returns ``tensor``."""
    if grad_mode.is_grad_enabled():
        if tensor._requires_grad and tensor.grad_fn is None:
            raise RuntimeError(_messages.LEAF_IN_PLACE)
        if tensor._creation_meta is not None and (tensor._requires_grad
                                                  or views.made_in_no_grad(tensor)):
            raise RuntimeError(views.refusal(tensor, tensor._creation_meta))
    view = view_op(tensor, *args)
    tensor._data = view._data
    if view.grad_fn is not None:
        tensor.grad_fn, tensor._output_nr = view.grad_fn, view._output_nr
    elif tensor._base is not None and tensor.grad_fn is not None:
        views.refresh_views(tensor._base, [tensor])
    return tensor


def resize_(tensor, *size):
    """``x.resize_(size)``: x takes the shape ``size``, keeping its first elements in order.
    Fewer elements: x looks at the start of its memory (a contiguous x keeps sharing it).
    More: PyTorch grows x's memory and leaves the new elements uninitialised; here x gets
    new memory, its old elements then zeros. Not differentiable, so PyTorch refuses it on a
    tensor that requires grad."""
    if tensor._requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    shape = _shape_arg(size)
    count = math.prod(shape)
    flat = tensor._data.reshape(-1)  # (a view of x's memory when x is contiguous)
    if count > flat.size:
        grown = tensor._xp.zeros(count, dtype=flat.dtype)
        grown[:flat.size] = flat
        flat = grown
    tensor._data = flat[:count].reshape(shape)
    tensor._bump_version()
    return tensor
