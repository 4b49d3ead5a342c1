"""``gradcheck(..., check_forward_ad=True)``: the forward-mode Jacobian against the numerical one.

Row e of the Jacobian of input k (d outputs / d element e) is one forward pass with dual
inputs: input k carries the unit tangent e_e, the others none. The inputs are handed to the
function detached (PyTorch's gradcheck does the same: ``requires_grad`` only says which inputs
are checked). The message on a mismatch is PyTorch's, with "forward AD" in it.
"""

from __future__ import annotations

import numpy as np

from .._backend import to_numpy
from ..tensor_base import TensorBase
from . import forward_ad


def check(func, inputs: tuple, numerical: list, rtol: float, atol: float, fail) -> bool:
    """``numerical[k][j]``: rows index input k's elements, columns output j's. ``fail(message)``
    returns False or raises, as gradcheck was asked."""
    plain = tuple(a.detach() if isinstance(a, TensorBase) else a for a in inputs)
    checked = [i for i, a in enumerate(inputs) if isinstance(a, TensorBase) and a.requires_grad]
    for k, i in enumerate(checked):
        x = plain[i]
        rows = [_row(func, plain, i, e) for e in range(x.numel())]
        for j, num in enumerate(numerical[k]):
            ana = np.stack([r[j] for r in rows]) if rows else np.zeros((0, 0))
            if not np.allclose(ana.reshape(np.shape(num)), num, rtol=rtol, atol=atol):
                as_tensor = type(x)._wrap
                return fail(f"Jacobian computed with forward mode mismatch for output {j} with "
                            f"respect to input {k},\nnumerical:{as_tensor(np.asarray(num))!r}\n"
                            f"analytical:{as_tensor(ana)!r}\n")
    return True


def _row(func, plain: tuple, i: int, e: int) -> list:
    """d outputs / d element e of input i, one flat array per output (zeros: no tangent)."""
    x = plain[i]
    unit = np.zeros(x.numel(), dtype=x._data.dtype)
    unit[e] = 1.0
    with forward_ad.dual_level():
        args = list(plain)
        args[i] = forward_ad.make_dual(x, x._new(unit.reshape(x._data.shape)))
        outputs = func(*args)
        outputs = outputs if isinstance(outputs, tuple) else (outputs,)
        row = []
        for out in outputs:
            if not isinstance(out, TensorBase):
                continue
            tangent = forward_ad.unpack_dual(out).tangent
            row.append(np.zeros(out.numel()) if tangent is None
                       else to_numpy(tangent._data).reshape(-1).astype(np.float64))
    return row
