"""Losses and softmax against PyTorch (float64): value, input and target gradients, every
reduction, class weights, ignore_index, grad_fn names, numerical stability and errors."""

from __future__ import annotations

import numpy as np
import pytest

import autograd_course as ag
from autograd_course import nn
from autograd_course.nn import functional as F

torch = pytest.importorskip("torch")
TF = torch.nn.functional
TOL = dict(rtol=1e-10, atol=1e-12)
RNG = np.random.default_rng(0)


def both(array, requires_grad=True):
    return (ag.tensor(array, requires_grad=requires_grad),
            torch.tensor(array, requires_grad=requires_grad))


def check(ours_fn, theirs_fn, arrays, grad_of=(0,), name=True):
    """Run both, compare the value, the grad_fn name and the gradients of ``grad_of``."""
    ag_in = [ag.tensor(a, requires_grad=i in grad_of) for i, a in enumerate(arrays)]
    th_in = [torch.tensor(a, requires_grad=i in grad_of) for i, a in enumerate(arrays)]
    a_out, t_out = ours_fn(*ag_in), theirs_fn(*th_in)
    np.testing.assert_allclose(a_out.detach().numpy(), t_out.detach().numpy(), **TOL)
    if name:
        assert a_out.grad_fn.name() == t_out.grad_fn.name()
    g = RNG.standard_normal(tuple(t_out.shape))
    a_out.backward(ag.tensor(g))
    t_out.backward(torch.tensor(g))
    for i in grad_of:
        np.testing.assert_allclose(ag_in[i].grad.numpy(), th_in[i].grad.numpy(), **TOL)


REDUCTIONS = ["mean", "sum", "none"]


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_mse_and_l1(reduction):
    x, y = RNG.standard_normal((4, 3)), RNG.standard_normal((4, 3))
    check(lambda a, b: F.mse_loss(a, b, reduction=reduction),
          lambda a, b: TF.mse_loss(a, b, reduction=reduction), [x, y], grad_of=(0, 1))
    check(lambda a, b: F.l1_loss(a, b, reduction=reduction),
          lambda a, b: TF.l1_loss(a, b, reduction=reduction), [x, y], grad_of=(0, 1))
    check(lambda a, b: nn.MSELoss(reduction=reduction)(a, b),
          lambda a, b: torch.nn.MSELoss(reduction=reduction)(a, b), [x, y])


def test_mse_broadcast_warns_like_pytorch():
    with pytest.warns(UserWarning, match="Using a target size"):
        check(F.mse_loss, TF.mse_loss, [RNG.standard_normal((3, 2)), RNG.standard_normal(2)],
              name=False)


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted", [False, True])
def test_cross_entropy_and_nll(reduction, weighted):
    x = RNG.standard_normal((6, 4))
    t = np.array([0, 3, 1, 1, 2, 3])
    w = RNG.uniform(0.5, 2.0, 4) if weighted else None

    def ours(a, target):
        return F.cross_entropy(a, target, None if w is None else ag.tensor(w),
                               reduction=reduction)

    def theirs(a, target):
        return TF.cross_entropy(a, target, None if w is None else torch.tensor(w),
                                reduction=reduction)

    check(ours, theirs, [x, t])
    check(lambda a, target: F.nll_loss(F.log_softmax(a, 1), target,
                                       None if w is None else ag.tensor(w), reduction=reduction),
          lambda a, target: TF.nll_loss(TF.log_softmax(a, 1), target,
                                        None if w is None else torch.tensor(w),
                                        reduction=reduction), [x, t])
    check(lambda a, target: nn.CrossEntropyLoss(None if w is None else ag.tensor(w),
                                                reduction=reduction)(a, target),
          lambda a, target: torch.nn.CrossEntropyLoss(None if w is None else torch.tensor(w),
                                                      reduction=reduction)(a, target), [x, t])


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_cross_entropy_ignore_index_unbatched_and_probabilities(reduction):
    x = RNG.standard_normal((5, 3))
    t = np.array([0, -100, 2, 1, -100])
    check(lambda a, b: F.cross_entropy(a, b, reduction=reduction),
          lambda a, b: TF.cross_entropy(a, b, reduction=reduction), [x, t])
    check(lambda a, b: F.cross_entropy(a, b, ignore_index=2, reduction=reduction),
          lambda a, b: TF.cross_entropy(a, b, ignore_index=2, reduction=reduction),
          [x, np.array([0, 2, 2, 1, 0])])
    check(lambda a, b: F.cross_entropy(a, b, reduction=reduction),
          lambda a, b: TF.cross_entropy(a, b, reduction=reduction),
          [RNG.standard_normal(4), np.array(2)])
    probs = RNG.dirichlet(np.ones(3), size=5)
    check(lambda a, b: F.cross_entropy(a, b, reduction=reduction),
          lambda a, b: TF.cross_entropy(a, b, reduction=reduction), [x, probs], name=False)


