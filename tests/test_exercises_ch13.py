"""Chapter 13's checkers: correct answers pass (two different Dual classes), a placeholder is
"not attempted yet", and each hint is given for the one slip it describes — one wrong answer
per hint, each made from a correct answer by that slip."""

from __future__ import annotations

import math

import pytest

import autograd_course as ag
from autograd_course.course import i18n
from autograd_course.course.exercises import ch13
from autograd_course.course.exercises.messages_en import MESSAGES as EN


@pytest.fixture(autouse=True)
def _english():
    i18n.set_language("en")
    yield
    i18n.set_language(None)


def verdict(check, answer, capsys) -> str:
    check(answer)
    return capsys.readouterr().out.strip()


def hint(key, **fields) -> str:
    return "not quite: " + EN[key].format(**fields)


# --- 13.1 Dual ---------------------------------------------------------------------------------
class Dual:
    def __init__(self, primal, tangent=0.0):
        self.primal, self.tangent = primal, tangent

    @staticmethod
    def lift(other):
        return other if isinstance(other, Dual) else Dual(other)

    def __add__(self, other):
        other = self.lift(other)
        return type(self)(self.primal + other.primal, self.tangent + other.tangent)

    def __radd__(self, other):
        return self + other

    def __sub__(self, other):
        other = self.lift(other)
        return type(self)(self.primal - other.primal, self.tangent - other.tangent)

    def __rsub__(self, other):
        return self.lift(other) - self

    def __mul__(self, other):
        other = self.lift(other)
        return type(self)(self.primal * other.primal,
                          self.tangent * other.primal + self.primal * other.tangent)

    def __rmul__(self, other):
        return self * other

    def __truediv__(self, other):
        other = self.lift(other)
        return type(self)(self.primal / other.primal,
                          (self.tangent * other.primal - self.primal * other.tangent)
                          / other.primal ** 2)

    def __rtruediv__(self, other):
        return self.lift(other) / self

    def sin(self):
        return type(self)(math.sin(self.primal), math.cos(self.primal) * self.tangent)

    def exp(self):
        return type(self)(math.exp(self.primal), math.exp(self.primal) * self.tangent)


class TupleDual(tuple):
    """A second, different correct answer: an immutable pair; subtraction and division built
    from negation and the reciprocal."""

    def __new__(cls, primal, tangent=0.0):
        return super().__new__(cls, (float(primal), float(tangent)))

    primal = property(lambda self: self[0])
    tangent = property(lambda self: self[1])

    def _other(self, o):
        return o if isinstance(o, TupleDual) else TupleDual(o)

    def __add__(self, o):
        o = self._other(o)
        return TupleDual(self[0] + o[0], self[1] + o[1])

    __radd__ = __add__

    def __neg__(self):
        return TupleDual(-self[0], -self[1])

    def __sub__(self, o):
        return self + -self._other(o)

    def __rsub__(self, o):
        return -self + o

    def __mul__(self, o):
        o = self._other(o)
        return TupleDual(self[0] * o[0], self[1] * o[0] + self[0] * o[1])

    __rmul__ = __mul__

    def reciprocal(self):
        return TupleDual(1 / self[0], -self[1] / self[0] ** 2)

    def __truediv__(self, o):
        return self * self._other(o).reciprocal()

    def __rtruediv__(self, o):
        return self.reciprocal() * o

    def sin(self):
        return TupleDual(math.sin(self[0]), math.cos(self[0]) * self[1])

    def exp(self):
        return TupleDual(math.exp(self[0]), math.exp(self[0]) * self[1])


def test_two_different_correct_duals_pass(capsys):
    assert verdict(ch13.check_dual, Dual, capsys) == "correct"
    assert verdict(ch13.check_dual, TupleDual, capsys) == "correct"


def test_placeholder_dual_is_not_attempted(capsys):
    class Placeholder:
        def __init__(self, primal, tangent):
            raise NotImplementedError

    assert verdict(ch13.check_dual, ..., capsys) == "not attempted yet"
    assert verdict(ch13.check_dual, Placeholder, capsys) == "not attempted yet"


def slip(**methods):
    return type("Slip", (Dual,), methods)


