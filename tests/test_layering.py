"""The package's imports run one way, with nothing hidden inside functions.

Read from the source with ``ast`` (nothing is imported): every module of ``autograd_course/``,
its module-level imports (those that run when the module is first imported), and any import
written inside a function.

* No import cycle between modules. ``from P import n`` imports module ``P.n`` when that file
  exists, else it reads a name from package ``P``'s ``__init__``; importing ``a.b.c`` also runs
  the ``__init__`` of ``a.b`` (of every package above it that is not also above the importer,
  which is already running). Imports under ``if TYPE_CHECKING:`` never run, so they do not
  count.
* No import inside a function (the usual way to dodge a cycle), except of the optional
  dependencies below, which the package must work without.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "autograd_course"
OPTIONAL_DEPENDENCIES = {"cupy", "graphviz", "IPython", "matplotlib", "ipywidgets", "tqdm"}


def _module_name(path: Path) -> str:
    parts = ("autograd_course",) + path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.Module):
    """(import node, inside a function?) for every import that can run."""
    def walk(node, in_function):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for stmt in child.orelse:
                    yield from walk(stmt, in_function)
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                yield child, in_function
            inner = in_function or isinstance(
                child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            yield from walk(child, inner)
    yield from walk(tree, False)


def _absolute(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute name ``from <...> import`` refers to, in ``module``."""
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _targets(module: str, is_package: bool, node, modules: dict[str, Path]) -> set[str]:
    """The package modules an import statement runs (before the importer goes on)."""
    if isinstance(node, ast.Import):
        named = {alias.name for alias in node.names}
    else:
        source = _absolute(module, is_package, node)
        named = set()
        for alias in node.names:
            sub = f"{source}.{alias.name}"
            named.add(sub if sub in modules else source)
    targets = set()
    for name in named:
        parts = name.split(".")
        for i in range(1, len(parts) + 1):  # the packages above it run first
            target = ".".join(parts[:i])
            importer_is_inside = module == target or module.startswith(target + ".")
            if target in modules and not importer_is_inside:
                targets.add(target)
    return targets


