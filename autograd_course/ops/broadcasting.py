"""Broadcasting: the shape two operands broadcast to, PyTorch's message when they do not, and
``sum_to``, which undoes broadcasting for a gradient."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # for the type hints only (importing it would be a cycle)
    from ..tensor import Tensor


def broadcast_error(a_shape: tuple[int, ...], b_shape: tuple[int, ...]) -> RuntimeError:
    """PyTorch's message for shapes that do not broadcast, naming both sizes."""
    na, nb = len(a_shape), len(b_shape)
    for i in range(1, max(na, nb) + 1):
        sa = a_shape[-i] if i <= na else 1
        sb = b_shape[-i] if i <= nb else 1
        if sa != sb and sa != 1 and sb != 1:
            dim = max(na, nb) - i
            return RuntimeError(
                f"The size of tensor a ({sa}) must match the size of tensor b ({sb}) at "
                f"non-singleton dimension {dim}"
            )
    return RuntimeError(f"shapes {list(a_shape)} and {list(b_shape)} cannot be broadcast")


def broadcast_shape(a_shape: tuple[int, ...], b_shape: tuple[int, ...]) -> tuple[int, ...]:
    try:
        return np.broadcast_shapes(a_shape, b_shape)
    except ValueError:
        raise broadcast_error(a_shape, b_shape) from None


def sum_to(grad: Tensor, shape: tuple[int, ...]) -> Tensor:
    """Undo broadcasting: sum ``grad`` over the dimensions that were broadcast to reach it."""
    if grad._data.shape == shape:
        return grad
    return grad.sum_to_size(shape)
