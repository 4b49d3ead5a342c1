"""A module's backward hooks: ``register_full_backward_hook`` and
``register_full_backward_pre_hook``, built from graph hooks as PyTorch builds them.

When a module with such hooks is called, its tensor inputs and its tensor outputs each pass
through an identity ``Function`` (``BackwardHookFunction``). In backward, a post-hook on the
outputs' node sees the gradients of the module's outputs (``grad_output``; the pre-hooks may
replace them), and a post-hook on the inputs' node sees the gradients of its inputs
(``grad_input``) and calls ``hook(module, grad_input, grad_output)``, which may replace them.
When no input requires grad, the hooks run with the outputs' node, with a warning as PyTorch's.
"""

from __future__ import annotations

import warnings

from ..autograd import grad_mode
from ..autograd.function import Function
from ..tensor import Tensor


class BackwardHookFunction(Function):
    """The identity on a module's inputs or outputs: its node is where the hooks go."""

    @staticmethod
    def forward(ctx, *args):
        ctx.mark_non_differentiable(*[a for a in args if not a.requires_grad])
        return args

    @staticmethod
    def backward(ctx, *grads):
        return grads


NO_INPUT_REQUIRES_GRAD = (
    "Full backward hook is firing when gradients are computed with respect to module outputs "
    "since no inputs require gradients. See https://docs.pytorch.org/docs/main/generated/"
    "torch.nn.Module.html#torch.nn.Module.register_full_backward_hook for more details.")


def _packed(indices, values, size: int) -> tuple:
    """``values`` at the positions ``indices`` of a tuple of ``size`` (``None`` elsewhere)."""
    result = [None] * size
    for i, value in zip(indices, values):
        result[i] = value
    return tuple(result)


class BackwardHook:
    """The hooks of one call of a module."""

    def __init__(self, module, hooks: list, pre_hooks: list) -> None:
        self.module, self.hooks, self.pre_hooks = module, hooks, pre_hooks
        self.grad_outputs = None
        self.n_inputs = self.n_outputs = -1
        self.input_index = self.output_index = None

    def _wrap(self, args: tuple, register) -> tuple:
        """``args`` with its tensors passed through ``BackwardHookFunction`` (when one
        requires grad and grad mode is on), and the positions of the tensors."""
        index = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        tensors = [args[i] for i in index]
        if not (grad_mode.is_grad_enabled() and any(t.requires_grad for t in tensors)):
            return args, None
        wrapped = BackwardHookFunction.apply(*tensors)
        register(next(t.grad_fn for t in wrapped if t.grad_fn is not None))
        args = list(args)
        for i, t in zip(index, wrapped):
            args[i] = t
        return tuple(args), index

    def setup_input_hook(self, args: tuple) -> tuple:
        def register(node) -> None:
            node.register_hook(self._input_hook)

        self.n_inputs = len(args)
        args, self.input_index = self._wrap(args, register)
        return args

    def setup_output_hook(self, output):
        def register(node) -> None:
            node.register_hook(self._output_hook)

        single = not isinstance(output, tuple)
        outputs = (output,) if single else output
        self.n_outputs = len(outputs)
        outputs, self.output_index = self._wrap(outputs, register)
        return outputs[0] if single else outputs

    def _output_hook(self, grad_inputs, grad_outputs):
        """The gradients of the outputs arrived: the pre-hooks, then (when no input needs a
        gradient) the hooks right away."""
        self.grad_outputs = _packed(self.output_index, grad_outputs, self.n_outputs)
        for hook in self.pre_hooks:
            result = hook(self.module, self.grad_outputs)
            if result is None:
                continue
            if len(result) != len(self.grad_outputs):
                raise RuntimeError("Backward pre hook returned an invalid number of grad_output, "
                                   f"got {len(result)}, but expected {len(self.grad_outputs)}")
            self.grad_outputs = result
        grad_outputs = self.grad_outputs
        if self.input_index is None:
            # stacklevel 6: the learner's ``loss.backward()`` (through Tensor.backward, the
            # engine's backward and _run, and the node's post-hooks), as PyTorch's 5 points at
            warnings.warn(NO_INPUT_REQUIRES_GRAD, UserWarning, stacklevel=6)
            for hook in self.hooks:
                result = hook(self.module, (None,) * self.n_inputs, self.grad_outputs)
                if result is not None and not (isinstance(result, tuple)
                                               and all(r is None for r in result)):
                    raise RuntimeError("Backward hook for Modules where no input requires "
                                       "gradient should always return None or None for all "
                                       "gradients.")
            self.grad_outputs = None
        return tuple(grad_outputs[i] for i in self.output_index)

    def _input_hook(self, grad_inputs, grad_outputs):
        """The gradients of the inputs arrived: call the hooks; each may replace them."""
        if self.grad_outputs is None:  # reached without passing the outputs (double backward)
            return None
        result = _packed(self.input_index, grad_inputs, self.n_inputs)
        for hook in self.hooks:
            out = hook(self.module, result, self.grad_outputs)
            if out is None:
                continue
            if len(out) != len(result):
                raise RuntimeError("Backward hook returned an invalid number of grad_input, got "
                                   f"{len(out)}, but expected {len(result)}")
            result = out
        self.grad_outputs = None
        return tuple(result[i] for i in self.input_index)
