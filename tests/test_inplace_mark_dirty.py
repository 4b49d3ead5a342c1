"""The ops that only exist in place (``fill_``, ``zero_``, ``copy_``, ``x[key] = v``,
``index_put_``) are ``Function``s that write into their input and call ``ctx.mark_dirty``,
as a learner's in-place Function does (ops/inplace.py): what they return, the version counts,
the history and the errors, checked against PyTorch."""

from __future__ import annotations

import pytest
from oracle_helpers import assert_like_torch

import autograd_course as ag
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


@pytest.mark.parametrize("write", WRITES)
@pytest.mark.parametrize("mode", ["grad", "no_grad", "inference_mode", "nothing requires grad"])
def test_the_written_tensor_is_returned_its_version_bumped_once(write, mode):
    def case(m):
        a = m.tensor([1.0, 2.0, 3.0], requires_grad=mode != "nothing requires grad")
        v = m.tensor([4.0, 5.0, 6.0], requires_grad=mode != "nothing requires grad")
        x = a.clone()
        before = x._version
        block = {"no_grad": m.no_grad, "inference_mode": m.inference_mode}.get(mode)
        if block is None:
            out = WRITES[write](m, x, v)
        else:
            with block():
                out = WRITES[write](m, x, v)
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
        class Same(m.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x.view_as(x)

            @staticmethod
            def backward(ctx, g):
                return g

        a = m.tensor([1.0, 2.0, 3.0])
        view = Same.apply(a)
        v = m.tensor([4.0, 5.0, 6.0], requires_grad=True)
        try:
            WRITES[write](m, view, v)
        except RuntimeError as e:
            return [str(e).split(".")[0], a, a._version]
        return ["written", a]

    assert_like_torch(case)


@pytest.mark.parametrize("fn, args", [
    (Fill, (2.0,)), (Zero, (0,)), (FillTensor, (ag.tensor(3.0),)), (Copy, (ag.ones(3),)),
    (IndexPut, ((ag.tensor([0, 1])._data,), ag.tensor([7.0, 8.0]))),
    (IndexPutAccumulate, ((ag.tensor([0, 0])._data,), ag.tensor([7.0, 8.0]))),
], ids=lambda v: getattr(v, "__name__", ""))
def test_each_marks_its_input_dirty_through_the_ctx_api(fn, args):
    x = ag.tensor([1.0, 2.0, 3.0], requires_grad=True).clone()
    old_node = x.grad_fn
    out = fn.apply(x, *args)
    assert out is x and x._version == 1
    assert x.grad_fn.dirty == (x,)  # what forward passed to ctx.mark_dirty
    assert type(x.grad_fn).__name__ == fn.node_name
    assert x.grad_fn.next_functions[0] == (old_node, 0)  # the old history is its first input
