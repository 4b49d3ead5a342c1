"""The checkers' messages in Chinese for chapter 12 (``messages_zh`` merges these in): key ->
:meth:`str.format` template."""

from __future__ import annotations

MESSAGES: dict[str, str] = {
    "ch12.gain.not_a_number": "gain({name!r}) 应当是一个数，得到的是 {type}",
    "ch12.gain.no_sqrt": "gain({name!r}) 是 {got:.4g}，是 PyTorch 的 {want:.4g} 的平方：增益乘在"
                         "权重上，所以它是方差所需倍数的平方根",
    "ch12.gain.one": "gain({name!r}) 是 1，像线性层那样：这个非线性会改变方差，它的增益是 "
                     "{want:.4g}",
    "ch12.gain.tanh_derived": "gain('tanh') 是 {got:.4g}，即推导出的 1/sqrt(Var[tanh(x)])"
                              "（x ~ N(0, 1)）：思路对，但 PyTorch 把它向上取整为 5/3，"
                              "这也弥补了 tanh 小于 1 的斜率；请返回 5/3",
    "ch12.gain.wrong": "gain({name!r}) 是 {got:.4g}，PyTorch 的 calculate_gain 给出 {want:.4g}",
    "ch12.sat.not_a_name": "请返回层的名字（str，{names} 之一），得到的是 {type}",
    "ch12.sat.unknown": "{got!r} 不是这份记录里的层：它的层是 {names}",
    "ch12.sat.nan": "{got!r} 在最后一步没有被看到（它的饱和比例是 nan）：先去掉 nan"
                    "（math.isnan），再取最大值",
    "ch12.sat.first_step": "{got!r} 在第一步饱和得最多；在最后一步（history[...][...][-1]）"
                           "是 {want!r}",
    "ch12.sat.std": "{got!r} 的标准差最大，而不是饱和比例最大：请读 "
                    "history['activations'][layer]['saturated'][-1]；答案是 {want!r}",
    "ch12.sat.mean": "{got!r} 的 |均值| 最大，而不是饱和比例最大：请读 "
                     "history['activations'][layer]['saturated'][-1]；答案是 {want!r}",
    "ch12.sat.least": "{got!r} 是饱和得最少的层：请取最大的比例（max），那是 {want!r} 的",
    "ch12.sat.wrong": "{got!r} 在最后一步的饱和比例是 {got_value:.1%}，而 {want!r} 是 "
                      "{want_value:.1%}",
    "ch12.clip.none_grad": "遇到 .grad 为 None 的参数时你的函数出错（{error}）：像 "
                           "clip_grad_norm_ 那样跳过这些参数",
    "ch12.clip.not_in_place": "梯度没有被改变，但它们的总范数 {total:.4g} 大于 max_norm = "
                              "{max_norm:g}：请原地缩放每个 p.grad（p.grad.mul_(coef)）",
    "ch12.clip.below": "总范数 {total:.4g} 已经小于 max_norm = {max_norm:g}，你却改变了梯度："
                       "系数最多取 1",
    "ch12.clip.inf_as_two": "norm_type=inf 时，总范数是梯度元素绝对值的最大值，而不是 2-范数",
    "ch12.clip.no_eps": "你把梯度乘以 max_norm / total；clip_grad_norm_ 用的是 "
                        "max_norm / (total + 1e-6)（这里 total = {total:.4g}），"
                        "这样总范数为 0 时除法也安全",
    "ch12.clip.per_parameter": "你按每个参数自己的范数分别裁剪了：clip_grad_norm_ 把所有梯度放在"
                               "一起取一个范数，并用同一个系数缩放它们",
    "ch12.clip.grads_differ": "你裁剪后的梯度与 clip_grad_norm_ 的不同（norm_type={norm_type}，"
                              "max_norm={max_norm:g}）",
    "ch12.clip.no_return": "你的函数返回了 None：请像 clip_grad_norm_ 那样返回梯度的总范数"
                           "（裁剪之前的）",
    "ch12.clip.not_a_number": "请以数或只含一个元素的张量返回总范数，得到的是 {type}",
    "ch12.clip.after": "你返回了 {got:.6g}，这是裁剪之后的范数：请返回裁剪之前的总范数 "
                       "{want:.6g}",
    "ch12.clip.sum_of_norms": "你返回了 {got:.6g}，这是各参数范数之和：总范数是由它们的范数"
                              "组成的向量的范数，{want:.6g}",
    "ch12.clip.total_differs": "你返回了 {got:.6g}；裁剪之前梯度的总 {norm_type}-范数是 "
                               "{want:.6g}",
}
