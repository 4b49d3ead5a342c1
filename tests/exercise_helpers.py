"""Shared helpers for the exercise-checker tests: run a checker, read its one-line verdict."""

from __future__ import annotations


def verdict_of(capsys, check, *args):
    """Run a checker; return (returned verdict, the one line it printed)."""
    verdict = check(*args)
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 1, lines
    assert str(verdict) == lines[0]
    return verdict, lines[0]


def assert_correct(capsys, check, *args) -> None:
    """The checker accepts this answer."""
    verdict, _ = verdict_of(capsys, check, *args)
    assert verdict


def assert_hint(capsys, check, answer, hint: str) -> None:
    """The checker rejects ``answer`` with a line that contains ``hint``."""
    verdict, line = verdict_of(capsys, check, answer)
    assert not verdict and hint in line, line


def assert_not_attempted(capsys, check, placeholder) -> None:
    """A placeholder answer is reported as not attempted (and does not raise)."""
    _, line = verdict_of(capsys, check, placeholder)
    assert line == "not attempted yet"
