"""Shared helpers for the op tests: run the same code with ``ag`` and with ``torch`` and compare.

Most checks are written once as ``lambda m, ...`` where ``m`` is either module: the test runs
it with ``autograd_course`` and with ``torch`` (the oracle) on the same float64 numbers and
compares values, dtypes, gradients, node names and error messages.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

import autograd_course as ag

# --- data -------------------------------------------------------------------------------
_DOMAINS = {
    "any": lambda rng, shape: rng.uniform(-2.0, 2.0, shape),
    "positive": lambda rng, shape: rng.uniform(0.5, 2.0, shape),
    "nonzero": lambda rng, shape: rng.choice([-1.0, 1.0], shape) * rng.uniform(0.5, 2.0, shape),
}


def array(shape, seed: int = 0, domain: str = "any") -> np.ndarray:
    """Random float64 numbers of ``shape`` from ``domain`` ('any', 'positive', 'nonzero')."""
    return np.asarray(_DOMAINS[domain](np.random.default_rng(seed), tuple(shape)), np.float64)


def pair(data, requires_grad: bool = True):
    """The same numbers as an ``ag`` leaf and a ``torch`` leaf."""
    import torch

    data = np.array(data)
    ours = ag.tensor(data.copy(), requires_grad=requires_grad and data.dtype.kind == "f")
    theirs = torch.tensor(data.copy(), requires_grad=requires_grad and data.dtype.kind == "f")
    return ours, theirs


def leaves(shapes, seed: int = 0, domain="any"):
    """Matching (ag list, torch list) of float64 leaves; ``domain`` may be one per shape."""
    domains = domain if isinstance(domain, (list, tuple)) else [domain] * len(shapes)
    made = [pair(array(s, seed + i, d)) for i, (s, d) in enumerate(zip(shapes, domains))]
    return [m[0] for m in made], [m[1] for m in made]


def as_numpy(t) -> np.ndarray:
    """Values of an ag or torch tensor as a NumPy array."""
    if isinstance(t, ag.Tensor):
        return t.detach().cpu().numpy()
    return t.detach().cpu().numpy(force=True)  # force: PyTorch may hand back a ZeroTensor


def assert_same(ours, theirs, rtol: float = 1e-9, atol: float = 1e-12) -> None:
    """Same shape, same dtype (spelled ``torch.float64`` by both) and the same values."""
    assert tuple(ours.shape) == tuple(theirs.shape), (ours.shape, theirs.shape)
    assert str(ours.dtype) == str(theirs.dtype), (ours.dtype, theirs.dtype)
    np.testing.assert_allclose(as_numpy(ours), as_numpy(theirs), rtol=rtol, atol=atol)


def assert_grads(ours_inputs, theirs_inputs, rtol: float = 1e-9, atol: float = 1e-12) -> None:
    for o, t in zip(ours_inputs, theirs_inputs):
        if t.grad is None:
            assert o.grad is None
        else:
            assert o.grad is not None
            assert_same(o.grad, t.grad, rtol, atol)


def backward_both(out_ours, out_theirs, seed: int = 99) -> None:
    """Backward from both outputs with the same random upstream gradient."""
    import torch

    upstream = array(tuple(out_theirs.shape), seed)
    out_ours.backward(ag.tensor(upstream, dtype=out_ours.dtype))
    out_theirs.backward(torch.tensor(upstream, dtype=out_theirs.dtype))


def check(fn, shapes, seed: int = 0, domain="any", rtol: float = 1e-9, atol: float = 1e-12):
    """Run ``fn(m, *inputs)`` with both libraries; compare the output and every gradient."""
    import torch

    ours_in, theirs_in = leaves(shapes, seed, domain)
    out_ours, out_theirs = fn(ag, *ours_in), fn(torch, *theirs_in)
    assert_same(out_ours, out_theirs, rtol, atol)
    if out_theirs.requires_grad:
        backward_both(out_ours, out_theirs, seed + 1000)
        assert_grads(ours_in, theirs_in, rtol, atol)
    return out_ours, out_theirs


def node_name(node) -> str:
    """``node.name()`` without PyTorch's C++ namespace.

    PyTorch's ``CopySlices`` and ``CopyBackwards`` report ``torch::autograd::CopySlices`` (and
    ``...::CopyBackwards``) from ``name()``, their type and repr say ``CopySlices``. Our
    ``CopySlices`` node does the same; our ``CopyBackwards``, a ``Function``, says
    ``CopyBackwards`` in all three places. ``AccumulateGrad`` is compared in full by the
    semantics tests.
    """
    return node.name().removeprefix("torch::autograd::")


def chain(t) -> list:
    """Node names from ``t.grad_fn`` down the first edge to the leaf."""
    names, node = [], t.grad_fn
    while node is not None and "AccumulateGrad" not in node.name():
        names.append(node_name(node))
        node = node.next_functions[0][0] if node.next_functions else None
    return names


def graph(node) -> tuple:
    """The whole graph below ``node`` as nested (name, children) tuples."""
    if node is None:
        return None
    children = tuple((graph(n), nr) for n, nr in getattr(node, "next_functions", ()))
    return (node_name(node), children)


def error_of(fn):
    """The (type name, first line) of the exception ``fn()`` raises, or None."""
    try:
        fn()
    except Exception as exc:  # any exception is the thing compared
        return type(exc).__name__, str(exc).split("\n")[0]
    return None


# --- hypothesis strategies --------------------------------------------------------------
@st.composite
def broadcastable_shapes(draw, max_dims: int = 3, max_side: int = 4):
    """Two shapes (up to ``max_dims`` dims) that broadcast together, NumPy/PyTorch style.

    Both are cut from one base shape: each keeps some trailing dims of it, and each kept dim
    is either the base size or 1.
    """
    ndim = draw(st.integers(0, max_dims))
    base = draw(st.lists(st.integers(1, max_side), min_size=ndim, max_size=ndim))

    def derive():
        kept = base[ndim - draw(st.integers(0, ndim)):]
        return tuple(n if draw(st.booleans()) else 1 for n in kept)

    return derive(), derive()


shapes = st.lists(st.integers(1, 4), min_size=0, max_size=3).map(tuple)
nonempty_shapes = st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple)
seeds = st.integers(0, 2**16)
