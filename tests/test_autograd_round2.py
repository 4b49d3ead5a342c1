"""Second round of autograd details PyTorch's own TestAutograd checks, each compared with torch:
what a ``SavedTensor`` shows as ``data``, a custom node's ``_raw_saved_tensors``, Python numbers
kept for backward without passing through saved-tensor hooks, and hooks that double a saved
tensor during a double backward (the number of times each tensor is packed decides the result).
"""

from __future__ import annotations

import pytest
from oracle_helpers import assert_like_torch


def test_saved_tensor_data_is_what_was_kept(torch_oracle):
    def case(m):
        def keep(x):
            return x

        def give_back(x):
            return x

        w = m.tensor([1.5, -2.0], requires_grad=True)
        with m.autograd.graph.saved_tensors_hooks(keep, give_back):
            squared = w ** 2  # its input packed by the hook
        grown = squared.exp()  # its output kept, no hook
        again = grown ** 2  # its input kept, no hook
        hooked = squared.grad_fn._raw_saved_self
        as_output = grown.grad_fn._raw_saved_result
        as_input = again.grad_fn._raw_saved_self
        return [hooked.data is w, hooked.unpack_hook is give_back,
                as_output.data is grown, as_output.data, as_output.data.requires_grad,
                as_output.unpack_hook is None, as_input.data is grown]

    assert_like_torch(case)


def test_raw_saved_tensors_of_a_custom_function(torch_oracle):
    def case(m):
        class KeepTwo(m.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x, None)
                return x * 3

            @staticmethod
            def backward(ctx, g):
                return g * 3

        class KeepNone(KeepTwo):
            @staticmethod
            def forward(ctx, x):
                return x * 3

        x = m.tensor([2.0, 4.0], requires_grad=True)
        out = KeepTwo.apply(x)
        raw = out.grad_fn._raw_saved_tensors
        seen = [len(raw), [type(r).__name__ for r in raw],
                raw[0].data is x, raw[1].data]
        for hooks in ((lambda t: t,), (1, 1)):
            try:
                raw[0].register_hooks(*hooks)
            except TypeError as error:
                seen.append(str(error).split(".")[0])
        try:
            raw[1].register_hooks(lambda t: t, lambda t: t)
        except RuntimeError as error:
            seen.append(str(error))
        out.sum().backward()
        try:
            out.grad_fn._raw_saved_tensors
        except RuntimeError as error:
            seen.append("freed" in str(error))
        plain = KeepNone.apply(x)
        return seen + [plain.grad_fn._raw_saved_tensors, plain.grad_fn.saved_tensors]

    assert_like_torch(case)


def test_a_number_kept_for_backward_skips_the_hooks(torch_oracle):
    def case(m):
        packed = []

        def pack(t):
            packed.append(t.tolist())
            return t

        x = m.tensor([1.0, 2.0], requires_grad=True)
        with m.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
            out = (x * 3).sum() + (x / 4).sum() + (x * x).sum()
        (grad,) = m.autograd.grad(out, (x,))
        return [packed, grad]

    assert_like_torch(case)


@pytest.mark.parametrize("where", ["forward", "double backward", "both"])
def test_doubling_hooks_in_a_double_backward(torch_oracle, where):
    def case(m):
        def hooks():
            return m.autograd.graph.saved_tensors_hooks(lambda t: t * 2, lambda t: t)

        x = m.tensor([0.5, -1.5, 2.0], requires_grad=True)
        if where == "forward":
            with hooks():
                total = (x ** 3).sum()
            (g,) = m.autograd.grad(total, (x,), create_graph=True)
            g.sum().backward()
        elif where == "double backward":
            total = (x ** 3).sum()
            with hooks():
                (g,) = m.autograd.grad(total, (x,), create_graph=True)
                g.sum().backward()
        else:
            with hooks():
                total = (x ** 3).sum()
                (g,) = m.autograd.grad(total, (x,), create_graph=True)
                g.sum().backward()
        return [g, x.grad]

    assert_like_torch(case)


def test_a_hook_on_an_output_that_got_no_gradient_sees_none(torch_oracle):
    def case(m):
        x = m.tensor([1.0, 2.0, 3.0], requires_grad=True)
        first, second, _ = x.unbind()
        seen = []
        first.register_hook(seen.append)
        first.backward()  # the hook gets a gradient
        second.backward()  # same node, but no gradient for `first`: the hook gets None
        try:
            first.register_hook(lambda g: m.ones(()) if g is None else None)
            second.backward()
        except RuntimeError as error:
            seen.append(str(error))
        return [seen, x.grad]

    assert_like_torch(case)


def test_an_assigned_backward_hooks_dict(torch_oracle):
    def case(m):
        from collections import OrderedDict

        leaf = m.tensor([1.0, -1.0], requires_grad=True)
        plain = m.tensor([3.0, 4.0])
        before = [leaf._backward_hooks, plain._backward_hooks]
        leaf._backward_hooks = OrderedDict()
        leaf._backward_hooks["triple"] = lambda g: g * 3  # filled after it was assigned
        plain._backward_hooks = {"never": lambda g: 1 / 0}  # plain gets no gradient
        (leaf * plain).sum().backward()
        try:
            del leaf._backward_hooks
        except RuntimeError as error:
            before.append(str(error))
        return [before, list(leaf._backward_hooks), leaf.grad]

    assert_like_torch(case)


def test_a_function_has_pytorchs_vmap_defaults(torch_oracle):
    def case(m):
        class Square(m.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * x

        try:
            Square.vmap(None, (0,), m.ones(2))
        except NotImplementedError as error:
            return [Square.generate_vmap_rule, str(error)]

    assert_like_torch(case)


def test_the_node_running_now_as_an_unpack_hook_sees_it(torch_oracle):
    def case(m):
        current = m._C._current_autograd_node if hasattr(m, "_C") else None
        if current is None:  # the package keeps PyTorch's C++ names under compat
            from autograd_course.compat import _C
            current = _C._current_autograd_node
        seen = [current()]
        x = m.tensor([0.5, 2.0], requires_grad=True)

        def unpack(t):
            node = current()
            seen.append(type(node).__name__)

            def halve(grad_inputs, grad_outputs):  # registered while the node runs
                seen.append(list(grad_outputs))
                return tuple(g / 2 for g in grad_inputs)

            node.register_hook(halve)
            return t

        with m.autograd.graph.saved_tensors_hooks(lambda t: t, unpack):
            y = x.exp()
        y.sum().backward()
        return [seen, current(), x.grad]

    assert_like_torch(case)
