"""Every public function of ``ag`` and ``ag.nn.functional`` takes its arguments under
PyTorch's parameter names, in PyTorch's order: ``ag.matmul(input=a, other=b)`` works where
``torch.matmul(input=a, other=b)`` does.

PyTorch's names come from ``inspect.signature`` where its function is written in Python, else
from the first line of its docstring (``matmul(input, other, *, out=None) -> Tensor``), the
signature PyTorch documents. Position by position, our parameters have PyTorch's names, as
far as both lists go (where ours stops earlier, PyTorch has a later option we lack, such as
``torch.norm``'s ``dtype``).
"""

from __future__ import annotations

import inspect
import re

import pytest

import autograd_course as ag

torch = pytest.importorskip("torch")
import torch.nn.functional as torch_F  # noqa: E402

# PyTorch documents another overload first, or a name its keyword parser does not accept
DOCUMENTED_OTHERWISE = {
    "reshape", "permute",  # ours also take the sizes unpacked (x.reshape(2, 3)); see below
    "concatenate",  # NumPy's alias: PyTorch's doc line shows axis=, its parser takes dim=
    "true_divide",  # doc line: (dividend, divisor); its parser takes input=, other= (as ours)
    "searchsorted",  # doc line: (sorted_sequence, values); its parser takes input= (as ours)
    "load", "save", "set_default_device",  # not ops: PyTorch's extra pickling arguments
}


def _split_top_level(text: str) -> list:
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    return parts + [current]


def torch_parameters(fn, name: str):
    """PyTorch's positional parameter names, or None when it documents none."""
    try:
        sig = inspect.signature(fn)
    except (ValueError, TypeError):
        sig = None
    if sig is not None:
        kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        names = [p.name for p in sig.parameters.values() if p.kind in kinds]
        return names if names or not sig.parameters else None
    match = re.search(rf"^\s*{name}\((.*?)\)\s*(->.*)?$", fn.__doc__ or "", re.M)
    if not match:
        return None
    names = []
    for part in _split_top_level(match.group(1)):
        part = part.strip().replace("\\*", "*")
        if part.startswith("*"):
            break
        if part:
            names.append(re.split(r"[=:]", part)[0].strip())
    return names


def ours_parameters(fn) -> list:
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return [p.name for p in inspect.signature(fn).parameters.values() if p.kind in kinds]


def _pairs(ours_module, theirs_module, names):
    for name in sorted(names):
        if name.startswith("_") or not hasattr(theirs_module, name):
            continue
        ours, theirs = getattr(ours_module, name), getattr(theirs_module, name)
        if not callable(ours) or isinstance(ours, type) or not callable(theirs):
            continue
        expected = torch_parameters(theirs, name)
        if expected is not None:
            yield name, ours, expected


TOP = list(_pairs(ag, torch, dir(ag)))
FUNCTIONAL = list(_pairs(ag.nn.functional, torch_F, ag.nn.functional.__all__))


def _check(name, ours, expected):
    got = ours_parameters(ours)
    n = min(len(got), len(expected))
    assert got[:n] == expected[:n], f"{name}: ours {got}, PyTorch's {expected}"


@pytest.mark.parametrize("name, ours, expected", TOP, ids=[t[0] for t in TOP])
def test_top_level_parameter_names_are_pytorchs(name, ours, expected):
    if name in DOCUMENTED_OTHERWISE:
        pytest.skip("listed above")
    _check(name, ours, expected)


@pytest.mark.parametrize("name, ours, expected", FUNCTIONAL, ids=[t[0] for t in FUNCTIONAL])
def test_functional_parameter_names_are_pytorchs(name, ours, expected):
    _check(name, ours, expected)


def test_the_table_covers_the_ops():
    names = {t[0] for t in TOP}
    assert {"matmul", "mm", "sum", "cumsum", "gather", "tril", "softmax", "var_mean"} <= names
    assert len(TOP) > 120 and len(FUNCTIONAL) > 30


