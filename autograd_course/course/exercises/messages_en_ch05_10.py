"""The checkers' messages in English for chapters 5 to 10 (``messages_en`` has the rest and
merges these in): key -> :meth:`str.format` template."""

from __future__ import annotations

MESSAGES: dict[str, str] = {
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
    "ch07.accum.no_step": "the parameters did not move: after the last micro-batch's "
                          "backward(), call optimizer.step() once",
    "ch07.accum.step_each": "optimizer.step() ran {steps} times: accumulate the gradients of "
                            "every micro-batch first, then step once",
    "ch07.accum.zero_inside": "only the last micro-batch counted: zero_grad() inside the loop "
                              "throws the earlier gradients away; clear once, before the loop",
    "ch07.accum.unscaled": "the step is {n} times too long: .grad adds up the {n} losses' "
                           "gradients, and the batch's loss is their mean; divide each loss by "
                           "{n} before backward()",
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
    "ch09.exp.taken_away": "your exp() calls the exp() of the class it inherits from "
                           "(super().exp() or Value.exp), the one taken away: write it "
                           "yourself, a result MyValue(math.exp(self.data), (self,)) with its "
                           "own _backward",
    "ch09.exp.no_child": "for out = x.exp().exp(), backward() left x.grad at {got:.6g}, expected "
                         "{want:.6g}: exp's result must list self among its children "
                         "(MyValue(..., (self,))), or backward() never reaches self and stops "
                         "there",
    "ch09.exp.overwrites": "the gradient of a value used twice must be added up: use "
                           "`self.grad += ...` in your _backward, not `=`",
    "ch09.exp.no_local": "your _backward forgot the local derivative: d/dx e^x = e^x, so "
                         "multiply out.grad by out.data",
    "ch09.exp.wrong": "x.grad is {got:.6g} for out = x*exp(x) + exp(x) at x = {x0:.4g}; "
                      "expected {want:.6g}",
    "ch09.deps.recursion": "RecursionError on a chain of 3000 nodes: walk the graph with your "
                           "own stack in a loop, not with a function that calls itself",
    "ch09.deps.type": "return a dict {{node: number of edges pointing at it}}, not a {type}",
    "ch09.deps.none_edge": "your dict has None as a key: an edge (None, 0) is an input that needs "
                           "no gradient, not a node; skip it",
    "ch09.deps.root": "you gave t.grad_fn a count of {got}: no edge of the graph points at the "
                      "node you start from (leave it out, or count 0)",
    "ch09.deps.missing": "{missing} node(s) below t.grad_fn have no count, {node} among them: "
                         "follow next_functions all the way down, AccumulateGrad nodes included",
    "ch09.deps.revisit": "{node} has {got}, but only {want} edge(s) point at it: you counted a "
                         "node's outgoing edges each time you reached it; count them once, the "
                         "first time (keep a set of the nodes already seen)",
    "ch09.deps.parents": "{node} has {got}, but {want} edges point at it: you counted the nodes "
                         "that point at it, not the edges; x * x sends two edges to one "
                         "AccumulateGrad, and it receives two gradients",
    "ch09.deps.few": "{node} has {got}, but {want} edge(s) point at it: add 1 for every edge "
                     "of next_functions that points at it",
    "ch09.loop.recursion": "RecursionError on a chain of 3000 nodes: keep your own stack or "
                           "queue in a loop instead of a function that calls itself",
    "ch09.loop.none_edge": "an edge of next_functions can be (None, 0): an input that needs no "
                           "gradient. Skip it when you count and when you deliver",
    "ch09.loop.type": "return the list of the nodes in the order you called them, not a {type}",
    "ch09.loop.twice": "{node} ran {times} times: a node runs once, after all its gradients "
                       "have arrived; collect them in a buffer and add them up first",
    "ch09.loop.missing": "{missing} reachable node(s) missing from your order and {extra} "
                         "unexpected item(s): every node below root.grad_fn runs once, the "
                         "AccumulateGrad nodes of the leaves included",
    "ch09.loop.early": "{early} ran before {late}, which sends it a gradient: it ran with only "
                       "part of its gradient. Count each node's incoming edges first, and run "
                       "a node only when its count reaches 0 (Kahn's algorithm)",
    "ch09.loop.no_grad": "leaf {k} got no .grad: call each leaf's AccumulateGrad node with its "
                         "gradient (it adds it into .grad)",
    "ch09.loop.recorded": "a leaf's .grad has a grad_fn: the engine runs the nodes with grad "
                          "mode off; put your loop under `with ag.no_grad():`",
    "ch09.loop.start": "the gradients are those for a starting gradient of ones: start the "
                       "root's buffer with the grad you were given",
    "ch09.loop.sum": "leaf {k}'s .grad is {got}, the engine's {want}: where several gradients "
                     "reach one node, add them in its buffer (an overwritten one is lost)",
    "ch09.loop.tuple": "leaf {k}'s .grad has shape {got}, the leaf {want}: a node with one "
                       "input returns one tensor, not a tuple, and zip(node.next_functions, "
                       "grads) over a tensor walks its elements; wrap it first, "
                       "grads = (grads,)",
    "ch09.loop.same_order": "in the very order the engine runs them",
    "ch09.loop.other_order": "a valid order; the engine's differs: among the ready nodes it runs "
                             "the newest first",
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
    "ch10.bytes.pack_none": "the bytes add up, but backward fails after your forward ({error}): "
                            "pack's return value is what backward gets back through unpack, so "
                            "pack must return the tensor (return t)",
    "ch10.bytes.wrong": "you counted {got} bytes, the forward saves {want}",
    "ch10.ckpt.reentrant": "pass use_reentrant=False to checkpoint (not the reentrant variant)",
    "ch10.ckpt.nothing": "as much was saved as without checkpointing: wrap each block call in "
                         "checkpoint(block, h, use_reentrant=False)",
    "ch10.ckpt.output": "the output of your run",
    "ch10.ckpt.gradient": "a gradient after your checkpointed run",
    "ch10.ckpt.calls": "the blocks ran {forward} times in the forward pass and {backward} times "
                       "during backward; expected {blocks} times in the forward pass and "
                       "{blocks} times during backward: a checkpointed block runs once more in "
                       "backward, to recompute what it did not keep, so every one of the "
                       "{blocks} blocks must be called through checkpoint, once",
    "ch10.ckpt.some": "{saved} bytes of activations kept, expected {want}: checkpoint every block",
    "ch10.nan.none": "nan_source returned None: catch anomaly mode's RuntimeError, return the name",
    "ch10.nan.type": "nan_source should return the node's name as a string, got {type}",
    "ch10.nan.message": "return only the name, {want}, not the whole message",
    "ch10.nan.root": "{got} is the loss's own node; run backward under detect_anomaly",
    "ch10.nan.wrong": "you returned {got!r}; the node whose backward made the NaN is {want}",
    "ch10.hvp.create_graph": "pass create_graph=True to the first autograd.grad",
    "ch10.hvp.x_no_grad": "the x you differentiate with respect to does not require grad, so "
                          "f(x) has no graph (a .detach(), or a new tensor made from x's "
                          "values): differentiate f(x) with respect to the x you were given, "
                          "or a copy made with x.detach().requires_grad_()",
    "ch10.hvp.detached": "the first gradient was taken with create_graph=True, but a .detach() "
                         "(or .data) cut it off its graph before the second autograd.grad",
    "ch10.hvp.pair": "return only H v, not a pair (functional.hvp returns (f(x), H v))",
    "ch10.hvp.gradient": "that is the gradient of f; differentiate (gradient * v).sum() again",
    "ch10.hvp.no_vector": "that is H times a vector of ones: multiply the gradient by v before "
                          "the second autograd.grad",
    "ch10.hvp.name": "your H v",
    "ch10.gp.type": "return the penalty as a tensor (backward needs its graph), not a {type}",
    "ch10.gp.shape": "your penalty has shape {shape}: take the mean over the rows, one number",
    "ch10.gp.rows": "that is the norm of the whole gradient matrix: take the norm of each row "
                    "(norm(dim=1)), one per example, then the mean of (norm - 1)²",
    "ch10.gp.value": "your penalty is {got:.6g}, expected {want:.6g}: the mean over the rows "
                     "of (‖gradient row‖ - 1)²",
    "ch10.gp.create_graph": "the value is right but the penalty has no graph: the gradient "
                            "was taken without create_graph=True, so the parameters cannot be "
                            "trained through it",
    "ch10.gp.x_no_grad": "the x you differentiate with respect to does not require grad, so "
                         "critic(x) has no graph leading to it (a .detach(), or a new tensor "
                         "made from x's values): take the gradient with respect to the x you "
                         "were given, or a copy made with x.detach().requires_grad_()",
    "ch10.gp.detached": "the value is right but the penalty has no graph, although "
                        "create_graph=True recorded one: a .detach() (or .data) cut it off",
    "ch10.gp.name": "the parameters' gradient of your penalty",
}
