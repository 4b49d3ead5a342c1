"""Every code example of the three study notes (shared/seeds), run with ``ag`` as ``torch``.

Each example is kept as the note wrote it (a seed line is added where the note draws random
numbers, and a bare trailing ``a.grad`` becomes ``print(a.grad)``). ``run`` executes it with
``import torch`` meaning ``import autograd_course as torch`` and returns what it printed.
Outputs are compared with literal strings where they are deterministic, and with PyTorch
itself (the oracle) for everything, random numbers included. Note 000's resnet18 example is
tested with ``nn``.
"""

from __future__ import annotations

import contextlib
import io
import re
import warnings

import pytest

import autograd_course as ag

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def run(code: str, lib: str = "ag") -> str:
    """Run a note's code with ``torch`` bound to our package (or to PyTorch); return stdout."""
    if lib == "ag":
        code = code.replace("import torch", "import autograd_course as torch")
        code = code.replace("from torch.", "from autograd_course.")
    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(compile(code, f"<note example, {lib}>", "exec"), {"__name__": "__note__"})
    return _ADDRESS.sub(" at 0x…", out.getvalue())


def same_as_torch(code: str, torch_oracle) -> str:
    """Run the example both ways and insist that they print the same thing."""
    ours = run(code)
    assert ours == run(code, "torch")
    return ours


def _needs_nn():
    pytest.importorskip("autograd_course.nn")


# --- note 000: "torch.autograd" (the parts without resnet18) -----------------------------------
NOTE0_Q = """
import torch
a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)
Q = 3*a**3 - b**2
external_grad = torch.tensor([1., 1.])
Q.backward(gradient=external_grad)
print(9*a**2 == a.grad)
print(-2*b == b.grad)
"""
NOTE0_Q_SUM = """
import torch
a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)
Q = 3*a**3 - b**2
Q.sum().backward()
print(9*a**2 == a.grad)
print(-2*b == b.grad)
print(a.grad, b.grad)
"""


def test_note0_vector_backward():
    assert run(NOTE0_Q) == "tensor([True, True])\ntensor([True, True])\n"


def test_note0_sum_then_backward_gives_the_same_gradients():
    assert run(NOTE0_Q_SUM) == (
        "tensor([True, True])\ntensor([True, True])\ntensor([36., 81.]) tensor([-12.,  -8.])\n"
    )


def test_note0_vector_backward_needs_gradient():
    code = NOTE0_Q.replace("Q.backward(gradient=external_grad)", "Q.backward()")
    with pytest.raises(RuntimeError, match="^grad can be implicitly created only for scalar "
                                           "outputs$"):
        run(code)


def test_note0_against_torch(torch_oracle):
    same_as_torch(NOTE0_Q, torch_oracle)
    same_as_torch(NOTE0_Q_SUM, torch_oracle)


