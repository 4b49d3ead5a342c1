"""``ag.func``: function transforms, as ``torch.func`` (formerly functorch).

``grad``, ``grad_and_value``, ``vjp``, ``jvp``, ``jacrev``, ``jacfwd``, ``hessian``
(transforms.py), ``vmap`` (vmap.py: here it runs the function once per sample) and
``functional_call`` (functional_call.py).
"""

from .functional_call import functional_call
from .transforms import grad, grad_and_value, hessian, jacfwd, jacrev, jvp, vjp
from .vmap import vmap

__all__ = ["functional_call", "grad", "grad_and_value", "hessian", "jacfwd", "jacrev", "jvp",
           "vjp", "vmap"]
