"""Shared machinery for the exercise checkers: verdicts, placeholders, comparisons, gradcheck.

A checker is a function decorated with :func:`checker`. Its body calls the learner's code and
compares the result with a reference; it reports a problem by raising :class:`Mismatch` with a
hint, and a cell that was not filled in yet by raising :class:`NotAttempted` (the helpers
below do both for you). The decorator turns that into exactly one printed line:

- ``correct``                    the answer matches the reference;
- ``not attempted yet``          the cell still holds its placeholder;
- ``not quite: <hint>``          something is wrong, and the hint says what.

A checker never raises for a wrong answer, so the committed notebooks (placeholders in place)
run top to bottom and pass nbval. It also isolates the learner's code: whatever it raises
(``sys.exit`` and exceptions whose message cannot be printed included) becomes a hint, and
grad mode is restored afterwards, so one checker cannot break the next.
"""

from __future__ import annotations

import dis
import functools
import os
import re
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from ... import float64
from ...autograd import grad_mode
from ...autograd.engine import grad
from ...autograd.function import Function
from ...autograd.gradcheck import analytical_jacobian, numerical_jacobian
from ...creation import tensor
from ...tensor import Tensor
from .messages import msg

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
            return msg("verdict.not_quite", hint=self.hint)
        status = msg("verdict.correct" if self.status == CORRECT else "verdict.not_attempted")
        return status if not self.hint else msg("verdict.with_note", status=status,
                                                 note=self.hint)

    def _ipython_display_(self) -> None:
        """Show nothing in Jupyter: the verdict was already printed when the checker ran."""


def correct(note: str = "") -> Verdict:
    """Print and return a ``correct`` verdict (``note`` is an optional remark in brackets)."""
    return _emit(Verdict(CORRECT, note))


def not_attempted() -> Verdict:
    """Print and return a ``not attempted yet`` verdict."""
    return _emit(Verdict(NOT_ATTEMPTED))


def not_quite(hint: str) -> Verdict:
    """Print and return a ``not quite: <hint>`` verdict, on one line (a hint that quotes a
    2-D array or an error message with line breaks is joined)."""
    return _emit(Verdict(NOT_QUITE, re.sub(r"\s*\n\s*", " ", hint.strip())))


def _emit(verdict: Verdict) -> Verdict:
    print(verdict)
    return verdict


def checker(fn: Callable[..., Any]) -> Callable[..., Verdict]:
    """Turn a check function into a checker that prints one verdict and never raises.

    The wrapped function returns nothing (or a short remark) when the answer is right, and
    raises NotAttempted / Mismatch otherwise. Anything else came from the learner's code: every
    BaseException except KeyboardInterrupt (so ``sys.exit()`` too) is reported as a hint that
    names it. Grad mode is put back as it was, whatever the learner's code did to it.
    """

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Verdict:
        state = grad_mode.state
        saved = (state.enabled, state.user, state.inference)
        try:
            note = fn(*args, **kwargs)
        except NotAttempted:
            return not_attempted()
        except Mismatch as e:
            return not_quite(_safe_str(e))
        except NotImplementedError as e:
            if is_placeholder_error(e):
                return not_attempted()
            return not_quite(describe_exception(e))
        except KeyboardInterrupt:
            raise
        except BaseException as e:
            return not_quite(describe_exception(e))
        finally:
            state.enabled, state.user, state.inference = saved
        return correct(note if isinstance(note, str) else "")

    return wrapper


def _safe_str(e: BaseException) -> str:
    """``str(e)``, or a note saying it could not be made (a broken ``__str__``)."""
    try:
        return str(e)
    except BaseException:
        return msg("common.unprintable")


def describe_exception(e: BaseException) -> str:
    """One hint line for an exception that escaped the learner's code."""
    try:
        name = type(e).__name__
    except BaseException:
        name = msg("common.an_exception")
    if isinstance(e, SystemExit):
        return msg("common.sys_exit")
    if isinstance(e, GeneratorExit):
        return msg("common.generator_exit")
    text = _safe_str(e)
    return msg("common.raised_with_text", name=name, text=text) if text else \
        msg("common.raised", name=name)


# --- placeholders ---------------------------------------------------------------------------
def is_placeholder(value: Any) -> bool:
    """True for what an untouched exercise cell leaves behind: ``...`` or ``None``."""
    return value is Ellipsis or value is None


_PACKAGE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))) + os.sep


def is_placeholder_error(e: BaseException) -> bool:
    """True for the placeholder's own error: a bare ``raise NotImplementedError`` in the learner's
    code. One with a message, or one the package raised (an operation it lacks, a Module without
    ``forward``), is an error of the learner's code, not a blank cell."""
    tb = e.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    where = tb.tb_frame.f_code.co_filename if tb is not None else ""
    return isinstance(e, NotImplementedError) and not e.args and not where.startswith(_PACKAGE)


