# A small training loop with an optimizer, float32, in the style of "Learn the Basics".
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
features = torch.randn(256, 8)
true_w = torch.randn(8, 3)
labels = (features @ true_w).argmax(dim=1)
loader = DataLoader(TensorDataset(features, labels), batch_size=32, shuffle=True)


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(8, 32), nn.LeakyReLU(0.05), nn.Linear(32, 32), nn.GELU(), nn.Linear(32, 3))

    def forward(self, x):
        return self.linear_relu_stack(self.flatten(x))


model = NeuralNetwork()
print(model)
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def train_loop(dataloader, model, loss_fn, optimizer):
    size = len(dataloader.dataset)
    model.train()
    for batch, (X, y) in enumerate(dataloader):
        loss = loss_fn(model(X), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if batch % 4 == 0:
            current = (batch + 1) * len(X)
            print(f"train: loss: {loss.item():>7f}  [{current:>5d}/{size:>5d}]")


@torch.no_grad
def test_loop(dataloader, model, loss_fn):
    model.eval()
    test_loss, correct = 0, 0
    for X, y in dataloader:
        pred = model(X)
        test_loss += loss_fn(pred, y).item()
        correct += (pred.argmax(1) == y).type(torch.float).sum().item()
    test_loss /= len(dataloader)
    correct /= len(dataloader.dataset)
    print(f"train: Accuracy: {(100 * correct):>0.1f}%, Avg loss: {test_loss:>8f}")


for t in range(3):
    print(f"Epoch {t + 1}\n-------------------------------")
    train_loop(loader, model, loss_fn, optimizer)
    test_loop(loader, model, loss_fn)

adam = torch.optim.Adam(model.parameters(), lr=1e-3)
for _step in range(5):
    adam.zero_grad()
    loss = nn.functional.smooth_l1_loss(model(features).softmax(1),
                                        nn.functional.one_hot(labels, 3).float())
    loss.backward()
    adam.step()
print(f"train: after Adam {loss:.5f}")
print("Done!")
