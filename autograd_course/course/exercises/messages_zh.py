"""练习检查器的中文提示：键 -> :meth:`str.format` 模板。

键与占位符和 ``messages_en`` 完全一致（有测试检查）。代码、变量名和 PyTorch 的名字保持原样；
术语用 PyTorch 中文社区的常用译法：张量、计算图、叶子节点、反向传播、梯度累积、链式法则。
"""

from __future__ import annotations

from .messages_zh_ch05_10 import MESSAGES as CHAPTERS_5_TO_10
from .messages_zh_ch11 import MESSAGES as CHAPTER_11
from .messages_zh_ch12 import MESSAGES as CHAPTER_12
from .messages_zh_ch13 import MESSAGES as CHAPTER_13
from .messages_zh_value import MESSAGES as VALUE

MESSAGES: dict[str, str] = {
    # --- 判定（_common）--------------------------------------------------------------------------
    "verdict.correct": "正确",
    "verdict.not_attempted": "尚未作答",
    "verdict.not_quite": "还不对：{hint}",
    "verdict.with_note": "{status}（{note}）",
    # --- 学习者的代码抛出异常，或什么也没返回 --------------------
    "common.unprintable": "（无法显示它的错误信息：它的 __str__ 本身抛出了异常）",
    "common.an_exception": "一个异常",
    "common.sys_exit": "你的代码调用了 sys.exit()（或抛出了 SystemExit），这会让整个程序退出："
                       "请改为返回一个值",
    "common.generator_exit": "你的代码抛出了 GeneratorExit：请改为返回一个值",
    "common.raised_with_text": "你的代码抛出了 {name}：{text}",
    "common.raised": "你的代码抛出了 {name}",
    "common.your_function": "你的函数",
    "common.returned_none": "{name}() 返回了 None：函数体执行了，但没有 `return`（或 return "
                            "后没有值）；请在末尾写上 `return <你的结果>`",
    # --- 比较数值 --------------------
    "common.your_answer": "你的答案",
    "common.diff.transposed": "{name} 似乎转置了：形状是 {shape_a}，应为 {shape_e}",
    "common.diff.reshape": "{name} 的元素个数对，但形状是 {shape_a}；应为 {shape_e}",
    "common.diff.shape": "{name} 的形状是 {shape_a}，应为 {shape_e}",
    "common.diff.nonfinite": "{name} 中含有 nan 或 inf",
    "common.diff.sign": "{name} 形状对，但符号反了",
    "common.diff.factor": "{name} 形状对，但数值是期望值的 {factor:.4g} 倍（是不是漏乘或多乘了"
                          "一个常数因子？）",
    "common.diff.values": "{name} 形状对，但数值不对：得到 {got}，期望 {expected}",
    "common.is_none": "{name} 是 None",
    "common.not_a_tensor": "{name} 应该是张量或数字，得到的却是 {type}",
    # --- 自定义 Function 与 gradcheck --------------------
    "common.not_a_function": "需要一个 ag.autograd.Function 的子类，得到的却是 {value!r}",
    "common.backward_error": "{name}.backward：{error}",
    "common.gradient_for_input": "第 {k} 个输入的梯度",
    "common.gradcheck_fails": "{name} 没有通过 gradcheck：{hint}",
    "common.output_no_grad": "输出不需要梯度（requires_grad=False）：forward 是不是脱离了"
                             "计算图？",
    "common.backward_failed": "反向传播失败：{error}",
    # --- 第 0 章 --------------------
    "ch00.not_a_number": "{name} 应该是一个数，得到的却是 {type}",
    "ch00.not_one_number": "{name} 应该是单个数，得到的却有 {size} 个",
    "ch00.first.a_two_paths": "a_grad：a 在 d = a * b + a 中出现了两次；乘积贡献 b，`+ a` 再贡献"
                              " 1，两条路径的梯度要相加",
    "ch00.first.a_only_plus": "a_grad：你只算了 `+ a` 这条路径；a * b 也依赖 a",
    "ch00.first.a_not_a": "a_grad：a * b 对 a 的导数是 b，而不是 a",
    "ch00.first.a_wrong": "a_grad 是 {got:g}；请在 a = {a:g}、b = {b:g} 处对 a 求 a * b + a 的"
                          "导数",
    "ch00.first.b_not_b": "b_grad：a * b 对 b 的导数是 a，而不是 b",
    "ch00.first.b_wrong": "b_grad 是 {got:g}；只有 a * b 这一项依赖 b",
    "ch00.names.not_a_list": "请给出一个含 {n} 个名字的列表，每个表达式一个",
    "ch00.names.count": "需要 {n} 个名字，每个表达式一个；你给了 {got} 个",
    "ch00.names.variant": "{expr}：运算对了，但 PyTorch 给同一运算的不同形式编了号："
                          "这里是 {want}，不是 {got}（PowBackward0 是张量的数字次幂，"
                          "PowBackward1 是张量的张量次幂，PowBackward2 是数字的张量次幂）",
    "ch00.names.number": "{expr}：名字末尾有一个数字，这里是 {digit}：{want}",
    "ch00.names.form": "{expr}：grad_fn 的名字由运算名加 'Backward' 再加一个数字组成，例如 "
                       "'AddBackward0'",
    "ch00.names.last_op": "{expr}：grad_fn 记录的是产生结果的“最后一个”运算（你写的是 "
                          "{got!r}）",
    # --- 第 1 章 --------------------
    "ch01.slope.not_one_number": "请给出一个数，即 x = 2 处的斜率（你给了 {size} 个值）",
    "ch01.slope.exact": "这是精确的导数 3x² - 2 在 2 处的值；练习要求你去“测量”它："
                       "(f(2 + h) - f(2 - h)) / (2 * h)，h 取一个小数",
    "ch01.slope.exact_note": "恰好是 10.0：用这个 h 时，f 的值的舍入误差吞掉了中心差分那一点点误差 "
                             "h²；如果你是用 f 测量出来的，没有问题，但直接写 3·2² - 2 不算测量",
    "ch01.slope.one_sided": "这看起来是单侧差分 (f(2 + h) - f(2)) / h：请用中心差分 "
                           "(f(2 + h) - f(2 - h)) / (2 * h)，它的误差像 h² 而不是 h 那样缩小",
    "ch01.slope.not_a_number": "斜率应该是一个数",
    "ch01.slope.height": "这是 f({at:g})，即曲线的高度；斜率是 f 变化的快慢："
                         "(f(2 + h) - f(2 - h)) / (2 * h)，h 取一个很小的数",
    "ch01.slope.sign": "大小对，符号反了：应当用 f(2 + h) 减去 f(2 - h)，而不是反过来",
    "ch01.slope.close": "很接近（{value:.6g}），但与斜率的差距超过了 0.001：把 h 取得更小"
                        "（例如 1e-4），并向两边各走一步，f(2 + h) - f(2 - h)",
    "ch01.slope.far": "{value:.6g} 离 x = 2 处的斜率还很远：用 f 的变化量 f(2 + h) - f(2 - h) "
                      "除以 x 的变化量 2 * h",
    "ch01.predict.name": "你的 x.grad",
    "ch01.leaves.why_a": "a 是用户直接创建的（ag.tensor），所以是叶子节点（leaf）",
    "ch01.leaves.why_b": "b 是用户直接创建的（ag.tensor），所以是叶子节点（leaf）",
    "ch01.leaves.why_c": "c = a * b 用到了需要梯度的 a，所以 c 有 grad_fn，不是叶子节点",
    "ch01.leaves.why_d": "d = b * 2 只用到不需要梯度的张量：什么都没有被记录，所以 d 没有 "
                         "grad_fn，也算叶子节点",
    "ch01.leaves.why_e": "e 是被记录下来的运算的结果（grad_fn=SumBackward0），不是叶子节点",
    "ch01.leaves.not_a_set": "{what} 应该是一个名字的集合，例如 {{'a', 'b'}}",
    "ch01.leaves.unknown": "{what} 中有未知的名字 {unknown}；请只用 'a'...'e'",
    "ch01.leaves.check": "再看看 {name}：{why}",
    "ch01.leaves.missing_grad": "{name} 是需要梯度的叶子节点：反向传播会填充它的 .grad",
    "ch01.leaves.no_requires_grad": "它不需要梯度（requires_grad=False）",
    "ch01.leaves.not_a_leaf": "它不是叶子节点（除非调用 retain_grad()，否则只有叶子节点会保留 "
                              ".grad）",
    "ch01.leaves.grad_stays_none": "反向传播之后 {name}.grad 仍是 None：{why}",
    "ch01.value.not_a_value": "{what} 应该得到一个 Value（带有 .data 和 .grad），得到的却是 "
                              "{type}",
    "ch01.mul.forward": "(2) * (-3) 得到的 data 是 {data:g}：正向计算应为 self.data * "
                        "other.data",
    "ch01.mul.grad_not_data": "a·b 对 a 的局部导数是另一个因子的“值” other.data，而不是它的梯度 "
                             "other.grad（对 other 则是 self.data）",
    "ch01.mul.children": "结果必须记住两个输入：Value(..., (self, other))",
    "ch01.mul.still_zero": "调用 out._backward() 之后两个梯度仍是 0：_backward 必须修改 "
                           "self.grad 和 other.grad",
    "ch01.mul.no_out_grad": "你漏掉了链式法则（chain rule）中的因子 out.grad：局部导数要乘以 "
                            "out.grad",
    "ch01.mul.swapped": "弄反了：d(a·b)/da 是 b（“另一个”因子），所以 a.grad 得到的是 "
                        "other.data * out.grad",
    "ch01.mul.wrong": "当 a = 2、b = -3、out.grad = 2.5 时，a.grad 应为 -7.5，b.grad 应为 5，"
                      "你得到的是 {a_grad:g} 和 {b_grad:g}",
    "ch01.manual.start": "反向传播要从 L.grad = 1 开始（dL/dL）",
    "ch01.manual.c_d": "c.grad 和 d.grad 都应为 1（L = d + c），你得到的是 {c_grad:g} 和 "
                       "{d_grad:g}：调用一次 L._backward()",
    "ch01.manual.mul_first": "d = a * b 还没有反向规则：请先完成练习 1.2（__mul__ 的 "
                             "_backward）",
    "ch01.manual.a_b_nothing": "a 和 b 什么都没收到：还要调用 d._backward()，并且要在 "
                               "L._backward() 填好 d.grad 之后再调用",
    "ch01.manual.twice": "a.grad 和 b.grad 大了一倍：每个 _backward 只能执行一次",
    "ch01.manual.wrong": "a.grad 应为 b = {b:g}，b.grad 应为 a = {a:g}；你得到的是 "
                         "{a_grad:g} 和 {b_grad:g}（用 check_value_mul 检查一下你的 __mul__）",
    "ch01.accumulate.add_overwrites": "b = a + a 之后 a.grad 是 1，但 db/da = 2：a 被用了两次，"
                                      "第二次的 `other.grad = out.grad` 覆盖了第一次的结果。"
                                      "要累加（梯度累积）：`self.grad += ...` 和 "
                                      "`other.grad += ...`",
    "ch01.accumulate.same_value": "a.grad 从 0.5 开始时，{expr} 得到 a.grad = {a_grad:g}，应为 "
                                  "{want:g}：这里 self 和 other 是同一个 Value，元组赋值 "
                                  "`self.grad, other.grad = self.grad + ..., other.grad + ...` "
                                  "两个和都是用旧的 a.grad 算的，第二次赋值覆盖了第一次；请写成"
                                  "两行各自的 `+=`",
    "ch01.accumulate.add_wrong": "b = a + a 之后 a.grad 是 {a_grad:g}；应为 2",
    "ch01.accumulate.mul_overwrites": "__add__ 已经修好了，但 a * a 给出的 a.grad 是 3，而不是 "
                                      "2a = 6：__mul__ 的 _backward 里也要用 `+=`",
    "ch01.accumulate.mul_wrong": "a = 3 时 p = a * a 之后 a.grad 是 {a_grad:g}；应为 2a = 6",
    "ch01.accumulate.across_nodes": "对 L = a*b + a，a.grad 应为 b + 1 = {b_plus_1:g}，b.grad "
                                    "应为 a = {a:g}，你得到的是 {a_grad:g} 和 {b_grad:g}",
    "ch01.step.not_a_number": "best_h 应该是一个数，即一个步长，例如 1e-3",
    "ch01.step.positive": "步长必须是正数，例如 1e-3",
    "ch01.step.float32": "这是 float32 下最好的步长，float32 只保留约 7 位有效数字；float64（约 16 "
                         "位）的舍入误差小得多，所以最好的步长也更小：请看 float64 的曲线",
    "ch01.step.forward": "这是“向前”差分最好的位置；中心差分的截断误差像 h² 而不是 h 那样缩小，"
                         "所以它最好的步长更大",
    "ch01.step.round_off": "太小了：h = {h:.0e} 时误差为 {error:.1e}，这是舍入误差：f(2 + h) 与 "
                           "f(2 - h) 几乎所有数位都相同，相减之后只剩下不同的那几位",
    "ch01.step.truncation": "太大了：h = {h:.0e} 时误差为 {error:.1e}，这是截断误差：差商仍能"
                            "“看到”曲线的弯曲（对这个三次函数，误差为 h²）",
    # --- 第 2 章 --------------------
    "ch02.jacobian.name": "你求出的 {f} 的雅可比矩阵（Jacobian）",
    "ch02.jacobian.cumulative": "每一行都包含了它前面的各行：backward() 会把梯度“累加”到 x.grad "
                                "上，所以每算一行之前都要清空它（x.grad = None），或者改用 "
                                "ag.autograd.grad",
    "ch02.jacobian.all_sum": "每一行都是所有行之和：你保存的是 x.grad 本身，而 backward() 一直在"
                             "往它上面累加；每行之前清空它，并保存 x.grad.clone()",
    "ch02.jacobian.all_last": "每一行都等于最后一行：x.grad 每次都是同一个张量（zero_() 和 "
                              "backward() 都是原地修改它）；请保存 x.grad.clone()",
    "ch02.mean.not_a_tensor": "gradient 应该是一个与 Q 形状相同 (3,) 的张量",
    "ch02.mean.shape": "gradient 的形状必须与 Q 相同，即 (3,)，你给的是 {shape}：Q 的每个元素"
                       "对应一个数",
    "ch02.mean.name": "你的 gradient 算出的 {var}.grad",
    "ch02.unbroadcast.builtin": "sum_to_size 正是这道练习要你自己写的函数："
                                "请自己在广播出来的轴上求和（sum(dim=..., keepdim=...)）",
    "ch02.unbroadcast.case": "把形状为 {big} 的梯度还原到形状 {small}",
    "ch02.unbroadcast.shape": "{case}：数值对，但形状是 {shape}；要保留大小为 1 的维度（求和时"
                              "用 keepdim=True，或者 reshape）",
    "ch02.unbroadcast.mean": "{case}：你求的是平均；这个输入被广播后用了 {lost} 次，每个广播"
                             "副本用一次，每次使用都贡献一份梯度：应当求和，而不是取平均",
    "ch02.unbroadcast.shifted": "{case}，其中有两个维度是从大小 1 扩展出来的：{problem}。"
                                "grad.sum(i) 不加 keepdim=True 时，第 i 维就没了，它后面的每一维"
                                "都往前挪了一位，所以你接下来求和的下标差了一位：求和时用 "
                                "keepdim=True，或者一次对所有这些维度求和，或者从最后一维往前求和",
    "ch02.unbroadcast.name": "你的结果（{case}）",
    "ch02.value.no_method": "你的 Value 没有 {method} 方法",
    "ch02.value.twice": "x ** 3 + x.tanh() 用了 x 两次，而 x.grad 只保留了其中一份贡献："
                        "用 `self.grad += ...` 累加",
    "ch02.pow.forward": "x = {x0} 时 x ** {k} 得到 {got:.6g}，应为 {want:.6g}",
    "ch02.pow.no_out_grad": "__pow__：要把 k * x**(k-1) 乘以 out.grad（链式法则）",
    "ch02.pow.exponent": "__pow__：x**k 的导数是 k * x**(k-1)：指数要减一",
    "ch02.pow.wrong": "__pow__：x = {x0}、out.grad = 1.5 时 x**{k} 给出的 x.grad 是 {got:.6g}；"
                      "应为 {want:.6g}",
    "ch02.pow.fixed_power": "__pow__：x = {x0}、out.grad = 1.5 时 x**{k} 给出的 x.grad 是 "
                            "{got:.6g}，应为 {want:.6g}：你算的是 k * x**2，只有 k = 3 时才对；"
                            "x**k 的导数是 k * x**(k-1)，指数随 k 变化",
    "ch02.tanh.forward": "x = {x0} 时 tanh() 得到 {got:.6g}，应为 {want:.6g}（math.tanh）",
    "ch02.tanh.no_out_grad": "tanh：要把 1 - tanh(x)**2 乘以 out.grad（链式法则）",
    "ch02.tanh.not_x": "tanh：导数是 1 - tanh(x)**2，其中 tanh(x) = out.data，而不是 1 - x**2",
    "ch02.tanh.wrong": "tanh：x = {x0}、out.grad = 1.5 时 x.grad 是 {got:.6g}；应为 "
                       "{want:.6g}",
    "ch02.ops.missing": "{expr} 抛出了 TypeError：左边的数不认识 Value 时，Python 会调用右边那个 "
                        "Value 的 {method}；请定义它",
    "ch02.ops.number": "{expr}：{error}。这里的 other 可以是一个普通的数，它没有 .data，也没有 "
                       "_backward：先把它变成 Value（other = self._lift(other)）",
    "ch02.ops.swapped": "{expr} 把两个操作数算反了：对于 2 - a 或 2 / a，调用 {method} 时 "
                        "self = a、other = 2，other 在前",
    "ch02.ops.forward": "{expr} 在 a = 3、b = -2 时得到的 data 是 {got:.6g}，应为 {want:.6g}",
    "ch02.ops.no_graph": "{expr} 的 data 对了，却没有把梯度传回去：用普通数字新建的 Value 没有 "
                         "_prev，也没有 _backward；请用已有这两者的运算来构造它（self * -1、"
                         "self + (-other)、self * other ** -1）",
    "ch02.ops.grad": "{expr}：反向传播得到 a.grad = {a_grad:.6g}、b.grad = {b_grad:.6g}，"
                     "应为 {want_a:.6g} 和 {want_b:.6g}",
    "ch02.loss.scalar": "损失是一个数：请返回只有一个元素的张量（用 .mean() 或 .sum() 归约）",
    "ch02.loss.no_grad": "你的损失不需要梯度：比较（==、>）或准确率得到的是 0/1 值，不记录任何"
                         "运算；请改为计算差值",
    "ch02.loss.zero_grad": "你的损失对每个预测的梯度都是 0，和准确率一样：梯度下降永远不会移动；"
                           "请用 prediction - labels 的一个光滑函数",
    "ch02.loss.ignores_labels": "无论标签是什么，梯度都一样（就像 (prediction - labels).sum()，"
                                "它的梯度处处为 1）：损失必须指明每个预测该往哪边移动",
    "ch02.loss.even": "每个误差都变号时，你的梯度却不变：高于标签的预测和低于标签的预测被推向同一"
                      "个方向。损失应当在标签处最小、向两侧增大，就像 (prediction - labels) ** 2 "
                      "那样；** 3 这样的奇数次幂在标签下方会一直减小",
    "ch02.loss.sign": "沿你的梯度的反方向走一步，每个预测都“远离”了它的标签：梯度下降求的是最小"
                      "值，所以损失应当随距离增大而增大",
    "ch02.loss.direction": "沿你的梯度的反方向走一步，有些预测远离了它的标签：每个预测的梯度应当"
                           "跟随它自己的误差 (prediction - labels)，例如 "
                           "((prediction - labels) ** 2).mean()",
    "ch02.loss.not_zero": "prediction 等于 labels 时你的损失是 {value:.4g}；它在那里应当是 0，"
                          "即最小值",
    # --- 第 3 章 --------------------
    "ch03.graph.chain": "a * b 链",
    "ch03.graph.diamond": "菱形图（x 被用了两次）",
    "ch03.graph.constants": "带常量数据的一层",
    "ch03.graph.deep": "3000 步的长链",
    "ch03.graph.doubling": "y = y + y，重复 20 次",
    "ch03.leaves.revisits": "{graph}：你的遍历一遍又一遍地展开同样的节点（{nodes} 个节点访问了 "
                            "{limit} 次以上）：从几条路径都能到达的节点，每条路径都展开一次，"
                            "而每个 y + y 都让路径数翻倍。用一个集合记住已经访问过的节点，"
                            "遇到就跳过",
    "ch03.leaves.twice": "同一个叶子节点你返回了不止一次：要记住哪些节点已经访问过",
    "ch03.leaves.not_a_leaf": "你返回了一个不是“需要梯度的叶子节点”的张量",
    "ch03.leaves.missed": "你漏掉了 {n} 个叶子节点：要沿着 next_functions 的每一项走下去，"
                          "而不只是第一项",
    "ch03.leaves.recursion": "{graph}：RecursionError；请用显式的栈（一个 append 和 pop 的列表）"
                             "遍历，而不要用递归",
    "ch03.leaves.nodes": "你返回的是计算图的节点；AccumulateGrad 节点对应的叶子张量是 "
                         "node.variable",
    "ch03.leaves.not_tensors": "请返回一个张量列表（即那些叶子节点）",
    "ch03.leaves.in_graph": "{graph}：{problem}",
    "ch03.loop.not_int": "n_mul_nodes 应该是一个整数",
    "ch03.loop.too_few": "节点数少了：只要 y.sum() < 100，循环就会继续翻倍；数一数翻倍了几次"
                         "（每次一个 MulBackward0）",
    "ch03.loop.too_many": "节点数多了：只要 y.sum() < 100，循环就会继续翻倍；数一数翻倍了几次"
                          "（每次一个 MulBackward0）",
    "ch03.hook.in_place": "你的钩子原地修改了它的参数（clamp_ 以及其他以 _ 结尾的方法都会这样）；"
                          "PyTorch 文档规定钩子不得修改它的参数：请返回新的张量，例如 "
                          "grad.clamp(-1, 1)",
    "ch03.hook.unchanged": "梯度原样通过了：钩子（hook）必须“返回”新的梯度（返回 None 表示保留"
                           "原梯度）",
    "ch03.hook.one_way": "两个方向都要截断：小于 -1 的负梯度要变成 -1（grad.clamp(-1, 1)）",
    "ch03.hook.wrong": "x.grad 是 {got}，应为 {want}：返回 grad.clamp(-1, 1)",
    "ch03.exp.overwrites": "exp 的 _backward 覆盖了 x.grad（=），而不是累加（+=）："
                          "被用了两次的值会丢掉一份贡献",
    "ch03.exp.forward": "exp() 在 0.5 处得到 {got:.6g}，应为 {want:.6g}",
    "ch03.exp.backward": "exp 的 _backward：d/dx e^x = e^x，所以 x.grad += out.data * "
                         "out.grad",
    "ch03.backward.returns": "backward() 应该填好各个 .grad，并且不返回任何值",
    "ch03.backward.start": "backward() 必须从 self.grad = 1 开始（d out/d out）",
    "ch03.backward.order": "x.grad、y.grad = {x_grad:.6g}、{y_grad:.6g}，应为 {want_x:.6g}、"
                           "{want_y:.6g}：每个 _backward 必须恰好执行一次，并且要等所有用到它"
                           "输出的值都执行完自己的 _backward 之后再执行（逆拓扑序）",
    "ch03.backward.duplicate_edge": "对 h = 2x、out = h.tanh() + h * h，x.grad 是 {got:.6g}，"
                                    "应为 {want:.6g}：h * h 的 _prev 里 h 出现了两次，这是指向 h "
                                    "的两条边。计数和释放都要按 v._prev 的每一项算一条边，而不是"
                                    "按不同的值（set(v._prev)）算，否则 h 会在它的梯度全部到达"
                                    "之前执行 _backward（或者永远不执行）",
    "ch03.backward.recursion": "3000 步的长链抛出了 RecursionError：不用递归来构造执行顺序——"
                               "用显式的栈做深度优先遍历，一个值的所有输入都处理完之后才把它加入列表"
                               "（后序），最后把列表反过来",
    "ch03.backward.deep": "在 3000 步 `* 1.0` 的长链上，第一个值得到的梯度是 {got:g}，应为 1",
    "ch03.step.no_update": "参数没有变化：把每个参数移动 -lr * p.grad（p.data -= lr * p.grad）",
    "ch03.step.zeroed_late": "参数没有变化，而且每个梯度都是 0：你在 backward() 之后、更新之前"
                             "把梯度清零了；请先清零，再做正向计算",
    "ch03.step.zero_grad": "这次更新用的是梯度加上一步留在 .grad 里的值：backward() 是累加（+=）"
                           "的，所以要在正向计算之前把每个 p.grad 设为 0.0",
    "ch03.step.sign": "参数往上坡走了：应当减去 lr * p.grad",
    "ch03.step.lr": "参数移动了整个梯度：请乘以 lr",
    "ch03.step.wrong": "参数没有按 mse(model, xs, ys) 的 -lr * 梯度移动：先把梯度清零，计算损失，"
                       "调用 loss.backward()，再更新",
    "ch03.step.loss": "请返回这一步的损失（那个 Value，或者它的数值 loss.data），它是在更新之前"
                      "算出的（data 应为 {want:.6g}）",
    # --- 第 4 章 --------------------
    "ch04.your_gradient": "你的梯度",
    "ch04.mse.your_gradient_is": "你的梯度{hint}",
    "ch04.mse.times_n": "大了 {n} 倍：损失是 {n} 项的“平均”，所以要除以 n",
    "ch04.mse.half": "只有期望值的一半：u² 的导数是 2u",
    "ch04.mse.no_sigmoid": "缺少 sigmoid 的导数 σ(z)(1 - σ(z))（经过 σ 的链式法则）",
    "ch04.mse.bce": "缺少 σ'(z)：你用的是 BCE 的梯度 (σ(z) - y)/n，但这里的损失是平方误差",
    "ch04.batches.zero_none": "第一次反向传播之前 .grad 是 None，所以那时 w.grad.zero_() 会出错："
                              "请在读取之后再清零，或者改为 w.grad = None",
    "ch04.batches.not_a_list": "请返回一个列表，每个批次一个梯度",
    "ch04.batches.count": "每个批次应返回一个梯度：你给了 {got} 个，应为 {want} 个",
    "ch04.batches.none": "你的梯度中有一个是 None：读取 w.grad 之前要先调用 backward()",
    "ch04.batches.same_object": "你的所有梯度都是同一个张量对象：.grad 是原地更新的，所以要保存"
                                "一份副本（w.grad.clone()）",
    "ch04.batches.cumulative": "每个梯度都包含了它之前的梯度：backward() 会累加到 w.grad 上"
                               "（梯度累积），所以每次 backward 之前都要清零（w.grad.zero_() "
                               "或 w.grad = None）",
    "ch04.batches.name": "你在第 {k} 个批次上的梯度",
    "ch04.two.retain": "第二次反向传播发现计算图的共享部分已被释放：第一次调用 backward() 时"
                       "请传入 retain_graph=True",
    "ch04.two.autograd_grad": "这道练习讲的是在同一个计算图上调用两次 backward()：请用 "
                              "loss.backward(retain_graph=True) 并读取 w.grad，"
                              "而不是 ag.autograd.grad",
    "ch04.two.built_twice": "h = x @ w 只构建一次，让两个损失共用它：要点是在同一个计算图上"
                           "反向传播两次（retain_graph=True）",
    "ch04.two.not_a_pair": "请返回一对值：（第一个损失的梯度，第二个损失的梯度）",
    "ch04.two.includes_first": "你的第二个梯度包含了第一个：backward() 会累加到 w.grad 上，"
                               "所以两次之间要清空它（w.grad = None）",
    "ch04.two.same_numbers": "两个梯度的数值完全相同：如果你两次都返回了 w.grad，那它是同一个"
                             "张量，backward() 会原地修改它；请保存 w.grad.clone()",
    "ch04.two.first_name": "你的第一个梯度",
    "ch04.two.second_name": "你的第二个梯度",
}
MESSAGES.update(CHAPTERS_5_TO_10)
MESSAGES.update(CHAPTER_11)
MESSAGES.update(CHAPTER_12)
MESSAGES.update(CHAPTER_13)
MESSAGES.update(VALUE)
