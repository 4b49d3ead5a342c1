"""The ops that only exist in place (``fill_``, ``zero_``, ``copy_``, ``x[key] = v``,
``index_put_``) are ``Function``s that write into their input and call ``ctx.mark_dirty``,
as a learner's in-place Function does (ops/inplace.py): what they return, the version counts,
the history and the errors, checked against PyTorch."""

from __future__ import annotations

import pytest
from functions import view_of_input
from oracle_helpers import assert_like_torch

import autograd_course as ag
from autograd_course.autograd.function import BackwardNode
from autograd_course.ops.indexing import IndexPut
from autograd_course.ops.inplace import Copy, Fill, FillTensor, Zero
from autograd_course.ops.masking import IndexPutAccumulate

WRITES = {
    "fill_": lambda m, x, v: x.fill_(2.5),
    "fill_ tensor": lambda m, x, v: x.fill_(v.sum()),
    "zero_": lambda m, x, v: x.zero_(),
    "copy_": lambda m, x, v: x.copy_(v),
    "setitem slice": lambda m, x, v: x.__setitem__(slice(0, 2), v[:2]),
    "setitem list": lambda m, x, v: x.__setitem__([0, 2], v[:2]),
    "setitem mask": lambda m, x, v: x.__setitem__(x > 1.5, 7.0),
    "index_put_ accumulate": lambda m, x, v: x.index_put_((m.tensor([0, 0]),), v[:2],
                                                          accumulate=True),
}


def _in_mode(m, mode: str, write, x, v):
    """``write(m, x, v)`` under ``no_grad`` or ``inference_mode`` when ``mode`` says so."""
    block = {"no_grad": m.no_grad, "inference_mode": m.inference_mode}.get(mode)
    if block is None:
        return write(m, x, v)
    with block():
        return write(m, x, v)


@pytest.mark.parametrize("write", WRITES)
@pytest.mark.parametrize("mode", ["grad", "no_grad", "inference_mode", "nothing requires grad"])
def test_the_written_tensor_is_returned_its_version_bumped_once(write, mode):
    def case(m):
        a = m.tensor([1.0, 2.0, 3.0], requires_grad=mode != "nothing requires grad")
        v = m.tensor([4.0, 5.0, 6.0], requires_grad=mode != "nothing requires grad")
        x = a.clone()
        before = x._version
        out = _in_mode(m, mode, WRITES[write], x, v)
        shown = [x, x._version - before, x.is_inference(), x.requires_grad]
        if out is not None:
            shown.append(out is x)
        if mode == "grad":
            (x * x).sum().backward()
            shown += [a.grad, v.grad]
        return shown

    assert_like_torch(case)


@pytest.mark.parametrize("write", ["copy_", "setitem slice", "setitem list", "fill_ tensor"])
def test_a_refused_write_leaves_the_memory_as_it_was(write):
    """PyTorch checks before it writes: a view a learner's Function returned, written with a
    value that requires grad, is refused and keeps its values."""
    def case(m):
        a = m.tensor([1.0, 2.0, 3.0])
        view = view_of_input(m, "Same").apply(a)
        v = m.tensor([4.0, 5.0, 6.0], requires_grad=True)
        try:
            WRITES[write](m, view, v)
        except RuntimeError as e:
            return [str(e).split(".")[0], a, a._version]
        return ["written", a]

    assert_like_torch(case)


def _watch_mark_dirty(monkeypatch) -> list:
    """The tensors each ``ctx.mark_dirty`` call receives, from now on."""
    marked, mark_dirty = [], BackwardNode.mark_dirty

    def watched(ctx, *tensors):
        marked.append(tensors)
        mark_dirty(ctx, *tensors)

    monkeypatch.setattr(BackwardNode, "mark_dirty", watched)
    return marked


