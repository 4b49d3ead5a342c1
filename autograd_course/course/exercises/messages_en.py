"""The checkers' messages in English: key -> :meth:`str.format` template.

The English chapters print these lines and strict nbval compares them byte for byte, so a
change here is a change to the committed notebook outputs. ``messages_zh`` has the same keys
and the same placeholders.
"""

from __future__ import annotations

from .messages_en_ch05_10 import MESSAGES as CHAPTERS_5_TO_10
from .messages_en_ch11 import MESSAGES as CHAPTER_11
from .messages_en_ch12 import MESSAGES as CHAPTER_12
from .messages_en_ch13 import MESSAGES as CHAPTER_13
from .messages_en_value import MESSAGES as VALUE

MESSAGES: dict[str, str] = {
    # --- verdicts (_common) ---------------------------------------------------------------------
    "verdict.correct": "correct",
    "verdict.not_attempted": "not attempted yet",
    "verdict.not_quite": "not quite: {hint}",
    "verdict.with_note": "{status} ({note})",
    # --- the learner's code raised, or returned nothing --------------------------------------
    "common.unprintable": "(its message could not be printed: its __str__ raised an error)",
    "common.an_exception": "an exception",
    "common.sys_exit": "your code called sys.exit() (or raised SystemExit), which would stop "
                       "the whole program: return a value instead",
    "common.generator_exit": "your code raised GeneratorExit: return a value instead",
    "common.raised_with_text": "your code raised {name}: {text}",
    "common.raised": "your code raised {name}",
    "common.your_function": "your function",
    "common.returned_none": "{name}() returned None: its body runs but has no `return` (or "
                            "returns nothing); end it with `return <your result>`",
    # --- comparing values -----------------------------------------------------------------------
    "common.your_answer": "your answer",
    "common.diff.transposed": "{name} looks transposed: shape {shape_a}, expected {shape_e}",
    "common.diff.reshape": "{name} has the right number of elements but shape {shape_a}; "
                           "expected shape {shape_e}",
    "common.diff.shape": "{name} has shape {shape_a}, expected shape {shape_e}",
    "common.diff.nonfinite": "{name} contains nan or inf",
    "common.diff.sign": "{name} has the right shape but the wrong sign",
    "common.diff.factor": "{name} has the right shape but is {factor:.4g} times the expected "
                          "value (a missing or extra constant factor?)",
    "common.diff.values": "{name} has the right shape but wrong values: got {got}, expected "
                          "{expected}",
    "common.is_none": "{name} is None",
    "common.not_a_tensor": "{name} should be a tensor or a number, got {type}",
    # --- custom Functions and gradcheck -----------------------------------------------------------
    "common.not_a_function": "expected a subclass of ag.autograd.Function, got {value!r}",
    "common.backward_error": "{name}.backward: {error}",
    "common.gradient_for_input": "the gradient for input {k}",
    "common.gradcheck_fails": "gradcheck fails for {name}: {hint}",
    "common.output_no_grad": "the output does not require grad: did forward leave the graph?",
    "common.backward_failed": "backward failed: {error}",
    # --- chapter 0 --------------------------------------------------------------------------------
    "ch00.not_a_number": "{name} should be a number, got {type}",
    "ch00.not_one_number": "{name} should be one number, got {size}",
    "ch00.first.a_two_paths": "a_grad: a appears twice in d = a * b + a; the product gives b "
                              "and the `+ a` gives 1 more, and the two paths add up",
    "ch00.first.a_only_plus": "a_grad: you kept only the `+ a` path; a * b also depends on a",
    "ch00.first.a_not_a": "a_grad: the derivative of a * b with respect to a is b, not a",
    "ch00.first.a_wrong": "a_grad is {got:g}; differentiate a * b + a with respect to a at "
                          "a = {a:g}, b = {b:g}",
    "ch00.first.b_not_b": "b_grad: the derivative of a * b with respect to b is a, not b",
    "ch00.first.b_wrong": "b_grad is {got:g}; only a * b depends on b",
    "ch00.names.not_a_list": "give a list of {n} names, one per expression",
    "ch00.names.count": "give {n} names, one per expression; got {got}",
    "ch00.names.variant": "{expr}: the right operation, but PyTorch numbers its variants: "
                         "{want} here, not {got} (PowBackward0 is a tensor to a number's "
                         "power, PowBackward1 a tensor to a tensor's, PowBackward2 a number to "
                         "a tensor's)",
    "ch00.names.number": "{expr}: the names end in a number, here {digit}: {want}",
    "ch00.names.form": "{expr}: a grad_fn name is the operation plus 'Backward' plus a number, "
                       "like 'AddBackward0'",
    "ch00.names.last_op": "{expr}: the grad_fn names the *last* operation that made the result "
                          "(you wrote {got!r})",
    # --- chapter 1 --------------------------------------------------------------------------------
    "ch01.slope.not_one_number": "give one number, the slope at x = 2 (you gave {size} values)",
    "ch01.slope.exact": "that is the exact derivative 3x² - 2 at 2; the exercise asks you to "
                       "*measure* it: (f(2 + h) - f(2 - h)) / (2 * h) with a small h",
    "ch01.slope.exact_note": "exactly 10.0: with this h the rounding of f's values swallowed the "
                             "central difference's tiny error h²; fine if you measured it with "
                             "f, but typing 3·2² - 2 is not measuring",
    "ch01.slope.one_sided": "that looks like a one-sided difference (f(2 + h) - f(2)) / h: "
                           "use the central one, (f(2 + h) - f(2 - h)) / (2 * h), whose "
                           "error shrinks like h² instead of h",
    "ch01.slope.not_a_number": "your slope should be a number",
    "ch01.slope.height": "that is f({at:g}), the height of the curve; the slope is how fast f "
                         "changes: (f(2 + h) - f(2 - h)) / (2 * h) for a small h",
    "ch01.slope.sign": "right size, wrong sign: subtract f(2 - h) from f(2 + h), not the other "
                       "way round",
    "ch01.slope.close": "close ({value:.6g}), but not within 0.001 of the slope: take a smaller "
                        "h (such as 1e-4), and step both ways, f(2 + h) - f(2 - h)",
    "ch01.slope.far": "{value:.6g} is far from the slope at x = 2: divide the change "
                      "f(2 + h) - f(2 - h) by the change in x, 2 * h",
    "ch01.predict.name": "your x.grad",
    "ch01.leaves.why_a": "a was made by the user (ag.tensor), so it is a leaf",
    "ch01.leaves.why_b": "b was made by the user (ag.tensor), so it is a leaf",
    "ch01.leaves.why_c": "c = a * b involves a, which requires grad, so c has a grad_fn and is "
                         "not a leaf",
    "ch01.leaves.why_d": "d = b * 2 uses only tensors that do not require grad: nothing is "
                         "recorded, so d has no grad_fn and counts as a leaf",
    "ch01.leaves.why_e": "e is the result of recorded operations (grad_fn=SumBackward0), not a "
                         "leaf",
    "ch01.leaves.not_a_set": "{what} should be a set of names like {{'a', 'b'}}",
    "ch01.leaves.unknown": "{what} contains unknown names {unknown}; use 'a'...'e'",
    "ch01.leaves.check": "check {name}: {why}",
    "ch01.leaves.missing_grad": "{name} is a leaf that requires grad: backward fills its .grad",
    "ch01.leaves.no_requires_grad": "it does not require grad",
    "ch01.leaves.not_a_leaf": "it is not a leaf (only leaves keep .grad unless you call "
                              "retain_grad())",
    "ch01.leaves.grad_stays_none": "{name}.grad stays None after backward: {why}",
    "ch01.value.not_a_value": "{what} should give a Value (with .data and .grad), got {type}",
    "ch01.mul.forward": "(2) * (-3) gave data {data:g}: the forward is self.data * other.data",
    "ch01.mul.grad_not_data": "the local derivative of a·b with respect to a is the other "
                             "factor's *value*, other.data, not its gradient other.grad "
                             "(and self.data for other)",
    "ch01.mul.children": "the result must remember both inputs: Value(..., (self, other))",
    "ch01.mul.still_zero": "after out._backward() both gradients are still 0: the _backward "
                           "must change self.grad and other.grad",
    "ch01.mul.no_out_grad": "you forgot the chain rule's factor out.grad: multiply the local "
                            "derivative by out.grad",
    "ch01.mul.swapped": "swapped: d(a·b)/da is b (the *other* factor), so a.grad gets "
                        "other.data * out.grad",
    "ch01.mul.wrong": "for a = 2, b = -3 and out.grad = 2.5 expected a.grad = -7.5 and "
                      "b.grad = 5, got {a_grad:g} and {b_grad:g}",
    "ch01.manual.start": "start the backward pass with L.grad = 1 (dL/dL)",
    "ch01.manual.c_d": "c.grad and d.grad should be 1 (L = d + c), got {c_grad:g} and "
                       "{d_grad:g}: run L._backward() once",
    "ch01.manual.mul_first": "d = a * b has no backward rule yet: finish exercise 1.2 "
                             "(__mul__'s _backward) first",
    "ch01.manual.a_b_nothing": "a and b got nothing: call d._backward() too, and only after "
                               "L._backward() has filled d.grad",
    "ch01.manual.twice": "a.grad and b.grad are twice too big: each _backward runs exactly once",
    "ch01.manual.wrong": "a.grad should be b = {b:g} and b.grad should be a = {a:g}; got "
                         "{a_grad:g} and {b_grad:g} (check your __mul__ with check_value_mul)",
    "ch01.accumulate.add_overwrites": "a.grad is 1 after b = a + a, but db/da = 2: a is used "
                                      "twice, and the second `other.grad = out.grad` overwrote "
                                      "the first. Accumulate: `self.grad += ...` and "
                                      "`other.grad += ...`",
    "ch01.accumulate.same_value": "{expr} with a.grad starting at 0.5 gave a.grad = {a_grad:g}, "
                                  "expected {want:g}: self and other are the same Value here, "
                                  "and the tuple assignment `self.grad, other.grad = self.grad + "
                                  "..., other.grad + ...` computes both sums from the old a.grad, "
                                  "so the second assignment overwrites the first; write two "
                                  "separate `+=` lines",
    "ch01.accumulate.add_wrong": "a.grad is {a_grad:g} after b = a + a; expected 2",
    "ch01.accumulate.mul_overwrites": "__add__ is fixed, but a * a gives a.grad = 3 instead of "
                                      "2a = 6: use `+=` in __mul__'s _backward too",
    "ch01.accumulate.mul_wrong": "a.grad is {a_grad:g} after p = a * a at a = 3; expected "
                                 "2a = 6",
    "ch01.accumulate.across_nodes": "for L = a*b + a expected a.grad = b + 1 = {b_plus_1:g} "
                                    "and b.grad = a = {a:g}, got {a_grad:g} and {b_grad:g}",
    "ch01.step.not_a_number": "best_h should be one number, a step such as 1e-3",
    "ch01.step.positive": "a step must be a positive number such as 1e-3",
    "ch01.step.float32": "that step is the best one in float32, whose numbers keep about 7 "
                         "digits; in float64 (about 16 digits) the round-off error is far "
                         "smaller, so the best step is smaller too: read the float64 curve",
    "ch01.step.forward": "that is where the *forward* difference is best; the central one's "
                         "truncation error shrinks like h² instead of h, so its best step is "
                         "larger",
    "ch01.step.round_off": "too small: at h = {h:.0e} the error is {error:.1e}, round-off: "
                           "f(2 + h) and f(2 - h) agree in almost all their digits, and their "
                           "difference keeps only the few that differ",
    "ch01.step.truncation": "too large: at h = {h:.0e} the error is {error:.1e}, truncation: "
                            "the difference quotient still sees the curve bend (error h² for "
                            "this cubic)",
    # --- chapter 2 --------------------------------------------------------------------------------
    "ch02.jacobian.name": "your Jacobian of {f}",
    "ch02.jacobian.cumulative": "each row contains the rows before it: backward() *adds* into "
                                "x.grad, so reset it (x.grad = None) before each row, or use "
                                "ag.autograd.grad",
    "ch02.jacobian.all_sum": "every row is the sum of all rows: you kept x.grad itself, which "
                             "backward() keeps adding into; reset it before each row and store "
                             "x.grad.clone()",
    "ch02.jacobian.all_last": "every row equals the last one: x.grad is the same tensor each "
                              "time (zero_() and backward() change it in place); store "
                              "x.grad.clone()",
    "ch02.mean.not_a_tensor": "gradient should be a tensor with Q's shape (3,)",
    "ch02.mean.shape": "gradient must have Q's shape (3,), got {shape}: one number per element "
                       "of Q",
    "ch02.mean.name": "the {var}.grad your gradient produces",
    "ch02.unbroadcast.builtin": "sum_to_size is the function this exercise asks you to write: "
                               "sum over the broadcast axes yourself (sum(dim=..., keepdim=...))",
    "ch02.unbroadcast.case": "grad of shape {big} to shape {small}",
    "ch02.unbroadcast.shape": "{case}: the values are right but the shape is {shape}; keep the "
                              "size-1 dimensions (sum with keepdim=True, or reshape)",
    "ch02.unbroadcast.mean": "{case}: you averaged; the input was used {lost} times, once per "
                             "broadcast copy, and each use adds its gradient: sum, do not mean",
    "ch02.unbroadcast.shifted": "{case}, with two dimensions stretched from size 1: {problem}. "
                                "After grad.sum(i) without keepdim=True dimension i is gone and "
                                "every later one has moved one place left, so the next index "
                                "you sum is off by one: sum with keepdim=True, or all the "
                                "dimensions at once, or from the last to the first",
    "ch02.unbroadcast.name": "your result for {case}",
    "ch02.value.no_method": "your Value has no {method} method",
    "ch02.value.twice": "x ** 3 + x.tanh() uses x twice, and x.grad kept only one of the two "
                        "contributions: accumulate with `self.grad += ...`",
    "ch02.pow.forward": "x ** {k} at x = {x0} gave {got:.6g}, expected {want:.6g}",
    "ch02.pow.no_out_grad": "__pow__: multiply k * x**(k-1) by out.grad (the chain rule)",
    "ch02.pow.exponent": "__pow__: the derivative of x**k is k * x**(k-1): the exponent drops "
                         "by one",
    "ch02.pow.wrong": "__pow__: x.grad is {got:.6g} for x**{k} at x = {x0}, out.grad = 1.5; "
                      "expected {want:.6g}",
    "ch02.pow.fixed_power": "__pow__: x.grad is {got:.6g} for x**{k} at x = {x0}, out.grad = "
                            "1.5, expected {want:.6g}: that is k * x**2, right only for k = 3; "
                            "the derivative of x**k is k * x**(k-1), whose exponent follows k",
    "ch02.tanh.forward": "tanh() at x = {x0} gave {got:.6g}, expected {want:.6g} (math.tanh)",
    "ch02.tanh.no_out_grad": "tanh: multiply 1 - tanh(x)**2 by out.grad (the chain rule)",
    "ch02.tanh.not_x": "tanh: the derivative is 1 - tanh(x)**2, with tanh(x) = out.data, not "
                       "1 - x**2",
    "ch02.tanh.wrong": "tanh: x.grad is {got:.6g} at x = {x0}, out.grad = 1.5; expected "
                       "{want:.6g}",
    "ch02.ops.missing": "{expr} raised TypeError: Python asks the Value on the right for "
                        "{method} when the number on the left does not know Value; define it",
    "ch02.ops.number": "{expr}: {error}. other can be a plain number here, which has no .data "
                       "and no _backward: make it a Value first (other = self._lift(other))",
    "ch02.ops.swapped": "{expr} computed the operands the other way round: {method} is called "
                        "with self = a and other = 2, for 2 - a or 2 / a: other comes first",
    "ch02.ops.forward": "{expr} at a = 3, b = -2 gave data {got:.6g}, expected {want:.6g}",
    "ch02.ops.no_graph": "{expr} has the right data but sends no gradient back: a Value made "
                         "from plain numbers has no _prev and no _backward; build it from "
                         "operations that have them (self * -1, self + (-other), "
                         "self * other ** -1)",
    "ch02.ops.grad": "{expr}: backward gave a.grad = {a_grad:.6g}, b.grad = {b_grad:.6g}, "
                     "expected {want_a:.6g} and {want_b:.6g}",
    "ch02.loss.scalar": "a loss is one number: return a tensor with one element (reduce with "
                        ".mean() or .sum())",
    "ch02.loss.no_grad": "your loss does not require grad: a comparison (==, >) or an accuracy "
                         "gives 0/1 values that record no operation; compute a difference "
                         "instead",
    "ch02.loss.zero_grad": "your loss has gradient 0 for every prediction, like an accuracy: "
                           "gradient descent would never move; use a smooth function of "
                           "prediction - labels",
    "ch02.loss.ignores_labels": "the gradient is the same whatever the labels (as for "
                                "(prediction - labels).sum(), whose gradient is 1 everywhere): "
                                "a loss must say which way each prediction should move",
    "ch02.loss.even": "your gradient stays the same when every error changes sign: a "
                      "prediction above its label is pushed the same way as one below it. A "
                      "loss must be smallest at the label and grow on both sides, as "
                      "(prediction - labels) ** 2 does; an odd power such as ** 3 keeps "
                      "falling below the label",
    "ch02.loss.sign": "a step against your gradient moves every prediction *away* from its "
                      "label: gradient descent minimises, so the loss must grow with the "
                      "distance",
    "ch02.loss.direction": "a step against your gradient moves some predictions away from "
                           "their labels: each prediction's gradient should follow its own "
                           "error (prediction - labels), as in ((prediction - labels) ** 2)"
                           ".mean()",
    "ch02.loss.not_zero": "your loss is {value:.4g} when prediction equals labels; it should "
                          "be 0 there, its lowest value",
    # --- chapter 3 --------------------------------------------------------------------------------
    "ch03.graph.chain": "a * b chain",
    "ch03.graph.diamond": "diamond (x used twice)",
    "ch03.graph.constants": "layer with constant data",
    "ch03.graph.deep": "3000-step chain",
    "ch03.graph.doubling": "y = y + y, 20 times",
    "ch03.leaves.revisits": "{graph}: your walk expanded the same nodes again and again (more "
                            "than {limit} visits for {nodes} nodes): a node reached along "
                            "several paths was expanded once per path, and the paths double "
                            "with every y + y. Keep a set of the nodes already visited, and "
                            "skip them",
    "ch03.leaves.twice": "you returned the same leaf more than once: remember which nodes you "
                         "visited",
    "ch03.leaves.not_a_leaf": "you returned a tensor that is not a leaf requiring grad",
    "ch03.leaves.missed": "you missed {n} leaf/leaves: follow every entry of next_functions, "
                          "not just the first",
    "ch03.leaves.recursion": "{graph}: RecursionError; walk with an explicit stack (a list you "
                             "append to and pop from) instead of recursion",
    "ch03.leaves.nodes": "you returned graph nodes; the leaf tensor of an AccumulateGrad node is "
                         "node.variable",
    "ch03.leaves.not_tensors": "return a list of tensors (the leaves)",
    "ch03.leaves.in_graph": "{graph}: {problem}",
    "ch03.loop.not_int": "n_mul_nodes should be a whole number",
    "ch03.loop.too_few": "too few nodes: the loop keeps doubling while y.sum() < 100; count the "
                         "doublings (one MulBackward0 each)",
    "ch03.loop.too_many": "too many nodes: the loop keeps doubling while y.sum() < 100; count "
                          "the doublings (one MulBackward0 each)",
    "ch03.hook.in_place": "your hook changed its argument in place (clamp_ and the other "
                          "methods ending in _ do); PyTorch's docs say a hook must not modify "
                          "its argument: return new tensors, such as grad.clamp(-1, 1)",
    "ch03.hook.unchanged": "the gradient came through unchanged: a hook must *return* the new "
                           "gradient (returning None keeps the old one)",
    "ch03.hook.one_way": "clip both ways: negative gradients below -1 become -1 "
                         "(grad.clamp(-1, 1))",
    "ch03.hook.wrong": "x.grad is {got}, expected {want}: return grad.clamp(-1, 1)",
    "ch03.exp.overwrites": "exp's _backward overwrote x.grad (=) instead of adding to it "
                          "(+=): a value used twice would lose a contribution",
    "ch03.exp.forward": "exp() at 0.5 gave {got:.6g}, expected {want:.6g}",
    "ch03.exp.backward": "exp's _backward: d/dx e^x = e^x, so x.grad += out.data * out.grad",
    "ch03.backward.returns": "backward() should fill the .grad fields and return nothing",
    "ch03.backward.start": "backward() must start with self.grad = 1 (d out/d out)",
    "ch03.backward.order": "x.grad, y.grad = {x_grad:.6g}, {y_grad:.6g}, expected "
                           "{want_x:.6g}, {want_y:.6g}: every _backward must run once, and only "
                           "after all the values that use its output have run theirs (reverse "
                           "topological order)",
    "ch03.backward.duplicate_edge": "for out = h.tanh() + h * h with h = 2x, x.grad is "
                                    "{got:.6g}, expected {want:.6g}: h * h lists h twice in "
                                    "its _prev, which is two edges into h. Count and release "
                                    "one edge per entry of v._prev, not one per distinct value "
                                    "(set(v._prev)), or h runs its _backward before all its "
                                    "gradient has arrived (or never)",
    "ch03.backward.recursion": "a 3000-step chain raised RecursionError: build the order "
                               "without recursion — a depth-first walk with an explicit stack "
                               "that appends a value only after all its inputs (post-order), "
                               "then reversed",
    "ch03.backward.deep": "on a 3000-step chain of `* 1.0` the first value got grad {got:g}, "
                          "expected 1",
    "ch03.step.no_update": "the parameters did not change: move each by -lr * p.grad "
                           "(p.data -= lr * p.grad)",
    "ch03.step.zeroed_late": "the parameters did not change and every grad is 0: you zeroed "
                             "the grads after backward() and before the update; zero them "
                             "first, before the forward pass",
    "ch03.step.zero_grad": "the update used the gradient plus what the previous step left in "
                           ".grad: backward() adds (+=), so set every p.grad = 0.0 before "
                           "the forward pass",
    "ch03.step.sign": "the parameters moved uphill: subtract lr * p.grad",
    "ch03.step.lr": "the parameters moved by the whole gradient: multiply it by lr",
    "ch03.step.wrong": "the parameters did not move by -lr * grad of mse(model, xs, ys): zero "
                       "the grads, compute the loss, call loss.backward(), then update",
    "ch03.step.loss": "return the loss of this step (the Value, or its number loss.data), "
                      "computed before the update (expected data {want:.6g})",
    # --- chapter 4 --------------------------------------------------------------------------------
    "ch04.your_gradient": "your gradient",
    "ch04.mse.your_gradient_is": "your gradient is {hint}",
    "ch04.mse.times_n": "{n} times too large: the loss is the *mean* of {n} terms, so divide "
                        "by n",
    "ch04.mse.half": "half the expected value: the derivative of u² is 2u",
    "ch04.mse.no_sigmoid": "missing the sigmoid's derivative σ(z)(1 - σ(z)) (the chain rule "
                           "through σ)",
    "ch04.mse.bce": "missing σ'(z): you used the BCE gradient (σ(z) - y)/n, but this loss is "
                    "the squared error",
    "ch04.batches.zero_none": ".grad is None before the first backward, so w.grad.zero_() "
                              "fails there: zero it after reading it, or set w.grad = None "
                              "instead",
    "ch04.batches.not_a_list": "return a list with one gradient per batch",
    "ch04.batches.count": "return one gradient per batch: got {got}, expected {want}",
    "ch04.batches.none": "one of your gradients is None: call backward() before reading w.grad",
    "ch04.batches.same_object": "all your gradients are the same tensor object: .grad is "
                                "updated in place, so store a copy (w.grad.clone())",
    "ch04.batches.cumulative": "each gradient includes the ones before it: backward() "
                               "accumulates into w.grad, so zero it (w.grad.zero_() or "
                               "w.grad = None) before each backward",
    "ch04.batches.name": "your gradient for batch {k}",
    "ch04.two.retain": "the second backward found the shared part of the graph freed: pass "
                       "retain_graph=True to the first backward()",
    "ch04.two.autograd_grad": "the exercise is about two backward() calls through one graph: "
                             "use loss.backward(retain_graph=True) and read w.grad, not "
                             "ag.autograd.grad",
    "ch04.two.built_twice": "build h = x @ w once and let both losses share it: the point is "
                           "two backward passes through the same graph (retain_graph=True)",
    "ch04.two.not_a_pair": "return a pair: (gradient of the first loss, gradient of the second)",
    "ch04.two.includes_first": "your second gradient includes the first: backward() adds into "
                               "w.grad, so reset it (w.grad = None) between the two",
    "ch04.two.same_numbers": "both gradients are the same numbers: if you returned w.grad "
                             "twice, it is one tensor that backward() changes in place; store "
                             "w.grad.clone()",
    "ch04.two.first_name": "your first gradient",
    "ch04.two.second_name": "your second gradient",
}
MESSAGES.update(CHAPTERS_5_TO_10)
MESSAGES.update(CHAPTER_11)
MESSAGES.update(CHAPTER_12)
MESSAGES.update(CHAPTER_13)
MESSAGES.update(VALUE)
