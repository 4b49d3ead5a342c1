"""In-place ops (add_, sub_, mul_, div_, zero_, fill_, copy_, clamp_, x[i] = v) against PyTorch:
the refusals on leaves, version counters, stale saved tensors caught at backward, and the
gradients and graph of in-place ops that are recorded.
"""

from __future__ import annotations

import pytest
from ops_helpers import assert_grads, assert_same, error_of, graph, leaves, pair

import autograd_course as ag

torch = pytest.importorskip("torch")

LEAF_MESSAGE = "a leaf Variable that requires grad is being used in an in-place operation."
VIEW_MESSAGE = ("a view of a leaf Variable that requires grad is being used in an in-place "
                "operation.")


def _leaf(m):
    return m.tensor([1.0, 2.0], requires_grad=True)


def _setitem(key, value=5.0):
    def fn(t):
        t[key] = value
    return fn


ON_A_LEAF = {
    "add_": (lambda t: t.add_(1), LEAF_MESSAGE),
    "+=": (lambda t: t.__iadd__(1), LEAF_MESSAGE),
    "sub_": (lambda t: t.sub_(1), LEAF_MESSAGE),
    "-=": (lambda t: t.__isub__(1), LEAF_MESSAGE),
    "mul_": (lambda t: t.mul_(2), LEAF_MESSAGE),
    "*=": (lambda t: t.__imul__(2), LEAF_MESSAGE),
    "div_": (lambda t: t.div_(2), LEAF_MESSAGE),
    "zero_": (lambda t: t.zero_(), LEAF_MESSAGE),
    "fill_": (lambda t: t.fill_(3.0), LEAF_MESSAGE),
    "copy_": (lambda t: t.copy_(t.detach() * 2), LEAF_MESSAGE),
    "clamp_": (lambda t: t.clamp_(0, 1), LEAF_MESSAGE),
    "a[0] = 5.": (_setitem(0), VIEW_MESSAGE),
    "a[0:1] = 5.": (_setitem(slice(0, 1)), VIEW_MESSAGE),
    "a[[0, 1]] = 5.": (_setitem([0, 1]), LEAF_MESSAGE),
    "a[...] = 5.": (_setitem(Ellipsis), LEAF_MESSAGE),
    "view of a leaf": (lambda t: t[0].add_(1), VIEW_MESSAGE),
    "view of a view": (lambda t: t.view(2, 1).t()[0].mul_(2), VIEW_MESSAGE),
}


@pytest.mark.parametrize("name", ON_A_LEAF)
def test_in_place_on_a_leaf_is_refused(name):
    fn, message = ON_A_LEAF[name]
    ours, theirs = _leaf(ag), _leaf(torch)
    assert error_of(lambda: fn(theirs)) == ("RuntimeError", message)
    assert error_of(lambda: fn(ours)) == ("RuntimeError", message)
    assert ours.tolist() == [1.0, 2.0] and ours._version == 0


def test_mask_assignment_on_a_leaf_is_refused():
    for m in (ag, torch):
        a = _leaf(m)
        with pytest.raises(RuntimeError, match=LEAF_MESSAGE):
            a[a > 1] = 5.0


@pytest.mark.parametrize("name", [n for n in ON_A_LEAF if "view" not in n])
def test_in_place_under_no_grad_is_allowed(name):
    fn, _ = ON_A_LEAF[name]
    results = []
    for m in (ag, torch):
        a = _leaf(m)
        with m.no_grad():
            fn(a)
        results.append((repr(a), a.is_leaf, a.requires_grad, a._version, a.grad_fn))
    assert results[0] == results[1]


def test_note_semantics_no_grad_add_and_data():
    a = ag.tensor([1.0, 2.0], requires_grad=True)
    with ag.no_grad():
        out = a.add_(1)
    assert out is a
    assert repr(a) == "tensor([2., 3.], requires_grad=True)"
    assert a.is_leaf and a.requires_grad and a._version == 1
    a.data.mul_(2)  # .data is outside autograd: no version bump
    assert a._version == 1 and a.tolist() == [4.0, 6.0]


def test_version_counts_every_in_place_op():
    for m in (ag, torch):
        t = m.zeros(3)
        t.add_(1)
        t.mul_(2)
        t[0] = 4.0
        t.zero_()
        t.fill_(1.0)
        t.copy_(m.ones(3))
        t.clamp_(0, 1)
        t.sub_(1)
        t.div_(2)
        assert t._version == 9


def test_views_share_the_version_counter():
    results = []
    for m in (ag, torch):
        x = m.zeros(2, 3)
        v = x.view(6)
        v.add_(1)
        row = x[1]
        row.mul_(2)
        x.t().zero_()
        results.append((x._version, v._version, row._version, x.tolist()))
    assert results[0] == results[1]


# --- stale saved tensors ---------------------------------------------------------------------
def _stale_exp(m, x):
    y = x.exp()
    y.add_(1)
    return y


