"""``Function``: one differentiable operation, and ``Node``: its record in the graph.

A ``Function`` is two static methods. ``forward(ctx, *inputs)`` computes the result (grad mode
is off inside it, so nothing it does is recorded twice); ``backward(ctx, *grad_outputs)``
receives dL/d(output) and returns dL/d(input) for each input. ``apply`` runs ``forward`` and,
when some input requires grad, links the result into the graph.

The ``ctx`` handed to both methods *is* the graph node: the object PyTorch calls ``grad_fn``.
It remembers what ``forward`` saved and, in ``next_functions``, the nodes that made each input.
Every built-in op in ``autograd_course.ops`` is a ``Function`` written exactly like the ones a
learner writes, and the engine runs them all the same way.
"""

from __future__ import annotations

import itertools
import warnings

from . import grad_mode

_tensor_class = None  # autograd_course.tensor.Tensor, looked up once
_sequence = itertools.count()  # creation order of nodes: the engine runs newer nodes first

_FREED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward."
)


def _Tensor():  # noqa: N802
    """The Tensor class, imported on first use (tensor.py imports this module's users)."""
    global _tensor_class
    if _tensor_class is None:
        from ..tensor import Tensor

        _tensor_class = Tensor
    return _tensor_class


class Node:
    """A recorded operation: what ``tensor.grad_fn`` points to.

    ``next_functions`` holds one ``(node, output_nr)`` pair per tensor input: the node that
    produced that input (``AccumulateGrad`` for a leaf that requires grad, ``None`` for an
    input that needs no gradient). Following these pairs from the loss reaches every leaf.
    """

    __slots__ = ("next_functions", "_seq", "_pre_hooks", "_released", "__dict__", "__weakref__")
    _output_meta: tuple = (None,)  # (shape, dtype) per output; one output unless recorded

    def __init__(self) -> None:
        self.next_functions: tuple = ()
        self._seq = next(_sequence)
        self._pre_hooks = None  # hooks on this node's outputs: [(output_nr, fn), ...]
        self._released = False

    def name(self) -> str:
        return type(self).__name__

    def register_prehook(self, hook, output_nr: int = 0):
        """Call ``hook(grad)`` on the gradient of output ``output_nr`` before this node runs."""
        if self._pre_hooks is None:
            self._pre_hooks = []
        entry = (output_nr, hook)
        self._pre_hooks.append(entry)
        return _RemovableHandle(self._pre_hooks, entry)

    def __repr__(self) -> str:
        return f"<{self.name()} object at {hex(id(self))}>"


class _RemovableHandle:
    """What ``register_hook`` returns: ``handle.remove()`` takes the hook away again."""

    __slots__ = ("_hooks", "_entry")

    def __init__(self, hooks: list, entry) -> None:
        self._hooks, self._entry = hooks, entry

    def remove(self) -> None:
        if self._entry in self._hooks:
            self._hooks.remove(self._entry)


class AccumulateGrad(Node):
    """The node at a leaf: adds the gradient that reaches it into ``variable.grad``."""

    __slots__ = ("variable",)

    def __init__(self, variable) -> None:
        super().__init__()
        self.variable = variable

    def name(self) -> str:
        return "torch::autograd::AccumulateGrad"

    def __repr__(self) -> str:
        return f"<AccumulateGrad object at {hex(id(self))}>"