@pytest.mark.parametrize("fn, args", [
    (Fill, (2.0,)), (Zero, (0,)), (FillTensor, (ag.tensor(3.0),)), (Copy, (ag.ones(3),)),
    (IndexPut, ((ag.tensor([0, 1])._data,), ag.tensor([7.0, 8.0]))),
    (IndexPutAccumulate, ((ag.tensor([0, 0])._data,), ag.tensor([7.0, 8.0]))),
], ids=lambda v: getattr(v, "__name__", ""))
def test_each_marks_its_input_dirty_through_the_ctx_api(fn, args, monkeypatch):
    x = ag.tensor([1.0, 2.0, 3.0], requires_grad=True).clone()
    old_node = x.grad_fn
    marked = _watch_mark_dirty(monkeypatch)
    out = fn.apply(x, *args)
    assert out is x and x._version == 1
    assert marked == [(x,)]  # what forward passed to ctx.mark_dirty
    assert x.grad_fn.dirty == ()  # let go once recorded, as PyTorch's dirty_tensors
    assert type(x.grad_fn).__name__ == fn.node_name
    assert x.grad_fn.next_functions[0] == (old_node, 0)  # the old history is its first input


# --- the in-place forms of the other ops: ``written_in_place(op)`` -------------------------------
def _f(m):
    return m.nn.functional


def _method(name: str):
    return lambda m, x, v: getattr(x, name)()


OP_WRITES = {
    "add_": lambda m, x, v: x.add_(v, alpha=2),
    "sub_": lambda m, x, v: x.sub_(v),
    "mul_": lambda m, x, v: x.mul_(v),
    "mul_ number": lambda m, x, v: x.mul_(3),
    "div_": lambda m, x, v: x.div_(v),
    "div_ floor": lambda m, x, v: x.div_(v, rounding_mode="floor"),
    "floor_divide_": lambda m, x, v: x.floor_divide_(v),
    "remainder_": lambda m, x, v: x.remainder_(v),
    "remainder_ number": lambda m, x, v: x.remainder_(1.5),
    "pow_ number": lambda m, x, v: x.pow_(2),
    "pow_ tensor": lambda m, x, v: x.pow_(v),
    "clamp_": lambda m, x, v: x.clamp_(1.5, 2.5),
    "masked_fill_": lambda m, x, v: x.masked_fill_(x > 1.5, 0.5),
    "masked_fill_ tensor": lambda m, x, v: x.masked_fill_(x > 1.5, v.sum()),
    **{name: _method(name) for name in (
        "exp_", "log_", "sqrt_", "reciprocal_", "abs_", "neg_", "sign_", "sin_", "cos_", "tanh_",
        "sigmoid_", "relu_")},
    "F.relu inplace": lambda m, x, v: _f(m).relu(x, inplace=True),
    "F.leaky_relu inplace": lambda m, x, v: _f(m).leaky_relu(x, 0.1, inplace=True),
    "F.elu inplace": lambda m, x, v: _f(m).elu(x, inplace=True),
    "F.silu inplace": lambda m, x, v: _f(m).silu(x, inplace=True),
}


@pytest.mark.parametrize("write", OP_WRITES)
@pytest.mark.parametrize("mode", ["grad", "no_grad", "inference_mode", "nothing requires grad"])
def test_each_in_place_op_returns_its_input_its_version_bumped_once(write, mode):
    """x.mul_(v), x.exp_()...: x itself comes back, one version later, in every grad mode;
    when recorded, its node has PyTorch's name and backward PyTorch's gradients."""
    def case(m):
        a = m.tensor([-1.0, 2.0, 3.0], requires_grad=mode != "nothing requires grad")
        v = m.tensor([4.0, 0.5, 6.0], requires_grad=mode != "nothing requires grad")
        x = a.clone()
        before = x._version
        out = _in_mode(m, mode, OP_WRITES[write], x, v)
        shown = [x, x._version - before, x.is_inference(), x.requires_grad, out is x]
        if mode == "grad":
            # (floor_divide's node: "NotImplemented", without PyTorch's C++ namespace)
            shown.append(x.grad_fn.name().removeprefix("torch::autograd::"))
            try:
                (x * 1).sum().backward()
                shown += [a.grad, v.grad]
            except RuntimeError as error:
                shown.append(str(error))
        return shown

    assert_like_torch(case)


