"""The checkers' two languages: one catalogue per language, the same keys and placeholders in
both, every key used, every used key there, and every checker heard in the language chosen.

Wrong answers below are deliberately simple: each only has to make its checker say something
other than ``correct``, so that the language of the hint can be checked.
"""

from __future__ import annotations

import ast
import math
import re
import string
from pathlib import Path

import numpy as np
import pytest

import autograd_course as ag
from autograd_course.autograd import Function
from autograd_course.course import i18n
from autograd_course.course.exercises import (
    _common,
    ch00,
    ch01,
    ch02,
    ch03,
    ch04,
    ch05,
    ch06,
    ch07,
    ch08,
    ch09,
    ch10,
    ch11,
    ch12,
    messages,
    retired,
    value,
)
from autograd_course.course.exercises.messages_en import MESSAGES as EN
from autograd_course.course.exercises.messages_zh import MESSAGES as ZH
from autograd_course.course.exercises.value import Value

EXERCISES = Path(_common.__file__).parent
CHECKER_MODULES = sorted(p for p in EXERCISES.glob("*.py") if not p.name.startswith("messages"))
KEY = re.compile(r"^(verdict|common|ch\d\d)\.[a-z0-9_.]+$")
CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")


@pytest.fixture(autouse=True)
def _language_back_to_detection():
    yield
    i18n.set_language(None)


def _fields(template: str) -> list[tuple[str, str, str | None]]:
    """(name, format spec, conversion) of every placeholder, sorted."""
    return sorted((name, spec, conv) for _, name, spec, conv in string.Formatter().parse(template)
                  if name is not None)


# --- the catalogues ---------------------------------------------------------------------------
def test_both_catalogues_have_the_same_keys():
    assert set(EN) == set(ZH), sorted(set(EN) ^ set(ZH))
    assert messages.CATALOGUES == {"en": EN, "zh": ZH}


@pytest.mark.parametrize("key", sorted(EN))
def test_same_placeholders_per_key(key):
    assert _fields(EN[key]) == _fields(ZH[key])


def test_keys_follow_the_naming_rule_and_chinese_is_chinese():
    for key in EN:
        assert KEY.match(key), key
        assert not CJK.search(EN[key]), key
    # a Chinese template is Chinese unless it is only placeholders and punctuation
    for key, template in ZH.items():
        words = re.sub(r"\{[^{}]*\}", "", template)
        assert CJK.search(template) or not re.search(r"[A-Za-z]{3,}", words), key


def _msg_calls(tree: ast.AST) -> list[ast.Call]:
    return [node for node in ast.walk(tree) if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name) and node.func.id == "msg"]


def _sources() -> dict[str, ast.AST]:
    return {p.name: ast.parse(p.read_text(encoding="utf-8")) for p in CHECKER_MODULES}


def test_every_key_a_checker_uses_exists_with_its_placeholders():
    calls = 0
    for name, tree in _sources().items():
        for call in _msg_calls(tree):
            calls += 1
            first = call.args[0]
            if isinstance(first, ast.Constant):
                assert first.value in EN, f"{name}:{call.lineno}: no message {first.value!r}"
                given = {kw.arg for kw in call.keywords}
                assert None not in given, f"{name}:{call.lineno}: no **fields, name each one"
                wanted = {field for field, _, _ in _fields(EN[first.value])}
                assert given == wanted, f"{name}:{call.lineno}: {first.value}"
        # keys passed around as values (tables, graph descriptions) must exist too
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and KEY.match(node.value):
                assert node.value in EN, f"{name}:{node.lineno}: no message {node.value!r}"
    assert calls > 100


def test_every_key_is_used_by_some_checker():
    used = set()
    for tree in _sources().values():
        used |= {node.value for node in ast.walk(tree)
                 if isinstance(node, ast.Constant) and isinstance(node.value, str)}
    assert set(EN) - used == set()


def test_checker_modules_print_only_through_the_catalogues():
    """No hint is written in a checker module itself: no f-string or literal in a Mismatch."""
    for name, tree in _sources().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id == "Mismatch" and node.args:
                arg = node.args[0]
                assert not isinstance(arg, (ast.Constant, ast.JoinedStr)), \
                    f"{name}:{node.lineno}: hint written in place, not in messages_*.py"


def test_no_function_level_imports():
    """Imports at module top only (optional display libraries excepted; none are used here)."""
    for name, tree in _sources().items():
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for inner in ast.walk(node):
                    if isinstance(inner, (ast.Import, ast.ImportFrom)):
                        modules = [a.name for a in inner.names] if isinstance(inner, ast.Import) \
                            else [inner.module or ""]
                        assert all(m.split(".")[0] in {"matplotlib", "IPython", "graphviz"}
                                   for m in modules), f"{name}:{inner.lineno}"


