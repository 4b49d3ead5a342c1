"""Graph hooks with PyTorch's signatures, against PyTorch: ``Node.register_prehook`` (a tuple of
gradients in, optionally a tuple out), ``Node.register_hook`` (``fn(grad_inputs,
grad_outputs)``), ``Node.name()`` and ``metadata``, ``Tensor.register_post_accumulate_grad_hook``,
``autograd.graph.register_multi_grad_hook``, the order hooks run in, their checks, and what
happens to a hook removed while backward runs."""

from __future__ import annotations

import pytest
from oracle_helpers import assert_like_torch

import autograd_course as ag


def _values(grads):
    return [None if g is None else g.tolist() for g in grads]


def test_the_documented_prehook_doubles_the_gradient():
    def case(m):
        a = m.tensor([1.0, 2.0], requires_grad=True)
        b = a * 3
        handle = b.grad_fn.register_prehook(lambda gI: (gI[0] * 2,))
        b.sum().backward(retain_graph=True)
        first = a.grad.clone()
        handle.remove()
        a.grad = None
        b.sum().backward()
        return [first, a.grad]

    assert_like_torch(case)


def test_every_kind_of_hook_runs_in_pytorchs_order():
    def case(m):
        a = m.tensor([1.0, 2.0], requires_grad=True)
        b = a * 2
        c = b.sum()
        log = []
        c.grad_fn.register_prehook(lambda go: log.append(("sum pre", _values(go))))
        c.grad_fn.register_hook(lambda gi, go: log.append(("sum post", _values(gi), _values(go))))
        acc = b.grad_fn.next_functions[0][0]
        acc.register_hook(lambda gi, go: log.append(("acc post", _values(gi), _values(go))))
        acc.register_prehook(lambda go: log.append(("acc pre", _values(go))))
        b.register_hook(lambda g: log.append(("tensor", g.tolist())))
        b.grad_fn.register_prehook(lambda go: log.append(("mul pre", _values(go))))
        a.register_hook(lambda g: log.append(("leaf tensor", g.tolist())))
        a.register_post_accumulate_grad_hook(lambda t: log.append(("leaf post", t.grad.tolist())))
        b.retain_grad()
        c.backward()
        return log

    assert_like_torch(case)


def test_retain_grad_sees_tensor_hooks_but_not_node_prehooks():
    def case(m):
        a = m.tensor([1.0, 2.0], requires_grad=True)
        b = a * 2
        b.retain_grad()
        b.register_hook(lambda g: g + 1)
        b.grad_fn.register_prehook(lambda go: (go[0] * 10,))
        b.sum().backward()
        return [b.grad, a.grad]

    assert_like_torch(case)


def test_a_post_hook_replaces_the_gradients_sent_on():
    def case(m):
        a = m.tensor([1.0, 2.0], requires_grad=True)
        w = m.tensor([3.0, 4.0], requires_grad=True)
        b = a * w
        b.grad_fn.register_hook(lambda gi, go: (gi[0] * 10, None))
        b.grad_fn.register_hook(lambda gi, go: (gi[0] + 1, gi[1]))  # sees the first's result
        b.sum().backward()
        return [a.grad, w.grad]

    assert_like_torch(case)


def test_a_prehook_may_drop_a_gradient():
    def case(m):
        a = m.tensor([1.0, 2.0], requires_grad=True)
        b = a * 2
        b.grad_fn.register_prehook(lambda go: (None,))
        b.sum().backward()
        return [a.grad]

    assert_like_torch(case)


def _misuse(hook_kind, result):
    def case(m):
        a = m.tensor([1.0, 2.0], requires_grad=True)
        b = a.exp()
        if hook_kind == "pre":
            b.grad_fn.register_prehook(lambda go: result(m, go))
        else:
            b.grad_fn.register_hook(lambda gi, go: result(m, gi))
        b.sum().backward()
        return a.grad

    return case


@pytest.mark.parametrize("kind,result", [
    ("pre", lambda m, g: g[0]),
    ("pre", lambda m, g: (g[0], g[0])),
    ("pre", lambda m, g: (m.ones(3, dtype=m.float32),)),
    ("pre", lambda m, g: (m.ones(2, dtype=m.float64),)),
    ("pre", lambda m, g: (5,)),
    ("post", lambda m, g: g[0]),
    ("post", lambda m, g: ()),
    ("post", lambda m, g: (m.ones(3, dtype=m.float32),)),
], ids=["tensor", "two", "size", "dtype", "number", "post-tensor", "post-empty", "post-size"])
def test_hook_results_are_checked_as_pytorch_checks_them(kind, result):
    assert_like_torch(_misuse(kind, result))


def test_a_post_hook_cannot_invent_a_gradient_where_there_was_none():
    def case(m):
        a = m.tensor([1.0, 2.0], requires_grad=True)
        b = m.tensor([3.0, 4.0])
        c = m.stack([a, b])  # hmm: only a requires grad
        c.grad_fn.register_hook(lambda gi, go: tuple(m.ones(2) for _ in gi))
        c.sum().backward()
        return a.grad

    ours = assert_like_torch(case)
    assert ours[0] == "value"


