"""One engine, the learner's own, from chapter 1 to chapter 3 (issue 43).

The learner cells of chapters 1-3 (tag ``learner-value``) are replaced by a *different* correct
implementation (children in a list, a helper with another name, reflected operators written
out, an exp-based tanh, Kahn's algorithm for ``backward()``, loops instead of comprehensions),
and the chapters' code cells run in order in one namespace, as a learner who pasted their class
from one chapter into the next would run them. Chapter 3's payoff must train on that class and
its step must equal the package's; with a wrong ``__mul__`` in the chapter-1 class, the payoff's
check must name ``__mul__``. The learner path must import no reference ``Value`` except through
one commented skip line per cell.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import re
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pytest
from exercise_helpers import assert_correct, assert_hint

import autograd_course as ag
from autograd_course.course import i18n, zh_terms
from autograd_course.course.exercises import ch01, ch02, ch03, value

ROOT = Path(__file__).resolve().parent.parent
CHAPTERS = ["01_tensors_and_grad_fn", "02_vector_outputs", "03_computation_graph"]
TAG = "learner-value"

# --- a second, different learner ---------------------------------------------------------------
MUL_12 = '''
def times(self, other):
    out = Value(self.data * other.data, (self, other))

    def _backward():
        self.grad = other.data * out.grad
        other.grad = self.data * out.grad

    out._backward = _backward
    return out


Value.__mul__ = times
ch01.check_value_mul(Value)
'''
ACC_14 = '''
def plus(self, other):
    out = Value(self.data + other.data, (self, other))

    def _backward():
        for v in (self, other):
            v.grad += out.grad

    out._backward = _backward
    return out


def times(self, other):
    out = Value(self.data * other.data, (self, other))

    def _backward():
        self.grad += other.data * out.grad
        other.grad += self.data * out.grad

    out._backward = _backward
    return out


Value.__add__, Value.__mul__ = plus, times
ch01.check_value_accumulates(Value)
'''
CLASS_14B = '''
class Value:
    def __init__(self, data, _children=(), _op=""):
        self.data = float(data)
        self.grad = 0.0
        self._prev = list(_children)
        self._op = _op
        self._backward = lambda: None

    @staticmethod
    def as_value(x):
        return x if isinstance(x, Value) else Value(x)

    def __add__(self, other):
        other = Value.as_value(other)
        out = Value(self.data + other.data, [self, other], "add")

        def _backward():
            for v in (self, other):
                v.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other):
        other = Value.as_value(other)
        out = Value(self.data * other.data, [self, other], "mul")

        def _backward():
            self.grad += MUL_SELF * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def __radd__(self, other):
        return Value.as_value(other) + self

    def __rmul__(self, other):
        return Value.as_value(other) * self


ch01.check_value_numbers(Value)
'''
RIGHT_MUL, WRONG_MUL = "other.data", "self.data"  # the wrong one: a.grad += a · out.grad
CLASS_24 = '''
class Value(Value):
    def __pow__(self, k):
        out = Value(math.pow(self.data, k), [self], "pow")

        def _backward():
            self.grad += out.grad * k * math.pow(self.data, k - 1)

        out._backward = _backward
        return out

    def tanh(self):
        e = math.exp(-2 * abs(self.data))
        out = Value(math.copysign((1 - e) / (1 + e), self.data), [self], "tanh")

        def _backward():
            self.grad += out.grad * (1 - out.data * out.data)

        out._backward = _backward
        return out

    def relu(self):
        out = Value(self.data if self.data > 0 else 0.0, [self], "relu")

        def _backward():
            if self.data > 0:
                self.grad += out.grad

        out._backward = _backward
        return out


ch02.check_value_pow_tanh(Value)
ch02.check_value_relu(Value)
'''
CLASS_25 = '''
class Value(Value):
    def __neg__(self):
        return -1.0 * self

    def __sub__(self, other):
        return self + (-1.0) * other

    def __rsub__(self, other):
        return (-1.0) * self + other

    def __truediv__(self, other):
        if isinstance(other, Value):
            return self * other ** -1
        return self * (1.0 / other)

    def __rtruediv__(self, other):
        return other * self ** -1


operators_ok = ch02.check_value_operators(Value)
'''
CLASS_34 = '''
class Value(Value):
    def exp(self):
        out = Value(math.exp(self.data), [self], "exp")

        def _backward():
            self.grad += out.grad * out.data

        out._backward = _backward
        return out

    def backward(self):
        users, todo, seen = {}, [self], {id(self)}
        while todo:
            v = todo.pop()
            for child in v._prev:
                users[id(child)] = users.get(id(child), 0) + 1
                if id(child) not in seen:
                    seen.add(id(child))
                    todo.append(child)
        self.grad = 1.0
        ready = [self]
        while ready:
            v = ready.pop()
            v._backward()
            for child in v._prev:
                users[id(child)] -= 1
                if users[id(child)] == 0:
                    ready.append(child)


value_ok = ch03.check_value_backward(Value)
'''
NEURON = '''
class Neuron:
    def __init__(self, n_in, rng, nonlin=True):
        self.w = [Value(rng.uniform(-1, 1)) for _ in range(n_in)]
        self.b = Value(0.0)
        self.nonlin = nonlin

    def __call__(self, x):
        total = self.b
        for w, xi in zip(self.w, x):
            total = total + w * xi
        return total.tanh() if self.nonlin else total

    def parameters(self):
        return [*self.w, self.b]


ch03.check_neuron(Neuron)
'''
LAYER = '''
class Layer:
    def __init__(self, n_in, n_out, rng, nonlin=True):
        self.units = []
        for _ in range(n_out):
            self.units.append(Neuron(n_in, rng, nonlin=nonlin))

    @property
    def neurons(self):
        return self.units

    def __call__(self, x):
        return [unit(x) for unit in self.units]

    def parameters(self):
        found = []
        for unit in self.units:
            found.extend(unit.parameters())
        return found


ch03.check_layer(Layer)
'''
MLP = '''
class MLP:
    def __init__(self, n_in, sizes, rng):
        self.layers = []
        for i, n_out in enumerate(sizes):
            self.layers.append(Layer(n_in, n_out, rng, nonlin=i != len(sizes) - 1))
            n_in = n_out

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x if len(x) > 1 else x[0]

    def parameters(self):
        return [p for layer in self.layers for p in layer.parameters()]


ch03.check_mlp(MLP)
'''
# what replaces each learner cell, found by what the cell calls; a paste cell becomes empty:
# the namespace already holds the class the learner would paste
SUBSTITUTES = [("check_value_mul", MUL_12), ("check_value_accumulates", ACC_14),
               ("check_value_numbers", CLASS_14B), ("skipped exercise 1.4b", ""),
               ("check_value_pow_tanh", CLASS_24), ("check_value_operators", CLASS_25),
               ("skipped chapter 2", ""), ("check_value_backward", CLASS_34),
               ("check_neuron", NEURON), ("check_layer", LAYER), ("check_mlp", MLP)]


def _cells(name: str, zh: bool = False) -> list[dict]:
    path = ROOT / "notebooks" / ("zh" if zh else "") / f"{name}.ipynb"
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _source(cell: dict) -> str:
    return "".join(cell["source"])


def _learner_path(name: str, mul: str) -> list[tuple[str, str]]:
    """(original source, code to run) for chapter ``name``'s code cells from its first
    learner cell up to its review questions, the learner cells substituted."""
    cells = _cells(name)
    first = next(i for i, c in enumerate(cells) if TAG in c["metadata"].get("tags", []))
    while not (cells[first]["cell_type"] == "markdown" and _source(cells[first]).startswith("## ")):
        first -= 1  # from the section's heading: chapter 1's section 6 starts the class
    path = []
    for cell in cells[first:]:
        if cell["cell_type"] == "markdown":
            if _source(cell).startswith("## Review"):
                break
            continue
        code = _source(cell)
        if TAG in cell["metadata"].get("tags", []):
            code = next(sub for key, sub in SUBSTITUTES if key in code)
            code = code.replace("MUL_SELF", mul)
        if "draw_graph" in code:
            code = re.sub(r"^(\s*)ag\.viz\.draw_graph\(.*$", r"\1pass", code, flags=re.M)
        path.append((_source(cell), code))
    return path


def _run_chapters(mul: str) -> list[tuple[str, str, BaseException | None]]:
    """Run chapters 1-3's learner path in one namespace: (cell source, printed, error)."""
    i18n.set_language("en")
    matplotlib.use("Agg")
    space = {"ag": ag, "np": np, "math": math, "ch01": ch01, "ch02": ch02, "ch03": ch03,
             "plt": plt}
    seen = []
    try:
        for name in CHAPTERS:
            for original, code in _learner_path(name, mul):
                out = io.StringIO()
                error = None
                with contextlib.redirect_stdout(out):
                    try:
                        exec(compile(code, f"<{name}>", "exec"), space)
                    except Exception as e:  # a wrong engine may fail an assertion; recorded
                        error = e
                plt.close("all")
                seen.append((original, out.getvalue(), error))
    finally:
        i18n.set_language(None)
    return seen


