"""The graph's nodes: ``Node``, and ``AccumulateGrad``, the node at a leaf.

Every node has ``next_functions``: one ``(node, input_nr)`` pair per tensor input, naming the
node that made that input and which of its outputs it was. Following these pairs from the
loss reaches every leaf. The node keeps them in plain fields (the first two nodes as fields of
their own, any further ones in a tuple, and ``_next_nrs``) and builds the pairs when
``next_functions`` is read (as PyTorch's Python binding builds that tuple from the C++
``next_edges_`` on every read). A node's
``apply(grads)`` takes the gradients of its outputs and returns the gradients of its inputs,
in the order of ``next_functions``.

A leaf has no node that made it; what the graph links to instead is its ``AccumulateGrad``,
whose ``apply`` adds the gradient into ``leaf.grad``. So the engine runs leaves like any node.

PyTorch: ``torch::autograd::Node`` and ``Edge`` (``torch/csrc/autograd/function.h``),
``AccumulateGrad`` (``functions/accumulate_grad.h``). The Python module
``torch.autograd.graph`` is ``graph.py`` here.
"""

from __future__ import annotations

import itertools
import weakref

from .. import _messages
from ..tensor_base import RemovableHandle, TensorBase
from . import grad_mode, hooks

_sequence_nrs = itertools.count()


def next_sequence_nr() -> int:
    """Numbers nodes in the order they are made: among ready nodes the newest runs first."""
    return next(_sequence_nrs)