def not_attempted_or_error(e: BaseException) -> Exception:
    """What to raise for a NotImplementedError from the learner's code: NotAttempted for the
    placeholder's own, else a Mismatch that names the error."""
    return NotAttempted() if is_placeholder_error(e) else Mismatch(describe_exception(e))


def require_attempt(value: Any) -> Any:
    """Return ``value``, or raise NotAttempted if it is still the placeholder."""
    if is_placeholder(value):
        raise NotAttempted
    return value


# Instructions a function whose body is only ``...``, ``pass`` or a docstring is made of.
_TRIVIAL_OPS = {"RESUME", "NOP", "LOAD_CONST", "RETURN_VALUE", "RETURN_CONST", "POP_TOP",
                "CACHE"}


def has_placeholder_body(fn: Any) -> bool:
    """True when ``fn``'s body does nothing (only ``...``, ``pass`` or a docstring).

    Decided from the bytecode, so it works for functions typed into a notebook cell too.
    Callables without Python bytecode (builtins, classes) count as having a body.
    """
    code = getattr(getattr(fn, "__func__", fn), "__code__", None)
    if code is None:
        return False
    return all(ins.opname in _TRIVIAL_OPS for ins in dis.get_instructions(code))


def returned_none(fn: Any) -> Mismatch:
    """The hint for a function with a body but no ``return`` (it gave back None)."""
    name = getattr(fn, "__name__", None) or msg("common.your_function")
    return Mismatch(msg("common.returned_none", name=name))


def call_learner(fn: Callable[..., Any], *args: Any, allow_none: bool = False,
                 copy_args: bool = False, **kwargs: Any) -> Any:
    """Call the learner's function and return its result.

    A placeholder (``...`` instead of a function, a body that raises NotImplementedError, or a
    body that is only ``...``/``pass``) is NotAttempted. A real body that returns None is a
    Mismatch saying so, unless ``allow_none``. With ``copy_args``, tensor arguments are passed as
    copies (leaves with the same ``requires_grad``), so the learner cannot change the checker's
    data in place.
    """
    if is_placeholder(fn):
        raise NotAttempted
    if copy_args:
        args = tuple(copy_tensor(a) for a in args)
    try:
        result = fn(*args, **kwargs)
    except NotImplementedError as e:
        raise not_attempted_or_error(e) from e
    if result is Ellipsis:
        raise NotAttempted
    if result is None and not allow_none:
        if has_placeholder_body(fn):
            raise NotAttempted
        raise returned_none(fn)
    return result


def copy_tensor(value: Any) -> Any:
    """A fresh leaf with the same data and ``requires_grad`` (other values unchanged)."""
    if not isinstance(value, Tensor):
        return value
    return value.detach().clone().requires_grad_(value.requires_grad)


def learner_grads(function_cls: Any, inputs: list, grad_output: Any,
                  wrt: list | None = None) -> tuple:
    """The gradients a learner's ``Function`` sends to ``inputs`` for ``grad_output`` (with
    respect to ``wrt`` when some inputs are plain numbers).

    The learner's ``backward`` receives a copy of ``grad_output``: a correct backward may write
    into its argument in place (PyTorch allows it), and the checker keeps the original to
    compute the expected answer. A placeholder forward/backward is NotAttempted.
    """
    try:
        out = function_cls.apply(*inputs)
    except NotImplementedError as e:
        raise not_attempted_or_error(e) from e
    if out is None or out is Ellipsis:
        raise NotAttempted
    try:
        return grad(out, inputs if wrt is None else wrt, copy_tensor(grad_output),
                    allow_unused=True)
    except NotImplementedError as e:
        raise not_attempted_or_error(e) from e
    except TypeError as e:
        if "ellipsis" in str(e):
            raise NotAttempted from e
        raise


# --- comparing values -----------------------------------------------------------------------
def to_numpy(value: Any) -> np.ndarray:
    """A float64 array from a Tensor, an array, a list or a number."""
    if isinstance(value, Tensor):
        value = value.detach()._data
        value = value.get() if hasattr(value, "get") else value  # CuPy -> NumPy
    return np.asarray(value, dtype=np.float64)


def _fmt(a: np.ndarray) -> str:
    """An array in a checker's one-line verdict (never wrapped onto a second line)."""
    return np.array2string(np.asarray(a), precision=4, separator=", ", threshold=12,
                           max_line_width=10**6)


