"""The course layer's named helpers for chapters 8 and 9 (course/stand_ins.py), and the setup
check in the Chinese chapters' language."""

from __future__ import annotations

import re
import sys

import pytest

import autograd_course as ag
from autograd_course import _backend
from autograd_course.course import i18n, setup_check, stand_ins


def test_stand_in_gpu_swaps_the_backend_for_one_block_and_puts_it_back():
    real = _backend._cupy
    with stand_ins.stand_in_gpu() as on_stand_in:
        assert on_stand_in
        a = ag.ones(3, device="cuda")
        assert a.device.type == "cuda"
        with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
            a + ag.ones(3)
    assert _backend._cupy is real and ag.ones(1).device.type == "cpu"


def test_stand_in_gpu_puts_the_backend_back_after_an_error():
    real = _backend._cupy
    with pytest.raises(ValueError), stand_ins.stand_in_gpu():
        raise ValueError("inside the block")
    assert _backend._cupy is real


def test_stand_in_gpu_says_when_there_is_none(monkeypatch, tmp_path):
    monkeypatch.setattr(stand_ins, "FAKE_CUPY", tmp_path / "missing.py")
    real = _backend._cupy
    with stand_ins.stand_in_gpu() as on_stand_in:
        assert on_stand_in is False and _backend._cupy is real


def test_standard_recursion_limit(monkeypatch):
    limit = sys.getrecursionlimit()
    try:
        assert stand_ins.standard_recursion_limit() == limit  # CPython: left as it is
        monkeypatch.setattr(sys, "platform", "emscripten")
        sys.setrecursionlimit(3000)  # the browser edition's
        assert stand_ins.standard_recursion_limit() == 1000 == sys.getrecursionlimit()
    finally:
        sys.setrecursionlimit(limit)


@pytest.mark.parametrize("lang, words", [("en", r"version|arrays on the CPU"),
                                         ("zh", r"版本|CPU 上的数组")])
def test_setup_check_speaks_the_course_language(lang, words):
    lines = []
    i18n.set_language(lang)
    try:
        setup_check.check_installation(show=lines.append)
    finally:
        i18n.set_language(None)
    text = "\n".join(lines)
    assert re.search(words, text), text
    if lang == "zh":  # every detail is Chinese (names of programs and packages aside)
        assert "version" not in text and "arrays on the CPU" not in text, text


def test_every_english_line_has_its_chinese():
    english = [why for _, why, _, _ in setup_check.PARTS] + list(
        setup_check.BROWSER_FIXES.values())
    assert all(text in setup_check.ZH for text in english)
