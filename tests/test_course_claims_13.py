"""What chapter 13 (forward mode and ``torch.func``) says about PyTorch, checked against PyTorch.

Each claim is asserted for our package and for ``torch``: a dual tensor's tangent is the
directional derivative J·v; ``unpack_dual`` returns the named tuple ``(primal, tangent)``, with
tangent None for a tensor that was never made dual; forward mode records no graph (the output of
a dual tensor that does not require grad does not either); ``jvp`` and ``vjp`` run the function
once per call, so a Jacobian by explicit columns takes n passes and by rows m; ``jacfwd`` and
``jacrev`` give the same Jacobian; ``hessian`` is ``jacfwd(jacrev(f))`` and forward over reverse
gives H·v; ``vmap(grad(...))`` gives per-sample gradients equal to a loop; and, for PyTorch
only, that its ``vmap``, ``jacfwd`` and ``jacrev`` batch the passes (the function runs once),
while this package's run it once per sample (the chapter says so).
"""

from __future__ import annotations

import inspect
import math

import pytest

import autograd_course as ag


@pytest.fixture(params=["ag", "torch"])
def lib(request):
    """Our package, then PyTorch (the second is skipped where torch is not installed)."""
    return ag if request.param == "ag" else request.getfixturevalue("torch_oracle")


def test_tangent_is_the_directional_derivative_and_no_graph_is_recorded(lib):
    fw = lib.autograd.forward_ad
    x = lib.tensor([0.5, 1.0, 2.0])
    with fw.dual_level():
        y = (fw.make_dual(x, lib.tensor([1.0, 0.0, 0.0])) * x.sin()).sum()
        unpacked = fw.unpack_dual(y)
        never = fw.unpack_dual(lib.ones(2))
    assert type(unpacked).__name__ == "UnpackedDualTensor"
    assert unpacked._fields == ("primal", "tangent")
    assert math.isclose(unpacked.tangent.item(), math.sin(0.5), rel_tol=1e-6)
    assert never.tangent is None
    assert not y.requires_grad and y.grad_fn is None


def test_dual_number_squared(lib):
    fw = lib.autograd.forward_ad
    with fw.dual_level():
        three = fw.make_dual(lib.tensor(3.0), lib.tensor(1.0))
        primal, tangent = fw.unpack_dual(three * three)
    assert (primal.item(), tangent.item()) == (9.0, 6.0)


def test_jvp_and_vjp_run_the_function_once_per_call(lib):
    calls = []
    a = lib.randn(5, 3)

    def f(x):
        calls.append(1)
        return (a @ x).tanh()

    x, eye3, eye5 = lib.randn(3), lib.eye(3), lib.eye(5)
    columns = [lib.func.jvp(f, (x,), (eye3[k],))[1] for k in range(3)]
    assert len(calls) == 3
    calls.clear()
    rows = [lib.func.vjp(f, x)[1](eye5[i])[0] for i in range(5)]
    assert len(calls) == 5
    by_columns, by_rows = lib.stack(columns, dim=1), lib.stack(rows)
    assert lib.allclose(by_columns, by_rows, atol=1e-6)
    assert lib.allclose(lib.func.jacfwd(f)(x), lib.func.jacrev(f)(x), atol=1e-6)


def test_hessian_is_forward_over_reverse(lib):
    def energy(x):
        return (x.sin() * x).sum() + (x[0] * x[1]) ** 2

    fw = lib.autograd.forward_ad
    point = lib.tensor([0.3, -1.2, 2.0], requires_grad=True)
    v = lib.tensor([1.0, 2.0, -1.0])
    with fw.dual_level():
        dual = fw.make_dual(point, v)
        (gradient,) = lib.autograd.grad(energy(dual), dual, create_graph=True)
        hv = fw.unpack_dual(gradient).tangent
    h = lib.func.hessian(energy)(point.detach())
    assert lib.allclose(hv.detach(), h @ v, atol=1e-5)
    assert lib.allclose(h, lib.func.jacfwd(lib.func.jacrev(energy))(point.detach()))


def test_per_sample_gradients_equal_a_loop(lib):
    lib.manual_seed(2)
    model = lib.nn.Linear(4, 3)
    params = {name: p.detach() for name, p in model.named_parameters()}
    xs, ys = lib.randn(6, 4), lib.tensor([0, 2, 1, 1, 0, 2])

    def loss_one(params, x, y):
        logits = lib.func.functional_call(model, params, (x.unsqueeze(0),))
        return lib.nn.functional.cross_entropy(logits, y.unsqueeze(0))

    per_sample = lib.func.vmap(lib.func.grad(loss_one), in_dims=(None, 0, 0))(params, xs, ys)
    assert per_sample["weight"].shape == (6, 3, 4)
    for i in range(6):
        model.zero_grad()
        lib.nn.functional.cross_entropy(model(xs[i:i + 1]), ys[i:i + 1]).backward()
        assert lib.allclose(per_sample["weight"][i], model.weight.grad, atol=1e-6)


def test_vmap_and_jacobians_batch_on_torch_and_loop_here(torch_oracle):
    # here: vmap runs f per sample (4), jacfwd once per input element (5), jacrev runs it once
    # and then one backward pass per output element
    for lib, expected in ((torch_oracle, (1, 1, 1)), (ag, (4, 5, 1))):
        calls = []

        def f(x, calls=calls):
            calls.append(1)
            return x.sin()

        counts = []
        for transform, arg in ((lib.func.vmap, lib.randn(4, 3)), (lib.func.jacfwd, lib.randn(5)),
                               (lib.func.jacrev, lib.randn(5))):
            calls.clear()
            transform(f)(arg)
            counts.append(len(calls))
        assert tuple(counts) == expected
    assert "jacfwd(jacrev(func, argnums), argnums)" in inspect.getsource(torch_oracle.func.hessian)
    assert "once per sample" in ag.func.vmap.__doc__.replace("\n    ", " ")
