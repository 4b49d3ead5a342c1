"""Nested arguments (tuples, lists, dicts of tensors): flattened to a list of leaves and rebuilt,
as PyTorch's ``torch.utils._pytree`` does for ``torch.func``."""

from __future__ import annotations


def flatten(tree) -> tuple[list, object]:
    """(leaves, spec): ``unflatten(leaves, spec)`` rebuilds ``tree``."""
    if isinstance(tree, (tuple, list)):
        leaves, specs = [], []
        for item in tree:
            sub, spec = flatten(item)
            leaves += sub
            specs.append((len(sub), spec))
        return leaves, (type(tree), specs)
    if isinstance(tree, dict):
        leaves, spec = flatten(list(tree.values()))
        return leaves, (dict, (list(tree.keys()), spec))
    return [tree], None


def unflatten(leaves: list, spec):
    if spec is None:
        return leaves[0]
    kind, specs = spec
    if kind is dict:
        keys, inner = specs
        return dict(zip(keys, unflatten(leaves, inner)))
    items, start = [], 0
    for n, sub in specs:
        items.append(unflatten(leaves[start:start + n], sub))
        start += n
    return kind(items)


def structure(spec) -> str:
    """PyTorch's way of printing a structure: ``TreeSpec(tuple, None, [*, *])``."""
    if spec is None:
        return "*"
    kind, specs = spec
    if kind is dict:
        keys, inner = specs
        return f"TreeSpec(dict, {keys}, [{', '.join(structure(s) for _, s in inner[1])}])"
    children = ",\n  ".join(structure(s) for _, s in specs)
    return f"TreeSpec({kind.__name__}, None, [{children}])"


def tree_map(fn, tree):
    leaves, spec = flatten(tree)
    return unflatten([fn(leaf) for leaf in leaves], spec)
