"""How a tensor prints: ``TensorPrinting`` (``repr(x)``, ``print(x)``), and
``tensor_repr``, PyTorch's ``repr`` for tensors, written in plain NumPy.

Why this exists: the course diffs our outputs against PyTorch's, so ``repr(ag.tensor(...))``
must print exactly what ``repr(torch.tensor(...))`` prints (torch 2.13, default print options).
This module restates the rules of PyTorch's ``torch/_tensor_str.py`` in a smaller form:

1. One ``_Formatter`` is built for the whole tensor, so every element is padded to the same
   width and the columns line up.
2. A float tensor picks one style from its *non-zero finite* values (zeros, nan and inf never
   influence the choice or the width):

   - scientific ``1.2346e+05`` when max/min > 1000, max > 1e8 or min < 1e-4;
   - otherwise integer style ``3.`` when every such value is a whole number;
   - otherwise fixed point with 4 decimals ``1.2346``.
3. Rows wrap so that a line holds ``(80 - indent) // (width + 2)`` elements; every nesting level
   indents by one more space, so rows line up under the first ``[`` after the prefix.
4. Tensors with more than 1000 elements are summarised: every dimension longer than 6 shows
   only its first and last 3 entries with ``...`` between them; the formatter only looks at
   the entries that are shown.
5. Suffixes (``device=``, ``size=``, ``dtype=``, then ``grad_fn=`` or ``requires_grad=True``)
   follow the numbers, each moved to a new line when it would pass column 80.
"""

from __future__ import annotations

import math

import numpy as np

from .. import _backend
from ..autograd import forward_ad

PRECISION = 4  # digits after the point (fixed) or after the first digit (scientific)
THRESHOLD = 1000  # more elements than this -> summarise with "..."
EDGEITEMS = 3  # entries kept at each end of a summarised dimension
LINEWIDTH = 80  # target line width in characters

# dtypes whose name PyTorch leaves out of a non-empty tensor's repr (float32 is the default
# float dtype, int64 what Python ints become, bool is unambiguous from True/False).
_IMPLICIT_DTYPES = (np.dtype(np.float32), np.dtype(np.int64), np.dtype(np.bool_))


class _Formatter:
    """Turns single elements into equally wide strings, decided once per tensor."""

    def __init__(self, values: np.ndarray) -> None:
        self.is_float = values.dtype.kind == "f"
        self.int_mode = True
        self.sci_mode = False
        self.width = 1
        flat = values.ravel()
        if not self.is_float:
            # Integers and bools: the widest of their plain str() forms.
            self.width = max([1] + [len(str(v)) for v in flat.tolist()])
            return
        shown = flat[np.isfinite(flat) & (flat != 0)]
        if shown.size == 0:
            return  # only zeros / nan / inf: integer style, width 1 ("0.", "nan")
        magnitudes = np.abs(shown).astype(np.float64)  # compare in double, as PyTorch does
        smallest, largest = magnitudes.min(), magnitudes.max()
        self.int_mode = bool(np.all(shown == np.ceil(shown)))
        with np.errstate(over="ignore"):  # e.g. 1e300 / 1e-300 is inf, which is "> 1000"
            ratio = largest / smallest
        self.sci_mode = bool(ratio > 1000.0 or largest > 1.0e8 or smallest < 1.0e-4)
        if self.sci_mode:
            spec, dot = f".{PRECISION}e", 0
        elif self.int_mode:
            spec, dot = ".0f", 1  # room for the trailing "." that marks a float
        else:
            spec, dot = f".{PRECISION}f", 0
        self.width = max(len(format(v, spec)) + dot for v in shown.tolist())

    def format(self, value: float) -> str:
        """Format one Python scalar (float, int or bool), right-aligned to the shared width."""
        if not self.is_float:
            text = str(value)
        elif self.sci_mode:
            text = format(value, f".{PRECISION}e")
        elif self.int_mode:
            text = format(value, ".0f")
            if math.isfinite(value):
                text += "."  # "3." says "float"; "nan" and "inf" need no marker
        else:
            text = format(value, f".{PRECISION}f")
        return text.rjust(self.width)


def _shown_part(array: np.ndarray) -> np.ndarray:
    """The elements a summarised repr actually prints (edges of every long dimension)."""
    for axis, size in enumerate(array.shape):
        if size > 2 * EDGEITEMS:
            keep = list(range(EDGEITEMS)) + list(range(size - EDGEITEMS, size))
            array = np.take(array, keep, axis=axis)
    return array


