# Every activation and loss added for issue 14: values, gradients, modules.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(1)
x = torch.randn(2, 5, dtype=torch.float64, requires_grad=True)
for name, fn in [("leaky_relu", lambda t: F.leaky_relu(t, 0.1)), ("elu", F.elu),
                 ("gelu", F.gelu), ("gelu-tanh", lambda t: F.gelu(t, approximate="tanh")),
                 ("silu", F.silu)]:
    out = fn(x)
    (grad,) = torch.autograd.grad(out.sum(), x, create_graph=True)
    (curve,) = torch.autograd.grad(grad.sum(), x)
    print(name, out, grad, curve, sep="\n")

h = torch.randn(4, 3)  # float32, the default
for layer in (nn.LeakyReLU(0.2), nn.ELU(alpha=0.5), nn.GELU(), nn.GELU("tanh"), nn.SiLU()):
    print(layer, layer(h.abs() + 0.5).sum(), layer(-h.abs() * 0.5).mean())

pred = torch.randn(8, requires_grad=True)
target = torch.randn(8)
for loss_fn in (nn.HuberLoss(), nn.HuberLoss(delta=0.5, reduction="sum"), nn.SmoothL1Loss(),
                nn.SmoothL1Loss(beta=0.3), nn.MSELoss(), nn.L1Loss()):
    loss = loss_fn(pred, target)
    loss.backward()
    print(loss_fn, loss, pred.grad)
    pred.grad = None

print(F.huber_loss(pred, target, reduction="none", delta=0.8))
print(F.smooth_l1_loss(pred, target, reduction="none", beta=0.0))

logits = torch.randn(3, 4, requires_grad=True)
teacher = torch.randn(3, 4).softmax(dim=1)
kl = nn.KLDivLoss(reduction="batchmean")
loss = kl(F.log_softmax(logits, dim=1), teacher)
loss.backward()
print(kl, loss, logits.grad)
log_teacher = teacher.log()
print(F.kl_div(logits.log_softmax(1), log_teacher, reduction="sum", log_target=True))
print(F.kl_div(logits.log_softmax(1), teacher, reduction="none"))
print(torch.xlogy(torch.tensor([0.0, 2.0]), torch.tensor([0.0, 3.0])))

mlp = nn.Sequential(nn.Linear(3, 8), nn.GELU(), nn.Linear(8, 8), nn.SiLU(), nn.Linear(8, 1))
print(mlp)
out = mlp(torch.randn(5, 3))
print(out.grad_fn, out.shape)
