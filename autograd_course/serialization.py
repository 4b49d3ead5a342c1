"""``ag.save`` / ``ag.load``: tensors and state dicts in a NumPy ``.npz`` file, without pickle.

PyTorch's ``torch.save`` pickles objects; loading a pickle can run arbitrary code. Here every
array goes into the ``.npz`` under its own entry, and the structure around the arrays
(nested dicts, lists, numbers, strings: e.g. ``{'model': ..., 'optimizer': ..., 'epoch': 3}``)
is stored as JSON text next to them. ``load`` reads with ``allow_pickle=False``.

A plain ``.npz`` of named arrays (for instance torchvision's weights exported with
``numpy.savez(path, **{k: v.numpy() for k, v in state_dict.items()})``) loads as an ordered
dict of tensors, ready for ``load_state_dict``.
"""

from __future__ import annotations

import json
import os
from collections import OrderedDict

import numpy as np

from . import _backend
from .tensor import Tensor

_LAYOUT = "__autograd_course_layout__"  # the entry holding the JSON structure


def save(obj, f) -> None:
    """Write a tensor, a state dict, or nested dicts/lists of them to ``f`` (a path or a
    binary file). The path is used exactly as given (no ``.npz`` is appended)."""
    arrays: dict = {}
    layout = _encode(obj, arrays)
    arrays[_LAYOUT] = np.array(json.dumps(layout))
    if isinstance(f, (str, os.PathLike)):
        with open(f, "wb") as handle:
            np.savez(handle, **arrays)
    else:
        np.savez(f, **arrays)


def load(f, map_location=None, weights_only: bool = True):
    """Read what ``save`` wrote (or any ``.npz`` of named arrays). ``map_location`` may name
    a device to put the tensors on. Only arrays and plain data are ever read: no pickle."""
    device = _backend.as_device(map_location)
    with np.load(f, allow_pickle=False) as archive:
        arrays = {name: archive[name] for name in archive.files}
    if _LAYOUT not in arrays:
        return OrderedDict((name, _tensor(array, device, False))
                           for name, array in arrays.items())
    layout = json.loads(str(arrays.pop(_LAYOUT)))
    return _decode(layout, arrays, device)


def _tensor(array, device, requires_grad: bool) -> Tensor:
    t = Tensor._wrap(_backend.to_device(array, device), device)
    t._requires_grad = requires_grad
    return t


def _encode(obj, arrays: dict):
    """The JSON-able structure of ``obj``, moving every array into ``arrays``."""
    if isinstance(obj, (Tensor, np.ndarray)):
        name = f"t{len(arrays)}"
        if isinstance(obj, Tensor):
            arrays[name] = _backend.to_numpy(obj._data)
            return {"__tensor__": name, "requires_grad": obj._requires_grad}
        arrays[name] = obj
        return {"__ndarray__": name}
    if isinstance(obj, dict):
        items = [[_encode_key(k), _encode(v, arrays)] for k, v in obj.items()]
        return {"__dict__": items, "ordered": isinstance(obj, OrderedDict)}
    if isinstance(obj, tuple):
        return {"__tuple__": [_encode(v, arrays) for v in obj]}
    if isinstance(obj, list):
        return [_encode(v, arrays) for v in obj]
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    if isinstance(obj, np.generic):
        return obj.item()
    raise TypeError(
        f"ag.save stores tensors, arrays, numbers, strings, None and dicts/lists/tuples of "
        f"them; got {type(obj).__name__}")


def _encode_key(key):
    if key is None or isinstance(key, (bool, int, float, str)):
        return key
    raise TypeError(f"ag.save: dict keys must be strings or numbers, got {type(key).__name__}")


def _decode(layout, arrays: dict, device):
    if isinstance(layout, list):
        return [_decode(v, arrays, device) for v in layout]
    if not isinstance(layout, dict):
        return layout
    if "__tensor__" in layout:
        return _tensor(arrays[layout["__tensor__"]], device, layout["requires_grad"])
    if "__ndarray__" in layout:
        return arrays[layout["__ndarray__"]]
    if "__tuple__" in layout:
        return tuple(_decode(v, arrays, device) for v in layout["__tuple__"])
    pairs = [(k, _decode(v, arrays, device)) for k, v in layout["__dict__"]]
    return OrderedDict(pairs) if layout["ordered"] else dict(pairs)
