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
import zipfile
from collections import OrderedDict

import numpy as np

from . import _backend, dtypes
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


_READS = ("ag.load reads the .npz archives ag.save writes (NumPy arrays plus a JSON layout, "
          "never pickle) or an .npz of named arrays")


class _Refused(ValueError):
    """A file ``ag.load`` will not read; the message says what the file is."""


class _Missing(KeyError):
    """The layout names an array the archive does not hold."""


def _array(arrays: dict, key, used: set):
    if not isinstance(key, str) or key not in arrays:
        raise _Missing(key)
    used.add(key)
    return arrays[key]


def load(f, map_location=None, weights_only: bool = True):
    """Read what ``save`` wrote (or any ``.npz`` of named arrays). ``map_location`` may name
    a device to put the tensors on. Only arrays and plain data are ever read: no pickle.

    Anything else (a ``torch.save`` checkpoint, a single ``.npy`` array, an archive whose
    arrays no longer match its layout, arrays of a dtype tensors cannot hold, bytes that are
    no archive at all) is refused with a ``ValueError`` that says what the file is.
    """
    device = _backend.as_device(map_location)
    name = os.fspath(f) if isinstance(f, (str, os.PathLike)) else "the file"
    _check_kind(f, name)
    try:
        with np.load(f, allow_pickle=False) as archive:
            arrays = {key: archive[key] for key in archive.files}
    except ValueError as err:
        if "allow_pickle" in str(err):
            raise _Refused(f"ag.load: {name} holds arrays of Python objects, which only pickle "
                           f"can read (allow_pickle=False here); {_READS}.") from None
        raise _Refused(f"ag.load: {name} is not a readable .npz archive ({err}); "
                       f"{_READS}.") from None
    except (OSError, zipfile.BadZipFile, EOFError) as err:
        raise _Refused(f"ag.load: {name} is a damaged .npz archive ({err}); {_READS}.") from None
    for key, array in arrays.items():
        if key != _LAYOUT:
            _check_dtype(name, key, array)
    if _LAYOUT not in arrays:
        return OrderedDict((key, _tensor(array, device, False)) for key, array in arrays.items())
    try:
        layout = json.loads(str(arrays.pop(_LAYOUT)))
        used: set = set()
        result = _decode(layout, arrays, device, used)
    except (ValueError, KeyError, TypeError, AttributeError) as err:
        detail = f"it names array {err} that is not in the file" if isinstance(err, _Missing) \
            else f"{type(err).__name__}: {err}"
        raise _Refused(f"ag.load: the layout stored in {name} does not describe its arrays "
                       f"({detail}): the file was edited or damaged; {_READS}.") from None
    extra = sorted(set(arrays) - used)
    if extra:
        raise _Refused(f"ag.load: {name} holds arrays its layout does not use ({extra}): the "
                       f"file was edited after ag.save wrote it; {_READS}.")
    return result


def _check_kind(f, name: str) -> None:
    """Refuse, by their first bytes, the files that are not .npz archives at all."""
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as handle:
            head = handle.read(8)
    elif hasattr(f, "seek") and hasattr(f, "read"):
        start = f.tell()
        head = f.read(8)
        f.seek(start)
    else:
        return
    if head.startswith(b"\x93NUMPY"):
        raise _Refused(f"ag.load: {name} is a single NumPy array (a .npy file, numpy.save's "
                       "format); load it with numpy.load and wrap it with ag.from_numpy. "
                       f"{_READS}.")
    if head.startswith(b"PK"):
        names = _zip_names(f)
        if any(n.endswith("data.pkl") or n.endswith("/version") for n in names):
            raise _Refused(
                f"ag.load: {name} is a PyTorch checkpoint (torch.save's zip of pickled "
                "objects), which ag.load does not unpickle. Export it from PyTorch with "
                "numpy.savez(path, **{k: v.numpy() for k, v in state_dict.items()}) and load "
                f"that file. {_READS}.")
        if names and not all(n.endswith(".npy") for n in names):
            raise _Refused(f"ag.load: {name} is a zip archive of other files than NumPy "
                           f"arrays ({sorted(names)[:5]}); {_READS}.")
        return
    if head[:1] == b"\x80":
        raise _Refused(f"ag.load: {name} is pickled data (an old-style torch.save file or "
                       f"pickle.dump), which ag.load never unpickles; {_READS}.")
    raise _Refused(f"ag.load: {name} is not an .npz archive (it starts with {head!r}); "
                   f"{_READS}.")


def _zip_names(f) -> list:
    try:
        if isinstance(f, (str, os.PathLike)):
            with zipfile.ZipFile(f) as archive:
                return archive.namelist()
        start = f.tell()
        try:
            with zipfile.ZipFile(f) as archive:
                return archive.namelist()
        finally:
            f.seek(start)
    except zipfile.BadZipFile:
        return []


def _check_dtype(name: str, key: str, array) -> None:
    try:
        dtypes.from_numpy(array.dtype)
    except (TypeError, NotImplementedError):  # uint16 and the like: NotImplementedError
        raise _Refused(f"ag.load: array {key!r} in {name} has dtype {array.dtype}, which a "
                       "tensor cannot hold (float16/32/64, int8/16/32/64, uint8 and bool "
                       f"can); {_READS}.") from None


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


def _decode(layout, arrays: dict, device, used: set):
    if isinstance(layout, list):
        return [_decode(v, arrays, device, used) for v in layout]
    if not isinstance(layout, dict):
        return layout
    if "__tensor__" in layout:
        requires_grad = layout["requires_grad"]
        array = _array(arrays, layout["__tensor__"], used)
        if requires_grad and array.dtype.kind not in "fc":
            raise TypeError(f"array {layout['__tensor__']!r} of dtype {array.dtype} is marked "
                            "requires_grad")
        return _tensor(array, device, bool(requires_grad))
    if "__ndarray__" in layout:
        return _array(arrays, layout["__ndarray__"], used)
    if "__tuple__" in layout:
        return tuple(_decode(v, arrays, device, used) for v in layout["__tuple__"])
    pairs = [(k, _decode(v, arrays, device, used)) for k, v in layout["__dict__"]]
    return OrderedDict(pairs) if layout["ordered"] else dict(pairs)
