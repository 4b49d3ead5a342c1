"""Run the function-transform tests of PyTorch's functorch test file against ``ag.func``.

PyTorch's ``test/functorch/test_eager_transforms.py`` is public code that is never committed
here. Fetch it (the search tool's ``read_file``, repo ``pytorch/pytorch``, that path, page by
page through ``offset``/``next_offset``) into e.g. ``/tmp/torch_tests/``, then::

    PYTHONPATH=$PWD .venv/bin/python scripts/functorch_suite.py \
        /tmp/torch_tests/test_eager_transforms.py

It runs the classes in ``CLASSES`` (those for ``grad``, ``grad_and_value``, ``vjp``, ``jvp``,
``jacrev``, ``jacfwd``, ``hessian``, ``functional_call`` and ``vmap``) twice, each side in its
own process: with the real ``torch`` and with ``torch`` bound to the package, through the
shim and the stand-ins of ``scripts/torch_autograd_suite.py`` (see its docstring). It prints
per class and overall "N of M tests that pass on torch pass here", and the failures grouped by
the first missing feature or error. Options as that runner's: ``-k``, ``--timeout``,
``--json``, ``--side``, ``--readme README.md`` (checks the README's list, ``README_SECTION``).

How the file is read: only the classes in ``CLASSES`` and the module-level helpers they use
(functions, assignments such as ``jacrev_and_jacfwd``) are executed; the file's imports are
replaced by ``namespace()``: ``grad``, ``vjp``... are ``torch.func``'s on both sides (the
file imports them from ``functorch``, whose functions are the same), ``functorch.X`` is
``torch.func.X``, ``fwAD`` is ``torch.autograd.forward_ad``. PyTorch instantiates the
device-generic classes per device (``TestJacCPU``, tests ``..._cpu``); here for ``cpu`` only,
as ``instantiate_device_type_tests(only_for="cpu")`` would.

What is left out, by a stated rule (``EXCLUDED``), the same on both sides, read from the
test's name (``NAME_RULES``) or its code with its decorators (``CODE_RULES``): CUDA; the
compiler, ``make_fx``, dispatch modes and ``torch._C._functorch`` internals; complex and
sparse tensors; ``functionalize`` and ``functorch.make_functional`` (functorch-only APIs: the
``make_functional`` variant of a test parametrized by ``mechanism`` is left out, its
``functional_call`` variant runs). ``TestLinearize`` is not run (``torch.func.linearize`` is not
built here), nor the classes on ``autograd.Function``'s vmap rules, functorch's helpers,
``HigherOrderOperator`` and ``TestExamplesCorrectness`` (MAML and ensembles by
``make_functional``/``combine_state_for_ensemble``).
"""

from __future__ import annotations

import argparse
import ast
import collections
import contextlib
import functools
import inspect
import os
import re
import signal
import sys
import types
import unittest
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch_autograd_suite as base  # the shim and the stand-ins

CLASSES = ["TestGradTransform", "TestVmapOfGrad", "TestJac", "TestHessian", "TestJvp",
           "TestVmapJvpInplaceView", "TestComposability", "TestMakeFunctional",
           "TestHigherOrderOperatorInteraction"]
NOT_DEVICE_GENERIC = {"TestMakeFunctional"}  # instantiate_parametrized_tests only

NAME_RULES = {
    "functorch.make_functional": r"mechanism_make_functional",
    "functionalize": r"functionalize",
}
CODE_RULES = {
    "CUDA": r"(?i:cuda)",
    "compiler/make_fx/dispatch internals": r"torch\.compile|_dynamo\.|make_fx|TorchDispatchMode"
                                           r"|torch\._C\b|_functorch\b|HigherOrderOperator",
    "complex": r"cfloat|cdouble|complex64|complex128|\dj\b",
    "sparse": r"sparse",
    "functorch.make_functional": r"make_functional\(|combine_state_for_ensemble|functional_init",
}
README_SECTION = "#### torch.func: PyTorch's functorch tests"


class _Subtest:
    def __init__(self, value, name=None, **kwargs):
        self.value, self.name = value, name


