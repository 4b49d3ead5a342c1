"""Run PyTorch's own autograd tests against this package, through a shim, and count.

PyTorch's ``test/test_autograd.py`` is public code that is never committed here. Fetch it
(the search tool's ``read_file``, repo ``pytorch/pytorch``, path ``test/test_autograd.py``,
page by page through ``offset``/``next_offset``) into e.g. ``/tmp/torch_tests/``, then::

    PYTHONPATH=$PWD .venv/bin/python scripts/torch_autograd_suite.py \
        /tmp/torch_tests/test_autograd.py

It runs class ``TestAutograd`` twice, each in its own process: once with the real ``torch``
and once with ``torch`` bound to a shim over ``autograd_course``, and prints, per test,
PASS / FAIL / ERROR / SKIP on torch and here, then "N of M tests that pass on torch pass
here", and the failures grouped by the first missing feature (or error) they stopped at.
Options: ``-k SUBSTRING`` runs only the tests whose name contains it; ``--class NAME`` runs
another class of the file (``TestAutogradForwardMode``); ``--forward-ad`` lifts the
forward-mode rule below (in ``TestAutograd``: runs only the tests it left out);
``--timeout S`` is the limit for one test (default 60 s; a test over it is an ERROR);
``--json PATH`` also writes every result; ``--side torch|shim`` runs one side only and prints
its results.

What is left out, by a stated rule (``EXCLUDED`` below): tests whose source mentions CUDA,
sparse or complex tensors, forward-mode AD, the JIT/compiler, threads or subprocesses, as
issue 27 states. Only the part of the file up to the end of ``class TestAutograd`` is
executed (read with ``ast``), so the file's other classes and their set-up never run.

The harness is the same on both sides, so that the two runs differ only in ``torch``:

* ``torch.testing._internal.*`` (PyTorch's test utilities, which need packages this project
  does not install) are replaced by small stand-ins written here: a ``TestCase`` whose
  ``assertEqual`` compares tensors (values within the dtype's usual tolerance, shapes, dtypes),
  lists and numbers; ``parametrize``/``instantiate_parametrized_tests``; and decorators such
  as ``skipIfTorchDynamo`` that have nothing to do here. ``assertExpected`` (expect files) and
  ``slowTest`` tests are skipped on both sides. ``gradcheck``/``gradgradcheck`` from
  ``common_utils`` call ``torch.autograd``'s with ``check_batched_grad=True`` and
  ``fast_mode=True`` unless told otherwise, as PyTorch's do.
* On the shim side, ``torch.X`` is ``autograd_course.X`` (modules are wrapped the same way,
  ``torch.autograd.graph`` is ``autograd_course.autograd.graph``). A name the package lacks is
  a placeholder that raises ``MissingFeature`` (a ``BaseException``, so that no
  ``assertRaises(Exception)`` in a test can swallow it) when it is used; while the test file
  is being imported, calling a placeholder gives another placeholder, so that a missing
  decorator or module-level helper fails the tests that use it, not the whole import.
"""

from __future__ import annotations

import argparse
import ast
import collections
import contextlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import types
import unittest
import warnings

CLASS = "TestAutograd"  # --class runs another class of the file (TestAutogradForwardMode)
FORWARD_AD_ONLY = [False]  # --forward-ad: the forward-mode rule lifted (see exclusion)

# the rule: a test whose source mentions one of these needs what the package leaves out
EXCLUDED = {
    "CUDA": r"(?i:cuda)|device_count|\bTEST_CUDA\b",
    "sparse": r"sparse|to_dense|coalesce",
    "complex": r"complex(64|128)|torch\.complex|cfloat|cdouble|view_as_real|view_as_complex"
               r"|\.conj\(|\.imag\b|\bcomplex\(|\dj\b",
    "forward-mode AD": r"fwAD|forward_ad|make_dual|unpack_dual|dual_level|check_forward_ad"
                       r"|_fwd_|fwd_grad",
    "JIT/compile": r"torch\.jit|\bjit\.|torch\.compile|_dynamo\.|TorchDispatchMode"
                   r"|FlopCounterMode|load_inline",
    "threads": r"(?i:thread)|concurrent\.futures",
    "subprocesses": r"subprocess|multiprocessing|os\.fork",
}


# ---------------------------------------------------------------------------------------------
# placeholders for what the package lacks
class MissingFeature(BaseException):
    """Raised when a test uses a name of PyTorch that the package lacks."""


