"""Run PyTorch's per-operator sample inputs (its OpInfo database) on torch and on this package.

PyTorch describes each operator it tests by an ``OpInfo`` in
``torch.testing._internal.common_methods_invocations.op_db``, shipped in the torch wheel: the
sample inputs it runs the operator on, and the inputs that must raise. This script takes
every OpInfo whose op the package has and, for float32, float64, int64 and bool (those the
OpInfo supports), runs each sample on torch and on the package (tensors converted through
NumPy), then compares::

    PYTHONPATH=$PWD .venv/bin/python scripts/opinfo_suite.py [--ops add,sum] [--json PATH]

Each sample gets one class: PASS; FAIL-VALUE, FAIL-DTYPE, FAIL-SHAPE (the results differ);
FAIL-GRAD (for float dtypes: backward with a fixed random cotangent, the input gradients
differ); RAISES (the package raises, forward or backward, where torch runs); FAIL-ERROR (an
error input: the package raises another exception type than torch, or none); ROUNDING (a
float32 value off by at most ``ROUNDING_ULPS`` ulps of the result's magnitude); TIES (sort,
topk and the like pick other indices among equal values: PyTorch leaves that order
unspecified on CPU); SKIP (the sample needs what the package leaves out by a rule below).
Values are compared within ``torch.testing.assert_close``'s default tolerance of the dtype.

The rules for SKIP (``OutOfScope`` messages): complex dtypes and numbers, dtypes the package
lacks (float16, bfloat16, ...), sparse layouts, generators, memory formats the package lacks,
``out=``, the channels-last memory formats. (``as_strided`` of a view reads the storage
behind the view: its input is given the whole storage, copied, viewed alike.) Ops that draw
random numbers or return uninitialised memory (``RANDOM``, ``dropout_p`` > 0) are compared on
shapes and dtypes only.

How the op is found: a Python function of PyTorch's test code (the OpInfo's ``op`` lambda,
its ``output_process_fn_grad``) is run as it is with its global ``torch`` bound to the
package; any other op by its name: ``autograd_course.<name>`` (``nn.functional.x``,
``linalg.x`` likewise), else the Tensor method ``<name>``.
``--readme README.md`` checks the README's table and list of differences against the run.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import re
import signal
import sys
import types
import unittest
import warnings

import numpy as np
import torch
from opinfo_compare import (
    OutOfScope,
    _dtype,
    compare,
    cotangent,
    flatten,
    float32_rounding,
    gradients_differ,
    rebind,
    ties_only,
    to_package,
)

import autograd_course as ag

DTYPES = {"float32": torch.float32, "float64": torch.float64, "int64": torch.int64,
          "bool": torch.bool}
CLASSES = ["PASS", "FAIL-VALUE", "FAIL-GRAD", "FAIL-DTYPE", "FAIL-SHAPE", "RAISES",
           "FAIL-ERROR", "ROUNDING", "TIES", "SKIP"]
RANDOM = re.compile(r"^(rand\w*|bernoulli|multinomial|normal|nn\.functional\.\w*dropout\w*"
                    r"|empty\w*|new_empty\w*)$")
SAMPLE_SECONDS = 30


def load_op_db():
    """PyTorch's OpInfo list. Its test utilities import ``expecttest`` (a test-only package
    this project does not install); a stand-in module with its ``TestCase`` is enough."""
    if "expecttest" not in sys.modules:
        stand_in = types.ModuleType("expecttest")
        stand_in.TestCase = unittest.TestCase
        sys.modules["expecttest"] = stand_in
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from torch.testing._internal.common_methods_invocations import op_db
    return op_db


def op_key(op) -> str:
    return op.name + (f".{op.variant_test_name}" if op.variant_test_name else "")


def _named(name: str):
    obj = ag
    for part in name.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj if callable(obj) and not isinstance(obj, ag.dtype) else None


def package_op(op):
    """The package's callable for an OpInfo, or None when the package lacks the op."""
    named = _named(op.name)
    if named is None and not hasattr(ag.Tensor, op.name):
        return None
    if isinstance(op.op, types.FunctionType) and op.op.__module__.startswith("torch.testing"):
        return rebind(op.op, ag)
    if named is not None:
        return named

    def method(x, *args, **kwargs):
        if not isinstance(x, ag.Tensor):  # what a C method descriptor says (torch.Tensor's)
            raise TypeError(f"descriptor '{op.name}' requires a 'Tensor' object but received "
                            f"'{type(x).__name__}'")
        attribute = getattr(x, op.name)
        return attribute(*args, **kwargs) if callable(attribute) else attribute
    return method


