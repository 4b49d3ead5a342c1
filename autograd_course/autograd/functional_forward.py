"""``jacobian(..., strategy="forward-mode", vectorize=True)``: the Jacobian by forward mode.

As ``torch.autograd.functional._jacfwd`` does, each column of J (d outputs / d input element k)
is one forward pass with dual inputs whose tangent is the unit vector e_k: forward mode gives
J·e_k. PyTorch batches the n passes with ``vmap``; here they run one after another (the same
numbers, n forward passes), and the columns are stacked. Reverse mode needs one backward pass
per *output* element instead, so forward mode wins when there are few inputs and many outputs.
"""

from __future__ import annotations

from .. import creation, ops
from . import forward_ad


def jacfwd(func, inputs: tuple) -> tuple:
    """For each output, for each input: a tensor of shape ``output.shape + input.shape``."""
    numels = [inp.numel() for inp in inputs]
    columns, outputs_tuple, outputs = [], False, None  # columns[k]: J·e_k, one per output
    for j, n in enumerate(numels):
        for k in range(n):
            with forward_ad.dual_level():
                duals = tuple(forward_ad.make_dual(x, _tangent(x, k if i == j else None))
                              for i, x in enumerate(inputs))
                out = func(*duals)
                outputs_tuple = isinstance(out, tuple)
                unpacked = [forward_ad.unpack_dual(o) for o in (out if outputs_tuple else (out,))]
            outputs = [p for p, _ in unpacked]
            columns.append([creation.zeros_like(p) if t is None else t for p, t in unpacked])
    result, start = [], 0
    for o, out in enumerate(outputs):
        per_input = []
        for j, inp in enumerate(inputs):
            cols = [c[o] for c in columns[start:start + numels[j]]]
            jac = ops.stack(cols, dim=-1) if cols else out.new_zeros((*out.shape, 0))
            per_input.append(jac.reshape(*out.shape, *inp.shape))
            start += numels[j]
        start = 0
        result.append(tuple(per_input))
    return outputs_tuple, tuple(result)


def _tangent(x, k):
    """The unit vector e_k shaped like x (1 at flat position k); zeros when k is None."""
    e = creation.zeros(x.numel(), dtype=x.dtype)
    if k is not None:
        e[k] = 1.0
    return e.reshape(x.shape)
