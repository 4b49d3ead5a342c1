"""``ag.func``'s derivative transforms, as ``torch.func``'s: each takes a function and returns a
new function that computes a derivative of it.

- ``grad(f)(x)`` is ∇f(x) (f returns one number), ``grad_and_value`` gives f(x) too;
- ``vjp(f, x)`` returns f(x) and a function v -> vᵀJ (one backward pass per call);
- ``jvp(f, (x,), (v,))`` returns f(x) and J·v, by forward mode (dual numbers, forward_ad.py);
- ``jacrev(f)(x)`` is the whole Jacobian by reverse mode: one backward pass per OUTPUT element;
- ``jacfwd(f)(x)`` is the whole Jacobian by forward mode: one forward pass per INPUT element;
- ``hessian(f)`` is ``jacfwd(jacrev(f))``: forward-over-reverse.

They compose (``grad(grad(f))``, ``jacfwd(jacrev(f))``): a transform called inside another
keeps the graph of what it returns (``create_graph``), so that the outer one can differentiate
it; the outermost returns results without graph. Inputs are fresh leaves (a dual input keeps
its tangent), so the caller's tensors are never marked as requiring grad. As in PyTorch, only
one forward-mode level may be open: a ``jvp`` inside another forward-mode transform computes
J·v with the double-backward trick instead (the same numbers).
"""

from __future__ import annotations

import contextlib
import functools

from .. import creation, ops
from ..autograd import engine, forward_ad, grad_mode, saved_tensor_hooks, transform_depth
from ..tensor_base import TensorBase
from . import _trees


def _nested() -> bool:
    """Whether a transform is running (inside one, results keep their graph)."""
    return transform_depth.depth.level > 0


_calling = transform_depth.inside  # func(*args) one transform deeper


NO_HOOKS = ("torch.func.{grad, vjp, jacrev, hessian} don't yet support saved tensor hooks. "
            "Please open an issue with your use case.")


@contextlib.contextmanager
def _recording(hooks_allowed: bool = False):
    """Grad mode on and inference mode off: a transform records its own graph even when called
    under ``no_grad`` or ``inference_mode`` (its results are then detached: ``_keep_graph``).
    Saved-tensor hooks are refused, around the call or inside it, as PyTorch's reverse-mode
    transforms refuse them (forward mode, ``jvp``, saves nothing for backward: allowed)."""
    with contextlib.ExitStack() as stack:
        if not hooks_allowed:
            stack.enter_context(saved_tensor_hooks.disable_saved_tensors_hooks(NO_HOOKS))
        stack.enter_context(grad_mode.inference_mode(False))
        stack.enter_context(grad_mode.enable_grad())
        yield


def _lift(x):
    """A fresh leaf that requires grad (a view, if x already does: its graph then reaches x)."""
    if not isinstance(x, TensorBase):
        raise ValueError(f"Thing passed to transform API must be Tensor, got {type(x)}")
    if x.requires_grad:
        return x.view_as(x)
    leaf = x.detach()
    if leaf.is_inference():  # made under inference_mode: a normal copy can record a graph
        leaf = leaf.clone()
    leaf.requires_grad_()
    tangent = forward_ad.tangent_of(x)  # a dual input (jacfwd(jacrev(f))) keeps its tangent
    if tangent is not None:
        forward_ad.set_tangent(leaf, tangent)
    return leaf


def _finish(tree, keep: bool):
    """Results of the outermost transform are detached; inside another they keep their graph."""
    if keep:
        return tree
    return _trees.tree_map(lambda t: t.detach() if isinstance(t, TensorBase) else t, tree)


def _check_argnums(argnums, n_args: int) -> tuple[bool, tuple]:
    """(was it one int?, the argnums as non-negative ints), with PyTorch's errors."""
    single = isinstance(argnums, int)
    nums = (argnums,) if single else argnums
    if not isinstance(nums, tuple) or not all(isinstance(a, int) for a in nums):
        raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")
    if not nums:
        raise RuntimeError("argnums must be non-empty")
    for a in nums:
        if not -n_args <= a < n_args:
            raise RuntimeError(f"Got argnum={a}, but only {n_args} positional inputs")
    nums = tuple(a % n_args for a in nums)  # (0, -2) names one argument twice
    if len(set(nums)) != len(nums):
        raise RuntimeError(f"argnums elements must be unique, got {nums}")
    return single, nums


