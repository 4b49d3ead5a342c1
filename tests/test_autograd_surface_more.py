"""More of PyTorch's autograd surface that its own ``TestAutograd`` leans on, in our own words,
run on both libraries: callbacks queued on the engine for the end of a backward pass, deleting
a tensor's attributes, ``InplaceFunction``, ``ctx.saved_variables`` and the ``torch._C`` names
(grad mode, the running graph task, the node classes) that Python code reaches for.
"""

from __future__ import annotations

import warnings

import pytest
from oracle_helpers import outcome

import autograd_course as ag


def passthrough(lib, on_backward):
    """A Function whose backward calls ``on_backward()`` and passes its gradient on."""
    class Pass(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.clone()

        @staticmethod
        def backward(ctx, grad):
            on_backward()
            return grad

    return Pass


# --- Variable._execution_engine.queue_callback ----------------------------------------------
def test_queue_callback_outside_backward_is_refused(torch_oracle):
    def run(lib):
        return outcome(lib.autograd.Variable._execution_engine.queue_callback, lambda: None)

    assert run(ag) == run(torch_oracle)
    assert "only be installed during backward" in run(ag)


@pytest.mark.parametrize("use_grad", [False, True])
def test_queued_callbacks_run_after_every_node_in_order(torch_oracle, use_grad):
    """A callback queued by a node runs once the whole pass is done (after the leaves got their
    gradient), in the order queued; one queued by a callback runs too, after it."""
    def run(lib):
        log = []
        engine = lib.autograd.Variable._execution_engine
        a = lib.ones(2, requires_grad=True)

        def second():
            log.append(("second", lib.is_grad_enabled()))

        def first():
            log.append(("first", None if a.grad is None else a.grad.tolist()))
            engine.queue_callback(second)

        def queue():
            log.append("node")
            engine.queue_callback(first)

        out = (passthrough(lib, queue).apply(a) * 3).sum()
        if use_grad:
            log.append(lib.autograd.grad(out, a)[0].tolist())
        else:
            out.backward()
        return log

    assert run(ag) == run(torch_oracle)


def test_callback_of_a_nested_backward_runs_when_that_pass_ends(torch_oracle):
    """A backward run inside a node's backward is a pass of its own: what it queues runs at its
    end; what the outer node queues runs at the outer end."""
    def run(lib):
        log = []
        engine = lib.autograd.Variable._execution_engine
        inner = passthrough(lib, lambda: engine.queue_callback(lambda: log.append("inner")))

        def outer_backward():
            engine.queue_callback(lambda: log.append("outer"))
            t = lib.ones(3, requires_grad=True)
            with lib.enable_grad():
                inner.apply(t).sum().backward()
            log.append("nested pass done")

        outer = passthrough(lib, outer_backward)
        outer.apply(lib.ones(3, requires_grad=True)).sum().backward()
        return log

    assert run(ag) == run(torch_oracle) == ["inner", "nested pass done", "outer"]


def test_a_callback_error_comes_out_of_backward(torch_oracle):
    def run(lib):
        def fail():
            raise ValueError("from the callback")

        fn = passthrough(lib, lambda: lib.autograd.Variable._execution_engine.queue_callback(fail))
        return outcome(lambda: fn.apply(lib.ones(2, requires_grad=True)).sum().backward())

    assert run(ag) == run(torch_oracle) == "ValueError: from the callback"


# --- deleting a tensor's attributes ------------------------------------------------------------
def test_del_grad_is_setting_it_to_none(torch_oracle):
    def run(lib):
        x = lib.ones(2, requires_grad=True)
        (x * 2).sum().backward()
        before = x.grad.tolist()
        del x.grad
        return before, x.grad

    assert run(ag) == run(torch_oracle) == ([2.0, 2.0], None)


@pytest.mark.parametrize("name", ["data", "requires_grad", "_grad_fn", "_backward_hooks"])
def test_deleting_autograd_attributes_is_refused(torch_oracle, name):
    def run(lib):
        x = lib.ones(2, requires_grad=True)

        def delete():
            delattr(x, name)

        return outcome(delete), x.requires_grad, x.tolist()

    assert run(ag) == run(torch_oracle)
    assert run(ag)[0].startswith("RuntimeError")


def test_data_takes_only_a_tensor(torch_oracle):
    def run(lib):
        x = lib.ones(2)

        def assign():
            x.data = None

        return outcome(assign)

    assert run(ag) == run(torch_oracle)


def test_underscore_grad_fn_is_grad_fn(torch_oracle):
    def run(lib):
        x = lib.ones(2, requires_grad=True)
        y = x * 2
        return y._grad_fn is y.grad_fn, x._grad_fn

    assert run(ag) == run(torch_oracle) == (True, None)


# --- InplaceFunction and ctx.saved_variables ---------------------------------------------------
def test_inplace_function_is_a_function_for_old_code(torch_oracle):
    """A subclass that adds into its first input in place and marks it dirty: the input comes
    back as itself, now made by the subclass's node, and gradients reach the other input."""
    def run(lib):
        from importlib import import_module

        function = import_module(lib.__name__ + ".autograd.function")

        class AddInto(function.InplaceFunction):
            @staticmethod
            def forward(ctx, a, b):
                ctx.mark_dirty(a)
                return a.add_(b), b * 3

            @staticmethod
            def backward(ctx, grad_a, grad_b):
                return grad_a, grad_a + 3 * grad_b

        x = lib.zeros(2)
        y = lib.ones(2, requires_grad=True)
        q, p = AddInto.apply(x, y)
        (q + p).sum().backward()
        return (q is x, type(q.grad_fn) is AddInto._backward_cls, q.requires_grad,
                y.grad.tolist(), issubclass(function.InplaceFunction, lib.autograd.Function),
                outcome(function.InplaceFunction.apply, lib.ones(1)))

    assert run(ag) == run(torch_oracle)
    assert run(ag)[-1].startswith("NotImplementedError")


def test_saved_variables_is_saved_tensors_with_a_deprecation_warning(torch_oracle):
    def run(lib):
        seen = []

        class Twice(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * 2

            @staticmethod
            def backward(ctx, grad):
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    (x,) = ctx.saved_variables
                seen.extend((w.category.__name__, str(w.message)) for w in caught)
                seen.append(x.tolist())
                return grad * 2

        Twice.apply(lib.tensor([1.5], requires_grad=True)).backward()
        return seen

    assert run(ag) == run(torch_oracle)


# --- torch._C: grad mode, the running pass, node classes, saved-tensor hooks' switch ------------
def _c(lib):
    """``torch._C``; the package keeps its counterpart with the other compatibility names."""
    from importlib import import_module

    return import_module("torch._C" if lib.__name__ == "torch" else
                         lib.__name__ + ".compat._C")


def test_c_is_grad_enabled_follows_grad_mode(torch_oracle):
    def run(lib):
        with lib.no_grad():
            inside = _c(lib).is_grad_enabled()
        return inside, _c(lib).is_grad_enabled()

    assert run(ag) == run(torch_oracle) == (False, True)


def test_current_graph_task_id_counts_backward_passes(torch_oracle):
    def run(lib):
        ids = []
        t = lib.tensor(1.0, requires_grad=True).clone()
        t.register_hook(lambda g: ids.append(_c(lib)._current_graph_task_id()))
        for _ in range(3):
            t.backward(retain_graph=True)
        return [i - ids[0] for i in ids], _c(lib)._current_graph_task_id()

    assert run(ag) == run(torch_oracle) == ([0, 1, 2], -1)


def test_will_engine_execute_node(torch_oracle):
    """Asked from a hook: the nodes on the way to the requested inputs run, a branch that leads
    nowhere asked does not; outside backward, with a tensor, or with a leaf under grad(): the
    errors PyTorch gives."""
    def run(lib):
        c = _c(lib)
        a = lib.ones(2, requires_grad=True)
        a2 = lib.ones(2, requires_grad=True)
        b = a * a2
        side = b.cos()
        out = (b * 3).sum()
        acc_a = b.grad_fn.next_functions[0][0]
        seen = []

        def look(grad):
            seen.append([c._will_engine_execute_node(n) for n in (b.grad_fn, acc_a, side.grad_fn)])

        b.register_hook(look)
        lib.autograd.backward(out, inputs=(b,), retain_graph=True)
        lib.autograd.backward(out, retain_graph=True)
        seen.append(outcome(lib.autograd.grad, out, (a,), retain_graph=True))
        seen.append(outcome(c._will_engine_execute_node, b.grad_fn))
        seen.append(outcome(c._will_engine_execute_node, b))
        return seen

    assert run(ag) == run(torch_oracle)


def test_accumulate_grad_class_is_the_leaves_node(torch_oracle):
    def run(lib):
        x = lib.ones(2, requires_grad=True)
        node = (x + 1).grad_fn.next_functions[0][0]
        return isinstance(node, _c(lib)._functions.AccumulateGrad), node.variable is x

    assert run(ag) == run(torch_oracle) == (True, True)


@pytest.mark.parametrize("materialize", [True, False])
def test_undefined_grad_passes_no_gradient_on(torch_oracle, materialize):
    """Behind ``UndefinedGrad`` nothing reaches the leaf; the node is named as PyTorch names
    it, and the tensor it gives has the input's values."""
    def run(lib):
        x = lib.ones(2, requires_grad=True)
        y = _c(lib)._functions.UndefinedGrad()(x * 2)
        name = type(y.grad_fn).__name__
        y.sum().backward()
        return name, y.tolist(), x.grad

    assert run(ag) == run(torch_oracle) == ("UndefinedGradBackward", [2.0, 2.0], None)


def test_saved_tensors_hooks_is_enabled_switch(torch_oracle):
    def run(lib):
        c = _c(lib)
        with lib.autograd.graph.disable_saved_tensors_hooks("no hooks here"):
            inside = c._autograd._saved_tensors_hooks_is_enabled()
        return inside, c._autograd._saved_tensors_hooks_is_enabled()

    assert run(ag) == run(torch_oracle) == (False, True)


# --- hiding an in-place change from autograd: the version counter set by hand -------------------
def test_unsafe_preserve_and_set_version_counter(torch_oracle):
    def run(lib):
        x = lib.ones(2, requires_grad=True).clone()
        y = lib.ones(2, requires_grad=True).clone()
        x.add_(1)
        x.add_(2)
        seen = [x._version]
        with lib.autograd._unsafe_preserve_version_counter(x):
            x.mul_(2)
            seen.append(x._version)
        seen.append(x._version)
        setter = _c(lib)._autograd._unsafe_set_version_counter
        setter((x,), (0,))
        seen.append(x._version)
        seen.append(outcome(setter, (x,), (-1,)))
        with lib.autograd._unsafe_preserve_version_counter((x, y)):
            x.mul_(2)
            y.mul_(3)
        seen.append((x._version, y._version))
        return seen

    assert run(ag) == run(torch_oracle)


def test_a_preserved_version_lets_a_changed_saved_tensor_through(torch_oracle):
    """What the hatch is for, and its danger: the saved input changed inside the block is not
    noticed, and backward uses the new values."""
    def run(lib):
        a = lib.tensor([1.0, 2.0], requires_grad=True).clone()
        b = lib.tensor([3.0, 4.0], requires_grad=True)
        out = a * b
        with lib.autograd._unsafe_preserve_version_counter(a):
            a.mul_(10)
        out.sum().backward()
        return b.grad.tolist()

    assert run(ag) == run(torch_oracle) == [10.0, 20.0]


def test_weak_tensor_ref_expires_with_its_tensor(torch_oracle):
    """A retained gradient or a ctx that keeps its output does not keep a result alive once
    the caller drops it (after a garbage collection for the cycle through the ctx)."""
    import gc

    def run(lib):
        x = lib.ones(3, requires_grad=True)

        def retained():
            y = x * 2
            y.retain_grad()
            return y / 2, _c(lib)._WeakTensorRef(y)

        class Keep(lib.autograd.Function):
            @staticmethod
            def forward(ctx, t, box):
                out = t.clone()
                ctx.box = box
                return out

            @staticmethod
            def backward(ctx, grad):
                return grad, None

        def in_a_cycle():
            box = {}
            out = Keep.apply(x, box)
            box["out"] = out  # out -> its ctx -> box -> out
            return _c(lib)._WeakTensorRef(out)

        z, ref = retained()
        first = ref.expired()
        z.sum().backward()
        kept = in_a_cycle()
        gc.collect()
        return first, x.grad.tolist(), kept.expired()

    assert run(ag) == run(torch_oracle) == (True, [1.0, 1.0, 1.0], True)


def test_calling_a_built_in_node_with_the_wrong_number_of_gradients(torch_oracle):
    def run(lib):
        x = lib.ones(1, requires_grad=True)
        node = (x ** 2).grad_fn
        return [outcome(node, x.detach(), x.detach()), outcome(node), outcome(node, x.detach())]

    assert run(ag) == run(torch_oracle)
    assert run(ag)[0] == "TypeError: expected 1 arguments, got 2 instead"


# --- torch.set_warn_always: the once-only warnings every time -----------------------------------
def test_set_warn_always_repeats_the_create_graph_warning(torch_oracle):
    """With it on, each backward(create_graph=True) warns (grad() never does); it is off by
    default and comes back off."""
    def run(lib):
        before = lib.is_warn_always_enabled()
        lib.set_warn_always(True)
        try:
            b = lib.tensor([1.0, 2.0], requires_grad=True, dtype=lib.float64)
            c = b * b
            counts = []
            for call in (lambda: c.backward(lib.ones_like(c), create_graph=True),
                         lambda: c.backward(lib.ones_like(c), create_graph=True),
                         lambda: lib.autograd.grad(c, b, lib.ones_like(c), create_graph=True)):
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    call()
                counts.append(sum("create_graph=True" in str(w.message) for w in caught))
                b.grad = None
            on = lib.is_warn_always_enabled()
        finally:
            lib.set_warn_always(before)
        return before, on, counts, lib.is_warn_always_enabled()

    assert run(ag) == run(torch_oracle) == (False, True, [1, 1, 0], False)


@pytest.mark.parametrize("returned", ["grad", "number"])
def test_post_accumulate_grad_hook_must_return_none(torch_oracle, returned):
    def run(lib):
        t = lib.ones(2, requires_grad=True)
        t.register_post_accumulate_grad_hook(lambda x: x.grad if returned == "grad" else 3)
        return outcome(lambda: t.sum().backward()), t.grad.tolist()

    assert run(ag) == run(torch_oracle)
    assert run(ag)[0].startswith("RuntimeError" if returned == "grad" else "TypeError")


def test_data_of_a_tensor_that_requires_grad_must_stay_floating(torch_oracle):
    def run(lib):
        a = lib.tensor(1.0, requires_grad=True)
        plain = lib.tensor(1.0)
        seen = []
        for new in (lib.tensor(3), lib.tensor([1.0, 2.0]), lib.tensor(2.0, dtype=lib.float64)):
            def assign(value=new):
                a.data = value
                return a
            seen.append(outcome(assign))

        def assign_plain():
            plain.data = lib.tensor(3)
            return plain
        seen.append(outcome(assign_plain))
        return seen

    assert run(ag) == run(torch_oracle)


def test_a_leaf_keeps_its_accumulate_grad_metadata_until_data_changes_type(torch_oracle):
    # A leaf's AccumulateGrad records the leaf's shape and dtype when it is made; the gradient
    # for the leaf is checked against them. New data of another shape keeps that node (while
    # a graph holds it), so the check fails; new data of another dtype gets a new node.
    def run(lib):
        seen = []
        x = lib.ones(2, requires_grad=True)
        kept = x * 2  # holds x's AccumulateGrad
        x.data = lib.ones(3)
        seen.append(outcome(lambda: (x * 3).sum().backward()))
        y = lib.ones(2, requires_grad=True)
        kept = y * 2
        y.data = lib.ones(2, dtype=lib.float64)
        (y * 3).sum().backward()
        seen.append((str(y.grad.dtype), y.grad.tolist(), kept.grad_fn.next_functions[0][0]
                     is (y * 1).grad_fn.next_functions[0][0]))
        z = lib.ones(2, requires_grad=True)
        z.data = lib.ones(3)  # no graph holds its AccumulateGrad: a new one, of shape (3,)
        (z * 3).sum().backward()
        seen.append(z.grad.tolist())
        return seen

    assert run(ag) == run(torch_oracle)


# --- anomaly mode when warnings are errors ----------------------------------------------------
def test_anomaly_report_goes_to_stderr_when_warnings_are_errors(torch_oracle, capsys):
    """The node's own error is raised; its 'Error detected in ...' report, which cannot be a
    warning then, is printed to stderr."""
    def run(lib):
        with warnings.catch_warnings(record=True) as caught:
            with lib.autograd.detect_anomaly():
                warnings.simplefilter("error")
                a = lib.ones(3, requires_grad=True)
                d1 = a + 1
                d2 = d1 ** 2
                d1 += 1
                try:
                    lib.autograd.grad(d2.sum(), a)
                    error = "no error"
                except RuntimeError as err:  # (outcome() would ignore the warnings)
                    error = f"RuntimeError: {err}"
        printed = capsys.readouterr().err
        return (error.split(":")[0], "modified by an inplace operation" in error,
                [str(w.message)[:29] for w in caught],
                printed.startswith("UserWarning: Error detected in PowBackward0"))

    assert run(ag) == run(torch_oracle)
    assert run(ag)[3]


# --- mark_dirty on a tensor that is not an input ----------------------------------------------
def test_mark_dirty_on_a_new_tensor_warns(torch_oracle):
    """PyTorch warns (once per call) and goes on; the gradient is the backward's."""
    def run(lib):
        class Bad(lib.autograd.Function):
            @staticmethod
            def forward(ctx, a, b):
                c = 3 * a
                c.add_(b)
                ctx.mark_dirty(c)
                return c

            @staticmethod
            def backward(ctx, grad):
                return 3 * grad, grad

        a = lib.ones(2, requires_grad=True)
        b = lib.ones(2, requires_grad=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = Bad.apply(a.clone(), b)
        out.sum().backward()
        return ([(w.category.__name__, str(w.message).split(" (Triggered")[0]) for w in caught],
                a.grad.tolist(), b.grad.tolist())

    assert run(ag) == run(torch_oracle)
    assert len(run(ag)[0]) == 1


# --- ctx._materialize_non_diff_grads ----------------------------------------------------------
@pytest.mark.parametrize("materialize_non_diff", [None, False])
def test_materialize_non_diff_grads_switch(torch_oracle, materialize_non_diff):
    """By default backward gets zeros for every output no gradient reached, the ones marked
    non-differentiable and integer ones too; with the switch off, None for those two kinds
    (and still zeros for an unused differentiable output)."""
    def run(lib):
        seen = []

        class ThreeOut(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                if materialize_non_diff is not None:
                    ctx._materialize_non_diff_grads = materialize_non_diff
                marked = x.clone()
                ctx.mark_non_differentiable(marked)
                return x * 2, marked, x.long(), x * 3

            @staticmethod
            def backward(ctx, g0, g1, g2, g3):
                seen.extend(None if g is None else (g.tolist(), str(g.dtype)) for g in (g1, g2, g3))
                return 2 * g0 + 3 * g3

        a = lib.tensor([1.0, 2.0], requires_grad=True)
        ThreeOut.apply(a)[0].sum().backward()
        return seen, a.grad.tolist()

    assert run(ag) == run(torch_oracle)


# --- reentrant checkpoint refuses grad() and backward(inputs=) ----------------------------------
@pytest.mark.parametrize("how", ["grad", "inputs", "backward"])
def test_reentrant_checkpoint_needs_a_plain_backward(torch_oracle, how):
    """Its backward fills ``.grad`` through a nested backward, which grad() and backward(inputs=)
    could not see: PyTorch refuses them, and a plain backward still works after the refusal."""
    def run(lib):
        from importlib import import_module

        checkpoint = import_module(lib.__name__ + ".utils.checkpoint").checkpoint
        a = lib.tensor([[0.5, 1.0], [1.5, 2.0]], requires_grad=True)
        b = checkpoint(lib.exp, a, use_reentrant=True).sum()
        if how == "grad":
            first = outcome(lib.autograd.grad, b, (a,))
        elif how == "inputs":
            first = outcome(b.backward, inputs=(a,))
        else:
            first = outcome(b.backward)
        a.grad = None
        checkpoint(lib.exp, a, use_reentrant=True).sum().backward()
        return first, [round(v, 5) for row in a.grad.tolist() for v in row]

    assert run(ag) == run(torch_oracle)


# --- Function.clear_saved_tensors_on_access ---------------------------------------------------
def test_clear_saved_tensors_on_access(torch_oracle):
    """The first read of ctx.saved_tensors lets the ctx's references go (backward's variable is
    the only one left); a second read, in the same backward or a later one, is PyTorch's
    error. Without the flag a tensor can be read again."""
    import weakref

    def run(lib):
        seen = []

        def make(clear, read_twice):
            class Once(lib.autograd.Function):
                clear_saved_tensors_on_access = clear

                @staticmethod
                def forward(ctx, x):
                    ctx.save_for_backward(x)
                    return x * 2

                @staticmethod
                def backward(ctx, grad):
                    (x,) = ctx.saved_tensors
                    ref = weakref.ref(x)
                    del x
                    seen.append(ref() is None)
                    if read_twice:
                        seen.append(outcome(lambda: len(ctx.saved_tensors)))
                    return grad * 2

            return Once

        a = lib.ones(3, requires_grad=True)
        make(True, False).apply(a.clone()).sum().backward()
        seen.append(outcome(make(True, True).apply(a.clone()).sum().backward))
        y = make(True, False).apply(a.clone()).sum()
        y.backward(retain_graph=True)
        seen.append(outcome(y.backward))
        make(False, True).apply(a.clone()).sum().backward()
        return seen

    assert run(ag) == run(torch_oracle)


# --- SavedTensor from Python ---------------------------------------------------------------------
def test_saved_tensor_is_not_made_from_python(torch_oracle):
    def run(lib):
        return (outcome(lib.autograd.SavedTensor),
                lib.autograd.SavedTensor is _c(lib)._autograd.SavedTensor)

    assert run(ag) == run(torch_oracle)
    assert run(ag)[0].startswith("RuntimeError: Trying to create a SavedTensor")


def test_make_saved_tensor_packs_once_and_unpacks_each_time(torch_oracle):
    def run(lib):
        counts = {"pack": 0, "unpack": 0}

        def pack(t):
            counts["pack"] += 1
            return t

        def unpack(t):
            counts["unpack"] += 1
            return t

        a = lib.tensor([1.0, 2.0], requires_grad=True)
        seen = []
        with lib.autograd.graph.saved_tensors_hooks(pack, unpack):
            saved = _c(lib)._autograd._make_saved_tensor(a, is_output=False)
            seen.append(dict(counts))
            first = saved.unpack()
            second = saved.unpack()
            seen.append(dict(counts))
        plain = _c(lib)._autograd._make_saved_tensor(a, is_output=False).unpack()
        seen.append((first.tolist(), second.tolist(), first.requires_grad, plain is a))
        return seen

    assert run(ag) == run(torch_oracle)


# --- writing into an expanded tensor ------------------------------------------------------------
def test_writes_into_an_expanded_tensor(torch_oracle):
    """A write whose target has no repeated element (one element, a row of distinct elements)
    goes to the shared memory, so every repeat shows it; a write whose target repeats an
    element (the whole tensor, a slice along the expanded dimension) is PyTorch's error."""
    def run(lib):
        seen = []
        g = lib.ones(1).clone().expand(4)

        def put(t, key, value):
            def write():
                t[key] = value
                return t.tolist()
            return outcome(write)

        seen.append(put(g, 0, 0.0))

        def divide_one():
            part = g[1]
            part /= 0  # then g[1] = part, as Python runs it
            g[1] = part
            return g.tolist()

        seen.append(outcome(divide_one))
        seen.append(outcome(lambda: g.add_(1)))
        seen.append(put(g, slice(0, 2), 5.0))
        h = lib.zeros(2, 1).expand(2, 3)
        seen.append(put(h, (0,), 1.0))
        seen.append(put(h, (slice(None), 0), 7.0))
        e = lib.ones(3).expand(2, 3)
        seen.append(outcome(lambda: e[0].mul_(2).tolist()))
        seen.append(e.tolist())
        return seen

    assert run(ag) == run(torch_oracle)


# --- saved-tensor hooks entered or left inside backward end with the pass ----------------------
@pytest.mark.parametrize("inside", ["enter", "exit"])
def test_hooks_context_changed_inside_backward_ends_with_the_pass(torch_oracle, inside):
    """An unpack hook that enters (or leaves) a hooks context changes only what the backward
    pass running it sees: after it, the caller's active hooks are what they were."""
    def run(lib):
        graph = lib.autograd.graph
        log = []

        def tagged(tag):
            return graph.saved_tensors_hooks(lambda t: (log.append(tag), t)[1], lambda t: t)

        outer, extra = tagged("outer"), tagged("extra")

        def unpack(t):
            if inside == "enter":
                extra.__enter__()
            else:
                changer.__exit__(None, None, None)
            return t

        changer = graph.saved_tensors_hooks(lambda t: (log.append("changer"), t)[1], unpack)
        x = lib.ones(2, requires_grad=True)
        with outer:
            changer.__enter__()
            x.sin().sum().backward()
            log.append("after backward")
            x.exp()  # packed by the hooks active now
            changer.__exit__(None, None, None)
            x.cos()
        return log

    assert run(ag) == run(torch_oracle)
