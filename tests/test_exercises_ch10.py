"""The exercise checkers of chapter 10: each accepts a correct answer, hears the placeholder as
not attempted, and gives each of its hints to a wrong answer that earns it (every hint key of
``ch10`` is given by some case below: ``test_every_hint_is_tested``)."""

from __future__ import annotations

import ast
import re
import warnings
from pathlib import Path

import pytest
from exercise_helpers import assert_correct, assert_hint, assert_not_attempted

import autograd_course as ag
from autograd_course.course.exercises import ch10
from autograd_course.course.exercises.messages_en import MESSAGES

TESTED: set[str] = set()


def _hint(key: str) -> str:
    """The fixed part of a hint: its text up to the first placeholder."""
    TESTED.add(key)
    return MESSAGES[key].split("{")[0]


def _todo(*args):
    raise NotImplementedError


def _dots(*args):
    ...


# --- correct answers, as a learner would write them ----------------------------------------------
def clamp_incoming(node):
    return node.register_prehook(lambda grads: tuple(g.clamp(-1, 1) for g in grads))


def saved_bytes(fn, *inputs):
    total = 0

    def pack(t):
        nonlocal total
        total += t.numel() * t.element_size()
        return t

    with ag.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        fn(*inputs)
    return total


def run_blocks(blocks, x, *, reentrant=False, every=1):
    h = x
    for i, block in enumerate(blocks):
        if i % every == 0:
            h = ag.utils.checkpoint.checkpoint(block, h, use_reentrant=reentrant)
        else:
            h = block(h)
    return h


def nan_source(loss):
    try:
        with ag.autograd.detect_anomaly():
            loss.backward()
    except RuntimeError as err:
        return str(err).split("'")[1]
    return None


def hvp_by_hand(f, x, v, *, create_graph=True, detach=False):
    (g,) = ag.autograd.grad(f(x), x, create_graph=create_graph)
    if detach:
        g = g.detach()
    (hv,) = ag.autograd.grad((g * v).sum(), x)
    return hv


def gradient_penalty(critic, x, *, create_graph=True, detach=False, rows=True, mean=True):
    (g,) = ag.autograd.grad(critic(x).sum(), x, create_graph=create_graph)
    if detach:
        g = g.detach()
    norms = g.norm(dim=1) if rows else g.norm()
    penalty = (norms - 1) ** 2
    return penalty.mean() if mean else penalty


