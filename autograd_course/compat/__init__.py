"""Compatibility: names that exist only so that old or low-level PyTorch code still runs.

Nothing in the course teaches them, and new code should not use them:

- ``_C/``: the names of PyTorch's C++ core (``torch._C``) that Python code, PyTorch's own tests
  among it, reaches for; each is built over the package's own pieces;
- ``legacy_tensors``: ``FloatTensor(2, 3)``, ``LongTensor([1, 2])``... and ``Tensor.new``'s
  argument rules;
- ``legacy_ctx``: what old code still asks of a ``Function``'s ctx (``ctx.saved_variables``);
- ``old_tensor_api``: what old code still touches on a tensor (``x.volatile``, ``x._grad_fn``).

This file imports nothing, so that the library can import one of them without loading the
others. ``Variable``, the name tensors had before PyTorch 0.4, stays where PyTorch keeps it
(``autograd/variable.py``, ``torch.autograd.variable``): the autograd package exports it and
it needs the engine's callback queue, so it cannot sit below ``autograd`` without a cycle.
"""