# --- note 001: "自动求导" ----------------------------------------------------------------------
NOTE1_BASICS = """
import torch
x = torch.ones(2,2,requires_grad=True)
print(x)
y = x+2
print(y)
x.requires_grad_(True)
z = y * y * 3
out = z.mean()
print(z, out)
out.backward()
print(x.grad)
"""
NOTE1_BASICS_OUT = (
    "tensor([[1., 1.],\n        [1., 1.]], requires_grad=True)\n"
    "tensor([[3., 3.],\n        [3., 3.]], grad_fn=<AddBackward0>)\n"
    "tensor([[27., 27.],\n        [27., 27.]], grad_fn=<MulBackward0>) "
    "tensor(27., grad_fn=<MeanBackward0>)\n"
    "tensor([[4.5000, 4.5000],\n        [4.5000, 4.5000]])\n"
)
# "out.backward() 等于 out.backward(torch.tensor(1))" -- an int64 gradient is accepted
NOTE1_EXPLICIT_ONE = NOTE1_BASICS.replace("out.backward()", "out.backward(torch.tensor(1))")
NOTE1_NO_GRAD = """
import torch
x = torch.ones(2,2,requires_grad=True)
print(x.requires_grad)
print((x ** 2).requires_grad)
with torch.no_grad():
    print((x ** 2).requires_grad)
print((x.detach() ** 2).requires_grad)
"""
NOTE1_MUL_CONSTANT = """
import torch
torch.manual_seed(0)
# 引入Function便于扩展
from torch.autograd.function import Function
# 定义一个乘以常数的操作(输入参数是张量)
# 方法必须是静态方法，所以要加上@staticmethod
class MulConstant(Function):
    @staticmethod
    def forward(ctx, tensor, constant):
        # ctx 用来保存信息这里类似self，并且ctx的属性可以在backward中调用
        ctx.constant=constant
        return tensor *constant
    @staticmethod
    def backward(ctx, grad_output):
        # 返回的参数要与输入的参数一样.
        # 第一个输入为3x3的张量，第二个为一个常数
        # 常数的梯度必须是 None.
        return grad_output, None
# 测试定义的Function
a=torch.rand(3,3,requires_grad=True)
b=MulConstant.apply(a,5)
print("a:"+str(a))
print("b:"+str(b)) # b为a的元素乘以5

# 反向传播，返回值不是标量，所以backward要参数
b.backward(torch.ones_like(a))
print(a.grad)
"""
NOTE1_MUL_CONSTANT_FIXED = NOTE1_MUL_CONSTANT.replace(
    "return grad_output, None", "return grad_output * ctx.constant, None"
)
NOTE1_GRADCHECK = """
import torch
from torch.autograd import gradcheck
from torch.autograd.function import Function
class MulConstant(Function):
    @staticmethod
    def forward(ctx, tensor, constant):
        ctx.constant=constant
        return tensor *constant
    @staticmethod
    def backward(ctx, grad_output):
        return grad_output, None
a = torch.tensor([1., 2., 3.], dtype=torch.float64, requires_grad=True)
print(gradcheck(MulConstant.apply, (a, 5), raise_exception=False))
try:
    gradcheck(MulConstant.apply, (a, 5))
except Exception as error:
    print(type(error).__name__)
    print(error)
"""


def test_note1_basics():
    assert run(NOTE1_BASICS) == NOTE1_BASICS_OUT
    assert run(NOTE1_EXPLICIT_ONE) == NOTE1_BASICS_OUT


def test_note1_no_grad():
    assert run(NOTE1_NO_GRAD) == "True\nTrue\nFalse\nFalse\n"


# what PyTorch 2.13 prints for NOTE1_MUL_CONSTANT (torch.manual_seed(0); torch.rand(3, 3))
NOTE1_A_AND_B = (
    "a:tensor([[0.4963, 0.7682, 0.0885],\n        [0.1320, 0.3074, 0.6341],\n"
    "        [0.4901, 0.8964, 0.4556]], requires_grad=True)\n"
    "b:tensor([[2.4813, 3.8411, 0.4424],\n        [0.6602, 1.5371, 3.1704],\n"
    "        [2.4505, 4.4822, 2.2781]], grad_fn=<MulConstantBackward>)\n"
)


def test_note1_wrong_mul_constant_gives_ones():
    assert run(NOTE1_MUL_CONSTANT) == NOTE1_A_AND_B + (
        "tensor([[1., 1., 1.],\n        [1., 1., 1.],\n        [1., 1., 1.]])\n"
    )


def test_note1_correct_mul_constant_gives_fives():
    assert run(NOTE1_MUL_CONSTANT_FIXED) == NOTE1_A_AND_B + (
        "tensor([[5., 5., 5.],\n        [5., 5., 5.],\n        [5., 5., 5.]])\n"
    )


def test_note1_gradcheck_catches_the_wrong_backward():
    printed = run(NOTE1_GRADCHECK)
    assert printed == (
        "False\nGradcheckError\n"
        "Jacobian mismatch for output 0 with respect to input 0,\n"
        "numerical:tensor([[5.0000, 0.0000, 0.0000],\n        [0.0000, 5.0000, 0.0000],\n"
        "        [0.0000, 0.0000, 5.0000]], dtype=torch.float64)\n"
        "analytical:tensor([[1., 0., 0.],\n        [0., 1., 0.],\n        [0., 0., 1.]], "
        "dtype=torch.float64)\n\n"
    )


def test_note1_against_torch(torch_oracle):
    for code in (NOTE1_BASICS, NOTE1_EXPLICIT_ONE, NOTE1_NO_GRAD, NOTE1_MUL_CONSTANT,
                 NOTE1_MUL_CONSTANT_FIXED):
        same_as_torch(code, torch_oracle)


