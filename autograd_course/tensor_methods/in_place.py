"""``Tensor``'s in-place methods, named with a trailing ``_``: they write their result into
the tensor itself and return it (``x.add_(y)``, ``x.zero_()``, ``x.copy_(src)``,
``x.relu_()``, ``x.exp_()``, ``x.pow_(2)``, ``x.masked_fill_(mask, 0)``...). Autograd records
them as usual, and bumps the tensor's version, so that a saved copy of the old values is
refused (see ``autograd/views.py`` for a write into a view).

Each is one call to its op in ``autograd_course.ops``; the element-wise ones all go through
``ops.inplace.unary_``. (``x += y`` and the other in-place operators are in operators.py.)
"""

from __future__ import annotations

from .. import ops
from ..ops import inplace, masking


def _written_in_place(name: str):
    """The method ``name_`` (``x.exp_()`` for ``name="exp"``): ``x.name()`` written into x."""

    def method(self):
        return inplace.unary_(self, name)

    method.__name__ = method.__qualname__ = name + "_"
    method.__doc__ = f"``{name}`` written into this tensor itself (PyTorch's ``{name}_``)."
    return method


def _compared_in_place(name: str):
    """The method ``name_`` (``x.eq_(y)``): ``x.name(y)`` written into x, as 1 or 0."""

    def method(self, other):
        return inplace.compare_(self, other, name)

    method.__name__ = method.__qualname__ = name + "_"
    method.__doc__ = f"``{name}`` written into this tensor itself (PyTorch's ``{name}_``)."
    return method


class TensorInPlace:
    """Mixed into ``Tensor``: methods that change the tensor itself."""

    __slots__ = ()

    # --- arithmetic ---------------------------------------------------------------------------
    def add_(self, other, *, alpha=1):
        return ops.add_(self, other, alpha=alpha)

    def sub_(self, other, *, alpha=1):
        return ops.sub_(self, other, alpha=alpha)

    def mul_(self, other):
        return ops.mul_(self, other)

    def div_(self, other, *, rounding_mode=None):
        return ops.div_(self, other, rounding_mode=rounding_mode)

    def pow_(self, exponent):
        return inplace.pow_(self, exponent)

    def floor_divide_(self, other):
        return inplace.floor_divide_(self, other)

    def remainder_(self, other):
        return inplace.remainder_(self, other)

    def bitwise_xor_(self, other):
        return inplace.bitwise_xor_(self, other)

    def clamp_(self, min=None, max=None):
        return ops.clamp_(self, min, max)

    # --- element-wise functions: x.exp_(), x.relu_()... ---------------------------------------
    relu_, sigmoid_, tanh_ = map(_written_in_place, ("relu", "sigmoid", "tanh"))
    exp_, log_, sqrt_, reciprocal_ = map(_written_in_place, ("exp", "log", "sqrt", "reciprocal"))
    abs_, neg_, sign_, sin_, cos_ = map(_written_in_place, ("abs", "neg", "sign", "sin", "cos"))

    # --- comparisons: x.eq_(y)... -------------------------------------------------------------
    eq_, ne_, lt_, le_, gt_, ge_ = map(_compared_in_place, ("eq", "ne", "lt", "le", "gt", "ge"))

    # --- filling and copying ------------------------------------------------------------------
    def zero_(self):
        return ops.zero_(self)

    def fill_(self, value):
        return ops.fill_(self, value)

    def set_(self, source=None):
        return inplace.set_(self, source)

    def copy_(self, src):
        return ops.copy_(self, src)

    def masked_fill_(self, mask, value):
        return masking.masked_fill_(self, mask, value)

    def index_put_(self, indices, values, accumulate=False):
        return masking.index_put_(self, indices, values, accumulate)