def _stale_sigmoid(m, x):
    y = x.sigmoid()
    y.mul_(2)
    return y


def _stale_add(m, x):
    h = x * 1
    y = h ** 2
    h.add_(1)
    return y


def _stale_leaf_via_detach(m, x):
    y = x ** 2
    x.detach().add_(1)
    return y


def _stale_through_view(m, x):
    y = x.exp()
    y.view(2, 1)[0].mul_(2)
    return y


def _stale_setitem(m, x):
    y = x.tanh()
    y[0] = 0.0
    return y


def _stale_mul_self(m, x):
    y = x * 1.5
    y.mul_(y)  # the second factor is y itself, saved and then overwritten
    return y


@pytest.mark.parametrize("program, old, new", [
    ("_stale_exp_mul_self", "Exp", "Mul"), ("_stale_div_self", "Mul", "Div"),
    ("_stale_pow_self", "Mul", "Pow1")])
def test_an_operand_that_is_the_written_tensor_is_kept_as_it_was(program, old, new):
    """README's divergence: ``y.mul_(y)`` keeps its second operand as y before the write, so
    backward raises PyTorch's version error; the message names y's old node where PyTorch
    names its new one. Everything else in the message is PyTorch's."""
    fn = globals()[program]
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    ours = error_of(lambda: fn(ag, x).sum().backward())
    tx = torch.tensor([1.0, 2.0], requires_grad=True)
    theirs = error_of(lambda: fn(torch, tx).sum().backward())
    assert ours is not None and theirs is not None and ours[0] == theirs[0] == "RuntimeError"
    assert f"which is output 0 of {new}, is at version 1; expected version 0" in theirs[1]
    assert ours[1] == theirs[1].replace(f"output 0 of {new},", f"output 0 of {old},")


def _stale_exp_mul_self(m, x):
    y = x.exp()
    y.mul_(y)
    return y


def _stale_div_self(m, x):
    y = x * 1.5
    y.div_(y)  # the divisor is y itself: saved, then overwritten
    return y


def _stale_pow_self(m, x):
    y = x * 1.5
    y.pow_(y)
    return y


def _stale_twice(m, x):
    y = x.exp()
    y.add_(1)
    y.add_(1)
    return y


STALE = {"exp": _stale_exp, "sigmoid": _stale_sigmoid, "add": _stale_add,
         "leaf via detach": _stale_leaf_via_detach, "through a view": _stale_through_view,
         "setitem": _stale_setitem, "twice": _stale_twice, "mul_ self": _stale_mul_self}


@pytest.mark.parametrize("name", STALE)
def test_modified_saved_tensor_is_caught_at_backward(name):
    """PyTorch's exact message, naming the tensor, its maker and both versions."""
    fn = STALE[name]
    errors = []
    for m in (ag, torch):
        x = m.tensor([1.0, 2.0], requires_grad=True)
        y = fn(m, x)
        errors.append(error_of(lambda y=y: y.sum().backward()))
    assert errors[1] is not None
    assert errors[0] == errors[1]


def test_note_example_exp_add_():
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    assert y._version == 0
    y.add_(1)
    assert y._version == 1
    assert repr(y) == "tensor([3.7183, 8.3891], grad_fn=<AddBackward0>)"
    with pytest.raises(RuntimeError) as info:
        y.sum().backward()
    assert str(info.value) == (
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [torch.FloatTensor [2]], which is output 0 of Exp, is at version 1; expected "
        "version 0 instead. Hint: enable anomaly detection to find the operation that failed to "
        "compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).")


def test_in_place_on_unsaved_values_is_fine():
    ours, theirs = [], []
    for m, out in ((ag, ours), (torch, theirs)):
        x = m.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        y.add_(1)
        y.sum().backward()
        out.append(x.grad)
    assert_same(ours[0], theirs[0])
    assert ours[0].tolist() == [2.0, 2.0]


# --- recorded in-place ops: gradients and graphs ------------------------------------------
def _recorded(op):
    def fn(m, x, y):
        out = x * 1.5
        result = op(out, y)
        assert result is out  # in-place ops return the tensor itself
        return out
    return fn


def _assign(key_fn, value_fn):
    def op(out, y):
        m = torch if isinstance(out, torch.Tensor) else ag
        out[key_fn(m)] = value_fn(y)
        return out
    return op


