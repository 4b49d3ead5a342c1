"""Saved-tensor hooks against PyTorch: ``autograd.graph.saved_tensors_hooks`` (what the pack
hook receives and when, what unpacking gives back and where it sits in the graph, nesting,
the checks), ``save_on_cpu`` and ``disable_saved_tensors_hooks``."""

from __future__ import annotations

import pytest
from functions import square
from oracle_helpers import assert_like_torch


def _described(t):
    """What a learner can see of a tensor a hook received, in both libraries."""
    return [[round(v, 5) for v in t.tolist()], t.requires_grad,
            None if t.grad_fn is None else t.grad_fn.name()]


def test_pack_and_unpack_see_what_pytorch_shows_them():
    def case(m):
        a = m.tensor([1.0, 2.0], requires_grad=True)
        log = []

        def pack(x):
            log.append(["pack", x is a, *_described(x), m.is_grad_enabled()])
            return x.detach()

        def unpack(x):
            log.append(["unpack", *_described(x), m.is_grad_enabled()])
            return x

        with m.autograd.graph.saved_tensors_hooks(pack, unpack):
            y = a.pow(2)  # saves its input
            e = a.exp()  # saves its output
            with m.no_grad():
                a.pow(3)  # nothing recorded, nothing packed
            m.ones(2).exp()  # nor here
        log.append("backward")
        (y + e).sum().backward()
        return [log, a.grad]

    assert_like_torch(case)


def test_the_unpacked_tensor_takes_the_saved_tensors_place_in_the_graph():
    def case(m):
        a = m.tensor([1.0, 2.0], requires_grad=True)
        with m.autograd.graph.saved_tensors_hooks(lambda x: x.detach() * 1, lambda x: x):
            b = a * 3
            y = b.exp()  # saves its output
            z = b.pow(2)  # saves a non-leaf input
            w = a.sin()  # saves a leaf
        (gy,) = m.autograd.grad(y.sum(), b, create_graph=True)
        (ggy,) = m.autograd.grad(gy.sum(), a, retain_graph=True)
        (gz,) = m.autograd.grad(z.sum(), b, create_graph=True)
        (ggz,) = m.autograd.grad(gz.sum(), a)
        (gw,) = m.autograd.grad(w.sum(), a, create_graph=True)
        (ggw,) = m.autograd.grad(gw.sum(), a)
        return [gy, ggy, gz, ggz, gw, ggw]

    assert_like_torch(case)


def test_a_packed_copy_is_not_version_checked():
    def case(m):
        a = m.tensor([1.0, 2.0], requires_grad=True)
        with m.autograd.graph.saved_tensors_hooks(lambda x: x.clone(), lambda x: x):
            b = a * 1
            y = b.pow(2)
        with m.no_grad():
            b.mul_(10)
        y.sum().backward()
        return a.grad

    assert_like_torch(case)


def test_only_the_innermost_pair_applies_and_a_tensor_keeps_its_pair():
    def case(m):
        a = m.tensor([1.0, 2.0], requires_grad=True)
        graph = m.autograd.graph
        with graph.saved_tensors_hooks(lambda x: ("outer", x.detach()), lambda p: p[1] * 0 + 1):
            with graph.saved_tensors_hooks(lambda x: ("inner", x.detach()), lambda p: p[1]):
                y = a.pow(2)
            z = a.pow(2)
        y.sum().backward()
        first = a.grad.clone()
        z.sum().backward()
        return [first, a.grad]

    assert_like_torch(case)


@pytest.mark.parametrize("how", ["pack in place", "unpack number", "backward twice"])
def test_misuse_raises_like_pytorch(how):
    def case(m):
        a = m.tensor([1.0, 2.0], requires_grad=True)
        c = a * 1

        def bad(x):
            x.mul_(2)
            return x

        pack = bad if how == "pack in place" else (lambda x: x.detach())
        unpack = (lambda x: 1) if how == "unpack number" else (lambda x: x)
        with m.autograd.graph.saved_tensors_hooks(pack, unpack):
            y = c.pow(2)
        y.sum().backward()
        if how == "backward twice":
            y.sum().backward()

    assert_like_torch(case)


def test_a_custom_functions_saved_tensors_go_through_the_hooks():
    def case(m):
        Square = square(m)

        a = m.tensor([1.0, 3.0], requires_grad=True)
        log = []
        with m.autograd.graph.saved_tensors_hooks(
                lambda x: log.append("pack") or x.detach() + 1,  # what backward will see
                lambda x: log.append("unpack") or x):
            y = Square.apply(a)
        y.sum().backward()
        return [log, a.grad]

    assert_like_torch(case)


def test_save_on_cpu_keeps_the_values():
    def case(m):
        a = m.tensor([1.0, 2.0], requires_grad=True)
        with m.autograd.graph.save_on_cpu():
            y = (a * a).exp()
        y.sum().backward()
        return [isinstance(m.autograd.graph.save_on_cpu(),
                           m.autograd.graph.saved_tensors_hooks), a.grad]

    assert_like_torch(case)


@pytest.mark.parametrize("order", ["disable then hooks", "hooks then disable", "after"])
def test_disable_saved_tensors_hooks(order):
    def case(m):
        graph = m.autograd.graph
        a = m.tensor([1.0, 2.0], requires_grad=True)
        if order == "disable then hooks":
            with graph.disable_saved_tensors_hooks("no hooks in here"):
                (a * a).sum().backward()  # saving still works, without hooks
                with graph.save_on_cpu():
                    pass
        elif order == "hooks then disable":
            with graph.saved_tensors_hooks(lambda x: x, lambda x: x):
                with graph.disable_saved_tensors_hooks("inner"):
                    pass
        else:
            try:
                with graph.disable_saved_tensors_hooks("first"):
                    raise KeyError
            except KeyError:
                pass
            with graph.saved_tensors_hooks(lambda x: x, lambda x: x):  # allowed again
                (a * a).sum().backward()
            return a.grad

    assert_like_torch(case)


def test_disable_saved_tensors_hooks_as_a_decorator():
    def case(m):
        @m.autograd.graph.disable_saved_tensors_hooks("not in f")
        def f():
            with m.autograd.graph.saved_tensors_hooks(lambda x: x, lambda x: x):
                pass

        f()

    assert_like_torch(case)


def _raw_saved(m, node):
    """The first saved tensor of a node, as an object with ``register_hooks``."""
    return node._raw_saved_self if hasattr(node, "_raw_saved_self") else node.saved[0]


def test_register_hooks_on_one_saved_tensor():
    def case(m):
        a = m.tensor([1.0, 2.0], requires_grad=True)
        y = a.pow(2)
        raw = _raw_saved(m, y.grad_fn)
        log = []
        raw.register_hooks(lambda x: log.append("pack") or x.detach() * 10,
                           lambda x: log.append("unpack") or x)
        packed_at_once = list(log)
        try:
            raw.register_hooks(lambda x: x, lambda x: x)
        except RuntimeError as e:
            log.append(str(e))
        y.sum().backward()
        return [packed_at_once, log, a.grad]

    assert_like_torch(case)


def test_register_hooks_on_a_saved_output():
    def case(m):
        a = m.tensor([1.0, 2.0], dtype=m.float64, requires_grad=True)
        y = a.exp()
        node = y.grad_fn
        raw = node._raw_saved_result if hasattr(node, "_raw_saved_result") else node.saved[0]
        raw.register_hooks(lambda x: x.detach() * 2, lambda x: x)
        (g,) = m.autograd.grad(y.sum(), a, create_graph=True)
        (gg,) = m.autograd.grad(g.sum(), a)
        return [g, gg]

    assert_like_torch(case)
