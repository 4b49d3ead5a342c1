"""``gradcheck(..., check_forward_ad=True)``: the forward-mode Jacobian against the numerical one.

Row e of the Jacobian of input k (d outputs / d element e) is one forward pass with dual
inputs: input k carries the unit tangent e_e, the others none. The inputs are handed to the
function detached (PyTorch's gradcheck does the same: ``requires_grad`` only says which inputs
are checked). The message on a mismatch is PyTorch's, with "forward AD" in it.

Two more checks, as PyTorch's gradcheck makes them:

* ``check_undefined_grad`` (``undefined_tangents``): an input without a tangent must count as
  one with a zero tangent. For each checked input, the outputs' tangents are computed with
  that input given a zero tangent, then with it plain (no tangent), the others keeping theirs;
  the two must agree.
* ``check_batched_forward_grad`` (``batched``): PyTorch computes the tangents for a batch of
  two input tangents at once (its legacy ``vmap`` over the jvp) and compares them with two
  separate passes. Here there are no batching rules: the "batched" pass runs the two samples
  one after the other, as ``autograd_course.func.vmap`` does (which gradcheck, below it in the
  layers, cannot import), with random draws refused, as PyTorch's vmap refuses them.
"""

from __future__ import annotations

import numpy as np

from .. import random as _random
from .._backend import to_numpy
from ..tensor_base import TensorBase
from . import forward_ad
from .gradcheck_messages import FAILED_BATCHED_FWD, VMAP_RANDOM


def check(func, inputs: tuple, numerical: list, rtol: float, atol: float, fail) -> bool:
    """``numerical[k][j]``: rows index input k's elements, columns output j's. ``fail(message)``
    returns False or raises, as gradcheck was asked."""
    plain = tuple(a.detach() if isinstance(a, TensorBase) else a for a in inputs)
    for k, i in enumerate(_checked(inputs)):
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


def _checked(inputs: tuple) -> list:
    return [i for i, a in enumerate(inputs) if isinstance(a, TensorBase) and a.requires_grad]


def _tangents(outputs, zeros: bool) -> list:
    """The tangent of each floating-point output (None if it has none; zeros if asked)."""
    outputs = outputs if isinstance(outputs, tuple) else (outputs,)
    found = []
    for out in outputs:
        if isinstance(out, TensorBase) and out.is_floating_point():
            tangent = forward_ad.unpack_dual(out).tangent
            found.append(out.new_zeros(out.shape) if tangent is None and zeros else tangent)
    return found


def undefined_tangents(func, inputs: tuple, fail) -> bool:
    """For each checked input: the outputs' tangents with its tangent zero, and with none (the
    other checked inputs carry a random one), must be equal where both exist."""
    rng = np.random.default_rng(3)
    checked = _checked(inputs)
    with forward_ad.dual_level():
        duals = list(inputs)
        for i in checked:
            x = inputs[i].detach()
            duals[i] = forward_ad.make_dual(x, x._new(rng.random(x.shape).astype(x._data.dtype)))
        for i in checked:
            x, kept = inputs[i].detach(), duals[i]
            duals[i] = forward_ad.make_dual(x, x.new_zeros(x.shape))  # a zero tangent
            with_zero = _tangents(func(*duals), zeros=False)
            duals[i] = x  # no tangent at all
            without = _tangents(func(*duals), zeros=False)
            duals[i] = kept
            for k, (one, two) in enumerate(zip(with_zero, without)):
                if one is not None and two is not None and not one.allclose(two):
                    return fail(str(("Mismatch in tangent values for output with index: ", k,
                                     " when input: ", inputs[i], " has an undefined tangent "
                                     "value. ", " Got: ", one, " but expected: ", two)))
    return True


def _jvp(func, inputs: tuple, i: int, tangent) -> list:
    """The tangents of func's outputs when input i carries ``tangent`` (zeros where none)."""
    with forward_ad.dual_level():
        args = [a.detach() if isinstance(a, TensorBase) else a for a in inputs]
        args[i] = forward_ad.make_dual(args[i], tangent)
        return _tangents(func(*args), zeros=True)


def batched(func, inputs: tuple, fail) -> bool:
    """Two random tangents per checked input, pushed through as PyTorch's vmap would push the
    pair, with random draws refused. (There are no batching rules here: the pair goes through
    one tangent after the other, so what it gives equals the plain check's by construction,
    and only the refusal is left to check.)"""
    rng = np.random.default_rng(4)
    for i in _checked(inputs):
        x = inputs[i]
        if not x.is_floating_point():
            continue
        pair = [x._new(rng.standard_normal(x.shape).astype(x._data.dtype)) for _ in range(2)]
        _random.refusal.message = VMAP_RANDOM
        try:
            for tangent in pair:
                _jvp(func, inputs, i, tangent)
        except RuntimeError as ex:
            return fail(f"While computing batched gradients, got: {ex}\n\n{FAILED_BATCHED_FWD}")
        finally:
            _random.refusal.message = None
    return True
