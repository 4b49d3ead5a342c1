"""Numerical gradient checks: compare a Function's backward with finite differences.

For each input x_j and output y_i, the numerical Jacobian column is the central difference
(f(x + eps·e_k) - f(x - eps·e_k)) / (2 eps); the analytical row is what backward returns for
grad_output = e_i. If they differ by more than ``atol + rtol·|numerical|``, backward is wrong.
This is how the course catches the note's ``MulConstant.backward`` returning the wrong value.

Messages and return values follow ``torch.autograd.gradcheck``: the Jacobians are printed in
the input's dtype, and an output that does not require grad must have a zero numerical
Jacobian.
"""

from __future__ import annotations

import functools
import warnings

import numpy as np

from .._backend import to_numpy
from ..tensor_base import TensorBase
from . import gradcheck_forward
from .engine import grad
from .gradcheck_messages import FAILED_BATCHED_GRAD_MSG, NOT_REENTRANT


class GradcheckError(RuntimeError):
    """Raised by ``gradcheck`` when the analytical and numerical Jacobians disagree."""


def _as_tuple(x):
    """Inputs may be one tensor, a tuple or a list (as in PyTorch)."""
    if isinstance(x, list):
        return tuple(x)
    return x if isinstance(x, tuple) else (x,)


def _tensor_inputs(inputs):
    return [(i, t) for i, t in enumerate(inputs) if isinstance(t, TensorBase) and t.requires_grad]


def _outputs(func, inputs):
    return [o for o in _as_tuple(func(*inputs)) if isinstance(o, TensorBase)]


def _host(array) -> np.ndarray:

    return to_numpy(array).reshape(-1).astype(np.float64)


def _snapshot(outputs) -> list:
    """(shape, dtype, values copied to float64) of each output, taken before the input moves
    again (an output may share the input's memory)."""
    return [(o.shape, o.dtype, _host(o._data)) for o in outputs]


def _check_same_kind(minus, plus, eps, index=None) -> None:
    """Outputs at x + eps and x - eps must have one shape and one dtype (else the finite
    difference means nothing): PyTorch's AssertionError otherwise."""
    on_index = f"on index {index} " if index is not None else ""
    for (shape_a, dtype_a, _), (shape_b, dtype_b, _) in zip(minus, plus):
        if shape_a != shape_b:
            raise AssertionError(
                "Expected `func` to return outputs with the same shape when inputs are "
                f"perturbed {on_index}by {eps}, but got: shapes {shape_a} and {shape_b}.")
        if dtype_a != dtype_b:
            raise AssertionError(
                "Expected `func` to return outputs with the same dtype when inputs are "
                f"perturbed {on_index}by {eps}, but got: dtypes {dtype_a} and {dtype_b}.")


def _reentrant(first, second, nondet_tol) -> bool:
    """Two backward passes with the same incoming gradient agree within ``nondet_tol``."""
    return all(a is None or a.size == 0 or np.max(np.abs(a - b)) <= nondet_tol
               for a, b in zip(first, second))


def numerical_jacobian(func, inputs, eps=1e-6):
    """One matrix per (input, output): rows index input elements, columns output elements.

    Each element of the input is perturbed in place (through its array, so the version
    counter does not move) and put back afterwards.
    """
    result = []
    for _, x in _tensor_inputs(inputs):
        data = x._data
        sizes = [o.numel() for o in _outputs(func, inputs)]
        jac = [np.zeros((x.numel(), n)) for n in sizes]
        for k, index in enumerate(np.ndindex(data.shape)):
            original = data[index].item()
            data[index] = original + eps
            plus = _snapshot(_outputs(func, inputs))
            data[index] = original - eps
            minus = _snapshot(_outputs(func, inputs))
            data[index] = original
            _check_same_kind(minus, plus, eps, index)
            for j, ((*_, p), (*_, m)) in enumerate(zip(plus, minus)):
                jac[j][k] = (p - m) / (2 * eps)
        result.append([j.astype(data.dtype) for j in jac])
    return result


def analytical_jacobian(func, inputs):
    """The same matrices built from backward: one vector-Jacobian product per output element.

    Outputs that do not require grad get ``None`` (their Jacobian must be zero).
    """
    outs = _outputs(func, inputs)
    wrt = [t for _, t in _tensor_inputs(inputs)]
    result = [[None if not o.requires_grad else np.zeros((t.numel(), o.numel()), t._data.dtype)
               for o in outs] for t in wrt]
    for j, out in enumerate(outs):
        if not out.requires_grad:
            continue
        for i in range(out.numel()):
            unit = np.zeros(out.numel(), dtype=out._data.dtype)
            unit[i] = 1
            grad_out = out._new(out._xp.asarray(unit.reshape(out.shape)))
            grads = grad(out, wrt, grad_out, retain_graph=True, allow_unused=True)
            for k, g in enumerate(grads):
                if g is not None:
                    result[k][j][:, i] = _host(g._data)
    return result


