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

import inspect
import itertools
import warnings

from . import grad_mode

_tensor_class = None  # autograd_course.tensor.Tensor; tensor.py registers it when it loads
_grad_state = grad_mode.state  # the grad mode switch (one object, for the process's lifetime)
_sequence = itertools.count()  # creation order of nodes: the engine runs newer nodes first

_FREED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward."
)


def _Tensor():  # noqa: N802
    """The Tensor class (tensor.py imports this module, so it cannot be imported here)."""
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
    A node stores them as two parallel tuples, ``_next_nodes`` and ``_next_nrs``, and builds
    the pairs when asked: one pair object per edge would be one more object per op for
    Python's cyclic garbage collector to scan (``_next_nrs`` holds only ints, so the
    collector stops tracking it), and on a 100,000-op graph those scans dominate the forward.

    Every recorded node also has ``_seq`` (its creation order) and ``_pre_hooks`` (hooks on
    its outputs' gradients, ``[(output_nr, fn), ...]`` or None).
    """

    __slots__ = ()
    _output_meta: tuple = (None,)  # (shape, dtype) per output; one output unless recorded
    _next_nodes: tuple = ()  # per tensor input: the node that made it (or None)
    _next_nrs: tuple = ()  # per tensor input: which output of that node it is

    @property
    def sequence_nr(self) -> int:
        """Creation order: among ready nodes the engine runs the newest first."""
        return self._seq

    @property
    def next_functions(self) -> tuple:
        """``((node, output_nr), ...)``, one pair per tensor input, as in PyTorch."""
        return tuple(zip(self._next_nodes, self._next_nrs))

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


class _VersionCounter:
    """Counts in-place changes. Shared by tensors that share memory (``detach()``, views).

    A tensor gets one only when something needs it (a saved output, an in-place op, a
    view): most tensors are intermediate results that never do, and skipping the object
    makes every op cheaper.
    """

    __slots__ = ("value",)

    def __init__(self) -> None:
        self.value = 0


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

    __slots__ = ("variable", "_seq", "_pre_hooks", "__weakref__")

    sequence_nr = 2**64 - 1  # PyTorch's: the largest, so a complete leaf gradient is stored first

    def __init__(self, variable) -> None:
        self.variable = variable
        self._seq = next(_sequence)
        self._pre_hooks = None

    def name(self) -> str:
        return "torch::autograd::AccumulateGrad"

    def __repr__(self) -> str:
        return f"<AccumulateGrad object at {hex(id(self))}>"


class BackwardNode(Node):
    """The ctx of a ``Function`` call. Subclassed once per Function (``MulBackward0``...).

    It has no ``__slots__``: ``forward`` may store anything on its ctx (``ctx.constant``).
    Creating one runs no Python code, because every op creates one, recorded or not; the
    attributes a recorded node needs are set by ``_link`` when the call is recorded, and
    everything else reads these class-level defaults until it is set.
    """

    _forward_cls = None  # the Function this node belongs to
    _builtin = False

    needs_input_grad: tuple = ()
    _pre_hooks = None
    _to_save: tuple = ()
    _saved = None  # one _SavedTensor (or _SavedNone) per saved tensor, once recorded
    _released = False
    _non_differentiable: tuple = ()

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
        saved = self._saved
        if saved is None:  # still inside forward, nothing was recorded, or freed
            if self._released:
                raise RuntimeError(_FREED_MESSAGE)
            return self._to_save
        if len(saved) == 1:  # the common case, without building a list
            return (saved[0].unpack(self),)
        return tuple([s.unpack(self) for s in saved])

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

    An input is kept as the tensor itself, and its version read from it again at unpack
    (every tensor that shares its memory shares its version counter). An output of the node
    that saves it is stored as its array and version counter only: holding the output tensor
    would make a cycle (output -> grad_fn -> output) that reference counting cannot free. It
    is rebuilt, pointing back at its node, when backward reads it.
    """

    __slots__ = ("tensor", "data", "version_counter", "version", "output_nr", "requires_grad")

    def __init__(self, tensor, output_nr: int | None) -> None:
        self.output_nr = output_nr
        counter = tensor._vc  # (what tensor._version_counter reads, without the property)
        if output_nr is None:
            self.tensor, self.data, self.version_counter = tensor, None, None
            self.version = 0 if counter is None else counter.value
        else:
            if counter is None:
                counter = tensor._vc = _VersionCounter()
            self.tensor, self.data, self.version_counter = None, tensor._data, counter
            self.version = counter.value
            self.requires_grad = tensor._requires_grad

    def current_version(self) -> int:
        t = self.tensor
        return t._version if t is not None else self.version_counter.value

    def unpack(self, node):
        t = self.tensor
        if t is not None:
            if t._version != self.version:
                raise RuntimeError(self._modified_message(node))
            return t
        counter = self.version_counter
        if counter.value != self.version:
            raise RuntimeError(self._modified_message(node))
        out = _tensor_class._wrap(self.data, node._device)
        out._vc = counter  # the same counter: in-place changes to the rebuilt tensor count
        if self.requires_grad:
            out._requires_grad, out.grad_fn, out._output_nr = True, node, self.output_nr
        return out

    def _modified_message(self, node) -> str:
        t = self.tensor
        data = t._data if t is not None else self.data
        names = {"float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long",
                 "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte"}
        name = str(data.dtype)
        kind = names.get(name, name.capitalize())
        kind = "CPUBoolType" if name == "bool" else f"torch.{kind}Tensor"
        shape = ", ".join(str(s) for s in data.shape)
        maker = node if t is None else t.grad_fn
        where = ""
        if maker is not None:
            nr = self.output_nr if t is None else t._output_nr
            where = f", which is output {nr} of {_op_name(maker)},"
        return (
            "one of the variables needed for gradient computation has been modified by an "
            f"inplace operation: [{kind} [{shape}]]{where} is at version "
            f"{self.current_version()}; expected version {self.version} instead. Hint: "
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
    def apply(cls, *args, **kwargs):
        """Run ``forward`` with grad mode off; record the call when an input requires grad.

        Keyword arguments are bound to ``forward``'s parameters first, as PyTorch does, so
        ``F.apply(x, scale=2.0)`` is ``F.apply(x, 2.0)``.

        Every op in the library comes through here, recorded or not (the engine's backward
        formulas run with grad mode off), so the path that records nothing does no graph
        work at all: no metadata, no edges, no saved tensors kept.
        """
        if kwargs:
            args = _bind_keywords(cls.forward, args, kwargs)
        Tensor = _tensor_class
        ctx = cls._backward_cls()
        needs = []
        for a in args:
            needs.append(isinstance(a, Tensor) and a._requires_grad)
        ctx.needs_input_grad = needs = tuple(needs)
        state = _grad_state
        if not state.enabled:  # no_grad, or a backward formula: nothing to record
            outputs = cls.forward(ctx, *args)
            if state.inference:
                _mark_inference(outputs)
            return outputs
        record = True in needs
        if record:
            ctx._seq = next(_sequence)  # numbered before forward runs, as in PyTorch
        state.enabled = False  # forward's own tensor ops must not be recorded
        try:
            outputs = cls.forward(ctx, *args)
        finally:
            state.enabled = True
        if record:
            return _link(ctx, args, outputs, Tensor)
        if state.inference:
            _mark_inference(outputs)
        return outputs


def _bind_keywords(forward, args: tuple, kwargs: dict) -> tuple:
    """``forward``'s inputs as one positional tuple; like PyTorch, a keyword that would
    leave an earlier parameter unfilled is refused."""
    bound = inspect.signature(forward).bind(None, *args, **kwargs)
    if bound.kwargs:
        position = len(bound.args) - 1
        missing = list(inspect.signature(forward).parameters)[position + 1]
        raise TypeError(f"forward() missing required argument: '{missing}' (position "
                        f"{position})")
    return bound.args[1:]


_FLAGS: dict = {}  # needs_input_grad tuples, shared (see _shared)
_METADATA: dict = {}  # _input_meta, _output_meta and _next_nrs tuples, shared (see _shared)


def _shared(table: dict, value: tuple) -> tuple:
    """The one copy of ``value`` in ``table`` that every node with equal ``value`` holds.

    A graph repeats the same few shapes, dtypes and flags over and over. Each tuple a node
    keeps counts towards the next run of Python's cyclic garbage collector, and a run over
    a long graph costs ~0.2 s, so nodes share equal tuples instead of keeping their own.
    (Flags live in a table of their own: ``(True,) == (1,)``.) A table that reaches 10,000
    entries starts again, so an unusual program cannot make it grow without limit.
    """
    found = table.get(value)
    if found is None:
        if len(table) >= 10_000:
            table.clear()
        table[value] = found = value
    return found


def _link(ctx: BackwardNode, args: tuple, outputs, Tensor):
    """Connect a recorded call into the graph: edges to the inputs, grad_fn on the outputs.

    This runs for every recorded op, so it is written for speed: plain loops, and metadata
    kept as shared tuples (fewer objects for the garbage collector, see ``_shared``).
    """
    nodes = []
    nrs = []
    in_meta = []
    device = None
    for a in args:
        if isinstance(a, Tensor):
            fn = a.grad_fn
            if fn is not None:
                nodes.append(fn)
                nrs.append(a._output_nr)
            else:
                nodes.append(a._accumulator() if a._requires_grad else None)
                nrs.append(0)
            data = a._data
            in_meta.append((data.shape, data.dtype))
            device = a._device
        else:
            in_meta.append(None)
    # `table.get(v) or _shared(table, v)`: the usual hit makes no call (tuples here are non-empty)
    flags = ctx.needs_input_grad
    ctx.needs_input_grad = _FLAGS.get(flags) or _shared(_FLAGS, flags)
    ctx._next_nodes = tuple(nodes)
    nrs = tuple(nrs)
    ctx._next_nrs = _METADATA.get(nrs) or _shared(_METADATA, nrs)
    in_meta = tuple(in_meta)
    ctx._input_meta = _METADATA.get(in_meta) or _shared(_METADATA, in_meta)
    ctx._device = device  # (_pre_hooks keeps its class-level None until a hook is added)
    skip = ctx._non_differentiable
    single = type(outputs) is not tuple
    if single:  # the common case: _link_output's work, without the calls and loops
        out = outputs
        if isinstance(out, Tensor):
            for a in args:
                if a is out:
                    out = out._alias()
                    break
            data = out._data
            dtype = data.dtype
            if dtype.kind in "fc" and not (skip and any(out is t for t in skip)):
                out._requires_grad, out.grad_fn, out._output_nr = True, ctx, 0
            meta = ((data.shape, dtype),)
            ctx._output_meta = _METADATA.get(meta) or _shared(_METADATA, meta)
        else:
            ctx._output_meta = (None,)
        linked = (out,)
    else:
        linked = tuple([_link_output(ctx, args, o, nr, skip) if isinstance(o, Tensor) else o
                        for nr, o in enumerate(outputs)])
        ctx._output_meta = _shared(_METADATA, tuple([
            (o._data.shape, o._data.dtype) if isinstance(o, Tensor) else None for o in linked]))
    to_save = ctx._to_save
    if to_save:
        saved = []
        for t in to_save:
            if t is None:
                saved.append(_SavedNone)
                continue
            nr = None
            for i, out in enumerate(linked):
                if out is t:
                    nr = i
                    break
            saved.append(_SavedTensor(t, nr))
        ctx._saved = tuple(saved)
        ctx._to_save = ()
    if skip:
        ctx._non_differentiable = ()
    return linked[0] if single else linked


def _link_output(ctx, args, out, nr: int, skip):
    """Make output ``nr`` of a recorded call point at ``ctx`` (if it is differentiable)."""
    for a in args:
        if a is out:  # forward returned an input: give it its own identity
            out = out._alias()
            break
    if out._data.dtype.kind in "fc" and not (skip and any(out is t for t in skip)):
        out._requires_grad, out.grad_fn, out._output_nr = True, ctx, nr
    return out


def _mark_inference(outputs) -> None:
    for out in outputs if isinstance(outputs, tuple) else (outputs,):
        if isinstance(out, _tensor_class):
            out._inference = True


class _SavedNoneType:
    __slots__ = ()

    def unpack(self, node):
        return None


_SavedNone = _SavedNoneType()
