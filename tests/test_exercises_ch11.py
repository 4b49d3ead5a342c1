"""Chapter 11's checkers: a correct backward passes, a placeholder is "not attempted yet", and
each hint names the first wrong gradient and how it is wrong — one wrong answer per hint, each
made from a correct backward by the one slip the hint describes."""

from __future__ import annotations

import pytest

import autograd_course as ag
from autograd_course.course import i18n
from autograd_course.course.exercises import ch11
from autograd_course.course.exercises.messages_en import MESSAGES as EN

F = ag.nn.functional
EPS = ch11.EPS


@pytest.fixture(autouse=True)
def _english():
    i18n.set_language("en")
    yield
    i18n.set_language(None)


def mlp_backward(X, y, p, c):
    B = X.shape[0]
    d = {"logits": (c["logits"].softmax(dim=1) - F.one_hot(y, c["logits"].shape[1])) / B}
    d["W2"] = c["h"].T @ d["logits"]
    d["b2"] = d["logits"].sum(0)
    d["h"] = d["logits"] @ p["W2"].T
    d["z1"] = d["h"] * (1 - c["h"] ** 2)
    d["W1"] = X.T @ d["z1"]
    d["b1"] = d["z1"].sum(0)
    return d


def bn_backward(X, y, p, c, *, var_path=True, mean_path=True, var_divisor=None):
    B = X.shape[0]
    d = {"logits": (c["logits"].softmax(dim=1) - F.one_hot(y, c["logits"].shape[1])) / B}
    d["W2"] = c["h"].T @ d["logits"]
    d["b2"] = d["logits"].sum(0)
    d["h"] = d["logits"] @ p["W2"].T
    d["zbn"] = d["h"] * (1 - c["h"] ** 2)
    d["gamma"] = (d["zbn"] * c["xhat"]).sum(0)
    d["beta"] = d["zbn"].sum(0)
    d["xhat"] = d["zbn"] * p["gamma"]
    std = (c["var"] + EPS).sqrt()
    centred = c["z1"] - c["mu"]
    d["var"] = (d["xhat"] * centred).sum(0) * -0.5 / std ** 3
    d["mu"] = -(d["xhat"] / std).sum(0) - d["var"] * 2 * centred.sum(0) / B
    d["z1"] = d["xhat"] / std
    if var_path:
        d["z1"] = d["z1"] + d["var"] * 2 * centred / (var_divisor or B)
    if mean_path:
        d["z1"] = d["z1"] + d["mu"] / B
    d["W1"] = X.T @ d["z1"]
    return d


def changed(backward, name, how):
    """``backward`` with the gradient ``name`` replaced by ``how(d, X, c)``."""
    def wrong(X, y, p, c):
        d = backward(X, y, p, c)
        d[name] = how(d, X, c)
        return d
    return wrong


def verdict(check, fn, capsys) -> str:
    check(fn)
    return capsys.readouterr().out.strip()


def hint(key, **fields) -> str:
    return "not quite: " + EN[key].format(**fields)


def test_correct_backwards_pass_and_placeholders_are_not_attempted(capsys):
    assert verdict(ch11.check_mlp_backward, mlp_backward, capsys) == "correct"
    assert verdict(ch11.check_batchnorm_backward, bn_backward, capsys) == "correct"

    def placeholder(X, y, p, c):
        ...

    for check in (ch11.check_mlp_backward, ch11.check_batchnorm_backward):
        assert verdict(check, placeholder, capsys) == "not attempted yet"
        assert verdict(check, ..., capsys) == "not attempted yet"


def test_not_a_dict_and_a_missing_gradient(capsys):
    assert verdict(ch11.check_mlp_backward, lambda X, y, p, c: [1.0], capsys) == \
        hint("ch11.not_a_dict", type="list")
    without_b1 = changed(mlp_backward, "b1", lambda d, X, c: None)
    assert verdict(ch11.check_mlp_backward, without_b1, capsys) == hint(
        "ch11.missing", name="b1", keys=", ".join(ch11.MLP_ORDER))
    as_list = changed(mlp_backward, "W2", lambda d, X, c: d["W2"].tolist())
    assert verdict(ch11.check_mlp_backward, as_list, capsys) == hint(
        "ch11.not_a_tensor", name="W2", type="list")


