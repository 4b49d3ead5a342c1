"""Learner-style scripts (tests/learner_scripts/*.py) run twice in fresh processes: once on
PyTorch, once with ``torch`` mapped to autograd_course (run_as.py). Their printed output must
agree token by token: numbers to 1e-5 relative (lines starting ``train:`` come from float32
training loops, 1e-2), every other token (reprs, ``grad_fn=<...>``, dtypes) exactly.

``char_mlp.py`` (an embedding table, tanh, batch norm, cross_entropy, SGD by hand) and
``tiny_gpt.py`` (embeddings, causal self-attention, LayerNorm, AdamW) train for 300 and 200
steps in float32 on ``tiny_text.txt``; their ``sample:`` lines, text drawn from the trained
model, must be the same characters on both sides."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
SCRIPTS = sorted(p.name for p in (HERE / "learner_scripts").glob("*.py") if p.name != "run_as.py")
ROOT = HERE.parent

_NUMBER = r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|[-+]?inf|nan"
_SPLIT = re.compile(rf"(0x[0-9a-f]+|(?<![\w.])(?:{_NUMBER})(?![\w.]))")


def tokens(line: str) -> list:
    """Numbers as floats, memory addresses as one placeholder, the text between them split
    at white space (so ``AddBackward0`` stays one word)."""
    out = []
    for k, part in enumerate(_SPLIT.split(line)):
        if k % 2 == 0:
            out.extend(part.split())
        elif part.startswith("0x"):
            out.append("<address>")
        else:
            out.append(float(part))
    return out


def same_line(ours: str, theirs: str, rtol: float) -> bool:
    a, b = tokens(ours), tokens(theirs)
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if isinstance(x, float) and isinstance(y, float):
            if x != y and not abs(x - y) <= rtol * max(abs(x), abs(y)) + 1e-7:
                if not (x != x and y != y):  # nan equals nan here
                    return False
        elif x != y:
            return False
    return True


def run(which: str, script: str) -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONHASHSEED="0")
    proc = subprocess.run(
        [sys.executable, str(HERE / "learner_scripts" / "run_as.py"), which,
         str(HERE / "learner_scripts" / script)],
        capture_output=True, text=True, env=env, cwd=str(ROOT), timeout=300)
    assert proc.returncode == 0, f"{which} {script} failed:\n{proc.stderr[-3000:]}"
    return proc.stdout


def test_tokenizer_keeps_names_and_reads_numbers():
    assert tokens("tensor([ 1.5000e+00, -2.], grad_fn=<AddBackward0>) torch.float32") == [
        "tensor([", 1.5, ",", -2.0, "],", "grad_fn=<AddBackward0>)", "torch.float32"]
    assert tokens("<AccumulateGrad object at 0x7f00aa>") == [
        "<AccumulateGrad", "object", "at", "<address>", ">"]
    assert not same_line("tensor(1.0001)", "tensor(1.0000)", 1e-5)
    assert same_line("train: 1.0001", "train: 1.0000", 1e-2)
    assert not same_line("tensor(1., dtype=torch.float64)", "tensor(1.)", 1e-5)


@pytest.mark.parametrize("script", SCRIPTS)
def test_script_prints_what_pytorch_prints(script):
    theirs = run("torch", script).splitlines()
    ours = run("ag", script).splitlines()
    assert len(ours) == len(theirs), (len(ours), len(theirs))
    mismatches = [(n, o, t) for n, (o, t) in enumerate(zip(ours, theirs), 1)
                  if not same_line(o, t, 1e-2 if t.startswith("train:") else 1e-5)]
    assert not mismatches, "\n".join(f"line {n}:\n  ours:  {o}\n  torch: {t}"
                                     for n, o, t in mismatches[:10])