def _lift_args(args: tuple, argnums) -> tuple[bool, tuple, list, list]:
    """Replace the differentiated arguments (each a tensor or a tuple/list/dict of tensors) by
    fresh leaves: (single argnum?, new args, the leaves, their specs per argnum)."""
    single, nums = _check_argnums(argnums, len(args))
    args, leaves, specs = list(args), [], []
    for a in nums:
        flat, spec = _trees.flatten(args[a])
        lifted = [_lift(x) for x in flat]
        args[a] = _trees.unflatten(lifted, spec)
        leaves.append(lifted)
        specs.append(spec)
    return single, tuple(args), leaves, specs


def _keep_graph(args) -> bool:
    """Keep the results' graph: inside another transform, or for inputs that require grad."""
    return grad_mode.is_grad_enabled() and (_nested() or any(
        isinstance(x, TensorBase) and x.requires_grad for x in _trees.flatten(list(args))[0]))


def grad_and_value(func, argnums=0, has_aux=False):
    """``(∇f(x), f(x))`` (``((∇f, (f, aux)))`` with ``has_aux``); ``argnums`` picks the
    arguments to differentiate: an int gives one gradient, a tuple a tuple of them."""
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        keep = _keep_graph(args)
        with _recording():
            single, args, leaves, specs = _lift_args(args, argnums)
            output = _calling(func, *args, **kwargs)
            value, aux = _split_aux(output, has_aux, "grad_and_value(f)(*args)")
            if not isinstance(value, TensorBase):
                raise RuntimeError("grad_and_value(f)(*args): Expected f(*args) to return a "
                                   f"Tensor, got {type(value)}")
            if value.dim() != 0:
                raise RuntimeError(
                    "grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got "
                    f"tensor with {value.dim()} dims. Maybe you wanted to use the vjp or jacrev "
                    "APIs instead?")
            flat = [x for group in leaves for x in group]
            grads = _grads((value,), flat, None, keep or _nested())
        grads, start = list(grads), 0
        per_arg = []
        for group, spec in zip(leaves, specs):
            per_arg.append(_trees.unflatten(grads[start:start + len(group)], spec))
            start += len(group)
        result = per_arg[0] if single else tuple(per_arg)
        value = (value, aux) if has_aux else value
        return _finish((result, value), keep)

    return wrapper


def grad(func, argnums=0, has_aux=False):
    """∇f: a function returning the gradient of ``func`` (one number out) w.r.t. ``argnums``."""
    inner = grad_and_value(func, argnums, has_aux)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        gradient, value = inner(*args, **kwargs)
        return (gradient, value[1]) if has_aux else gradient

    return wrapper


def _split_aux(output, has_aux: bool, where: str):
    if not has_aux:
        return output, None
    if not (isinstance(output, tuple) and len(output) == 2):
        raise RuntimeError(f"{where}: output of function f should be a tuple: (output, aux) "
                           "if has_aux is True")
    for leaf in _trees.flatten(output[1])[0]:
        if not isinstance(leaf, TensorBase):
            raise RuntimeError(f"Expected tensors, got unsupported type {type(leaf)}")
    return output


def _grads(outputs, inputs, grad_outputs, create_graph: bool) -> tuple:
    """``autograd.grad``, with zeros for an input the outputs do not depend on."""
    needed = [o for o in outputs if o.requires_grad]
    if not needed:
        return tuple(creation.zeros_like(x) for x in inputs)
    if grad_outputs is not None:
        grad_outputs = [g for o, g in zip(outputs, grad_outputs) if o.requires_grad]
    found = engine.grad(needed, inputs, grad_outputs, retain_graph=True,
                        create_graph=create_graph, allow_unused=True)
    return tuple(creation.zeros_like(x) if g is None else g for x, g in zip(inputs, found))


def _check_outputs(tree, where: str) -> list:
    leaves, _ = _trees.flatten(tree)
    if not leaves or tree is None:
        shown = [] if not leaves else [None]
        raise RuntimeError(f"{where}: Expected f to be a function that has non-empty output "
                           f"(got output = {shown})")
    for leaf in leaves:
        if not isinstance(leaf, TensorBase):
            raise RuntimeError(f"{where}: expected f(*primals) to return only tensors, got "
                               f"unsupported type {type(leaf)}")
    return leaves


