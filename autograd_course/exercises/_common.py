"""Shared machinery for the exercise checkers: verdicts, placeholders, comparisons, gradcheck.

A checker is a function decorated with :func:`checker`. Its body calls the learner's code and
compares the result with a reference; it reports a problem by raising :class:`Mismatch` with a
hint, and a cell that was not filled in yet by raising :class:`NotAttempted` (the helpers
below do both for you). The decorator turns that into exactly one printed line:

- ``correct``                    the answer matches the reference;
- ``not attempted yet``          the cell still holds its placeholder;
- ``not quite: <hint>``          something is wrong, and the hint says what.

A checker never raises for a wrong answer, so the committed notebooks (placeholders in place)
run top to bottom and pass nbval.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

CORRECT = "correct"
NOT_ATTEMPTED = "not attempted yet"
NOT_QUITE = "not quite"


class NotAttempted(Exception):
    """The learner's cell still holds its placeholder (``...``, ``None``, NotImplementedError)."""


class Mismatch(Exception):
    """The answer is wrong; the message is the hint shown after ``not quite:``."""


@dataclass(frozen=True)
class Verdict:
    """What a checker decided. Printed once when made; truthy only when correct."""

    status: str  # CORRECT, NOT_ATTEMPTED or NOT_QUITE
    hint: str = ""

    def __bool__(self) -> bool:
        return self.status == CORRECT

    def __str__(self) -> str:
        if self.status == NOT_QUITE:
            return f"{NOT_QUITE}: {self.hint}"
        return self.status if not self.hint else f"{self.status} ({self.hint})"

    def _ipython_display_(self) -> None:
        """Show nothing in Jupyter: the verdict was already printed when the checker ran."""


def correct(note: str = "") -> Verdict:
    """Print and return a ``correct`` verdict (``note`` is an optional remark in brackets)."""
    return _emit(Verdict(CORRECT, note))


def not_attempted() -> Verdict:
    return _emit(Verdict(NOT_ATTEMPTED))


def not_quite(hint: str) -> Verdict:
    return _emit(Verdict(NOT_QUITE, hint))


def _emit(verdict: Verdict) -> Verdict:
    print(verdict)
    return verdict


def checker(fn: Callable[..., Any]) -> Callable[..., Verdict]:
    """Turn a check function into a checker that prints one verdict and never raises.

    The wrapped function returns nothing (or a short remark) when the answer is right, and
    raises NotAttempted / Mismatch otherwise. Any other exception came from the learner's code
    and is reported as a hint naming the exception.
    """

    @functools.wraps(fn)
    def wrapper(*args, **kwargs) -> Verdict:
        try:
            note = fn(*args, **kwargs)
        except NotAttempted:
            return not_attempted()
        except Mismatch as e:
            return not_quite(str(e))
        except NotImplementedError:
            return not_attempted()
        except Exception as e:  # noqa: BLE001 - the learner's code may raise anything
            return not_quite(f"your code raised {type(e).__name__}: {e}")
        return correct(note or "")

    return wrapper


# --- placeholders ---------------------------------------------------------------------------
def is_placeholder(value: Any) -> bool:
    """True for what an untouched exercise cell leaves behind: ``...`` or ``None``."""
    return value is Ellipsis or value is None


def require_attempt(value: Any) -> Any:
    """Return ``value``, or raise NotAttempted if it is still the placeholder."""
    if is_placeholder(value):
        raise NotAttempted
    return value


def call_learner(fn: Callable[..., Any], *args, allow_none: bool = False, **kwargs) -> Any:
    """Call the learner's function; a placeholder body (NotImplementedError, ``...``) is
    NotAttempted. ``None`` counts as a placeholder too unless ``allow_none``."""
    if is_placeholder(fn):
        raise NotAttempted
    try:
        result = fn(*args, **kwargs)
    except NotImplementedError as e:
        raise NotAttempted from e
    if result is Ellipsis or (result is None and not allow_none):
        raise NotAttempted
    return result


# --- comparing values -----------------------------------------------------------------------
def to_numpy(value: Any) -> np.ndarray:
    """A float64 array from a Tensor, an array, a list or a number."""
    from ..tensor import Tensor

    if isinstance(value, Tensor):
        value = value.detach()._data
        value = value.get() if hasattr(value, "get") else value  # CuPy -> NumPy
    return np.asarray(value, dtype=np.float64)


def _fmt(a: np.ndarray) -> str:
    return np.array2string(np.asarray(a), precision=4, separator=", ", threshold=12)