def _scan():
    modules = _modules()
    edges: dict[str, set[str]] = {m: set() for m in modules}
    where: dict[tuple[str, str], int] = {}
    hidden = []
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        is_package = path.name == "__init__.py"
        for node, in_function in _imports(tree):
            if in_function:
                if isinstance(node, ast.Import):
                    roots = {alias.name.split(".")[0] for alias in node.names}
                else:
                    roots = {_absolute(module, is_package, node).split(".")[0]}
                if not roots <= OPTIONAL_DEPENDENCIES:
                    rel = path.relative_to(PACKAGE.parent)
                    hidden.append(f"{rel}:{node.lineno}: {ast.unparse(node)}")
                continue
            for target in _targets(module, is_package, node, modules):
                edges[module].add(target)
                where.setdefault((module, target), node.lineno)
    return modules, edges, where, hidden


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each strongly connected component of more than one module
    (Tarjan's algorithm, iterative), each starting at its alphabetically first module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in edges[node]:
                    components.append(set(component))
    cycles = []
    for component in components:  # shortest way back to the start, inside the component
        start = min(component)
        paths = {start: [start]}
        frontier = [start]
        cycle = None
        while frontier and cycle is None:
            next_frontier = []
            for node in frontier:
                for child in sorted(edges[node] & component):
                    if child == start:
                        cycle = paths[node] + [start]
                        break
                    if child not in paths:
                        paths[child] = paths[node] + [child]
                        next_frontier.append(child)
                if cycle:
                    break
            frontier = next_frontier
        cycles.append(cycle)
    return sorted(cycles)


def _report(cycles, hidden, where) -> str:
    lines = []
    if cycles:
        lines.append(f"{len(cycles)} import cycle(s) (module-level imports; line of each):")
        for cycle in cycles:
            steps = [f"{a} (line {where[(a, b)]})" for a, b in zip(cycle, cycle[1:])]
            lines.append("  " + " -> ".join(steps + [cycle[-1]]))
    if hidden:
        lines.append(f"{len(hidden)} import(s) inside a function (only "
                     f"{', '.join(sorted(OPTIONAL_DEPENDENCIES))} may be):")
        lines.extend("  " + h for h in hidden)
    return "\n".join(lines)


def test_the_scan_sees_imports_it_must_refuse():
    """The checks can fail: a made-up cycle and a made-up hidden import are both caught."""
    edges = {"p.a": {"p.b"}, "p.b": {"p.c"}, "p.c": {"p.a"}, "p.d": {"p.a"}}
    assert _cycles(edges) == [["p.a", "p.b", "p.c", "p.a"]]
    assert _cycles({"p.a": {"p.b"}, "p.b": set()}) == []
    tree = ast.parse(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from .x import T\n"
        "import os\n"
        "def f():\n    from .y import g\n    import matplotlib.pyplot\n")
    found = [(ast.unparse(n), inside) for n, inside in _imports(tree)]
    assert found == [("from typing import TYPE_CHECKING", False), ("import os", False),
                     ("from .y import g", True), ("import matplotlib.pyplot", True)]
    node = ast.parse("from .. import dtypes").body[0]
    assert _absolute("autograd_course.ops.unary", False, node) == "autograd_course"
    assert _absolute("autograd_course.ops", True, node) == "autograd_course"
    modules = {"autograd_course": 0, "autograd_course.dtypes": 0, "autograd_course.nn": 0,
               "autograd_course.nn.init": 0, "autograd_course.ops": 0}
    assert _targets("autograd_course.ops.unary", False, node, modules) == {
        "autograd_course.dtypes"}
    node = ast.parse("from ..nn.init import x").body[0]
    assert _targets("autograd_course.ops.unary", False, node, modules) == {
        "autograd_course.nn", "autograd_course.nn.init"}


def test_imports_run_one_way_and_none_hide_in_functions():
    modules, edges, where, hidden = _scan()
    assert len(modules) > 50, "the scan found too few modules: is PACKAGE right?"
    cycles = _cycles(edges)
    assert not cycles and not hidden, "\n" + _report(cycles, hidden, where)


# --- the library and the course layer --------------------------------------------------------

COURSE = "autograd_course.course"


def _is_course(module: str) -> bool:
    return module == COURSE or module.startswith(COURSE + ".")


def _library_imports_of_course(edges: dict[str, set[str]]) -> list[str]:
    """``library module -> course module`` for every import that runs the course layer from a
    module outside it."""
    return sorted(f"{a} -> {b}" for a, targets in edges.items() if not _is_course(a)
                  for b in targets if _is_course(b))


def test_the_course_check_can_fail():
    edges = {"autograd_course.viz.words": {"autograd_course.course.i18n"},
             "autograd_course.course.fonts": {"autograd_course.viz.cjk_font"},
             "autograd_course.course": {"autograd_course.course.exercises"}}
    assert _library_imports_of_course(edges) == [
        "autograd_course.viz.words -> autograd_course.course.i18n"]


def test_no_library_module_imports_the_course_layer():
    """The course (checkers, languages, fonts, the setup check) is built on the library, never
    the other way round: no module outside ``autograd_course/course/`` imports it, neither with
    an import statement nor by name through importlib."""
    modules, edges, _, _ = _scan()
    assert COURSE in modules and any(_is_course(m) and m != COURSE for m in modules)
    assert not _library_imports_of_course(edges)
    by_name = [f"{path.relative_to(PACKAGE.parent)}: {name}" for module, path in modules.items()
               if not _is_course(module) for name in _named_imports(path.read_text("utf-8"))
               if name.startswith((COURSE, ".course", "..course"))]
    assert not by_name, by_name


def _named_imports(source: str) -> list[str]:
    """The module names passed as text to ``importlib.import_module`` / ``__import__``."""
    return [node.args[0].value for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Call) and node.args
            and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
            and getattr(node.func, "attr", getattr(node.func, "id", None))
            in ("import_module", "__import__")]


def test_the_named_import_scan_can_fail():
    source = ("import importlib\nimportlib.import_module('autograd_course.course.i18n')\n"
              "__import__('os')\nimport_module('.viz', __name__)\n")
    assert _named_imports(source) == ["autograd_course.course.i18n", "os", ".viz"]


def test_importing_the_package_loads_no_drawing_stack():
    """``import autograd_course`` loads neither Graphviz's binding nor matplotlib; the first
    use of ``ag.viz`` loads Graphviz's, and the package still answers the names it had."""
    import subprocess
    import sys

    code = ("import sys\n"
            "import autograd_course as ag\n"
            "print(sorted(m for m in ('graphviz', 'matplotlib') if m in sys.modules))\n"
            "print(callable(ag.viz.draw_graph), 'graphviz' in sys.modules)\n"
            "import autograd_course.course\n"
            "print(ag.course.exercises.__name__)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, cwd=PACKAGE.parent,
                          env={"PATH": "", "PYTHONPATH": str(PACKAGE.parent)})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["[]", "True True", "autograd_course.course.exercises"]


def test_autograd_imports_nothing_above_the_ops():
    """``autograd/`` (the engine, Function, hooks, gradcheck...) is below the layers built on
    it: it imports nothing from nn, optim, models, viz or the course layer."""
    _, edges, where, _ = _scan()
    above = ("nn", "optim", "models", "viz", "course")
    found = sorted(f"{a} -> {b} (line {where[(a, b)]})" for a, targets in edges.items()
                   if a.startswith("autograd_course.autograd") for b in targets
                   if b.split(".")[1:2] and b.split(".")[1] in above)
    assert not found, found
