"""``SavedTensor``: a tensor kept for backward, and the version it had when it was kept.

Backward formulas often need the forward's values (``MulBackward0`` needs both factors). If
one of them is changed in place before backward runs, the formula would silently use the new
values, so each saved tensor remembers its version then and ``unpack`` compares.

An input is kept as the tensor itself. An *output* of the node that saves it is kept as its
array and version counter only, and rebuilt on ``unpack``: holding the output tensor would make
a cycle (output -> grad_fn -> saved output) that Python's reference counting cannot free.
"""

from __future__ import annotations

from .. import _messages


class SavedTensor:
    __slots__ = ("version", "is_output", "tensor", "data", "device", "version_counter",
                 "requires_grad", "output_nr", "tensor_type")

    def __init__(self, tensor, is_output: bool) -> None:
        self.version = tensor._version
        self.is_output = is_output
        if is_output:
            self.tensor = None
            self.data, self.device = tensor._data, tensor._device
            self.version_counter = tensor._shared_version_counter()
            self.requires_grad, self.output_nr = tensor._requires_grad, tensor._output_nr
            self.tensor_type = type(tensor)
        else:
            self.tensor = tensor

    def unpack(self, node):
        """The saved tensor, or PyTorch's error if it was modified in place since."""
        if self.is_output:
            current = self.version_counter.value
        else:
            current = self.tensor._version
        if current != self.version:
            raise RuntimeError(self._modified_message(node, current))
        if not self.is_output:
            return self.tensor
        out = self.tensor_type._wrap(self.data, self.device)
        out._version_counter = self.version_counter  # same memory, same counter
        if self.requires_grad:
            out._requires_grad, out.grad_fn, out._output_nr = True, node, self.output_nr
        return out

    def _modified_message(self, node, current: int) -> str:
        if self.is_output:
            data, maker, output_nr = self.data, node, self.output_nr
        else:
            data, maker, output_nr = self.tensor._data, self.tensor.grad_fn, self.tensor._output_nr
        name = None
        if maker is not None:  # 'ExpBackward0' -> 'Exp', as PyTorch's message names the op
            name = maker.name()
            name = name[: name.rindex("Backward")] if "Backward" in name else name
        return _messages.modified_by_inplace(data.dtype, data.shape, name, output_nr, current,
                                             self.version)
