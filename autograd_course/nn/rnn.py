"""``LSTM`` and ``LSTMCell``: the long short-term memory layer, as ``torch.nn``'s.

One step, for an input x and the state (h, c), with the gates in PyTorch's order i, f, g, o::

    i = σ(W_ii x + b_ii + W_hi h + b_hi)        input gate
    f = σ(W_if x + b_if + W_hf h + b_hf)        forget gate
    g = tanh(W_ig x + b_ig + W_hg h + b_hg)     candidate cell
    o = σ(W_io x + b_io + W_ho h + b_ho)        output gate
    c' = f * c + i * g
    h' = o * tanh(c')

The four W_i· are stacked in ``weight_ih`` (4·hidden, input), the four W_h· in ``weight_hh``
(4·hidden, hidden), and so are the biases. ``LSTM`` runs the step along the sequence, layer
after layer (a layer's outputs h are the next layer's inputs). Nothing here has a backward of
its own: autograd differentiates through the steps (backpropagation through time).
"""

from __future__ import annotations

import math
import warnings

from .. import _backend, creation, dtypes
from ..ops import stack
from ..tensor import Tensor
from . import functional as F
from . import init
from .module import Module
from .parameter import Parameter


def lstm_cell(x: Tensor, h: Tensor, c: Tensor, w_ih: Tensor, w_hh: Tensor,
              b_ih: Tensor | None, b_hh: Tensor | None) -> tuple[Tensor, Tensor]:
    """One step (the formulas above): the new (h, c)."""
    gates = F.linear(x, w_ih, b_ih) + F.linear(h, w_hh, b_hh)
    i, f, g, o = gates.chunk(4, dim=-1)
    c = f.sigmoid() * c + i.sigmoid() * g.tanh()
    h = o.sigmoid() * c.tanh()
    return h, c


class _LSTMBase(Module):
    """The parameters both layers share: ``weight_ih<suffix>`` (4·hidden, input),
    ``weight_hh<suffix>`` (4·hidden, hidden), and with ``bias`` the two biases (4·hidden),
    all initialised from U(-1/√hidden, 1/√hidden), as PyTorch's."""

    def _add_parameters(self, suffix: str, input_size: int, device, dtype) -> None:
        shapes = {"weight_ih": (4 * self.hidden_size, input_size),
                  "weight_hh": (4 * self.hidden_size, self.hidden_size)}
        if self.bias:
            shapes.update(bias_ih=(4 * self.hidden_size,), bias_hh=(4 * self.hidden_size,))
        for name, shape in shapes.items():
            self.register_parameter(name + suffix, Parameter(
                creation.empty(*shape, device=device, dtype=dtype)))

    def _weights(self, suffix: str) -> tuple:
        """(w_ih, w_hh, b_ih, b_hh) of one layer; the biases are None without ``bias``."""
        return tuple(getattr(self, name + suffix, None)
                     for name in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"))

    def reset_parameters(self) -> None:
        bound = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():  # in PyTorch's order, so a seed gives its numbers
            init.uniform_(weight, -bound, bound)

    def _zeros(self, input: Tensor, *shape: int) -> Tensor:
        return creation.zeros(*shape, dtype=input.dtype, device=input.device)

    def _check_input(self, input: Tensor) -> None:
        if input.shape[-1] != self.input_size:
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected "
                               f"{self.input_size}, got {input.shape[-1]}")


