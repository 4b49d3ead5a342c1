"""Containers: ``Sequential`` (run modules one after the other), ``ModuleList`` (a list that
registers its modules), both read and changed like a list (``_ModuleSequence``), and
``Identity`` (a placeholder that returns its input)."""

from __future__ import annotations

import operator
from collections import OrderedDict
from collections.abc import Iterable

from ..tensor import Tensor
from .module import Module, _addindent


def _index(idx, size: int) -> int:
    idx = operator.index(idx)
    if not -size <= idx < size:
        raise IndexError(f"index {idx} is out of range")
    return idx % size


class _ModuleSequence(Module):
    """What ``Sequential`` and ``ModuleList`` share: sub-modules named '0', '1', ... (or, for
    a ``Sequential`` made from an ``OrderedDict``, their own names), read and changed like a
    Python list: ``len``, iteration, indexing, slicing (a new container of the same class),
    item assignment and deletion (renumbering the rest, as PyTorch does), ``append``,
    ``extend`` and ``insert``."""

    def _from_named(self, named: list) -> _ModuleSequence:
        """A new container of this class holding the ``(name, module)`` pairs ``named``."""
        raise NotImplementedError

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return self._from_named(list(self._modules.items())[idx])
        return list(self._modules.values())[_index(idx, len(self))]

    def __setitem__(self, idx, module: Module) -> None:
        key = list(self._modules)[_index(idx, len(self))]
        setattr(self, key, module)  # as PyTorch: a Parameter or a wrong type is setattr's affair

    def __delitem__(self, idx) -> None:
        modules = list(self._modules.values())
        if isinstance(idx, slice):
            del modules[idx]
        else:
            del modules[_index(idx, len(self))]
        self.__dict__["_modules"] = {str(i): m for i, m in enumerate(modules)}

    def append(self, module: Module) -> _ModuleSequence:
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules: Iterable[Module]) -> _ModuleSequence:
        for module in modules:
            self.append(module)
        return self

    def insert(self, index: int, module: Module) -> None:
        modules = list(self._modules.values())
        modules.insert(index, module)
        self.__dict__["_modules"] = {str(i): m for i, m in enumerate(modules)}


class Sequential(_ModuleSequence):
    """``Sequential(a, b, c)(x)`` is ``c(b(a(x)))``. Sub-modules are named '0', '1', ...

    Also accepts an ``OrderedDict`` of named modules. Supports ``len``, indexing, slicing
    (a new ``Sequential``), item assignment and ``append``.
    """

    def __init__(self, *args: Module) -> None:
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for name, module in args[0].items():
                self.add_module(name, module)
        else:
            for i, module in enumerate(args):
                self.add_module(str(i), module)

    def _from_named(self, named: list) -> Sequential:
        return type(self)(OrderedDict(named))

    def forward(self, x: Tensor) -> Tensor:
        for module in self._modules.values():
            x = module(x)
        return x

    def insert(self, index: int, module: Module) -> Sequential:
        super().insert(index, module)
        return self  # (ModuleList's insert returns None, as in PyTorch)


class ModuleList(_ModuleSequence):
    """A Python list of modules whose parameters the parent module can see."""

    def __init__(self, modules: Iterable[Module] | None = None) -> None:
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def _from_named(self, named: list) -> ModuleList:
        return type(self)([module for _, module in named])

    def __repr__(self) -> str:
        """Runs of identical modules print once: ``(0-2): 3 x Linear(...)`` (as PyTorch)."""
        reprs = [repr(m) for m in self]
        if not reprs:
            return self._get_name() + "()"
        runs = []  # [start, end, text]
        for i, text in enumerate(reprs):
            if runs and runs[-1][2] == text:
                runs[-1][1] = i
            else:
                runs.append([i, i, text])
        lines = []
        for start, end, text in runs:
            line = f"({start}): {text}" if start == end else \
                f"({start}-{end}): {end - start + 1} x {text}"
            lines.append(_addindent(line, 2))
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"


class Identity(Module):
    """Returns its input unchanged (any constructor arguments are ignored)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__()

    def forward(self, x: Tensor) -> Tensor:
        return x
