"""The checkers' messages in English for chapter 13 (``messages_en`` merges these in): key ->
:meth:`str.format` template."""

from __future__ import annotations

MESSAGES: dict[str, str] = {
    "ch13.dual.not_a_class": "pass the class Dual itself (not an instance), got a {type}",
    "ch13.dual.constructor": "Dual(primal, tangent) failed: {error}",
    "ch13.dual.attribute": "a Dual needs the attribute .{attr} (set it in __init__)",
    "ch13.dual.not_a_number": "{what} should be a plain number, got {type}",
    "ch13.dual.number_refused": "{expr} failed with a plain number in it ({error}): a number c "
                                "is the dual c + 0·ε; handle it in __add__/__mul__/... and "
                                "define __radd__, __rsub__, __rmul__, __rtruediv__ for 2 * x",
    "ch13.dual.missing": "{expr} failed: {error}",
    "ch13.dual.not_a_dual": "{expr} returned a {type}, not a Dual",
    "ch13.dual.in_place": "computing {expr} changed x itself: return a new Dual instead of "
                          "updating self",
    "ch13.dual.tangents_multiplied": "(x * y).tangent multiplies the two tangents: ε² = 0, so "
                                     "(a + a'ε)(b + b'ε) = ab + (a'b + ab')ε — the product rule",
    "ch13.dual.product_term": "(x * y).tangent is missing one term of the product rule: it "
                              "is a'·b + a·b', both halves",
    "ch13.dual.product_wrong": "(x * y).tangent is {got:.4g}, the product rule a'·b + a·b' "
                               "gives {want:.4g}",
    "ch13.dual.quotient_sign": "(x / y).tangent has the wrong sign: (a/b)' = (a'·b - a·b') / b², "
                               "a minus before a·b'",
    "ch13.dual.quotient_square": "(x / y).tangent divides by b instead of b²: (a/b)' = "
                                 "(a'·b - a·b') / b²",
    "ch13.dual.quotient_wrong": "(x / y).tangent is {got:.4g}, the quotient rule "
                                "(a'·b - a·b') / b² gives -0.75",
    "ch13.dual.value": "({expr}).primal at x = {x} is {got:.6g}, the function's value is "
                       "{want:.6g}: the primal part is the ordinary computation",
    "ch13.dual.sin_tangent": "sin's tangent uses sin(a); the derivative of sin is cos: "
                             "sin(a + a'ε) = sin(a) + cos(a)·a'ε",
    "ch13.dual.tangent": "({expr}).tangent at x = {x} is {got:.6g}, the derivative is {want:.6g}",
    "ch13.jac.transposed": "your matrix is the transpose: the Jacobian of f: R^3 -> R^5 has "
                           "shape {shape} (one row per output), and each jvp gives a column — "
                           "stack the columns along dim 1",
    "ch13.jac.shape": "the Jacobian has shape {got}, expected {want} (outputs × inputs)",
    "ch13.jac.values": "the values differ from ag.func.jacrev's: the column for input k is "
                       "the jvp with the unit tangent e_k",
    "ch13.jac.rows": "right values, but f ran {passes} times, once per OUTPUT element: that is "
                     "reverse mode (rows, vjp); forward mode needs one jvp per input, {n}",
    "ch13.jac.passes": "right values, but f ran {passes} times: one jvp per input element "
                       "({n}) is enough",
}