def test_nll_loss_module():
    x, t = RNG.standard_normal((4, 3)), np.array([2, 0, 1, 1])
    check(lambda a, b: nn.NLLLoss()(nn.LogSoftmax(dim=1)(a), b),
          lambda a, b: torch.nn.NLLLoss()(torch.nn.LogSoftmax(dim=1)(a), b), [x, t])


def test_cross_entropy_out_of_range_says_which_index():
    for bad in (5, -3):
        target = np.array([0, bad, 2])
        with pytest.raises(IndexError) as ours:
            F.cross_entropy(ag.zeros(3, 4), ag.tensor(target))
        with pytest.raises(IndexError) as theirs:
            TF.cross_entropy(torch.zeros(3, 4), torch.tensor(target))
        assert str(ours.value) == str(theirs.value) == f"Target {bad} is out of bounds."


def test_nll_batch_mismatch_matches_pytorch():
    with pytest.raises(ValueError) as ours:
        F.nll_loss(ag.zeros(3, 4), ag.tensor([0, 1]))
    with pytest.raises(ValueError) as theirs:
        TF.nll_loss(torch.zeros(3, 4), torch.tensor([0, 1]))
    assert str(ours.value) == str(theirs.value)


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted", [False, True])
def test_binary_cross_entropy(reduction, weighted):
    x = RNG.uniform(0.05, 0.95, (4, 3))
    y = RNG.uniform(0, 1, (4, 3))
    w = RNG.uniform(0.5, 2, (4, 3)) if weighted else None
    check(lambda a, b: F.binary_cross_entropy(a, b, None if w is None else ag.tensor(w),
                                              reduction=reduction),
          lambda a, b: TF.binary_cross_entropy(a, b, None if w is None else torch.tensor(w),
                                               reduction=reduction), [x, y], grad_of=(0, 1))
    check(lambda a, b: nn.BCELoss(reduction=reduction)(a, b),
          lambda a, b: torch.nn.BCELoss(reduction=reduction)(a, b), [x, y])


def test_binary_cross_entropy_clamps_log_at_minus_100():
    x, y = np.array([0.0, 1.0, 0.5]), np.array([1.0, 0.0, 1.0])
    check(lambda a, b: F.binary_cross_entropy(a, b, reduction="none"),
          lambda a, b: TF.binary_cross_entropy(a, b, reduction="none"), [x, y])