_importing = [False]  # while the test file is imported, calling a placeholder is deferred


class Missing:
    """Stands for ``torch.<name>`` where the package has no such name."""

    def __init__(self, name: str) -> None:
        object.__setattr__(self, "_name", name)

    def _fail(self, *args, **kwargs):
        raise MissingFeature(self._name)

    def __getattr__(self, attr):
        if attr.startswith("__") and attr.endswith("__"):
            raise AttributeError(attr)
        return Missing(f"{self._name}.{attr}")

    def __call__(self, *args, **kwargs):
        if _importing[0]:
            return Missing(self._name)
        raise MissingFeature(self._name)

    def __mro_entries__(self, bases):
        if _importing[0]:
            return (_MissingBase,)
        raise MissingFeature(self._name)

    def __repr__(self) -> str:
        return f"<missing {self._name}>"

    __bool__ = __iter__ = __len__ = __enter__ = __exit__ = __setattr__ = _fail
    __add__ = __radd__ = __mul__ = __rmul__ = __sub__ = __eq__ = __lt__ = __gt__ = _fail
    __hash__ = object.__hash__
    __instancecheck__ = _fail


class _MissingBase:
    """A class derived from a missing one: any use of it fails."""

    def __init__(self, *args, **kwargs):
        raise MissingFeature(f"base class of {type(self).__name__}")


# ---------------------------------------------------------------------------------------------
# the shim: torch.X -> autograd_course.X
def _no_op(*args, **kwargs):
    return contextlib.nullcontext()  # called, or used as a context manager


# PyTorch internals that only PyTorch's own test set-up calls (not features a learner uses):
# here they do nothing. tearDown calls _force_original_view_tracking(False) after every test.
HARNESS_NAMES = {"torch.autograd._force_original_view_tracking": _no_op}


class ShimModule(types.ModuleType):
    """``torch.<...>`` over the module ``target`` of the package (or over nothing)."""

    def __init__(self, name: str, target) -> None:
        super().__init__(name)
        self.__dict__["_target"] = target
        self.__dict__["__path__"] = []  # a package: submodules can be imported

    def __setattr__(self, name, value):
        """Importing ``torch.autograd.gradcheck`` must not hide the function of that name
        (in PyTorch, and here, ``autograd.gradcheck`` is the function, not the module)."""
        target = self.__dict__["_target"]
        if isinstance(value, ShimModule) and target is not None and not isinstance(
                getattr(target, name, value), types.ModuleType):
            return
        super().__setattr__(name, value)

    def __getattr__(self, attr):
        target = self.__dict__["_target"]
        if attr.startswith("__") and attr.endswith("__"):
            raise AttributeError(attr)
        if attr == "torch":  # PyTorch's modules import torch: torch.autograd.torch is torch
            return sys.modules["torch"]
        if target is not None and hasattr(target, attr):
            value = getattr(target, attr)
            if isinstance(value, types.ModuleType) and value.__name__.startswith(
                    "autograd_course"):
                return _shim_module(f"{self.__name__}.{attr}")
            return value
        name = f"{self.__name__}.{attr}"
        if name in HARNESS_NAMES:
            return HARNESS_NAMES[name]
        if _package_module(name) is not None:
            return _shim_module(name)
        return Missing(name)


_SHIMS: dict[str, types.ModuleType] = {}


# PyTorch's modules whose counterparts live in the package's compatibility folder
IN_COMPAT = {"torch._C": "autograd_course.compat._C",
             "torch._VF": "autograd_course.compat._VF"}


def _package_module(torch_name: str):
    """The package's module for ``torch.a.b`` (``autograd_course.a.b``, or the one in
    ``autograd_course/compat/`` for the names in ``IN_COMPAT``), if there is one."""
    name = "autograd_course" + torch_name[len("torch"):]
    for torch_prefix, ours in IN_COMPAT.items():
        if torch_name == torch_prefix or torch_name.startswith(torch_prefix + "."):
            name = ours + torch_name[len(torch_prefix):]
    try:
        if importlib.util.find_spec(name) is None:
            return None
    except (ImportError, ValueError):
        return None
    return importlib.import_module(name)


def _shim_module(name: str) -> types.ModuleType:
    if name not in _SHIMS:
        module = sys.modules.get(name)
        if module is None:
            module = ShimModule(name, _package_module(name))
            sys.modules[name] = module
        _SHIMS[name] = module
    return _SHIMS[name]


