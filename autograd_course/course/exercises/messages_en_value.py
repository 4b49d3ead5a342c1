"""The checkers' messages in English for the learner's own ``Value`` and the network built on it
(chapters 1-3: numbers and labels, relu, Neuron, Layer, MLP and the payoff; ``messages_en``
merges these in): key -> :meth:`str.format` template."""

from __future__ import annotations

MESSAGES: dict[str, str] = {
    "ch01.numbers.memoryview": "{expr} fails: a NumPy float64 has a .data of its own (a "
                               "memoryview), so test isinstance(other, Value), not "
                               "hasattr(other, 'data'), before lifting a number into a Value",
    "ch01.numbers.lift": "{expr} fails in {method}: a plain number has no .data; lift it "
                         "first: other = other if isinstance(other, Value) else Value(other)",
    "ch01.numbers.reflected": "{expr} fails: the number on the left does not know Value, so "
                              "Python calls the Value's {method}; define it (a + and a * "
                              "that lift the number are enough: the order does not matter)",
    "ch01.numbers.not_float": "{expr} has data of type {type}: keep data a Python float "
                              "(self.data = float(data))",
    "ch01.numbers.forward": "{expr} gives data {got}, expected {want}",
    "ch01.numbers.grad": "after a backward pass through {expr}, a.grad is {got}, expected {want}",
    "ch01.numbers.label": "the result of {expr} has _op = {got!r}: pass the operation's label "
                          "when you make it, e.g. Value(..., (self, other), '+')",
    "ch01.numbers.same_label": "+ and * both label their result {label!r}: give each "
                               "operation its own label, so a drawing tells them apart",
    "ch02.relu.forward": "relu at x = {x0} gives {got}, expected max(x, 0) = {want}",
    "ch02.relu.times_x": "relu's local derivative is 1 where x > 0 and 0 elsewhere, not x: "
                         "self.grad += (self.data > 0) * out.grad",
    "ch02.relu.backward": "relu at x = {x0} sends {got} to x, expected {want} (out.grad where "
                          "x > 0, else 0), added with +=",
    "ch03.payoff.method_raises": "your Value's {method} fails on {expr}: {error}",
    "ch03.payoff.method": "your Value's {method} is wrong: {expr} gives data, a.grad, b.grad = "
                          "{got}, expected {want}; fix {method} (its exercise's checker says "
                          "more), then run the payoff again",
    "ch03.payoff.step": "your Value's operations agree with the reference, yet the step differs "
                        "(loss by {loss_gap:.2e}, parameters by {gap:.2e}): look at Neuron, "
                        "Layer, MLP (the order of parameters()) and mse",
    "ch03.payoff.waiting": "the payoff waits for these exercises: {exercises}; the cells below "
                           "run once they are written (or their skip lines uncommented)",
    "ch03.payoff.ready": "your Value, Neuron, Layer and MLP are written: the payoff runs on them",
    "ch03.net.not_values": "{what} should hold Values (with .data and .grad)",
    "ch03.net.not_a_value": "{what} should be a Value, got {type}",
    "ch03.net.count": "{what} has {got} parameters, expected {want}: every weight and every "
                      "bias, each once",
    "ch03.net.nonlin": "{what} with nonlin={nonlin} computes the other kind of output: tanh "
                       "only when nonlin is True, the plain sum w·x + b otherwise",
    "ch03.net.order": "parameters() lists the bias first: list the weights first, then the "
                      "bias (self.w + [self.b]), the order the package's Linear uses too",
    "ch03.net.forward": "{what} gives {got}, expected {want}",
    "ch03.net.not_in_graph": "after a backward pass the parameters' grads are all 0: the "
                             "neuron must compute with its own Values, not copies of them",
    "ch03.net.grads": "after a backward pass through a {what}, the parameters' grads are "
                      "{got}, expected {want}",
    "ch03.net.layer_list": "layer(x) should be a list with one output per neuron, got {type}",
    "ch03.net.layer_forward": "layer(x) gives {got}, expected {want}: each neuron on the same x",
    "ch03.net.mlp_one": "with one output neuron, mlp(x) should return that Value itself (x[0]), "
                        "not a list: the loss subtracts a number from it",
    "ch03.net.mlp_last_tanh": "the last layer applies tanh: make it linear (nonlin=False), so "
                              "the score can be any number",
    "ch03.net.mlp_no_tanh": "no layer applies tanh: every layer but the last needs it "
                            "(nonlin=True), else the network is one linear map",
    "ch03.net.mlp_many": "with two output neurons, mlp(x) should be a list of two Values, got "
                         "{type}",
}