def test_binary_cross_entropy_errors_match_pytorch():
    for x, y, kind in [(np.array([0.5, 1.5]), np.array([0.0, 1.0]), RuntimeError),
                       (np.array([0.5, 0.5, 0.5]), np.array([0.0, 1.0]), ValueError)]:
        with pytest.raises(kind) as ours:
            F.binary_cross_entropy(ag.tensor(x), ag.tensor(y))
        with pytest.raises(kind) as theirs:
            TF.binary_cross_entropy(torch.tensor(x), torch.tensor(y))
        assert str(ours.value) == str(theirs.value)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_binary_cross_entropy_with_logits(reduction):
    z = np.array([[-1000.0, -3.0, 0.0], [2.0, 1000.0, 40.0]])
    y = np.array([[0.0, 1.0, 0.5], [1.0, 0.0, 1.0]])
    pos = np.array([1.0, 2.0, 0.5])
    check(lambda a, b: F.binary_cross_entropy_with_logits(a, b, reduction=reduction),
          lambda a, b: TF.binary_cross_entropy_with_logits(a, b, reduction=reduction), [z, y],
          grad_of=(0, 1))
    check(lambda a, b: nn.BCEWithLogitsLoss(reduction=reduction,
                                            pos_weight=ag.tensor(pos))(a, b),
          lambda a, b: torch.nn.BCEWithLogitsLoss(reduction=reduction,
                                                  pos_weight=torch.tensor(pos))(a, b), [z, y])
    loss = F.binary_cross_entropy_with_logits(ag.tensor(z), ag.tensor(y), reduction=reduction)
    assert np.all(np.isfinite(loss.detach().numpy()))


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_softmax_and_log_softmax(dim):
    x = RNG.standard_normal((3, 4, 2)) * 30  # large values: the max shift must be there
    check(lambda a: F.softmax(a, dim), lambda a: TF.softmax(a, dim), [x])
    check(lambda a: F.log_softmax(a, dim), lambda a: TF.log_softmax(a, dim), [x])


def test_softmax_double_backward_matches_pytorch():
    x = RNG.standard_normal((2, 3))
    ax, tx = both(x)
    (ga,) = ag.autograd.grad((F.softmax(ax, 1) ** 2).sum(), ax, create_graph=True)
    (gt,) = torch.autograd.grad((TF.softmax(tx, 1) ** 2).sum(), tx, create_graph=True)
    ga.sum().backward()
    gt.sum().backward()
    np.testing.assert_allclose(ax.grad.numpy(), tx.grad.numpy(), **TOL)


def test_softmax_without_dim_warns_and_picks_pytorchs_dim():
    x = RNG.standard_normal((2, 3))
    with pytest.warns(UserWarning, match="Implicit dimension choice for softmax"):
        ours = F.softmax(ag.tensor(x))
    with pytest.warns(UserWarning):
        theirs = TF.softmax(torch.tensor(x))
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), **TOL)


def test_invalid_reduction():
    with pytest.raises(ValueError, match="bogus is not a valid value for reduction"):
        F.mse_loss(ag.zeros(2), ag.zeros(2), reduction="bogus")


def test_one_hot():
    assert F.one_hot(ag.tensor([0, 2, 1]), 4).tolist() == \
        TF.one_hot(torch.tensor([0, 2, 1]), 4).tolist()


@pytest.mark.parametrize("loss", ["cross_entropy", "mse_loss", "binary_cross_entropy",
                                  "binary_cross_entropy_with_logits"])
def test_losses_differentiate_twice_like_pytorch(loss):
    """Hessian-vector products through an MLP and the loss (softmax and the losses have
    backward formulas written with tensor ops, so they can be differentiated again)."""
    rng = np.random.default_rng(4)
    w = rng.standard_normal((3, 4))
    x = rng.standard_normal((5, 4))
    if loss == "cross_entropy":
        target = np.array([0, 2, 1, 1, 0])
    else:
        target = rng.uniform(0.1, 0.9, (5, 3))
    results = []
    for lib, f in ((ag, F), (torch, TF)):
        wt = lib.tensor(w, requires_grad=True)
        out = lib.tensor(x) @ wt.t()
        if loss == "binary_cross_entropy":
            out = out.sigmoid()
        value = getattr(f, loss)(out, lib.tensor(target))
        (g,) = (ag.autograd.grad if lib is ag else torch.autograd.grad)(value, wt,
                                                                     create_graph=True)
        (g * lib.tensor(w)).sum().backward()
        results.append(wt.grad.numpy())
    # PyTorch uses its own closed form for BCE's second derivative: same value, different
    # rounding (about 1e-11 here), hence the looser tolerance than elsewhere in this file
    np.testing.assert_allclose(results[0], results[1], rtol=1e-7, atol=1e-10)