class _ShimFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports of ``torch`` and ``torch.*`` give shim modules."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname == "torch" or fullname.startswith("torch."):
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        return _shim_module(spec.name)

    def exec_module(self, module):
        pass


def install_shim() -> None:
    import autograd_course

    root = ShimModule("torch", autograd_course)
    sys.modules["torch"] = _SHIMS["torch"] = root
    sys.meta_path.insert(0, _ShimFinder())


# ---------------------------------------------------------------------------------------------
# the harness: stand-ins for torch.testing._internal, the same on both sides
def _torch():
    return sys.modules["torch"]


def _as_numpy(value):
    import numpy as np

    if hasattr(value, "detach") and hasattr(value, "dtype"):
        t = value.detach()
        if hasattr(t, "cpu"):
            t = t.cpu()
        if str(t.dtype) == "torch.bfloat16":
            t = t.float()
        return np.asarray(t.numpy())
    return np.asarray(value)


_TOLERANCES = {"torch.float64": (1e-7, 1e-7), "torch.float32": (1.3e-6, 1e-5),
               "torch.float16": (1e-3, 1e-5), "torch.bfloat16": (1.6e-2, 1e-5)}


def _is_tensor(value) -> bool:
    return hasattr(value, "dtype") and hasattr(value, "shape") and hasattr(value, "detach")


class TestCase(unittest.TestCase):
    """A small ``TestCase`` with an ``assertEqual`` for tensors, like PyTorch's."""

    precision = 1e-5
    rel_tol = 0

    def setUp(self):
        torch = _torch()
        if hasattr(torch, "manual_seed") and not isinstance(torch.manual_seed, Missing):
            torch.manual_seed(0)

    def assertEqual(self, x, y, msg=None, *, atol=None, rtol=None, equal_nan=True,
                    exact_dtype=True, exact_device=False, **kwargs):
        import numpy as np

        if isinstance(x, str) or isinstance(y, str):
            return super().assertEqual(x, y, msg)
        if _is_tensor(x) or _is_tensor(y):
            if exact_dtype and _is_tensor(x) and _is_tensor(y):
                super().assertEqual(str(x.dtype), str(y.dtype), msg)
            if _is_tensor(x) and _is_tensor(y):
                super().assertEqual(tuple(x.shape), tuple(y.shape), msg)
            a, b = _as_numpy(x), _as_numpy(y)
            dtype = str((x if _is_tensor(x) else y).dtype)
            r, t = _TOLERANCES.get(dtype, (0.0, 0.0))
            r = r if rtol is None else rtol
            t = t if atol is None else atol
            if a.dtype.kind in "fc" or b.dtype.kind in "fc":
                ok = np.allclose(a, b, rtol=r, atol=t, equal_nan=equal_nan)
            else:
                ok = a.shape == b.shape and np.array_equal(a, b) or (
                    a.size and np.broadcast_shapes(a.shape, b.shape) and np.all(a == b))
            if not ok:
                raise self.failureException(msg or f"Tensors are not close:\n{x}\n{y}")
            return None
        if isinstance(x, (list, tuple)) and isinstance(y, (list, tuple)):
            super().assertEqual(len(x), len(y), msg)
            for a, b in zip(x, y):
                self.assertEqual(a, b, msg, atol=atol, rtol=rtol, exact_dtype=exact_dtype)
            return None
        if isinstance(x, dict) and isinstance(y, dict):
            super().assertEqual(set(x), set(y), msg)
            for k in x:
                self.assertEqual(x[k], y[k], msg, atol=atol, rtol=rtol)
            return None
        if isinstance(x, (int, float)) and isinstance(y, (int, float)) and not (
                isinstance(x, bool) or isinstance(y, bool)):
            if x == y or (x != x and y != y):
                return None
            t = self.precision if atol is None else atol
            if abs(x - y) <= t + (rtol or 0) * abs(y):
                return None
            raise self.failureException(msg or f"{x} != {y}")
        return super().assertEqual(x, y, msg)

    def assertNotEqual(self, x, y, msg=None, **kwargs):
        try:
            self.assertEqual(x, y, msg, **kwargs)
        except self.failureException:
            return
        raise self.failureException(msg or f"{x} == {y}")

    def assertExpected(self, *args, **kwargs):
        raise unittest.SkipTest("needs PyTorch's expect files")

    assertExpectedInline = assertExpectedRaisesInline = assertExpected

    @contextlib.contextmanager
    def assertWarnsOnceRegex(self, category, regex=""):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield
        found = [w for w in caught if issubclass(w.category, category)
                 and re.search(regex, str(w.message))]
        if not found:
            raise self.failureException(f"{category.__name__} matching {regex!r} not raised")

    @contextlib.contextmanager
    def assertNotWarn(self, msg=""):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield
        if caught:
            raise self.failureException(f"{msg} warned: {caught[0].message}")


