"""Exercise 9.3, the engine's loop written by the learner: the checker accepts Kahn's algorithm
(dependency counts, a ready queue, buffers that add up contributions, delivery down
``next_functions``, AccumulateGrad at the leaves), rejects a plain depth-first order and a
loop without buffers, and gives each of its hints to a wrong answer that earns it
(``test_every_hint_is_tested``). The same solution runs on torch and gives torch's gradients:
the exercise uses only what PyTorch's nodes offer (``node(*grads)``, ``next_functions``)."""

from __future__ import annotations

import ast
import re
from collections import deque
from pathlib import Path

import numpy as np
import pytest
from exercise_helpers import assert_hint, assert_not_attempted, verdict_of

import autograd_course as ag
from autograd_course.autograd.ready_queue import ReadyQueue
from autograd_course.course.exercises import ch09
from autograd_course.course.exercises.messages_en import MESSAGES

TESTED: set[str] = set()


def _hint(key: str) -> str:
    TESTED.add(key)
    return MESSAGES[key].split("{")[0]


# --- the solution, and variants of it with one mistake each --------------------------------------
def make_run_backward(ag, *, add=True, engine_queue=False, skip_none=True, no_grad=True,
                      use_start=True, wrap=True):
    """The solution of exercise 9.3 written over the module ``ag`` (the package or torch)."""

    def run_backward(root, grad):
        dependencies, stack = {}, [root.grad_fn]  # 1. count the gradients each node will get
        while stack:
            for child, _ in stack.pop().next_functions:
                if child is None and skip_none:
                    continue
                if child not in dependencies:
                    dependencies[child] = 0
                    stack.append(child)
                dependencies[child] += 1
        buffers = {root.grad_fn: grad if use_start else ag.ones_like(grad)}
        ready, order = [root.grad_fn], []  # 2. run the nodes whose gradients have all arrived
        if engine_queue:  # the engine's own: the newest node first, ties as PyTorch's heap
            ready = ReadyQueue()
            ready.push(root.grad_fn)
        with ag.set_grad_enabled(not no_grad):
            while ready:
                node = ready.pop()
                grads = node(buffers.pop(node))
                order.append(node)
                if wrap and not isinstance(grads, tuple):  # one input: a tensor, not a tuple
                    grads = (grads,)
                for (child, _), g in zip(node.next_functions, grads):  # 3. deliver
                    if child is None:
                        continue
                    if g is not None:
                        buffers[child] = buffers[child] + g if add and child in buffers else g
                    dependencies[child] -= 1
                    if dependencies[child] == 0:
                        ready.push(child) if engine_queue else ready.append(child)
        return order

    return run_backward


run_backward = make_run_backward(ag)


def _todo(root, grad):
    raise NotImplementedError


def _dots(root, grad):
    ...


def plain_dfs(root, grad):
    """A stack DFS: each node called once, when first reached, with what has arrived so far."""
    buffers, order, seen, stack = {root.grad_fn: grad}, [], {root.grad_fn}, [root.grad_fn]
    with ag.no_grad():
        while stack:
            node = stack.pop()
            grads = node(buffers.pop(node))
            order.append(node)
            grads = grads if isinstance(grads, tuple) else (grads,)
            for (child, _), g in zip(node.next_functions, grads):
                if child is None:
                    continue
                if g is not None:
                    buffers[child] = buffers[child] + g if child in buffers else g
                if child not in seen:
                    seen.add(child)
                    stack.append(child)
    return order


def recursive_dfs(root, grad):
    """The same, written as a function that calls itself (the way note 001 describes it)."""
    order, buffers, seen = [], {root.grad_fn: grad}, set()

    def visit(node):
        seen.add(node)
        grads = node(buffers.pop(node))
        order.append(node)
        grads = grads if isinstance(grads, tuple) else (grads,)
        for (child, _), g in zip(node.next_functions, grads):
            if child is not None:
                buffers[child] = buffers[child] + g if child in buffers else g
                if child not in seen:
                    visit(child)

    with ag.no_grad():
        visit(root.grad_fn)
    return order


