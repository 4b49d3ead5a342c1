"""Fourth round of autograd details PyTorch's own TestAutograd checks, in our own words and
compared with torch where the behaviour is PyTorch's: batched gradients in ``autograd.grad``,
a ``GradientEdge`` as where a backward pass starts, ``autograd._functions.Resize``,
``Tensor.set_`` and the leaf's renewed gradient accumulator, a leaf's ``grad_dtype``,
``_C._functions.DelayedError`` with a write into a view, and ``lobpcg``.
"""

from __future__ import annotations

import importlib
import warnings

import numpy as np
import pytest
from oracle_helpers import assert_like_torch

import autograd_course as ag
from autograd_course.compat import _C


# --- is_grads_batched (test_grad_batched_grad) ---------------------------------------------
def test_batched_grad_outputs_give_one_gradient_per_row(torch_oracle):
    def case(m):
        x = m.tensor([[1.0, -2.0], [0.5, 3.0]], requires_grad=True)
        out = x * x  # d out / dx = 2x, elementwise
        rows = m.arange(3.0).reshape(3, 1, 1) * m.ones(3, 2, 2)  # row b: all b
        (batched,) = m.autograd.grad(out, x, rows, is_grads_batched=True)
        (scalar,) = m.autograd.grad(x.sum(), (x,), (m.arange(3),), is_grads_batched=True)
        return [batched, scalar, str(batched.dtype), batched.requires_grad]

    assert_like_torch(case)


def test_batched_grad_of_several_inputs_and_outputs(torch_oracle):
    def case(m):
        a = m.tensor([1.0, 2.0], requires_grad=True)
        b = m.tensor([3.0, -1.0], requires_grad=True)
        outs = (a * b, (a + b).sum())
        grads = (m.tensor([[1.0, 0.0], [0.0, 1.0], [2.0, 2.0]]), m.tensor([1.0, 0.0, -1.0]))
        return list(m.autograd.grad(outs, (a, b), grads, is_grads_batched=True))

    assert_like_torch(case)


def test_batched_grad_can_be_differentiated_again(torch_oracle):
    def case(m):
        x = m.tensor([1.0, 2.0, -1.0], requires_grad=True)
        out = x ** 3
        (g,) = m.autograd.grad(out, x, m.eye(3), create_graph=True, is_grads_batched=True)
        (gg,) = m.autograd.grad(g.sum(), x)  # d/dx of the trace-like sum of 3x^2 rows
        return [g, g.requires_grad, gg]

    assert_like_torch(case)


@pytest.mark.parametrize("grad_shape, scalar", [((2, 2), False), ((2, 1), True), ((3, 2), False)])
def test_batched_grad_shape_mismatch_names_the_batch_dimension(torch_oracle, grad_shape, scalar):
    """Without the batch dimension the gradient's shape must be the output's: a scalar output
    and a one-element gradient row are a mismatch, as without batching."""
    def case(m):
        x = m.ones(2, 2, requires_grad=True)
        out = x.sum() if scalar else x.clone()
        return m.autograd.grad(out, (x,), (m.ones(*grad_shape),), is_grads_batched=True)

    assert_like_torch(case)