def _identity(fn=None, *args, **kwargs):
    """A decorator (or decorator factory) that changes nothing here."""
    if callable(fn) and not args and not kwargs:
        return fn
    return lambda f: f


def _skip_always(reason):
    return lambda fn: unittest.skip(reason)(fn)


class _parametrize:
    def __init__(self, arg_str, arg_values, name_fn=None):
        self.names = [s.strip() for s in arg_str.split(",")]
        self.values = list(arg_values)
        self.name_fn = name_fn

    def __call__(self, fn):
        fn.__dict__.setdefault("_parametrize", []).insert(0, self)
        return fn

    def cases(self):
        for idx, value in enumerate(self.values):
            values = value if len(self.names) > 1 else (value,)
            if self.name_fn is not None:
                label = self.name_fn(*values)
            else:
                parts = []
                for name, v in zip(self.names, values):
                    if isinstance(v, (bool, int, float, str)):
                        parts.append(f"{name}_{str(v).replace('.', '_')}")
                    else:
                        parts.append(f"{name}{idx}")
                label = "_".join(parts)
            yield label, dict(zip(self.names, values))


def instantiate_parametrized_tests(cls):
    for name, fn in list(vars(cls).items()):
        specs = getattr(fn, "_parametrize", None) if callable(fn) else None
        if not specs:
            continue
        delattr(cls, name)
        combos = [("", {})]
        for spec in specs:
            combos = [(f"{la}_{lb}" if la else lb, {**ka, **kb})
                      for la, ka in combos for lb, kb in spec.cases()]
        for label, kwargs in combos:
            def test(self, fn=fn, kwargs=kwargs):
                return fn(self, **kwargs)
            test.__name__ = f"{name}_{label}"
            setattr(cls, test.__name__, test)
    return cls


def _gradcheck(fn, inputs, **kwargs):
    kwargs = {"check_batched_grad": True, "fast_mode": True, **kwargs}
    return _torch().autograd.gradcheck(fn, inputs, **kwargs)


def _gradgradcheck(fn, inputs, grad_outputs=None, **kwargs):
    kwargs = {"check_batched_grad": True, "fast_mode": True, **kwargs}
    return _torch().autograd.gradgradcheck(fn, inputs, grad_outputs, **kwargs)


def _mask_not_all_zeros(shape):
    torch = _torch()
    while True:
        result = torch.randn(shape).gt(0)
        if result.sum() > 0:
            return result


def _make_tensor(*shape, dtype, device=None, low=None, high=None, requires_grad=False,
                 **kwargs):
    torch = _torch()
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    low = -9 if low is None else low
    high = 9 if high is None else high
    if str(dtype) == "torch.bool":
        t = torch.rand(*shape) > 0.5
    elif dtype.is_floating_point:
        t = (torch.rand(*shape, dtype=dtype) * (high - low) + low)
    else:
        t = torch.randint(int(low), int(high), shape, dtype=dtype)
    return t.requires_grad_() if requires_grad else t


