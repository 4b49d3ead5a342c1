"""``ag.autograd.functional``: Jacobians, Hessians and their products with a vector.

Each function takes a Python function ``func`` and the point ``inputs`` (a tensor or a tuple of
tensors) and builds everything from ``autograd.grad``, as ``torch.autograd.functional`` does:

- ``vjp`` (v·J) is one backward pass with ``v`` as the incoming gradient;
- ``jvp`` (J·v) uses the *double-backward trick*: the backward pass is linear in its incoming
  gradient u, so ``g(u) = uᵀJ`` is a function of u whose own vector-Jacobian product with v is
  ``J v``; u is a zero tensor that requires grad (its value never matters);
- ``jacobian`` stacks one vjp per output element (the rows of J);
- ``hessian`` is the Jacobian of the function that returns the gradient;
- ``vhp`` (vᵀH) differentiates the gradient once more with v; ``hvp`` (H v) applies the
  double-backward trick to that.

Every backward pass is one call of ``autograd.grad``, looked up on the package when it runs (as
``torch.autograd.functional`` looks up ``torch.autograd.grad``): wrapping ``ag.autograd.grad``
counts them all: vjp 1, jvp 2, vhp 2, hvp 3, jacobian one per output element.

Inputs are detached copies (or, with ``create_graph=True``, views of the inputs that require
grad, so that the result stays connected to them). Results are detached unless
``create_graph=True``. With ``strict=True`` an input the outputs do not depend on is an error;
otherwise its part of the result is zeros. Messages are PyTorch's.
"""

from __future__ import annotations

from .. import autograd, creation, ops
from ..tensor_base import TensorBase
from . import functional_forward
from .grad_mode import enable_grad, is_grad_enabled, set_grad_enabled

__all__ = ["hessian", "hvp", "jacobian", "jvp", "vhp", "vjp"]


def _check_tuple(value, what: str, fn_name: str):
    """(was it a tuple?, the tensors as a tuple); a non-tensor is a TypeError."""
    is_tuple = isinstance(value, tuple)
    items = value if is_tuple else (value,)
    for i, item in enumerate(items):
        if not isinstance(item, TensorBase):
            where = f"value at index {i}" if is_tuple else f"given {what}"
            raise TypeError(f"The {what} given to {fn_name} must be either a Tensor or a tuple "
                            f"of Tensors but the {where} has type {type(item)}.")
    return is_tuple, items


def _prepare(tensors, create_graph: bool, need_graph: bool) -> tuple:
    """Fresh leaves to differentiate with respect to; views when the graph must reach back."""
    return tuple(t.view_as(t) if create_graph and t.requires_grad
                 else t.detach().requires_grad_(need_graph) for t in tensors)


def _finish(tensors, create_graph: bool):
    """Detach the results (nested tuples too) unless the caller wants their graph."""
    if isinstance(tensors, tuple):
        return tuple(_finish(t, create_graph) for t in tensors)
    return tensors if create_graph else tensors.detach()


def _unpack(result, is_tuple: bool):
    return result if is_tuple else result[0]


def _check_v(v, like, is_tuple: bool) -> None:
    if len(v) != len(like):
        if is_tuple:
            raise RuntimeError(
                f"v is a tuple of invalid length: should be {len(like)} but got {len(v)}.")
        raise RuntimeError("The given v should contain a single Tensor.")
    for i, (vi, ti) in enumerate(zip(v, like)):
        if vi.shape != ti.shape:
            entry = f"Entry {i} in " if is_tuple else ""
            raise RuntimeError(
                f"{entry}v has invalid size: should be {ti.size()} but got {vi.size()}.")


def _prepare_v(v, like, is_tuple, create_graph, fn_name, none_message):
    """``v`` as a tuple shaped like ``like``; None only when ``like`` is one element."""
    if v is None:
        if len(like) != 1 or like[0].numel() != 1:
            raise RuntimeError(none_message)
        return None
    _, v = _check_tuple(v, "v", fn_name)
    v = _prepare(v, create_graph, need_graph=False)
    _check_v(v, like, is_tuple)
    return v


_V_NONE_INPUT = ("The vector v can only be None if the input to the user-provided function is "
                 "a single Tensor with a single element.")

