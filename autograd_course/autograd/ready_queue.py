"""The queue of nodes ready to run, ordered exactly as PyTorch's engine orders them.

PyTorch keeps ready nodes in a C++ ``std::priority_queue`` and runs the node with the largest
sequence number first: the node created last. Every ``AccumulateGrad`` (a leaf's node) has
the largest possible number, so a leaf's gradient is stored as soon as it is complete. When
several leaves are ready together their numbers tie, and which runs first is decided by the
shape of the heap inside the priority queue (for ``torch.cat`` of five leaves: 0, 2, 4, 1, 3).
To run nodes in PyTorch's order, this class is a binary max-heap that moves its entries the
way the C++ standard library's ``push_heap`` and ``pop_heap`` do (GCC's libstdc++).
"""

from __future__ import annotations


class ReadyQueue(list):
    """``push(node)``, ``pop()`` the node to run next. The list itself is the heap: ``self[0]``
    runs next, and an empty queue is false, like any empty list."""

    def push(self, node) -> None:
        self.append(node)
        self._sift_up(len(self) - 1, 0, node)

    def pop(self):
        top, last = self[0], list.pop(self)
        if self:  # move the last entry into the hole the top leaves, as pop_heap does
            self._adjust(0, len(self), last)
        return top

    def _sift_up(self, hole: int, top: int, node) -> None:
        """Move ``node`` up from ``hole`` while its parent runs later (``__push_heap``)."""
        heap, key = self, node.sequence_nr
        parent = (hole - 1) // 2
        while hole > top and heap[parent].sequence_nr < key:
            heap[hole] = heap[parent]
            hole = parent
            parent = (hole - 1) // 2
        heap[hole] = node

    def _adjust(self, hole: int, length: int, node) -> None:
        """Push the hole at ``hole`` down to a leaf along the larger children, then place
        ``node`` by sifting it up from there (``__adjust_heap``)."""
        heap, top, child = self, hole, hole
        while child < (length - 1) // 2:
            child = 2 * (child + 1)  # the right child...
            if heap[child].sequence_nr < heap[child - 1].sequence_nr:
                child -= 1  # ...unless the left one runs first
            heap[hole] = heap[child]
            hole = child
        if length % 2 == 0 and child == (length - 2) // 2:  # a last node with only a left child
            child = 2 * (child + 1)
            heap[hole] = heap[child - 1]
            hole = child - 1
        self._sift_up(hole, top, node)