class BackwardNode(Node):
    """The ctx of a ``Function`` call. Subclassed once per Function (``MulBackward0``...)."""

    _forward_cls = None  # the Function this node belongs to
    _builtin = False

    # defaults, set on the instance only when used: every recorded op creates a node
    needs_input_grad: tuple = ()
    _to_save: tuple = ()
    _saved = None
    _non_differentiable: tuple = ()

    def __init__(self) -> None:
        self.next_functions = ()
        self._seq = next(_sequence)
        self._pre_hooks = None
        self._released = False

    # --- the ctx API used inside forward/backward ---------------------------------------
    def save_for_backward(self, *tensors) -> None:
        """Keep tensors for ``backward``. They are checked for in-place changes when read."""
        self._to_save = tensors

    def mark_non_differentiable(self, *tensors) -> None:
        """Outputs that get no gradient (e.g. the indices returned by ``max``)."""
        self._non_differentiable = tensors

    @property
    def saved_tensors(self) -> tuple:
        """The tensors ``forward`` saved, as they were then (else a clear error)."""
        if self._released:
            raise RuntimeError(_FREED_MESSAGE)
        if self._saved is None:  # still inside forward, or nothing was recorded
            return self._to_save
        return tuple(saved.unpack(self) for saved in self._saved)

    def __repr__(self) -> str:
        if self._builtin:
            return f"<{self.name()} object at {hex(id(self))}>"
        # PyTorch's spelling, as for dtypes: outputs stay comparable with PyTorch's
        return f"<torch.autograd.function.{self.name()} object at {hex(id(self))}>"

    def _release(self) -> None:
        """Drop saved tensors after backward, so their memory goes back at once."""
        if self._saved:
            self._saved = None
            self._released = True


class _SavedTensor:
    """A tensor saved for backward plus its version then, to catch later in-place changes.

    An output of the node that saves it is stored as its array only: holding the output
    tensor would make a cycle (output -> grad_fn -> output) that reference counting cannot
    free. It is rebuilt, pointing back at its node, when backward reads it.
    """

    __slots__ = ("tensor", "data", "version_counter", "version", "output_nr", "requires_grad")

    def __init__(self, tensor, output_nr: int | None) -> None:
        self.version_counter = tensor._version_counter
        self.version = self.version_counter.value
        self.output_nr = output_nr
        if output_nr is None:
            self.tensor, self.data = tensor, None
        else:
            self.tensor, self.data = None, tensor._data
            self.requires_grad = tensor._requires_grad

    def unpack(self, node):
        if self.version_counter.value != self.version:
            raise RuntimeError(self._modified_message(node))
        if self.output_nr is None:
            return self.tensor
        out = _Tensor()._wrap(self.data, node._device)
        out._version_counter = self.version_counter
        if self.requires_grad:
            out._requires_grad, out.grad_fn, out._output_nr = True, node, self.output_nr
        return out

    def _modified_message(self, node) -> str:
        t = self.tensor
        data = t._data if t is not None else self.data
        kind = {"float32": "Float", "float64": "Double", "int64": "Long", "bool": "Bool"}.get(
            str(data.dtype), str(data.dtype).capitalize()
        )
        shape = ", ".join(str(s) for s in data.shape)
        maker = node if t is None else t.grad_fn
        where = ""
        if maker is not None:
            nr = self.output_nr if t is None else t._output_nr
            where = f", which is output {nr} of {_op_name(maker)},"
        return (
            "one of the variables needed for gradient computation has been modified by an "
            f"inplace operation: [torch.{kind}Tensor [{shape}]]{where} is at version "
            f"{self.version_counter.value}; expected version {self.version} instead. Hint: "
            "enable anomaly detection to find the operation that failed to compute its "
            "gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False)."
        )


def _op_name(node: Node) -> str:
    """'ExpBackward0' -> 'Exp': the op's own name, as PyTorch's in-place error prints it."""
    name = node.name()
    return name[: name.rindex("Backward")] if "Backward" in name else name