class Node:
    """A step of the recorded computation, run backwards by the engine."""

    # the edges, per tensor input: the node that made it (None: no gradient); most ops have
    # one or two tensor inputs, whose nodes are plain fields (no tuple for the collector)
    _next_first = _next_second = None
    _next_rest: tuple = ()  # the nodes of the third input on
    _next_nrs: tuple = ()  # per tensor input: which output of that node it was
    output_info: tuple = (None,)  # one entry per output: its (shape, dtype)
    sequence_nr: int = 0  # set when the node joins a graph (see next_sequence_nr)
    _builtin = True  # a library node (the node of a learner's Function is not)
    # the hooks (hooks.py): each a list once one is registered
    _tensor_hooks: list | None = None  # [(output_nr, hook), ...]: on the outputs' grads
    _pre_hooks: list | None = None  # [(hook,), ...]: register_prehook
    _post_hooks: list | None = None  # [(hook,), ...]: register_hook
    retained: dict | None = None  # output_nr -> weak reference to a tensor that retains grad
    hooked = False  # True once any of the above was registered: the engine asks only then
    _metadata: dict | None = None

    def name(self) -> str:
        return type(self).__name__

    @property
    def next_functions(self) -> tuple:
        """``((node, input_nr), ...)``: one edge per tensor input, built when read."""
        return tuple(zip(self.next_nodes(), self._next_nrs))

    @property
    def _next_nodes(self) -> tuple:
        """Per tensor input, the node that made it (None: no gradient), built when read."""
        return self.next_nodes()[:len(self._next_nrs)]

    def next_nodes(self) -> tuple:
        """The nodes of the edges, in order, as the engine walks them: at least two entries,
        a node with fewer edges ends in ``None`` (no gradient flows there)."""
        return (self._next_first, self._next_second, *self._next_rest)

    def set_next_edges(self, edges) -> None:
        """Keep ``edges``, ``(node, input_nr)`` pairs, in the fields above."""
        keep_edges(self, [node for node, _ in edges], [nr for _, nr in edges])

    @property
    def metadata(self) -> dict:
        """A dict of your own, kept on the node."""
        if self._metadata is None:
            self._metadata = {}
        return self._metadata

    def __lt__(self, other) -> bool:
        """``a < b``: ``a`` runs before ``b`` when both are ready (see ready_queue.py)."""
        return self.sequence_nr > other.sequence_nr

    def _sequence_nr(self) -> int:
        return self.sequence_nr

    def apply(self, grads: list) -> tuple:
        """Gradients of the inputs (one per ``next_functions`` entry) from the outputs'."""
        raise NotImplementedError

    def register_prehook(self, fn) -> RemovableHandle:
        """Call ``fn(grad_outputs)`` before this node runs; it may return a new tuple."""
        self._pre_hooks, handle = hooks.add(self._pre_hooks, fn)
        self.hooked = True
        return handle

    def register_hook(self, fn) -> RemovableHandle:
        """Call ``fn(grad_inputs, grad_outputs)`` after this node ran; it may return new
        ``grad_inputs``."""
        self._post_hooks, handle = hooks.add(self._post_hooks, fn)
        self.hooked = True
        return handle

    def register_tensor_hook(self, hook, output_nr: int) -> RemovableHandle:
        """Call ``hook(grad)`` on the gradient of output ``output_nr`` (Tensor.register_hook)."""
        if self._tensor_hooks is None:
            self._tensor_hooks = []
        entry = (output_nr, hook)
        self._tensor_hooks.append(entry)
        self.hooked = True
        return RemovableHandle(self._tensor_hooks, entry)

    def tensor_hooks(self) -> list | None:
        return self._tensor_hooks

    def retain_grad(self, tensor, output_nr: int) -> None:
        """Store the gradient of output ``output_nr`` in ``tensor.grad`` when it arrives."""
        if self.retained is None:
            self.retained = {}
        self.retained[output_nr] = weakref.ref(tensor)  # weak: a graph keeps no output alive
        self.hooked = True

    def call_pre_hooks(self, grads: list) -> list:
        """Run the tensor hooks on the incoming gradients, then store retained gradients.

        Hooks run in the order they were registered; each may return a replacement. As in
        PyTorch, ``retain_grad`` sees the gradient after every hook has run. (The node's own
        pre-hooks run after these: ``hooks.call_pre_hooks``.) A hook on an output that got no
        gradient is called with ``None``, and may not replace it.
        """
        tensor_hooks = self.tensor_hooks()
        if tensor_hooks:
            for output_nr, hook in list(tensor_hooks):  # those registered when the node runs
                grad = grads[output_nr]  # None for an output no gradient reached
                grads[output_nr] = hooks.checked_tensor_hook_result(hook, grad, hook(grad))
        if self.retained:
            for output_nr, ref in self.retained.items():
                tensor, grad = ref(), grads[output_nr]
                if tensor is not None and grad is not None:
                    if tensor._grad is None:  # under create_graph: a recorded clone, as PyTorch
                        tensor._grad = grad.clone()
                    else:
                        tensor._grad = tensor._grad + grad
        return grads

    def release_saved_tensors(self) -> None:
        """Free what the node saved for backward (nothing, unless it saved something)."""

    def __repr__(self) -> str:
        return f"<{self.name()} object at {hex(id(self))}>"