# --- choosing the language ----------------------------------------------------------------------
def test_set_language_is_exported_and_shared_with_i18n(capsys):
    assert ag.course.exercises.set_language is i18n.set_language
    assert ag.course.exercises.get_language is i18n.get_language
    ag.course.exercises.set_language("zh")
    assert i18n.get_language() == "zh"
    ch01.check_slope(...)
    assert capsys.readouterr().out == "尚未作答\n"
    ag.course.exercises.set_language("en")
    ch01.check_slope(...)
    assert capsys.readouterr().out == "not attempted yet\n"
    with pytest.raises(ValueError):
        ag.course.exercises.set_language("fr")


def test_environment_variable_chooses_chinese(capsys, monkeypatch):
    central = 10.0 + 1e-8  # (f(2 + h) - f(2 - h)) / (2h) with h = 1e-4: 10 + h²
    monkeypatch.setenv("AUTOGRAD_COURSE_LANG", "zh")
    ch01.check_slope(central)
    assert capsys.readouterr().out == "正确\n"
    monkeypatch.setenv("AUTOGRAD_COURSE_LANG", "en")
    ch01.check_slope(central)
    assert capsys.readouterr().out == "correct\n"


def test_a_notebook_under_notebooks_zh_speaks_chinese(capsys, monkeypatch, tmp_path):
    monkeypatch.delenv("AUTOGRAD_COURSE_LANG", raising=False)
    (tmp_path / "notebooks" / "zh" / "solutions").mkdir(parents=True)
    for folder, line in ((tmp_path / "notebooks" / "zh", "尚未作答"),
                         (tmp_path / "notebooks" / "zh" / "solutions", "尚未作答"),
                         (tmp_path / "notebooks", "not attempted yet")):
        monkeypatch.chdir(folder)
        ch01.check_slope(...)
        assert capsys.readouterr().out == line + "\n"


def test_the_verdict_words_follow_the_language():
    hint = _common.Verdict(_common.NOT_QUITE, "x")
    noted = _common.Verdict(_common.CORRECT, "y")
    i18n.set_language("zh")
    assert (str(hint), str(noted)) == ("还不对：x", "正确（y）")
    i18n.set_language("en")
    assert (str(hint), str(noted)) == ("not quite: x", "correct (y)")


# --- every checker, wrong, in both languages ----------------------------------------------------
def _function_with(forward, backward):
    class Learner(Function):
        pass

    Learner.forward = staticmethod(forward)
    Learner.backward = staticmethod(backward)
    return Learner


def _save_and(op):
    def forward(ctx, *inputs):
        ctx.save_for_backward(*[t for t in inputs if isinstance(t, ag.Tensor)])
        return op(*inputs)

    return forward


class _MulForwardWrong(Value):
    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return type(self)(self.data + other.data, (self, other))


class _AddOverwrites(Value):
    def __add__(self, other):
        out = type(self)(self.data + other.data, (self, other))

        def _backward():
            self.grad = out.grad
            other.grad = out.grad

        out._backward = _backward
        return out


class _PowNoLocalDerivative(Value):
    def __pow__(self, k):
        out = type(self)(self.data ** k, (self,))

        def _backward():
            self.grad += out.grad

        out._backward = _backward
        return out


class _BackwardOnlyTop(Value):
    def backward(self):
        self.grad = 1.0
        self._backward()


class _ExpNotAttached(Value):
    def exp(self):
        out = type(self)(math.exp(self.data), (self,))

        def _backward():
            self.grad += out.data * out.grad

        return out


def _manual_backward_stopped_early():
    a, b, c = Value(2.0), Value(-3.0), Value(1.0)
    d = a * b
    L = d + c
    L.grad = 1.0
    L._backward()  # d._backward() never runs
    return a, b, c, d, L


def _plain_descent(params, buffers, lr, momentum):
    with ag.no_grad():
        for p in params:
            p -= lr * p.grad


def _train_without_step(model, optimizer, batches, loss_fn):
    for x, y in batches:
        optimizer.zero_grad()
        loss_fn(model(x), y).backward()


def _identity_backward(ctx, g):
    return g


class _SubWithoutGraph(Value):
    def __sub__(self, other):
        return type(self)(self.data - other.data)


def _step_without_zero_grad(model, xs, ys, lr):
    loss = value.mse(model, xs, ys)
    loss.backward()
    for p in model.parameters():
        p.data -= lr * p.grad
    return loss


class _ReluTimesX(Value):
    def relu(self):
        out = type(self)(max(self.data, 0.0), (self,), "relu")

        def _backward():
            self.grad += self.data * out.grad

        out._backward = _backward
        return out


