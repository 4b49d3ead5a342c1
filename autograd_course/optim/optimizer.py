"""``Optimizer``: what every optimizer shares.

An optimizer holds ``param_groups`` (lists of parameters, each with its own options such as
``lr``) and a per-parameter ``state`` (a momentum buffer, Adam's moment estimates...).
``step()`` reads each parameter's ``.grad`` and updates the parameter in place, outside
autograd; ``zero_grad()`` clears the gradients before the next backward. Parameters whose
``.grad`` is None (frozen ones, or ones the loss did not reach) are skipped.
"""

from __future__ import annotations

import warnings
from collections import defaultdict

from .. import _messages
from ..autograd import grad_mode
from ..autograd.zero_grad import zero_grads
from ..tensor import Tensor


class _RequiredParameter:
    def __repr__(self) -> str:
        return "<required parameter>"


required = _RequiredParameter()


class Optimizer:
    """Base class: subclasses set ``defaults`` and implement ``step``."""

    def __init__(self, params, defaults: dict) -> None:
        self.defaults = defaults
        self.state: defaultdict = defaultdict(dict)  # parameter -> its state dict
        self.param_groups: list[dict] = []
        if isinstance(params, Tensor):
            raise TypeError(
                "params argument given to the optimizer should be an iterable of Tensors or "
                f"dicts, but got {_messages.type_name(params._data.dtype)}")
        groups = list(params)
        if len(groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, param_group: dict) -> None:
        """Add a group of parameters with its own options (missing ones use ``defaults``)."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group).__name__}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            params = [params]
        elif isinstance(params, set):
            raise TypeError(
                "optimizer parameters need to be organized in ordered collections, but the "
                "ordering of tensors in sets will change between runs. Please use a list "
                "instead.")
        params = list(params)
        for p in params:
            if not isinstance(p, Tensor):
                raise TypeError(
                    f"optimizer can only optimize Tensors, but one of the params is "
                    f"{type(p).__module__}.{type(p).__name__}")
            if not (p.is_leaf or p.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        group = dict(param_group, params=params)
        for name, default in self.defaults.items():
            if default is required and name not in group:
                raise ValueError(
                    "parameter group didn't specify a value of required optimization "
                    f"parameter {name}")
            group.setdefault(name, default)
        ids = [id(p) for p in params]
        if len(set(ids)) != len(ids):
            warnings.warn(
                "optimizer contains a parameter group with duplicate parameters; in future, "
                "this will cause an error; see github.com/pytorch/pytorch/issues/40967 for "
                "more information", UserWarning, stacklevel=3)
        existing = {id(p) for g in self.param_groups for p in g["params"]}
        if existing & set(ids):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(group)

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Clear every parameter's gradient (set it to None, or fill it with zeros)."""
        zero_grads((p for group in self.param_groups for p in group["params"]), set_to_none)

    def step(self, closure=None):
        raise NotImplementedError

    def _closure_loss(self, closure):
        """Some algorithms re-evaluate the loss; ``closure`` recomputes it with grad on."""
        if closure is None:
            return None
        with grad_mode.enable_grad():
            return closure()

    def state_dict(self) -> dict:
        """``{'state': {index: {...}}, 'param_groups': [...]}`` with parameters as indices
        (PyTorch's layout)."""
        index, groups, start = {}, [], 0
        for group in self.param_groups:
            ids = list(range(start, start + len(group["params"])))
            index.update({id(p): i for p, i in zip(group["params"], ids)})
            groups.append({**{k: v for k, v in group.items() if k != "params"}, "params": ids})
            start += len(ids)
        state = {index[id(p)]: dict(s) for p, s in self.state.items() if id(p) in index}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict: dict) -> None:
        """Restore options and state saved by ``state_dict`` (same parameter layout)."""
        groups = state_dict["param_groups"]
        if len(groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        params = []
        for mine, saved in zip(self.param_groups, groups):
            if len(mine["params"]) != len(saved["params"]):
                raise ValueError(
                    "loaded state dict contains a parameter group that doesn't match the size "
                    "of optimizer's group")
            params += list(zip(saved["params"], mine["params"]))
        by_index = dict(params)
        for mine, saved in zip(self.param_groups, groups):
            mine.update({k: v for k, v in saved.items() if k != "params"})
        self.state = defaultdict(dict)
        for index, s in state_dict["state"].items():
            p = by_index[int(index)]
            self.state[p] = {k: _copy_state(v, p, k) for k, v in s.items()}

    def __repr__(self) -> str:
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"


def _copy_state(value, param, key):
    """A private copy of a saved state entry, on the parameter's device (Adam's ``step``
    counter stays where it is, as in PyTorch)."""
    if not isinstance(value, Tensor):
        return value
    copy = value.detach().clone()
    return copy if key == "step" else copy.to(param.device)