class LSTMCell(_LSTMBase):
    """One LSTM step: ``h', c' = cell(x, (h, c))``; x is (N, input_size) or (input_size,),
    the state (N, hidden_size) each, zeros when not given."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True,
                 device: str | _backend.device | None = None,
                 dtype: dtypes.dtype | None = None) -> None:
        super().__init__()
        self.input_size, self.hidden_size, self.bias = input_size, hidden_size, bias
        self._add_parameters("", input_size, device, dtype)
        self.reset_parameters()

    def forward(self, input: Tensor, hx: tuple[Tensor, Tensor] | None = None):
        self._check_input(input)
        batched = input.ndim == 2
        if not batched:  # one sample: a batch of one, and back
            input = input.unsqueeze(0)
            hx = None if hx is None else (hx[0].unsqueeze(0), hx[1].unsqueeze(0))
        if hx is None:
            zeros = self._zeros(input, input.shape[0], self.hidden_size)
            hx = (zeros, zeros)
        h, c = lstm_cell(input, hx[0], hx[1], *self._weights(""))
        return (h, c) if batched else (h.squeeze(0), c.squeeze(0))

    def extra_repr(self) -> str:
        return f"{self.input_size}, {self.hidden_size}" + (", bias=False" if not self.bias
                                                           else "")


class LSTM(_LSTMBase):
    """``output, (h_n, c_n) = lstm(input, (h_0, c_0))``.

    input: (L, N, input_size), or (N, L, input_size) with ``batch_first``, or (L, input_size)
    for one sequence; h_0 and c_0: (num_layers, N, hidden_size), zeros when not given.
    output: the last layer's h at every step, (L, N, hidden_size) (batch first if asked);
    h_n, c_n: every layer's state after the last step. ``dropout`` is applied, in training, to
    the outputs of every layer but the last. Layer k's parameters end in ``_l<k>``.
    (``bidirectional`` and ``proj_size`` are not implemented.)
    """

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, proj_size: int = 0,
                 device: str | _backend.device | None = None,
                 dtype: dtypes.dtype | None = None) -> None:
        super().__init__()
        if bidirectional or proj_size:
            raise NotImplementedError("LSTM here has no bidirectional or proj_size option")
        if dropout > 0 and num_layers == 1:
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so "
                          "non-zero dropout expects num_layers greater than 1, but got "
                          f"dropout={dropout} and num_layers={num_layers}")
        self.input_size, self.hidden_size, self.num_layers = input_size, hidden_size, num_layers
        self.bias, self.batch_first, self.dropout = bias, batch_first, float(dropout)
        self.bidirectional, self.proj_size = bidirectional, proj_size
        for layer in range(num_layers):
            self._add_parameters(f"_l{layer}", input_size if layer == 0 else hidden_size,
                                 device, dtype)
        self.reset_parameters()

    def forward(self, input: Tensor, hx: tuple[Tensor, Tensor] | None = None):
        self._check_input(input)
        batched = input.ndim == 3
        if not batched:  # one sequence: a batch of one, and back
            input = input.unsqueeze(1)
            hx = None if hx is None else (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
        elif self.batch_first:
            input = input.transpose(0, 1)  # (L, N, input_size): time first
        if hx is None:
            zeros = self._zeros(input, self.num_layers, input.shape[1], self.hidden_size)
            hx = (zeros, zeros)
        layer_input, h_n, c_n = input, [], []
        for layer in range(self.num_layers):
            weights = self._weights(f"_l{layer}")
            h, c, outputs = hx[0][layer], hx[1][layer], []
            for x in layer_input.unbind(0):  # the steps, in order
                h, c = lstm_cell(x, h, c, *weights)
                outputs.append(h)
            layer_input = stack(outputs)
            if self.dropout and self.training and layer < self.num_layers - 1:
                layer_input = F.dropout(layer_input, self.dropout, True)
            h_n.append(h)
            c_n.append(c)
        output, h_n, c_n = layer_input, stack(h_n), stack(c_n)
        if not batched:
            return output.squeeze(1), (h_n.squeeze(1), c_n.squeeze(1))
        return (output.transpose(0, 1) if self.batch_first else output), (h_n, c_n)

    def extra_repr(self) -> str:
        text = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            text += f", num_layers={self.num_layers}"
        if not self.bias:
            text += ", bias=False"
        if self.batch_first:
            text += ", batch_first=True"
        if self.dropout:
            text += f", dropout={self.dropout}"
        return text