class _parametrize(base._parametrize):
    """``parametrize`` whose values may be ``subtest(value, name=...)``, named as PyTorch."""

    def cases(self):
        for label, kwargs in super().cases():
            named = [v.name for v in kwargs.values() if isinstance(v, _Subtest)]
            values = {k: v.value if isinstance(v, _Subtest) else v for k, v in kwargs.items()}
            yield ("_".join(named) if named else label), values


@contextlib.contextmanager
def _freeze_rng_state():
    torch = base._torch()
    state = torch.get_rng_state()
    try:
        yield
    finally:
        torch.set_rng_state(state)


def namespace() -> dict:
    """What the file's imports give it, from the ``torch`` of this side."""
    import torch

    func = torch.func
    names = ["grad", "grad_and_value", "vjp", "jvp", "jacrev", "jacfwd", "hessian", "vmap",
             "functional_call"]
    functorch = types.SimpleNamespace(**{n: getattr(func, n) for n in names})
    functorch.experimental = base.Missing("functorch.experimental")
    ident = base._identity
    return {
        **{n: getattr(func, n) for n in names},
        "torch": torch, "nn": torch.nn, "F": torch.nn.functional, "np": np,
        "fwAD": torch.autograd.forward_ad, "functorch": functorch,
        "make_functional": base.Missing("functorch.make_functional"),
        "TestCase": base.TestCase, "parametrize": _parametrize, "subtest": _Subtest,
        "markDynamoStrictTest": ident, "skipIfTorchDynamo": ident, "onlyCPU": ident,
        "tf32_on_and_off": ident, "dtypes": ident, "freeze_rng_state": _freeze_rng_state,
        "TEST_WITH_TORCHDYNAMO": False, "partial": functools.partial,
        "wraps": functools.wraps, "unittest": unittest, "sys": sys, "warnings": warnings,
        "__name__": "torch_test_eager_transforms",
    }


