"""The backward engine: long chains, memory, freed graphs, hooks, accumulation, ``grad``.

Memory tests turn the cyclic garbage collector off: a graph must be freed by reference
counting alone as soon as the user drops it, which is only true when there are no cycles.
"""

from __future__ import annotations

import gc
import random
import subprocess
import sys
import textwrap
import warnings
import weakref
from pathlib import Path

import pytest
from functions import identity

import autograd_course as ag

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def no_gc():
    """Only reference counting frees objects inside the test."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


# --- a 100,000-op chain ---------------------------------------------------------------------
CHAIN = textwrap.dedent("""
    import gc, sys
    import autograd_course as ag
    assert sys.getrecursionlimit() == 1000
    gc.collect()                 # count only what the graphs below leave, not import leftovers
    gc.disable()
    x = ag.tensor([1.0, 2.0], requires_grad=True)
    y = x
    for i in range(50_000):
        y = y * 1.0
        y = y + 1.0
    loss = y.sum()
    loss.backward()
    print(x.grad.tolist(), y.tolist())
    del y, loss                  # drop a used graph
    y = x
    for i in range(100_000):
        y = y * 1.0
    del y                        # and a graph nobody backwarded through
    print("freed", gc.collect())
""")


def test_100000_op_chain_backward_and_free_at_default_recursion_limit():
    """Runs in a fresh interpreter: a RecursionError while freeing is only *printed*, and a
    C stack overflow would take the test runner down with it."""
    done = subprocess.run([sys.executable, "-c", CHAIN], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout == "[1.0, 1.0] [50001.0, 50002.0]\nfreed 0\n"


# --- no reference cycles -------------------------------------------------------------------------
def _watch(*objects):
    return [weakref.ref(o) for o in objects]


def _alive(refs):
    return [r for r in refs if r() is not None]


def _graph(x):
    """Tensors, nodes and the arrays saved for backward of a small graph over leaf ``x``."""
    y = x.exp()          # saves its output
    z = y * x            # saves both inputs
    w = z.sin().sum()    # saves its input
    nodes = [y.grad_fn, z.grad_fn, w.grad_fn, w.grad_fn.next_functions[0][0]]
    nodes.append(z.grad_fn.next_functions[1][0])  # x's AccumulateGrad
    return y, z, w, _watch(y, z, w, y._data, z._data, *nodes)


def test_dropping_the_output_frees_the_whole_graph(no_gc):
    x = ag.tensor([1., 2.], requires_grad=True)
    y, z, w, refs = _graph(x)
    del y, z, w
    assert _alive(refs) == []


@pytest.mark.parametrize("backward", ["none", "once", "retain"])
def test_graph_is_freed_after_backward(no_gc, backward):
    x = ag.tensor([1., 2.], requires_grad=True)
    y, z, w, refs = _graph(x)
    y.retain_grad()
    z.register_hook(lambda g: g * 2)
    x.register_hook(lambda g: g)
    if backward != "none":
        w.backward(retain_graph=backward == "retain")
    del y, z, w
    assert _alive(refs) == []
    assert x.grad is not None or backward == "none"


def test_custom_function_saving_its_output_makes_no_cycle(no_gc):
    class Exp(ag.autograd.Function):
        @staticmethod
        def forward(ctx, t):
            out = t.exp()
            ctx.save_for_backward(out)
            return out

        @staticmethod
        def backward(ctx, grad):
            (out,) = ctx.saved_tensors
            return grad * out

    x = ag.tensor([0., 1.], requires_grad=True)
    y = Exp.apply(x)
    refs = _watch(y, y.grad_fn, y._data)
    y.sum().backward(retain_graph=True)
    assert x.grad.allclose(y.detach())
    del y
    assert _alive(refs) == []


def test_autograd_grad_with_create_graph_leaves_no_cycle(no_gc):
    x = ag.tensor(2., requires_grad=True)
    y = x**4
    (g,) = ag.autograd.grad(y, x, create_graph=True)
    refs = _watch(y, g, y.grad_fn, g.grad_fn)
    del y, g
    assert _alive(refs) == []


# --- saved tensors and freed graphs --------------------------------------------------------
def test_saved_tensors_are_freed_by_backward_unless_retained(no_gc):
    for retain in (False, True):
        x = ag.tensor([1., 2.], requires_grad=True)
        y = x.exp()
        loss = y.sum()
        saved = weakref.ref(y._data)
        del y  # now only ExpBackward0 holds the array
        loss.backward(retain_graph=retain)
        assert (saved() is not None) == retain
        assert loss.grad_fn is not None  # the graph itself is still there


def test_second_backward_through_freed_saved_tensors_fails():
    x = ag.tensor([1., 2.], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    with pytest.raises(RuntimeError, match="^Trying to backward through the graph a second "
                                           "time \\(or directly access saved tensors after they "
                                           "have already been freed\\)"):
        y.backward()
    assert repr(x.grad) == "tensor([2., 4.])"  # the failed call added nothing


def test_saved_tensors_cannot_be_read_after_backward():
    x = ag.tensor([1., 2.], requires_grad=True)
    y = x.exp()
    y.sum().backward()
    with pytest.raises(RuntimeError, match="^Trying to backward through the graph a second"):
        y.grad_fn.saved_tensors


def test_graph_without_saved_tensors_can_be_backwarded_twice():
    x = ag.tensor([1., 2.], requires_grad=True)
    y = (x + 2).sum()
    y.backward()
    y.backward()
    assert repr(x.grad) == "tensor([2., 2.])"


# --- accumulation ------------------------------------------------------------------------------
def test_grad_accumulates_in_place():
    x = ag.tensor([1., 2.], requires_grad=True)
    (x * 2).sum().backward()
    first = x.grad
    (x * 3).sum().backward()
    assert x.grad is first and repr(first) == "tensor([5., 5.])"
    x.grad = None
    (x * 3).sum().backward()
    assert x.grad is not first and repr(first) == "tensor([5., 5.])"


def test_leaf_grad_is_not_shared_with_the_caller():
    x = ag.tensor([1., 2.], requires_grad=True)
    seed = ag.tensor([1., 1.])
    (x + 0).backward(seed)
    x.grad.add_(1)
    assert repr(seed) == "tensor([1., 1.])"


def test_a_leaf_used_twice_gets_the_sum():
    x = ag.tensor(3., requires_grad=True)
    (x * x + x).backward()
    assert x.grad.item() == 7.0


# --- hooks and execution order ------------------------------------------------------------------
def _hooked_run(lib):
    log = []

    def note(name):
        return lambda g: log.append((name, g.tolist()))

    x = lib.tensor([1., 2.], requires_grad=True)
    x.register_hook(note("x1"))
    x.register_hook(lambda g: (log.append(("x2", g.tolist())), g * 10)[1])
    a, b = x * 2, x * 3
    a.register_hook(note("a"))
    b.register_hook(note("b"))
    b.retain_grad()
    b.register_hook(lambda g: g * 2)
    c = a + b
    c.register_hook(note("c"))
    c.sum().backward()
    p, q, r = x * 2, x.exp(), x.sin()
    for name, t in (("p", p), ("q", q), ("r", r)):
        t.register_hook(note(name))
    (r + p + q).sum().backward()
    u = x * 2
    v, w = u * 3, u * 4
    for name, t in (("u", u), ("v", v), ("w", w)):
        t.register_hook(note(name))
    (w + v).sum().backward()
    return [name for name, _ in log], log[:5], x.grad.tolist(), b.grad.tolist()


def test_hook_order_matches_pytorch():
    names, first, x_grad, b_grad = _hooked_run(ag)
    assert names[:5] == ["c", "b", "a", "x1", "x2"]
    assert first[3:] == [("x1", [8.0, 8.0]), ("x2", [8.0, 8.0])]
    assert b_grad == [2.0, 2.0]
    assert names[5:] == ["r", "q", "p", "x1", "x2", "w", "v", "u", "x1", "x2"]


def test_hook_order_against_torch(torch_oracle):
    ours, theirs = _hooked_run(ag), _hooked_run(torch_oracle)
    assert ours[:2] == theirs[:2] and ours[3] == theirs[3]
    assert ours[2] == pytest.approx(theirs[2])


def test_trace_sees_every_node_in_order():
    x = ag.tensor([1., 2.], requires_grad=True)
    loss = (x.exp() * 2).sum()
    seen = []
    with ag.autograd.trace(lambda node, gout, gin: seen.append(node.name())):
        loss.backward()
    assert seen == ["SumBackward0", "MulBackward0", "ExpBackward0",
                    "torch::autograd::AccumulateGrad"]


# --- backward(inputs=...) and autograd.grad ---------------------------------------------------
def test_backward_inputs_limits_accumulation():
    x = ag.tensor(1., requires_grad=True)
    y = ag.tensor(2., requires_grad=True)
    (x * y).backward(inputs=[x])
    assert x.grad.item() == 2.0 and y.grad is None


def test_grad_returns_gradients_without_touching_dot_grad():
    x = ag.tensor([1., 2.], requires_grad=True)
    y = ag.tensor([3., 4.], requires_grad=True)
    gx, gy = ag.autograd.grad((x * y).sum(), [x, y])
    assert (gx.tolist(), gy.tolist()) == ([3.0, 4.0], [1.0, 2.0])
    assert x.grad is None and y.grad is None
    assert gx.grad_fn is None


def test_grad_with_respect_to_an_intermediate():
    x = ag.tensor([1., 2.], requires_grad=True)
    h = x * 3
    (gh,) = ag.autograd.grad((h * h).sum(), h)
    assert gh.tolist() == [6.0, 12.0]


def test_grad_with_several_outputs_and_grad_outputs():
    x = ag.tensor([1., 2.], requires_grad=True)
    (g,) = ag.autograd.grad([x * 2, x * x], x, [ag.ones(2), ag.tensor([1., 10.])])
    assert g.tolist() == [4.0, 42.0]


def test_allow_unused_and_materialize_grads():
    x = ag.tensor([1., 2.], requires_grad=True)
    unused = ag.tensor([5.], requires_grad=True)
    with pytest.raises(RuntimeError, match="^The differentiated Tensor at index 1 appears to not "
                                           "have been used in the graph"):
        ag.autograd.grad((x * 2).sum(), [x, unused])
    assert ag.autograd.grad((x * 2).sum(), [x, unused], allow_unused=True)[1] is None
    zeros = ag.autograd.grad((x * 2).sum(), [x, unused], materialize_grads=True)[1]
    assert repr(zeros) == "tensor([0.])"


def test_grad_of_input_without_grad_is_refused():
    with pytest.raises(RuntimeError, match="^One of the differentiated Tensors does not require "
                                           "grad$"):
        ag.autograd.grad(ag.tensor(1., requires_grad=True) * 2, ag.tensor(1.))


def test_higher_order_derivatives_of_x_to_the_4th():
    x = ag.tensor(2., requires_grad=True)
    d = x**4
    values = []
    for _ in range(4):
        (d,) = ag.autograd.grad(d, x, create_graph=True)
        values.append(d.item())
    assert values == [32.0, 48.0, 48.0, 24.0]


def test_create_graph_records_a_differentiable_gradient():
    x = ag.tensor([1., 2.], requires_grad=True)
    (g,) = ag.autograd.grad((x**3).sum(), x, create_graph=True)
    assert repr(g) == "tensor([ 3., 12.], grad_fn=<MulBackward0>)"
    g.sum().backward()
    assert repr(x.grad) == "tensor([ 6., 12.])"


def test_backward_create_graph_warns_and_records():
    x = ag.tensor(2., requires_grad=True)
    message = ("Using backward() with create_graph=True will create a reference cycle between "
               "the parameter and its gradient which can cause a memory leak. We recommend using "
               "autograd.grad when creating the graph to avoid this. If you have to use this "
               "function, make sure to reset the .grad fields of your parameters to None after "
               "use to break the cycle and avoid the leak.")
    ag._messages._WARNED.discard(message)  # as in a fresh process
    with pytest.warns(UserWarning) as caught:
        (x**3).backward(create_graph=True)
    assert [str(w.message) for w in caught] == [message]
    assert repr(x.grad) == "tensor(12., grad_fn=<CopyBackwards>)"
    with warnings.catch_warnings():  # PyTorch warns once per process (TORCH_WARN_ONCE)
        warnings.simplefilter("error")
        (x**3).backward(create_graph=True)
    assert repr(x.grad) == "tensor(24., grad_fn=<AddBackward0>)"
    (gg,) = ag.autograd.grad(x.grad, x)
    assert gg.item() == 24.0  # d/dx (3x² + 3x²) = 12x


def test_grad_mode_is_restored_after_a_failing_backward():
    def backward(ctx, grad):
        raise ValueError("boom")

    Broken = identity(ag, backward, name="Broken")

    x = ag.tensor(1., requires_grad=True)
    with pytest.raises(ValueError, match="boom"):
        Broken.apply(x).backward()
    assert ag.is_grad_enabled()


def _hooks_and_capture(lib):
    x = lib.tensor([1., 2.], requires_grad=True)
    x.register_hook(lambda g: g * 10)
    seen = [lib.autograd.grad((x * 2).sum(), x)[0].tolist()]
    h = x * 1
    h.register_hook(lambda g: g * 100)
    seen.append(lib.autograd.grad((h * 2).sum(), h)[0].tolist())
    # grad() stopped at h: h's own node did not run, so its graph can still be used
    seen.append(lib.autograd.grad((h * 2).sum(), x)[0].tolist())
    y = lib.tensor([1., 2.], requires_grad=True)
    k = y * 3
    (k * k).sum().backward(inputs=[k])
    seen += [k.grad.tolist(), y.grad, k.retains_grad]
    return seen


HOOKS_AND_CAPTURE = [[20.0, 20.0], [200.0, 200.0], [2000.0, 2000.0], [6.0, 12.0], None, True]


def test_hooks_apply_to_captured_gradients():
    assert _hooks_and_capture(ag) == HOOKS_AND_CAPTURE


def test_hooks_apply_to_captured_gradients_like_torch(torch_oracle):
    assert _hooks_and_capture(ag) == _hooks_and_capture(torch_oracle)


def test_grad_runs_only_the_nodes_it_needs(no_gc):
    x = ag.tensor([1., 2.], requires_grad=True)
    side = x.exp()             # a branch that does not lead to the input asked for
    h = x * 3
    loss = (h * h).sum() + side.sum()
    runs = []
    with ag.autograd.trace(lambda node, gout, gin: runs.append(node.name())):
        ag.autograd.grad(loss, h)
    assert "ExpBackward0" not in runs and "MulBackward0" in runs
    assert side.grad_fn.saved_tensors[0] is not None  # not freed: it never ran


def _random_graph_hook_order(lib, seed: int):
    """Build a random graph (leaves, binary and unary ops, leaves summed directly into the
    loss), hook every tensor, run backward and return the order in which the hooks fired."""
    rng = random.Random(seed)
    log = []

    def note(name):
        return lambda g: log.append(name)

    pool = []
    for i in range(rng.randint(1, 4)):
        t = lib.tensor([1.0 + i, 0.5], requires_grad=True)
        t.register_hook(note(f"leaf{i}"))
        pool.append(t)
    for k in range(rng.randint(1, 8)):
        kind = rng.choice(["mul", "add", "exp", "sin", "scale"])
        a, b = rng.choice(pool), rng.choice(pool)
        if kind == "mul":
            t = a * b
        elif kind == "add":
            t = a + b
        elif kind == "exp":
            t = (a * 0.1).exp()
        else:
            t = a.sin() if kind == "sin" else a * 2
        t.register_hook(note(f"t{k}"))
        pool.append(t)
    loss = sum(rng.sample(pool, rng.randint(1, len(pool))))
    loss.sum().backward()
    return log


def test_execution_order_is_pytorchs_on_random_graphs(torch_oracle):
    """Newest ready node first, leaves' AccumulateGrad as soon as ready: same hook order."""
    for seed in range(300):
        assert _random_graph_hook_order(ag, seed) == \
            _random_graph_hook_order(torch_oracle, seed), seed


def test_number_of_gradients_must_match_the_outputs():
    x = ag.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="^got 2 tensors and 1 gradients$"):
        ag.autograd.backward([x * 2, x * 3], [ag.ones(2)])
    with pytest.raises(RuntimeError, match="^got 2 tensors and 1 gradients$"):
        ag.autograd.grad([x * 2, x * 3], x, [ag.ones(2)])
    ag.autograd.backward([x * 2, x * 3], [ag.ones(2), ag.ones(2)])
    assert x.grad.tolist() == [5.0, 5.0]
