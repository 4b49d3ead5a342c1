"""The engine's ready queue runs nodes in PyTorch's order, ties between leaves included.

In PyTorch every AccumulateGrad has the same (largest) sequence number, so when several leaves
become ready together the order is decided by the heap inside its ``std::priority_queue``.
These tests fire a hook on every tensor and compare the order with torch's.
"""

from __future__ import annotations

import random

import pytest

import autograd_course as ag
from autograd_course.autograd.graph import Node
from autograd_course.autograd.ready_queue import ReadyQueue


class _Node(Node):  # a node of its own sequence number; Node orders the heap
    def __init__(self, sequence_nr: int, label: str) -> None:
        self.sequence_nr, self.label = sequence_nr, label


def test_newest_node_first_and_leaves_before_all():
    queue = ReadyQueue()
    for seq, label in [(3, "a"), (7, "b"), (2**64 - 1, "leaf"), (5, "c")]:
        queue.push(_Node(seq, label))
    assert [queue.pop().label for _ in range(4)] == ["leaf", "b", "c", "a"]
    assert len(queue) == 0


def test_a_node_is_less_when_it_runs_first():
    newer, older, leaf = _Node(7, "newer"), _Node(3, "older"), _Node(2**64 - 1, "leaf")
    assert newer < older and leaf < newer
    assert not older < newer and not newer < newer  # a tie is not less either way


def test_graph_nodes_order_where_pytorch_refuses(torch_oracle):
    """The README's divergence: ours compare by which runs first, PyTorch's cannot compare."""
    x = ag.ones(2, requires_grad=True)
    first, second = x * 2, (x * 2).exp()
    assert second.grad_fn < first.grad_fn  # made later, so it runs first
    assert not first.grad_fn < second.grad_fn
    t = torch_oracle.ones(2, requires_grad=True)
    with pytest.raises(TypeError):
        _ = (t * 2).exp().grad_fn < (t * 2).grad_fn


def test_ties_follow_the_heap_not_arrival_order():
    queue = ReadyQueue()
    for i in range(5):
        queue.push(_Node(0, str(i)))
    assert [queue.pop().label for _ in range(5)] == ["0", "2", "4", "1", "3"]


def _cat_hook_order(lib, n: int, combine: str):
    log = []
    leaves = [lib.ones(2, requires_grad=True) for _ in range(n)]
    for i, leaf in enumerate(leaves):
        leaf.register_hook(lambda g, i=i: log.append(i))
    joined = lib.cat(leaves) if combine == "cat" else lib.stack(leaves)
    joined.sum().backward()
    return log


@pytest.mark.parametrize("combine", ["cat", "stack"])
def test_many_leaves_ready_together_match_torch(torch_oracle, combine):
    for n in range(1, 21):
        assert _cat_hook_order(ag, n, combine) == _cat_hook_order(torch_oracle, n, combine), n


def test_course_example_orders():
    assert _cat_hook_order(ag, 5, "cat") == [0, 2, 4, 1, 3]
    assert _cat_hook_order(ag, 8, "cat") == [0, 2, 6, 5, 7, 4, 1, 3]


def _random_wide_graph(lib, seed: int):
    """Random graphs where many nodes and leaves become ready at once (cat/stack/sum)."""
    rng = random.Random(seed)
    log = []
    pool = []
    for i in range(rng.randint(2, 9)):
        t = lib.tensor([1.0 + i, 0.5], requires_grad=True)
        t.register_hook(lambda g, name=f"leaf{i}": log.append(name))
        pool.append(t)
    for k in range(rng.randint(1, 6)):
        kind = rng.choice(["cat", "stack", "mul", "exp"])
        picked = rng.sample(pool, rng.randint(1, min(5, len(pool))))
        if kind == "cat":
            t = lib.cat(picked)[:2]
        elif kind == "stack":
            t = lib.stack(picked).sum(0)
        elif kind == "mul":
            t = picked[0] * picked[-1]
        else:
            t = (picked[0] * 0.1).exp()
        t.register_hook(lambda g, name=f"t{k}": log.append(name))
        pool.append(t)
    sum(rng.sample(pool, rng.randint(1, len(pool)))).sum().backward()
    return log


def test_random_wide_graphs_match_torch(torch_oracle):
    for seed in range(200):
        assert _random_wide_graph(ag, seed) == _random_wide_graph(torch_oracle, seed), seed