def _module(name: str, **names) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__dict__.update(names)

    def missing(attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return Missing(f"{name}.{attr}")

    module.__getattr__ = missing
    return module


def install_harness(shim: bool) -> None:
    common_utils = _module(
        "torch.testing._internal.common_utils",
        TestCase=TestCase, run_tests=lambda: None, gradcheck=_gradcheck,
        gradgradcheck=_gradgradcheck, parametrize=_parametrize,
        instantiate_parametrized_tests=instantiate_parametrized_tests,
        disable_gc=contextlib.nullcontext, set_warn_always_context=_warn_always,
        IS_MACOS=False, IS_WINDOWS=False, IS_LINUX=True, TEST_WITH_TORCHDYNAMO=False,
        TEST_WITH_ROCM=False, skipIfTorchDynamo=_identity, skipIfMPS=_identity,
        skipIfNoLapack=_identity, skipIfSlowGradcheckEnv=_identity, skipIfWindows=_identity,
        skipIfXpu=_identity, skipIfRocm=_identity, skipCUDANonDefaultStreamIf=_identity,
        scoped_load_inline=_skip_always("needs a C++ toolchain"),
        slowTest=_skip_always("slow test"), suppress_warnings=_identity,
        subtest=lambda value, name=None, **kw: value,
    )
    modules = {
        "torch.testing._internal.common_utils": common_utils,
        "torch.testing._internal.common_cuda": _module(
            "torch.testing._internal.common_cuda", TEST_CUDA=False, TEST_MULTIGPU=False),
        "torch.testing._internal.common_device_type": _module(
            "torch.testing._internal.common_device_type",
            instantiate_device_type_tests=lambda *a, **k: None, deviceCountAtLeast=_identity,
            dtypes=_identity, dtypesIfCUDA=_identity, dtypesIfMPS=_identity,
            expectedFailureMPS=_identity, onlyCPU=_identity, onlyCUDA=_identity,
            skipMeta=_identity),
        "torch.testing._internal.common_dtype": _module(
            "torch.testing._internal.common_dtype",
            floating_types_and=lambda *extra: (
                _torch().float32, _torch().float64) + tuple(extra)),
        "torch.testing._internal.common_methods_invocations": _module(
            "torch.testing._internal.common_methods_invocations",
            mask_not_all_zeros=_mask_not_all_zeros),
    }
    if shim:
        internal = _module("torch.testing._internal", **{
            n.rsplit(".", 1)[1]: m for n, m in modules.items()})
        internal.__path__ = []
        modules["torch.testing._internal"] = internal
        testing = _module("torch.testing", _internal=internal, make_tensor=_make_tensor)
        testing.__path__ = []
        modules["torch.testing"] = testing
    else:  # the real torch (and its own imports of torch.testing._internal) first
        import torch.testing._internal  # noqa: F401
    sys.modules.update(modules)


@contextlib.contextmanager
def _warn_always(enabled=True):
    """PyTorch's warnings that it gives once, given every time (where torch can do that)."""
    torch = _torch()
    if isinstance(getattr(torch, "set_warn_always", None), Missing) or not hasattr(
            torch, "set_warn_always"):
        yield
        return
    before = torch.is_warn_always_enabled()
    torch.set_warn_always(enabled)
    try:
        yield
    finally:
        torch.set_warn_always(before)


# ---------------------------------------------------------------------------------------------
# running one side
def _test_sources(path: str):
    """(the source to execute: everything up to the end of class TestAutograd, the source
    of each of its methods by name)."""
    text = open(path, encoding="utf-8").read()
    tree = ast.parse(text)
    methods = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == CLASS:
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    methods[item.name] = ast.get_source_segment(text, item) or ""
            break
    else:
        raise SystemExit(f"no class {CLASS} in {path}")
    lines = text.splitlines(keepends=True)[: node.end_lineno]  # line numbers kept
    return "".join(lines), methods


def exclusion(name: str, source: str) -> str | None:
    """The first reason in EXCLUDED that the test's name or code (comments left out) gives."""
    code = "\n".join(line.split("#", 1)[0] for line in source.splitlines())
    reasons = [r for r, pattern in EXCLUDED.items() if re.search(pattern, name + "\n" + code)]
    if FORWARD_AD_ONLY[0]:  # that rule lifted (the others still hold); in TestAutograd, only
        if "forward-mode AD" not in reasons:  # the tests it left out
            return NOT_SELECTED if CLASS == "TestAutograd" else (reasons or [None])[0]
        reasons.remove("forward-mode AD")
    return reasons[0] if reasons else None


NOT_SELECTED = "not a forward-mode test"


class _Timeout(BaseException):
    pass


def _alarm(signum, frame):
    raise _Timeout()


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"[:300]


def run_side(path: str, side: str, pattern: str | None, timeout: int) -> dict:
    sys.setrecursionlimit(10000)
    if side == "shim":
        install_shim()
    install_harness(shim=side == "shim")
    source, methods = _test_sources(path)
    module = types.ModuleType("torch_test_autograd")
    module.__file__ = path
    sys.modules[module.__name__] = module
    _importing[0] = True
    try:
        exec(compile(source, path, "exec"), module.__dict__)
    finally:
        _importing[0] = False
    cls = instantiate_parametrized_tests(getattr(module, CLASS))  # the file does it at its end
    names = sorted(n for n in dir(cls) if n.startswith("test") and callable(getattr(cls, n)))
    results = {}
    signal.signal(signal.SIGALRM, _alarm)
    for name in names:
        if pattern and pattern not in name:
            continue
        base = name if name in methods else next(
            (m for m in methods if name.startswith(m + "_")), name)
        reason = exclusion(name, methods.get(base, ""))
        if reason == NOT_SELECTED:
            continue
        if reason:
            results[name] = ("EXCLUDED", reason)
            continue
        results[name] = _run_one(cls, name, timeout)
    return results


def _run_one(cls, name: str, timeout: int) -> tuple:
    outcome = {}

    class Result(unittest.TestResult):
        def addError(self, test, err):
            outcome["r"] = ("ERROR", _first_line(err[1]))

        def addFailure(self, test, err):
            outcome["r"] = ("FAIL", _first_line(err[1]))

        def addSkip(self, test, reason):
            outcome["r"] = ("SKIP", str(reason)[:200])

        def addSuccess(self, test):
            outcome.setdefault("r", ("PASS", ""))

        def addExpectedFailure(self, test, err):
            outcome["r"] = ("PASS", "expected failure")

        def addUnexpectedSuccess(self, test):
            outcome["r"] = ("FAIL", "unexpected success")

    signal.alarm(timeout)
    try:
        with warnings.catch_warnings():  # a test's warning filters end with it
            cls(name).run(Result())
    except _Timeout:
        outcome["r"] = ("ERROR", f"Timeout: over {timeout} s")
    except BaseException as exc:  # a MissingFeature raised outside the test body
        outcome["r"] = ("ERROR", _first_line(exc))
    finally:
        signal.alarm(0)
    return outcome.get("r", ("ERROR", "no result"))


# ---------------------------------------------------------------------------------------------
# comparing the two sides
_ATTR = re.compile(r"AttributeError: (?:module )?'([\w.]+)' (?:object )?has no attribute '(\w+)'")


def group_key(detail: str) -> str:
    """What a failing test stopped at: the missing name, else the error's first words."""
    if detail.startswith("MissingFeature: "):
        return "missing " + detail[len("MissingFeature: "):]
    match = _ATTR.search(detail)
    if match:
        owner = {"autograd_course": "torch"}.get(match.group(1), match.group(1))
        return f"missing {owner}.{match.group(2)}"
    detail = re.sub(r"0x[0-9a-f]+", "0x…", detail)
    return detail[:120]


def report(torch_results: dict, shim_results: dict) -> str:
    lines = []
    names = sorted(set(torch_results) | set(shim_results))
    for name in names:
        t, _ = torch_results.get(name, ("ABSENT", ""))
        s, detail = shim_results.get(name, ("ABSENT", ""))
        if t == "EXCLUDED":
            lines.append(f"EXCLUDED   {name}  ({torch_results[name][1]})")
            continue
        lines.append(f"torch {t:<5} here {s:<5} {name}" + (f"  | {detail}" if s in (
            "FAIL", "ERROR") and t == "PASS" else ""))
    counted = [n for n in names if torch_results.get(n, ("",))[0] == "PASS"]
    passed = [n for n in counted if shim_results.get(n, ("",))[0] == "PASS"]
    status = collections.Counter(v[0] for v in torch_results.values())
    excluded = collections.Counter(v[1] for v in torch_results.values() if v[0] == "EXCLUDED")
    lines.append("")
    lines.append(f"{len(names)} tests in {CLASS}; excluded by the rule: {status['EXCLUDED']} "
                 f"({', '.join(f'{k} {v}' for k, v in excluded.most_common())})")
    lines.append("on torch: " + ", ".join(f"{k} {v}" for k, v in sorted(status.items())
                                            if k != "EXCLUDED"))
    here = collections.Counter(shim_results.get(n, ("ABSENT",))[0] for n in counted)
    lines.append("here, of those that pass on torch: " + ", ".join(
        f"{k} {v}" for k, v in sorted(here.items())))
    lines.append(f"{len(passed)} of {len(counted)} tests that pass on torch pass here")
    groups = collections.defaultdict(list)
    for n in counted:
        s, detail = shim_results.get(n, ("ABSENT", ""))
        if s != "PASS":
            groups[group_key(f"{detail}") if s == "ERROR" else f"[{s}] {detail[:120]}"
                   ].append(n)
    lines.append("")
    lines.append("Failures here, grouped by what they stopped at (count, then tests):")
    for key, tests in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        lines.append(f"{len(tests):4d}  {key}")
        lines.append("      " + ", ".join(tests))
    return "\n".join(lines)


def _run_in_subprocess(script: str, side: str, args, extra: tuple) -> dict:
    """One side's results, from ``script --side SIDE`` run in a process of its own."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, f"{side}.json")
        command = [sys.executable, os.path.abspath(script), args.test_file, "--side", side,
                   "--json", out, "--timeout", str(args.timeout), "--quiet"]
        command += (["-k", args.k] if args.k else []) + list(extra)
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0 or not os.path.exists(out):
            sys.stderr.write(done.stdout[-3000:] + done.stderr[-6000:])
            raise SystemExit(f"the {side} run failed (exit {done.returncode})")
        with open(out, encoding="utf-8") as f:
            return json.load(f)


def run_main(script: str, args, run_side, report, readme_problems, extra: tuple = ()) -> int:
    """What a suite script does with its parsed ``args`` (this one's, ``functorch_suite.py``'s):
    with ``--side``, run that side here and print or keep its results; else run both sides,
    each in its own process, print ``report``, keep ``--json`` and check ``--readme``."""
    if args.side:
        results = run_side(args.test_file, args.side, args.k, args.timeout)
        if args.json:
            with open(args.json, "w", encoding="utf-8") as f:
                json.dump(results, f, indent=1)
        if not args.quiet:
            for name, (status, detail) in sorted(results.items()):
                print(f"{status:<8} {name}  {detail}")
            print(collections.Counter(s for s, _ in results.values()))
        return 0
    torch_results = _run_in_subprocess(script, "torch", args, extra)
    here = _run_in_subprocess(script, "shim", args, extra)
    print(report(torch_results, here))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"torch": torch_results, "here": here}, f, indent=1)
    if args.readme:
        with open(args.readme, encoding="utf-8") as f:
            problems = readme_problems(torch_results, here, f.read())
        print("\n".join(["README:", *problems]) if problems else "README: the list is complete")
        return 1 if problems else 0
    return 0


README_SECTION = "#### What still fails there, and why"


def readme_problems(torch_results: dict, shim_results: dict, readme: str) -> list[str]:
    """What the README's list of failing tests gets wrong: each test that passes on torch but
    not here must be named in it, no test named there may pass here, and its count must be
    this run's ("N of the M tests that pass on torch")."""
    section = readme.split(README_SECTION, 1)[-1].split("\n## ", 1)[0].split("\n### ", 1)[0]
    counted = [n for n, (status, _) in torch_results.items() if status == "PASS"]
    failing = {n for n in counted if shim_results.get(n, ("",))[0] != "PASS"}
    named = set(re.findall(r"\btest_\w+", section))
    problems = [f"not listed: {n}" for n in sorted(failing - named)]
    problems += [f"listed but passes here: {n}" for n in sorted(named & set(counted) - failing)]
    count = f"{len(counted) - len(failing)} of the {len(counted)} tests that pass on torch"
    if count not in " ".join(section.split()):
        problems.append(f"the count is not '{count}'")
    return problems


def main(argv=None) -> int:
    global CLASS
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("test_file", help="a local copy of PyTorch's test/test_autograd.py")
    parser.add_argument("--side", choices=["torch", "shim"], help="run one side only")
    parser.add_argument("-k", help="only tests whose name contains this")
    parser.add_argument("--timeout", type=int, default=60, help="seconds per test")
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--readme", help="check the README's list of failing tests against "
                        "this run (README_SECTION); exit 1 if it is not complete")
    parser.add_argument("--quiet", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--class", dest="cls", default=CLASS, help="the test class to run")
    parser.add_argument("--forward-ad", action="store_true", help="lift the forward-mode AD "
                        "rule (in TestAutograd: run only the tests it leaves out)")
    args = parser.parse_args(argv)
    CLASS, FORWARD_AD_ONLY[0] = args.cls, args.forward_ad
    extra = ["--class", CLASS] + (["--forward-ad"] if FORWARD_AD_ONLY[0] else [])
    return run_main(__file__, args, run_side, report, readme_problems, tuple(extra))

if __name__ == "__main__":
    sys.exit(main())
