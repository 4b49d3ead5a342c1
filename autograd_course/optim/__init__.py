"""``ag.optim``: optimizers that update parameters from their gradients (like ``torch.optim``).

    optimizer = optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
    optimizer.zero_grad(); loss.backward(); optimizer.step()
"""

from . import lr_scheduler
from .adam import Adam, AdamW
from .optimizer import Optimizer
from .sgd import SGD

__all__ = ["SGD", "Adam", "AdamW", "Optimizer", "lr_scheduler"]