class _NeuronBiasFirst(value.Neuron):
    def parameters(self):
        return [self.b] + self.w


class _LayerOfOne(value.Layer):
    def __call__(self, x):
        return self.neurons[0](x)


class _MLPAllTanh(value.MLP):
    def __init__(self, n_in, sizes, rng):
        dims = [n_in] + list(sizes)
        self.layers = [value.Layer(dims[i], dims[i + 1], rng) for i in range(len(sizes))]


WRONG = {
    "ch00.check_first_grads": (ch00.check_first_grads, (5.0, 2.0)),
    "ch00.check_grad_fn_names": (ch00.check_grad_fn_names, (["x"] * 5,)),
    "ch01.check_slope": (ch01.check_slope, (3.0,)),
    "ch01.check_predict_grad": (ch01.check_predict_grad, ([[0.0, 0.0], [0.0, 0.0]],)),
    "ch01.check_leaves": (ch01.check_leaves, ({"a"}, {"a"})),
    "ch01.check_value_mul": (ch01.check_value_mul, (_MulForwardWrong,)),
    "ch01.check_manual_backward": (ch01.check_manual_backward, _manual_backward_stopped_early()),
    "ch01.check_value_accumulates": (ch01.check_value_accumulates, (_AddOverwrites,)),
    "ch01.check_best_step": (ch01.check_best_step, (1e-12,)),
    "ch01.check_value_numbers": (ch01.check_value_numbers, (_MulForwardWrong,)),
    "ch02.check_jacobian": (ch02.check_jacobian, (lambda f, x: 42.0,)),
    "ch02.check_mean_gradient": (ch02.check_mean_gradient, ([1.0, 1.0],)),
    "ch02.check_unbroadcast": (ch02.check_unbroadcast, (lambda g, shape: g,)),
    "ch02.check_value_pow_tanh": (ch02.check_value_pow_tanh, (_PowNoLocalDerivative,)),
    "ch02.check_value_operators": (ch02.check_value_operators, (_SubWithoutGraph,)),
    "ch02.check_value_relu": (ch02.check_value_relu, (_ReluTimesX,)),
    "ch02.check_loss": (ch02.check_loss, (lambda p, labels: (p - labels).sum(),)),
    "ch03.check_find_leaves": (ch03.check_find_leaves, (lambda t: [],)),
    "ch03.check_loop_graph": (ch03.check_loop_graph, (1, [0.0, 0.0])),
    "ch03.check_clip_hook": (ch03.check_clip_hook, (lambda g: g * 1,)),
    "ch03.check_value_backward": (ch03.check_value_backward, (_BackwardOnlyTop,)),
    "ch03.check_train_step": (ch03.check_train_step, (_step_without_zero_grad,)),
    "ch03.check_neuron": (ch03.check_neuron, (_NeuronBiasFirst,)),
    "ch03.check_layer": (ch03.check_layer, (_LayerOfOne,)),
    "ch03.check_mlp": (ch03.check_mlp, (_MLPAllTanh,)),
    "ch03.check_same_step": (ch03.check_same_step, (value.MLP(2, [1], np.random.default_rng(0)),
                                                    0.0, 1e-3)),
    "ch04.check_sigmoid_mse_grad": (ch04.check_sigmoid_mse_grad, (lambda z, y: z * 0,)),
    "ch04.check_batch_gradients": (ch04.check_batch_gradients, (lambda w, batches: [w],)),
    "ch04.check_two_losses": (ch04.check_two_losses, (lambda w, x: 5.0,)),
    "ch05.check_none_grads": (ch05.check_none_grads, ({"b"},)),
    "ch05.check_snapshot": (ch05.check_snapshot, (lambda t: t,)),
    "ch05.check_freeze_all_but_last": (ch05.check_freeze_all_but_last, (lambda layers: layers,)),
    "ch05.check_straight_through": (ch05.check_straight_through, (lambda x: x * 1,)),
    "ch06.check_sigmoid": (ch06.check_sigmoid,
                           (_function_with(_save_and(lambda x: x.sigmoid()),
                                           _identity_backward),)),
    "ch06.check_div": (ch06.check_div,
                       (_function_with(_save_and(lambda a, b: a / b),
                                       lambda ctx, g: (g, g)),)),
    "ch06.check_mul_constant": (ch06.check_mul_constant,
                                (_function_with(_save_and(lambda a, c: a * c),
                                                lambda ctx, g: (g, None)),)),
    "ch06.check_softplus": (ch06.check_softplus,
                            (_function_with(_save_and(lambda x: (x.exp() + 1).log()),
                                            _identity_backward),)),
    "ch07.check_nesterov_step": (ch07.check_nesterov_step, (_plain_descent,)),
    "ch07.check_training_loop": (ch07.check_training_loop, (_train_without_step,)),
    "ch07.check_accumulated_step": (ch07.check_accumulated_step,
                                    (lambda model, opt, batches, loss_fn: None,)),
    "ch08.check_pick_device": (ch08.check_pick_device, (lambda: "cpu",)),
    "ch08.check_train_step": (ch08.check_train_step, (lambda model, opt, xb, yb, loss: 1.0,)),
    "ch09.check_topo_order": (ch09.check_topo_order, (lambda t: [],)),
    "retired.check_value_exp": (retired.check_value_exp, (_ExpNotAttached,)),
    "ch09.check_count_dependencies": (ch09.check_count_dependencies,
                                      (lambda t: {t.grad_fn: 1},)),
    "ch09.check_run_backward": (ch09.check_run_backward, (lambda root, grad: {root.grad_fn},)),
    "ch10.check_clamp_prehook": (ch10.check_clamp_prehook,
                                 (lambda node: node.register_prehook(lambda grads: None),)),
    "ch10.check_saved_bytes": (ch10.check_saved_bytes, (lambda fn, *inputs: len(inputs),)),
    "ch10.check_checkpoint_blocks": (ch10.check_checkpoint_blocks,
                                     (lambda blocks, x: ag.nn.Sequential(*blocks)(x),)),
    "ch10.check_nan_source": (ch10.check_nan_source, (lambda loss: loss.grad_fn.name(),)),
    "ch10.check_hvp": (ch10.check_hvp, (lambda f, x, v: v * 0,)),
    "ch10.check_gradient_penalty": (ch10.check_gradient_penalty,
                                    (lambda critic, x: critic(x).sum().item(),)),
    "ch11.check_mlp_backward": (ch11.check_mlp_backward, (lambda X, y, p, c: {"logits": X},)),
    "ch11.check_batchnorm_backward": (ch11.check_batchnorm_backward, (lambda X, y, p, c: [],)),
    "ch12.check_gain": (ch12.check_gain, (lambda nonlinearity: 1.0,)),
    "ch12.check_saturating_layer": (ch12.check_saturating_layer, (lambda history: 0,)),
    "ch12.check_clip_grad_norm": (ch12.check_clip_grad_norm,
                                  (lambda parameters, max_norm, norm_type: None,)),
}