def describe_difference(actual: np.ndarray, expected: np.ndarray, name: str,
                        rtol: float = 1e-4, atol: float = 1e-6) -> str | None:
    """None when close; otherwise a hint: shape, transposition, sign, a constant factor."""
    if actual.shape != expected.shape:
        shape_a, shape_e = tuple(actual.shape), tuple(expected.shape)
        if actual.size == expected.size:
            if actual.ndim == 2 and np.allclose(actual.T, expected, rtol=rtol, atol=atol):
                return f"{name} looks transposed: shape {shape_a}, expected {shape_e}"
            return (f"{name} has the right number of elements but shape {shape_a}; "
                    f"expected shape {shape_e}")
        return f"{name} has shape {shape_a}, expected shape {shape_e}"
    if not np.all(np.isfinite(actual)):
        return f"{name} contains nan or inf"
    if np.allclose(actual, expected, rtol=rtol, atol=atol):
        return None
    if np.allclose(actual, -expected, rtol=rtol, atol=atol):
        return f"{name} has the right shape but the wrong sign"
    big = np.abs(expected) > 1e-8
    if big.any() and np.allclose(actual[~big], 0, atol=atol):
        ratios = actual[big] / expected[big]
        factor = float(np.median(ratios))
        if np.allclose(ratios, factor, rtol=1e-3) and abs(factor) > 1e-8:
            return (f"{name} has the right shape but is {factor:.4g} times the expected value "
                    "(a missing or extra constant factor?)")
    return f"{name} has the right shape but wrong values: got {_fmt(actual)}, expected " \
           f"{_fmt(expected)}"


def compare_tensors(actual: Any, expected: Any, name: str = "your answer", *,
                    rtol: float = 1e-4, atol: float = 1e-6) -> None:
    """Raise Mismatch with a specific hint unless ``actual`` is close to ``expected``."""
    if actual is None:
        raise Mismatch(f"{name} is None")
    try:
        a = to_numpy(actual)
    except (TypeError, ValueError) as e:
        raise Mismatch(f"{name} should be a tensor or a number, got {type(actual).__name__}") \
            from e
    hint = describe_difference(a, to_numpy(expected), name, rtol=rtol, atol=atol)
    if hint is not None:
        raise Mismatch(hint)


# --- inputs and gradient checks -------------------------------------------------------------
def random_inputs(*shapes: tuple, seed: int | None = None, requires_grad: bool = True,
                  low: float = -2.0, high: float = 2.0) -> list:
    """Fresh float64 tensors (float64 so that finite differences are accurate)."""
    from ..creation import tensor

    rng = np.random.default_rng(seed)
    return [tensor(rng.uniform(low, high, size=s), dtype=_float64(),
                   requires_grad=requires_grad) for s in shapes]


def _float64():
    from .. import float64

    return float64


def check_function_gradcheck(function_cls: Any, inputs: list, name: str | None = None) -> None:
    """Run the learner's ``Function`` subclass through gradcheck; Mismatch says what is off.

    ``inputs`` should be float64 tensors that require grad. A backward that still raises
    NotImplementedError (or returns ``...``) is NotAttempted.
    """
    from ..autograd.function import Function
    from ..autograd.gradcheck import analytical_jacobian, numerical_jacobian

    if is_placeholder(function_cls):
        raise NotAttempted
    if not (isinstance(function_cls, type) and issubclass(function_cls, Function)):
        raise Mismatch(f"expected a subclass of ag.autograd.Function, got {function_cls!r}")
    name = name or function_cls.__name__
    apply = function_cls.apply
    try:
        out = apply(*inputs)
    except NotImplementedError as e:
        raise NotAttempted from e
    if out is Ellipsis or out is None:
        raise NotAttempted
    _probe_backward(out, inputs)
    try:
        analytical = analytical_jacobian(apply, inputs)
    except NotImplementedError as e:
        raise NotAttempted from e
    except TypeError as e:
        if "ellipsis" in str(e):  # backward returned ... (the placeholder)
            raise NotAttempted from e
        raise
    except RuntimeError as e:
        if "ellipsis" in str(e):
            raise NotAttempted from e
        raise Mismatch(f"{name}.backward: {e}") from e
    numerical = numerical_jacobian(apply, inputs)
    for k, (num_outs, ana_outs) in enumerate(zip(numerical, analytical)):
        for num, ana in zip(num_outs, ana_outs):
            hint = describe_difference(ana, num, f"the gradient for input {k}", rtol=1e-3,
                                       atol=1e-5)
            if hint is not None:
                raise Mismatch(f"gradcheck fails for {name}: {hint}")


def _probe_backward(out: Any, inputs: list) -> None:
    """One backward pass: a backward that is still ``...`` returns None for every input."""
    from ..autograd.engine import grad
    from ..tensor import Tensor

    outs = [o for o in (out if isinstance(out, tuple) else (out,)) if isinstance(o, Tensor)]
    outs = [o for o in outs if o.requires_grad]
    wrt = [t for t in inputs if isinstance(t, Tensor) and t.requires_grad]
    if not outs or not wrt:
        raise Mismatch("the output does not require grad: did forward leave the graph?")
    seeds = [o._new(o._xp.ones(o.shape, dtype=o._data.dtype)) for o in outs]
    try:
        grads = grad(outs, wrt, seeds, retain_graph=True, allow_unused=True)
    except NotImplementedError as e:
        raise NotAttempted from e
    except RuntimeError as e:
        if "ellipsis" in str(e):
            raise NotAttempted from e
        raise Mismatch(f"backward failed: {e}") from e
    if all(g is None for g in grads):
        raise NotAttempted
