"""Custom ``Function``s that several test files need, written once, for ``lib`` = ``ag`` or
``torch`` (so the same class can run against both).

Each maker returns a fresh class, so a test may subclass it. ``backward=`` puts a different
``backward(ctx, grad)`` in place of the right one (to test what catches a wrong one), and
``name=`` renames the class (node names are the class name + ``Backward``: tests compare them).
"""

from __future__ import annotations


def _function(lib, name: str, forward, backward):
    return type(name, (lib.autograd.Function,),
                {"forward": staticmethod(forward), "backward": staticmethod(backward)})


def mul_constant(lib, backward=None, name: str = "MulConstant"):
    """Note 001's ``MulConstant`` (y = x · c for a number c) with the right backward,
    grad · c (the note's own forgets the c)."""

    def forward(ctx, tensor, constant):
        ctx.constant = constant
        return tensor * constant

    def right_backward(ctx, grad_output):
        return grad_output * ctx.constant, None

    return _function(lib, name, forward, backward or right_backward)


def square(lib, backward=None, name: str = "Square"):
    """y = x², saving x for the backward 2·x·grad."""

    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    def right_backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 2 * x * grad

    return _function(lib, name, forward, backward or right_backward)


def identity(lib, backward=None, name: str = "Identity", returns_input: bool = False):
    """y = x: a new tensor ``x * 1`` (or, ``returns_input=True``, ``x`` itself, returned
    from forward), with the backward grad · 1."""

    def forward(ctx, x):
        return x if returns_input else x * 1

    def right_backward(ctx, grad):
        return grad * 1

    return _function(lib, name, forward, backward or right_backward)


def double_in_place(lib, name: str = "DoubleInPlace"):
    """x = 2x written into x itself (``ctx.mark_dirty``), returning x; backward: grad · 2."""

    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x

    def backward(ctx, grad):
        return grad * 2

    return _function(lib, name, forward, backward)


def view_of_input(lib, name: str = "ViewOf"):
    """A Function whose forward returns a view of its input (``x.view_as(x)``) and whose
    backward passes the gradient through: PyTorch treats its output as a view made by a
    custom Function, which cannot be written into in place."""

    def forward(ctx, x):
        return x.view_as(x)

    def backward(ctx, grad):
        return grad

    return _function(lib, name, forward, backward)