def gradcheck(func, inputs, *, eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3,
              raise_exception: bool = True, nondet_tol: float = 0.0,
              check_undefined_grad: bool = True, check_grad_dtypes: bool = False,
              check_batched_grad: bool = False, check_batched_forward_grad: bool = False,
              check_forward_ad: bool = False, check_backward_ad: bool = True,
              fast_mode: bool = False, masked=None) -> bool:
    """True when backward matches finite differences for every input that requires grad.

    ``fast_mode=True`` compares one number per (input, output) instead of whole Jacobians:
    vᵀ J u for random unit vectors u, v, numerically (a central difference along u) and
    analytically (one backward pass with v). ``check_batched_grad=True`` also checks that
    backward is linear in its incoming gradient, which is what lets PyTorch compute the
    backward passes of a batch of incoming gradients at once. ``check_forward_ad=True``
    compares the forward-mode Jacobian too (gradcheck_forward.py). ``nondet_tol``,
    ``check_undefined_grad``, ``check_grad_dtypes`` and ``masked`` are accepted.
    """
    if not (check_forward_ad or check_backward_ad):
        raise AssertionError(
            "Expected at least one of check_forward_ad or check_backward_ad to be True")
    if check_batched_grad and not check_backward_ad:
        raise AssertionError(
            "Setting check_batched_grad=True requires check_backward_ad to be True")
    if check_batched_forward_grad and not check_forward_ad:
        raise AssertionError(
            "Setting check_batched_forward_grad=True requires check_forward_ad to be True")
    inputs = _as_tuple(inputs)
    checked = _tensor_inputs(inputs)
    if not checked:
        raise ValueError(
            "gradcheck expects at least one input tensor to require gradient, but none of them "
            "have requires_grad=True."
        )
    for i, t in checked:
        if t._data.dtype != np.float64:
            warnings.warn(
                f"Input #{i} requires gradient and is not a double precision floating point or "
                "complex. This check will likely fail if all the inputs are not of double "
                "precision floating point or complex. ",
                UserWarning,
                stacklevel=2,
            )
    check = _fast_check if fast_mode else _slow_check  # backward first, as PyTorch
    if check_backward_ad and not check(func, inputs, eps, atol, rtol, raise_exception,
                                       nondet_tol):
        return False
    if check_forward_ad and not _check_forward(func, inputs, eps, rtol, atol, raise_exception,
                                               check_undefined_grad, check_batched_forward_grad):
        return False
    if check_backward_ad and check_batched_grad:
        return _check_batched_grad(func, inputs, raise_exception)
    return True


def _check_forward(func, inputs, eps, rtol, atol, raise_exception, undefined, batched) -> bool:
    """The forward-mode checks (gradcheck_forward.py): the Jacobian, one JVP per input element;
    an input without tangent as one with a zero tangent; a batch of tangents."""
    fail = functools.partial(_fail, raise_exception=raise_exception)
    numerical = numerical_jacobian(func, inputs, eps)
    return (gradcheck_forward.check(func, inputs, numerical, rtol, atol, fail)
            and (not undefined or gradcheck_forward.undefined_tangents(func, inputs, fail))
            and (not batched or gradcheck_forward.batched(func, inputs, fail)))


def _slow_check(func, inputs, eps, atol, rtol, raise_exception, nondet_tol=0.0) -> bool:
    checked = _tensor_inputs(inputs)
    numerical = numerical_jacobian(func, inputs, eps)
    analytical = analytical_jacobian(func, inputs)
    again = analytical_jacobian(func, inputs)
    if not _reentrant([a for per in analytical for a in per],
                      [a for per in again for a in per], nondet_tol):
        return _fail(NOT_REENTRANT.format(tol=nondet_tol), raise_exception)
    as_tensor = type(checked[0][1])._wrap  # PyTorch's message prints Jacobians as tensors
    for k, (num_per_out, ana_per_out) in enumerate(zip(numerical, analytical)):
        for j, (num, ana) in enumerate(zip(num_per_out, ana_per_out)):
            if ana is None:
                if np.any(num != 0):
                    return _fail("Numerical gradient for function expected to be zero",
                                 raise_exception)
                continue
            if not np.allclose(ana, num, rtol=rtol, atol=atol):
                return _fail(
                    f"Jacobian mismatch for output {j} with respect to input {k},\n"
                    f"numerical:{as_tensor(np.asarray(num))!r}\n"
                    f"analytical:{as_tensor(np.asarray(ana))!r}\n",
                    raise_exception,
                )
    return True


