"""The checkers' messages in Chinese for chapter 11 (``messages_zh`` merges these in): key ->
:meth:`str.format` template."""

from __future__ import annotations

MESSAGES: dict[str, str] = {
    "ch11.not_a_dict": "请返回一个从名字到梯度的字典，例如 {{\"W1\": dW1, ...}}，得到的是 {type}",
    "ch11.missing": "你的字典里没有 {name!r} 的梯度：{keys} 每一个都要有",
    "ch11.not_a_tensor": "你对 {name} 的梯度应当是张量，得到的是 {type}",
    "ch11.not_summed": "你对 {name} 的梯度形状是 {got}，每个样本一行：{name} 加到了批次的每一行上，"
                       "所以它的梯度是对批次求和（.sum(0)），形状为 {want}",
    "ch11.transposed": "你对 {name} 的梯度转置了：形状是 {got}，应为 {want}（梯度与它所属的张量"
                       "形状相同：对 Y = X @ W，dW = X.T @ dY，dX = dY @ W.T）",
    "ch11.shape": "你对 {name} 的梯度形状是 {got}，应为 {want}：梯度与它所属的张量形状相同",
    "ch11.nonfinite": "你对 {name} 的梯度含有 nan 或 inf",
    "ch11.sign": "你对 {name} 的梯度大小对，但符号反了",
    "ch11.one_over_b": "你对 {name} 的梯度是 autograd 的 {B} 倍（B = {B}）：损失是对批次取平均，"
                       "所以 logits 的梯度是 (softmax - onehot) / B，你漏掉了 1/B",
    "ch11.tanh_input": "你对 {name} 的梯度在 tanh 的输入处求了导数：它应当是 1 - h**2，"
                       "其中 h = tanh(z) 是输出，而不是 1 - z**2",
    "ch11.bn.var_path": "你对 {name} 的梯度漏掉了方差这条路径：var 也依赖 z1，"
                        "所以要加上 dvar * 2 * (z1 - mu) / B",
    "ch11.bn.mean_path": "你对 {name} 的梯度漏掉了均值这条路径：mu 也依赖 z1，所以要加上 dmu / B",
    "ch11.bn.unbiased": "你对 {name} 的梯度除以了 B - 1：训练模式下的 BatchNorm 用有偏方差"
                        "（除以 B）做归一化，所以方差路径是 dvar * 2 * (z1 - mu) / B",
    "ch11.differs": "你对 {name} 的梯度形状对，但与 autograd 的相差最多 {err:.3g}",
    "ch11.gradcheck": "你的梯度与 autograd 的一致，但把你的反向计算包进 Function 之后 gradcheck "
                      "没有通过：{error}",
}
