"""Numerical gradient checks: compare a Function's backward with finite differences.

For each input x_j and output y_i, the numerical Jacobian column is the central difference
(f(x + eps·e_k) - f(x - eps·e_k)) / (2 eps); the analytical row is what backward returns for
grad_output = e_i. If they differ by more than ``atol + rtol·|numerical|``, backward is wrong.
This is how the course catches the note's ``MulConstant.backward`` returning the wrong value.
"""

from __future__ import annotations

import warnings

import numpy as np


class GradcheckError(RuntimeError):
    """Raised by ``gradcheck`` when the analytical and numerical Jacobians disagree."""


def _as_tuple(x):
    return x if isinstance(x, tuple) else (x,)


def _tensor_inputs(inputs):
    from ..tensor import Tensor

    return [(i, t) for i, t in enumerate(inputs) if isinstance(t, Tensor) and t.requires_grad]


def _outputs(func, inputs):
    from ..tensor import Tensor

    return [o for o in _as_tuple(func(*inputs)) if isinstance(o, Tensor)]


def numerical_jacobian(func, inputs, eps=1e-6):
    """One matrix per (input, output): rows index input elements, columns output elements."""
    from .grad_mode import no_grad

    result = []
    for _, x in _tensor_inputs(inputs):
        flat = x._data.reshape(-1)  # a view: writing into it perturbs x itself
        with no_grad():
            sizes = [o.numel() for o in _outputs(func, inputs)]
            jac = [np.zeros((x.numel(), n)) for n in sizes]
            for k in range(flat.size):
                original = flat[k].item()
                flat[k] = original + eps
                plus = [o._data.reshape(-1).astype(np.float64) for o in _outputs(func, inputs)]
                flat[k] = original - eps
                minus = [o._data.reshape(-1).astype(np.float64) for o in _outputs(func, inputs)]
                flat[k] = original
                for j, (p, m) in enumerate(zip(plus, minus)):
                    jac[j][k] = (p - m) / (2 * eps)
        result.append(jac)
    return result


def analytical_jacobian(func, inputs):
    """The same matrices built from backward: one vector-Jacobian product per output element."""
    from .engine import grad

    outs = _outputs(func, inputs)
    wrt = [t for _, t in _tensor_inputs(inputs)]
    result = [[np.zeros((t.numel(), o.numel())) for o in outs] for t in wrt]
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
                    result[k][j][:, i] = g._data.reshape(-1)
    return result


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True) -> bool:
    """True when backward matches finite differences for every input that requires grad."""
    inputs = _as_tuple(inputs)
    for n, (i, t) in enumerate(_tensor_inputs(inputs)):
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
    for k, (num_per_out, ana_per_out) in enumerate(zip(numerical, analytical)):
        for j, (num, ana) in enumerate(zip(num_per_out, ana_per_out)):
            if not np.allclose(ana, num, rtol=rtol, atol=atol):
                if not raise_exception:
                    return False
                from ..tensor import Tensor

                raise GradcheckError(
                    f"Jacobian mismatch for output {j} with respect to input {k},\n"
                    f"numerical:{Tensor._wrap(num)!r}\nanalytical:{Tensor._wrap(ana)!r}\n"
                )
    return True


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  raise_exception=True) -> bool:
    """Check second derivatives: gradcheck the function that returns the first gradients."""
    from .engine import grad

    inputs = _as_tuple(inputs)
    wrt_positions = [i for i, _ in _tensor_inputs(inputs)]
    outs = _outputs(func, inputs)
    if grad_outputs is None:
        rng = np.random.default_rng(0)
        grad_outputs = tuple(
            o._new(o._xp.asarray(rng.standard_normal(o.shape))).requires_grad_() for o in outs
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