def recursive_topological(root, grad):
    """A correct order and buffers, but the order comes from a recursive post-order walk: fine
    on small graphs, too deep for a chain of 3000 nodes."""
    post, seen = [], set()

    def visit(node):
        seen.add(node)
        for child, _ in node.next_functions:
            if child is not None and child not in seen:
                visit(child)
        post.append(node)

    visit(root.grad_fn)
    buffers = {root.grad_fn: grad}
    with ag.no_grad():
        for node in reversed(post):
            grads = node(buffers.pop(node))
            grads = grads if isinstance(grads, tuple) else (grads,)
            for (child, _), g in zip(node.next_functions, grads):
                if child is not None:
                    buffers[child] = buffers[child] + g if child in buffers else g
    return list(reversed(post))


def no_buffers(root, grad):
    """No waiting, no buffers: a queue of (node, gradient), each node called once per
    gradient it receives (right gradients, by linearity, but repeated work)."""
    queue, order = deque([(root.grad_fn, grad)]), []
    with ag.no_grad():
        while queue:
            node, g = queue.popleft()
            grads = node(g)
            order.append(node)
            grads = grads if isinstance(grads, tuple) else (grads,)
            for (child, _), gi in zip(node.next_functions, grads):
                if child is not None:
                    queue.append((child, gi))
    return order


def forgets_leaves(root, grad):
    return [n for n in run_backward(root, grad) if not hasattr(n, "variable")]


def lists_without_calling(root, grad):
    """Orders the nodes like Kahn's algorithm, but never calls an AccumulateGrad."""
    order = run_backward(root, grad)
    for node in order:
        if hasattr(node, "variable"):
            node.variable.grad = None
    return order


WRONG = [
    (plain_dfs, "ch09.loop.early"),
    (recursive_dfs, "ch09.loop.early"),
    (no_buffers, "ch09.loop.twice"),
    (lambda root, grad: list(dict.fromkeys(no_buffers(root, grad))), "ch09.loop.twice"),
    (make_run_backward(ag, add=False), "ch09.loop.sum"),
    (recursive_topological, "ch09.loop.recursion"),
    (make_run_backward(ag, skip_none=False), "ch09.loop.none_edge"),
    (lambda root, grad: set(run_backward(root, grad)), "ch09.loop.type"),
    (forgets_leaves, "ch09.loop.missing"),
    (lists_without_calling, "ch09.loop.no_grad"),
    (make_run_backward(ag, no_grad=False), "ch09.loop.recorded"),
    (make_run_backward(ag, use_start=False), "ch09.loop.start"),
    (make_run_backward(ag, wrap=False), "ch09.loop.tuple"),
]


def test_a_correct_kahn_loop_is_accepted(capsys):
    _, line = verdict_of(capsys, ch09.check_run_backward, run_backward)
    assert line == f"correct ({MESSAGES['ch09.loop.other_order']})"


def test_the_engines_own_order_is_named(capsys):
    _, line = verdict_of(capsys, ch09.check_run_backward,
                         make_run_backward(ag, engine_queue=True))
    assert line == f"correct ({MESSAGES['ch09.loop.same_order']})"


@pytest.mark.parametrize("placeholder", [..., _todo, _dots], ids=["ellipsis", "todo", "dots"])
def test_placeholders_are_not_attempted(capsys, placeholder):
    assert_not_attempted(capsys, ch09.check_run_backward, placeholder)


@pytest.mark.parametrize("answer, key", WRONG, ids=[f"{a.__name__}-{k}" for a, k in WRONG])
def test_a_wrong_answer_gets_its_hint(capsys, answer, key):
    assert_hint(capsys, ch09.check_run_backward, answer, _hint(key))