@pytest.mark.parametrize("write", OP_WRITES)
def test_each_in_place_op_marks_its_input_dirty_through_the_ctx_api(write, monkeypatch):
    """Each is a Function made from the op's own by ``written_in_place``: its forward marked x
    dirty, its backward is the op's, and x's old history is its node's first input."""
    a = ag.tensor([-1.0, 2.0, 3.0], requires_grad=True)
    x = a.clone()
    old_node = x.grad_fn
    marked = _watch_mark_dirty(monkeypatch)
    OP_WRITES[write](ag, x, ag.tensor([4.0, 0.5, 6.0], requires_grad=True))
    node = x.grad_fn
    assert marked == [(x,)]
    function = node._forward_cls
    op = function.__mro__[1]  # the op's Function it was made from
    assert function.__name__ == op.__name__ + "_" and function.backward is op.backward
    assert node.next_functions[0] == (old_node, 0)


@pytest.mark.parametrize("write", ["mul_", "exp_", "pow_ tensor", "sigmoid_", "clamp_"])
def test_written_into_a_view_the_base_gets_copy_slices(write):
    """On a view, the write re-makes the base's history (CopySlices around the op's node),
    and a later write into a saved result is refused at backward, as in PyTorch."""
    def case(m):
        a = m.tensor([[0.5, 2.0], [3.0, 1.5]], requires_grad=True)
        v = m.tensor([4.0, 0.5], requires_grad=True)
        base = a.clone()
        OP_WRITES[write](m, base[0], v)
        shown = [base, base.grad_fn.name(), base._version]
        base.sum().backward()
        return shown + [a.grad, v.grad]

    assert_like_torch(case)


@pytest.mark.parametrize("dtype, write", [
    ("int64", "exp_"), ("int64", "div_"), ("int64", "mul_"), ("int64", "pow_ tensor"),
    ("bool", "abs_"), ("bool", "neg_"), ("bool", "relu_"), ("int64", "clamp_"),
    ("bool", "floor_divide_"), ("int64", "sqrt_"), ("float16", "mul_"),
])
def test_a_result_that_cannot_be_written_back_is_refused_first(dtype, write):
    """PyTorch's dtype rules: a result x's dtype cannot hold is refused before anything is
    written (the memory and version stay)."""
    def case(m):
        x = m.tensor([1, 0, 2]).to(getattr(m, dtype))
        v = m.tensor([4.0, 0.5, 6.0], dtype=m.float64)
        try:
            OP_WRITES[write](m, x, v)
        except (RuntimeError, NotImplementedError) as error:
            return [type(error).__name__, str(error), x, x._version]
        return [x, x._version]

    assert_like_torch(case)


@pytest.mark.parametrize("x_dtype, v_dtype, write", [
    ("float32", "float64", "mul_"), ("float32", "float64", "add_"), ("float64", "float32", "div_"),
    ("float16", "float32", "mul_"), ("float32", "float64", "pow_ tensor"),
    ("float32", "float64", "remainder_"), ("float32", "float16", "sub_"),
])
def test_a_wider_operand_computes_in_the_wider_dtype_and_is_cast_into_x(x_dtype, v_dtype, write):
    """x keeps its dtype; each gradient has its input's dtype (PyTorch computes in the
    promoted dtype and casts the result into x)."""
    def case(m):
        a = m.tensor([0.5, 2.0, 3.0], dtype=getattr(m, x_dtype), requires_grad=True)
        v = m.tensor([4.0, 0.3, 6.0], dtype=getattr(m, v_dtype), requires_grad=True)
        x = a.clone()
        OP_WRITES[write](m, x, v)
        x.sum().backward()
        return [x, x.grad_fn.name(), a.grad, v.grad]

    assert_like_torch(case)


BIGGER = {**OP_WRITES, "masked_fill_ bigger mask": lambda m, x, v: x.masked_fill_(v > 0, 0.5),
          "clamp_ bigger bound": lambda m, x, v: x.clamp_(min=v)}


@pytest.mark.parametrize("write", ["mul_", "add_", "div_", "pow_ tensor", "remainder_",
                                   "masked_fill_ bigger mask", "clamp_ bigger bound"])
def test_an_operand_that_would_make_the_result_bigger_than_x_is_refused(write):
    """The result must fit x's shape: PyTorch's message, nothing written."""
    def case(m):
        x = m.ones(3)
        try:
            BIGGER[write](m, x, m.ones(2, 3))
        except RuntimeError as error:
            return [str(error), x._version]
        return [x, x._version]

    assert_like_torch(case)
