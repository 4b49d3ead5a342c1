"""PyTorch's names on built-in nodes: ``_saved_self``, ``_saved_other``, ``_saved_result``...

PyTorch's built-in nodes have no ``saved_tensors`` (only custom Functions do); each shows what
it kept under its derivative formula's name. Every case below builds the same op with the
package and with torch and compares, for each tensor-valued ``_saved_*`` name torch shows,
that the package's node has it too, holding the same values (or ``None`` when torch has
``None``). The case list covers every op the chapters touch.
"""

from __future__ import annotations

import numpy as np
import pytest
from functions import square

import autograd_course as ag

A, B = [1.5, -2.0, 0.5], [3.0, 4.0, -1.0]
M = [[1.0, 2.0], [-3.0, 0.5]]


def _leaves(m, requires=(True, True)):
    a = m.tensor(A, requires_grad=requires[0])
    b = m.tensor(B, requires_grad=requires[1])
    return a, b


CASES = {
    "mul": lambda m: (lambda a, b: a * b)(*_leaves(m)),
    "mul, other without grad": lambda m: (lambda a, b: a * b)(*_leaves(m, (True, False))),
    "mul by a number": lambda m: _leaves(m)[0] * 2.0,
    "div": lambda m: (lambda a, b: a / b)(*_leaves(m)),
    "div, other without grad": lambda m: (lambda a, b: a / b)(*_leaves(m, (True, False))),
    "pow by a number": lambda m: _leaves(m)[0] ** 2,
    "pow of tensors": lambda m: (lambda a, b: a.abs() ** b)(*_leaves(m)),
    "number ** tensor": lambda m: 2.0 ** _leaves(m)[0],
    "exp": lambda m: _leaves(m)[0].exp(),
    "log": lambda m: _leaves(m)[0].abs().log(),
    "sqrt": lambda m: _leaves(m)[0].abs().sqrt(),
    "sigmoid": lambda m: _leaves(m)[0].sigmoid(),
    "tanh": lambda m: _leaves(m)[0].tanh(),
    "relu": lambda m: _leaves(m)[0].relu(),
    "abs": lambda m: _leaves(m)[0].abs(),
    "sin": lambda m: _leaves(m)[0].sin(),
    "reciprocal": lambda m: _leaves(m)[0].reciprocal(),
    "clamp": lambda m: _leaves(m)[0].clamp(min=0.0),
    "maximum": lambda m: m.maximum(*_leaves(m)),
    "softmax": lambda m: _leaves(m)[0].softmax(0),
    "log_softmax": lambda m: _leaves(m)[0].log_softmax(0),
    "std": lambda m: _leaves(m)[0].std(),
    "mm": lambda m: m.tensor(M, requires_grad=True) @ m.tensor(M, requires_grad=True),
    "mm, weight only": lambda m: m.tensor(M) @ m.tensor(M, requires_grad=True),
    "mv": lambda m: m.tensor(M, requires_grad=True) @ m.tensor([1.0, 2.0], requires_grad=True),
    "dot": lambda m: (lambda a, b: a @ b)(*_leaves(m)),
    "linear (addmm)": lambda m: m.nn.functional.linear(
        m.tensor(M, requires_grad=True), m.tensor(M, requires_grad=True),
        m.tensor([0.5, -0.5], requires_grad=True)),
    "mse_loss": lambda m: m.nn.functional.mse_loss(*_leaves(m)),
    "binary_cross_entropy": lambda m: m.nn.functional.binary_cross_entropy(
        _leaves(m)[0].sigmoid(), m.tensor([0.0, 1.0, 1.0])),
    "binary_cross_entropy_with_logits": lambda m: m.nn.functional.binary_cross_entropy_with_logits(
        _leaves(m)[0], m.tensor([0.0, 1.0, 1.0])),
}


def _saved(node) -> dict:
    """{name: array or None} for every tensor-valued (or None) ``_saved_*`` of ``node``."""
    shown = {}
    for name in dir(node):
        if name.startswith("_saved_"):
            value = getattr(node, name)
            if value is None or hasattr(value, "shape"):
                shown[name] = None if value is None else np.asarray(value.detach().cpu())
    return shown


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_built_in_nodes_save_under_pytorchs_names(case, torch_oracle):
    ours, theirs = CASES[case](ag).grad_fn, CASES[case](torch_oracle).grad_fn
    assert ours.name() == theirs.name()
    expected, got = _saved(theirs), _saved(ours)
    tensors = {name for name, value in expected.items() if value is not None}
    assert tensors <= set(got), (sorted(tensors), sorted(got))
    for name, value in expected.items():
        if value is None:  # not kept (or an optional number such as clamp's max): not a tensor
            assert got.get(name) is None, name
        else:
            assert got[name] is not None, name
            np.testing.assert_allclose(got[name], value, rtol=1e-6, err_msg=name)


def test_saved_result_is_the_output_and_input_is_the_input():
    a, b = _leaves(ag)
    c = a * b
    assert c.grad_fn._saved_self is a and c.grad_fn._saved_other is b
    e = a.exp()
    assert e.grad_fn._saved_result.grad_fn is e.grad_fn  # the output, rebuilt (as in torch)
    assert e.grad_fn._raw_saved_result is not None


def test_after_backward_reading_a_saved_tensor_gives_pytorchs_error(torch_oracle):
    messages = []
    for m in (ag, torch_oracle):
        a, b = _leaves(m)
        c = a * b
        c.sum().backward()
        with pytest.raises(RuntimeError) as err:
            c.grad_fn._saved_self
        messages.append(str(err.value))
    assert messages[0] == messages[1]


def test_custom_functions_keep_saved_tensors_and_get_no_saved_names(torch_oracle):
    for m in (ag, torch_oracle):
        Square = square(m)

        x = m.tensor(A, requires_grad=True)
        node = Square.apply(x).grad_fn
        assert node.saved_tensors[0] is x
        assert not [n for n in dir(node) if n.startswith("_saved_")], m.__name__


def test_an_in_place_change_is_caught_when_reading_by_name(torch_oracle):
    messages = []
    for m in (ag, torch_oracle):
        a, _ = _leaves(m)
        h = a * 1.0
        out = h.sin()
        h.add_(1.0)
        with pytest.raises(RuntimeError) as err:
            out.grad_fn._saved_self
        messages.append(str(err.value).split(";")[0])
    assert messages[0] == messages[1]