@contextlib.contextmanager
def time_limit(seconds: int):
    def stop(*_):
        raise TimeoutError(f"over {seconds} s")
    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _call(function, sample):
    return function(sample.input, *sample.args, **sample.kwargs)


def _random(op, sample) -> bool:
    """Whether the op draws random numbers (or returns uninitialised memory) on this sample."""
    return bool(RANDOM.match(op.name)) or bool(sample.kwargs.get("dropout_p"))


def _with_its_storage(tensor, pairs: list):
    """The package's copy of a torch view with the whole storage behind it (as_strided reads
    that storage, not just the view's elements): the storage copied, then viewed alike."""
    numel = tensor.untyped_storage().nbytes() // tensor.element_size()
    whole = tensor.detach().as_strided((numel,), (1,), 0).numpy().copy()
    storage = ag.tensor(whole, dtype=_dtype(tensor.dtype), requires_grad=tensor.requires_grad)
    ours = storage.as_strided(tuple(tensor.shape), tensor.stride(), tensor.storage_offset())
    if tensor.requires_grad:
        pairs.append((tensor, ours))
    return ours


def _convert(op, sample):
    if "out" in sample.kwargs:
        raise OutOfScope("out=")
    memo, pairs = {}, []
    if op.name.startswith("as_strided") and isinstance(sample.input, torch.Tensor) and (
            sample.input.storage_offset() or not sample.input.is_contiguous()
            or sample.input.untyped_storage().nbytes() != sample.input.nbytes):
        memo[id(sample.input)] = _with_its_storage(sample.input, pairs)
    converted = to_package((sample.input, sample.args, sample.kwargs), memo, pairs)
    return types.SimpleNamespace(input=converted[0], args=converted[1], kwargs=converted[2]), pairs


def _error_text(error: BaseException) -> str:
    return f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"[:160]




def run_sample(key: str, op, function, sample, rng) -> tuple[str, str]:
    """The class and detail of one sample (see the module docstring)."""
    try:
        mine_in, pairs = _convert(op, sample)
    except OutOfScope as why:
        return "SKIP", str(why)
    try:
        theirs = _call(op.op, sample)
    except Exception as error:  # torch refuses this sample: the package must refuse it too
        return run_error(function, mine_in, type(error))
    try:
        with time_limit(SAMPLE_SECONDS):
            mine = _call(function, mine_in)
    except OutOfScope as why:
        return "SKIP", str(why)
    except Exception as error:
        return "RAISES", _error_text(error)
    try:
        theirs_out = sample.output_process_fn_grad(theirs)
        mine_out = rebind(sample.output_process_fn_grad, ag)(mine)
    except Exception:
        theirs_out, mine_out = theirs, mine
    random = _random(op, sample)
    failure, detail = compare(mine_out, theirs_out, values=not random)
    if failure == "VALUE" and ties_only(key, sample, mine_out, theirs_out):
        return "TIES", detail
    if failure == "VALUE" and float32_rounding(op, sample, mine_out, theirs_out):
        failure, detail = "ROUNDING", detail + " (torch's own error is as large)"
    if failure not in ("", "ROUNDING"):
        return f"FAIL-{failure}", detail
    if pairs and not random:
        grad_failure, grad_detail = run_backward(op, sample, mine_out, theirs_out, pairs, rng)
        if grad_failure and grad_failure != "ROUNDING":
            return grad_failure, grad_detail
        failure, detail = failure or grad_failure, detail or grad_detail
    return (failure, detail) if failure else ("PASS", "")






