"""``torch.ops.profiler``: the two operators behind ``record_function`` in PyTorch, for code
that calls them directly (``handle = _record_function_enter("name")`` ...
``_record_function_exit(handle)``). They are ``autograd/profiler.py``'s."""

from ..autograd.profiler import (  # noqa: F401
    _record_function_enter,
    _record_function_enter_new,
    _record_function_exit,
)
