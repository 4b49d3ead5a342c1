"""The checkers' messages in English for chapter 12 (``messages_en`` merges these in): key ->
:meth:`str.format` template."""

from __future__ import annotations

MESSAGES: dict[str, str] = {
    "ch12.gain.not_a_number": "gain({name!r}) should be a number, got {type}",
    "ch12.gain.no_sqrt": "gain({name!r}) is {got:.4g}, the square of PyTorch's {want:.4g}: the "
                         "gain multiplies the weights, so it is the square root of the factor "
                         "the variance needs",
    "ch12.gain.one": "gain({name!r}) is 1, as for a linear layer: this nonlinearity changes the "
                     "variance, so its gain is {want:.4g}",
    "ch12.gain.tanh_derived": "gain('tanh') is {got:.4g}, the derivation's "
                              "1/sqrt(Var[tanh(x)]) for x ~ N(0, 1): right idea, but PyTorch "
                              "rounds it up to 5/3, which also makes up for tanh's slope below "
                              "1; return 5/3",
    "ch12.gain.wrong": "gain({name!r}) is {got:.4g}, PyTorch's calculate_gain gives {want:.4g}",
    "ch12.sat.not_a_name": "return the layer's name (a str, one of {names}), got {type}",
    "ch12.sat.unknown": "{got!r} is not a layer of this recording: its layers are {names}",
    "ch12.sat.nan": "{got!r} was not seen at the last step (its saturated fraction is nan): "
                    "leave out the nan values (math.isnan) before taking the largest",
    "ch12.sat.first_step": "{got!r} saturated most at the first step; at the last step "
                           "(history[...][...][-1]) it is {want!r}",
    "ch12.sat.std": "{got!r} has the largest std, not the largest saturated fraction: read "
                    "history['activations'][layer]['saturated'][-1]; the answer is {want!r}",
    "ch12.sat.mean": "{got!r} has the largest |mean|, not the largest saturated fraction: read "
                     "history['activations'][layer]['saturated'][-1]; the answer is {want!r}",
    "ch12.sat.least": "{got!r} is the least saturated layer: take the largest fraction (max), "
                      "which is {want!r}'s",
    "ch12.sat.wrong": "{got!r} is {got_value:.1%} saturated at the last step, but {want!r} is "
                      "{want_value:.1%}",
    "ch12.clip.none_grad": "your function fails on a parameter whose .grad is None ({error}): "
                           "skip those parameters, as clip_grad_norm_ does",
    "ch12.clip.not_in_place": "the gradients were not changed, but their total norm {total:.4g} "
                              "is above max_norm = {max_norm:g}: scale each p.grad in place "
                              "(p.grad.mul_(coef))",
    "ch12.clip.below": "the total norm {total:.4g} is already below max_norm = {max_norm:g}, "
                       "but you changed the gradients: the coefficient is clamped to at most 1",
    "ch12.clip.inf_as_two": "with norm_type=inf the total norm is the largest |gradient entry|, "
                            "not the 2-norm",
    "ch12.clip.no_eps": "your gradients are scaled by max_norm / total; clip_grad_norm_ uses "
                        "max_norm / (total + 1e-6) (here total = {total:.4g}), which keeps the "
                        "division safe when the total is 0",
    "ch12.clip.per_parameter": "you clipped each parameter by its own norm: clip_grad_norm_ "
                               "takes one norm of all the gradients together and scales them "
                               "all by the same coefficient",
    "ch12.clip.grads_differ": "your clipped gradients differ from clip_grad_norm_'s "
                              "(norm_type={norm_type}, max_norm={max_norm:g})",
    "ch12.clip.no_return": "your function returns None: return the total norm of the gradients "
                           "(before clipping), as clip_grad_norm_ does",
    "ch12.clip.not_a_number": "return the total norm as a number or a one-element tensor, "
                              "got {type}",
    "ch12.clip.after": "you returned {got:.6g}, the norm after clipping: return the total norm "
                       "before clipping, {want:.6g}",
    "ch12.clip.sum_of_norms": "you returned {got:.6g}, the sum of the parameters' norms: the "
                              "total norm is the norm of the vector of their norms, {want:.6g}",
    "ch12.clip.total_differs": "you returned {got:.6g}; the total {norm_type}-norm of the "
                               "gradients before clipping is {want:.6g}",
}