_STRICT_INDEPENDENT = {
    "outputs": "Output {i} of the user-provided function does not require gradients. The "
               "outputs must be computed in a differentiable manner from the input when running "
               "in strict mode.",
    "grad_inputs": "The gradient with respect to input {i} is independent of the inputs of the "
                   "user-provided function. This is not allowed in strict mode.",
    "jacobian": "While computing the hessian, found that the jacobian of the user-provided "
                "function with respect to input {i} is independent of the input. This is not "
                "allowed in strict mode. You should ensure that your function is twice "
                "differentiable and that the jacobian depends on the inputs (this would be "
                "violated by a linear function for example).",
    "hessian": "The hessian of the user-provided function with respect to input {i} is "
               "independent of the input. This is not allowed in strict mode. You should ensure "
               "that your function is thrice differentiable and that the hessian depends on the "
               "inputs.",
}


def _check_requires_grad(tensors, kind: str, strict: bool) -> None:
    """In strict mode, every tensor must exist and be connected to the inputs."""
    if not strict:
        return
    for i, t in enumerate(tensors):
        if t is None:
            raise RuntimeError(f"The output of the user-provided function is independent of "
                               f"input {i}. This is not allowed in strict mode.")
        if not t.requires_grad:
            raise RuntimeError(_STRICT_INDEPENDENT[kind].format(i=i))


_STRICT_NONE = {
    "back": "The output of the user-provided function is independent of input {i}. This is "
            "not allowed in strict mode.",
    "back_trick": "The gradient with respect to the input is independent of entry {i} in the "
                  "grad_outputs when using the double backward trick to compute forward mode "
                  "gradients. This is not allowed in strict mode.",
    "double_back": "The jacobian of the user-provided function is independent of input {i}. "
                   "This is not allowed in strict mode.",
    "double_back_trick": "The hessian of the user-provided function is independent of entry "
                         "{i} in the grad_jacobian. This is not allowed in strict mode as it "
                         "prevents from using the double backward trick to replace forward "
                         "mode AD.",
}


def _zeros_for_none(grads, like, strict: bool, create_graph: bool, stage: str) -> tuple:
    """Replace each missing gradient by zeros (or, in strict mode, refuse it)."""
    result = []
    for i, (g, ref) in enumerate(zip(grads, like)):
        if g is None:
            if strict:
                raise RuntimeError(_STRICT_NONE[stage].format(i=i))
            g = creation.zeros_like(ref)
        elif strict and create_graph and not g.requires_grad:
            what = "hessian" if "double" in stage else "jacobian"
            raise RuntimeError(f"The {what} of the user-provided function is independent of "
                               f"input {i}. This is not allowed in strict mode when "
                               "create_graph=True.")
        result.append(g)
    return tuple(result)


def _grad(outputs, inputs, grad_outputs=None, create_graph=False, retain_graph=None) -> tuple:
    """``autograd.grad`` over the outputs that require grad; all None when none does."""
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o is not None and o.requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    outs, gos = zip(*pairs)
    return autograd.grad(outs, inputs, gos, retain_graph=retain_graph, create_graph=create_graph,
                allow_unused=True)