def _sources(path: str):
    """(module-level code to execute, {class: {method: its source with decorators}})."""
    text = open(path, encoding="utf-8").read()
    tree = ast.parse(text)
    keep, methods = [], {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and (node.name in CLASSES or node.name.endswith(
                "Mixin")):
            keep.append(node)
            methods[node.name] = {
                item.name: "\n".join(text.splitlines()[min(
                    [d.lineno for d in item.decorator_list] + [item.lineno]) - 1:
                    item.end_lineno])
                for item in node.body if isinstance(item, ast.FunctionDef)}
        elif isinstance(node, (ast.FunctionDef, ast.Assign)):
            keep.append(node)  # helpers such as _get_weights_and_functional_call
    return ast.Module(body=keep, type_ignores=[]), methods


def exclusion(name: str, source: str) -> str | None:
    code = "\n".join(line.split("#", 1)[0] for line in source.splitlines())
    for reason, pattern in NAME_RULES.items():
        if re.search(pattern, name):
            return reason
    for reason, pattern in CODE_RULES.items():
        if reason in NAME_RULES and "mechanism_" in name:
            continue  # parametrized by mechanism: the name says which variant needs it
        if re.search(pattern, code):
            return reason
    return None


def _on_cpu(fn):
    """The test with ``device="cpu"``, as PyTorch's device-type instantiation binds it."""
    def test(self, *args, **kwargs):
        return fn(self, *args, device="cpu", **kwargs)
    test.__dict__.update(fn.__dict__)  # the parametrize specs
    return test


def instantiate(cls):
    """``TestXCPU`` (tests ``..._cpu``) for a device-generic class, else the class
    parametrized; the map {test name: name of the method it comes from}."""
    device = cls.__name__ not in NOT_DEVICE_GENERIC
    new = type(cls.__name__ + ("CPU" if device else ""), (cls,), {})
    origin = {}
    for name, fn in list(vars(cls).items()):
        if not (name.startswith("test") and callable(fn)):
            continue
        wants_device = "device" in inspect.signature(fn).parameters
        setattr(new, name, _on_cpu(fn) if wants_device else fn)
        setattr(cls, name, None)  # the subclass's tests only
    before = set(vars(new))
    base.instantiate_parametrized_tests(new)
    for name in [n for n in vars(new) if n.startswith("test")]:
        method = max((m for m in vars(cls) if name == m or (
            name not in before and name.startswith(m + "_"))), key=len, default=name)
        final = name + "_cpu" if device else name
        if final != name:
            setattr(new, final, vars(new)[name])
            delattr(new, name)
        origin[final] = method
    return new, origin


def run_side(path: str, side: str, pattern: str | None, timeout: int) -> dict:
    sys.setrecursionlimit(10000)
    if side == "shim":
        base.install_shim()
    base.install_harness(shim=side == "shim")
    code, methods = _sources(path)
    module = namespace()
    base._importing[0] = True
    try:
        exec(compile(code, path, "exec"), module)
    finally:
        base._importing[0] = False
    results = {}
    signal.signal(signal.SIGALRM, base._alarm)
    for cls_name in CLASSES:
        if cls_name not in module:
            continue
        cls, origin = instantiate(module[cls_name])
        for name in sorted(origin):
            key = f"{cls.__name__}.{name}"
            if pattern and pattern not in key:
                continue
            reason = exclusion(name, methods[cls_name].get(origin[name], ""))
            results[key] = ("EXCLUDED", reason) if reason else base._run_one(cls, name, timeout)
    return results


def report(torch_results: dict, here: dict) -> str:
    lines, groups = [], collections.defaultdict(list)
    per_class = collections.defaultdict(lambda: [0, 0, 0])  # passing on torch, here, excluded
    for key in sorted(torch_results):
        t, t_detail = torch_results[key]
        s, detail = here.get(key, ("ABSENT", ""))
        cls = key.split(".")[0]
        if t == "EXCLUDED":
            per_class[cls][2] += 1
            lines.append(f"EXCLUDED   {key}  ({t_detail})")
            continue
        lines.append(f"torch {t:<5} here {s:<5} {key}" + (
            f"  | {detail}" if t == "PASS" and s != "PASS" else ""))
        if t == "PASS":
            per_class[cls][0] += 1
            per_class[cls][1] += s == "PASS"
            if s != "PASS":
                groups[base.group_key(detail) if s == "ERROR" else f"[{s}] {detail[:120]}"
                       ].append(key)
    lines.append("")
    for cls, (on_torch, passed, excluded) in per_class.items():
        lines.append(f"{cls}: {passed} of {on_torch} tests that pass on torch pass here"
                     f" ({excluded} excluded by the rule)")
    on_torch = sum(v[0] for v in per_class.values())
    passed = sum(v[1] for v in per_class.values())
    status = collections.Counter(v[0] for v in torch_results.values())
    lines.append("on torch: " + ", ".join(f"{k} {v}" for k, v in sorted(status.items())))
    lines.append(f"overall: {passed} of {on_torch} tests that pass on torch pass here")
    lines.append("")
    lines.append("Failures here, grouped by what they stopped at (count, then tests):")
    for key, tests in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        lines.append(f"{len(tests):4d}  {key}")
        lines.append("      " + ", ".join(tests))
    return "\n".join(lines)


def readme_problems(torch_results: dict, here: dict, readme: str) -> list[str]:
    """Each test that passes on torch but not here is named in the README's section (as
    ``Class.test``), none named there passes here, and the overall count is this run's."""
    section = readme.split(README_SECTION, 1)[-1].split("\n## ", 1)[0].split("\n### ", 1)[0]
    counted = [k for k, (status, _) in torch_results.items() if status == "PASS"]
    failing = {k for k in counted if here.get(k, ("",))[0] != "PASS"}
    named = set(re.findall(r"\bTest\w+\.test_\w+", section))
    problems = [f"not listed: {k}" for k in sorted(failing - named)]
    problems += [f"listed but passes here: {k}" for k in sorted(named & set(counted) - failing)]
    count = f"{len(counted) - len(failing)} of the {len(counted)} tests that pass on torch"
    if count not in " ".join(section.split()):
        problems.append(f"the count is not '{count}'")
    return problems


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("test_file", help="a local copy of test_eager_transforms.py")
    parser.add_argument("--side", choices=["torch", "shim"], help="run one side only")
    parser.add_argument("-k", help="only tests whose Class.name contains this")
    parser.add_argument("--timeout", type=int, default=60, help="seconds per test")
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--readme", help="check the README's list of failing tests")
    parser.add_argument("--quiet", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    return base.run_main(__file__, args, run_side, report, readme_problems)

if __name__ == "__main__":
    sys.exit(main())
