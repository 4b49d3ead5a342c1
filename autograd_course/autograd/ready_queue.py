"""The queue of nodes ready to run, ordered exactly as PyTorch's engine orders them.

PyTorch keeps ready nodes in a C++ ``std::priority_queue`` and runs the node with the largest
sequence number first: the node created last. Every ``AccumulateGrad`` (a leaf's node) has
the largest possible number, so a leaf's gradient is stored as soon as it is complete. When
several leaves are ready together their numbers tie, and which runs first is decided by the
shape of the heap inside the priority queue (for ``torch.cat`` of five leaves: 0, 2, 4, 1, 3).

Python's ``heapq`` moves entries the same way as the C++ standard library's ``push_heap`` and
``pop_heap`` (GCC's libstdc++): a push sifts the new entry up while it beats its parent; a pop
moves the last entry to the top, walks the hole down along the children that win (the right
one on a tie), then sifts the entry up from there. So a heap of nodes ordered by
``Node.__lt__`` ("runs first": the larger sequence number) runs them in PyTorch's order, ties
included (``tests/test_ready_queue.py`` compares the two on graphs with many ties).
"""

from __future__ import annotations

import heapq


class ReadyQueue(list):
    """``push(node)``, ``pop()`` the node to run next. The list itself is the heap: ``self[0]``
    runs next, and an empty queue is false, like any empty list."""

    def push(self, node) -> None:
        heapq.heappush(self, node)

    def pop(self):
        return heapq.heappop(self)
