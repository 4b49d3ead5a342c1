"""第 5–10 章检查器的中文消息（``messages_zh`` 收录其余部分并合并这些）：
键 -> :meth:`str.format` 模板。"""

from __future__ import annotations

MESSAGES: dict[str, str] = {
    # --- 第 5 章 --------------------
    "ch05.none.why_a": "a 只在 ag.no_grad() 里用过，所以 e = a * 2 没有被记录，没有任何边能"
                       "回到 a",
    "ch05.none.why_b": "b 需要梯度，并且通过 e * b 连到 f，所以反向传播会填充 b.grad",
    "ch05.none.why_c": "c 只通过 c.detach() 连到 f，而 detach() 把它从计算图中切断了",
    "ch05.none.why_d": "d 从来不需要梯度，所以 autograd 永远不会给它 .grad",
    "ch05.none.not_a_set": '请给出一个名字的集合，例如 {{"a", "d"}}',
    "ch05.none.unknown": "{unknown} 不在 'a'、'b'、'c'、'd' 这几个名字之中",
    "ch05.none.not_none": "{name}.grad 不是 None：{why}",
    "ch05.none.none_too": "{name}.grad 也是 None：{why}",
    "ch05.snapshot.not_a_tensor": "snapshot 应该返回一个张量，得到的却是 {type}",
    "ch05.snapshot.name": "你的快照",
    "ch05.snapshot.requires_grad": "你的快照仍然需要梯度（它还在计算图中）：用 detach() 把它"
                                   "分离出来",
    "ch05.snapshot.shares": "你的快照与 t 共享内存（detach() 不会复制数据）：再加上 .clone()",
    "ch05.snapshot.changed": "t 被原地修改后你的快照也变了：它必须拥有自己的内存（用 "
                             ".clone()）",
    "ch05.freeze.replaced": "请用 requires_grad_(False) 原地冻结这些参数；不要用新的张量替换"
                            "它们",
    "ch05.freeze.last": "最后一层必须保持可训练：它的参数应当仍然需要梯度",
    "ch05.freeze.some_params": "它的部分参数",
    "ch05.freeze.all_params": "它的参数",
    "ch05.freeze.not_frozen": "第 {i} 层没有被冻结：{what}仍然需要梯度（对它的每个参数都调用 "
                              "requires_grad_(False)）",
    "ch05.st.not_a_tensor": "clamp_st 应该返回一个张量，得到的却是 {type}",
    "ch05.st.unclamped": "数值就是 x 本身：正向计算仍然要截断到 [0, 1]",
    "ch05.st.values_name": "你的结果的数值",
    "ch05.st.no_requires_grad": "你的结果不需要梯度，所以没有梯度能传到 x：只有 clamp 的修正量"
                                "应该 detach，而不是整个结果",
    "ch05.st.no_path": "没有梯度传到 x：要保留一条从 x 到结果、没有被 detach 的路径",
    "ch05.st.detached_x": "你 detach 了 x，却把 clamp 的修正量留在计算图中；应该反过来：x "
                          "负责传递梯度，修正量是常数",
    "ch05.st.clamp_grad": "这是 clamp 本身的梯度，在 x 被截断的地方为 0；对 autograd 来说，"
                          "clamp 的修正量（截断后的值减去 x）必须是常数",
    "ch05.st.grad_name": "你的结果对 x 的梯度",
    # --- 第 6 章 --------------------
    "ch06.gradient_for": "你对 {name} 的梯度",
    "ch06.local_alone": "你只返回了局部导数；链式法则还要把它乘以 grad_output",
    "ch06.sigmoid.none": "backward 对 x 返回了 None：应返回 grad_output 乘以 dσ/dx",
    "ch06.sigmoid.times_y": "你返回的是 grad_output * y；σ 的导数是 σ(x)·(1 − σ(x)) = "
                            "y * (1 - y)",
    "ch06.sigmoid.alone": "你只返回了 dσ/dx；链式法则还要把它乘以 grad_output",
    "ch06.div.none": "backward 对 {name} 返回了 None，但 {name} 需要梯度",
    "ch06.mul_constant.count": "{name}.backward 必须按顺序为 forward 的每个输入各返回一个值"
                               "（应返回 {expected} 个，实际返回了 {got} 个）",
    "ch06.mul_constant.non_tensor": "{name}.backward 为一个不是张量的输入返回了梯度；那个位置"
                                    "应返回 None",
    "ch06.mul_constant.none": "backward 对这个张量返回了 None，但它需要梯度",
    "ch06.mul_constant.identity": "这还是笔记里的 backward：它把 grad_output 原样传回，仿佛"
                                  "正向计算是恒等映射；乘以一个常数会让导数变成什么？",
    "ch06.mul_constant.name": "你对这个张量的梯度",
    "ch06.softplus.kept_on_ctx": "forward 把张量存成了 ctx.{name}：请用 "
                                 "ctx.save_for_backward(...) 保存张量、用 ctx.saved_tensors "
                                 "读取，这样 backward 之前的原地修改才会被发现",
    "ch06.softplus.forward_name": "forward 的输出",
    "ch06.softplus.saved_nothing": "forward 什么都没保存，backward 就没有东西可读：在 forward "
                                   "里用 ctx.save_for_backward(...) 保存 backward 需要的东西",
    "ch06.softplus.inner_only": "e^x 只是内层 1 + e^x 的导数；外层的 log 也要贡献一个因子"
                                "（运算内部的链式法则）",
    "ch06.softplus.sign": "这是 σ(-x)，不是 log(1 + e^x) 的导数：检查一下指数的符号",
    # --- 第 7 章 --------------------
    "ch07.accum.no_step": "参数没有变化：在最后一个微批次的 backward() 之后，调用一次 "
                          "optimizer.step()",
    "ch07.accum.step_each": "optimizer.step() 执行了 {steps} 次：先把每个微批次的梯度累积起来，"
                            "再只走一步",
    "ch07.accum.zero_inside": "只有最后一个微批次起了作用：循环里的 zero_grad() 把前面的梯度"
                              "都丢掉了；在循环之前清零一次",
    "ch07.accum.unscaled": "这一步长了 {n} 倍：.grad 把 {n} 个损失的梯度加在一起，而整个批次的损失"
                           "是它们的平均值；backward() 之前先把每个损失除以 {n}",
    "ch07.nesterov.in_place": "autograd 在记录计算图时不允许原地更新叶子节点：请把更新放在 "
                              "`with ag.no_grad():` 里",
    "ch07.nesterov.not_leaves": "你的参数不再是叶子节点了：请在 `with ag.no_grad():` 里原地"
                                "更新它们（p -= ... 或 p.sub_(...)）",
    "ch07.nesterov.plain": "这是普通的梯度下降：Nesterov 为每个参数保存一个动量缓冲区（放在 "
                           "buffers[i] 里），每一步同时用到梯度和缓冲区",
    "ch07.nesterov.classical": "这是经典动量法（步长为 lr * buf）；Nesterov 会向前看一步：它的"
                               "一步是假如当前梯度再来一次，缓冲区将会变成的值",
    "ch07.nesterov.ema": "这个缓冲区是滑动平均 momentum * buf + (1 - momentum) * grad；SGD 的"
                         "动量加的是整个梯度：buf = momentum * buf + grad",
    "ch07.nesterov.not_stored": "你的一步之后 buffers[i] 仍是 None：你没有保存动量缓冲区，所以"
                                "每一步都从零开始。请把参数 i 的缓冲区存进 buffers[i]，供下次"
                                "调用使用",
    "ch07.nesterov.name": "第 {k} 个参数在 {steps} 步之后的值",
    "ch07.train.no_step": "从未调用 optimizer.step()：backward() 只负责计算梯度；真正改变参数"
                          "的是 step()，每个批次在 backward() 之后调用一次",
    "ch07.train.accumulate": "梯度在批次之间不断累积：每次 backward() 之前调用 "
                             "optimizer.zero_grad()",
    "ch07.train.late": "你在 backward() 和 step() 之间清空了梯度，所以 step() 看不到任何梯度，"
                       "参数始终不动",
    "ch07.train.name": "训练后的 {name}",
    # --- 第 8 章 --------------------
    "ch08.pick.not_a_device": "请以字符串 'cuda' 或 'cpu' 返回设备，得到的却是 {got!r}",
    "ch08.pick.always_cpu": "即使 ag.cuda.is_available() 表示有 GPU，你也返回 'cpu'：每次调用"
                            "函数时都要问它一次",
    "ch08.pick.always_cuda": "没有 GPU 时，'cuda' 在创建第一个张量时就会出错：当 "
                             "ag.cuda.is_available() 为 False 时返回 'cpu'",
    "ch08.pick.swapped": "两种情况弄反了：有 GPU 时返回 'cuda'，没有时返回 'cpu'",
    "ch08.step.wrong_device": "模型在 GPU 上，而这批数据还在 CPU 上：先把 xb 和 yb 移到模型"
                              "所在的设备",
    "ch08.step.not_moved": "{name} 从未被移到模型所在的设备：在有 GPU 的机器上这一步会出错。"
                           "请以模型参数所在的设备调用 .to(...)（张量已经在那里时不会有任何"
                           "开销）",
    "ch08.step.not_float": "请把损失作为 Python 数字返回（loss.item()），而不是 {type}：张量会"
                           "让它的计算图（在 GPU 上还有显存）一直无法释放",
    "ch08.step.no_step": "参数没有变化：在 backward() 之后调用 optimizer.step()",
    "ch08.step.loss": "你返回的损失 {got:.6g} 不是这批数据在更新之前的均方误差 {want:.6g}",
    "ch08.step.name": "你这一步之后的 {name}",
    # --- 第 9 章 --------------------
    "ch09.graph.diamond": "菱形图",
    "ch09.graph.shared": "共享的叶子节点",
    "ch09.topo.recursion": "{graph}：RecursionError；请用显式的栈或队列代替递归",
    "ch09.topo.twice": "{graph}：你的顺序中有节点出现了不止一次",
    "ch09.topo.missing": "{graph}：缺少 {missing} 个可达节点，多出 {extra} 个意外的项；"
                         "请列出 grad_fn 节点，包括 AccumulateGrad",
    "ch09.topo.before": "{graph}：{early} 排在了 {late} 之前，而后者要把梯度传给它；一个节点"
                        "只能在所有给它传梯度的节点之后执行。提示：先数出每个节点的入边数"
                        "（Kahn 算法）",
    "ch09.exp.forward": "exp() 的值不对：x = {x0:.4g} 时得到 {got:.6g}，应为 {want:.6g}",
    "ch09.exp.not_attached": "对 exp() 的结果调用 out._backward() 之后，x.grad 仍是 0：在 "
                             "exp() 里定义 _backward，并在返回 out 之前用 "
                             "`out._backward = _backward` 把它挂上（只定义不挂上的函数永远"
                             "不会被执行）",
    "ch09.exp.taken_away": "你的 exp() 调用了父类的 exp()（super().exp() 或 Value.exp），而那正是"
                           "被拿走的那个：请自己写，结果是 MyValue(math.exp(self.data), (self,))，"
                           "并带上它自己的 _backward",
    "ch09.exp.no_child": "对 out = x.exp().exp()，backward() 之后 x.grad 是 {got:.6g}，应为 "
                         "{want:.6g}：exp 的结果必须把 self 列为它的子节点"
                         "（MyValue(..., (self,))），否则 backward() 走不到 self，在那里就停了",
    "ch09.exp.overwrites": "一个被用了两次的值，它的梯度必须累加：在 _backward 里用 "
                           "`self.grad += ...`，而不是 `=`",
    "ch09.exp.no_local": "你的 _backward 漏掉了局部导数：d/dx e^x = e^x，所以要把 out.grad "
                         "乘以 out.data",
    "ch09.exp.wrong": "对 out = x*exp(x) + exp(x)，x = {x0:.4g} 时 x.grad 是 {got:.6g}；应为 "
                      "{want:.6g}",
    "ch09.deps.recursion": "在 3000 个节点的长链上出现 RecursionError：请用你自己的栈在循环里"
                           "遍历计算图，不要用调用自身的函数",
    "ch09.deps.type": "请返回一个字典 {{节点: 指向它的边数}}，而不是 {type}",
    "ch09.deps.none_edge": "你的字典里有 None 这个键：(None, 0) 这条边代表一个不需要梯度的输入，"
                           "它不是节点，请跳过它",
    "ch09.deps.root": "你给 t.grad_fn 的计数是 {got}：计算图中没有任何边指向出发的那个节点"
                      "（不要列出它，或者记为 0）",
    "ch09.deps.missing": "t.grad_fn 之下有 {missing} 个节点没有计数，其中包括 {node}：沿着 "
                         "next_functions 一直走到底，包括 AccumulateGrad 节点",
    "ch09.deps.revisit": "{node} 的计数是 {got}，但只有 {want} 条边指向它：你每次走到一个节点都把它"
                         "的出边数了一遍；只在第一次走到时数（用一个集合记下已经见过的节点）",
    "ch09.deps.parents": "{node} 的计数是 {got}，但有 {want} 条边指向它：你数的是指向它的节点，"
                         "而不是边；x * x 向同一个 AccumulateGrad 发出两条边，它也会收到两份梯度",
    "ch09.deps.few": "{node} 的计数是 {got}，但有 {want} 条边指向它：next_functions 里每有一条边"
                     "指向它，就加 1",
    "ch09.loop.recursion": "在 3000 个节点的链上出现 RecursionError：请在循环里用自己的栈或"
                           "队列，不要写调用自身的函数",
    "ch09.loop.none_edge": "next_functions 的边可能是 (None, 0)：对应不需要梯度的输入。计数和"
                           "传递时都要跳过它",
    "ch09.loop.type": "请返回按调用顺序排列的节点列表，而不是 {type}",
    "ch09.loop.twice": "{node} 执行了 {times} 次：一个节点只执行一次，要等它的梯度全部到齐；"
                       "先把梯度收集到缓冲区里加起来",
    "ch09.loop.missing": "你的顺序中缺少 {missing} 个可达节点，多出 {extra} 个意外的项："
                         "root.grad_fn 之下的每个节点都要执行一次，包括叶子节点的 "
                         "AccumulateGrad 节点",
    "ch09.loop.early": "{early} 在 {late} 之前执行了，而后者要把梯度传给它：它执行时只拿到了"
                       "一部分梯度。先数出每个节点的入边数，计数降到 0 时才执行这个节点"
                       "（Kahn 算法）",
    "ch09.loop.no_grad": "叶子节点 {k} 没有得到 .grad：用梯度调用每个叶子节点的 "
                         "AccumulateGrad 节点（它把梯度加进 .grad）",
    "ch09.loop.recorded": "某个叶子节点的 .grad 带有 grad_fn：引擎在关闭梯度模式的情况下执行"
                          "各节点；请把你的循环放在 `with ag.no_grad():` 之下",
    "ch09.loop.start": "这些梯度对应的起始梯度是全 1：根节点的缓冲区应当从传入的 grad 开始",
    "ch09.loop.sum": "叶子节点 {k} 的 .grad 是 {got}，引擎算出的是 {want}：几个梯度到达同一个"
                     "节点时，要在它的缓冲区里相加（被覆盖的梯度就丢了）",
    "ch09.loop.tuple": "叶子节点 {k} 的 .grad 形状是 {got}，而叶子节点本身是 {want}：只有一个输入的"
                       "节点返回的是一个张量，不是元组，对张量做 zip(node.next_functions, grads) "
                       "会逐个取出它的元素；先把它包起来：grads = (grads,)",
    "ch09.loop.same_order": "顺序与引擎执行的完全一致",
    "ch09.loop.other_order": "顺序有效；引擎的顺序不同：在就绪的节点中，它先执行最新创建的",
    # --- chapter 10 ---------------------------------------------------------------------------
    "ch10.clamp.tuple": "pre-hook 必须返回一个元组，节点的每个输出对应一个梯度（或者返回 None "
                        "保持原样），而不是张量或列表",
    "ch10.clamp.no_grad": "backward 之后 x.grad 是 None：钩子应当返回截断后的梯度，"
                          "而不是把它们丢掉",
    "ch10.clamp.unchanged": "梯度原封不动地到达了 x：用 node.register_prehook 注册钩子，"
                            "并返回截断后的元组",
    "ch10.clamp.posthook": "你截断的是节点继续传给 x 的梯度（post-hook，register_hook）；"
                           "应当截断到达节点的梯度（register_prehook）",
    "ch10.clamp.name": "装上你的钩子之后的 x.grad",
    "ch10.clamp.handle": "返回 register_prehook 给你的句柄，这样钩子才能被移除",
    "ch10.clamp.removed": "handle.remove() 之后的 x.grad",
    "ch10.bytes.none": "saved_bytes 返回了 None：请把总数作为 int 返回",
    "ch10.bytes.type": "saved_bytes 应当返回一个 int（字节数），得到的是 {type}",
    "ch10.bytes.zero": "你数出了 0 字节：在 saved_tensors_hooks(pack, unpack) 里运行 "
                       "fn(*inputs)，并在 pack 里累加",
    "ch10.bytes.count": "这是保存的张量的个数；要数的是它们的字节数："
                        "t.numel() * t.element_size()",
    "ch10.bytes.elements": "这是保存的元素个数；要把每个张量的 numel() 乘以它的 "
                           "element_size()（float32 是 4，float64 是 8）",
    "ch10.bytes.pack_none": "字节数对，但在你的正向传播之后，反向传播失败了（{error}）：pack 的"
                            "返回值就是反向传播通过 unpack 取回的东西，所以 pack 必须返回这个"
                            "张量（return t）",
    "ch10.bytes.wrong": "你数出了 {got} 字节，正向传播保存的是 {want} 字节",
    "ch10.ckpt.reentrant": "给 checkpoint 传入 use_reentrant=False（题目要的不是较老的 "
                           "reentrant 版本）",
    "ch10.ckpt.nothing": "正向传播保存的和不用检查点时一样多：把每一次调用块都包进 "
                         "checkpoint(block, h, use_reentrant=False)",
    "ch10.ckpt.output": "你的运行结果",
    "ch10.ckpt.gradient": "用检查点运行之后的某个梯度",
    "ch10.ckpt.calls": "这些块在正向传播中运行了 {forward} 次，在反向传播中运行了 {backward} 次；"
                       "应为正向传播 {blocks} 次、反向传播 {blocks} 次：用了检查点的块在反向传播"
                       "中还要再运行一次，重新计算它没有保留的结果，所以 {blocks} 个块中的每一个"
                       "都要通过 checkpoint 调用，且只调用一次",
    "ch10.ckpt.some": "保留了 {saved} 字节的激活值，应为 {want} 字节：每一个块都要用检查点，"
                      "而不是只用在其中几个上",
    "ch10.nan.none": "nan_source 返回了 None：捕获异常检测模式抛出的 RuntimeError，"
                     "从它的消息里取出节点的名字并返回",
    "ch10.nan.type": "nan_source 应当以字符串形式返回节点的名字，得到的是 {type}",
    "ch10.nan.message": "只返回名字 {want}，不要返回整条消息",
    "ch10.nan.root": "{got} 是损失自己的节点；NaN 来自更下游的节点：在 detect_anomaly "
                     "中运行 backward",
    "ch10.nan.wrong": "你返回了 {got!r}；反向计算产生 NaN 的节点是 {want}",
    "ch10.hvp.create_graph": "梯度没有可以再求导的计算图：第一次调用 autograd.grad 时传入 "
                             "create_graph=True",
    "ch10.hvp.x_no_grad": "你求导所对的 x 不需要梯度，所以 f(x) 没有计算图（用了 .detach()，或者用 "
                          "x 的值新建了一个张量）：请对传给你的 x 求 f(x) 的导数，或者对用 "
                          "x.detach().requires_grad_() 做出的副本求导",
    "ch10.hvp.detached": "第一次求梯度时用了 create_graph=True，但在第二次调用 autograd.grad "
                         "之前，.detach()（或 .data）把它从计算图上切断了",
    "ch10.hvp.pair": "只返回 H v，不要返回一对值（functional.hvp 返回的是 (f(x), H v)）",
    "ch10.hvp.gradient": "这是 f 的梯度；还要对 (gradient * v).sum() 再求一次导",
    "ch10.hvp.no_vector": "这是 H 乘以全 1 向量：在第二次调用 autograd.grad 之前先把梯度乘以 "
                          "v",
    "ch10.hvp.name": "你的 H v",
    "ch10.gp.type": "请把惩罚项作为张量返回（backward 需要它的计算图），而不是 {type}",
    "ch10.gp.shape": "你的惩罚项形状是 {shape}：对各行取平均，得到一个数",
    "ch10.gp.rows": "这是整个梯度矩阵的范数：应当对每一行取范数（norm(dim=1)），每个样本一个，"
                    "再对 (范数 - 1)² 取平均",
    "ch10.gp.value": "你的惩罚项是 {got:.6g}，应为 {want:.6g}：对各行的 (‖梯度的这一行‖ - 1)² "
                     "取平均",
    "ch10.gp.create_graph": "值是对的，但惩罚项没有计算图：求梯度时没有传 create_graph=True，"
                            "参数无法通过它训练",
    "ch10.gp.x_no_grad": "你求导所对的 x 不需要梯度，所以 critic(x) 的计算图里没有通向它的路径"
                         "（用了 .detach()，或者用 x 的值新建了一个张量）：请对传给你的 x 求梯度，"
                         "或者对用 x.detach().requires_grad_() 做出的副本求梯度",
    "ch10.gp.detached": "值是对的，但惩罚项没有计算图，尽管 create_graph=True 已经记录了一个："
                        "是 .detach()（或 .data）把它切断了",
    "ch10.gp.name": "你的惩罚项对参数的梯度",
}
