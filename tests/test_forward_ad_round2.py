"""Forward mode, round 2: what PyTorch checks of a custom Function's ``jvp`` (views and in-place
tangents), gradcheck's forward-mode switches and checks, and ops without a forward rule.
Each behaviour is run on both libraries (the torch oracle) and compared."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

import autograd_course as ag
from autograd_course.compat import _C as compat_C


def fwad(m):
    return m.autograd.forward_ad


def outcome(call):
    """('ok', value) or (exception type name, message)."""
    try:
        return "ok", call()
    except Exception as e:  # the failure is the result compared
        return type(e).__name__, str(e)


# --- a custom Function whose forward returns an input as is, or a view of one ---------------
def returning_input(m, second_tangent):
    """forward returns (x + y, x): the second output is x itself, a view of it for autograd."""
    class ReturnsInput(m.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            return x + y, x

        @staticmethod
        def backward(ctx, g1, g2):
            return g1 + g2, g1

        @staticmethod
        def jvp(ctx, x_t, y_t):
            return x_t + y_t, second_tangent(x_t)

    return ReturnsInput


@pytest.mark.parametrize("requires_grad", [True, False])
@pytest.mark.parametrize("kind", ["view_as", "itself", "times_two"])
def test_jvp_of_an_input_returned_as_is_must_be_a_view_of_its_tangent(torch_oracle, kind,
                                                                       requires_grad):
    def run(m):
        second = {"view_as": lambda t: t.view_as(t), "itself": lambda t: t,
                  "times_two": lambda t: t * 2}[kind]
        fn = returning_input(m, second)
        a = m.tensor(1.0, dtype=m.float64, requires_grad=requires_grad)
        t = m.tensor(3.0, dtype=m.float64)
        b = m.tensor(2.0, dtype=m.float64)
        with fwad(m).dual_level():
            dual = fwad(m).make_dual(a, t)

            def call():
                _, second_out = fn.apply(dual, b)
                tangent = fwad(m).unpack_dual(second_out).tangent
                return tangent._base is t, tangent.item()
            return outcome(call)

    ours, theirs = run(ag), run(torch_oracle)
    assert ours == theirs
    assert (theirs[0] == "ok") == (kind == "view_as")


class _Narrow:
    """forward returns foo[:2] (a view); jvp returns what ``flag`` says."""

    @staticmethod
    def make(m):
        class Narrow(m.autograd.Function):
            @staticmethod
            def forward(ctx, foo, flag):
                ctx.flag = flag
                return foo.narrow(0, 0, 2)

            @staticmethod
            def backward(ctx, g):
                grad = g.new_zeros((4, 3))
                grad.narrow(0, 0, 2).copy_(g)
                return grad, None

            @staticmethod
            def jvp(ctx, t, _):
                out = t.narrow(0, 0, 2)
                if ctx.flag != "view":
                    out = out.clone()
                if ctx.flag == "view_of_a_copy":
                    out = out.view_as(out)
                return out
        return Narrow


@pytest.mark.parametrize("through_a_view", [False, True])
@pytest.mark.parametrize("flag", ["view", "copy", "view_of_a_copy"])
def test_jvp_of_a_view_must_be_the_same_view_of_the_tangent(torch_oracle, flag, through_a_view):
    def run(m):
        fn = _Narrow.make(m)
        x = m.arange(12.0, dtype=m.float64).reshape(4, 3)
        t = m.ones(4, 3, dtype=m.float64)
        with fwad(m).dual_level():
            dual = fwad(m).make_dual(x, t)
            if through_a_view:  # the input is a view; its tangent a view of t
                dual = dual.view_as(dual)

            def call():
                tangent = fwad(m).unpack_dual(fn.apply(dual, flag)).tangent
                return tangent.tolist()
            return outcome(call)

    ours, theirs = run(ag), run(torch_oracle)
    assert ours == theirs
    assert (theirs[0] == "ok") == (flag == "view")


def _gradcheck_outcome(m, fn, *args, **kwargs):
    def call():
        return m.autograd.gradcheck(fn, args, **kwargs)
    kind, message = outcome(call)
    return kind if kind == "ok" else message


@pytest.mark.parametrize("flag", ["view", "copy", "view_of_a_copy"])
def test_gradcheck_forward_mode_reports_the_view_checks(torch_oracle, flag):
    def run(m):
        fn = _Narrow.make(m)
        x = m.arange(12.0, dtype=m.float64).reshape(4, 3).requires_grad_()
        return _gradcheck_outcome(m, lambda a: fn.apply(a, flag), x, check_forward_ad=True)

    assert run(ag) == run(torch_oracle)


# --- a custom Function that changes its input in place (mark_dirty) -------------------------
def doubling_in_place(m, jvp_kind):
    class DoubleInPlace(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_dirty(x)
            return x.mul_(2)

        @staticmethod
        def backward(ctx, g):
            return 2 * g

        @staticmethod
        def jvp(ctx, t):
            if jvp_kind == "in_place":
                return t.mul_(2)
            if jvp_kind == "untouched":
                return t
            if jvp_kind == "new_tensor":
                return 2 * t
            t.mul_(2)  # "in_place_copy": changed in place, but a copy returned
            return t.clone()

    return DoubleInPlace


@pytest.mark.parametrize("requires_grad", [True, False])
@pytest.mark.parametrize("jvp_kind", ["in_place", "untouched", "new_tensor", "in_place_copy"])
def test_jvp_of_a_dirty_input_must_change_its_tangent_in_place(torch_oracle, jvp_kind,
                                                               requires_grad):
    def run(m):
        fn = doubling_in_place(m, jvp_kind)
        x = m.tensor([1.0, 2.0], requires_grad=requires_grad).clone()
        with fwad(m).dual_level():
            t = m.tensor([1.0, 3.0])
            dual = fwad(m).make_dual(x, t)

            def call():
                out = fn.apply(dual)
                tangent = fwad(m).unpack_dual(out).tangent
                return out is dual, tangent is t, tangent.tolist(), out.tolist()
            return outcome(call)

    ours, theirs = run(ag), run(torch_oracle)
    assert ours == theirs
    assert (theirs[0] == "ok") == (jvp_kind == "in_place")


def test_forward_of_a_custom_function_runs_without_tangents(torch_oracle):
    """Inside forward, the inputs show no tangent and its ops make none (PyTorch turns forward
    mode off there); the jvp alone gives the output's tangent."""
    def run(m):
        seen = []

        class Twice(m.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                y = x * 2
                seen.append(fwad(m).unpack_dual(y).tangent is None)
                return y

            @staticmethod
            def backward(ctx, g):
                return g * 2

            @staticmethod
            def jvp(ctx, t):
                return t * 5  # (deliberately not 2: the tangent must come from here)

        with fwad(m).dual_level():
            out = Twice.apply(fwad(m).make_dual(m.ones(2), m.ones(2)))
            return seen, fwad(m).unpack_dual(out).tangent.tolist()

    assert run(ag) == run(torch_oracle) == ([True], [5.0, 5.0])


def test_gradcheck_forward_mode_catches_a_jvp_that_does_not_write_in_place(torch_oracle):
    def run(m):
        class DoubleInPlace(m.autograd.Function):
            @staticmethod
            def forward(ctx, foo, in_place):
                ctx.mark_dirty(foo)
                ctx.in_place = in_place
                return foo.mul_(2)

            @staticmethod
            def backward(ctx, g):
                return 2 * g, None

            @staticmethod
            def jvp(ctx, t, _):
                return t.mul_(2) if ctx.in_place else 2 * t

        x = m.arange(4.0, dtype=m.float64).requires_grad_()
        return [_gradcheck_outcome(m, lambda a, flag: DoubleInPlace.apply(a.clone(), flag),
                                   x, in_place, check_forward_ad=True)
                for in_place in (True, False)]

    ours, theirs = run(ag), run(torch_oracle)
    assert ours == theirs
    assert theirs[0] == "ok" and "not modifying the forward mode gradients inplace" in theirs[1]


# --- gradcheck's forward-mode switches -------------------------------------------------------
def broken_sides(m, fwd_bad, bwd_bad):
    class Twice(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            if bwd_bad:
                raise RuntimeError("broken backward")
            return 2 * g

        @staticmethod
        def jvp(ctx, t):
            if fwd_bad:
                raise RuntimeError("broken jvp")
            return 2 * t

    return Twice


@pytest.mark.parametrize("fast_mode", [True, False])
def test_gradcheck_runs_only_the_sides_asked_for_backward_first(torch_oracle, fast_mode):
    def run(m):
        results = []
        x = m.tensor([0.5, 1.5], dtype=m.float64, requires_grad=True)
        for forward_ad in (True, False):
            for backward_ad in (True, False):
                for fwd_bad in (True, False):
                    for bwd_bad in (True, False):
                        fn = broken_sides(m, fwd_bad, bwd_bad)
                        results.append(_gradcheck_outcome(
                            m, fn.apply, x, check_forward_ad=forward_ad,
                            check_backward_ad=backward_ad, check_undefined_grad=backward_ad,
                            check_batched_grad=False, fast_mode=fast_mode))
        return results

    ours, theirs = run(ag), run(torch_oracle)
    assert ours == theirs
    assert "broken backward" in theirs[0]  # both broken, both checked: backward's failure
    assert "broken jvp" in theirs[1] and theirs[3] == "ok"
    assert theirs[-1].startswith("Expected at least one of check_forward_ad")


def test_gradcheck_batched_forward_grad_needs_forward_ad(torch_oracle):
    def run(m):
        x = m.ones(2, dtype=m.float64, requires_grad=True)
        return _gradcheck_outcome(m, lambda a: a * 2, x, check_batched_forward_grad=True)

    assert run(ag) == run(torch_oracle)


def counting(m, calls):
    class Copies(m.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            return x.clone(), y.clone()

        @staticmethod
        def jvp(ctx, x_t, y_t):
            calls.append(1)
            return x_t, y_t

    return Copies


@pytest.mark.parametrize("y_requires_grad", [True, False])
def test_gradcheck_undefined_tangent_check_calls_the_jvp_as_pytorch(torch_oracle,
                                                                    y_requires_grad):
    """Per checked input: once with a zero tangent, once with none (no call at all when no
    other input carries a tangent). Without and with the check."""
    def run(m):
        counts = []
        for undefined in (False, True):
            calls = []
            x = m.tensor([0.5], dtype=m.float64, requires_grad=True)
            y = m.tensor([0.25], dtype=m.float64, requires_grad=y_requires_grad)
            m.autograd.gradcheck(counting(m, calls).apply, (x, y), check_forward_ad=True,
                                 check_backward_ad=False, check_undefined_grad=undefined,
                                 check_batched_grad=False)
            counts.append(len(calls))
        return counts

    assert run(ag) == run(torch_oracle)


def test_undefined_tangent_check_catches_a_function_that_treats_zero_apart(torch_oracle):
    """A function whose tangent differs when an input has a zero tangent and when it has none
    is caught (PyTorch's check is its private _test_undefined_forward_mode; ours is
    gradcheck_forward.undefined_tangents): the same message, up to the random tangents."""
    def func(m):
        def f(x, y):
            if fwad(m).unpack_dual(y).tangent is None:
                return x * 2
            return x + y
        return f

    def fail(message):
        raise RuntimeError(message)

    x = [m.tensor([0.5], dtype=m.float64, requires_grad=True) for m in (ag, torch_oracle)]
    y = [m.tensor([0.25], dtype=m.float64, requires_grad=True) for m in (ag, torch_oracle)]
    with pytest.raises(RuntimeError) as ours:
        ag.autograd.gradcheck_forward.undefined_tangents(func(ag), (x[0], y[0]), fail)
    module = importlib.import_module("torch.autograd.gradcheck")  # (the module, not the function)
    theirs = outcome(lambda: module._test_undefined_forward_mode(func(torch_oracle), (),
                                                                 (x[1], y[1])))
    start = "('Mismatch in tangent values for output with index: ', 0, ' when input: ', tensor("
    assert theirs[0] == "GradcheckError" and theirs[1].startswith(start)
    assert str(ours.value).startswith(start)
    assert ag.autograd.gradcheck_forward.undefined_tangents(  # a sound function passes
        lambda a, b: a * b, (x[0], y[0]), fail) is True


def test_gradcheck_batched_forward_check_refuses_random_draws(torch_oracle):
    def run(m):
        class Noisy(m.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, g):
                return g * 2

            @staticmethod
            def jvp(ctx, t):
                m.randn_like(t)
                return t * 2

        x = m.tensor([0.5, 1.0], dtype=m.float64, requires_grad=True)
        plain = _gradcheck_outcome(m, Noisy.apply, x, check_forward_ad=True)
        batched = _gradcheck_outcome(m, Noisy.apply, x, check_forward_ad=True,
                                     check_batched_forward_grad=True)
        ok = _gradcheck_outcome(m, lambda a, b: (a.clone(), a + b), x, 1,
                                check_forward_ad=True, check_backward_ad=False,
                                check_batched_grad=False, check_batched_forward_grad=True)
        return plain, batched, ok

    ours, theirs = run(ag), run(torch_oracle)
    assert ours == theirs
    assert theirs[0] == theirs[2] == "ok"
    assert "vmap: We do not yet support calling random operations" in theirs[1]


# --- igamma / igammac: no forward-mode rule, as in PyTorch ------------------------------------
def _gamma_grid(m, dtype):
    a = m.tensor([0.1, 0.5, 1.0, 2.5, 7.0, 30.0, 100.0], dtype=dtype).reshape(7, 1)
    x = m.tensor([0.01, 0.3, 1.0, 3.0, 8.0, 25.0, 120.0], dtype=dtype)
    return a, x


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", ["igamma", "igammac"])
def test_igamma_values_like_torch(torch_oracle, name, dtype):
    def run(m):
        a, x = _gamma_grid(m, getattr(m, dtype))
        out = getattr(m, name)(a, x)  # (broadcast: 7 × 7)
        method = getattr(a, name)(x)
        return out.dtype == getattr(m, dtype), out.shape, out.tolist(), method.tolist()

    ours, theirs = run(ag), run(torch_oracle)
    assert ours[:2] == theirs[:2] == (True, (7, 7))
    # (for a > 20 near x = a, PyTorch's Cephes kernel takes an asymptotic expansion, about
    # 1e-9 off in float64; the series and continued fraction here are nearer the exact values)
    tolerance = 1e-8 if dtype == "float64" else 1e-6
    assert np.allclose(ours[2], theirs[2], rtol=tolerance, atol=tolerance / 100)
    assert ours[3] == ours[2]


@pytest.mark.parametrize("name", ["igamma", "igammac"])
def test_igamma_edges_like_torch(torch_oracle, name):
    def run(m):
        inf, nan = float("inf"), float("nan")
        a = m.tensor([-1.0, 0.0, 0.0, 1.0, 0.0, inf, 2.0, nan, 1.0, inf])
        x = m.tensor([1.0, 1.0, 0.0, 0.0, 0.0, 1.0, inf, 1.0, -1.0, inf])
        return [str(v) for v in getattr(m, name)(a, x).tolist()]

    assert run(ag) == run(torch_oracle)


@pytest.mark.parametrize("name", ["igamma", "igammac"])
def test_igamma_gradient_in_x_and_none_in_a_like_torch(torch_oracle, name):
    def run(m):
        a = m.tensor([0.5, 2.0, 4.0], dtype=m.float64)
        x = m.tensor([[0.3], [1.7]], dtype=m.float64, requires_grad=True)
        getattr(m, name)(a, x).sum().backward()
        a.requires_grad_()
        refused = outcome(lambda: getattr(m, name)(a, x.detach()).sum().backward())
        fn = getattr(m, name)(a, x)
        return (x.grad.tolist(), refused, fn.grad_fn.name(),
                m.autograd.gradcheck(lambda t: getattr(m, name)(a.detach(), t), (x,)))

    ours, theirs = run(ag), run(torch_oracle)
    assert np.allclose(ours[0], theirs[0], rtol=1e-10)
    assert ours[1:] == theirs[1:]
    assert theirs[1][0] == "NotImplementedError"


def test_igamma_refuses_integers_like_torch(torch_oracle):
    def run(m):
        return [outcome(lambda f=getattr(m, name): f(m.tensor([1, 2]), m.tensor([1, 2])))
                for name in ("igamma", "igammac")]

    assert run(ag) == run(torch_oracle)


@pytest.mark.parametrize("name", ["igamma", "igammac"])
@pytest.mark.parametrize("dual", ["both", "input", "other"])
def test_igamma_has_no_forward_rule_like_torch(torch_oracle, name, dual):
    def run(m):
        a, x = m.tensor([0.5, 1.0, 2.0]), m.tensor([0.3, 1.0, 4.0])
        with fwad(m).dual_level():
            if dual != "other":
                a = fwad(m).make_dual(a, m.ones(3))
            if dual != "input":
                x = fwad(m).make_dual(x, m.ones(3))
            return outcome(lambda: getattr(m, name)(a, x))

    ours, theirs = run(ag), run(torch_oracle)
    assert ours == theirs
    assert theirs[0] == "NotImplementedError"
    assert theirs[1].startswith(f"Trying to use forward AD with {name} that does not support")


# --- TestAutogradForwardMode's checks, in our words ------------------------------------------
def test_fwd_grad_switch_of_torch_c_like_torch(torch_oracle):
    """``torch._C._set_fwd_grad_enabled(False)`` is a plain call (not only a ``with``): tangents
    stop flowing until it is called with True."""
    def run(m):
        c = m._C if m is torch_oracle else compat_C
        seen = [m.autograd.forward_ad._is_fwd_grad_enabled()]
        with fwad(m).dual_level():
            dual = fwad(m).make_dual(m.ones(2), m.ones(2))
            try:
                c._set_fwd_grad_enabled(False)
                seen += [m.autograd.forward_ad._is_fwd_grad_enabled(),
                         fwad(m).unpack_dual(dual * 2).tangent is None]
            finally:
                c._set_fwd_grad_enabled(True)
            seen += [fwad(m).unpack_dual(dual * 2).tangent.tolist()]
        return seen

    assert run(ag) == run(torch_oracle) == [True, False, True, [2.0, 2.0]]


def test_make_dual_refuses_a_dual_tangent_like_torch(torch_oracle):
    def run(m):
        with fwad(m).dual_level():
            dual = fwad(m).make_dual(m.ones(2), m.ones(2))
            return outcome(lambda: fwad(m).make_dual(m.zeros(2), dual))

    ours, theirs = run(ag), run(torch_oracle)
    assert ours == theirs and theirs[0] == "RuntimeError"


def test_detach_and_detach_in_place_drop_the_tangent_like_torch(torch_oracle):
    def run(m):
        with fwad(m).dual_level():
            dual = fwad(m).make_dual(m.ones(2), m.ones(2) * 3)
            detached = fwad(m).unpack_dual(dual.detach() * 2).tangent
            with m.no_grad():  # (no_grad does not stop tangents)
                under_no_grad = fwad(m).unpack_dual(dual * 2).tangent.tolist()
            copy = dual.clone()
            copy.detach_()
            return detached, under_no_grad, fwad(m).unpack_dual(copy * 2).tangent

    assert run(ag) == run(torch_oracle) == (None, [6.0, 6.0], None)


@pytest.mark.parametrize("name", ["eq", "ne", "lt", "le", "gt", "ge"])
def test_in_place_comparisons_like_torch(torch_oracle, name):
    """``x.eq_(y)`` writes 1/0 into x; PyTorch records it (EqBackward1, or 0 against a number)
    with a zero gradient, and a dual x's tangent becomes zero."""
    def run(m):
        x = m.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = m.tensor([1.0, 3.0, 2.0])
        w = x.clone()
        getattr(w, name + "_")(y)
        w.sum().backward()
        v = x.detach().clone().requires_grad_().clone()
        getattr(v, name + "_")(2)
        i = m.tensor([1, 5, 3])
        getattr(i, name + "_")(3)
        with fwad(m).dual_level():
            dual = fwad(m).make_dual(m.tensor([1.0, 4.0]), m.ones(2))
            getattr(dual, name + "_")(m.tensor([2.0, 2.0]))
            tangent = fwad(m).unpack_dual(dual).tangent.tolist()
        return (w.tolist(), w.grad_fn.name(), x.grad.tolist(), v.grad_fn.name(), v.tolist(),
                i.tolist(), tangent)

    assert run(ag) == run(torch_oracle)


def test_storage_of_a_view_is_its_bases_like_torch(torch_oracle):
    def run(m):
        x = m.randn(5)
        head = x[:4].detach()
        with pytest.warns(UserWarning, match="TypedStorage is deprecated"):
            typed = head.storage()
        untyped = x[1:].untyped_storage()
        with fwad(m).dual_level():
            tangent = m.ones(5)
            dual = fwad(m).make_dual(x, tangent)
            primal, t = fwad(m).unpack_dual(dual)
            shared = (dual.untyped_storage().data_ptr() == x.untyped_storage().data_ptr(),
                      primal.untyped_storage().data_ptr() == x.untyped_storage().data_ptr(),
                      t.untyped_storage().data_ptr() == tangent.untyped_storage().data_ptr())
        return (len(typed), typed.size(), typed.element_size(), typed.nbytes(), str(typed.dtype),
                len(untyped), untyped.nbytes(), untyped.data_ptr() == x.data_ptr(),
                len(x.double().storage()), shared)

    assert run(ag) == run(torch_oracle)


@pytest.mark.parametrize("op", ["add_", "mul_", "copy_"])
def test_writing_a_dual_into_a_view_gives_the_base_a_tangent_like_torch(torch_oracle, op):
    def run(m):
        base = m.tensor([[0.0, 1.0], [2.0, 3.0]])  # (a base that is not itself a view)
        view = base.transpose(0, 1)
        with fwad(m).dual_level():
            dual = fwad(m).make_dual(m.ones(2, 2) * 2, m.tensor([[1.0, 2.0], [3.0, 4.0]]))
            getattr(view, op)(dual)
            first = fwad(m).unpack_dual(base).tangent.tolist()
            view *= 2  # through the view: the base's tangent doubles too
            second = fwad(m).unpack_dual(base).tangent.tolist()
            row = base[0]
            row.add_(dual[0])  # a view of the base that had no tangent: its window
            third = fwad(m).unpack_dual(base).tangent.tolist()
            return first, second, third, fwad(m).unpack_dual(view).tangent.tolist()

    assert run(ag) == run(torch_oracle)


def test_forward_mode_is_off_in_inference_mode_like_torch(torch_oracle):
    """make_dual in inference mode gives a plain alias (no view, no tangent) that writes
    through to the primal; a dual made outside carries no tangent through an op inside."""
    def run(m):
        with m.inference_mode():
            foo = m.tensor([1.0, 2.0])
            with fwad(m).dual_level():
                dual = fwad(m).make_dual(foo, m.ones(2))
                is_view, tangent = dual._is_view(), fwad(m).unpack_dual(dual).tangent
                dual += 1
        with fwad(m).dual_level():
            outside = fwad(m).make_dual(m.tensor([1.0, 2.0]), m.ones(2))
            with m.inference_mode():
                inside = fwad(m).unpack_dual(outside * 2).tangent
            after = fwad(m).unpack_dual(outside * 2).tangent.tolist()
        return is_view, tangent, foo.tolist(), inside, after

    assert run(ag) == run(torch_oracle) == (False, None, [2.0, 3.0], None, [2.0, 2.0])


@pytest.mark.parametrize("op", ["add_", "sub_", "mul_", "div_", "pow_"])
@pytest.mark.parametrize("self_dual", [False, True])
def test_in_place_op_with_a_dual_operand_reads_the_old_values_like_torch(torch_oracle, op,
                                                                         self_dual):
    """z.op_(y) with y dual: the tangent rule uses z's values from before the write (a plain
    z, or a dual one; the write is recorded or not)."""
    def run(m):
        results = []
        for requires_grad in (False, True):
            with fwad(m).dual_level():
                y = fwad(m).make_dual(m.tensor([1.0, 2.0]), m.tensor([1.0, 1.0]))
                z = m.tensor([3.0, 4.0], requires_grad=requires_grad).clone()
                if self_dual:
                    z = fwad(m).make_dual(z, m.tensor([2.0, 0.5]))
                getattr(z, op)(y)
                results.append(fwad(m).unpack_dual(z).tangent.tolist())
        return results

    ours, theirs = run(ag), run(torch_oracle)
    assert np.allclose(ours, theirs, rtol=1e-6)


def test_a_view_taken_before_its_base_got_a_tangent_sees_it_like_torch(torch_oracle):
    """A view's tangent is its window of its base's, also when the view was taken first; the
    primal that unpack_dual gives stays without one."""
    def run(m):
        with fwad(m).dual_level():
            x = m.zeros(2, 3)
            row = x[1]  # taken while x has no tangent
            before = fwad(m).unpack_dual(row).tangent
            y = fwad(m).make_dual(m.ones(2, 3), m.arange(6.0).reshape(2, 3))
            x.copy_(y)
            after = fwad(m).unpack_dual(row).tangent
            same = after is fwad(m).unpack_dual(row).tangent
            primal = fwad(m).unpack_dual(x).primal
            return (before, after.tolist(), same, fwad(m).unpack_dual(primal).tangent,
                    fwad(m).unpack_dual(primal[0]).tangent, fwad(m).unpack_dual(row * 2)
                    .tangent.tolist())

    assert run(ag) == run(torch_oracle)


def test_view_takes_its_base_tangent_again_in_a_later_level(torch_oracle):
    """A view's window of its base's tangent belongs to the level it was taken in: in a later
    level the view takes its window of the base's new tangent."""
    def run(m):
        fw = m.autograd.forward_ad
        x = m.zeros(4, dtype=m.float64)
        view = x[1:3]
        seen = []
        for k in (1.0, 2.0):
            with fw.dual_level():
                x.copy_(fw.make_dual(m.ones(4, dtype=m.float64),
                                     m.full((4,), k, dtype=m.float64)))
                tangent = fw.unpack_dual(view).tangent
                seen.append(None if tangent is None else tangent.tolist())
        return seen

    assert run(ag) == run(torch_oracle) == [[1.0, 1.0], [2.0, 2.0]]