class Function:
    """Base class for differentiable operations. Subclass it; call ``YourFunction.apply``.

    Example (the note's ``MulConstant``, with a correct backward)::

        class MulConstant(Function):
            @staticmethod
            def forward(ctx, tensor, constant):
                ctx.constant = constant
                return tensor * constant

            @staticmethod
            def backward(ctx, grad_output):
                return grad_output * ctx.constant, None   # d(c*x)/dx = c; no grad for c
    """

    node_name: str | None = None  # built-ins set PyTorch's name, e.g. "AddBackward0"

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        # Built-ins declare PyTorch's node name ("AddBackward0"); like PyTorch's C++ nodes
        # their class prints as <class 'AddBackward0'>. A learner's MulConstant gets
        # MulConstantBackward, printed as PyTorch prints a Python Function's node.
        builtin = cls.node_name is not None
        name = cls.__dict__.get("node_name") or cls.__name__ + "Backward"
        cls._backward_cls = type(
            name,
            (BackwardNode,),
            {"_forward_cls": cls, "_builtin": builtin,
             "__module__": "builtins" if builtin else cls.__module__, "__qualname__": name},
        )

    def __init__(self, *args, **kwargs) -> None:
        warnings.warn(
            f"{type(self)} should not be instantiated. Methods on autograd functions are all "
            "static, so you should invoke them on the class itself. Instantiating an autograd "
            "function will raise an error in a future version of PyTorch.",
            DeprecationWarning,
            stacklevel=2,
        )

    def __call__(self, *args, **kwargs):
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. Please use "
            "new-style autograd function with static forward method. (Example: "
            "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)"
        )

    @staticmethod
    def forward(ctx, *args):
        raise NotImplementedError(
            "You must implement the forward function for custom autograd.Function."
        )

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError(
            "You must implement either the backward or vjp method for your custom "
            "autograd.Function to use it with backward mode AD."
        )

    @classmethod
    def apply(cls, *args):
        """Run ``forward`` with grad mode off; record the call when an input requires grad."""
        Tensor = _Tensor()
        ctx = cls._backward_cls()
        needs = tuple([isinstance(a, Tensor) and a._requires_grad for a in args])
        ctx.needs_input_grad = needs
        state = grad_mode.state
        enabled = state.enabled
        state.enabled = False  # forward's own tensor ops must not be recorded
        try:
            outputs = cls.forward(ctx, *args)
        finally:
            state.enabled = enabled
        if enabled and True in needs:
            return _link(ctx, args, outputs, Tensor)
        if state.inference:
            _mark_inference(outputs)
        return outputs


_NO_EDGE = (None, 0)


def _link(ctx: BackwardNode, args: tuple, outputs, Tensor):
    """Connect a recorded call into the graph: edges to the inputs, grad_fn on the outputs.

    This runs for every recorded op, so it is written for speed: plain loops, and metadata
    kept as plain tuples (which the garbage collector stops tracking).
    """
    edges = []
    in_meta = []
    device = None
    for a in args:
        if isinstance(a, Tensor):
            fn = a.grad_fn
            if fn is not None:
                edges.append((fn, a._output_nr))
            elif a._requires_grad:
                edges.append((a._accumulator(), 0))
            else:
                edges.append(_NO_EDGE)
            data = a._data
            in_meta.append((data.shape, data.dtype))
            device = a._device
        else:
            in_meta.append(None)
    ctx.next_functions = tuple(edges)
    ctx._input_meta = tuple(in_meta)
    ctx._device = device
    single = type(outputs) is not tuple
    linked = []
    out_meta = []
    skip = ctx._non_differentiable
    for nr, out in enumerate((outputs,) if single else outputs):
        if isinstance(out, Tensor):
            for a in args:
                if a is out:  # forward returned an input: give it its own identity
                    out = out._alias()
                    break
            data = out._data
            if data.dtype.kind in "fc" and not (skip and any(out is t for t in skip)):
                out._requires_grad, out.grad_fn, out._output_nr = True, ctx, nr
            out_meta.append((data.shape, data.dtype))
        else:
            out_meta.append(None)
        linked.append(out)
    ctx._output_meta = tuple(out_meta)
    if ctx._to_save:
        ctx._saved = tuple([_save(t, linked) for t in ctx._to_save])
        ctx._to_save = ()
    if skip:
        ctx._non_differentiable = ()
    return linked[0] if single else tuple(linked)


def _mark_inference(outputs) -> None:
    for out in outputs if isinstance(outputs, tuple) else (outputs,):
        if isinstance(out, _Tensor()):
            out._inference = True


def _save(tensor, outputs):
    if tensor is None:
        return _SavedNone
    for nr, out in enumerate(outputs):
        if out is tensor:
            return _SavedTensor(tensor, nr)
    return _SavedTensor(tensor, None)


class _SavedNoneType:
    __slots__ = ()

    def unpack(self, node):
        return None


_SavedNone = _SavedNoneType()
