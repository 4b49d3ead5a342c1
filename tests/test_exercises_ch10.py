"""The exercise checkers of chapter 10: each accepts a correct answer, hears the placeholder as
not attempted, and gives each of its hints to a wrong answer that earns it (every hint key of
``ch10`` is given by some case below: ``test_every_hint_is_tested``)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from exercise_helpers import assert_correct, assert_hint, assert_not_attempted

import autograd_course as ag
from autograd_course.exercises import ch10
from autograd_course.exercises.messages_en import MESSAGES

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


def hvp_by_hand(f, x, v, *, create_graph=True):
    (g,) = ag.autograd.grad(f(x), x, create_graph=create_graph)
    (hv,) = ag.autograd.grad((g * v).sum(), x)
    return hv


CORRECT = {ch10.check_clamp_prehook: clamp_incoming, ch10.check_saved_bytes: saved_bytes,
           ch10.check_checkpoint_blocks: run_blocks, ch10.check_nan_source: nan_source,
           ch10.check_hvp: hvp_by_hand}


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