def describe_difference(actual: np.ndarray, expected: np.ndarray, name: str,
                        rtol: float = 1e-4, atol: float = 1e-6) -> str | None:
    """None when close; otherwise a hint: shape, transposition, sign, a constant factor."""
    if actual.shape != expected.shape:
        shape_a, shape_e = tuple(actual.shape), tuple(expected.shape)
        if actual.size == expected.size:
            if actual.ndim == 2 and np.allclose(actual.T, expected, rtol=rtol, atol=atol):
                return msg("common.diff.transposed", name=name, shape_a=shape_a,
                           shape_e=shape_e)
            return msg("common.diff.reshape", name=name, shape_a=shape_a, shape_e=shape_e)
        return msg("common.diff.shape", name=name, shape_a=shape_a, shape_e=shape_e)
    if not np.all(np.isfinite(actual)):
        return msg("common.diff.nonfinite", name=name)
    if np.allclose(actual, expected, rtol=rtol, atol=atol):
        return None
    if np.allclose(actual, -expected, rtol=rtol, atol=atol):
        return msg("common.diff.sign", name=name)
    big = np.abs(expected) > 1e-8
    if big.any() and np.allclose(actual[~big], 0, atol=atol):
        ratios = actual[big] / expected[big]
        factor = float(np.median(ratios))
        if np.allclose(ratios, factor, rtol=1e-3) and abs(factor) > 1e-8:
            return msg("common.diff.factor", name=name, factor=factor)
    return msg("common.diff.values", name=name, got=_fmt(actual), expected=_fmt(expected))


def compare_tensors(actual: Any, expected: Any, name: str | None = None, *,
                    rtol: float = 1e-4, atol: float = 1e-6) -> None:
    """Raise Mismatch with a specific hint unless ``actual`` is close to ``expected``.

    ``name`` says what is compared, in the learner's language (default: "your answer").
    """
    name = msg("common.your_answer") if name is None else name
    if actual is None:
        raise Mismatch(msg("common.is_none", name=name))
    try:
        a = to_numpy(actual)
    except (TypeError, ValueError) as e:
        raise Mismatch(msg("common.not_a_tensor", name=name, type=type(actual).__name__)) \
            from e
    hint = describe_difference(a, to_numpy(expected), name, rtol=rtol, atol=atol)
    if hint is not None:
        raise Mismatch(hint)


def require_function(function_cls: Any) -> None:
    """NotAttempted for a placeholder; Mismatch unless ``function_cls`` subclasses Function."""
    if is_placeholder(function_cls):
        raise NotAttempted
    if not (isinstance(function_cls, type) and issubclass(function_cls, Function)):
        raise Mismatch(msg("common.not_a_function", value=function_cls))


# --- inputs and gradient checks -------------------------------------------------------------
def random_inputs(*shapes: tuple, seed: int | None = None, requires_grad: bool = True,
                  low: float = -2.0, high: float = 2.0) -> list:
    """Fresh float64 tensors (float64 so that finite differences are accurate)."""
    rng = np.random.default_rng(seed)
    return [tensor(rng.uniform(low, high, size=s), dtype=float64,
                   requires_grad=requires_grad) for s in shapes]


def check_function_gradcheck(function_cls: Any, inputs: list, name: str | None = None) -> None:
    """Run the learner's ``Function`` subclass through gradcheck; Mismatch says what is off.

    ``inputs`` should be float64 tensors that require grad. A backward that still raises
    NotImplementedError (or returns ``...``) is NotAttempted.
    """
    require_function(function_cls)
    name = name or function_cls.__name__
    apply = function_cls.apply
    try:
        out = apply(*inputs)
    except NotImplementedError as e:
        raise not_attempted_or_error(e) from e
    if out is Ellipsis or out is None:
        raise NotAttempted
    _probe_backward(out, inputs)
    try:
        analytical = analytical_jacobian(apply, inputs)
    except NotImplementedError as e:
        raise not_attempted_or_error(e) from e
    except TypeError as e:
        if "ellipsis" in str(e):  # backward returned ... (the placeholder)
            raise NotAttempted from e
        raise
    except RuntimeError as e:
        if "ellipsis" in str(e):
            raise NotAttempted from e
        raise Mismatch(msg("common.backward_error", name=name, error=e)) from e
    numerical = numerical_jacobian(apply, inputs)
    for k, (num_outs, ana_outs) in enumerate(zip(numerical, analytical)):
        for num, ana in zip(num_outs, ana_outs):
            hint = describe_difference(ana, num, msg("common.gradient_for_input", k=k),
                                       rtol=1e-3, atol=1e-5)
            if hint is not None:
                raise Mismatch(msg("common.gradcheck_fails", name=name, hint=hint))


def _probe_backward(out: Any, inputs: list) -> None:
    """One backward pass: a backward that is still ``...`` returns None for every input."""
    outs = [o for o in (out if isinstance(out, tuple) else (out,)) if isinstance(o, Tensor)]
    outs = [o for o in outs if o.requires_grad]
    wrt = [t for t in inputs if isinstance(t, Tensor) and t.requires_grad]
    if not outs or not wrt:
        raise Mismatch(msg("common.output_no_grad"))
    seeds = [o._new(o._xp.ones(o.shape, dtype=o._data.dtype)) for o in outs]
    try:
        grads = grad(outs, wrt, seeds, retain_graph=True, allow_unused=True)
    except NotImplementedError as e:
        raise not_attempted_or_error(e) from e
    except RuntimeError as e:
        if "ellipsis" in str(e):
            raise NotAttempted from e
        raise Mismatch(msg("common.backward_failed", error=e)) from e
    if all(g is None for g in grads):
        raise NotAttempted