@pytest.fixture(scope="module")
def right_run():
    return _run_chapters(RIGHT_MUL)


def _printed_by(run, needle: str, learner: bool = False) -> str:
    """What the cells whose source contains ``needle`` printed (only the learner cells, the
    substituted ones, with ``learner``)."""
    return "".join(printed for original, printed, _ in run if needle in original
                   and (not learner or "# your code" in original))


def test_a_different_learner_passes_every_value_checker(right_run):
    for key, _ in SUBSTITUTES:
        if key.startswith("check_"):
            verdicts = [line for line in _printed_by(right_run, key, learner=True).splitlines()
                        if line.startswith(("correct", "not quite", "not attempted"))]
            assert verdicts and all(v == "correct" for v in verdicts), (key, verdicts)


def test_the_payoff_trains_the_learners_own_class(right_run):
    errors = [(original[:80], repr(e)) for original, _, e in right_run if e is not None]
    assert not errors, errors
    assert "the payoff runs on them" in _printed_by(right_run, "payoff_ready")
    trained = _printed_by(right_run, "losses = train(model, 40, 0.3)")
    first, last, accuracy = re.search(r"loss ([\d.]+) -> ([\d.]+), accuracy (\d+)%",
                                      trained).groups()
    assert float(last) < float(first) / 3 and int(accuracy) >= 90, trained