def test_note1_gradcheck_against_torch(torch_oracle):
    same_as_torch(NOTE1_GRADCHECK, torch_oracle)


# --- note 002: "pytorch学习笔记（5）--Autograd" ----------------------------------------------
NOTE2_NET = """
import torch
torch.manual_seed(0)

x = torch.ones(5)  # input tensor
y = torch.zeros(3)  # expected output
w = torch.randn(5, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
z = torch.matmul(x, w)+b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)

print(f"Gradient function for z = {z.grad_fn}")
print(f"Gradient function for loss = {loss.grad_fn}")

loss.backward()
print(w.grad)
print(b.grad)

z = torch.matmul(x, w)+b
print(z.requires_grad)

with torch.no_grad():
    z = torch.matmul(x, w)+b
print(z.requires_grad,'\\n')
#或使用detach()
z = torch.matmul(x, w)+b
z_det = z.detach()
print('z_det.requires.grad = ',z_det.requires_grad)
print('z.requires_grad = ',z.requires_grad)
"""
NOTE2_NET_OUT = (
    "Gradient function for z = <AddBackward0 object at 0x…>\n"
    "Gradient function for loss = <BinaryCrossEntropyWithLogitsBackward0 object at 0x…>\n"
    + "tensor([" + ",\n        ".join(["[0.2661, 0.1179, 0.0027]"] * 5) + "])\n"
    "tensor([0.2661, 0.1179, 0.0027])\n"
    "True\nFalse \n\n"
    "z_det.requires.grad =  False\nz.requires_grad =  True\n"
)
NOTE2_ZERO_FIRST = """
import torch
inp = torch.eye(5, requires_grad=True)
out = (inp+1).pow(2)
inp.grad.zero_()
out.backward(torch.ones_like(inp), retain_graph=True)
print("\\nCall after zeroing gradients\\n", inp.grad)
"""
# The tutorial the note follows: accumulate twice, then zero before the third call.
NOTE2_ACCUMULATE = """
import torch
inp = torch.eye(4, 5, requires_grad=True)
out = (inp+1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"First call\\n{inp.grad}")
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\\nSecond call\\n{inp.grad}")
inp.grad.zero_()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\\nCall after zeroing gradients\\n{inp.grad}")
"""


def _grid(diag, off):
    rows = [", ".join(diag if i == j else off for j in range(5)) for i in range(4)]
    return "tensor([[" + "],\n        [".join(rows) + "]])"


NOTE2_ACCUMULATE_OUT = (
    f"First call\n{_grid('4.', '2.')}\n\nSecond call\n{_grid('8.', '4.')}\n\n"
    f"Call after zeroing gradients\n{_grid('4.', '2.')}\n"
)


def test_note2_one_layer_net():
    _needs_nn()
    assert run(NOTE2_NET) == NOTE2_NET_OUT


def test_note2_detach_is_not_a_deep_copy():
    """The note says z.detach() is a deep copy; it shares memory (PyTorch's behaviour too)."""
    z = ag.ones(3, requires_grad=True) * 2
    z_det = z.detach()
    assert z_det.data_ptr() == z.data_ptr()
    z_det[0] = 7.
    assert repr(z) == "tensor([7., 2., 2.], grad_fn=<MulBackward0>)"


def test_note2_zeroing_before_the_first_backward_fails():
    with pytest.raises(AttributeError) as error:
        run(NOTE2_ZERO_FIRST)
    assert str(error.value) == "'NoneType' object has no attribute 'zero_'"


def test_note2_gradients_accumulate():
    assert run(NOTE2_ACCUMULATE) == NOTE2_ACCUMULATE_OUT


def test_note2_against_torch(torch_oracle):
    _needs_nn()
    same_as_torch(NOTE2_NET, torch_oracle)
    same_as_torch(NOTE2_ACCUMULATE, torch_oracle)
    with pytest.raises(AttributeError) as theirs:
        run(NOTE2_ZERO_FIRST, "torch")
    with pytest.raises(AttributeError) as ours:
        run(NOTE2_ZERO_FIRST)
    assert str(ours.value) == str(theirs.value)
