"""Shared helpers for the exercise-checker tests: run a checker, read its one-line verdict;
and the correct answers that several test files give the same checkers."""

from __future__ import annotations

import autograd_course as ag


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


# --- correct answers, as a learner would write them --------------------------------------------
def jacobian(f, x, *, reset=True, clone=True):
    """Exercise 2.1: one backward per output element, each row read from ``x.grad``.
    ``reset=False`` forgets to clear ``x.grad`` between rows; ``clone=False`` keeps the very
    ``.grad`` tensor (the typical mistakes)."""
    x = x.detach().requires_grad_()
    y = f(x)
    rows = []
    for i in range(y.numel()):
        if reset:
            x.grad = None
        y.backward(ag.eye(y.numel(), dtype=y.dtype)[i], retain_graph=True)
        rows.append(x.grad.clone() if clone else x.grad)
    return ag.stack(rows)


def find_leaves(t):
    """Exercise 3.1: every leaf below ``t``, walking ``next_functions`` with a stack."""
    found, seen, stack = [], set(), [t.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        if hasattr(node, "variable"):
            found.append(node.variable)
        stack.extend(nxt for nxt, _ in node.next_functions)
    return found


def batch_gradients(w, batches):
    """Exercise 4.2: one gradient per batch, ``w.grad`` cleared before each backward."""
    grads = []
    for x, y in batches:
        w.grad = None
        ((x @ w - y) ** 2).mean().backward()
        grads.append(w.grad.clone())
    return grads


def topo_order(t):
    """Exercise 9.1: Kahn's algorithm, counting each node's incoming edges first."""
    pending, stack, seen = {}, [t.grad_fn], {t.grad_fn}
    while stack:
        for nxt, _ in stack.pop().next_functions:
            if nxt is None:
                continue
            pending[nxt] = pending.get(nxt, 0) + 1
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    ready, order = [t.grad_fn], []
    while ready:
        node = ready.pop()
        order.append(node)
        for nxt, _ in node.next_functions:
            if nxt is not None:
                pending[nxt] -= 1
                if pending[nxt] == 0:
                    ready.append(nxt)
    return order