def _render_vector(row: np.ndarray, indent: int, summarize: bool, fmt: _Formatter) -> str:
    """A 1-d row ``[a, b, c]``, wrapped so that no line passes ``LINEWIDTH``."""
    if summarize and row.shape[0] > 2 * EDGEITEMS:
        items = [fmt.format(v) for v in row[:EDGEITEMS].tolist()]
        items.append(" ...")  # counts as one element when wrapping, like PyTorch
        items += [fmt.format(v) for v in row[-EDGEITEMS:].tolist()]
    else:
        items = [fmt.format(v) for v in row.tolist()]
    per_line = max(1, (LINEWIDTH - indent) // (fmt.width + 2))  # +2 for ", "
    lines = [", ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _render(array: np.ndarray, indent: int, summarize: bool, fmt: _Formatter) -> str:
    """Nested brackets for an n-d array whose first ``[`` sits at column ``indent``.

    Sub-arrays of an n-d array are separated by ``n - 1`` newlines (a blank line between
    matrices of a 3-d tensor) and indented one column deeper than their parent.
    """
    if array.ndim == 0:
        return fmt.format(array.item())
    if array.ndim == 1:
        return _render_vector(array, indent, summarize, fmt)
    size = array.shape[0]
    if summarize and size > 2 * EDGEITEMS:
        picked = list(range(EDGEITEMS)) + [None] + list(range(size - EDGEITEMS, size))
    else:
        picked = list(range(size))
    parts = ["..." if i is None else _render(array[i], indent + 1, summarize, fmt) for i in picked]
    separator = "," + "\n" * (array.ndim - 1) + " " * (indent + 1)
    return "[" + separator.join(parts) + "]"


def _add_suffixes(text: str, suffixes: list[str], indent: int) -> str:
    """Append ``, suffix`` items and the closing ``)``, breaking lines past ``LINEWIDTH``.

    PyTorch measures the current last line as its length + 2 (a quirk of how it subtracts the
    position of the last newline); that is kept so line breaks happen at the same places.
    """
    last_line = len(text) - text.rfind("\n") + 1
    parts = [text]
    for suffix in suffixes:
        if last_line + len(suffix) + 2 > LINEWIDTH:
            parts.append(",\n" + " " * indent + suffix)
            last_line = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line += len(suffix) + 2
    parts.append(")")
    return "".join(parts)


def _torch_dtype_name(dtype: np.dtype) -> str:
    """``torch.float64`` etc.: NumPy and PyTorch share these dtype names."""
    if dtype.kind not in "fiub":
        raise TypeError(f"tensor_repr does not support dtype {dtype}")
    return "torch." + dtype.name


def tensor_repr(
    array: np.ndarray,
    *,
    requires_grad: bool = False,
    grad_fn_name: str | None = None,
    device: str | None = None,
    prefix: str = "tensor(",
    tangent: str | None = None,
) -> str:
    """Return exactly what PyTorch's ``repr(tensor)`` prints for a tensor holding ``array``.

    ``device`` is printed only when it is not the CPU (``'cuda'`` is written ``'cuda:0'`` as
    PyTorch does).  ``grad_fn_name`` (e.g. ``"AddBackward0"``) wins over ``requires_grad``:
    a non-leaf prints its ``grad_fn`` and never ``requires_grad=True``.  ``prefix`` is the text
    before the numbers; continuation lines are indented by its length.
    """
    array = np.asarray(array)
    dtype_name = _torch_dtype_name(array.dtype)
    indent = len(prefix)
    suffixes = []
    if device is not None and device != "cpu":
        suffixes.append(f"device='{'cuda:0' if device == 'cuda' else device}'")
    if array.size == 0:
        # Nothing to look at, so the shape (unless 1-d) and any non-float32 dtype are spelled out.
        if array.ndim != 1:
            suffixes.append(f"size={tuple(array.shape)}")
        if array.dtype != np.float32:
            suffixes.append(f"dtype={dtype_name}")
        body = "[]"
    else:
        if array.dtype not in _IMPLICIT_DTYPES:
            suffixes.append(f"dtype={dtype_name}")
        summarize = array.size > THRESHOLD
        fmt = _Formatter(_shown_part(array) if summarize else array)
        body = _render(array, indent, summarize, fmt)
    if grad_fn_name is not None:
        suffixes.append(f"grad_fn=<{grad_fn_name}>")
    elif requires_grad:
        suffixes.append("requires_grad=True")
    if tangent is not None:  # a dual tensor (autograd/forward_ad.py)
        suffixes.append(f"tangent={tangent}")
    return _add_suffixes(prefix + body, suffixes, indent)


class TensorPrinting:
    """Mixed into ``Tensor``: ``repr(x)`` and ``str(x)``, as PyTorch prints them."""

    __slots__ = ()

    def __repr__(self) -> str:
        fn = self.grad_fn
        return tensor_repr(
            _backend.to_numpy(self._data),
            requires_grad=self._requires_grad,
            grad_fn_name=None if fn is None else fn.name().split("::")[-1],  # as PyTorch
            device=None if self._device is _backend.CPU else str(self._device),
            tangent=_tangent_repr(self),
        )

    __str__ = __repr__


def _tangent_repr(tensor) -> str | None:
    tangent = forward_ad.tangent_of(tensor)
    return None if tangent is None else repr(tangent)
