"""检查器关于学习者自己的 ``Value`` 及其上搭建的网络的中文提示（第 1-3 章：数与标签、relu、
Neuron、Layer、MLP 与收获一节；``messages_zh`` 并入这些）：键 -> :meth:`str.format` 模板。"""

from __future__ import annotations

MESSAGES: dict[str, str] = {
    "ch01.numbers.memoryview": "{expr} 出错：NumPy 的 float64 自己就有 .data（一个 memoryview），"
                               "所以把数提升为 Value 之前要判断 isinstance(other, Value)，"
                               "而不是 hasattr(other, 'data')",
    "ch01.numbers.lift": "{expr} 在 {method} 中出错：普通的数没有 .data；先把它提升为 Value："
                         "other = other if isinstance(other, Value) else Value(other)",
    "ch01.numbers.reflected": "{expr} 出错：左边的数不认识 Value，于是 Python 调用 Value 的 "
                              "{method}；请定义它（调用会提升数的 + 和 * 就够了：顺序无关）",
    "ch01.numbers.not_float": "{expr} 的 data 类型是 {type}：让 data 保持为 Python 的 float"
                              "（self.data = float(data)）",
    "ch01.numbers.forward": "{expr} 得到 data {got}，应为 {want}",
    "ch01.numbers.grad": "对 {expr} 做一次反向传播后，a.grad 为 {got}，应为 {want}",
    "ch01.numbers.label": "{expr} 的结果 _op = {got!r}：创建结果时传入运算的标签，"
                          "例如 Value(..., (self, other), '+')",
    "ch01.numbers.same_label": "+ 和 * 给结果的标签都是 {label!r}：每种运算用自己的标签，"
                               "画图时才分得清",
    "ch02.relu.forward": "relu 在 x = {x0} 处得到 {got}，应为 max(x, 0) = {want}",
    "ch02.relu.times_x": "relu 的局部导数在 x > 0 处为 1，其余为 0，而不是 x："
                         "self.grad += (self.data > 0) * out.grad",
    "ch02.relu.backward": "relu 在 x = {x0} 处传给 x 的是 {got}，应为 {want}"
                          "（x > 0 时为 out.grad，否则为 0），并用 += 累加",
    "ch03.payoff.method_raises": "你的 Value 的 {method} 在 {expr} 上出错：{error}",
    "ch03.payoff.method": "你的 Value 的 {method} 不对：{expr} 得到的 data、a.grad、b.grad 为 "
                          "{got}，应为 {want}；修好 {method}（它所在练习的检查器会说得更细），"
                          "再运行这一节",
    "ch03.payoff.step": "你的 Value 的各个运算都与参考实现一致，这一步却不同（损失差 "
                        "{loss_gap:.2e}，参数差 {gap:.2e}）：检查 Neuron、Layer、MLP"
                        "（parameters() 的顺序）和 mse",
    "ch03.payoff.waiting": "这一节在等这些练习：{exercises}；写好之后（或取消它们跳过提示那一行"
                           "的注释之后）下面的单元格才会运行",
    "ch03.payoff.ready": "你的 Value、Neuron、Layer 和 MLP 都已写好：下面在它们上面训练",
    "ch03.net.not_values": "{what} 里应当是 Value（带 .data 和 .grad）",
    "ch03.net.not_a_value": "{what} 应当是一个 Value，得到的是 {type}",
    "ch03.net.count": "{what} 有 {got} 个参数，应为 {want}：每个权重、每个偏置各一次",
    "ch03.net.nonlin": "{what} 在 nonlin={nonlin} 时算出的是另一种输出：只有 nonlin 为 True "
                       "时才用 tanh，否则是普通的和 w·x + b",
    "ch03.net.order": "parameters() 把偏置放在最前：先列权重，再列偏置（self.w + [self.b]），"
                      "本课程包的 Linear 也是这个顺序",
    "ch03.net.forward": "{what} 得到 {got}，应为 {want}",
    "ch03.net.not_in_graph": "反向传播之后参数的 grad 全是 0：神经元必须用它自己的 Value "
                             "计算，而不是它们的副本",
    "ch03.net.grads": "对 {what} 做一次反向传播后，参数的 grad 为 {got}，应为 {want}",
    "ch03.net.layer_list": "layer(x) 应当是每个神经元一个输出的列表，得到的是 {type}",
    "ch03.net.layer_forward": "layer(x) 得到 {got}，应为 {want}：每个神经元作用于同一个 x",
    "ch03.net.mlp_one": "只有一个输出神经元时，mlp(x) 应返回那个 Value 本身（x[0]），"
                        "而不是列表：损失要从它减去一个数",
    "ch03.net.mlp_last_tanh": "最后一层用了 tanh：让它保持线性（nonlin=False），"
                              "这样得分可以是任何数",
    "ch03.net.mlp_no_tanh": "没有一层用 tanh：除最后一层外每层都需要它（nonlin=True），"
                            "否则整个网络只是一个线性映射",
    "ch03.net.mlp_many": "有两个输出神经元时，mlp(x) 应当是两个 Value 的列表，得到的是 {type}",
}
