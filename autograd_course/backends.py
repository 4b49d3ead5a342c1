"""``ag.backends``: PyTorch's questions about other hardware back ends, answered for ours.

Tutorials ask ``torch.backends.mps.is_available()`` (Apple GPUs) before falling back to the
CPU; there is no MPS back end here, so the answer is False. Nor is there MKL-DNN (oneDNN,
PyTorch's optimised CPU layout, ``x.to_mkldnn()``). The only accelerator is CUDA, through CuPy
(see ``ag.accelerator``).
"""

from __future__ import annotations

import types

from . import _backend

mps = types.SimpleNamespace(is_available=lambda: False, is_built=lambda: False)
mkldnn = types.SimpleNamespace(is_available=lambda: False)
cuda = types.SimpleNamespace(is_built=_backend.cuda_available)
# settings some scripts assign (they change nothing here: no cuDNN, results are deterministic)
cudnn = types.SimpleNamespace(deterministic=True, benchmark=False, enabled=False,
                              is_available=lambda: False)