@pytest.mark.parametrize("call", [
    lambda m, a, b: m.matmul(input=a, other=b),
    lambda m, a, b: m.mm(input=a, mat2=b),
    lambda m, a, b: m.addmm(input=a, mat1=a, mat2=b),
    lambda m, a, b: m.sum(input=a, dim=1),
    lambda m, a, b: m.softmax(input=a, dim=0),
    lambda m, a, b: m.cumsum(input=a, dim=1),
    lambda m, a, b: m.clamp(input=a, min=0.0),
    lambda m, a, b: m.transpose(input=a, dim0=0, dim1=1),
    lambda m, a, b: m.nn.functional.linear(input=a, weight=b),
])
def test_keyword_calls_work_as_in_pytorch(call):
    from oracle_helpers import assert_like_torch

    def case(m):
        a = m.tensor([[1.0, 2.0], [3.0, 4.0]])
        b = m.tensor([[0.5, -1.0], [2.0, 0.0]])
        return call(m, a, b)

    assert_like_torch(case)


ELEMENTWISE_KEYWORD_CALLS = {
    "add": lambda m, a, b, i: m.add(input=a, other=b, alpha=2),
    "add_number": lambda m, a, b, i: m.add(input=i, other=2.5),
    "sub": lambda m, a, b, i: m.sub(input=a, other=b, alpha=0.5),
    "subtract": lambda m, a, b, i: m.subtract(input=i, other=i),
    "rsub": lambda m, a, b, i: m.rsub(input=a, other=3, alpha=2),
    "mul": lambda m, a, b, i: m.mul(input=a, other=b),
    "multiply": lambda m, a, b, i: m.multiply(input=i, other=True),
    "div": lambda m, a, b, i: m.div(input=i, other=2),
    "div_floor": lambda m, a, b, i: m.div(input=i, other=-3, rounding_mode="floor"),
    "divide": lambda m, a, b, i: m.divide(input=a, other=b, rounding_mode="trunc"),
    "true_divide": lambda m, a, b, i: m.true_divide(input=i, other=i),
    "floor_divide": lambda m, a, b, i: m.floor_divide(input=a, other=b),
    "remainder": lambda m, a, b, i: m.remainder(input=i, other=-3),
    "pow": lambda m, a, b, i: m.pow(input=a, exponent=2),
    "pow_int": lambda m, a, b, i: m.pow(input=i, exponent=0.5),
    "pow_tensor": lambda m, a, b, i: m.pow(a.abs(), exponent=b),
    "reciprocal": lambda m, a, b, i: m.reciprocal(input=i),
    "neg": lambda m, a, b, i: m.neg(input=a),
    "negative": lambda m, a, b, i: m.negative(input=i),
    "xlogy": lambda m, a, b, i: m.xlogy(input=i, other=a.abs()),
    "maximum": lambda m, a, b, i: m.maximum(input=a, other=b),
    "minimum": lambda m, a, b, i: m.minimum(input=a, other=b),
    "eq": lambda m, a, b, i: m.eq(input=a, other=2.0),
    "ne": lambda m, a, b, i: m.ne(input=a, other=b),
    "lt": lambda m, a, b, i: m.lt(input=i, other=2.5),
    "le": lambda m, a, b, i: m.le(input=a, other=b),
    "gt": lambda m, a, b, i: m.gt(input=a, other=b),
    "ge": lambda m, a, b, i: m.ge(input=i, other=i),
    "equal": lambda m, a, b, i: m.equal(input=a, other=a),
    "logical_and": lambda m, a, b, i: m.logical_and(input=a, other=b),
    "logical_or": lambda m, a, b, i: m.logical_or(input=i, other=b),
    "logical_xor": lambda m, a, b, i: m.logical_xor(input=a, other=i),
    "logical_not": lambda m, a, b, i: m.logical_not(input=b),
    "isfinite": lambda m, a, b, i: m.isfinite(input=a / b),
    "isinf": lambda m, a, b, i: m.isinf(input=a / b),
    "isnan": lambda m, a, b, i: m.isnan(input=b / b),
    "isclose": lambda m, a, b, i: m.isclose(input=a, other=a + 1e-6, rtol=0.0, atol=1e-5),
    "allclose": lambda m, a, b, i: m.allclose(input=a, other=b, atol=3.0),
}


@pytest.mark.parametrize("name", sorted(ELEMENTWISE_KEYWORD_CALLS))
def test_elementwise_ops_take_pytorchs_keywords(name):
    """``ag.add(input=a, other=b, alpha=2)``, ``ag.pow(input=a, exponent=2)``... give what
    PyTorch gives (values and dtypes: the promotion rules apply to keyword operands too)."""
    from oracle_helpers import assert_like_torch

    def case(m):
        a = m.tensor([[1.0, 2.0], [3.0, -4.0]])
        b = m.tensor([[0.5, -1.0], [2.0, 0.0]])
        i = m.tensor([[1, -2], [7, 0]])
        return ELEMENTWISE_KEYWORD_CALLS[name](m, a, b, i)

    assert assert_like_torch(case)[0] == "value"