def test_the_payoffs_step_equals_the_packages(right_run):
    printed = _printed_by(right_run, "check_same_step")
    assert printed.strip().splitlines()[-1] == "correct", printed
    assert "below 1e-12: True" in printed, printed


def test_a_wrong_mul_in_chapter_1_is_named_by_the_payoff():
    run = _run_chapters(WRONG_MUL)
    printed = _printed_by(run, "check_same_step").strip().splitlines()
    assert printed[-1].startswith("not quite: your Value's __mul__ is wrong"), printed
    assert "below 1e-12: False" in "\n".join(printed)
    numbers = _printed_by(run, "check_value_numbers")
    assert numbers.startswith("not quite:"), numbers


# --- the learner path imports no reference Value --------------------------------------------
SKIP = re.compile(r"^# .*(uncomment|取消注释)[:：] ?from autograd_course\.course\.exercises\.value "
                  r"import (ValueAddMul|ValuePowTanh|ValueOps) as Value$")
SKIP_NETWORK = re.compile(r"^# .*(uncomment|取消注释)[:：] ?from autograd_course\.course\."
                          r"exercises\.value import (Neuron|Layer)$")
REFERENCE = re.compile(r"exercises\.value|exercises import value|\bValue(AddMul|PowTanh|Ops)\b")


@pytest.mark.parametrize("zh", [False, True], ids=["en", "zh"])
@pytest.mark.parametrize("name", CHAPTERS)
def test_the_learner_path_imports_no_reference_value(name, zh):
    for i, cell in enumerate(_cells(name, zh)):
        if cell["cell_type"] != "code":
            continue
        hits = [line for line in _source(cell).splitlines() if REFERENCE.search(line)]
        if not hits:
            continue
        assert TAG in cell["metadata"].get("tags", []), (name, i, hits)
        assert len(hits) == 1 and (SKIP.match(hits[0]) or SKIP_NETWORK.match(hits[0])), \
            (name, i, hits)


def test_the_scan_can_fail():
    assert REFERENCE.search("from autograd_course.course.exercises.value import Value")
    assert REFERENCE.search("va = ValueOps(3.0)")
    assert not SKIP.match("from autograd_course.course.exercises.value import ValueOps as Value")
    assert SKIP.match("# skipped chapter 2's Value? uncomment: from autograd_course.course."
                      "exercises.value import ValueOps as Value")


def test_section_7_comes_before_the_summary_and_the_exercises():
    heads = [_source(c).splitlines()[0] for c in _cells(CHAPTERS[2]) if c["cell_type"] ==
             "markdown" and _source(c).startswith("## ")]
    order = [next(i for i, h in enumerate(heads) if h.startswith(p))
             for p in ("## 7.", "## Summary", "## Review")]
    assert order == sorted(order), heads


# --- the new checkers, on their own -----------------------------------------------------------
class _HasattrLift(value.ValueAddMul):
    def _lift(self, other):
        return other if hasattr(other, "data") else type(self)(other)


class _NoReflected:
    """Lifts numbers, labels, accumulates, but has no __radd__ / __rmul__."""

    def __init__(self, data, _children=(), _op=""):
        self.data, self.grad, self._prev, self._op = float(data), 0.0, _children, _op
        self._backward = lambda: None

    def _make(self, other, data, op, grads):
        other = other if isinstance(other, _NoReflected) else _NoReflected(other)
        out = _NoReflected(data(self.data, other.data), (self, other), op)

        def _backward():
            self.grad += grads(other.data) * out.grad
            other.grad += grads(self.data) * out.grad

        out._backward = _backward
        return out

    def __add__(self, other):
        return self._make(other, lambda a, b: a + b, "+", lambda v: 1.0)

    def __mul__(self, other):
        return self._make(other, lambda a, b: a * b, "*", lambda v: v)


