"""Chapter 12's checkers: a correct answer passes, a placeholder is "not attempted yet", and
each hint is given for the one slip it describes — one wrong answer per hint, each made from a
correct answer by that slip."""

from __future__ import annotations

import math

import pytest

import autograd_course as ag
from autograd_course.course import i18n
from autograd_course.course.exercises import ch12
from autograd_course.course.exercises.messages_en import MESSAGES as EN

EXACT = {"linear": 1.0, "sigmoid": 1.0, "tanh": 5 / 3, "relu": math.sqrt(2.0),
         "leaky_relu": math.sqrt(2.0 / (1 + 0.01 ** 2))}


@pytest.fixture(autouse=True)
def _english():
    i18n.set_language("en")
    yield
    i18n.set_language(None)


def verdict(check, fn, capsys) -> str:
    check(fn)
    return capsys.readouterr().out.strip()


def hint(key, **fields) -> str:
    return "not quite: " + EN[key].format(**fields)


# --- 12.1 the gain -------------------------------------------------------------------------------
def gain(nonlinearity):
    return EXACT[nonlinearity]


def test_gain_correct_as_function_and_as_number(capsys):
    assert verdict(ch12.check_gain, gain, capsys) == "correct"
    assert verdict(ch12.check_gain, 5 / 3, capsys) == "correct"
    assert verdict(ch12.check_gain, ..., capsys) == "not attempted yet"

    def placeholder(nonlinearity):
        raise NotImplementedError

    assert verdict(ch12.check_gain, placeholder, capsys) == "not attempted yet"


def test_gain_without_the_square_root(capsys):
    got = verdict(ch12.check_gain, lambda n: EXACT[n] ** 2, capsys)
    assert got == hint("ch12.gain.no_sqrt", name="tanh", got=25 / 9, want=5 / 3)
    assert verdict(ch12.check_gain, 25 / 9, capsys) == \
        hint("ch12.gain.no_sqrt", name="tanh", got=25 / 9, want=5 / 3)


def test_gain_of_one_everywhere(capsys):
    assert verdict(ch12.check_gain, lambda n: 1.0, capsys) == \
        hint("ch12.gain.one", name="tanh", want=5 / 3)


def test_gain_derived_for_tanh_not_pytorchs(capsys):
    derived = 1 / math.sqrt(0.394)
    assert verdict(ch12.check_gain, derived, capsys) == \
        hint("ch12.gain.tanh_derived", got=derived)


def test_gain_wrong_and_not_a_number(capsys):
    wrong = {**EXACT, "relu": 2 ** 0.25}
    assert verdict(ch12.check_gain, wrong.get, capsys) == \
        hint("ch12.gain.wrong", name="relu", got=2 ** 0.25, want=math.sqrt(2.0))
    assert verdict(ch12.check_gain, lambda n: str(EXACT[n]), capsys) == \
        hint("ch12.gain.not_a_number", name="linear", type="str")


# --- 12.2 the saturating layer ---------------------------------------------------------------
def last(history, stat="saturated", step=-1, key=lambda v: v):
    rows = history["activations"]
    seen = {n: key(r[stat][step]) for n, r in rows.items() if not math.isnan(r[stat][step])}
    return max(seen, key=seen.get)


def test_saturating_layer_correct_and_placeholder(capsys):
    assert verdict(ch12.check_saturating_layer, last, capsys) == "correct"
    assert verdict(ch12.check_saturating_layer, ..., capsys) == "not attempted yet"


def _startswith(got, key):
    head = EN[key].split("{", 1)[0] if not EN[key].startswith("{") else ""
    return got.startswith("not quite: ") and head in got


def test_saturating_layer_slips(capsys):
    got = verdict(ch12.check_saturating_layer, lambda h: last(h, step=0), capsys)
    assert "saturated most at the first step" in got
    got = verdict(ch12.check_saturating_layer, lambda h: last(h, "std"), capsys)
    assert "has the largest std, not the largest saturated fraction" in got
    got = verdict(ch12.check_saturating_layer, lambda h: last(h, "mean", key=abs), capsys)
    assert "has the largest |mean|, not the largest saturated fraction" in got
    got = verdict(ch12.check_saturating_layer, lambda h: last(h, key=lambda v: -v), capsys)
    assert "is the least saturated layer" in got