def test_every_hint_is_tested():
    source = Path(ch09.__file__).read_text(encoding="utf-8")
    keys = {node.value for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and re.fullmatch(r"ch09\.loop\.[a-z_]+", node.value)}
    verdicts = {"ch09.loop.same_order", "ch09.loop.other_order"}
    assert keys - verdicts == {k for _, k in WRONG}, sorted(keys ^ {k for _, k in WRONG})


def test_no_buffers_gets_right_gradients_but_is_rejected(capsys):
    """Linearity makes a loop without buffers sum the right gradients into the leaves, so the
    checker must see the repeated calls, not only the gradients."""
    root, leaves, start = ch09._random_graph(0)
    want = ag.autograd.grad(root, leaves, start, retain_graph=True)
    order = no_buffers(root, start)
    assert len(order) > len(set(order))
    for leaf, g in zip(leaves, want):
        assert np.allclose(leaf.grad.numpy(), g.numpy())


def test_the_random_graphs_have_what_the_exercise_needs():
    """Across the checker's graphs: None edges, a node fed by several nodes (shared results,
    diamonds), a node with two edges to the same node (x * x), and several leaves."""
    none_edges = shared = same_twice = 0
    for seed in range(8):
        root, leaves, _ = ch09._random_graph(seed)
        assert len(leaves) >= 2
        nodes = ch09._reachable(root.grad_fn)
        incoming = {}
        for node in nodes:
            children = [c for c, _ in node.next_functions]
            none_edges += children.count(None)
            same_twice += any(c is not None and children.count(c) > 1 for c in children)
            for child in set(children) - {None}:
                incoming[child] = incoming.get(child, 0) + 1
        shared += sum(n > 1 for n in incoming.values())
    assert none_edges and shared and same_twice


def test_calling_nodes_directly_matches_torch(torch_oracle):
    """What the exercise relies on, as PyTorch does it: a built-in node called with its
    output's gradient returns one tensor for one input, a tuple for several (None where an
    input needs no gradient), and an AccumulateGrad node adds into ``.grad`` and returns ();
    the node's hooks do not run (they are the engine's, not the node's)."""
    results = []
    for lib in (ag, torch_oracle):
        x = lib.tensor([0.5, -1.0], requires_grad=True)
        c = lib.tensor([2.0, 3.0])
        y = x * c
        s = y.sum()
        acc = y.grad_fn.next_functions[0][0]
        hooked = []
        y.grad_fn.register_prehook(lambda grads, hooked=hooked: hooked.append("pre"))
        y.grad_fn.register_hook(lambda gi, go, hooked=hooked: hooked.append("post"))
        one = s.grad_fn(lib.tensor(1.0))
        pair = y.grad_fn(lib.ones(2))
        assert hooked == []
        first = acc(lib.ones(2))
        acc(lib.ones(2) * 2)
        nothing = acc(None)
        with pytest.raises(TypeError, match="expected 1 arguments, got 2 instead"):
            acc(lib.ones(2), lib.ones(2))
        results.append((type(one).__name__, one.tolist(), type(pair).__name__,
                        pair[0].tolist(), pair[1], first, nothing, x.grad.tolist(),
                        acc.variable is x, y.grad_fn.next_functions[1]))
    assert results[0] == results[1]


def test_the_solution_runs_on_torch(torch_oracle):
    """The solution, over torch, on the checker's graphs built from torch tensors (same seeds,
    same ops): torch's gradients, each node called once, in a valid order."""
    torch = torch_oracle
    solve = make_run_backward(torch)

    def leaf(values, requires_grad=False):
        return torch.tensor(values, dtype=torch.float64, requires_grad=requires_grad)

    for seed in range(8):
        root, leaves, start = ch09._random_graph(seed, leaf)
        want = torch.autograd.grad(root, leaves, start, retain_graph=True, allow_unused=True)
        order = solve(root, start)
        position = {node: i for i, node in enumerate(order)}
        assert len(position) == len(order)
        assert all(position[node] < position[child] for node in order
                   for child, _ in node.next_functions if child is not None)
        for p, g in zip(leaves, want):
            assert (p.grad is None) if g is None else torch.allclose(p.grad, g)