def run_backward(op, sample, mine, theirs, pairs, rng) -> tuple[str, str]:
    """Backward on both sides with the same random cotangents; compare the input gradients."""
    ours, reference = flatten(mine), flatten(theirs)
    outputs, our_outputs, cotangents = [], [], []
    for a, b in zip(ours, reference):
        if (seed := cotangent(b, rng)) is None:
            continue
        if not (isinstance(a, ag.Tensor) and a.requires_grad):
            return "FAIL-GRAD", "a result does not require grad where torch's does"
        outputs.append(b)
        our_outputs.append(a)
        cotangents.append(seed)
    if not outputs:
        return "", ""
    inputs = [t for t, _ in pairs]
    theirs_grads = torch.autograd.grad(outputs, inputs, cotangents, allow_unused=True)
    try:
        with time_limit(SAMPLE_SECONDS):
            our_grads = ag.autograd.grad(
                our_outputs, [m for _, m in pairs],
                [ag.tensor(c.numpy(), dtype=o.dtype) for c, o in zip(cotangents, our_outputs)],
                allow_unused=True)
    except Exception as error:
        return "RAISES", "backward: " + _error_text(error)
    failure, detail = gradients_differ(list(our_grads), list(theirs_grads))
    if failure == "GRAD" and float32_rounding(op, sample, our_grads, theirs_grads, cotangents):
        return "ROUNDING", detail + " (torch's own error is as large)"
    return (f"FAIL-{failure}" if failure == "GRAD" else failure), detail


def run_error(function, mine_in, expected: type) -> tuple[str, str]:
    """An input torch refuses: the package must raise the same exception type."""
    try:
        with time_limit(SAMPLE_SECONDS):
            _call(function, mine_in)
    except Exception as error:
        if isinstance(error, expected):
            return "PASS", ""
        return "FAIL-ERROR", f"{_error_text(error)} where torch raises {expected.__name__}"
    return "FAIL-ERROR", f"no error where torch raises {expected.__name__}"


def samples_of(op, dtype_name: str):
    dtype = DTYPES[dtype_name]
    grad = dtype.is_floating_point and op.supports_autograd
    torch.manual_seed(0)
    return list(op.sample_inputs("cpu", dtype, requires_grad=grad))


def run_op(op, function, dtype_names, limit=None) -> list[tuple]:
    """Every (dtype, index, class, detail) of one OpInfo: its samples, then its error inputs."""
    key, results = op_key(op), []
    supported = op.supported_dtypes("cpu")
    rng = np.random.default_rng(0)
    for name in dtype_names:
        if DTYPES[name] not in supported:
            continue
        try:
            samples = samples_of(op, name)
        except Exception as error:  # torch's own sample generator fails: nothing to compare
            results.append((name, -1, "SKIP", "samples: " + _error_text(error)))
            continue
        for i, sample in enumerate(samples[:limit]):
            results.append((name, i, *run_sample(key, op, function, sample, rng)))
    try:
        torch.manual_seed(0)
        errors = list(op.error_inputs("cpu"))
    except Exception:
        errors = []
    for i, error_input in enumerate(errors[:limit]):
        sample = error_input.sample_input
        try:
            mine_in, _ = _convert(op, sample)
        except OutOfScope as why:
            results.append(("error", i, "SKIP", str(why)))
            continue
        try:
            _call(op.op, sample)
        except Exception as error:
            results.append(("error", i, *run_error(function, mine_in, type(error))))
        else:
            results.append(("error", i, "SKIP", "torch runs this error input on CPU"))
    return results