def _call(func, inputs, fn_name: str, strict: bool):
    outputs = func(*inputs)
    is_tuple, outputs = _check_tuple(outputs, "outputs of the user-provided function", fn_name)
    _check_requires_grad(outputs, "outputs", strict)
    return is_tuple, outputs


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), vᵀ·J)``: one backward pass with ``v`` as the outputs' gradient."""
    with enable_grad():
        inputs_tuple, inputs = _check_tuple(inputs, "inputs", "vjp")
        inputs = _prepare(inputs, create_graph, need_graph=True)
        outputs_tuple, outputs = _call(func, inputs, "vjp", strict)
        v = _prepare_v(v, outputs, outputs_tuple, create_graph, "vjp",
                       "The vector v can only be None if the user-provided function returns a "
                       "single Tensor with a single element.")
    with set_grad_enabled(create_graph or is_grad_enabled()):
        grads = _grad(outputs, inputs, v, create_graph=create_graph)
        result = _zeros_for_none(grads, inputs, strict, create_graph, "back")
    return (_unpack(_finish(outputs, create_graph), outputs_tuple),
            _unpack(_finish(result, create_graph), inputs_tuple))


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), J·v)`` by the double-backward trick (see the module's docstring)."""
    with enable_grad():
        inputs_tuple, inputs = _check_tuple(inputs, "inputs", "jvp")
        inputs = _prepare(inputs, create_graph, need_graph=True)
        v = _prepare_v(v, inputs, inputs_tuple, create_graph, "jvp",
                       "The vector v can only be None if the input to the user-provided "
                       "function is a single Tensor with a single element.")
        outputs_tuple, outputs = _call(func, inputs, "jvp", strict)
        u = tuple(creation.zeros_like(o, requires_grad=True) for o in outputs)  # value unused
        u_times_j = _grad(outputs, inputs, u, create_graph=True)
        _check_requires_grad(u_times_j, "grad_inputs", strict)
    with set_grad_enabled(create_graph or is_grad_enabled()):
        grads = _grad(u_times_j, u, v, create_graph=create_graph)
        result = _zeros_for_none(grads, outputs, strict, create_graph, "back_trick")
    return (_unpack(_finish(outputs, create_graph), outputs_tuple),
            _unpack(_finish(result, create_graph), outputs_tuple))


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False,
             strategy="reverse-mode"):
    """d func / d inputs: for each output, one tensor of shape ``output.shape + input.shape``.

    The result is a tensor (one input, one output), a tuple over inputs or over outputs, or a
    tuple (over outputs) of tuples (over inputs). Each row is one vjp with a unit vector.
    ``vectorize`` is accepted and gives the same values: here the rows are always computed one
    backward pass at a time. ``strategy="forward-mode"`` computes the columns instead, one
    forward pass with dual numbers each (functional_forward.py), as PyTorch's does.
    """
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError(
            'Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your '
            'function has more outputs than inputs, "forward-mode" tends to be more '
            'performant. Otherwise, prefer to use "reverse-mode".')
    if strategy == "forward-mode":
        if create_graph:
            raise NotImplementedError(
                "torch.autograd.functional.jacobian: `create_graph=True` and "
                '`strategy="forward-mode"` are not supported together (yet). Please either '
                'set `create_graph=False` or `strategy="reverse-mode"`.')
        if strict:
            raise RuntimeError(
                "torch.autograd.functional.jacobian: `strict=True` and "
                '`strategy="forward-mode"` are not supported together (yet). Please either '
                'set `strict=False` or `strategy="reverse-mode"`.')
        _check_tuple(inputs, "inputs", "jacobian")
        if not vectorize:  # PyTorch's message lacks the space in "isonly"
            raise NotImplementedError(
                "Computing Jacobian using forward-AD or forward-over-reverse Hessian is"
                "only implemented for `vectorize=True`.")
        inputs_tuple, inputs = _check_tuple(inputs, "inputs", "jacobian")
        outputs_tuple, result = functional_forward.jacfwd(func, inputs)  # J·e_k per column
        return _unpack(result if inputs_tuple else tuple(r[0] for r in result), outputs_tuple)
    with enable_grad():
        inputs_tuple, inputs = _check_tuple(inputs, "inputs", "jacobian")
        inputs = _prepare(inputs, create_graph, need_graph=True)
        outputs_tuple, outputs = _call(func, inputs, "jacobian", strict)
        if vectorize and strict:
            raise RuntimeError(
                "torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are "
                "not supported together. Please either set `strict=False` or "
                "`vectorize=False`.")
        if vectorize:
            result = _jacobian_all_outputs(outputs, inputs, create_graph)
        else:
            result = tuple(_jacobian_of_output(i, out, inputs, create_graph, strict)
                           for i, out in enumerate(outputs))
        result = _finish(result, create_graph)
    if not inputs_tuple:
        result = tuple(per_input[0] for per_input in result)
    return _unpack(result, outputs_tuple)


def _jacobian_of_output(i, out, inputs, create_graph, strict) -> tuple:
    """One tensor per input: the rows d out.flatten()[k] / d input, stacked."""
    rows = [[] for _ in inputs]
    flat = out.reshape(-1)
    for k in range(out.numel()):
        grads = _grad((flat[k],), inputs, retain_graph=True, create_graph=create_graph)
        for j, (g, inp) in enumerate(zip(grads, inputs)):
            if g is None:
                if strict:
                    raise RuntimeError(
                        f"Output {i} of the user-provided function is independent of input "
                        f"{j}. This is not allowed in strict mode.")
                g = creation.zeros_like(inp)
            elif strict and create_graph and not g.requires_grad:
                raise RuntimeError(
                    f"The jacobian of the user-provided function is independent of input {i}. "
                    "This is not allowed in strict mode when create_graph=True.")
            rows[j].append(g)
    return tuple(_stack_rows(r, out.shape + inp.shape, inp)
                 for r, inp in zip(rows, inputs))


