"""``autograd.grad(..., is_grads_batched=True)``: many vector-Jacobian products at once.

Each ``grad_outputs`` tensor carries a batch dimension first: row ``b`` of every one of them
together is one set of starting gradients, and the result for each input has the same batch
dimension, row ``b`` being the gradient that set of starting gradients gives.

PyTorch computes all the rows in one backward pass, run under ``vmap`` (every backward formula
sees the whole batch). This package runs one ordinary backward pass per row (the graph is kept
until the last one) and stacks the rows: the same numbers, ``batch`` times the work.
"""

from __future__ import annotations

from ..tensor_base import TensorBase
from .arguments import shape_and_dtype
from .graph import GradientEdge


def _batched_shape_mismatch(i: int, grad_shape, shape) -> str:
    return ("If `is_grads_batched=True`, we interpret the first dimension of each grad_output "
            "as the batch dimension. The sizes of the remaining dimensions are expected to "
            f"match the shape of corresponding output, but a mismatch was detected: "
            f"grad_output[{i}] has a shape of {grad_shape!r} and output[{i}] has a shape of "
            f"{shape!r}. If you only want some tensors in `grad_output` to be considered "
            "batched, consider using vmap.")


def _check_shapes(outputs: tuple, grad_outputs: tuple) -> None:
    """Each batched gradient, its first dimension set apart, has its output's shape."""
    for i, (out, g) in enumerate(zip(outputs, grad_outputs)):
        if not isinstance(g, TensorBase):
            continue  # (None, or not a tensor: the per-row call says what is wrong)
        shape = shape_and_dtype(out)[0]
        if g._data.shape[1:] != shape:
            if isinstance(out, GradientEdge):
                raise RuntimeError("Batched grads are not supported with GradientEdge")
            # as PyTorch, which takes the batch dimension off twice in this message (off the
            # first row, g[0], whose shape is already without it): it shows g.shape[2:]
            raise RuntimeError(_batched_shape_mismatch(i, g.shape[2:], out.shape))


def _stacked(rows: list):
    """The gradients of one input, one per row, as one tensor with the batch dimension first
    (written row by row into zeros, so that under ``create_graph`` the writes are recorded)."""
    if rows[0] is None:
        return None  # the input was not reached (allow_unused)
    stacked = rows[0].new_zeros((len(rows), *rows[0].shape))
    for b, row in enumerate(rows):
        stacked[b] = row
    return stacked


def grad_per_row(grad, outputs, inputs, grad_outputs, retain_graph, create_graph,
                 **options) -> tuple:
    """``grad(outputs, inputs, row b of grad_outputs, ...)`` for every row ``b``, stacked;
    ``grad`` is ``autograd.grad`` (passed in: this module sits below the engine)."""
    single = isinstance(outputs, (TensorBase, GradientEdge))
    outputs = (outputs,) if single else tuple(outputs)
    if grad_outputs is None or isinstance(grad_outputs, TensorBase):
        grad_outputs = (grad_outputs,)
    grad_outputs = tuple(grad_outputs)
    _check_shapes(outputs, grad_outputs)
    sizes = [g.shape[0] for g in grad_outputs if isinstance(g, TensorBase)]
    if not sizes:  # nothing batched: one ordinary call
        return grad(outputs, inputs, grad_outputs, retain_graph, create_graph, **options)
    retain_graph = create_graph if retain_graph is None else retain_graph
    rows = []
    for b in range(sizes[0]):
        row = [g[b] if isinstance(g, TensorBase) else g for g in grad_outputs]
        keep = retain_graph or b < sizes[0] - 1  # the graph is needed for the next row
        rows.append(grad(outputs, inputs, row, keep, create_graph, **options))
    return tuple(_stacked(list(per_input)) for per_input in zip(*rows))
