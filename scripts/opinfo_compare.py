"""Helpers of ``scripts/opinfo_suite.py``: a torch sample converted to the package's objects,
results flattened and compared (values, dtypes, shapes), and the tolerance rules.

Nothing here is PyTorch's code; it reads torch objects (the oracle) and the package's, and
turns both into NumPy arrays, Python numbers and strings before comparing.
"""

from __future__ import annotations

import types

import numpy as np
import torch

import autograd_course as ag


class OutOfScope(Exception):
    """A sample needs something the package leaves out by a stated rule (its message)."""


# torch.testing.assert_close's default tolerances (rtol, atol) for each floating dtype
TOLERANCE = {"torch.float32": (1.3e-6, 1e-5), "torch.float64": (1e-7, 1e-7)}
# float32 results within this many ulps of the result's magnitude are rounding, not a bug
ROUNDING_ULPS = 16
# ... or within this factor of torch's own distance from the float64 answer
ROUNDING_FACTOR = 4
# ops whose ties may be broken differently: the argument position (or keyword) of their dim
TIE_DIM = {"sort": 0, "argsort": 0, "topk": 1, "kthvalue": 1, "median": 0, "mode": 0,
           "max": 0, "min": 0, "argmax": 0, "argmin": 0, "msort": None}


def _dtype(torch_dtype):
    name = str(torch_dtype).split(".", 1)[1]
    if torch_dtype.is_complex or not hasattr(ag, name):
        raise OutOfScope(f"dtype {name}")
    return getattr(ag, name)


def to_package(obj, memo: dict, grad_pairs: list):
    """``obj`` with every torch object replaced by the package's: tensors through NumPy (one
    package tensor per torch tensor, so aliasing is kept), dtypes, devices, memory formats.
    Each torch tensor that requires grad is paired with its copy in ``grad_pairs``."""
    if isinstance(obj, torch.Tensor):
        if id(obj) not in memo:
            if obj.layout != torch.strided:
                raise OutOfScope("sparse layout")
            if obj.dim() > 64:  # NumPy's limit; torch creates them but its ops refuse them
                raise OutOfScope("more than 64 dimensions")
            dtype = _dtype(obj.dtype)
            copy = ag.tensor(obj.detach().numpy().copy(), dtype=dtype,
                             requires_grad=obj.requires_grad)
            memo[id(obj)] = copy
            if obj.requires_grad:
                grad_pairs.append((obj, copy))
        return memo[id(obj)]
    if isinstance(obj, torch.dtype):
        return _dtype(obj)
    if isinstance(obj, torch.device):
        return ag.device(str(obj))
    if isinstance(obj, torch.memory_format):
        name = str(obj).split(".", 1)[1]
        if name.startswith("channels_last") or not hasattr(ag, name):
            raise OutOfScope(f"memory_format {name}")
        return getattr(ag, name)
    if isinstance(obj, torch.Size):
        return tuple(obj)
    if isinstance(obj, (torch.layout, torch.Generator)):
        raise OutOfScope(type(obj).__name__)
    if isinstance(obj, complex):
        raise OutOfScope("complex number")
    if isinstance(obj, (list, tuple)):
        return type(obj)(to_package(o, memo, grad_pairs) for o in obj)
    if isinstance(obj, dict):
        return {k: to_package(v, memo, grad_pairs) for k, v in obj.items()}
    return obj


def rebind(function, namespace):
    """A Python function of PyTorch's test code with its global ``torch`` bound to
    ``namespace`` (the package): the same code, run on the package."""
    if not isinstance(function, types.FunctionType):
        return function
    scope = dict(function.__globals__, torch=namespace)
    copy = types.FunctionType(function.__code__, scope, function.__name__,
                              function.__defaults__, function.__closure__)
    copy.__kwdefaults__ = function.__kwdefaults__
    return copy


def flatten(result) -> list:
    """The leaves of a result: tensors, numbers, strings, None; tuples, lists and named tuples
    (``torch.return_types``) are walked in order."""
    if isinstance(result, (torch.Tensor, ag.Tensor)) or result is None:
        return [result]
    if isinstance(result, (tuple, list)):
        return [leaf for item in result for leaf in flatten(item)]
    if isinstance(result, (torch.Size,)):
        return [tuple(result)]
    return [result]


def describe(leaf):
    """(kind, dtype name, shape, NumPy value) of one leaf, the same for torch and here."""
    if isinstance(leaf, torch.Tensor):
        value = leaf.detach().resolve_conj().resolve_neg().numpy()
        return "tensor", str(leaf.dtype), tuple(leaf.shape), value
    if isinstance(leaf, ag.Tensor):
        return "tensor", str(leaf.dtype), tuple(leaf.shape), np.asarray(leaf.detach().numpy())
    if isinstance(leaf, (torch.dtype, ag.dtype)):
        return "dtype", str(leaf), (), None
    if isinstance(leaf, (bool, int, float)) and not isinstance(leaf, np.ndarray):
        return type(leaf).__name__, type(leaf).__name__, (), np.asarray(leaf)
    return type(leaf).__name__, "", (), leaf