def test_saturating_layer_nan_wrong_unknown_and_not_a_name(capsys):
    def no_nan_check(h):  # nan compares False, so a hand-written max can keep a nan layer
        rows = h["activations"]
        nan = [n for n, r in rows.items() if math.isnan(r["saturated"][-1])]
        return nan[0] if nan else last(h)

    got = verdict(ch12.check_saturating_layer, no_nan_check, capsys)
    assert "was not seen at the last step" in got

    def second(h):
        rows = h["activations"]
        seen = [n for n, r in rows.items() if not math.isnan(r["saturated"][-1])]
        slips = {last(h), last(h, step=0), last(h, "std"), last(h, "mean", key=abs),
                 last(h, key=lambda v: -v)}
        return next(n for n in seen if n not in slips)

    got = verdict(ch12.check_saturating_layer, second, capsys)
    assert got.startswith("not quite: ") and "saturated at the last step, but" in got
    got = verdict(ch12.check_saturating_layer, lambda h: "nope", capsys)
    assert got.startswith("not quite: 'nope' is not a layer of this recording")
    got = verdict(ch12.check_saturating_layer,
                  lambda h: h["activations"][last(h)]["saturated"][-1], capsys)
    assert got.startswith("not quite: return the layer's name") and got.endswith("got float")


# --- 12.3 clip_grad_norm_ by hand ------------------------------------------------------------
def clip(parameters, max_norm, norm_type=2.0, *, eps=1e-6, clamp=True, per_parameter=False,
         inf_as_two=False, in_place=True, ret="total", skip_none=True, total_as_sum=False):
    grads = [p.grad for p in parameters if p.grad is not None or not skip_none]
    if norm_type == math.inf and not inf_as_two:
        total = max(g.abs().max().item() for g in grads)
    else:
        total = math.sqrt(sum((g ** 2).sum().item() for g in grads))
    if total_as_sum:
        total = sum(g.norm().item() for g in grads)
    coef = max_norm / (total + eps)
    if clamp:
        coef = min(coef, 1.0)
    if in_place:
        for g in grads:
            if per_parameter:
                g.mul_(min(1.0, max_norm / (g.norm().item() + eps)))
            else:
                g.mul_(coef)
    if ret == "total":
        return ag.tensor(total)
    if ret == "after":
        return math.sqrt(sum((g ** 2).sum().item() for g in grads))
    return None


def test_clip_correct_and_placeholder(capsys):
    assert verdict(ch12.check_clip_grad_norm, clip, capsys) == "correct"
    assert verdict(ch12.check_clip_grad_norm, ag.nn.utils.clip_grad_norm_, capsys) == "correct"
    assert verdict(ch12.check_clip_grad_norm, ..., capsys) == "not attempted yet"


CLIP_SLIPS = {  # slip -> (its hint's key, a phrase only that hint has)
    "eps": (dict(eps=0.0), "ch12.clip.no_eps", "max_norm / (total + 1e-6)"),
    "clamp": (dict(clamp=False), "ch12.clip.below", "already below max_norm"),
    "per": (dict(per_parameter=True), "ch12.clip.per_parameter", "by its own norm"),
    "inf": (dict(inf_as_two=True), "ch12.clip.inf_as_two", "largest |gradient entry|"),
    "place": (dict(in_place=False), "ch12.clip.not_in_place", "were not changed"),
    "none": (dict(ret=None), "ch12.clip.no_return", "returns None"),
    "after": (dict(ret="after"), "ch12.clip.after", "the norm after clipping"),
    "sum": (dict(total_as_sum=True), "ch12.clip.sum_of_norms", "the sum of the parameters' norms"),
    "skip": (dict(skip_none=False), "ch12.clip.none_grad", "whose .grad is None"),
}


@pytest.mark.parametrize("name", list(CLIP_SLIPS))
def test_clip_slips(name, capsys):
    slip, key, phrase = CLIP_SLIPS[name]
    assert phrase in EN[key]
    got = verdict(ch12.check_clip_grad_norm, lambda *a: clip(*a, **slip), capsys)
    assert got.startswith("not quite: ") and phrase in got, (key, got)
    assert not any(other in got for _, k, other in CLIP_SLIPS.values() if k != key), got


def test_clip_other_differences(capsys):
    got = verdict(ch12.check_clip_grad_norm, lambda *a: [clip(*a)], capsys)
    assert got == hint("ch12.clip.not_a_number", type="list")
    got = verdict(ch12.check_clip_grad_norm, lambda *a: clip(*a).item() * 1.5, capsys)
    assert got.startswith("not quite: you returned ") and "before clipping is" in got

    def halves(parameters, max_norm, norm_type=2.0):
        total = clip(parameters, max_norm, norm_type)
        for p in parameters:
            if p.grad is not None:
                p.grad.mul_(0.5)
        return total

    got = verdict(ch12.check_clip_grad_norm, halves, capsys)
    assert got == hint("ch12.clip.grads_differ", norm_type=2.0, max_norm=1.0)


def test_chinese_hints(capsys):
    i18n.set_language("zh")
    got = verdict(ch12.check_clip_grad_norm, lambda *a: clip(*a, ret=None), capsys)
    assert got.startswith("还不对：你的函数返回了 None"), got