def test_only_inputs_false_is_ignored_with_pytorchs_warning(torch_oracle):
    def case(m):
        x = m.tensor([1.0, 2.0], requires_grad=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            (g,) = m.autograd.grad((x * x).sum(), x, only_inputs=False)
        return [g, [f"{w.category.__name__}: {w.message}" for w in caught]]

    assert_like_torch(case)


# --- a GradientEdge as a root (test_gradient_edge_graph_ownership) --------------------------
@pytest.mark.parametrize("custom", [False, True])
def test_backward_can_start_at_a_gradient_edge_after_its_tensor_is_gone(torch_oracle, custom):
    def case(m):
        class Clone(m.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x.clone()

            @staticmethod
            def backward(ctx, g):
                return g * 3

        leaf = m.tensor([2.0], requires_grad=True)
        inp = leaf * 1
        out = Clone.apply(inp) if custom else inp * 5
        edge = m.autograd.graph.get_gradient_edge(out)
        m.autograd.backward(edge, m.tensor([1.0]))
        del out  # the edge holds the node, not the tensor
        m.autograd.backward(edge, m.tensor([1.0]))
        first = leaf.grad.clone()
        (g,) = m.autograd.grad(edge, leaf, m.tensor([2.0]))
        return [first, g, str(g.dtype)]

    assert_like_torch(case)


def test_a_one_element_gradient_edge_root_needs_its_gradient_given_here(torch_oracle):
    """A documented difference (README): torch makes the implicit ones from the node's
    metadata; the package makes a tensor only from another tensor, so it asks for it."""
    x = ag.ones(1, requires_grad=True)
    edge = ag.autograd.graph.get_gradient_edge(x * 2)
    with pytest.raises(RuntimeError, match="needs its gradient given"):
        ag.autograd.backward(edge)
    ag.autograd.backward(edge, ag.ones(1))  # given, it runs
    assert x.grad.tolist() == [2.0]
    t = torch_oracle.ones(1, requires_grad=True)
    torch_oracle.autograd.backward(torch_oracle.autograd.graph.get_gradient_edge(t * 2))
    assert t.grad.tolist() == [2.0]  # torch needs none


@pytest.mark.parametrize("grad", [None, "ones3", "long"])
def test_a_gradient_edge_root_is_checked_like_a_tensor(torch_oracle, grad):
    def case(m):
        x = m.ones(2, 2, requires_grad=True)
        edge = m.autograd.graph.get_gradient_edge(x.clone())
        given = {None: None, "ones3": m.ones(3), "long": m.ones(2, 2, dtype=m.int64)}[grad]
        return m.autograd.grad(edge, x, given)

    assert_like_torch(case)


# --- autograd._functions.Resize (test_grad_to_node) ----------------------------------------
def _resize(m):
    """``Resize.apply`` of ``m.autograd._functions``, a module that is imported when used."""
    return importlib.import_module(f"{m.__name__}.autograd._functions").Resize.apply


def test_resize_is_a_python_node_whose_gradient_takes_the_old_shape_back(torch_oracle):
    def case(m):
        x = m.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
        y = _resize(m)(x * 1, (3, 2))
        weights = m.arange(6.0).reshape(3, 2)
        (y * weights).sum().backward()
        edge = m.autograd.graph.get_gradient_edge(y)
        (through_edge,) = m.autograd.grad((y * 2).sum(), edge)
        return [y, type(y.grad_fn).__name__, x.grad, through_edge]

    assert_like_torch(case)


def test_resize_refuses_another_number_of_elements(torch_oracle):
    assert_like_torch(lambda m: _resize(m)(m.ones(2, 3), (4, 2)))


def test_resize_shares_the_memory_of_its_input(torch_oracle):
    def case(m):
        x = m.zeros(4)
        y = _resize(m)(x, (2, 2))
        x.add_(1)  # a later write into x shows through y
        return [y, y._base is None]

    assert_like_torch(case)


# --- Tensor.set_ (test_grad_to_node_set) ---------------------------------------------------
def test_set_under_no_grad_renews_the_leafs_gradient_accumulator(torch_oracle):
    """The graph recorded before ``set_`` still reaches the old accumulator, through its edge;
    asking for the tensor itself finds its new accumulator, which that graph never used."""
    def case(m):
        x = m.tensor([1.0, 2.0], requires_grad=True)
        old_edge = m.autograd.graph.get_gradient_edge(x)
        out = x * 3
        version = x._version
        with m.no_grad():
            returned = x.set_(m.tensor([5.0, 6.0, 7.0]))
        new_edge = m.autograd.graph.get_gradient_edge(x)
        seen = [returned is x, x, x._version - version, x.requires_grad, x.is_leaf,
                new_edge.node is old_edge.node]
        try:
            m.autograd.grad(out.sum(), x)
            seen.append("no error")
        except RuntimeError as err:
            seen.append(str(err))
        seen.append(m.autograd.grad(out.sum(), old_edge))
        return seen

    assert_like_torch(case)


def test_set_shares_memory_but_not_the_version_counter(torch_oracle):
    def case(m):
        a, b = m.zeros(3), m.ones(2, 2)
        a.set_(b)
        b.add_(1)
        empty = m.zeros(3).set_()
        return [a, a._version, b._version, empty]

    assert_like_torch(case)


@pytest.mark.parametrize("call", [
    lambda m: m.tensor([1.0], requires_grad=True).set_(m.zeros(2)),  # a leaf, in grad mode
    lambda m: m.zeros(2).set_(m.zeros(2, dtype=m.int64)),
    lambda m: m.zeros(2, dtype=m.float64).set_(m.zeros(2)),
])
def test_set_errors(torch_oracle, call):
    assert_like_torch(call)


def test_set_from_a_tensor_that_requires_grad_is_recorded_without_derivative(torch_oracle):
    def case(m):
        source = m.ones(2, requires_grad=True) * 2
        x = m.zeros(2)
        x.set_(source)
        seen = [x.requires_grad, type(x.grad_fn).__name__, x]
        try:
            x.sum().backward()
            seen.append("no error")
        except RuntimeError as err:
            seen.append(str(err))
        return seen

    assert_like_torch(case)


# --- a leaf's grad_dtype (test_grad_dtype; float16 stands in for its bfloat16) -------------
class _Mismatched:
    """A Function whose backward returns float64, whatever its input's dtype."""

    @staticmethod
    def make(m):
        class Mismatched(m.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, grad):
                return grad.to(m.float64)

        return Mismatched


def _error(call) -> str:
    try:
        call()
    except RuntimeError as err:
        return str(err)
    return "no error"


def test_grad_dtype_defaults_to_the_dtype_and_is_a_leafs_alone(torch_oracle):
    def case(m):
        leaf = m.tensor([1.0, 2.0], requires_grad=True)
        seen = [str(leaf.grad_dtype)]
        leaf.grad_dtype = m.float16
        seen.append(str(leaf.grad_dtype))
        leaf.grad_dtype = None
        seen.append(leaf.grad_dtype)
        seen.append(str(m.tensor([1, 2]).grad_dtype))  # any leaf, even one without grad
        non_leaf = leaf * 2

        def set_on_non_leaf():
            non_leaf.grad_dtype = m.float16

        seen += [_error(lambda: non_leaf.grad_dtype), _error(set_on_non_leaf)]

        def set_a_string():
            leaf.grad_dtype = "float16"

        seen.append(_error(set_a_string))
        return seen

    assert_like_torch(case)


def test_assigning_grad_checks_grad_dtype(torch_oracle):
    def case(m):
        x = m.tensor([1.0, 2.0], requires_grad=True)
        seen = []

        def assign(grad):
            x.grad = grad

        x.grad_dtype = m.float16
        seen.append(_error(lambda: assign(m.tensor([1.0, 1.0]))))
        seen.append(_error(lambda: assign(m.tensor([1.0, 1.0], dtype=m.float16))))
        seen.append(str(x.grad.dtype))
        x.grad = None
        x.grad_dtype = None
        assign(m.tensor([1.0, 1.0], dtype=m.float64))  # None: any dtype
        seen.append(str(x.grad.dtype))
        return seen

    assert_like_torch(case)


def test_changing_grad_dtype_while_a_gradient_is_there(torch_oracle):
    def case(m):
        g = m.tensor([1.0, 2.0], requires_grad=True)
        g.grad = m.tensor([1.0, 1.0])
        seen = []

        def set_to(dtype):
            g.grad_dtype = dtype
            return str(g.grad_dtype)

        seen.append(set_to(m.float32))  # the gradient's own dtype: allowed
        seen.append(_error(lambda: set_to(m.float16)))
        seen.append(set_to(None))
        g.grad = None
        seen.append(set_to(m.float16))
        return seen

    assert_like_torch(case)


@pytest.mark.parametrize("setting", ["default", "none", "float16", "none_after_node"])
def test_an_arriving_gradient_is_cast_to_grad_dtype(torch_oracle, setting):
    """By default to the leaf's dtype; ``None`` keeps the dtype it arrives in; set after the
    leaf's AccumulateGrad was already made (by an earlier op), the new dtype holds too."""
    def case(m):
        x = m.tensor([5.0, 6.0], requires_grad=True)
        # an op on x makes its AccumulateGrad, which stays alive with the op's result
        kept = x.clone() if setting == "none_after_node" else None
        if setting != "default":
            x.grad_dtype = m.float16 if setting == "float16" else None
        _Mismatched.make(m).apply(x).sum().backward()
        return [x.grad, str(x.grad.dtype), kept is None]

    assert_like_torch(case)


def test_accumulating_into_a_grad_of_another_dtype_keeps_its_dtype(torch_oracle):
    def case(m):
        k = m.tensor([3.0, 4.0], dtype=m.float16, requires_grad=True)
        k.grad_dtype = None
        (k * 2).sum().backward()
        k.grad = k.grad.to(m.float32)
        (k * 3).sum().backward()
        wide = m.tensor([1.0, 2.0], requires_grad=True)
        wide.grad_dtype = None
        wide.grad = m.ones(2, dtype=m.float64)
        (wide * 2).sum().backward()
        return [k.grad, str(k.grad.dtype), wide.grad, str(wide.grad.dtype)]

    assert_like_torch(case)


# --- _C._functions.DelayedError and CopySlices (test_copy_slices_graph_task_updates) -------
def _delayed_error(m):
    """``torch._C._functions.DelayedError``; here it lives in ``compat/_C``."""
    return m._C._functions.DelayedError if m.__name__ == "torch" else _C._functions.DelayedError


def test_delayed_error_passes_tensors_through_a_node_that_raises(torch_oracle):
    def case(m):
        y = m.tensor([1.0, 2.0], requires_grad=True)
        boom = _delayed_error(m)("Boom!", 1)
        out = boom(y)
        pair = _delayed_error(m)("Boom!", 2)(y, y * 2)
        seen = [out.grad_fn.name(), out.requires_grad, out.is_leaf, out,
                type(pair).__name__, len(pair), boom(m.zeros(2)).requires_grad,
                _error(lambda: (out * 3).sum().backward())]
        try:
            boom(y, y)
        except TypeError as err:
            seen.append(str(err))
        return seen

    assert_like_torch(case)


@pytest.mark.parametrize("with_other_use", [False, True])
def test_a_write_into_a_view_runs_only_what_the_asked_inputs_need(torch_oracle, with_other_use):
    """``out`` is a view of a clone of ``x``, written into in place with ``y_safe``, whose node
    raises if run. Asking for ``x`` or for ``y_safe`` itself must not run that node; asking
    for ``y`` (behind it) must."""
    def case(m):
        x = m.tensor([1.0, 2.0], requires_grad=True)
        y = m.tensor([3.0, 4.0], requires_grad=True)
        y_safe = _delayed_error(m)("Boom!", 1)(y)

        def f():
            out = x.clone().view(-1)
            b = out * 2 if with_other_use else None
            out += y_safe
            return out.sum() + (b.sum() if with_other_use else 0)

        seen = [_error(lambda: f().backward()), _error(lambda: m.autograd.grad(f(), y))]
        seen.append(m.autograd.grad(f(), x))
        seen.append(m.autograd.grad(f(), y_safe))
        seen.append(m.autograd.grad(f(), (x, y_safe)))
        return seen

    assert_like_torch(case)


# --- lobpcg (test_lobpcg) ------------------------------------------------------------------
def _symmetric(m, *shape):
    a = m.tensor(np.random.default_rng(len(shape)).random(shape), dtype=m.float64)
    return a @ a.mT / 10


def _eigenpairs(m, A, k, largest):
    """lobpcg's (D, U), each eigenvector's sign made that of its largest entry (as PyTorch's
    test does: LOBPCG's signs depend on where it started)."""
    X = m.eye(A.shape[-1], k, dtype=A.dtype).expand(*A.shape[:-1], k)  # the starting vectors
    D, U = m.lobpcg(A, k=k, X=X, largest=largest)
    _, where = U.abs().max(-2, keepdim=True)
    return D, U * U.gather(-2, where).sign()


@pytest.mark.parametrize("k, shape", [(1, (6, 6)), (2, (6, 6)), (2, (2, 6, 6)), (1, (2, 2, 6, 6))])
@pytest.mark.parametrize("largest", [True, False])
def test_lobpcg_eigenpairs_and_their_symmetric_gradient(torch_oracle, k, shape, largest):
    def case(m):
        A = _symmetric(m, *shape).requires_grad_()
        D, U = _eigenpairs(m, A, k, largest)
        weights = m.arange(float(U.numel()), dtype=m.float64).reshape(U.shape) / 10
        (D.sum() + (U * weights).sum()).backward()
        return [D, U, A.grad, (A.grad - A.grad.mT).abs().max() < 1e-12]

    # (PyTorch's LOBPCG stops once its residual is below sqrt(eps): U agrees to about 1e-7,
    # the gradient, divided by gaps between eigenvalues, to about 1e-5)
    assert_like_torch(case, rtol=1e-4, atol=1e-4)


def test_lobpcg_passes_gradcheck_and_gradgradcheck(torch_oracle):
    def case(m):
        A = _symmetric(m, 6, 6).requires_grad_()
        first = m.autograd.gradcheck(lambda A: _eigenpairs(m, A, 2, True), (A,))
        D_grad = m.tensor(np.linspace(0.01, 0.02, 2))
        U_grad = m.tensor(np.linspace(0.0, 0.01, 12).reshape(6, 2))
        second = m.autograd.gradgradcheck(lambda A: _eigenpairs(m, A, 2, False), (A,),
                                          (D_grad, U_grad), atol=1e-4)
        return [first, second]

    assert_like_torch(case)


@pytest.mark.parametrize("call", [
    lambda m: m.lobpcg(m.eye(5, dtype=m.float64), k=2),  # 5 rows < 3 x 2 pairs
    lambda m: m.lobpcg(m.ones(6, 4, dtype=m.float64), k=1),
    lambda m: m.lobpcg(m.eye(6, dtype=m.float64), X=m.ones(6, 3, dtype=m.float64)),
])
def test_lobpcg_errors(torch_oracle, call):
    assert_like_torch(call)