def test_tangents_multiplied(capsys):
    wrong = slip(__mul__=lambda s, o: Dual(s.primal * Dual.lift(o).primal,
                                           s.tangent * Dual.lift(o).tangent))
    assert verdict(ch13.check_dual, wrong, capsys) == hint("ch13.dual.tangents_multiplied")


def test_product_rule_term_left_out(capsys):
    wrong = slip(__mul__=lambda s, o: Dual(s.primal * Dual.lift(o).primal,
                                           s.primal * Dual.lift(o).tangent))
    assert verdict(ch13.check_dual, wrong, capsys) == hint("ch13.dual.product_term")


def test_quotient_sign(capsys):
    def div(s, o):
        o = Dual.lift(o)
        return Dual(s.primal / o.primal,
                    (s.tangent * o.primal + s.primal * o.tangent) / o.primal ** 2)
    assert verdict(ch13.check_dual, slip(__truediv__=div), capsys) == \
        hint("ch13.dual.quotient_sign")


def test_quotient_without_square(capsys):
    def div(s, o):
        o = Dual.lift(o)
        return Dual(s.primal / o.primal, (s.tangent * o.primal - s.primal * o.tangent) / o.primal)
    assert verdict(ch13.check_dual, slip(__truediv__=div), capsys) == \
        hint("ch13.dual.quotient_square")


def test_sin_tangent_from_sin(capsys):
    wrong = slip(sin=lambda s: Dual(math.sin(s.primal), math.sin(s.primal) * s.tangent))
    assert verdict(ch13.check_dual, wrong, capsys) == hint("ch13.dual.sin_tangent")


def test_numbers_refused(capsys):
    class NoNumbers(Dual):
        def __add__(self, other):
            return Dual(self.primal + other.primal, self.tangent + other.tangent)

        __radd__ = None
        __rmul__ = None

    out = verdict(ch13.check_dual, NoNumbers, capsys)
    assert out.startswith("not quite: x + 2 * x - 1 failed with a plain number in it"), out


def test_changed_in_place(capsys):
    def add(s, o):
        o = Dual.lift(o)
        s.primal, s.tangent = s.primal + o.primal, s.tangent + o.tangent
        return s
    wrong = slip(__add__=add, __radd__=add)
    assert verdict(ch13.check_dual, wrong, capsys) == hint("ch13.dual.in_place",
                                                          expr="x + 2 * x - 1")


# --- 13.2 the Jacobian by columns ------------------------------------------------------------
def jacobian_forward(f, x):
    columns = []
    for k in range(x.numel()):
        e = ag.zeros_like(x)
        e[k] = 1.0
        columns.append(ag.func.jvp(f, (x,), (e,))[1])
    return ag.stack(columns, dim=1)


def test_jacobian_forward_passes(capsys):
    assert verdict(ch13.check_jacobian_forward, jacobian_forward, capsys) == "correct"
    assert verdict(ch13.check_jacobian_forward, ..., capsys) == "not attempted yet"


def test_jacobian_transposed(capsys):
    out = verdict(ch13.check_jacobian_forward, lambda f, x: jacobian_forward(f, x).T, capsys)
    assert out == hint("ch13.jac.transposed", shape=[5, 3])


def test_jacobian_by_rows_is_reverse_mode(capsys):
    def by_rows(f, x):  # one vjp per output element (f: R^3 -> R^5)
        rows = []
        for i in range(5):
            _, vjp_fn = ag.func.vjp(f, x)
            rows.append(vjp_fn(ag.eye(5, dtype=x.dtype)[i])[0])
        return ag.stack(rows)
    assert verdict(ch13.check_jacobian_forward, by_rows, capsys) == hint(
        "ch13.jac.rows", passes=5, n=3)


def test_jacobian_one_jvp_too_many(capsys):
    def extra(f, x):
        f(x)
        return jacobian_forward(f, x)
    assert verdict(ch13.check_jacobian_forward, extra, capsys) == hint(
        "ch13.jac.passes", passes=4, n=3)


def test_jacobian_wrong_values(capsys):
    out = verdict(ch13.check_jacobian_forward, lambda f, x: jacobian_forward(f, x) * 2, capsys)
    assert out == hint("ch13.jac.values")


def test_every_key_has_a_chinese_message():
    from autograd_course.course.exercises.messages_zh import MESSAGES as ZH
    keys = [k for k in EN if k.startswith("ch13.")]
    assert keys and all(k in ZH for k in keys)
