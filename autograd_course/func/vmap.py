"""``vmap``: a function of one sample, applied to a batch, as ``torch.func.vmap``.

PyTorch runs the function ONCE on "batched tensors" whose ops work on the whole batch. Here
``vmap`` runs the function once PER SAMPLE (the slices along ``in_dims``) and stacks the
results along ``out_dims``: the same numbers, shapes and errors, but a Python loop, so it costs
what the loop costs (benchmarks/ shows it). Nesting (``vmap(vmap(f))``) and transforms inside
(``vmap(grad(loss))``: per-sample gradients) work because each call sees one plain sample.
"""

from __future__ import annotations

import functools

from .. import ops
from ..autograd import transform_depth
from ..tensor_base import TensorBase
from . import _trees


def vmap(func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    """``vmap(f)(xs)`` stacks ``f(x)`` over the slices x of xs along ``in_dims``: by running
    ``f`` once per sample (not batched as PyTorch's: same results, a Python loop)."""
    name = getattr(func, "__name__", repr(func))

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        dims = _per_leaf_dims(args, in_dims, name)
        leaves, spec = _trees.flatten(list(args))
        size = _batch_size(leaves, dims, name)
        results = []
        for b in range(size):
            sample = [x if d is None else _example(x, d, b) for x, d in zip(leaves, dims)]
            with transform_depth.deeper("vmaps"):
                results.append(func(*_trees.unflatten(sample, spec), **kwargs))
        return _stack(results, out_dims, name)

    return wrapper


def _example(x, d: int, b: int):
    """Example ``b`` of ``x`` along ``d`` (a view). PyTorch's vmap shows each example as a
    tensor whose storage offsets count from the example's start, and whose
    ``storage_offset()`` is the batch's: the example keeps how far it lies past that
    (``_vmap_shift``, which ``storage_offset`` and ``as_strided`` read)."""
    sample = x.select(d, b)
    sample._vmap_shift = sample.storage_offset() - x.storage_offset()
    return sample


def _per_leaf_dims(args, in_dims, name) -> list:
    """One in_dim (or None) per tensor of ``args``, checked as PyTorch checks them."""
    where = f"vmap({name}, in_dims={in_dims}, ...)(<inputs>)"
    if isinstance(in_dims, int):
        dims = [in_dims] * len(_trees.flatten(list(args))[0])
    elif isinstance(in_dims, tuple):
        if len(in_dims) != len(args):
            _, arg_spec = _trees.flatten(tuple(args))
            raise ValueError(
                f"{where}: in_dims is not compatible with the structure of `inputs`. in_dims has "
                f"structure {_trees.structure(_trees.flatten(in_dims)[1])} but inputs has "
                f"structure {_trees.structure(arg_spec)}.")
        dims = []
        for arg, d in zip(args, in_dims):
            dims += [d] * len(_trees.flatten(arg)[0]) if not isinstance(d, (tuple, list, dict)) \
                else _trees.flatten(d)[0]
    else:
        raise ValueError(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): expected `in_dims` to "
                         "be int or a (potentially nested) tuple matching the structure of "
                         f"inputs, got: {type(in_dims)}.")
    leaves = _trees.flatten(list(args))[0]
    for x, d in zip(leaves, dims):
        if d is None:
            continue
        if not isinstance(x, TensorBase):
            raise ValueError(
                f"{where}: Got in_dim={d} for an input but the input is of type {type(x)}. We "
                "cannot vmap over non-Tensor arguments, please use None as the respective "
                "in_dim")
        if not -x.dim() <= d < x.dim():
            raise ValueError(
                f"{where}: Got in_dim={d} for some input, but that input is a Tensor of "
                f"dimensionality {x.dim()} so expected in_dim to satisfy -{x.dim()} <= in_dim "
                f"< {x.dim()}.")
    return [None if d is None else d % x.dim() for x, d in zip(leaves, dims)]


def _batch_size(leaves, dims, name) -> int:
    sizes = [x.shape[d] for x, d in zip(leaves, dims) if d is not None]
    if not sizes:
        raise ValueError(f"vmap({name}, in_dims=..., ...)(<inputs>): at least one input must "
                         "be a Tensor that is mapped over (all in_dims are None)")
    if len(set(sizes)) > 1:
        raise ValueError("vmap: Expected all tensors to have the same size in the mapped "
                         f"dimension, got sizes {sizes} for the mapped dimension")
    return sizes[0]


def _stack(results: list, out_dims, name):
    """The per-sample results stacked along ``out_dims`` (None: the result is not batched)."""
    leaves_per_sample = [_trees.flatten(r) for r in results]
    spec = leaves_per_sample[0][1]
    n = len(leaves_per_sample[0][0])
    dims = [out_dims] * n if not isinstance(out_dims, (tuple, list)) else \
        _trees.flatten(out_dims)[0]
    stacked = []
    for i, d in enumerate(dims):
        column = [leaves[i] for leaves, _ in leaves_per_sample]
        if not isinstance(column[0], TensorBase):
            raise ValueError(f"vmap({name}, ...): `{name}` must only return Tensors, got type "
                             f"{type(column[0])}. Did you mean to set out_dims= to None for "
                             "output?")
        if d is None and not all(ops.equal(column[0], c) for c in column[1:]):
            raise ValueError(f"vmap({name}, ...): `{name}` can not return a BatchedTensor when "
                             "out_dim is None")  # (a result that differs across the samples)
        stacked.append(column[0] if d is None else ops.stack(column, dim=d))
    return _trees.unflatten(stacked, spec)