def _jacobian_all_outputs(outputs, inputs, create_graph) -> tuple:
    """``vectorize=True``: each row is one backward pass through *all* the outputs (a unit
    vector over their elements put end to end); per input, the rows are stacked and then cut
    back into one block per output. PyTorch does these passes at once (a batched grad); the
    result is the same, including which blocks keep a graph under ``create_graph``."""
    sizes = [o.numel() for o in outputs]
    rows = [[] for _ in inputs]
    for k in range(sum(sizes)):
        units, start = [], 0
        for out, n in zip(outputs, sizes):
            unit = creation.zeros(n, dtype=out.dtype, device=out.device)
            if start <= k < start + n:
                unit[k - start] = 1
            units.append(unit.view(out.shape))
            start += n
        grads = _grad(outputs, inputs, tuple(units), retain_graph=True,
                      create_graph=create_graph)
        for j, (g, inp) in enumerate(zip(grads, inputs)):
            rows[j].append(creation.zeros_like(inp) if g is None else g)
    per_input = []
    for r, inp in zip(rows, inputs):
        stacked, start, blocks = _stack_rows(r, (sum(sizes),) + inp.shape, inp), 0, []
        for out, n in zip(outputs, sizes):
            blocks.append(stacked[start:start + n].view(out.shape + inp.shape))
            start += n
        per_input.append(blocks)
    return tuple(zip(*per_input))  # [output][input]


def _stack_rows(rows, shape, like):
    if not rows:  # an output with no elements
        return creation.zeros(shape, dtype=like.dtype, device=like.device)
    return ops.stack(rows, dim=0).view(shape)


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False,
            outer_jacobian_strategy="reverse-mode"):
    """The Jacobian of the gradient of a function that returns one element.

    A tensor of shape ``input.shape + input.shape`` for one input; for a tuple of n inputs, an
    n × n tuple of tuples (block [i][j] is d²f / d input_i d input_j).
    """
    inputs_tuple, inputs = _check_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def single_output(*args):
        out = func(*args)
        out_tuple, outs = _check_tuple(out, "outputs of the user-provided function", "hessian")
        _check_requires_grad(outs, "outputs", strict)
        if out_tuple:
            raise RuntimeError("The function given to hessian should return a single Tensor")
        if out.numel() != 1:
            raise RuntimeError("The Tensor returned by the function given to hessian should "
                               "contain a single element")
        return out.squeeze()

    def gradient(*args):
        if outer_jacobian_strategy == "forward-mode":
            args = tuple(a.requires_grad_(True) for a in args)
        jac = jacobian(single_output, args, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict)
        return jac

    result = jacobian(gradient, inputs, create_graph=create_graph, strict=strict,
                      vectorize=vectorize, strategy=outer_jacobian_strategy)
    if not inputs_tuple:
        result = result[0][0]
    return result


def _scalar_function_and_gradient(func, inputs, v, create_graph, strict, fn_name):
    """Shared start of vhp and hvp: the prepared inputs and v, the output, its gradient."""
    inputs_tuple, inputs = _check_tuple(inputs, "inputs", fn_name)
    inputs = _prepare(inputs, create_graph, need_graph=True)
    v = _prepare_v(v, inputs, inputs_tuple, create_graph, fn_name, _V_NONE_INPUT)
    outputs_tuple, outputs = _call(func, inputs, fn_name, strict)
    if outputs_tuple:
        raise RuntimeError(f"The function given to {fn_name} should return a single Tensor")
    if outputs[0].numel() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {fn_name} should "
                           "contain a single element")
    gradient = _grad(outputs, inputs, create_graph=True)
    _check_requires_grad(gradient, "jacobian", strict)
    return inputs_tuple, inputs, v, outputs, gradient


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), vᵀ·H)``: the gradient, differentiated once more with ``v``."""
    with enable_grad():
        inputs_tuple, inputs, v, outputs, gradient = _scalar_function_and_gradient(
            func, inputs, v, create_graph, strict, "vhp")
    with set_grad_enabled(create_graph or is_grad_enabled()):
        grads = _grad(gradient, inputs, v, create_graph=create_graph)
        result = _zeros_for_none(grads, inputs, strict, create_graph, "double_back")
    return (_finish(outputs, create_graph)[0],
            _unpack(_finish(result, create_graph), inputs_tuple))


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), H·v)``: the double-backward trick applied to the gradient."""
    with enable_grad():
        inputs_tuple, inputs, v, outputs, gradient = _scalar_function_and_gradient(
            func, inputs, v, create_graph, strict, "hvp")
        u = tuple(creation.zeros_like(t, requires_grad=True) for t in inputs)  # value unused
        u_times_h = _grad(gradient, inputs, u, create_graph=True)
        _check_requires_grad(gradient, "hessian", strict)
    with set_grad_enabled(create_graph or is_grad_enabled()):
        grads = _grad(u_times_h, u, v, create_graph=create_graph)
        result = _zeros_for_none(grads, inputs, strict, create_graph, "double_back_trick")
    return (_finish(outputs, create_graph)[0],
            _unpack(_finish(result, create_graph), inputs_tuple))
