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

import warnings

import numpy as np

from .._backend import to_numpy
from ..tensor_base import TensorBase
from .engine import grad


class GradcheckError(RuntimeError):
    """Raised by ``gradcheck`` when the analytical and numerical Jacobians disagree."""


def _as_tuple(x):
    return x if isinstance(x, tuple) else (x,)


def _tensor_inputs(inputs):
    return [(i, t) for i, t in enumerate(inputs) if isinstance(t, TensorBase) and t.requires_grad]


def _outputs(func, inputs):
    return [o for o in _as_tuple(func(*inputs)) if isinstance(o, TensorBase)]


def _host(array) -> np.ndarray:

    return to_numpy(array).reshape(-1).astype(np.float64)


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
            plus = [_host(o._data) for o in _outputs(func, inputs)]
            data[index] = original - eps
            minus = [_host(o._data) for o in _outputs(func, inputs)]
            data[index] = original
            for j, (p, m) in enumerate(zip(plus, minus)):
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
              raise_exception: bool = True) -> bool:
    """True when backward matches finite differences for every input that requires grad."""
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
    numerical = numerical_jacobian(func, inputs, eps)
    analytical = analytical_jacobian(func, inputs)
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


def _fail(message: str, raise_exception: bool) -> bool:
    if raise_exception:
        raise GradcheckError(message)
    return False


def gradgradcheck(func, inputs, grad_outputs=None, *, eps: float = 1e-6, atol: float = 1e-5,
                  rtol: float = 1e-3, raise_exception: bool = True) -> bool:
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

    return gradcheck(first_gradients, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception)