def run(ops=None, dtype_names=tuple(DTYPES), limit=None, progress=False) -> dict:
    """{op key: [(dtype, index, class, detail), ...]} for the OpInfos the package has."""
    results = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for op in load_op_db():
            key = op_key(op)
            if ops is not None and key not in ops and op.name not in ops:
                continue
            function = package_op(op)
            if function is None:
                continue
            if progress:
                print(f"  {key}", file=sys.stderr, flush=True)
            results[key] = run_op(op, function, dtype_names, limit)
    return results


def totals(results: dict) -> dict:
    """Per op, the count of each class; and the same summed over all ops ("total")."""
    table = {key: collections.Counter(r[2] for r in rows) for key, rows in results.items()}
    table["total"] = sum(table.values(), collections.Counter())
    return table


def agreeing(results: dict) -> list[str]:
    """The ops each of whose samples PASS (or SKIP by rule), with at least one PASS."""
    return sorted(k for k, rows in results.items()
                  if all(r[2] in ("PASS", "SKIP") for r in rows)
                  and any(r[2] == "PASS" for r in rows))


def report(results: dict) -> str:
    table = totals(results)
    width = max(len(k) for k in table)
    shown = [c for c in CLASSES if table["total"][c]]
    lines = [f"{'op':<{width}} " + " ".join(f"{c:>10}" for c in shown)]
    for key, counts in sorted(table.items(), key=lambda kv: (kv[0] == "total", kv[0])):
        if key == "total" or set(counts) - {"PASS", "SKIP"}:
            lines.append(f"{key:<{width}} " + " ".join(f"{counts[c]:>10}" for c in shown))
    lines.append("")
    for key, rows in sorted(results.items()):
        for dtype, i, status, detail in rows:
            if status not in ("PASS", "SKIP"):
                lines.append(f"{status:<10} {key} [{dtype} #{i}] {detail}")
    total = table["total"]
    lines.append(f"\n{len(results)} ops, {sum(total.values())} samples; "
                 + ", ".join(f"{c} {total[c]}" for c in CLASSES)
                 + f"; {len(agreeing(results))} ops agree on every sample")
    return "\n".join(lines)


README_SECTION = "### PyTorch's OpInfo samples, through the runner"


def readme_problems(results: dict, readme: str) -> list[str]:
    """What the README's section gets wrong: its totals row must be this run's, and each op
    with a sample that is not PASS or SKIP must be named in it."""
    section = readme.split(README_SECTION, 1)[-1].split("\n## ", 1)[0].split("\n### ", 1)[0]
    total = totals(results)["total"]
    row = f"| {len(results)} | {sum(total.values())} | " + " | ".join(
        str(total[c]) for c in CLASSES) + " |"
    problems = [] if row in section else [f"the totals row is not '{row}'"]
    for key, counts in sorted(totals(results).items()):
        if key != "total" and set(counts) - {"PASS", "SKIP"} and f"`{key}`" not in section:
            problems.append(f"not listed: {key} ({dict(counts)})")
    return problems


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ops", help="comma-separated op names (or name.variant) to run")
    parser.add_argument("--dtypes", default=",".join(DTYPES), help="comma-separated dtypes")
    parser.add_argument("--limit", type=int, help="at most this many samples per op and dtype")
    parser.add_argument("--json", help="write every result here")
    parser.add_argument("--readme", help="check the README's section against this run")
    parser.add_argument("--agreeing", help="write the ops that agree everywhere here")
    parser.add_argument("--progress", action="store_true", help="name each op as it starts")
    args = parser.parse_args(argv)
    ops = set(args.ops.split(",")) if args.ops else None
    results = run(ops, args.dtypes.split(","), args.limit, args.progress)
    print(report(results))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1)
    if args.agreeing:
        with open(args.agreeing, "w", encoding="utf-8") as f:
            f.write("".join(f"{k}\n" for k in agreeing(results)))
    if args.readme:
        with open(args.readme, encoding="utf-8") as f:
            problems = readme_problems(results, f.read())
        print("\n".join(["README:", *problems]) if problems else "README: the section agrees")
        return 1 if problems else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