def test_transposed_weight_gradient(capsys):
    wrong = changed(mlp_backward, "W1", lambda d, X, c: d["z1"].T @ X)
    got = verdict(ch11.check_mlp_backward, wrong, capsys)
    assert got == hint("ch11.transposed", name="W1", got=(16, 10), want=(10, 16))


def test_bias_gradient_not_summed_over_the_batch(capsys):
    got = verdict(ch11.check_mlp_backward, changed(mlp_backward, "b2", lambda d, X, c: d["logits"]),
                  capsys)
    assert got.startswith("not quite: your gradient for b2 has shape (") and "one row per" in got
    assert got.endswith("shape (5,)")


def test_first_wrong_gradient_is_named_missing_one_over_b(capsys):
    def no_mean(X, y, p, c):  # every later gradient is B times too large as well
        B = X.shape[0]
        d = mlp_backward(X, y, p, c)
        return {name: g * B for name, g in d.items()}

    got = verdict(ch11.check_mlp_backward, no_mean, capsys)
    assert got.startswith("not quite: your gradient for logits is ") and "1/B is missing" in got


def test_wrong_sign(capsys):
    got = verdict(ch11.check_mlp_backward, changed(mlp_backward, "h", lambda d, X, c: -d["h"]),
                  capsys)
    assert got == hint("ch11.sign", name="h")


def test_tanh_derivative_at_its_input(capsys):
    wrong = changed(mlp_backward, "z1", lambda d, X, c: d["h"] * (1 - c["z1"] ** 2))
    assert verdict(ch11.check_mlp_backward, wrong, capsys) == hint("ch11.tanh_input", name="z1")
    wrong = changed(bn_backward, "zbn", lambda d, X, c: d["h"] * (1 - c["zbn"] ** 2))
    assert verdict(ch11.check_batchnorm_backward, wrong, capsys) == \
        hint("ch11.tanh_input", name="zbn")


def test_other_shapes_nonfinite_and_plain_differences(capsys):
    wrong = changed(mlp_backward, "b1", lambda d, X, c: d["z1"].sum())
    assert verdict(ch11.check_mlp_backward, wrong, capsys) == hint(
        "ch11.shape", name="b1", got=(), want=(16,))
    wrong = changed(mlp_backward, "W2", lambda d, X, c: d["W2"] * float("nan"))
    assert verdict(ch11.check_mlp_backward, wrong, capsys) == hint("ch11.nonfinite", name="W2")
    wrong = changed(mlp_backward, "W2", lambda d, X, c: d["W2"] + 0.25)
    assert verdict(ch11.check_mlp_backward, wrong, capsys) == hint(
        "ch11.differs", name="W2", err=0.25)


def test_batchnorm_paths_forgotten(capsys):
    assert verdict(ch11.check_batchnorm_backward,
                   lambda *a: bn_backward(*a, var_path=False), capsys) == \
        hint("ch11.bn.var_path", name="z1")
    assert verdict(ch11.check_batchnorm_backward,
                   lambda *a: bn_backward(*a, mean_path=False), capsys) == \
        hint("ch11.bn.mean_path", name="z1")


def test_batchnorm_unbiased_variance(capsys):
    def unbiased(X, y, p, c):
        return bn_backward(X, y, p, c, var_divisor=X.shape[0] - 1)

    assert verdict(ch11.check_batchnorm_backward, unbiased, capsys) == \
        hint("ch11.bn.unbiased", name="z1")


def test_batchnorm_first_wrong_is_named_in_backward_order(capsys):
    wrong = changed(bn_backward, "gamma", lambda d, X, c: d["zbn"].sum(0))  # dbeta, not dgamma
    got = verdict(ch11.check_batchnorm_backward, wrong, capsys)
    assert got.startswith("not quite: your gradient for gamma has the right shape but differs")


def test_gradcheck_of_the_learner_backward(capsys):
    calls = []

    def fine_once(X, y, p, c):  # right when the checker compares, wrong when gradcheck calls
        calls.append(1)
        d = mlp_backward(X, y, p, c)
        if len(calls) > 1:
            d["W1"] = d["W1"] * 2
        return d

    got = verdict(ch11.check_mlp_backward, fine_once, capsys)
    assert got == hint("ch11.gradcheck", error="False")


def test_chinese_hints(capsys):
    i18n.set_language("zh")
    wrong = changed(mlp_backward, "W1", lambda d, X, c: d["z1"].T @ X)
    got = verdict(ch11.check_mlp_backward, wrong, capsys)
    assert got.startswith("还不对：你对 W1 的梯度转置了"), got
