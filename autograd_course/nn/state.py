"""Saving, loading and moving a module's tensors: ``state_dict``, ``load_state_dict``, ``to``.

``Module`` inherits these from ``ModuleState``. A state dict is an ordered mapping from the
dotted names of ``named_parameters`` / ``named_buffers`` to tensors; loading copies values
in place, so parameters keep their identity (an optimizer holding them stays valid).
"""

from __future__ import annotations

from collections import OrderedDict, namedtuple
from collections.abc import Mapping

import numpy as np

from .. import _backend, dtypes
from ..autograd import grad_mode
from ..tensor import Tensor


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What ``load_state_dict`` returns; prints like PyTorch's when everything matched."""

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


class ModuleState:
    """The state-dict and device/dtype methods of ``Module``."""

    # --- state ------------------------------------------------------------------------------
    def _state_items(self, prefix: str = ""):
        """(name, owning module, local name, kind) for every entry ``state_dict`` holds."""
        for module_prefix, module in self.named_modules(prefix=prefix, remove_duplicate=False):
            dot = f"{module_prefix}." if module_prefix else ""
            for name, param in module._parameters.items():
                if param is not None:
                    yield dot + name, module, name, "_parameters"
            for name, buf in module._buffers.items():
                if buf is not None and name not in module._non_persistent_buffers:
                    yield dot + name, module, name, "_buffers"

    def state_dict(self, destination: dict | None = None, prefix: str = "",
                   keep_vars: bool = False) -> dict[str, Tensor]:
        """An ordered ``{name: tensor}`` of every parameter and persistent buffer.

        The tensors share memory with the module's (detached, unless ``keep_vars``).
        """
        out = OrderedDict() if destination is None else destination
        for key, module, name, registry in self._state_items(prefix):
            value = getattr(module, registry)[name]
            out[key] = value if keep_vars else value.detach()
        return out

    def load_state_dict(self, state_dict: Mapping[str, Tensor], strict: bool = True,
                        assign: bool = False) -> object:
        """Copy values into this module's parameters and buffers, by name.

        Values may be our tensors or NumPy arrays. With ``strict`` (the default) missing and
        unexpected keys are an error; a shape mismatch always is. Nothing is copied unless
        everything fits.
        """
        if not hasattr(state_dict, "keys"):
            raise TypeError(
                f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        expected = OrderedDict((key, (module, name, registry))
                               for key, module, name, registry in self._state_items())
        missing = [key for key in expected if key not in state_dict]
        unexpected = [key for key in state_dict if key not in expected]
        errors, copies = [], []
        for key, (module, name, registry) in expected.items():
            if key not in state_dict:
                continue
            target = getattr(module, registry)[name]
            value = state_dict[key]
            array = value._data if isinstance(value, Tensor) else np.asarray(value)
            if tuple(array.shape) != tuple(target.shape):
                errors.append(
                    f"size mismatch for {key}: copying a param with shape "
                    f"torch.Size({list(array.shape)}) from checkpoint, the shape in current "
                    f"model is {target.shape!r}.")
                continue
            copies.append((target, array))
        if strict:
            if unexpected:
                errors.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected)))
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in missing)))
        if errors:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                type(self).__name__, "\n\t".join(errors)))
        with grad_mode.no_grad():
            for target, array in copies:
                target._data[...] = _backend.to_device(
                    _backend.to_numpy(array).astype(target._data.dtype, copy=False),
                    target._device)
                target._bump_version()
        return _IncompatibleKeys(missing, unexpected)

    # --- moving and casting -----------------------------------------------------------------
    def _apply(self, fn) -> ModuleState:
        """Replace every parameter's and buffer's data by ``fn(tensor)``.

        Parameters keep their identity (only ``.data`` changes), so an optimizer built
        before ``model.to(...)`` still holds the right objects.
        """
        for module in self.modules():
            for param in module._parameters.values():
                if param is None:
                    continue
                param.data = fn(param)
                if param._grad is not None:
                    param._grad = fn(param._grad)
            for name, buf in module._buffers.items():
                if buf is not None:
                    module._buffers[name] = fn(buf)
        return self

    def to(self, *args: object, **kwargs: object) -> ModuleState:
        """``to(device)``, ``to(dtype)`` or both; only floating point tensors change dtype."""
        device, dtype = kwargs.get("device"), kwargs.get("dtype")
        for arg in args:
            if isinstance(arg, dtypes.dtype):
                dtype = arg
            elif isinstance(arg, Tensor):
                device, dtype = arg.device, arg.dtype
            else:
                device = arg
        if dtype is not None and not dtype.is_floating_point:
            raise TypeError(
                "nn.Module.to only accepts floating point or complex dtypes, but got desired "
                f"dtype={dtype}")

        def convert(t: Tensor) -> Tensor:
            cast = dtype if dtype is not None and t.is_floating_point() else None
            with grad_mode.no_grad():
                return t.detach().to(device=device, dtype=cast)

        return self._apply(convert)

    def float(self) -> ModuleState:
        return self.to(dtypes.float32)

    def double(self) -> ModuleState:
        return self.to(dtypes.float64)

    def cpu(self) -> ModuleState:
        return self.to("cpu")

    def cuda(self, device: str | _backend.device | None = None) -> ModuleState:
        return self.to("cuda" if device is None else _backend.device("cuda", device))