def penalty_by_backward(critic, x):
    """x.grad from backward(create_graph=True) is part of a graph too (PyTorch warns)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        critic(x).sum().backward(create_graph=True)
    return ((x.grad.norm(dim=1) - 1) ** 2).mean()


def half_detached(critic, x):
    """The right value, but one factor of the square cut from the graph."""
    (g,) = ag.autograd.grad(critic(x).sum(), x, create_graph=True)
    n = g.norm(dim=1)
    return ((n.detach() - 1) * (n - 1)).mean()


CORRECT = {ch10.check_clamp_prehook: clamp_incoming, ch10.check_saved_bytes: saved_bytes,
           ch10.check_checkpoint_blocks: run_blocks, ch10.check_nan_source: nan_source,
           ch10.check_hvp: hvp_by_hand, ch10.check_gradient_penalty: gradient_penalty}


@pytest.mark.parametrize("check", list(CORRECT), ids=lambda c: c.__name__)
def test_correct_answers_and_placeholders(capsys, check):
    assert_correct(capsys, check, CORRECT[check])
    assert_not_attempted(capsys, check, ...)
    assert_not_attempted(capsys, check, _todo)
    assert_not_attempted(capsys, check, _dots)


# --- wrong answers, one per hint ----------------------------------------------------------------
class _NoRemove:
    def remove(self):
        pass


def _posthook(node):
    return node.register_hook(lambda grad_inputs, grad_outputs: tuple(
        None if g is None else g.clamp(-1, 1) for g in grad_inputs))


def _counting(what):
    def answer(fn, *inputs):
        found = []
        with ag.autograd.graph.saved_tensors_hooks(lambda t: found.append(t) or t, lambda t: t):
            fn(*inputs)
        return sum(what(t) for t in found)
    return answer


def _packing_nothing(fn, *inputs):
    """Adds up the right bytes, but its pack hook returns None: backward gets nothing back."""
    found = []
    with ag.autograd.graph.saved_tensors_hooks(lambda t: found.append(t), lambda t: t):
        fn(*inputs)
    return sum(t.numel() * t.element_size() for t in found)


def _message(loss):
    try:
        with ag.autograd.detect_anomaly():
            loss.backward()
    except RuntimeError as err:
        return str(err)
    return None


WRONG = [
    (ch10.check_clamp_prehook,
     lambda node: node.register_prehook(lambda grads: [g.clamp(-1, 1) for g in grads]),
     "ch10.clamp.tuple"),
    (ch10.check_clamp_prehook, lambda node: node.register_prehook(lambda grads: None),
     "ch10.clamp.unchanged"),
    (ch10.check_clamp_prehook, lambda node: node.register_prehook(lambda g: (None,) * len(g)),
     "ch10.clamp.no_grad"),
    (ch10.check_clamp_prehook, _posthook, "ch10.clamp.posthook"),
    (ch10.check_clamp_prehook,
     lambda node: node.register_prehook(lambda grads: tuple(g.clamp(-2, 2) for g in grads)),
     "ch10.clamp.name"),
    (ch10.check_clamp_prehook, lambda node: clamp_incoming(node) and None, "ch10.clamp.handle"),
    (ch10.check_clamp_prehook, lambda node: clamp_incoming(node) and _NoRemove(),
     "ch10.clamp.removed"),
    (ch10.check_saved_bytes, lambda fn, *inputs: fn(*inputs) and None, "ch10.bytes.none"),
    (ch10.check_saved_bytes, lambda fn, *inputs: float(saved_bytes(fn, *inputs)),
     "ch10.bytes.type"),
    (ch10.check_saved_bytes, lambda fn, *inputs: fn(*inputs) and 0, "ch10.bytes.zero"),
    (ch10.check_saved_bytes, _counting(lambda t: 1), "ch10.bytes.count"),
    (ch10.check_saved_bytes, _counting(lambda t: t.numel()), "ch10.bytes.elements"),
    (ch10.check_saved_bytes, _counting(lambda t: 4 * t.numel()), "ch10.bytes.wrong"),
    (ch10.check_saved_bytes, _packing_nothing, "ch10.bytes.pack_none"),
    (ch10.check_checkpoint_blocks,
     lambda blocks, x: run_blocks(blocks, x, reentrant=None), "ch10.ckpt.reentrant"),
    (ch10.check_checkpoint_blocks,
     lambda blocks, x: run_blocks(blocks, x, reentrant=True), "ch10.ckpt.reentrant"),
    (ch10.check_checkpoint_blocks, lambda blocks, x: ag.nn.Sequential(*blocks)(x),
     "ch10.ckpt.nothing"),
    (ch10.check_checkpoint_blocks, lambda blocks, x: run_blocks(blocks, x, every=2),
     "ch10.ckpt.some"),
    (ch10.check_checkpoint_blocks, lambda blocks, x: run_blocks(blocks, x) * 2,
     "ch10.ckpt.output"),
    (ch10.check_checkpoint_blocks, lambda blocks, x: run_blocks(blocks, x.detach()),
     "ch10.ckpt.gradient"),
    (ch10.check_checkpoint_blocks,
     lambda blocks, x: (blocks[0](x), run_blocks(blocks, x))[1], "ch10.ckpt.calls"),
    (ch10.check_nan_source, lambda loss: loss.backward(), "ch10.nan.none"),
    (ch10.check_nan_source, lambda loss: [nan_source(loss)], "ch10.nan.type"),
    (ch10.check_nan_source, _message, "ch10.nan.message"),
    (ch10.check_nan_source, lambda loss: loss.grad_fn.name(), "ch10.nan.root"),
    (ch10.check_nan_source, lambda loss: nan_source(loss)[:-1], "ch10.nan.wrong"),
    (ch10.check_hvp, lambda f, x, v: hvp_by_hand(f, x, v, create_graph=False),
     "ch10.hvp.create_graph"),
    (ch10.check_hvp, lambda f, x, v: ag.autograd.functional.hvp(f, x, v), "ch10.hvp.pair"),
    (ch10.check_hvp, lambda f, x, v: ag.autograd.grad(f(x), x)[0], "ch10.hvp.gradient"),
    (ch10.check_hvp, lambda f, x, v: 2 * hvp_by_hand(f, x, v), "ch10.hvp.name"),
    (ch10.check_hvp, lambda f, x, v: hvp_by_hand(f, x, ag.ones_like(v)), "ch10.hvp.no_vector"),
    (ch10.check_hvp, lambda f, x, v: hvp_by_hand(f, x, v, detach=True), "ch10.hvp.detached"),
    (ch10.check_hvp, lambda f, x, v: hvp_by_hand(f, x.detach(), v), "ch10.hvp.x_no_grad"),
    (ch10.check_gradient_penalty, lambda c, x: gradient_penalty(c, x.detach()),
     "ch10.gp.x_no_grad"),
    (ch10.check_gradient_penalty, lambda c, x: gradient_penalty(c, x).item(), "ch10.gp.type"),
    (ch10.check_gradient_penalty, lambda c, x: gradient_penalty(c, x, mean=False),
     "ch10.gp.shape"),
    (ch10.check_gradient_penalty, lambda c, x: gradient_penalty(c, x, rows=False),
     "ch10.gp.rows"),
    (ch10.check_gradient_penalty, lambda c, x: gradient_penalty(c, x) * 2, "ch10.gp.value"),
    (ch10.check_gradient_penalty, lambda c, x: gradient_penalty(c, x, create_graph=False),
     "ch10.gp.create_graph"),
    (ch10.check_gradient_penalty, lambda c, x: gradient_penalty(c, x, detach=True),
     "ch10.gp.detached"),
    (ch10.check_gradient_penalty, lambda c, x: gradient_penalty(c, x).detach(),
     "ch10.gp.detached"),
    (ch10.check_gradient_penalty, half_detached, "ch10.gp.name"),
]


@pytest.mark.parametrize("check, answer, key", WRONG, ids=[k for _, _, k in WRONG])
def test_a_wrong_answer_gets_its_hint(capsys, check, answer, key):
    assert_hint(capsys, check, answer, _hint(key))


def test_every_hint_is_tested():
    source = Path(ch10.__file__).read_text(encoding="utf-8")
    keys = {node.value for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and re.fullmatch(r"ch10\.[a-z_.]+", node.value)}
    names = {k for k in keys if k.endswith((".name", ".output", ".gradient", ".removed"))}
    assert keys - names <= {k for _, _, k in WRONG}, sorted(keys - names - {k for _, _, k in WRONG})
    assert names <= {k for _, _, k in WRONG} | {"ch10.ckpt.gradient", "ch10.ckpt.output"}


def test_anomaly_mode_is_off_after_the_checker(capsys):
    def leaves_it_on(loss):
        ag.autograd.set_detect_anomaly(True)
        return nan_source(loss)

    assert_correct(capsys, ch10.check_nan_source, leaves_it_on)
    assert not ag.autograd.is_anomaly_enabled()


def test_a_penalty_through_backward_create_graph_is_accepted(capsys):
    assert_correct(capsys, ch10.check_gradient_penalty, penalty_by_backward)


def test_a_penalty_reaches_every_parameter_but_the_last_bias(torch_oracle):
    """The penalty's parameter gradient is a second derivative: without create_graph the
    input gradient has no graph; with it the penalty reaches every parameter except the last
    bias, which the input gradient does not depend on (the checker allows None there). The
    same in PyTorch."""
    seen = []
    for lib in (ag, torch_oracle):
        lib.manual_seed(0)
        critic = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.Tanh(), lib.nn.Linear(4, 1))
        x = lib.randn(5, 3, requires_grad=True)
        (plain,) = lib.autograd.grad(critic(x).sum(), x)
        (g,) = lib.autograd.grad(critic(x).sum(), x, create_graph=True)
        penalty = ((g.norm(dim=1) - 1) ** 2).mean()
        grads = lib.autograd.grad(penalty, list(critic.parameters()), allow_unused=True)
        seen.append((plain.requires_grad, [g is None for g in grads]))
    assert seen[0] == seen[1] == (False, [False, False, False, True])