RECORDED = {
    "add_": _recorded(lambda o, y: o.add_(y)),
    "add_ alpha": _recorded(lambda o, y: o.add_(y, alpha=-2)),
    "add_ number": _recorded(lambda o, y: o.add_(3)),
    "sub_": _recorded(lambda o, y: o.sub_(y * y)),
    "mul_": _recorded(lambda o, y: o.mul_(y)),
    "div_": _recorded(lambda o, y: o.div_(y.exp())),
    "+= then *=": _recorded(lambda o, y: o.__iadd__(y).__imul__(y)),
    "clamp_": _recorded(lambda o, y: o.mul_(y).clamp_(-0.5, 0.5)),
    "zero_": _recorded(lambda o, y: o.zero_()),
    "fill_": _recorded(lambda o, y: o.fill_(2.5)),
    "fill_ tensor": _recorded(lambda o, y: o.fill_(y.sum())),
    "copy_": _recorded(lambda o, y: o.copy_(y)),
    "copy_ broadcast": _recorded(lambda o, y: o.copy_(y[0])),
    "setitem int": _recorded(_assign(lambda m: 0, lambda y: y[1])),
    "setitem slice": _recorded(_assign(lambda m: (slice(None), 1), lambda y: y[:, 0] * 3)),
    "setitem list": _recorded(_assign(lambda m: [2, 0], lambda y: y[:2] ** 2)),
    "setitem number": _recorded(_assign(lambda m: (1, 2), lambda y: 7.0)),
    "setitem mask": _recorded(_assign(lambda m: m.tensor([True, False, True]),
                                      lambda y: y[0].sin())),
}


@pytest.mark.parametrize("name", RECORDED)
def test_recorded_in_place_gradients_and_graph(name):
    fn = RECORDED[name]
    ours, theirs = leaves([(3, 3), (3, 3)], 5, ("any", "nonzero"))
    out_o, out_t = fn(ag, *ours), fn(torch, *theirs)
    assert_same(out_o, out_t)
    assert graph(out_o.grad_fn) == graph(out_t.grad_fn)
    (out_o ** 2).sum().backward()
    (out_t ** 2).sum().backward()
    assert_grads(ours, theirs)


def test_setitem_makes_a_constant_tensor_part_of_the_graph():
    results = []
    for m in (ag, torch):
        w = m.tensor([1.0, 2.0], requires_grad=True)
        buf = m.zeros(3)
        buf[1:] = w * 2
        results.append((buf.is_leaf, buf.requires_grad, graph(buf.grad_fn)))
        buf.sum().backward()
        results.append(w.grad.tolist())
    assert results[:2] == results[2:]


def test_copy_into_a_constant_tensor():
    results = []
    for m in (ag, torch):
        y = m.tensor([4.0, 5.0, 6.0], requires_grad=True)
        b = m.zeros(2, 3, dtype=m.float64)
        b.copy_(y)
        results.append((repr(b), graph(b.grad_fn)))
        b.sum().backward()
        results.append(repr(y.grad))
    assert results[:2] == results[2:]


def test_zero_on_a_non_leaf_still_reaches_the_leaf():
    """PyTorch: y = x*2; y.zero_() keeps y in the graph; x.grad becomes zeros, not None."""
    ours, theirs = pair([1.0, 2.0, 3.0])
    for x in (ours, theirs):
        y = x * 2
        y.zero_()
        y.sum().backward()
    assert_grads([ours], [theirs])
    assert ours.grad.tolist() == [0.0, 0.0, 0.0]


def test_in_place_under_no_grad_keeps_the_history():
    results = []
    for m in (ag, torch):
        x = m.tensor([1.0, 2.0], requires_grad=True)
        y = x * 3
        with m.no_grad():
            y.add_(1)
        results.append((repr(y), y.grad_fn.name(), y._version))
        y.sum().backward()
        results.append(x.grad.tolist())
    assert results[:2] == results[2:]


def test_optimizer_style_update():
    results = []
    for m in (ag, torch):
        w = m.tensor([1.0, 2.0], requires_grad=True)
        (w ** 2).sum().backward()
        with m.no_grad():
            w -= 0.1 * w.grad
        w.grad.zero_()
        results.append((repr(w), w.is_leaf, repr(w.grad), w.grad._version, w._version))
    assert results[0] == results[1]


def test_in_place_returns_the_same_object():
    x = ag.zeros(2)
    for op in (lambda t: t.add_(1), lambda t: t.sub_(1), lambda t: t.mul_(2),
               lambda t: t.div_(2), lambda t: t.zero_(), lambda t: t.fill_(1.0),
               lambda t: t.copy_(ag.ones(2)), lambda t: t.clamp_(0, 1)):
        assert op(x) is x
    y = x
    y += 1
    assert y is x and x.tolist() == [2.0, 2.0]


def test_in_place_dtype_and_shape_rules():
    for fn in (lambda m: m.tensor([1, 2]).add_(1.5), lambda m: m.tensor([1, 2]).div_(2),
               lambda m: m.ones(3).add_(m.ones(2, 3)), lambda m: m.tensor([1, 2]).mul_(2),
               lambda m: m.ones(2).add_(m.ones(2, dtype=m.float64)),
               lambda m: m.ones(2, dtype=m.float64).mul_(m.ones(2))):
        ours, theirs = error_of(lambda fn=fn: fn(ag)), error_of(lambda fn=fn: fn(torch))
        assert ours == theirs
        if theirs is None:
            assert_same(fn(ag), fn(torch))
