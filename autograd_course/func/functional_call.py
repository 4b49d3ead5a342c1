"""``functional_call``: call a module with other values for its parameters and buffers, as
``torch.func.functional_call``. The module is left as it was afterwards; with the values
requiring grad, ``grad`` of the call differentiates with respect to them (meta-learning,
per-sample gradients of a model)."""

from __future__ import annotations


def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *,
                    tie_weights=True, strict=False):
    """``module(*args, **kwargs)`` with each ``name -> tensor`` of the dict(s) standing in for
    the module's parameter or buffer of that (dotted) name during the call."""
    dicts = parameter_and_buffer_dicts
    values = {}
    for d in (dicts if isinstance(dicts, (tuple, list)) else (dicts,)):
        for name, value in d.items():
            if name in values:
                raise ValueError(f"{name} appeared in multiple dictionaries; behavior of "
                                 "functional call is ambiguous")
            values[name] = value
    if strict:
        expected = [n for n, _ in module.named_parameters()] + \
                   [n for n, _ in module.named_buffers()]
        unexpected = [n for n in values if n not in expected]
        missing = sorted(n for n in expected if n not in values)
        lines = ""
        if unexpected:
            lines += "\n\tUnexpected key(s): " + ", ".join(f"'{n}'" for n in unexpected) + "."
        if missing:
            lines += "\n\tMissing key(s): " + ", ".join(f"'{n}'" for n in missing) + "."
        if lines:
            raise RuntimeError(f"Error(s) in reparametrizing for {type(module).__name__}:{lines}")
    args = () if args is None else args if isinstance(args, tuple) else (args,)
    saved = []
    try:
        for name, value in values.items():
            owner, _, attr = name.rpartition(".")
            sub = module.get_submodule(owner) if owner else module
            table = sub._parameters if attr in sub._parameters else sub._buffers
            saved.append((table, attr, table.get(attr)))
            table[attr] = value
        return module(*args, **(kwargs or {}))
    finally:
        for table, attr, old in reversed(saved):
            table[attr] = old
