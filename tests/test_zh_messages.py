"""The checkers' Chinese hints read as Chinese: no space between two Chinese words where a
template meets the value put into it, no English left from the engine's own message, no
markdown asterisks (checkers print plain text), and the same text in English as before."""

from __future__ import annotations

import pytest

import autograd_course as ag
from autograd_course.course import i18n
from autograd_course.course.exercises import ch06
from autograd_course.course.exercises.messages import msg
from autograd_course.course.exercises.messages_zh import MESSAGES as MESSAGES_ZH


@pytest.fixture
def zh():
    i18n.set_language("zh")
    yield
    i18n.set_language(None)


def test_no_space_where_a_chinese_value_meets_a_chinese_template(zh):
    name = msg("ch06.gradient_for", name="b")
    assert name == "你对 b 的梯度"
    assert msg("common.diff.sign", name=name) == "你对 b 的梯度形状对，但符号反了"
    assert msg("common.diff.shape", name=msg("common.your_answer"), shape_a="(2,)",
               shape_e="(3,)") == "你的答案的形状是 (2,)，应为 (3,)"
    # a Latin name keeps its space, as Chinese text does around Latin words
    assert msg("common.diff.sign", name="b_grad") == "b_grad 形状对，但符号反了"
    assert msg("common.raised", name="ValueError") == "你的代码抛出了 ValueError"


def test_every_chinese_template_joins_a_chinese_value_without_a_space(zh):
    """Fill each placeholder with a Chinese word: no "字 字" may come out of a template."""
    import re
    from string import Formatter

    han = "[\u4e00-\u9fff]"
    for key, template in MESSAGES_ZH.items():
        fields = {f.split(".")[0].split("[")[0]: "值" for _, f, _, _ in Formatter().parse(template)
                  if f}
        try:
            text = msg(key, **fields)
        except (ValueError, TypeError):  # a numeric format (:g, :.3f): not a word slot
            continue
        assert not re.search(f"{han} {han}", text), (key, text)


def test_count_of_gradients_is_said_in_chinese(zh):
    error = RuntimeError("function MulConstantBackward returned an incorrect number of gradients "
                         "(expected 2, got 1)")
    hint = ch06._backward_error_hint(error, "MulConstant")
    assert hint == ("MulConstant.backward 必须按顺序为 forward 的每个输入各返回一个值"
                    "（应返回 2 个，实际返回了 1 个）")
    assert "expected" not in hint


def test_count_of_gradients_in_english_is_unchanged():
    error = RuntimeError("function F returned an incorrect number of gradients (expected 2, got 1)")
    assert ch06._backward_error_hint(error, "F") == (
        "F.backward must return one value per input of forward, in order (expected 2, got 1)")


def test_the_mul_constant_checker_prints_the_chinese_count(zh, capsys):
    class OneGrad(ag.autograd.Function):
        @staticmethod
        def forward(ctx, tensor, constant):
            ctx.constant = constant
            return tensor * constant

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output * ctx.constant  # one value for two inputs

    ch06.check_mul_constant(OneGrad)
    out = capsys.readouterr().out
    assert "（应返回 2 个，实际返回了 1 个）" in out and "expected" not in out, out
