"""Run one snippet with ``autograd_course`` and with ``torch`` and compare what a learner sees.

A case is a ``lambda m: ...`` where ``m`` is either library. What it shows is compared in
full: every tensor's dtype, shape and values (NaN equal to NaN), other values with ``==``,
and for an exception its type and first line. Cases that need gradients return them
(``[out, x.grad]``), so gradients are compared the same way.
"""

from __future__ import annotations

import re
import warnings

import numpy as np

import autograd_course as ag

_TRIGGERED = re.compile(r" \(Triggered internally at .*\.\)$", re.S)


def _is_tensor(value) -> bool:
    return isinstance(value, ag.Tensor) or type(value).__module__.startswith("torch")


def _shown(value):
    """A comparable form of ``value``: tensors as (dtype, shape, values)."""
    if isinstance(value, (list, tuple)):
        return [_shown(v) for v in value]
    if _is_tensor(value) and hasattr(value, "dtype") and hasattr(value, "shape"):
        values = value.detach().cpu().numpy()
        return ("tensor", str(value.dtype), tuple(value.shape), values)
    return value


def observe(lib, case):
    """(what ``case(lib)`` returned or raised, the warnings it gave as 'Category: message')."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            seen = ("value", _shown(case(lib)))
        except Exception as exc:  # the error is the observation
            seen = ("error", type(exc).__name__, str(exc).split("\n")[0])
    said = [
        f"{w.category.__name__}: {_TRIGGERED.sub('', str(w.message))}"
        for w in caught
        if issubclass(w.category, UserWarning)
    ]
    return seen, said


def _assert_same(ours, theirs, rtol, atol, where="") -> None:
    if isinstance(theirs, list):
        assert isinstance(ours, list) and len(ours) == len(theirs), (where, ours, theirs)
        for i, (o, t) in enumerate(zip(ours, theirs)):
            _assert_same(o, t, rtol, atol, f"{where}[{i}]")
        return
    if isinstance(theirs, tuple) and theirs and theirs[0] == "tensor":
        assert isinstance(ours, tuple) and ours[:3] == theirs[:3], (where, ours, theirs)
        if theirs[3].dtype.kind in "fc":
            np.testing.assert_allclose(
                ours[3], theirs[3], rtol=rtol, atol=atol, equal_nan=True, err_msg=where
            )
        else:
            np.testing.assert_array_equal(ours[3], theirs[3], err_msg=where)
        return
    assert ours == theirs, (where, ours, theirs)


def assert_like_torch(case, rtol: float = 1e-6, atol: float = 1e-7, warns: bool = False):
    """``case(ag)`` shows what ``case(torch)`` shows (and gives its warnings if ``warns``)."""
    import torch

    (ours, our_warnings), (theirs, their_warnings) = observe(ag, case), observe(torch, case)
    assert ours[0] == theirs[0], (ours, theirs)
    if theirs[0] == "error":
        assert ours == theirs
    else:
        _assert_same(ours[1], theirs[1], rtol, atol)
    if warns:
        assert our_warnings == their_warnings
    return ours


def with_grad(fn, data, dtype="float64"):
    """A case: ``fn(m, x)`` for a leaf ``x`` made of ``data``, then backward from its sum;
    shows [output, x.grad]."""

    def case(m):
        x = m.tensor(data, dtype=getattr(m, dtype), requires_grad=True)
        out = fn(m, x)
        (out.sum() if out.ndim else out).backward()
        return [out, x.grad]

    return case


def outcome(call, *args, **kwargs) -> str:
    """What a call gives, to compare with PyTorch's: its value's repr, or the error's type and
    the first line of its message (warnings silenced)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return repr(call(*args, **kwargs))
    except Exception as err:
        return f"{type(err).__name__}: {str(err).splitlines()[0]}"