def _unit_vector(rng, n: int, dtype) -> np.ndarray:
    vector = rng.random(n)
    norm = np.linalg.norm(vector)
    return (vector / norm if norm else vector).astype(dtype)


def _fast_check(func, inputs, eps, atol, rtol, raise_exception, nondet_tol=0.0) -> bool:
    """Compare vᵀ J u, numerical and analytical, for each (input, output) pair."""
    rng = np.random.default_rng(0)
    checked = [t for _, t in _tensor_inputs(inputs)]
    outs = _outputs(func, inputs)
    us = [_unit_vector(rng, t.numel(), t._data.dtype) for t in checked]
    vs = [_unit_vector(rng, o.numel(), o._data.dtype) for o in outs]
    as_tensor = type(checked[0])._wrap
    for k, (x, u) in enumerate(zip(checked, us)):
        along_u = _directional_derivative(func, inputs, x, u, eps)
        for j, (out, v, d) in enumerate(zip(outs, vs, along_u)):
            numerical = np.asarray(v.astype(np.float64) @ d, dtype=x._data.dtype)
            if not out.requires_grad:
                if np.any(d != 0):
                    return _fail("Numerical gradient for function expected to be zero",
                                 raise_exception)
                continue
            analytical, again = (_projected_vjp(out, x, u, v) for _ in range(2))
            if not _reentrant([analytical], [again], nondet_tol):
                return _fail(NOT_REENTRANT.format(tol=nondet_tol), raise_exception)
            adjusted_atol = atol * float(u.sum()) * float(v.sum())
            if not np.allclose(analytical, numerical, rtol=rtol, atol=adjusted_atol):
                num = np.asarray(numerical_jacobian(func, inputs, eps)[k][j])
                ana = np.asarray(analytical_jacobian(func, inputs)[k][j])
                return _fail(
                    f"Jacobian mismatch for output {j} with respect to input {k},\n"
                    f"numerical:{float(numerical)!r}\nanalytical:{float(analytical)!r}\n"
                    "\nThe above quantities relating the numerical and analytical jacobians are "
                    "computed \nin fast mode. See: https://github.com/pytorch/pytorch/issues/"
                    "53876 for more background \nabout fast mode. Below, we recompute numerical "
                    "and analytical jacobians in slow mode:\n\n"
                    f"Numerical:\n {as_tensor(num)!r}\nAnalytical:\n{as_tensor(ana)!r}\n\n"
                    "The max per-element difference (slow mode) is: "
                    f"{float(np.abs(num - ana).max())!r}.\n",
                    raise_exception)
    return True


def _projected_vjp(out, x, u, v) -> np.ndarray:
    """vᵀ J u from one backward pass with incoming gradient v."""
    g = grad(out, [x], out._new(out._xp.asarray(v.reshape(out.shape))), retain_graph=True,
             allow_unused=True)[0]
    return np.asarray(0.0 if g is None else _host(g._data) @ u, dtype=x._data.dtype)


def _directional_derivative(func, inputs, x, u, eps) -> list:
    """(f(x + eps·u) - f(x - eps·u)) / (2 eps) for each output, flattened, in float64."""
    data = x._data
    original = data.copy()
    step = (eps * u).reshape(data.shape)
    data[...] = original + step
    plus = _snapshot(_outputs(func, inputs))
    data[...] = original - step
    minus = _snapshot(_outputs(func, inputs))
    data[...] = original
    _check_same_kind(minus, plus, eps)
    return [(p - m) / (2 * eps) for (*_, p), (*_, m) in zip(plus, minus)]


def _check_batched_grad(func, inputs, raise_exception) -> bool:
    """Backward passes for a batch of incoming gradients, here one at a time.

    PyTorch runs them at once (``vmap`` over backward) and compares with one pass per
    incoming gradient; what can fail is a backward that does not run per sample. Here each
    pass runs on its own, so the check is that two backward passes with random incoming
    gradients run and give a gradient of the input's shape for every input.
    """
    rng = np.random.default_rng(1)
    wrt = [t for _, t in _tensor_inputs(inputs)]
    for out in _outputs(func, inputs):
        if not out.requires_grad:
            continue
        for _ in range(2):
            g = rng.standard_normal(out.shape).astype(out._data.dtype)
            try:
                grad(out, wrt, out._new(out._xp.asarray(g)), retain_graph=True,
                     allow_unused=True)
            except RuntimeError as ex:
                return _fail(f"While computing batched gradients, got: {ex}\n\n"
                             f"{FAILED_BATCHED_GRAD_MSG}", raise_exception)
    return True


