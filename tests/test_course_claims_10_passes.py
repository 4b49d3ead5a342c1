"""Chapter 10's cost table: how many backward passes each tool of ``autograd.functional`` makes,
counted on PyTorch and on the package by mechanisms that see every pass.

A hook on the function's output node sees only the passes through the function's own graph, and
a hook on the gradient's node only the passes through that one; ``hvp``'s third pass runs
through the graph of a gradient of a gradient, which neither sees. Two counters see them all:

* every call of ``autograd.grad``, wrapped where ``autograd.functional`` looks it up (the
  chapter's mechanism: ``mock.patch.object(ag.autograd, "grad", wraps=...)``);
* every run of the backward engine: torch's ``_engine_run_backward``, the package's
  ``engine._run`` (what ``grad`` and ``backward`` both end in).

Both give vjp 1, jvp 2, vhp 2, hvp 3, jacobian one per output element, hessian 1 + one per input
element, and they agree with each other. PyTorch's own documentation of ``hvp`` says it is
slower than ``vhp`` because of the extra pass (the double-backward trick).
"""

from __future__ import annotations

from unittest import mock

import pytest

import autograd_course as ag
from autograd_course.autograd import engine

EXPECTED = {"vjp": 1, "jvp": 2, "jacobian": 4, "hessian": 4, "vhp": 2, "hvp": 3,
            "jacobian of the transpose": 3}


@pytest.fixture(params=["ag", "torch"])
def lib(request):
    return ag if request.param == "ag" else request.getfixturevalue("torch_oracle")


def _engine_runs(lib):
    """A patcher that counts every run of ``lib``'s backward engine (private names: test only)."""
    if lib is ag:
        return mock.patch.object(engine, "_run", wraps=engine._run)
    return mock.patch.object(lib.autograd, "_engine_run_backward",
                             wraps=lib.autograd._engine_run_backward)


def _grad_calls(lib):
    """A patcher that counts every call of the public ``autograd.grad``."""
    return mock.patch.object(lib.autograd, "grad", wraps=lib.autograd.grad)


def _tools(lib):
    F = lib.autograd.functional
    W = lib.tensor([[1.0, 2.0, 0.0], [0.0, -1.0, 3.0], [2.0, 0.0, 1.0], [1.0, 1.0, 1.0]])
    x = lib.tensor([1.0, 2.0, 3.0])

    def f(t):  # R^3 -> R^4
        return W @ t.tanh()

    def f_t(t):  # R^4 -> R^3
        return W.T @ t.tanh()

    def g(t):  # R^3 -> R
        return (t ** 3).sum()

    return {"vjp": (F.vjp, f, x, lib.ones(4)), "jvp": (F.jvp, f, x, lib.ones(3)),
            "jacobian": (F.jacobian, f, x), "hessian": (F.hessian, g, x),
            "vhp": (F.vhp, g, x, lib.ones(3)), "hvp": (F.hvp, g, x, lib.ones(3)),
            "jacobian of the transpose": (F.jacobian, f_t, lib.ones(4))}


def _count(patcher, tool, *args) -> int:
    with patcher as counter:
        tool(*args)
    return counter.call_count


@pytest.mark.parametrize("mechanism", [_engine_runs, _grad_calls], ids=["engine", "grad"])
def test_backward_passes_of_each_tool(lib, mechanism):
    counts = {name: _count(mechanism(lib), *call) for name, call in _tools(lib).items()}
    assert counts == EXPECTED


def test_the_two_counters_agree_and_a_node_hook_misses_hvps_third_pass(lib):
    F = lib.autograd.functional
    x, v = lib.tensor([1.0, 2.0, 3.0]), lib.ones(3)
    through_g = []

    def g(t):
        cube = t ** 3
        cube.grad_fn.register_prehook(lambda grads: through_g.append(1))
        return cube.sum()

    with _engine_runs(lib) as runs, _grad_calls(lib) as calls:
        F.hvp(g, x, v)
    assert runs.call_count == calls.call_count == 3
    assert len(through_g) == 1  # only the first pass runs through g's own graph


def test_torch_documents_hvp_as_slower_than_vhp(torch_oracle):
    F = torch_oracle.autograd.functional
    doc = " ".join(F.hvp.__doc__.split())
    assert "significantly slower than `vhp`" in doc
    assert "the backward of the backward" in " ".join(F.jvp.__doc__.split())
    counts = {name: _count(_engine_runs(torch_oracle), *call)
              for name, call in _tools(torch_oracle).items()}
    assert counts["hvp"] == counts["vhp"] + 1 and counts["jvp"] == counts["vjp"] + 1


def test_for_a_symmetric_hessian_vhp_gives_what_hvp_gives(lib):
    """Why the chapter (and PyTorch's documentation) suggests vhp: for a twice continuously
    differentiable function H is symmetric, so vᵀH equals H v, at one pass fewer."""
    F = lib.autograd.functional
    x, v = lib.tensor([1.0, 2.0, 3.0]), lib.tensor([1.0, -1.0, 2.0])

    def g(t):
        return (t ** 3).sum() + (t[0] * t[1]).sin()

    H = F.hessian(g, x)
    assert lib.allclose(H, H.T)
    assert lib.allclose(F.vhp(g, x, v)[1], F.hvp(g, x, v)[1])
    assert lib.allclose(F.hvp(g, x, v)[1], H @ v)


def test_a_counter_that_misses_a_pass_would_fail():
    """The assertion can fail: vhp's passes are not hvp's."""
    tools = _tools(ag)
    assert _count(_grad_calls(ag), *tools["vhp"]) != EXPECTED["hvp"]
