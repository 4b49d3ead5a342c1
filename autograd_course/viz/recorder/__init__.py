"""Watch a whole model's activations and gradients while it trains (makemore part 3).

``GradientRecorder(model)`` puts forward hooks and full backward hooks (or tensor hooks) on
the model's layers and, at each ``with recorder.step(): optimizer.step()``, records per layer
the mean, std and saturated fraction of its outputs and the std of their gradients, and per
parameter the grad:data and update:data ratios; it draws them with matplotlib and
``progress`` shows a tqdm bar. It uses only hooks that PyTorch has too, so the same recorder
runs on a ``torch.nn.Module``.

``record`` holds the recorder, ``stats`` the numbers (NumPy), ``plots`` the drawings,
``progress`` the progress bar.
"""

from __future__ import annotations

from .progress import progress
from .record import GradientRecorder, chosen_layers

__all__ = ["GradientRecorder", "chosen_layers", "progress"]
