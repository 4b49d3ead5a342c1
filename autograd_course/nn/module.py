"""``Module``: the base class of every layer and every model.

A module is a Python object whose attributes are registered as they are assigned:
``Parameter`` values go to ``_parameters``, sub-modules to ``_modules``, and
``register_buffer`` adds non-learned state (BatchNorm's running statistics) to ``_buffers``.
Because dicts keep insertion order, everything is listed in definition order, and the dotted
names (``layer1.0.conv1.weight``) are simply the attribute path. That is all PyTorch's
``named_parameters`` and ``state_dict`` are.

Walks over the module tree use an explicit stack (never recursion), like the autograd engine.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from .. import _messages
from ..autograd.zero_grad import zero_grads
from ..tensor import Tensor
from ..tensor_base import RemovableHandle
from .backward_hooks import BackwardHook
from .parameter import Buffer, Parameter
from .state import ModuleState


def _addindent(text: str, spaces: int) -> str:
    """Indent every line but the first (how nested module reprs are laid out)."""
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    rest = [(" " * spaces) + line if line.strip() else "" for line in lines[1:]]
    return "\n".join([lines[0]] + rest)


def _type_name(t: Tensor) -> str:
    return _messages.type_name(t._data.dtype)


class Module(ModuleState):
    """Base class for all neural network modules. Subclass it and define ``forward``."""

    training: bool

    def __init__(self, *args: object, **kwargs: object) -> None:
        if args or kwargs:
            raise TypeError(
                f"{type(self).__name__}.__init__() takes no arguments")
        set_ = object.__setattr__
        set_(self, "training", True)
        set_(self, "_parameters", {})
        set_(self, "_buffers", {})
        set_(self, "_non_persistent_buffers", set())
        set_(self, "_modules", {})
        set_(self, "_forward_hooks", [])
        set_(self, "_forward_pre_hooks", [])
        set_(self, "_backward_hooks", [])
        set_(self, "_backward_pre_hooks", [])

    # --- calling --------------------------------------------------------------------------
    def forward(self, *args: object, **kwargs: object) -> Any:
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function')

    def __call__(self, *args: object, **kwargs: object) -> Any:
        """Run the pre-hooks, ``forward``, then the hooks (which may replace the output);
        with backward hooks, inputs and outputs pass through their nodes (backward_hooks.py)."""
        backward_hooked = (self.__dict__.get("_backward_hooks")
                           or self.__dict__.get("_backward_pre_hooks"))
        if not (self._forward_pre_hooks or self._forward_hooks or backward_hooked):
            return self.forward(*args, **kwargs)  # no hook: the usual call, nothing else to do
        for hook in list(self._forward_pre_hooks):
            result = hook(self, args)
            if result is not None:
                args = result if isinstance(result, tuple) else (result,)
        backward_hook = None
        if backward_hooked:
            backward_hook = BackwardHook(self, list(self._backward_hooks),
                                         list(self._backward_pre_hooks))
            args = backward_hook.setup_input_hook(args)
        output = self.forward(*args, **kwargs)
        for hook in list(self._forward_hooks):
            result = hook(self, args, output)
            if result is not None:
                output = result
        if backward_hook is not None:
            output = backward_hook.setup_output_hook(output)
        return output

    def register_forward_hook(self, hook: Callable[..., object]) -> RemovableHandle:
        """``hook(module, inputs, output)`` after each forward; e.g. to look at activations."""
        self._forward_hooks.append(hook)
        return RemovableHandle(self._forward_hooks, hook)

    def register_forward_pre_hook(self, hook: Callable[..., object]) -> RemovableHandle:
        """``hook(module, inputs)`` before each forward; may return replacement inputs."""
        self._forward_pre_hooks.append(hook)
        return RemovableHandle(self._forward_pre_hooks, hook)

    def register_full_backward_hook(self, hook: Callable[..., object]) -> RemovableHandle:
        """``hook(module, grad_input, grad_output)`` once the gradients of the module's inputs
        are computed; may return replacements for ``grad_input``."""
        self._backward_hooks.append(hook)
        return RemovableHandle(self._backward_hooks, hook)

    def register_full_backward_pre_hook(self, hook: Callable[..., object]) -> RemovableHandle:
        """``hook(module, grad_output)`` before the module's gradients are computed; may
        return replacements for ``grad_output``."""
        self._backward_pre_hooks.append(hook)
        return RemovableHandle(self._backward_pre_hooks, hook)

    # --- registration -----------------------------------------------------------------------
    def __setattr__(self, name: str, value) -> None:
        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._forget(name, keep=self._parameters)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{_type_name(value) if isinstance(value, Tensor) else type(value).__name__}' "  # noqa: E501
                    f"as parameter '{name}' (torch.nn.Parameter or None expected)")
            params[name] = None
        elif isinstance(value, Module):
            if self.__dict__.get("_modules") is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._forget(name, keep=self._modules)
            self._modules[name] = value
        elif self.__dict__.get("_modules") is not None and name in self._modules:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{type(value).__name__}' as child module '{name}' "
                    "(torch.nn.Module or None expected)")
            self._modules[name] = None
        elif isinstance(value, Buffer):  # self.stats = nn.Buffer(t)
            if self.__dict__.get("_buffers") is None:
                raise AttributeError("cannot assign buffer before Module.__init__() call")
            self._forget(name, keep=self._buffers)
            self.register_buffer(name, value, value.persistent)
        elif self.__dict__.get("_buffers") is not None and name in self._buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(
                    f"cannot assign '{type(value).__name__}' as buffer '{name}' "
                    "(torch.Tensor or None expected)")
            self._buffers[name] = value
        else:
            object.__setattr__(self, name, value)

    def _forget(self, name: str, keep: dict) -> None:
        """Remove ``name`` from the other registries before it is (re)registered in ``keep``
        (which keeps its position there: replacing ``seq[1]`` keeps it second)."""
        self.__dict__.pop(name, None)
        for registry in (self._parameters, self._buffers, self._modules):
            if registry is not keep:
                registry.pop(name, None)
        self._non_persistent_buffers.discard(name)

    def __getattr__(self, name: str):
        # only called when normal lookup fails: look in the registries
        d = self.__dict__
        for registry in ("_parameters", "_buffers", "_modules"):
            if registry in d and name in d[registry]:
                return d[registry][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        for registry in (self._parameters, self._buffers, self._modules):
            if name in registry:
                del registry[name]
                self._non_persistent_buffers.discard(name)
                return
        object.__delattr__(self, name)

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        """Add a parameter (or ``None``: a declared but absent one, like ``bias=False``)."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        _check_name(name, "parameter")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(
                f"cannot assign '{_type_name(param) if isinstance(param, Tensor) else type(param).__name__}' "  # noqa: E501
                f"object to parameter '{name}' (torch.nn.Parameter or None required)")
        if param is not None and param.grad_fn is not None:
            raise ValueError(
                f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must "
                "be created explicitly.")
        self._parameters[name] = param

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        """Add state that is saved in ``state_dict`` (if persistent) but not learned."""
        _check_name(name, "buffer")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(
                f"cannot assign '{type(tensor).__name__}' object to buffer '{name}' "
                "(torch Tensor or None required)")
        self.__dict__.pop(name, None)
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers.discard(name)
        else:
            self._non_persistent_buffers.add(name)

    def add_module(self, name: str, module: Module | None) -> None:
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{type(module).__name__} is not a Module subclass")
        _check_name(name, "module")
        self._modules[name] = module

    register_module = add_module

    # --- walking the tree -------------------------------------------------------------------
    def named_modules(self, memo: set[Module] | None = None, prefix: str = "",
                      remove_duplicate: bool = True) -> Iterator[tuple[str, Module]]:
        """Every module in the tree (this one first), depth first, in definition order."""
        seen = set() if memo is None else memo
        stack = [(prefix, self)]
        while stack:
            name, module = stack.pop()
            if remove_duplicate:
                if id(module) in seen:
                    continue
                seen.add(id(module))
            yield name, module
            children = [(f"{name}.{key}" if name else key, child)
                        for key, child in module._modules.items() if child is not None]
            stack.extend(reversed(children))

    def modules(self) -> Iterator[Module]:
        for _, module in self.named_modules():
            yield module

    def named_children(self) -> Iterator[tuple[str, Module]]:
        seen = set()
        for name, module in self._modules.items():
            if module is not None and id(module) not in seen:
                seen.add(id(module))
                yield name, module

    def children(self) -> Iterator[Module]:
        for _, module in self.named_children():
            yield module

    def _named_members(self, registry: str, prefix: str, recurse: bool,
                       remove_duplicate: bool = True):
        seen = set()
        tree = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) \
            if recurse else [(prefix, self)]
        for module_prefix, module in tree:
            for name, value in getattr(module, registry).items():
                if value is None or (remove_duplicate and id(value) in seen):
                    continue
                seen.add(id(value))
                yield (f"{module_prefix}.{name}" if module_prefix else name), value

    def named_parameters(self, prefix: str = "", recurse: bool = True,
                         remove_duplicate: bool = True) -> Iterator[tuple[str, Parameter]]:
        """``(dotted_name, parameter)`` pairs, e.g. ``('layer1.0.conv1.weight', ...)``."""
        return self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(self, prefix: str = "", recurse: bool = True,
                      remove_duplicate: bool = True) -> Iterator[tuple[str, Tensor]]:
        return self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def get_submodule(self, target: str) -> Module:
        """``model.get_submodule('layer2.0.downsample.0')``."""
        module = self
        for item in target.split(".") if target else []:
            if item not in module._modules:
                raise AttributeError(f"{module._get_name()} has no attribute `{item}`")
            module = module._modules[item]
        return module

    def get_parameter(self, target: str) -> Parameter:
        path, _, name = target.rpartition(".")
        module = self.get_submodule(path)
        if name not in module._parameters:
            raise AttributeError(f"{module._get_name()} has no parameter `{name}`")
        return module._parameters[name]

    def apply(self, fn: Callable[[Module], object]) -> Module:
        """Call ``fn`` on every sub-module, children before parents (e.g. custom init)."""
        order, stack = [], [self]
        while stack:  # pre-order, last child first; reversed, that is children-first order
            module = stack.pop()
            order.append(module)
            stack.extend(child for child in module._modules.values() if child is not None)
        for module in reversed(order):
            fn(module)
        return self

    # --- modes and gradients ----------------------------------------------------------------
    def train(self, mode: bool = True) -> Module:
        """Training mode: BatchNorm uses batch statistics, Dropout drops."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        for module in self.modules():
            object.__setattr__(module, "training", mode)
        return self

    def eval(self) -> Module:
        """Evaluation mode: BatchNorm uses its running statistics, Dropout does nothing."""
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        """Freeze (False) or unfreeze every parameter, e.g. before fine-tuning one layer."""
        for param in self.parameters():
            param.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Forget the gradients of the last backward (by default: set them to None)."""
        zero_grads(self.parameters(), set_to_none)

    # --- printing ---------------------------------------------------------------------------
    def _get_name(self) -> str:
        return type(self).__name__

    def extra_repr(self) -> str:
        """The text inside ``Name(...)``; layers override it (``in_features=5, ...``)."""
        return ""

    def __repr__(self) -> str:
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({key}): " + _addindent(repr(module), 2)
                       for key, module in self._modules.items()]
        lines = extra_lines + child_lines
        text = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                text += extra_lines[0]
            else:
                text += "\n  " + "\n  ".join(lines) + "\n"
        return text + ")"

    def __dir__(self):
        names = list(super().__dir__())
        names += list(self._parameters) + list(self._buffers) + list(self._modules)
        return sorted(set(n for n in names if not n[0].isdigit()))


def _check_name(name: str, kind: str) -> None:
    if not isinstance(name, str):
        raise TypeError(f"{kind} name should be a string. Got {type(name).__name__}")
    if "." in name:
        raise KeyError(f'{kind} name can\'t contain "."')
    if name == "":
        raise KeyError(f'{kind} name can\'t be empty string ""')


def layer_error(layer: Module, message: str, kind: type[Exception] = RuntimeError) -> Exception:
    """An input error that names the layer first: ``Linear(in_features=5, ...): <message>``."""
    return kind(f"{layer!r}: {message}")
