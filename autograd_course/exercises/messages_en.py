"""The checkers' messages in English: key -> :meth:`str.format` template.

The English chapters print these lines and strict nbval compares them byte for byte, so a
change here is a change to the committed notebook outputs. ``messages_zh`` has the same keys
and the same placeholders.
"""

from __future__ import annotations

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
    "ch01.accumulate.add_wrong": "a.grad is {a_grad:g} after b = a + a; expected 2",
    "ch01.accumulate.mul_overwrites": "__add__ is fixed, but a * a gives a.grad = 3 instead of "
                                      "2a = 6: use `+=` in __mul__'s _backward too",
    "ch01.accumulate.mul_wrong": "a.grad is {a_grad:g} after p = a * a at a = 3; expected "
                                 "2a = 6",
    "ch01.accumulate.across_nodes": "for L = a*b + a expected a.grad = b + 1 = {b_plus_1:g} "
                                    "and b.grad = a = {a:g}, got {a_grad:g} and {b_grad:g}",
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
    "ch02.unbroadcast.name": "your result for {case}",
    "ch02.value.no_method": "your Value has no {method} method",
    "ch02.value.twice": "x ** 3 + x.tanh() uses x twice, and x.grad kept only one of the two "
                        "contributions: accumulate with `self.grad += ...`",
    "ch02.pow.forward": "x ** 3 at x = {x0} gave {got:.6g}, expected {want:.6g}",
    "ch02.pow.no_out_grad": "__pow__: multiply k * x**(k-1) by out.grad (the chain rule)",
    "ch02.pow.exponent": "__pow__: the derivative of x**k is k * x**(k-1): the exponent drops "
                         "by one",
    "ch02.pow.wrong": "__pow__: x.grad is {got:.6g} for x**3 at x = {x0}, out.grad = 1.5; "
                      "expected {want:.6g}",
    "ch02.tanh.forward": "tanh() at x = {x0} gave {got:.6g}, expected {want:.6g} (math.tanh)",
    "ch02.tanh.no_out_grad": "tanh: multiply 1 - tanh(x)**2 by out.grad (the chain rule)",
    "ch02.tanh.not_x": "tanh: the derivative is 1 - tanh(x)**2, with tanh(x) = out.data, not "
                       "1 - x**2",
    "ch02.tanh.wrong": "tanh: x.grad is {got:.6g} at x = {x0}, out.grad = 1.5; expected "
                       "{want:.6g}",
    # --- chapter 3 --------------------------------------------------------------------------------
    "ch03.graph.chain": "a * b chain",
    "ch03.graph.diamond": "diamond (x used twice)",
    "ch03.graph.constants": "layer with constant data",
    "ch03.graph.deep": "3000-step chain",
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
    "ch03.hook.in_place": "your hook changed grad in place; PyTorch's docs say a hook must not "
                         "modify its argument: return a new tensor, grad.clamp(-1, 1)",
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
    "ch03.backward.recursion": "a 3000-step chain raised RecursionError: build the order "
                               "without recursion — a depth-first walk with an explicit stack "
                               "that appends a value only after all its inputs (post-order), "
                               "then reversed",
    "ch03.backward.deep": "on a 3000-step chain of `* 1.0` the first value got grad {got:g}, "
                          "expected 1",
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
    # --- chapter 5 --------------------------------------------------------------------------------
    "ch05.none.why_a": "a is only used inside ag.no_grad(), so e = a * 2 was not recorded and no "
                       "edge leads back to a",
    "ch05.none.why_b": "b requires grad and reaches f through e * b, so backward fills b.grad",
    "ch05.none.why_c": "c reaches f only through c.detach(), which cuts it out of the graph",
    "ch05.none.why_d": "d never required grad, so autograd never gives it a .grad",
    "ch05.none.not_a_set": 'give a set of names, e.g. {{"a", "d"}}',
    "ch05.none.unknown": "{unknown} are not among the names 'a', 'b', 'c', 'd'",
    "ch05.none.not_none": "{name}.grad is not None: {why}",
    "ch05.none.none_too": "{name}.grad is None too: {why}",
    "ch05.snapshot.not_a_tensor": "snapshot should return a tensor, got {type}",
    "ch05.snapshot.name": "your snapshot",
    "ch05.snapshot.requires_grad": "your snapshot still requires grad (it is part of the "
                                   "graph): detach it",
    "ch05.snapshot.shares": "your snapshot shares memory with t (detach() is not a copy): add "
                            ".clone()",
    "ch05.snapshot.changed": "your snapshot changed when t was modified in place: it must own "
                             "its memory (use .clone())",
    "ch05.freeze.replaced": "freeze the parameters in place with requires_grad_(False); do not "
                            "replace them with new tensors",
    "ch05.freeze.last": "the last layer must stay trainable: its parameters should still "
                        "require grad",
    "ch05.freeze.some_params": "some of its parameters",
    "ch05.freeze.all_params": "its parameters",
    "ch05.freeze.not_frozen": "layer {i} is not frozen: {what} still require grad (call "
                              "requires_grad_(False) on every parameter of it)",
    "ch05.st.not_a_tensor": "clamp_st should return a tensor, got {type}",
    "ch05.st.unclamped": "the values are x itself: the forward pass must still be clamped to "
                         "[0, 1]",
    "ch05.st.values_name": "the values of your result",
    "ch05.st.no_requires_grad": "your result does not require grad, so no gradient reaches x: "
                                "only the clamp's correction should be detached, not the whole "
                                "result",
    "ch05.st.no_path": "no gradient reaches x: keep a path from x to the result that is not "
                       "detached",
    "ch05.st.detached_x": "you detached x and kept the clamp's correction in the graph; it is "
                          "the other way round: x carries the gradient, the correction is a "
                          "constant",
    "ch05.st.clamp_grad": "that is the gradient of the clamp itself, 0 wherever x was cut off; "
                          "the clamp's correction (clamped minus x) must be a constant for "
                          "autograd",
    "ch05.st.grad_name": "the gradient of your result with respect to x",
    # --- chapter 6 --------------------------------------------------------------------------------
    "ch06.gradient_for": "your gradient for {name}",
    "ch06.local_alone": "you returned the local derivative alone; the chain rule multiplies it "
                        "by grad_output",
    "ch06.sigmoid.none": "backward returned None for x: return grad_output times dσ/dx",
    "ch06.sigmoid.times_y": "you returned grad_output * y; the derivative of σ is "
                            "σ(x)·(1 − σ(x)) = y * (1 - y)",
    "ch06.sigmoid.alone": "you returned dσ/dx alone; the chain rule multiplies it by "
                          "grad_output",
    "ch06.div.none": "backward returned None for {name}, but {name} requires grad",
    "ch06.mul_constant.count": "{name}.backward must return one value per input of forward, in "
                               "order (expected {expected}, got {got})",
    "ch06.mul_constant.non_tensor": "{name}.backward returned a gradient for an input that is "
                                    "not a tensor; return None in that place",
    "ch06.mul_constant.none": "backward returned None for the tensor, but it requires grad",
    "ch06.mul_constant.identity": "that is still the note's backward: it passes grad_output "
                                  "through unchanged, as if the forward were the identity; what "
                                  "does multiplying by the constant do to the derivative?",
    "ch06.mul_constant.name": "your gradient for the tensor",
    "ch06.softplus.kept_on_ctx": "forward kept a tensor as ctx.{name}: save tensors with "
                                "ctx.save_for_backward(...) and read ctx.saved_tensors, "
                                "so that an in-place change before backward is caught",
    "ch06.softplus.forward_name": "the output of forward",
    "ch06.softplus.saved_nothing": "forward saved nothing, so backward has nothing to read: "
                                   "call ctx.save_for_backward(...) in forward with what "
                                   "backward needs",
    "ch06.softplus.inner_only": "e^x is the derivative of the inner 1 + e^x only; the outer log "
                                "contributes a factor too (chain rule inside the op)",
    "ch06.softplus.sign": "that is σ(-x), not the derivative of log(1 + e^x): check the sign of "
                          "the exponent",
    # --- chapter 7 --------------------------------------------------------------------------------
    "ch07.nesterov.in_place": "autograd refuses to update a leaf in place while recording: do "
                              "the update inside `with ag.no_grad():`",
    "ch07.nesterov.not_leaves": "your parameters stopped being leaves: update them in place "
                                "(p -= ... or p.sub_(...)) inside `with ag.no_grad():`",
    "ch07.nesterov.plain": "that is plain gradient descent: Nesterov keeps a momentum buffer "
                           "per parameter (in buffers[i]) and its step uses both the gradient "
                           "and the buffer",
    "ch07.nesterov.classical": "that is classical momentum (a step of lr * buf); Nesterov looks "
                               "ahead: its step is what the buffer would become if the current "
                               "gradient came in once more",
    "ch07.nesterov.ema": "that buffer is a moving average, momentum * buf + (1 - momentum) * "
                         "grad; SGD's momentum adds the whole gradient: buf = momentum * buf + "
                         "grad",
    "ch07.nesterov.not_stored": "buffers[i] is still None after your step: you never stored "
                                "the momentum buffer, so every step starts again from nothing. "
                                "Keep parameter i's buffer in buffers[i] for the next call",
    "ch07.nesterov.name": "parameter {k} after {steps} steps",
    "ch07.train.no_step": "optimizer.step() is never called: backward() only computes the "
                          "gradients; step() is what changes the parameters, once per batch "
                          "after backward()",
    "ch07.train.accumulate": "gradients accumulate from batch to batch: call "
                             "optimizer.zero_grad() before each backward()",
    "ch07.train.late": "you cleared the gradients between backward() and step(), so step() "
                       "sees none and the parameters never move",
    "ch07.train.name": "the trained {name}",
    # --- chapter 8 --------------------------------------------------------------------------------
    "ch08.pick.not_a_device": "return the device as the string 'cuda' or 'cpu', got {got!r}",
    "ch08.pick.always_cpu": "you return 'cpu' even when ag.cuda.is_available() says a GPU is "
                            "there: ask it each time the function runs",
    "ch08.pick.always_cuda": "without a GPU, 'cuda' fails at the first tensor you make: return "
                             "'cpu' when ag.cuda.is_available() is False",
    "ch08.pick.swapped": "the two answers are swapped: 'cuda' when a GPU is available, 'cpu' "
                         "when it is not",
    "ch08.step.wrong_device": "the batch is still on the CPU while the model is on the GPU: "
                              "move xb and yb to the model's device first",
    "ch08.step.not_moved": "{name} is never moved to the model's device: on a GPU machine this "
                           "step would fail. Call .to(...) with the device of the model's "
                           "parameters (it costs nothing when the tensor is already there)",
    "ch08.step.not_float": "return the loss as a Python number (loss.item()), not a {type}: a "
                           "tensor would keep its graph, and on a GPU its memory, alive",
    "ch08.step.no_step": "the parameters did not move: after backward(), call optimizer.step()",
    "ch08.step.loss": "the loss you return, {got:.6g}, is not the batch's mean squared error "
                      "before the step, {want:.6g}",
    "ch08.step.name": "the {name} after your step",
    # --- chapter 9 --------------------------------------------------------------------------------
    "ch09.graph.diamond": "diamond",
    "ch09.graph.shared": "shared leaves",
    "ch09.topo.recursion": "{graph}: RecursionError; use an explicit stack or queue instead of "
                           "recursion",
    "ch09.topo.twice": "{graph}: a node appears more than once in your order",
    "ch09.topo.missing": "{graph}: {missing} reachable node(s) missing and {extra} unexpected "
                         "item(s); list grad_fn nodes, AccumulateGrad included",
    "ch09.topo.before": "{graph}: {early} comes before {late}, which sends it a gradient; a "
                        "node may run only after everything that feeds it. Hint: count each "
                        "node's incoming edges first (Kahn's algorithm)",
    "ch09.exp.forward": "exp() computes the wrong value: got {got:.6g} for x = {x0:.4g}, "
                        "expected {want:.6g}",
    "ch09.exp.not_attached": "out._backward() of your exp() left x.grad at 0: define "
                             "_backward inside exp() and attach it with "
                             "`out._backward = _backward` before returning out (a function "
                             "that is only defined never runs)",
    "ch09.exp.overwrites": "the gradient of a value used twice must be added up: use "
                           "`self.grad += ...` in your _backward, not `=`",
    "ch09.exp.no_local": "your _backward forgot the local derivative: d/dx e^x = e^x, so "
                         "multiply out.grad by out.data",
    "ch09.exp.wrong": "x.grad is {got:.6g} for out = x*exp(x) + exp(x) at x = {x0:.4g}; "
                      "expected {want:.6g}",
    # --- chapter 10 ---------------------------------------------------------------------------
    "ch10.clamp.tuple": "a pre-hook returns a tuple, one gradient per output of the node (or None)",
    "ch10.clamp.no_grad": "x.grad is None: return the clamped gradients, do not drop them",
    "ch10.clamp.unchanged": "x got the gradients unchanged: return the clamped tuple from a "
                            "node.register_prehook hook",
    "ch10.clamp.posthook": "you clamped what the node sent to x (register_hook, a post-hook); "
                           "clamp what reaches it (register_prehook)",
    "ch10.clamp.name": "x.grad with your hook",
    "ch10.clamp.handle": "return the handle register_prehook gives you, so the hook can be removed",
    "ch10.clamp.removed": "x.grad after handle.remove()",
    "ch10.bytes.none": "saved_bytes returned None: return the total as an int",
    "ch10.bytes.type": "saved_bytes should return an int (a number of bytes), got {type}",
    "ch10.bytes.zero": "0 bytes: run fn(*inputs) inside saved_tensors_hooks and add up in pack",
    "ch10.bytes.count": "that is the number of saved tensors; add t.numel() * t.element_size()",
    "ch10.bytes.elements": "that is the number of elements; times element_size() (4 or 8 bytes)",
    "ch10.bytes.wrong": "you counted {got} bytes, the forward saves {want}",
    "ch10.ckpt.reentrant": "pass use_reentrant=False to checkpoint (not the reentrant variant)",
    "ch10.ckpt.nothing": "as much was saved as without checkpointing: wrap each block call in "
                         "checkpoint(block, h, use_reentrant=False)",
    "ch10.ckpt.output": "the output of your run",
    "ch10.ckpt.gradient": "a gradient after your checkpointed run",
    "ch10.ckpt.calls": "blocks ran {forward}x forward, {total}x in all; want {blocks}x, then 2x",
    "ch10.ckpt.some": "{saved} bytes of activations kept, expected {want}: checkpoint every block",
    "ch10.nan.none": "nan_source returned None: catch anomaly mode's RuntimeError, return the name",
    "ch10.nan.type": "nan_source should return the node's name as a string, got {type}",
    "ch10.nan.message": "return only the name, {want}, not the whole message",
    "ch10.nan.root": "{got} is the loss's own node; run backward under detect_anomaly",
    "ch10.nan.wrong": "you returned {got!r}; the node whose backward made the NaN is {want}",
    "ch10.hvp.create_graph": "pass create_graph=True to the first autograd.grad",
    "ch10.hvp.pair": "return only H v, not a pair (functional.hvp returns (f(x), H v))",
    "ch10.hvp.gradient": "that is the gradient of f; differentiate (gradient * v).sum() again",
    "ch10.hvp.name": "your H v",
}