@pytest.mark.parametrize("call", [
    lambda F, a, b: F.mse_loss(a, b, size_average=False),
    lambda F, a, b: F.l1_loss(a, b, reduce=False),
    lambda F, a, b: F.smooth_l1_loss(a, b, None, None, "sum"),
    lambda F, a, b: F.binary_cross_entropy(a.sigmoid(), b.sigmoid(), None, False),
    lambda F, a, b: F.cross_entropy(a, b.argmax(1), None, None, -100, False),
    lambda F, a, b: F.nll_loss(a.log_softmax(1), b.argmax(1), reduce=False),
    lambda F, a, b: F.kl_div(a.log_softmax(1), b.softmax(1), size_average=False),
    lambda F, a, b: F.binary_cross_entropy_with_logits(a, b.sigmoid(), reduce=False),
])
def test_legacy_reduction_arguments_of_the_losses(call):
    """PyTorch's losses still take ``size_average`` and ``reduce`` (in their old positions)
    and warn that ``reduction`` replaces them."""
    from oracle_helpers import assert_like_torch

    def case(m):
        a = m.tensor([[1.0, -2.0, 0.5], [0.0, 3.0, -1.0]])
        b = m.tensor([[0.5, 1.0, -0.5], [2.0, -1.0, 0.0]])
        return call(m.nn.functional, a, b)

    assert_like_torch(case, warns=True)


# The methods added with the op families for the models learners build next (they were one
# mixin, _tensor_more.py, until tensor_methods/ grouped all of Tensor's methods by what they do).
NEW_METHODS = """
    split split_with_sizes chunk unbind flip roll repeat tile tril triu diagonal diag trace
    movedim moveaxis swapaxes swapdims unflatten reshape_as cumsum cumprod prod logsumexp
    median count_nonzero gather scatter scatter_add index_select masked_select log1p log2
    log10 expm1 erf round trunc frac atan2 arctan2 hypot lerp nan_to_num clamp_min bmm
    baddbmm outer kron cross sort argsort topk unique bincount multinomial
""".split()


def _method_pairs():
    from autograd_course.tensor import Tensor

    for name in sorted(NEW_METHODS):
        if name.startswith("_") or not hasattr(torch.Tensor, name):
            continue
        expected = torch_parameters(getattr(torch.Tensor, name), name)
        if expected is not None:
            yield name, getattr(Tensor, name), expected


METHODS = list(_method_pairs())
METHODS_DOCUMENTED_OTHERWISE = {
    "bmm": "PyTorch's doc line says bmm(batch2); its parser takes mat2, as ours does",
}


@pytest.mark.parametrize("name, ours, expected", METHODS, ids=[t[0] for t in METHODS])
def test_new_tensor_methods_take_pytorchs_parameter_names(name, ours, expected):
    """``x.gather(dim=1, index=i)``, ``x.topk(k=2, largest=False)``... (after ``self``)."""
    if name in METHODS_DOCUMENTED_OTHERWISE:
        pytest.skip(METHODS_DOCUMENTED_OTHERWISE[name])
    got, expected = ours_parameters(ours)[1:], [p for p in expected if p != "self"]
    n = min(len(got), len(expected))
    assert got[:n] == expected[:n], f"{name}: ours {got}, PyTorch's {expected}"


ISSUE_31 = ("chunk split unbind prod cumsum cumprod gather scatter scatter_add index_select bmm "
            "baddbmm einsum tril triu flip roll repeat tile sort argsort topk outer diag diagonal "
            "trace logsumexp log1p expm1 erf round trunc frac atan2 hypot lerp masked_select "
            "nan_to_num count_nonzero median unique bincount multinomial meshgrid hstack vstack "
            "movedim swapaxes unflatten reshape_as var_mean clamp_min kron cross cdist").split()


@pytest.mark.parametrize("name", ISSUE_31)
def test_the_ops_of_issue_31_exist_where_pytorch_has_them(name):
    for theirs, ours in ((torch, ag), (torch.Tensor, ag.Tensor)):
        assert hasattr(ours, name) == hasattr(theirs, name), (name, theirs)