class _NoLabels(value.ValueAddMul):
    def __add__(self, other):
        out = super().__add__(other)
        out._op = ""
        return out


def test_numbers_and_labels_name_the_mistake(capsys):
    assert_correct(capsys, ch01.check_value_numbers, value.ValueAddMul)
    assert_hint(capsys, ch01.check_value_numbers, _HasattrLift, "memoryview")
    assert_hint(capsys, ch01.check_value_numbers, _NoReflected, "__radd__")
    assert_hint(capsys, ch01.check_value_numbers, _NoLabels, "_op")


def test_a_placeholder_class_is_not_attempted(capsys):
    class Value:
        ...

    for check in (ch01.check_value_numbers, ch02.check_value_pow_tanh, ch02.check_value_relu,
                  ch02.check_value_operators, ch03.check_value_backward):
        verdict = check(Value)
        assert capsys.readouterr().out.strip() == "not attempted yet" and not verdict


class _ReluOverwrites(value.Value):
    def relu(self):
        out = type(self)(max(self.data, 0.0), (self,), "relu")

        def _backward():
            self.grad = (self.data > 0) * out.grad

        out._backward = _backward
        return out


def test_relu_names_the_mistake(capsys):
    assert_correct(capsys, ch02.check_value_relu, value.Value)
    assert_hint(capsys, ch02.check_value_relu, _ReluOverwrites, "+=")


class _LayerNonlinIgnored(value.Layer):
    def __init__(self, n_in, n_out, rng, nonlin=True):
        super().__init__(n_in, n_out, rng, nonlin=True)


class _MLPNoTanh(value.MLP):
    def __init__(self, n_in, sizes, rng):
        dims = [n_in] + list(sizes)
        self.layers = [value.Layer(dims[i], dims[i + 1], rng, nonlin=False)
                       for i in range(len(sizes))]


class _MLPMissingLastBias(value.MLP):
    def parameters(self):
        return super().parameters()[:-1]


class _NeuronCopies(value.Neuron):
    def __call__(self, x):
        act = sum((value.Value(wi.data) * xi for wi, xi in zip(self.w, x)), self.b)
        return act.tanh() if self.nonlin else act


def test_the_network_checkers_name_the_mistake(capsys):
    for check, cls in ((ch03.check_neuron, value.Neuron), (ch03.check_layer, value.Layer),
                       (ch03.check_mlp, value.MLP)):
        assert_correct(capsys, check, cls)
    assert_hint(capsys, ch03.check_neuron, _NeuronCopies, "copies")
    assert_hint(capsys, ch03.check_layer, _LayerNonlinIgnored, "nonlin=False")
    assert_hint(capsys, ch03.check_mlp, _MLPNoTanh, "no layer applies tanh")
    assert_hint(capsys, ch03.check_mlp, _MLPMissingLastBias, "has 24 parameters, expected 25")


def test_the_payoff_check_blames_the_network_when_the_value_is_right(capsys):
    model = value.MLP(2, [3, 1], np.random.default_rng(0))
    assert_correct(capsys, ch03.check_same_step, model, 0.0, 1e-13)
    verdict, line = _verdict(capsys, ch03.check_same_step, model, 0.0, 1e-6)
    assert not verdict and "Neuron, Layer, MLP" in line


def _verdict(capsys, check, *args):
    verdict = check(*args)
    return verdict, capsys.readouterr().out.strip()


# --- chapters 1 and 2 on "scalar" -----------------------------------------------------------------
def test_a_one_element_output_needs_no_argument_but_is_not_0_d(torch_oracle):
    """Chapter 1's key terms: a scalar is a 0-d tensor, and backward() with no argument accepts
    any output with one element (shape (1, 1) too), not only a 0-d one."""
    for lib in (torch_oracle, ag):
        x = lib.ones(1, 1, requires_grad=True)
        out = x * 3
        assert out.dim() == 2 and out.numel() == 1
        out.backward()
        assert x.grad.tolist() == [[3.0]]
        assert lib.tensor(3.0).dim() == 0
        with pytest.raises(RuntimeError, match="only for scalar outputs"):
            (lib.ones(2, requires_grad=True) * 3).backward()


def test_the_zh_exercise_label_accepts_a_lettered_number():
    """Exercise 1.4b (and 3.4b-3.4d) sit between two numbered ones: the Chinese label rule
    accepts the letter, and still only after a number."""
    assert zh_terms.EXERCISE_LABEL.match("**练习 1.4b — 把你的 `Value` 写成一个类。**")
    assert zh_terms.EXERCISE_LABEL.match("**练习 1.4b。**")
    assert not zh_terms.EXERCISE_LABEL.match("**练习 1.b。**")
