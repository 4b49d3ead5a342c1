# mse_loss with a float32 input and an int64 target: PyTorch computes in float32 (issue 13).
import torch
import torch.nn as nn

torch.manual_seed(0)
output = torch.randn(1, 10, requires_grad=True)
target = torch.randint(0, 3, (1, 10))
loss = nn.MSELoss()(output, target)
print(loss)
loss.backward()
print(output.grad.dtype, output.grad)