def test_a_hook_removed_during_backward_still_runs_in_that_pass_on_its_node():
    def case(m):
        x = m.tensor(1.0, requires_grad=True)
        y = x * 2
        z = y * 3
        log, handles = [], []
        handles.append(z.register_hook(lambda g: [log.append("k"), handles[1].remove()]
                                       and None))
        handles.append(z.register_hook(lambda g: log.append("j")))
        handles.append(y.register_hook(lambda g: log.append("y")))
        z.grad_fn.register_prehook(lambda go: [log.append("pre"), handles[2].remove()] and None)
        z.backward(retain_graph=True)
        log.append("second pass")
        z.backward()
        return log

    assert_like_torch(case)


def test_a_prehook_removed_by_another_prehook_of_its_node_still_runs_once():
    def case(m):
        x = m.tensor(1.0, requires_grad=True)
        z = x * 3
        log, handles = [], []
        handles.append(z.grad_fn.register_prehook(lambda go: handles[1].remove()))
        handles.append(z.grad_fn.register_prehook(lambda go: log.append("second")))
        z.backward(retain_graph=True)
        z.backward()
        return log

    assert_like_torch(case)


def test_node_name_and_metadata():
    def case(m):
        a = m.tensor([1.0, 2.0], requires_grad=True)
        b = (a * 2).sum()
        b.grad_fn.metadata["owner"] = "me"
        acc = b.grad_fn.next_functions[0][0].next_functions[0][0]
        return [b.grad_fn.name(), b.grad_fn.metadata, acc.name(), acc.metadata,
                isinstance(b.grad_fn, m.autograd.graph.Node),
                isinstance(acc, m.autograd.graph.Node)]

    assert_like_torch(case)


def test_the_same_function_registered_twice_is_two_hooks():
    def case(m):
        a = m.tensor([1.0], requires_grad=True)
        b = a * 2
        log = []

        def hook(go):
            log.append(len(log))

        first = b.grad_fn.register_prehook(hook)
        b.grad_fn.register_prehook(hook)
        first.remove()
        b.sum().backward()
        return log

    assert_like_torch(case)


def test_post_accumulate_grad_hook():
    def case(m):
        a = m.tensor([1.0, 2.0], requires_grad=True)
        log = []
        handle = a.register_post_accumulate_grad_hook(
            lambda t: log.append((t is a, t.grad.tolist())))
        (a * 2).sum().backward()
        (a * 3).sum().backward()
        m.autograd.grad((a * 2).sum(), a)  # grad() does not accumulate: no call
        handle.remove()
        (a * 4).sum().backward()
        return [log, a.grad]

    assert_like_torch(case)


@pytest.mark.parametrize("how", ["non-leaf", "no-grad", "returns"])
def test_post_accumulate_grad_hook_errors(how):
    def case(m):
        a = m.tensor([1.0, 2.0], requires_grad=True)
        if how == "non-leaf":
            (a * 2).register_post_accumulate_grad_hook(lambda t: None)
        elif how == "no-grad":
            m.ones(2).register_post_accumulate_grad_hook(lambda t: None)
        else:
            a.register_post_accumulate_grad_hook(lambda t: 5)
            (a * 2).sum().backward()

    assert_like_torch(case)


def test_multi_grad_hook_all_the_documented_example():
    def case(m):
        a = m.tensor([1.0, 2.0], requires_grad=True)
        b = m.tensor([3.0, 4.0], requires_grad=True)
        c = a * b
        d = a * b
        log = []
        handle = m.autograd.graph.register_multi_grad_hook(
            (a, b, c, d), lambda grads: log.append(_values(grads)))
        c.sum().backward(retain_graph=True)
        c.sum().backward(inputs=(a,), retain_graph=True)
        handle.remove()
        c.sum().backward()
        return log

    assert_like_torch(case)


def test_multi_grad_hook_any_runs_once_per_pass():
    def case(m):
        a = m.tensor([1.0, 2.0], requires_grad=True)
        b = m.tensor([3.0, 4.0], requires_grad=True)
        c = m.tensor([5.0, 6.0])
        log = []
        m.autograd.graph.register_multi_grad_hook(
            (a, b, c), lambda grad: log.append(grad.tolist()), mode="any")
        (a * 2 + b * 5).sum().backward()
        (b * 7).sum().backward()
        return log

    assert_like_torch(case)


def test_multi_grad_hook_mode_is_checked():
    assert_like_torch(lambda m: m.autograd.graph.register_multi_grad_hook(
        (m.ones(1, requires_grad=True),), print, mode="some"))


def test_hooks_and_tensor_hooks_with_create_graph():
    def case(m):
        a = m.tensor([1.0, 2.0], requires_grad=True)
        b = a ** 3
        b.grad_fn.register_prehook(lambda go: (go[0] * 2,))
        (g,) = m.autograd.grad(b.sum(), a, create_graph=True)
        (gg,) = m.autograd.grad(g.sum(), a)
        return [g, gg]

    assert_like_torch(case)


def test_the_step_through_watches_backward_with_public_node_hooks():
    """viz.backward_steps leaves no hook behind, and a learner's own hooks still run."""
    a = ag.tensor([2.0, 3.0], requires_grad=True)
    b = ag.tensor([6.0, 4.0], requires_grad=True)
    total = (a * b + a).sum()
    seen = []
    total.grad_fn.register_hook(lambda gi, go: seen.append("mine"))
    frames = ag.viz.backward_steps(total, retain_graph=True, params={"a": a, "b": b})
    assert seen == ["mine"] and len(frames) == 5
    assert len(total.grad_fn._post_hooks) == 1  # only the learner's is left
    assert [f.node_name for f in frames][:3] == ["SumBackward0", "AddBackward0", "MulBackward0"]
