"""Third round of autograd details PyTorch's own TestAutograd checks, each compared with torch
where the behaviour can be: the cached-tensor registry of ``torch._C``, ``var_mean`` and
``std_mean`` unpacking each saved tensor once, in-place views (``t_``, ``as_strided_``...),
non-reentrant checkpoint's switches (early stop, debug), ``GraphExecGroup`` and what it leaves
alive, ``F.threshold`` and ``nn.InstanceNorm2d``.
"""

from __future__ import annotations

import pytest
from oracle_helpers import assert_like_torch

import autograd_course as ac
from autograd_course.compat import _C


def test_cached_tensor_registry_is_a_set_by_identity(torch_oracle):
    def case(m):
        m._C._set_cached_tensors_enabled(True)
        try:
            a, b = m.zeros(3), m.zeros(3)  # equal values, two tensors
            m._C._add_cached_tensor(a)
            seen = [m._C._is_cached_tensor(a), m._C._is_cached_tensor(b)]
            m._C._add_cached_tensor(a)  # twice in, once out: gone
            m._C._remove_cached_tensor(a)
            seen.append(m._C._is_cached_tensor(a))
            m._C._add_cached_tensor(a)
        finally:
            m._C._set_cached_tensors_enabled(False)
        seen.append(m._C._is_cached_tensor(a))  # the registry is off
        return seen

    class Shim:
        _C = _C
        zeros = staticmethod(ac.zeros)

    assert case(Shim) == case(torch_oracle) == [True, False, False, False]


@pytest.mark.parametrize("name", ["var_mean", "std_mean"])
def test_var_mean_and_std_mean_unpack_each_saved_tensor_once(torch_oracle, name):
    def case(m):
        unpacked = []

        def unpack(t):
            unpacked.append(list(t.shape))
            return t

        w = m.tensor([[1.0, 4.0], [2.0, -3.0], [0.5, 1.0]], requires_grad=True)
        with m.autograd.graph.saved_tensors_hooks(lambda t: t, unpack):
            spread, mean = getattr(m, name)(w, dim=0)
        (spread * 3 + mean).sum().backward()
        return [sorted(unpacked), w.grad]  # x (and std) unpacked once each

    assert_like_torch(case)


@pytest.mark.parametrize("change", [
    lambda v: v.t_(), lambda v: v.transpose_(0, 1), lambda v: v.swapdims_(1, 0),
    lambda v: v.swapaxes_(0, 0), lambda v: v.unsqueeze_(1), lambda v: v[:1].squeeze_(0),
    lambda v: v.as_strided_((3,), (2,), 1)])
def test_in_place_views_change_the_geometry_and_keep_the_gradient(torch_oracle, change):
    def case(m):
        leaf = m.tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]], requires_grad=True)
        view = (leaf * 2).view_as(leaf)
        returned = change(view)
        weights = m.arange(float(view.numel())).reshape(view.shape)
        (view * weights).sum().backward()
        return [returned is view or returned.shape == view.shape, view, leaf.grad]

    assert_like_torch(case)


@pytest.mark.parametrize("made_under_no_grad", [True, False])
def test_in_place_views_refused_as_writes_are(torch_oracle, made_under_no_grad):
    def case(m):
        leaf = m.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        seen = []
        try:
            leaf.t_()  # a leaf that requires grad: refused in grad mode
        except RuntimeError as err:
            seen.append(str(err))
        with m.no_grad():
            leaf.t_()  # allowed under no_grad
        seen.append(leaf.tolist())
        base = leaf.clone()
        with m.set_grad_enabled(not made_under_no_grad):
            view = base.unbind()[0] if not made_under_no_grad else base.view_as(base)
        try:
            view.unsqueeze_(0)
        except RuntimeError as err:
            seen.append(str(err).split(".")[0])
        return seen

    assert_like_torch(case)


def _checkpoint_of(m):
    return m.utils.checkpoint


def test_unpack_hook_returning_a_tensor_without_grad_gives_it_back_itself(torch_oracle):
    def case(m):
        kept = m.tensor([2.0, 3.0])  # saved, no grad
        seen = []

        class Scale(m.autograd.Function):
            @staticmethod
            def forward(ctx, x, factor):
                ctx.save_for_backward(factor)
                return x * factor

            @staticmethod
            def backward(ctx, grad):
                (factor,) = ctx.saved_tensors
                seen.append(factor is kept)
                return grad * factor, None

        x = m.tensor([1.0, 1.0], requires_grad=True)
        with m.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
            Scale.apply(x, kept).sum().backward()
        _checkpoint_of(m).checkpoint(Scale.apply, x, kept, use_reentrant=False).sum().backward()
        return [seen, x.grad]

    assert assert_like_torch(case)[1][0] == [True, True]