def vjp(func, *primals, has_aux=False):
    """``(f(*primals), vjp_fn)``: ``vjp_fn(v)`` is vᵀJ, one tensor per primal (a backward
    pass per call; the forward pass is not repeated)."""
    keep = _keep_graph(primals)
    with _recording():
        flat, spec = _trees.flatten(list(primals))
        leaves = [_lift(x) for x in flat]
        output = _calling(func, *_trees.unflatten(leaves, spec))
        output, aux = _split_aux(output, has_aux, "vjp(f, *primals)")
        outs = _check_outputs(output, "vjp(f, *primals)")
    out_spec = _trees.flatten(output)[1]

    def vjp_fn(cotangents, *extra):
        if extra:
            raise TypeError(f"vjp_fn() takes 1 positional argument but {1 + len(extra)} were "
                            "given")
        flat_v, v_spec = _trees.flatten(cotangents)
        if _trees.structure(v_spec) != _trees.structure(out_spec):
            raise RuntimeError(
                "Expected pytree structure of cotangents to be the same as pytree structure of "
                f"outputs to the function. cotangents: {_trees.structure(v_spec)}, primal "
                f"output: {_trees.structure(out_spec)}")
        for i, (v, o) in enumerate(zip(flat_v, outs)):
            if v.shape != o.shape:
                raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of "
                                   f"{v.shape} and output[{i}] has a shape of {o.shape}.")
        keep_now = _keep_graph(primals)  # grad mode and depth as they are at this call
        with _recording():
            grads = _grads(outs, leaves, flat_v, keep_now)
        return _finish(tuple(_trees.unflatten(list(grads), spec)), keep_now)

    result = (_finish(output, keep), vjp_fn)
    return result + (_finish(aux, keep),) if has_aux else result


def jvp(func, primals, tangents, *, strict=False, has_aux=False):
    """``(f(*primals), J·tangents)`` in one forward pass with dual numbers (forward mode)."""
    where = "jvp(f, primals, tangents)"
    if not isinstance(primals, tuple):
        raise RuntimeError(f"{where}: Expected primals to be a tuple. E.g. it should be valid to "
                           "call f(*primals).")
    flat_p, p_spec = _trees.flatten(primals)
    flat_t, t_spec = _trees.flatten(tangents)
    if _trees.structure(p_spec) != _trees.structure(t_spec):
        raise RuntimeError(
            f"{where}: Expected primals and tangents to have the same python structure. For "
            "example, if primals is a tuple of 3 tensors, tangents also must be. Got primals "
            f"with structure {_trees.structure(p_spec)} and tangents with structure "
            f"{_trees.structure(t_spec)}")
    if not flat_p:
        raise RuntimeError(f"{where}: Expected primals to contain at least one Tensor.")
    for x in flat_p + flat_t:
        if not isinstance(x, TensorBase):
            raise RuntimeError(f"{where}: Expected primals and tangents to only contain "
                               "Tensors.")
    if forward_ad.state.level >= 0:  # a forward-mode level is already open (jacfwd(jacfwd))
        return _jvp_by_double_backward(func, flat_p, p_spec, flat_t, has_aux, where)
    keep = _keep_graph(primals)
    with (forward_ad.dual_level(), forward_ad._set_fwd_grad_enabled(True),
          grad_mode.inference_mode(False)):  # (tangents flow even under inference_mode)
        duals = [forward_ad.make_dual(p, t) for p, t in zip(flat_p, flat_t)]
        output = _calling(func, *_trees.unflatten(duals, p_spec))
        output, aux = _split_aux(output, has_aux, where)
        outs = _check_outputs(output, where)
        unpacked = [forward_ad.unpack_dual(o) for o in outs]
    if strict and any(t is None for _, t in unpacked):
        raise RuntimeError("jvp(f, primals, tangents, strict=True): The output of f is "
                           "independent of the inputs. This is not allowed with strict=True.")
    out_spec = _trees.flatten(output)[1]
    primal_out = _trees.unflatten([p for p, _ in unpacked], out_spec)
    tangent_out = _trees.unflatten([creation.zeros_like(p) if t is None else t
                                    for p, t in unpacked], out_spec)
    result = _finish((primal_out, tangent_out), keep)
    return result + (_finish(aux, keep),) if has_aux else result


def _jvp_by_double_backward(func, flat_p, p_spec, flat_t, has_aux, where):
    """J·v without a new level: u ↦ uᵀJ is linear in u, and its vjp with v is J·v."""
    with _recording(hooks_allowed=True):
        leaves = [_lift(x) for x in flat_p]
        output = _calling(func, *_trees.unflatten(leaves, p_spec))
        output, aux = _split_aux(output, has_aux, where)
        outs = _check_outputs(output, where)
        us = [creation.zeros_like(o).requires_grad_() for o in outs]
        vjps = _grads(outs, leaves, us, True)
        jv = _grads(vjps, us, list(flat_t), True)
    out_spec = _trees.flatten(output)[1]
    result = (output, _trees.unflatten(list(jv), out_spec))
    return result + (aux,) if has_aux else result


