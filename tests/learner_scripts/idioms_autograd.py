# Grad mode decorators, devices, and a custom autograd Function, the way tutorials write them.
import math

import torch

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() \
    else "cpu"
print(f"Using {device} device", torch.backends.mps.is_available())
torch.set_default_device(device)
print(torch.get_default_device(), torch.zeros(2).device, torch.device(device))
torch.set_default_device("cpu")
print(torch.device("cpu"), repr(torch.device("cuda", 0)), torch.device("cuda:1").index)

torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)


@torch.no_grad
def evaluate(x):
    return (w * x).sum()


@torch.no_grad()
def evaluate_called(x):
    return (w * x).sum()


@torch.enable_grad
def train_step(x):
    return (w * x).sum()


print(evaluate(torch.ones(3)).requires_grad, evaluate_called(torch.ones(3)).requires_grad)
with torch.no_grad():
    print(train_step(torch.ones(3)).requires_grad, torch.is_grad_enabled())


@torch.no_grad()
def predictions(batches):
    for batch in batches:
        yield (w * batch).sum(), torch.is_grad_enabled()


for value, mode in predictions([torch.ones(3), torch.arange(3.0)]):
    print(f"{value:.4f}", value.requires_grad, mode, torch.is_grad_enabled())

with torch.inference_mode():
    print((w * 2).requires_grad)


class Cube(torch.autograd.Function):
    """y = x³ with dy/dx = 3x², written as a learner would."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * 3 * x ** 2


dtype = torch.float
x = torch.linspace(-math.pi, math.pi, 200, dtype=dtype)
y = torch.sin(x)
a = torch.full((), 0.0, dtype=dtype, requires_grad=True)
b = torch.full((), -1.0, dtype=dtype, requires_grad=True)
learning_rate = 5e-6
for t in range(300):
    y_pred = a + b * Cube.apply(x * 0.5)
    loss = (y_pred - y).pow(2).sum()
    if t % 100 == 99:
        print("train:", t, f"{loss.item():.4f}")
    loss.backward()
    with torch.no_grad():
        a -= learning_rate * a.grad
        b -= learning_rate * b.grad
        a.grad = None
        b.grad = None
print("train:", f"Result: y = {a.item():.4f} + {b.item():.4f} (x/2)^3")
print(y_pred.grad_fn.name(), y_pred.grad_fn.next_functions[1][0].name())
