"""第 13 章检查器的中文提示（``messages_zh`` 合并这些）：键 -> :meth:`str.format` 模板。"""

from __future__ import annotations

MESSAGES: dict[str, str] = {
    "ch13.dual.not_a_class": "请传入 Dual 类本身（不是它的实例），收到的是 {type}",
    "ch13.dual.constructor": "Dual(primal, tangent) 出错：{error}",
    "ch13.dual.attribute": "Dual 需要属性 .{attr}（在 __init__ 里设置）",
    "ch13.dual.not_a_number": "{what} 应当是普通数字，收到的是 {type}",
    "ch13.dual.number_refused": "{expr} 遇到普通数字时出错（{error}）：数字 c 就是对偶数 c + 0·ε；"
                                "请在 __add__/__mul__/... 里处理它，并定义 __radd__、__rsub__、"
                                "__rmul__、__rtruediv__，这样 2 * x 才能算",
    "ch13.dual.missing": "{expr} 出错：{error}",
    "ch13.dual.not_a_dual": "{expr} 返回的是 {type}，不是 Dual",
    "ch13.dual.in_place": "计算 {expr} 时改动了 x 本身：应当返回一个新的 Dual，而不是修改 self",
    "ch13.dual.tangents_multiplied": "(x * y).tangent 把两个切向量相乘了：ε² = 0，所以 "
                                     "(a + a'ε)(b + b'ε) = ab + (a'b + ab')ε —— 乘积法则",
    "ch13.dual.product_term": "(x * y).tangent 少了乘积法则的一项：应为 a'·b + a·b'，两项都要",
    "ch13.dual.product_wrong": "(x * y).tangent 是 {got:.4g}，乘积法则 a'·b + a·b' 给出 {want:.4g}",
    "ch13.dual.quotient_sign": "(x / y).tangent 符号错了：(a/b)' = (a'·b - a·b') / b²，"
                               "a·b' 前面是减号",
    "ch13.dual.quotient_square": "(x / y).tangent 除以了 b 而不是 b²：(a/b)' = (a'·b - a·b') / b²",
    "ch13.dual.quotient_wrong": "(x / y).tangent 是 {got:.4g}，商的法则 (a'·b - a·b') / b² "
                                "给出 -0.75",
    "ch13.dual.value": "x = {x} 时 ({expr}).primal 是 {got:.6g}，函数值是 {want:.6g}：primal "
                       "部分就是普通的计算",
    "ch13.dual.sin_tangent": "sin 的切向量用了 sin(a)；sin 的导数是 cos："
                             "sin(a + a'ε) = sin(a) + cos(a)·a'ε",
    "ch13.dual.tangent": "x = {x} 时 ({expr}).tangent 是 {got:.6g}，导数是 {want:.6g}",
    "ch13.jac.transposed": "你的矩阵是转置：f: R^3 -> R^5 的雅可比矩阵形状是 {shape}"
                           "（每个输出一行），每次 jvp 得到一列 —— 沿 dim 1 把列堆起来",
    "ch13.jac.shape": "雅可比矩阵的形状是 {got}，应为 {want}（输出数 × 输入数）",
    "ch13.jac.values": "数值与 ag.func.jacrev 的不同：第 k 个输入对应的列，是切向量取单位向量 "
                       "e_k 时的 jvp",
    "ch13.jac.rows": "数值正确，但 f 运行了 {passes} 次，每个输出元素一次：这是反向模式"
                     "（按行，vjp）；正向模式每个输入一次 jvp 就够，共 {n} 次",
    "ch13.jac.passes": "数值正确，但 f 运行了 {passes} 次：每个输入元素一次 jvp（{n} 次）就够了",
}
