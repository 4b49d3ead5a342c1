# A LeNet-5 shaped network in the spirit of the 60-minute blitz (our own code): forward on one
# 32x32 image, backward from a random upstream gradient, an MSE loss against a float target,
# a walk up the graph, and one SGD step.
import torch
import torch.nn.functional as F
import torch.optim as optim
from torch import nn


class LeNet(nn.Module):
    def __init__(self, classes=10):
        super().__init__()
        self.features = nn.ModuleList([nn.Conv2d(1, 6, kernel_size=5), nn.Conv2d(6, 16, 5)])
        self.head = nn.Sequential(nn.Linear(400, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(),
                                  nn.Linear(84, classes))

    def forward(self, images):
        for conv in self.features:
            images = F.max_pool2d(F.relu(conv(images)), 2)
        return self.head(images.flatten(1))


torch.manual_seed(42)
model = LeNet()
print(model)
weights = [p for p in model.parameters()]
print(len(weights), [tuple(w.shape) for w in weights][:3])
image = torch.randn(1, 1, 32, 32)
scores = model(image)
print(scores)
model.zero_grad()
scores.backward(torch.randn(1, 10))
print(model.features[0].bias.grad)

goal = torch.randn(1, 10)
loss_fn = nn.MSELoss()
loss = loss_fn(model(image), goal)
print(loss, loss.grad_fn.name())
node = loss.grad_fn
while node.next_functions:  # MseLoss -> Addmm -> the bias's AccumulateGrad
    print(type(node).__name__, [type(n).__name__ for n, _ in node.next_functions])
    node = node.next_functions[0][0]
print(node.name(), tuple(node.variable.shape))
model.zero_grad()
print("bias grad before:", model.features[0].bias.grad)
loss.backward()
print("bias grad after:", model.features[0].bias.grad)

opt = optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
for step in range(3):
    opt.zero_grad()
    loss = loss_fn(model(image), goal)
    loss.backward()
    opt.step()
    print(f"step {step}: loss {loss:.5f}")