def _all_checkers() -> set[str]:
    found = set()
    for module in (ch00, ch01, ch02, ch03, ch04, ch05, ch06, ch07, ch08, ch09, ch10,
                   ch11, ch12, retired):
        for name, obj in vars(module).items():
            if name.startswith("check_") and getattr(obj, "__wrapped__", None) is not None:
                found.add(f"{module.__name__.rsplit('.', 1)[-1]}.{name}")
    return found


def test_every_checker_has_a_wrong_answer_here():
    assert set(WRONG) == _all_checkers()


@pytest.mark.parametrize("name", sorted(WRONG))
def test_a_wrong_answer_is_told_in_the_chosen_language(capsys, name):
    check, args = WRONG[name]
    lines = {}
    for lang in ("zh", "en"):
        i18n.set_language(lang)
        verdict = check(*args)
        lines[lang] = capsys.readouterr().out.strip()
        assert not verdict, (lang, lines[lang])
        assert "{" not in lines[lang].replace("{'", "").replace('{"', ""), lines[lang]
    assert lines["zh"].startswith("还不对：") and CJK.search(lines["zh"][4:]), lines["zh"]
    assert lines["en"].startswith("not quite: ") and not CJK.search(lines["en"]), lines["en"]


def test_every_function_in_the_exercises_has_type_hints():
    for path in sorted(EXERCISES.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                a = node.args
                params = a.posonlyargs + a.args + a.kwonlyargs + [
                    p for p in (a.vararg, a.kwarg) if p is not None]
                bare = [p.arg for p in params if p.annotation is None
                        and p.arg not in ("self", "cls")]
                assert not bare and node.returns is not None, \
                    f"{path.name}:{node.lineno} {node.name}() lacks type hints ({bare})"


def test_arrays_in_a_verdict_stay_on_one_line():
    """A verdict is one line: an array of mixed magnitudes (printed in e-notation) once
    wrapped onto a second line, depending on the checker's random inputs."""
    values = [5.78e-03, 1.4862e-01, 2.164e-03, 5.1283, -9.5619e-02, -4.2977e-02]
    text = _common._fmt(np.array(values))
    assert "\n" not in text and text.count(",") == 5