def values_differ(dtype: str, mine: np.ndarray, theirs: np.ndarray) -> str:
    """"" when the values agree within the dtype's tolerance; "rounding" when a float32
    result is off by at most ROUNDING_ULPS of its magnitude; otherwise "value"."""
    if mine.shape != theirs.shape:
        return "value"
    if mine.size == 0:
        return ""
    if dtype not in TOLERANCE:
        same = (mine == theirs) | ((mine != mine) & (theirs != theirs))
        return "" if np.all(same) else "value"
    mine, theirs = mine.astype(np.float64), theirs.astype(np.float64)
    rtol, atol = TOLERANCE[dtype]
    if np.allclose(mine, theirs, rtol=rtol, atol=atol, equal_nan=True):
        return ""
    if dtype == "torch.float32":
        finite = np.isfinite(theirs)
        if np.array_equal(np.isfinite(mine), finite) and np.array_equal(
                mine[~finite], theirs[~finite], equal_nan=True):
            scale = max(1.0, float(np.max(np.abs(theirs[finite]), initial=0.0)))
            ulp = float(np.finfo(np.float32).eps) * scale
            if np.max(np.abs(mine[finite] - theirs[finite]), initial=0.0) <= ROUNDING_ULPS * ulp:
                return "rounding"
    return "value"


def compare(mine, theirs, *, values: bool = True) -> tuple[str, str]:
    """("", "") when ``mine`` (the package's result) matches ``theirs`` (torch's); otherwise
    the failure class (SHAPE, DTYPE, VALUE, ROUNDING) and a short detail."""
    ours, reference = flatten(mine), flatten(theirs)
    if len(ours) != len(reference):
        return "SHAPE", f"{len(ours)} results where torch gives {len(reference)}"
    worst = ("", "")
    for i, (a, b) in enumerate(zip(ours, reference)):
        kind_a, dtype_a, shape_a, value_a = describe(a)
        kind_b, dtype_b, shape_b, value_b = describe(b)
        if kind_a != kind_b and not {kind_a, kind_b} <= {"int", "float", "bool"}:
            return "DTYPE", f"result {i}: {kind_a} where torch gives {kind_b}"
        if shape_a != shape_b:
            return "SHAPE", f"result {i}: shape {list(shape_a)}, torch {list(shape_b)}"
        if dtype_a != dtype_b:
            return "DTYPE", f"result {i}: {dtype_a}, torch {dtype_b}"
        if not values or kind_a == "dtype":
            continue
        if kind_a in ("tensor", "int", "float", "bool"):
            how = values_differ(dtype_a if kind_a == "tensor" else "torch.float64",
                                np.asarray(value_a), np.asarray(value_b))
        else:
            how = "" if value_a == value_b else "value"
        if how == "value":
            return "VALUE", f"result {i}: {_first_difference(value_a, value_b)}"
        if how == "rounding":
            worst = ("ROUNDING", f"result {i}: float32 rounding")
    return worst


def _first_difference(mine, theirs) -> str:
    """Where ``mine`` is furthest from ``theirs`` (or the first unequal element)."""
    mine, theirs = np.asarray(mine), np.asarray(theirs)
    if mine.shape != theirs.shape or mine.size == 0:
        return f"{mine!r} vs {theirs!r}"[:120]
    differ = ~((mine == theirs) | ((mine != mine) & (theirs != theirs)))
    index = tuple(int(i) for i in np.argwhere(differ)[0]) if differ.any() else ()
    if differ.any() and mine.dtype.kind == "f" and np.isfinite(mine).all() \
            and np.isfinite(theirs).all():
        gap = np.abs(mine.astype(np.float64) - theirs)
        index = np.unravel_index(int(np.argmax(gap)), gap.shape)
    return f"at {list(index)} {mine[index]!r}, torch {theirs[index]!r}"[:120]


def gradients_differ(ours: list, theirs: list) -> tuple[str, str]:
    """Compare input gradients (None counts as zeros); the class GRAD or ROUNDING, or ""."""
    worst = ("", "")
    for i, (a, b) in enumerate(zip(ours, theirs)):
        value_b = None if b is None else b.detach().numpy()
        value_a = None if a is None else np.asarray(a.detach().numpy())
        if value_a is None and value_b is None:
            continue
        if value_a is None or value_b is None:
            value_a = np.zeros_like(value_b) if value_a is None else value_a
            value_b = np.zeros_like(value_a) if value_b is None else value_b
        dtype = str(b.dtype if b is not None else a.dtype)
        how = values_differ(dtype, value_a, value_b)
        if how == "value":
            return "GRAD", f"grad {i}: {_first_difference(value_a, value_b)}"
        if how == "rounding":
            worst = ("ROUNDING", f"grad {i}: float32 rounding")
    return worst