class AccumulateGrad(Node):
    """The node at a leaf that requires grad: ``apply`` adds the gradient into ``.grad``."""

    hooked = True  # its tensor hooks are kept on the leaf, which may get them at any time

    def __init__(self, variable) -> None:
        self.variable = variable
        # PyTorch's metadata: the dtype is the leaf's grad_dtype (None: any, not cast)
        self.output_info = ((variable._data.shape, variable._grad_numpy_dtype()),)
        self.sequence_nr = 2**64 - 1  # PyTorch's: the largest, so a leaf's grad is stored first

    def name(self) -> str:
        return "torch::autograd::AccumulateGrad"

    def tensor_hooks(self) -> list:
        """A leaf's hooks are kept on the tensor (its AccumulateGrad is made when needed)."""
        registered = list(self.variable._hooks or ())
        registered += (self.variable._backward_hooks or {}).values()  # an old code's dict
        return [(0, hook) for hook in registered] if registered else None

    def apply(self, grads: list) -> tuple:
        """``leaf.grad += grad``, or ``leaf.grad = copy of grad`` the first time.

        The first gradient is copied, because the backward that produced it may hand the
        same tensor to other inputs too. Under ``create_graph`` (grad mode is on during the
        backward) the copy and the sum are recorded, so ``.grad`` can itself be differentiated;
        otherwise the sum is written into ``.grad``'s memory (the engine has checked its shape
        and dtype) and ``.grad`` stays the same tensor, its version bumped as by ``add_``.
        """
        leaf, grad = self.variable, grads[0]
        if not leaf._requires_grad:  # detached in place since: nothing to store (as PyTorch)
            return ()
        if leaf._grad is None:
            if grad_mode.is_grad_enabled():  # record the copy, as PyTorch's CopyBackwards
                leaf._grad = grad.new_empty(grad.shape).copy_(grad)
            else:
                leaf._grad = grad.clone()
        elif grad_mode.is_grad_enabled():
            leaf._grad = leaf._grad + grad
        else:
            leaf._grad._data += grad._data
            leaf._grad._bump_version()
        for hook in list(leaf._post_accumulate_grad_hooks or ()):  # they see the new .grad
            result = hook(leaf)
            if result is not None and not hasattr(result, "_data"):  # not even a tensor
                raise TypeError(_messages.hook_returned(result))
            if result is not None:
                raise RuntimeError("Tensor post accumulate grad hooks should return None.")
        return ()

    def __call__(self, *grads) -> tuple:
        """``node(grad)``, as PyTorch allows: accumulate as the engine would (None: nothing)."""
        if len(grads) != 1:
            raise TypeError(f"expected 1 arguments, got {len(grads)} instead")
        return () if grads[0] is None else self.apply(list(grads))

    def __repr__(self) -> str:
        return f"<AccumulateGrad object at {hex(id(self))}>"


def gradient_edge(tensor) -> tuple:
    """The ``(node, input_nr)`` pair an operation on ``tensor`` links to.

    A computed tensor: its ``grad_fn`` and which output it is. A leaf that requires grad: its
    ``AccumulateGrad`` (one per leaf, made on first use and held weakly by the leaf, so the
    graph, not the tensor, keeps it alive). Anything else: ``(None, 0)``, no gradient.
    """
    if tensor.grad_fn is not None:
        return (tensor.grad_fn, tensor._output_nr)
    if not tensor._requires_grad:
        return (None, 0)
    node = tensor._accumulate_grad() if tensor._accumulate_grad is not None else None
    if node is None:
        node = AccumulateGrad(tensor)
        tensor._accumulate_grad = weakref.ref(node)
    return (node, 0)


def link_inputs(node: Node, args: tuple) -> tuple:
    """Give ``node`` its edges, one per tensor among ``args``; return each argument's
    ``(shape, dtype)`` (``None`` for a number or other argument, which gets no edge)."""
    nodes, nrs, input_info = [], [], []
    for a in args:
        if isinstance(a, TensorBase):
            made_by, nr = gradient_edge(a)  # the node that made it (a leaf's: its
            nodes.append(made_by)  # AccumulateGrad) recorded its (shape, dtype): share it
            nrs.append(nr)
            input_info.append(made_by.output_info[nr] if made_by is not None
                              else (a._data.shape, a._data.dtype))
        else:
            input_info.append(None)
    keep_edges(node, nodes, nrs)  # its next_functions
    return tuple(input_info)


def keep_edges(node: Node, nodes: list, nrs: list) -> None:
    """Give ``node`` its edges: the nodes its inputs came from, and which of their outputs.
    (Every field is set on every node: see ``saved_tensor._as_array`` on why.)"""
    n = len(nodes)
    node._next_nrs = tuple(nrs)
    node._next_first = nodes[0] if n else None
    node._next_second = nodes[1] if n > 1 else None
    node._next_rest = tuple(nodes[2:]) if n > 2 else ()
