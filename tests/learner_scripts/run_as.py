"""Run a learner script with ``torch`` as PyTorch or as autograd_course.

    python run_as.py torch script.py    # real PyTorch
    python run_as.py ag script.py       # `import torch` gives autograd_course

The mapping is what a learner would do by hand: ``sys.modules['torch']`` and the submodules a
script imports point at ours (and ``torchvision`` at ``autograd_course.vision``, which names
the course's replacement for each piece), then the script runs as ``__main__``.
"""

from __future__ import annotations

import runpy
import sys

SUBMODULES = ("nn", "nn.functional", "nn.init", "nn.utils", "optim", "autograd", "utils",
              "utils.data", "utils.data.dataloader", "utils.data.dataset", "utils.data.sampler",
              "accelerator", "cuda")


def map_torch_to_autograd_course() -> None:
    import importlib

    import autograd_course

    sys.modules["torch"] = autograd_course
    for name in SUBMODULES:
        sys.modules[f"torch.{name}"] = importlib.import_module(f"autograd_course.{name}")
    vision = importlib.import_module("autograd_course.vision")  # says what to use instead
    sys.modules["torchvision"] = vision
    for name in ("datasets", "transforms", "models"):
        sys.modules[f"torchvision.{name}"] = getattr(vision, name)


def main() -> None:
    which, script = sys.argv[1], sys.argv[2]
    if which == "ag":
        map_torch_to_autograd_course()
    sys.argv = [script]
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()