def test_checkpoint_recomputes_once_per_access_outside_backward(torch_oracle):
    def case(m):
        runs = [0]

        def f(a):
            runs[0] += 1
            return (a * a).exp()

        a = m.tensor([0.5, -1.0], requires_grad=True)
        out = _checkpoint_of(m).checkpoint(f, a, use_reentrant=False)
        seen = [runs[0]]
        for _ in range(2):
            out.grad_fn._saved_result  # each read outside backward recomputes
            seen.append(runs[0])
        out.sum().backward()
        seen.append(runs[0])
        try:
            out.grad_fn._saved_result
        except RuntimeError as err:
            seen.append("freed" in str(err))
        return [seen, a.grad]

    assert assert_like_torch(case)[1][0] == [1, 2, 3, 4, True]


def test_checkpoint_early_stop_switch_and_debug_switch(torch_oracle):
    def case(m):
        cp = _checkpoint_of(m)

        def changing(first, then):
            calls = [0]

            def fn(x):
                calls[0] += 1
                return first(x) if calls[0] == 1 else then(x)
            return fn

        two = lambda x: x.sin().exp()  # saves two tensors
        three = lambda x: x.sin().exp().sin()
        other = lambda x: x.sin() * m.tensor([1.0, 2.0])  # two, other shapes
        a = m.tensor([0.3], requires_grad=True)
        seen = []
        cp.checkpoint(changing(two, three), a, use_reentrant=False).backward()  # stops early
        attempts = [(False, None, two, three), (True, None, two, other),
                    (False, True, two, other), (True, False, two, other)]
        for early_stop, debug_switch, first, then in attempts:
            try:
                with cp.set_checkpoint_early_stop(early_stop), \
                        cp.set_checkpoint_debug_enabled(debug_switch):
                    out = cp.checkpoint(changing(first, then), a, use_reentrant=False,
                                        debug=debug_switch is False)
                out.backward()
            except RuntimeError as err:
                text = str(err)
                seen.append(["more tensors during recomputation" in text,
                             "different metadata" in text,
                             "you passed `debug=True`" in text])
        return seen

    assert assert_like_torch(case)[1] == [[True, False, False], [False, True, False],
                                          [False, False, True], [False, True, False]]


def test_graph_exec_group_recomputes_once_for_several_backward_calls(torch_oracle):
    def case(m):
        cp = _checkpoint_of(m)
        runs = [0]

        def f(x):
            runs[0] += 1
            first = x.sin().cos()
            return first, first.sin().cos()

        x = m.tensor([[0.1, 0.2], [0.3, 0.4]], requires_grad=True)
        first, second = cp.checkpoint(f, x, use_reentrant=False)
        with cp.GraphExecGroup():
            (g,) = m.autograd.grad(second, first, m.ones(2, 2))
            (gx,) = m.autograd.grad(first, x, g)
        seen = [runs[0]]
        out = cp.checkpoint(lambda t: t.sin().cos(), x, use_reentrant=False)
        with cp.GraphExecGroup():
            out.sum().backward(retain_graph=True)
            try:
                out.sum().backward()  # the same saved tensors again: refused in a group
            except RuntimeError as err:
                seen.append("two backward calls that overlap" in str(err))
        return [seen, gx]

    assert assert_like_torch(case)[1][0] == [2, True]


def test_checkpoint_early_stop_leaves_nothing_of_the_recomputation_alive(torch_oracle):
    import gc
    import weakref

    def case(m):
        made = []

        class Keep(m.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                y = x.clone()
                ctx.save_for_backward(y)
                made.append(weakref.ref(y))
                return y

            @staticmethod
            def backward(ctx, grad):
                ctx.saved_tensors
                return grad

        def run():
            x = m.tensor([1.0, 2.0], requires_grad=True)
            _checkpoint_of(m).checkpoint(Keep.apply, x, use_reentrant=False).sum().backward()

        gc.disable()
        try:
            run()
            return [len(made), [ref() is None for ref in made]]
        finally:
            gc.enable()

    assert assert_like_torch(case)[1] == [2, [True, True]]


@pytest.mark.parametrize("inplace", [False, True])
def test_threshold_values_names_and_second_derivative(torch_oracle, inplace):
    def case(m):
        x = m.tensor([-1.0, 0.2, 0.5, 2.0], requires_grad=True)
        y = m.nn.functional.threshold(x * 1.0, 0.3, -4.0, inplace)
        (g,) = m.autograd.grad((y * y).sum(), x, create_graph=True)
        (gg,) = m.autograd.grad(g.sum(), x)
        return [y, y.grad_fn.name(), g, gg]

    assert_like_torch(case)


@pytest.mark.parametrize("affine", [False, True])
def test_instance_norm_2d_matches_torch_with_its_gradients(torch_oracle, affine):
    def case(m):
        m.manual_seed(0)
        layer = m.nn.InstanceNorm2d(2, affine=affine, track_running_stats=True)
        data = [[[[1.0, 2.0], [0.5, -1.0]], [[3.0, 3.5], [-2.0, 0.0]]],
                [[[0.0, 1.0], [4.0, -1.0]], [[1.0, -3.5], [2.0, 2.5]]]]
        x = m.tensor(data, requires_grad=True)
        out = layer(x)
        (out * m.arange(16.0).reshape(2, 2, 2, 2)).sum().backward()
        layer.eval()
        return [out, x.grad, layer.running_mean, layer.running_var, layer(x[0])]

    assert_like_torch(case, rtol=1e-5, atol=1e-6)