def _fail(message: str, raise_exception: bool) -> bool:
    if raise_exception:
        raise GradcheckError(message)
    return False


def gradgradcheck(func, inputs, grad_outputs=None, *, eps: float = 1e-6, atol: float = 1e-5,
                  rtol: float = 1e-3, gen_non_contig_grad_outputs: bool = False,
                  raise_exception: bool = True, nondet_tol: float = 0.0,
                  check_undefined_grad: bool = True, check_grad_dtypes: bool = False,
                  check_batched_grad: bool = False, check_fwd_over_rev: bool = False,
                  check_rev_over_rev: bool = True, fast_mode: bool = False,
                  masked: bool = False) -> bool:
    """Check second derivatives: gradcheck the function that returns the first gradients.

    ``grad_outputs`` default to random tensors (requiring grad), so the check also covers how
    the first gradients depend on them.
    """
    inputs = _as_tuple(inputs)
    wrt_positions = [i for i, _ in _tensor_inputs(inputs)]
    outs = _outputs(func, inputs)
    if grad_outputs is None:
        rng = np.random.default_rng(0)
        grad_outputs = tuple(
            o._new(o._xp.asarray(rng.standard_normal(o.shape).astype(o._data.dtype)))
            .requires_grad_() for o in outs
        )
    grad_outputs = _as_tuple(grad_outputs)

    def first_gradients(*args):
        ins, gos = args[: len(inputs)], args[len(inputs):]
        outputs = _outputs(func, ins)
        wrt = [ins[i] for i in wrt_positions]
        grads = grad(outputs, wrt, gos, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    if not (check_fwd_over_rev or check_rev_over_rev):
        raise AssertionError(
            "Expected at least one of check_fwd_over_rev or check_rev_over_rev to be True")
    if check_undefined_grad and not check_rev_over_rev:
        raise AssertionError(
            "Setting check_undefined_grad=True requires check_rev_over_rev to be True")
    if check_batched_grad and not check_rev_over_rev:
        raise AssertionError(
            "Setting check_batched_grad=True requires check_rev_over_rev to be True")
    return gradcheck(first_gradients, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception, nondet_tol=nondet_tol,
                     check_batched_grad=check_batched_grad,
                     check_forward_ad=check_fwd_over_rev, fast_mode=fast_mode)


PRIVATE_API = (
    "`{name}` was part of PyTorch's private API and not meant to be exposed. We are "
    "deprecating it and it will be removed in a future version of PyTorch. If you have a "
    "specific use for this or feature request for this to be a stable API, please file us an "
    "issue at https://github.com/pytorch/pytorch/issues/new")


def get_numerical_jacobian(fn, inputs, target=None, eps=1e-3, grad_out=1.0):
    """Deprecated in PyTorch: the numerical Jacobians of ``fn(inputs)``'s first output, one
    tensor (input elements × output elements) per input that requires grad."""
    warnings.warn(PRIVATE_API.format(name="get_numerical_jacobian"), FutureWarning,
                  stacklevel=2)
    if grad_out != 1.0:
        raise ValueError("Expected grad_out to be 1.0. get_numerical_jacobian no longer "
                         "supports values of grad_out != 1.0.")
    inputs = _as_tuple(inputs)
    first = [t for _, t in _tensor_inputs(inputs)][0]
    jacobians = numerical_jacobian(lambda *args: _as_tuple(fn(args))[0], inputs, eps)
    return tuple(first._new(first._xp.asarray(per_output[0])) for per_output in jacobians)


def get_analytical_jacobian(inputs, output, nondet_tol=0.0, grad_out=1.0):
    """Deprecated in PyTorch: (the Jacobians of ``output`` from backward, reentrant?, sizes
    right?, dtypes right?), backward run twice to see whether it gives the same answer."""
    warnings.warn(PRIVATE_API.format(name="get_analytical_jacobian"), FutureWarning,
                  stacklevel=2)
    if grad_out != 1.0:
        raise ValueError("Expected grad_out to be 1.0. get_analytical_jacobian no longer "
                         "supports values of grad_out != 1.0.")
    first, second = (analytical_jacobian(lambda *args: output, _as_tuple(inputs))
                     for _ in range(2))
    reentrant = _reentrant([a for per in first for a in per],
                           [a for per in second for a in per], nondet_tol)
    jacobians = tuple(output._new(output._xp.asarray(per[0])) for per in first)
    return jacobians, reentrant, True, True
