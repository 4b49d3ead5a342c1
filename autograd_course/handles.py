"""``RemovableHandle``: what ``register_hook`` (on a tensor, a node or a module) returns;
``handle.remove()`` takes the hook away again. PyTorch's ``torch.utils.hooks.RemovableHandle``.
"""

from __future__ import annotations


class RemovableHandle:
    """What ``register_hook`` returns: ``handle.remove()`` takes the hook away again."""

    __slots__ = ("hooks", "entry")

    def __init__(self, hooks: list, entry) -> None:
        self.hooks, self.entry = hooks, entry

    def remove(self) -> None:
        if self.entry in self.hooks:
            self.hooks.remove(self.entry)

    def __enter__(self) -> RemovableHandle:  # `with x.register_hook(f):` removes it after
        return self

    def __exit__(self, *exc_info) -> None:
        self.remove()