def cotangent(leaf, rng):
    """A fixed random cotangent for a float torch result (None for other results)."""
    if not isinstance(leaf, torch.Tensor) or not leaf.requires_grad:
        return None
    return torch.from_numpy(rng.uniform(-1.0, 1.0, size=tuple(leaf.shape))).to(leaf.dtype)


def ties_only(key: str, sample, mine, theirs) -> bool:
    """Whether ``mine`` differs from ``theirs`` only by the indices chosen among equal values:
    the values agree, and the input's values at our indices are torch's."""
    name = key.split(".")[0]
    if name not in TIE_DIM or not isinstance(sample.input, torch.Tensor):
        return False
    ours, reference = flatten(mine), flatten(theirs)
    x = sample.input.detach().numpy()
    position = TIE_DIM[name]
    dim = sample.kwargs.get("dim", sample.args[position] if position is not None and len(
        sample.args) > position and isinstance(sample.args[position], int) else None)
    for a, b in zip(ours, reference):
        if not isinstance(b, torch.Tensor):
            return False
        value_a, value_b = np.asarray(a.detach().numpy()), b.detach().numpy()
        if np.array_equal(value_a, value_b, equal_nan=b.dtype.is_floating_point):
            continue
        if b.dtype != torch.int64 or x.ndim == 0:
            return False
        if dim is None and name in ("argmax", "argmin"):
            picked_a, picked_b = x.reshape(-1)[value_a], x.reshape(-1)[value_b]
        else:
            axis = -1 if dim is None else dim
            index_a, index_b = value_a, value_b
            if index_a.ndim < x.ndim:
                index_a, index_b = np.expand_dims(index_a, axis), np.expand_dims(index_b, axis)
            picked_a = np.take_along_axis(x, index_a, axis)
            picked_b = np.take_along_axis(x, index_b, axis)
        if not np.array_equal(picked_a, picked_b, equal_nan=True):
            return False
    return True

def _float64_twin(op, sample, cotangents=None):
    """torch's results (or, with ``cotangents``, input gradients) for the float32 sample
    computed in float64: the reference that both float32 results round away from."""
    def widen(t):
        if not (isinstance(t, torch.Tensor) and t.dtype == torch.float32):
            return t
        return t.detach().double().requires_grad_(t.requires_grad)
    twin = sample.transform(widen)
    out = twin.output_process_fn_grad(op.op(twin.input, *twin.args, **twin.kwargs))
    if cotangents is None:
        return flatten(out)
    outputs = [o for o in flatten(out) if isinstance(o, torch.Tensor) and o.requires_grad]
    inputs = []
    to_package((twin.input, twin.args, twin.kwargs), {}, inputs)
    inputs = [t for t, _ in inputs]
    return torch.autograd.grad(outputs, inputs, [c.double() for c in cotangents],
                               allow_unused=True)

def float32_rounding(op, sample, mine, theirs, cotangents=None) -> bool:
    """A float32 difference is rounding when our result is within ``ROUNDING_FACTOR`` times
    torch's own distance from the float64 answer (plus ``ROUNDING_ULPS`` ulps): two orders
    of summation, neither of them wrong."""
    ours, reference = flatten(mine), flatten(theirs)
    if not all(isinstance(t, torch.Tensor) and t.dtype == torch.float32 for t in reference
               if isinstance(t, torch.Tensor)) or not any(
                   isinstance(t, torch.Tensor) and t.dtype == torch.float32 for t in reference):
        return False
    try:
        exact = _float64_twin(op, sample, cotangents)
    except Exception:
        return False
    for a, b, e in zip(ours, reference, exact):
        if not isinstance(b, torch.Tensor):
            continue
        a = np.asarray(a.detach().numpy(), np.float64) if a is not None else None
        b = b.detach().numpy().astype(np.float64)
        e = np.zeros_like(b) if e is None else e.detach().numpy()
        if a is None or a.shape != e.shape or not np.array_equal(np.isnan(a), np.isnan(e)):
            return False
        finite = np.isfinite(e)
        ulp = np.finfo(np.float32).eps * max(1.0, float(np.abs(e[finite]).max(initial=0)))
        if np.any(np.abs(a - e)[finite] > ROUNDING_FACTOR * np.abs(b - e)[finite]
                  + ROUNDING_ULPS * ulp):
            return False
    return True
