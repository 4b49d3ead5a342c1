"""``inference_mode`` against torch: the switches and how they nest, inference tensors (made
in the mode, views of them) and every check PyTorch makes on them, what the mode records
(nothing), and a module's ``eval()`` beside ``no_grad`` and ``inference_mode``.

Each case runs the same code with ``m`` as ``torch`` and as ``autograd_course``; errors are
compared by type and message.
"""

from __future__ import annotations

import numpy as np
import pytest
from oracle_helpers import assert_like_torch, observe

import autograd_course as ag

ENABLED = "is_inference_mode_enabled"


def _switches(m):
    return [m.is_inference_mode_enabled(), m.is_grad_enabled()]


def _inference(m, requires_grad=False):
    """A tensor made in inference mode, used afterwards."""
    with m.inference_mode():
        return m.arange(3.0, requires_grad=requires_grad)


class Square:
    """The same custom Function for both libraries: saves its input."""

    def __new__(cls, m):
        class Sq(m.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                ctx.save_for_backward(a)
                return a * a

            @staticmethod
            def backward(ctx, grad):
                (a,) = ctx.saved_tensors
                return 2 * a * grad

        return Sq


@pytest.fixture(autouse=True)
def _needs_torch(torch_oracle):
    """Every case compares with torch."""


# --- the switches ------------------------------------------------------------------------
def test_the_mode_and_grad_mode_inside_and_after():
    def run(m):
        seen = [_switches(m)]
        with m.inference_mode():
            seen.append(_switches(m))
            with m.inference_mode(False):
                seen.append(_switches(m))
            with m.inference_mode():
                seen.append(_switches(m))
            seen.append(_switches(m))
        seen.append(_switches(m))
        return seen

    assert_like_torch(run)


def test_enable_grad_and_set_grad_enabled_inside_inference_mode():
    def run(m):
        seen = []
        with m.inference_mode():
            with m.enable_grad():
                seen.append(_switches(m))
            with m.set_grad_enabled(True):
                seen.append(_switches(m))
            with m.set_grad_enabled(False):
                seen.append(_switches(m))
            seen.append(_switches(m))
        return seen + [_switches(m)]

    assert_like_torch(run)


def test_inference_mode_inside_no_grad_and_no_grad_inside_inference_mode():
    def run(m):
        seen = []
        with m.no_grad():
            with m.inference_mode():
                seen.append(_switches(m))
            seen.append(_switches(m))
            with m.inference_mode(False):  # turns grad mode on, as PyTorch's
                seen.append(_switches(m))
            seen.append(_switches(m))
        with m.inference_mode():
            with m.no_grad():
                seen.append(_switches(m))
        return seen + [_switches(m)]

    assert_like_torch(run)


@pytest.mark.parametrize("spelling", ["bare", "called", "off"])
def test_as_a_decorator(spelling):
    def run(m):
        def body(x):
            return [x * 2, (x * 2).is_inference(), (x * 2).requires_grad] + _switches(m)

        deco = {"bare": m.inference_mode, "called": m.inference_mode(),
                "off": m.inference_mode(False)}[spelling]
        f = deco(body)
        x = m.ones(2, requires_grad=True)
        with m.inference_mode():
            inside = f(x)
        return [f(x), inside, _switches(m)]

    assert_like_torch(run)


def test_on_a_generator_function_each_step_runs_in_the_mode():
    def run(m):
        @m.inference_mode()
        def steps():
            yield _switches(m)
            yield _switches(m)

        it = steps()
        return [next(it), _switches(m), next(it), _switches(m)]

    assert_like_torch(run)


# --- inference tensors -------------------------------------------------------------------
def test_tensors_made_inside_are_inference_tensors():
    def run(m):
        x = m.ones(3, requires_grad=True)
        with m.inference_mode():
            made = [m.zeros(2), x * 2, x.exp(), x.clone(), x.sum(), m.tensor([1.0])]
            normal_view_or_alias = [x[:2], x.view(3), x.detach(), x.data]
        return ([[t.is_inference(), t.requires_grad, t.grad_fn is None] for t in made]
                + [[t.is_inference(), t.grad_fn is None] for t in normal_view_or_alias]
                + [x.is_inference()])

    assert_like_torch(run)


@pytest.mark.parametrize("read", ["own", "view inside", "view outside"])
def test_an_inference_tensor_has_no_version_counter(read):
    def run(m):
        y = _inference(m)
        with m.inference_mode():
            inside = y[:2]
        t = {"own": y, "view inside": inside, "view outside": y[1:]}[read]
        return [t.is_inference(), t._version]


def test_detach_and_data_keep_a_tensor_an_inference_tensor():
    def run(m):
        y = _inference(m)
        with m.inference_mode():
            alias = [y.detach(), y.data]
        return [[t.is_inference(), t.requires_grad] for t in alias + [y.detach(), y.data]]

    assert_like_torch(run)


def test_a_view_of_an_inference_tensor_is_one_and_not_a_view_to_autograd():
    def run(m):
        y = _inference(m)
        return [y[:1].is_inference(), y[:1]._base is None, y.view(3).is_inference(),
                (y * 2).is_inference(), m.ones_like(y).is_inference()]

    assert_like_torch(run)


def test_a_normal_tensors_view_made_inside_stays_normal_and_counts_versions():
    def run(m):
        x = m.ones(3)
        with m.inference_mode():
            v = x[:2]
            v.add_(1)  # an in-place write into a normal tensor in the mode: allowed, counted
            inside = [v.is_inference(), v._base is x, x._version]
        return inside + [x._version, x, v]

    assert_like_torch(run)


def test_writing_outside_into_a_view_made_inside_is_refused():
    def run(m):
        x = m.ones(3, requires_grad=True)
        with m.inference_mode():
            v = x[:2]
        return v.add_(1)

    assert_like_torch(run)


# --- using an inference tensor outside the mode --------------------------------------------
IN_PLACE = {
    "add_": lambda m, y: y.add_(1),
    "add_ tensor": lambda m, y: y.add_(m.ones(3)),
    "sub_": lambda m, y: y.sub_(1),
    "mul_": lambda m, y: y.mul_(2),
    "div_": lambda m, y: y.div_(2),
    "pow_": lambda m, y: y.pow_(2),
    "exp_": lambda m, y: y.exp_(),
    "relu_": lambda m, y: y.relu_(),
    "clamp_": lambda m, y: y.clamp_(0, 1),
    "zero_": lambda m, y: y.zero_(),
    "fill_": lambda m, y: y.fill_(5),
    "copy_": lambda m, y: y.copy_(m.ones(3)),
    "+=": lambda m, y: y.__iadd__(1),
    "y[0] = v": lambda m, y: y.__setitem__(0, 7.0),
    "y[0] = tensor": lambda m, y: y.__setitem__(0, m.tensor(7.0)),
    "y[[0, 1]] = v": lambda m, y: y.__setitem__([0, 1], 7.0),
    "y[mask] = v": lambda m, y: y.__setitem__(m.tensor([True, False, True]), 7.0),
    "view add_": lambda m, y: y[:2].add_(1),
}


@pytest.mark.parametrize("requires_grad", [False, True], ids=["plain", "requires grad"])
@pytest.mark.parametrize("op", IN_PLACE)
def test_an_in_place_change_outside_the_mode_is_refused(op, requires_grad):
    """Refused after the write, as PyTorch's version bump refuses it; or before, by the leaf
    check, where PyTorch's autograd layer sees the op (a normal operand, a number it wraps)."""
    def run(m):
        y = _inference(m, requires_grad)
        observed = observe(m, lambda m: IN_PLACE[op](m, y))[0]
        return [list(observed), y.detach()]

    assert_like_torch(run)


@pytest.mark.parametrize("op", ["add_", "exp_", "y[0] = v", "copy_"])
def test_an_in_place_change_under_no_grad_is_refused_and_inside_the_mode_allowed(op):
    def run(m):
        y = _inference(m)
        with m.no_grad():
            refused = list(observe(m, lambda m: IN_PLACE[op](m, y))[0])
        with m.inference_mode():
            IN_PLACE[op](m, y)
        return [refused, y, y.is_inference()]

    assert_like_torch(run)


@pytest.mark.parametrize("how", ["requires_grad_()", "requires_grad = True", "no_grad"])
def test_requiring_grad_outside_the_mode_is_refused(how):
    def run(m):
        y = _inference(m)
        if how == "requires_grad_()":
            y.requires_grad_()
        elif how == "requires_grad = True":
            y.requires_grad = True
        else:
            with m.no_grad():
                y.requires_grad_()
        return y

    assert_like_torch(run)


def test_requiring_grad_inside_the_mode_and_dropping_it_outside_are_allowed():
    def run(m):
        w = _inference(m, requires_grad=True)
        with m.inference_mode():
            u = m.ones(2)
            u.requires_grad_()
        seen = [w.requires_grad, w.is_leaf, w.is_inference(), u.requires_grad]
        w.requires_grad_(False)
        return seen + [w.requires_grad, w.is_inference()]

    assert_like_torch(run)


@pytest.mark.parametrize("case", ["x * y", "y * x", "x.exp() * y", "x @ y", "custom"])
def test_saving_one_for_backward_is_refused(case):
    def run(m):
        x, y = m.ones(3, requires_grad=True), _inference(m)
        if case == "custom":
            return Square(m).apply(_inference(m, requires_grad=True))
        return {"x * y": lambda: x * y, "y * x": lambda: y * x,
                "x.exp() * y": lambda: x.exp() * y, "x @ y": lambda: x @ y}[case]()

    assert_like_torch(run)


def test_an_op_that_saves_nothing_of_it_is_recorded():
    def run(m):
        x, y = m.ones(3, requires_grad=True), _inference(m)
        out = x + y
        out.sum().backward()
        return [type(out.grad_fn).__name__, x.grad, out.is_inference()]

    assert_like_torch(run)


def test_ops_on_inference_tensors_alone_are_not_recorded():
    """PyTorch's autograd layer sees an op only through a normal tensor operand (a number
    that it wraps into a tensor counts): w * w is not recorded, w * 2 is."""
    def run(m):
        w = _inference(m, requires_grad=True)
        not_recorded = [w * w, w.exp(), w.sum(), w[0], w.clamp(0, 1)]
        seen = [[t.requires_grad, t.grad_fn is None, t.is_inference()] for t in not_recorded]
        (w * 2 + 1).sum().backward()
        return seen + [w.grad, w.grad.is_inference()]

    assert_like_torch(run)


def test_grad_of_an_inference_tensor():
    def run(m):
        u = _inference(m)
        before = u.grad
        u.grad = m.zeros(3)
        return [before, u.grad, u.grad.is_inference()]

    assert_like_torch(run)


# --- what the mode records: nothing ---------------------------------------------------------
@pytest.mark.parametrize("block", ["inference_mode", "inference_mode + enable_grad"])
def test_nothing_is_recorded_inside_even_under_enable_grad(block):
    def run(m):
        x = m.ones(3, requires_grad=True)
        with m.inference_mode():
            with m.enable_grad() if "enable" in block else m.no_grad():
                y = (x * 2).exp().sum()
                grad_enabled = m.is_grad_enabled()
        return [y, y.requires_grad, y.grad_fn is None, y.is_leaf, grad_enabled,
                observe(m, lambda m: y._version)[0][1]]

    assert_like_torch(run)


def test_a_custom_function_follows_grad_mode_alone():
    """A learner's Function is not dispatched: under enable_grad in inference mode it is
    recorded (its output is an inference tensor); under the mode alone it is not."""
    def run(m):
        x = m.ones(3, requires_grad=True)

        class Double(m.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                return a * 2

            @staticmethod
            def backward(ctx, grad):
                return grad * 2

        with m.inference_mode():
            off = Double.apply(x)
            with m.enable_grad():
                on = Double.apply(x)
        return [off.grad_fn is None, on.grad_fn is None, on.is_inference(), on.requires_grad]

    assert_like_torch(run)


def test_an_in_place_write_into_a_leaf_that_requires_grad_is_allowed_inside():
    def run(m):
        x = m.ones(3, requires_grad=True)
        with m.inference_mode():
            x.add_(1)
            with m.enable_grad():
                x.mul_(2)
            version = x._version
        return [x, x.grad_fn is None, x.requires_grad, version]

    assert_like_torch(run)


def test_an_op_inside_allocates_no_version_counter_and_no_node():
    with ag.inference_mode():
        y = ag.ones(3, requires_grad=True) * 2
    assert y.grad_fn is None and y._version_counter is None


# --- eval() versus no_grad versus inference_mode on a module ---------------------------------
def _model(m):
    m.manual_seed(0)
    net = m.nn.Sequential(m.nn.Linear(4, 3), m.nn.BatchNorm1d(3), m.nn.Dropout(0.5))
    weight = np.linspace(-1.0, 1.0, 12, dtype=np.float32).reshape(3, 4)
    with m.no_grad():
        net[0].weight.copy_(m.tensor(weight))
        net[0].bias.copy_(m.tensor([0.1, -0.2, 0.3]))
    return net


BATCH = np.arange(20, dtype=np.float32).reshape(5, 4) / 10


@pytest.mark.parametrize("block", ["plain", "no_grad", "inference_mode"])
def test_eval_changes_the_layers_and_the_block_changes_the_recording(block):
    """eval(): BatchNorm uses its running statistics and Dropout is the identity; no_grad and
    inference_mode only stop the recording (the layers behave as in the mode they are in)."""
    def run(m):
        net = _model(m)
        x = m.tensor(BATCH)
        seen = []
        for train in (True, False):
            net.train(train)
            with {"plain": m.enable_grad, "no_grad": m.no_grad,
                  "inference_mode": m.inference_mode}[block]():
                out = net(x)
            bn = net[1]
            dropped = bool((out == 0).any()) if train else None  # (the draws differ)
            seen.append([None if train else out, dropped, out.requires_grad,
                         out.grad_fn is None, out.is_inference(), bn.running_mean,
                         bn.running_var, bn.num_batches_tracked])
        return seen

    assert_like_torch(run, rtol=1e-5, atol=1e-6)


def test_eval_alone_still_records():
    def run(m):
        net = _model(m).eval()
        out = net(m.tensor(BATCH))
        out.sum().backward()
        return [out, type(out.grad_fn).__name__, net[0].weight.grad]

    assert_like_torch(run, rtol=1e-5, atol=1e-6)


def test_the_running_statistics_updated_in_inference_mode_stay_normal_tensors():
    def run(m):
        net = _model(m)
        with m.inference_mode():
            net(m.tensor(BATCH))
        bn = net[1]
        bn.running_mean.add_(1)  # a normal buffer: changed in place outside the mode
        return [bn.running_mean.is_inference(), bn.running_mean, bn.running_mean._version]

    assert_like_torch(run, rtol=1e-5, atol=1e-6)