def jacrev(func, argnums=0, *, has_aux=False, chunk_size=None, _preallocate_and_copy=False):
    """The Jacobian by reverse mode: one backward pass per output element (its row). Rows are
    computed one at a time here, so ``chunk_size`` (rows per batched pass in PyTorch) and
    ``_preallocate_and_copy`` change nothing but the check of ``chunk_size``."""
    if chunk_size is not None and chunk_size <= 0:
        raise ValueError("jacrev: `chunk_size` should be greater than 0.")

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        keep = _keep_graph(args)
        with _recording():
            single, args, leaves, specs = _lift_args(args, argnums)
            output = _calling(func, *args, **kwargs)
            output, aux = _split_aux(output, has_aux, "jacrev(f, ...)(*args)")
            outs = _check_outputs(output, "vjp(f, *primals)")
            flat_in = [x for group in leaves for x in group]
            blocks = [_rows(o, flat_in, keep or _nested()) for o in outs]
        result = _arrange(blocks, output, leaves, specs, single)
        return _finish((result, aux), keep) if has_aux else _finish(result, keep)

    return wrapper


def _rows(out, inputs, create_graph: bool) -> list:
    """d out / d input for each input, shaped ``out.shape + input.shape``: row k is the
    gradient of out's k-th element (one backward pass each)."""
    flat, rows = out.reshape(-1), [[] for _ in inputs]
    for k in range(out.numel()):
        for row, g in zip(rows, _grads((flat[k],), inputs, None, create_graph)):
            row.append(g)
    return [(ops.stack(r) if r else x.new_zeros((0, *x.shape))).reshape(*out.shape, *x.shape)
            for r, x in zip(rows, inputs)]


def _arrange(blocks, output, leaves, specs, single: bool):
    """The Jacobian blocks (per output, per flat input) in the shape of ``output`` and of the
    differentiated arguments, as PyTorch nests them."""
    per_output = []
    for per_input in blocks:
        start, per_arg = 0, []
        for group, spec in zip(leaves, specs):
            per_arg.append(_trees.unflatten(per_input[start:start + len(group)], spec))
            start += len(group)
        per_output.append(per_arg[0] if single else tuple(per_arg))
    return _trees.unflatten(per_output, _trees.flatten(output)[1])


def jacfwd(func, argnums=0, has_aux=False, *, randomness="error"):
    """The Jacobian by forward mode: one ``jvp`` per input element (its column)."""
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        single, nums = _check_argnums(argnums, len(args))
        flats = [_trees.flatten(args[a]) for a in nums]
        flat_in = [x for flat, _ in flats for x in flat]
        for x in flat_in:
            if not isinstance(x, TensorBase):
                raise ValueError(f"Thing passed to transform API must be Tensor, got {type(x)}")

        def along(tangents):  # J·tangents, the other arguments held
            def f(*diff):
                new, start = list(args), 0
                for a, (flat, spec) in zip(nums, flats):
                    new[a] = _trees.unflatten(list(diff[start:start + len(flat)]), spec)
                    start += len(flat)
                return func(*new, **kwargs)
            return jvp(f, tuple(flat_in), tuple(tangents), has_aux=has_aux)

        columns, first = [], None
        for j, x in enumerate(flat_in):
            for k in range(x.numel()):
                first = along([_unit(y, k if i == j else None) for i, y in enumerate(flat_in)])
                columns.append((j, first[1]))
        if first is None:  # no input element at all: evaluate once for the shapes
            first = along([creation.zeros_like(y) for y in flat_in])
        output = first[0]
        outs = _check_outputs(output, "jvp(f, primals, tangents)")
        blocks = []
        for o, out in enumerate(outs):
            per_input = []
            for j, x in enumerate(flat_in):
                cols = [_trees.flatten(t)[0][o] for i, t in columns if i == j]
                jac = ops.stack(cols, dim=-1) if cols else out.new_zeros((*out.shape, 0))
                per_input.append(jac.reshape(*out.shape, *x.shape))
            blocks.append(per_input)
        leaves = [flat for flat, _ in flats]
        result = _arrange(blocks, output, leaves, [spec for _, spec in flats], single)
        return (result, first[2]) if has_aux else result

    return wrapper


def _unit(x, k):
    """e_k shaped like x (zeros when k is None)."""
    e = creation.zeros(x.numel(), dtype=x.dtype)
    if k is not None:
        e[k] = 1.0
    return e.reshape(x.shape)


def hessian(func, argnums=0):
    """The matrix of second derivatives: ``jacfwd(jacrev(func))`` (forward-over-reverse)."""
    return jacfwd(jacrev(func, argnums), argnums)
