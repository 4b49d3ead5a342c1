"""The checkers' messages in English for chapter 11 (``messages_en`` merges these in): key ->
:meth:`str.format` template."""

from __future__ import annotations

MESSAGES: dict[str, str] = {
    "ch11.not_a_dict": "return a dict from names to gradients, e.g. {{\"W1\": dW1, ...}}, got "
                       "{type}",
    "ch11.missing": "your dict has no gradient for {name!r}: give one for each of {keys}",
    "ch11.not_a_tensor": "your gradient for {name} should be a tensor, got {type}",
    "ch11.not_summed": "your gradient for {name} has shape {got}, one row per example: {name} "
                       "is added to every row of the batch, so its gradient is the sum over the "
                       "batch (.sum(0)), shape {want}",
    "ch11.transposed": "your gradient for {name} is transposed: shape {got}, expected {want} "
                       "(a gradient has the shape of its tensor: for Y = X @ W, dW = X.T @ dY "
                       "and dX = dY @ W.T)",
    "ch11.shape": "your gradient for {name} has shape {got}, expected {want}: a gradient has the "
                  "shape of the tensor it belongs to",
    "ch11.nonfinite": "your gradient for {name} contains nan or inf",
    "ch11.sign": "your gradient for {name} has the right size but the wrong sign",
    "ch11.one_over_b": "your gradient for {name} is {B} times autograd's (B = {B}): the loss is "
                       "the mean over the batch, so the gradient of the logits is "
                       "(softmax - onehot) / B; the 1/B is missing",
    "ch11.tanh_input": "your gradient for {name} takes tanh's derivative at its input: it is "
                       "1 - h**2 with h = tanh(z) the output, not 1 - z**2",
    "ch11.bn.var_path": "your gradient for {name} leaves out the variance path: var depends on "
                        "z1 as well, so add dvar * 2 * (z1 - mu) / B",
    "ch11.bn.mean_path": "your gradient for {name} leaves out the mean path: mu depends on z1 "
                         "as well, so add dmu / B",
    "ch11.bn.unbiased": "your gradient for {name} divides by B - 1: training-mode BatchNorm "
                        "normalises with the biased variance (divided by B), so the variance "
                        "path is dvar * 2 * (z1 - mu) / B",
    "ch11.differs": "your gradient for {name} has the right shape but differs from autograd's "
                    "by up to {err:.3g}",
    "ch11.gradcheck": "your gradients match autograd's, but gradcheck fails on your backward "
                      "wrapped in a Function: {error}",
}
