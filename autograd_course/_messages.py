"""PyTorch's error and warning texts, word for word, in one place.

A learner who meets an error here should meet the same words they will meet in PyTorch (and
can search for). Long texts are constants; texts with values in them are small functions.
"""

from __future__ import annotations

import warnings

_WARNED: set[str] = set()
_WARN_ALWAYS = [False]  # torch.set_warn_always(True): the once-only warnings come every time


def set_warn_always(b: bool) -> None:
    """PyTorch's ``torch.set_warn_always(b)``: ``True`` gives the once-only warnings every
    time."""
    _WARN_ALWAYS[0] = bool(b)


def is_warn_always_enabled() -> bool:
    return _WARN_ALWAYS[0]


def warn_once(message: str, stacklevel: int = 1) -> None:
    """A UserWarning given the first time only (PyTorch's C++ ``TORCH_WARN_ONCE``)."""
    if _WARN_ALWAYS[0] or message not in _WARNED:
        _WARNED.add(message)
        warnings.warn(message, UserWarning, stacklevel=stacklevel + 1)

_TYPE_NAMES = {"float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long",
               "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte",
               "bool": "Bool"}
_C_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half",
            "int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
            "uint8": "unsigned char", "bool": "bool"}


def type_name(np_dtype) -> str:
    """'torch.FloatTensor' for float32: the legacy type name PyTorch prints."""
    return f"torch.{_TYPE_NAMES[str(np_dtype)]}Tensor"


def c_name(np_dtype) -> str:
    """The C++ type name PyTorch prints for a dtype in some messages ('double', 'long int')."""
    return _C_NAMES[str(np_dtype)]


# --- tensors --------------------------------------------------------------------------------
NON_LEAF_GRAD = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
    "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. "
    "If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor "
    "instead. See github.com/pytorch/pytorch/pull/30531 for more information."
)

REQUIRES_GRAD_DTYPE = "only Tensors of floating point and complex dtype can require gradients"

DETACH_VIEW = (
    "Can't detach views in-place. Use detach() instead. If you are using "
    "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set as True, "
    "gradients are views of DDP buckets, and hence detach_() cannot be called on these "
    "gradients. To fix this error, please refer to the Optimizer.zero_grad() function in "
    "torch/optim/optimizer.py as the solution."
)

DEEPCOPY_NON_LEAF = (
    "Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol "
    "at the moment.  If you were attempting to deepcopy a module, this may be because of a "
    "torch.nn.utils.weight_norm usage, see https://github.com/pytorch/pytorch/pull/103001"
)


def set_requires_grad_non_leaf(flag: bool) -> str:
    message = "you can only change requires_grad flags of leaf variables."
    if not flag:
        message += (" If you want to use a computed variable in a subgraph that doesn't "
                    "require differentiation use var_no_grad = var.detach().")
    return message


def python_type(value) -> str:
    """A value's type as PyTorch's messages name it: NumPy's with their module
    ('numpy.ndarray', 'numpy.float64'), others by their name ('list', 'int')."""
    kind = type(value)
    return f"numpy.{kind.__name__}" if kind.__module__ == "numpy" else kind.__name__


def must_be_tensor(function: str, argument: str, position: int, value) -> str:
    """PyTorch's argument parser, for an op whose one signature wants a tensor there."""
    return (f"{function}(): argument '{argument}' (position {position}) must be Tensor, not "
            f"{python_type(value)}")


def invalid_combination(function: str, args: tuple, signatures: tuple[str, ...]) -> str:
    """PyTorch's argument parser when none of an op's overloads takes ``args``: the types it
    got, then one line per signature."""
    got = ", ".join(python_type(a) for a in args)
    overloads = "".join(f" * ({signature})\n" for signature in signatures)
    return (f"{function}() received an invalid combination of arguments - got ({got}), but "
            f"expected one of:\n{overloads}")


def grad_type(value) -> str:
    return ("assigned grad expected to be a Tensor or None but got grad of type "
            f"{python_type(value)}")


def grad_size(got, expected) -> str:
    return (f"attempting to assign a gradient of size '{list(got)}' to a tensor of size "
            f"'{list(expected)}'. Please ensure that the gradient and the tensor are the same "
            "size")


def grad_dtype_with_grad(wanted, existing) -> str:
    return (f"Cannot set grad_dtype to '{_TYPE_NAMES[str(wanted)]}' because there is already a "
            f"gradient with dtype '{c_name(existing)}'. Please clear the gradient (.grad = None) "
            "before changing grad_dtype, or ensure the new grad_dtype matches the existing "
            "gradient's dtype.")


def grad_dtype(got, expected) -> str:
    return (f"attempting to assign a gradient with dtype '{c_name(got)}' to a tensor with "
            f"grad_dtype '{_TYPE_NAMES[str(expected)]}'. The gradient must match the tensor's "
            "grad_dtype (defaults to the tensor's dtype). You can set the tensor's grad_dtype "
            "attribute with a specific dtype, or None to allow any dtype. Set grad_dtype with "
            "caution. Diverging the dtypes of a tensor and its gradient may break downstream "
            "systems that assume they match.")


# --- Function and saved tensors ---------------------------------------------------------------
LEAF_IN_PLACE = "a leaf Variable that requires grad is being used in an in-place operation."
VIEW_OF_LEAF_IN_PLACE = "a view of " + LEAF_IN_PLACE
LEAF_MARKED_DIRTY = "a leaf Variable that requires grad has been used in an in-place operation."

DIFFERENTIATED_TWICE = ("trying to differentiate twice a function that was marked with "
                        "@once_differentiable")
FREED = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward."
)

INSTANTIATED = (
    "{cls} should not be instantiated. Methods on autograd functions are all static, so you "
    "should invoke them on the class itself. Instantiating an autograd function will raise an "
    "error in a future version of PyTorch."
)

LEGACY_CALL = (
    "Legacy autograd function with non-static forward method is deprecated. Please use "
    "new-style autograd function with static forward method. (Example: "
    "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)"
)

NO_FORWARD = "You must implement the forward function for custom autograd.Function."

NO_BACKWARD = ("You must implement either the backward or vjp method for your custom "
               "autograd.Function to use it with backward mode AD.")
NO_VMAP = ("To use autograd.Function with vmap, you must either override the vmap staticmethod "
           "or set generate_vmap_rule=True.")


def keyword_past_gap(missing: str, position: int) -> str:
    return f"forward() missing required argument: '{missing}' (position {position})"


def not_a_variable(position: int, value) -> str:
    return (f"save_for_backward can only save variables, but argument {position} is of type "
            f"{type(value).__name__}")


def modified_by_inplace(np_dtype, shape, maker: str | None, output_nr: int, version: int,
                        expected: int) -> str:
    """A saved tensor was changed in place after it was saved."""
    kind = "CPUBoolType" if str(np_dtype) == "bool" else type_name(np_dtype)
    where = f", which is output {output_nr} of {maker}," if maker else ""
    return ("one of the variables needed for gradient computation has been modified by an "
            f"inplace operation: [{kind} [{', '.join(str(s) for s in shape)}]]{where} is at "
            f"version {version}; expected version {expected} instead. Hint: enable anomaly "
            "detection to find the operation that failed to compute its gradient, with "
            "torch.autograd.set_detect_anomaly(True, check_nan=False).")


# --- the engine -------------------------------------------------------------------------------
CREATE_GRAPH_IN_BACKWARD = (
    "Using backward() with create_graph=True will create a reference cycle between the "
    "parameter and its gradient which can cause a memory leak. We recommend using "
    "autograd.grad when creating the graph to avoid this. If you have to use this function, "
    "make sure to reset the .grad fields of your parameters to None after use to break the "
    "cycle and avoid the leak."
)

IMPLICIT_GRAD = "grad can be implicitly created only for scalar outputs"
EDGE_ROOT_NEEDS_GRAD = (  # (not PyTorch's: it makes torch.ones from the node's metadata)
    "backward from a GradientEdge needs its gradient given (grad_tensors / grad_outputs): "
    "autograd_course makes a tensor only from another tensor, and an edge holds none")
ONLY_INPUTS_IGNORED = ("only_inputs argument is deprecated and is ignored now (defaults to True). "
                       "To accumulate gradient for other parts of the graph, please use "
                       "torch.autograd.backward.")


def no_grad_fn(i: int) -> str:
    return f"element {i} of tensors does not require grad and does not have a grad_fn"


def unused_input(i: int) -> str:
    return (f"The differentiated Tensor at index {i} appears to not have been used in the "
            "graph. Set allow_unused=True if this is the desired behavior.")


def shape_mismatch(i: int, grad_shape, shape) -> str:
    return (f"Mismatch in shape: grad_output[{i}] has a shape of {grad_shape!r} and "
            f"output[{i}] has a shape of {shape!r}.")


def wrong_gradient_count(name: str, expected: int, got: int) -> str:
    return (f"function {name} returned an incorrect number of gradients (expected {expected}, "
            f"got {got})")


def gradient_for_non_tensor(name: str, i: int) -> str:
    return (f"function {name} returned a gradient different than None at position {i + 1}, "
            "but the corresponding forward input was not a Variable")


def invalid_gradient_shape(name: str, i: int, got, expected) -> str:
    return (f"Function {name} returned an invalid gradient at index {i} - got {list(got)} but "
            f"expected shape compatible with {list(expected)}")


def hook_changed_size(hook) -> str:
    return f"hook '{getattr(hook, '__name__', type(hook).__name__)}' has changed the size of value"


def hook_changed_type(hook, was, got) -> str:
    return (f"hook '{getattr(hook, '__name__', type(hook).__name__)}' has changed the type of "
            f"value (was {type_name(was)} got {type_name(got)})")


def hook_returned(value) -> str:
    return f"expected Variable, but hook returned '{type(value).__name__}'"


POST_ACCUMULATE_NON_LEAF = "post accumulate grad hooks cannot be registered on non-leaf tensors"
DIRTY_NOT_RETURNED = (
    "Some elements marked as dirty during the forward method were not returned as output. The "
    "inputs that are modified inplace must all be outputs of the Function.")


# --- views written into in place (autograd/views.py) ----------------------------------------
def view_made_in(output: str | None, inference: bool) -> str:
    """A view taken under no_grad (or in inference mode), written into with grad mode on;
    ``output`` ("Output 0 of SplitBackward0") for a view of a view, else None."""
    made = "A view was created in" if output is None else \
        f"{output} is a view of a view which was created in"
    if inference:
        return f"{made} inference mode and is being modified inplace in normal mode."
    return f"{made} no_grad mode and is being modified inplace with grad mode enabled."


def view_modified_inplace(output: str) -> str:
    return f"{output} is a view and is being modified inplace."


# why each of those writes is refused, and what to do instead
VIEW_MADE_IN_NO_GRAD = (
    "Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify "
    "your code by moving both the view and the inplace either both inside the no_grad block "
    "(if you don't want the inplace to be tracked) or both outside (if you want the inplace to "
    "be tracked).")

VIEW_MADE_IN_INFERENCE = (
    "Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify "
    "your code by moving both the view and the inplace either both inside the inference_mode "
    "block (if you don't want the inplace to be tracked) or both outside (if you want the "
    "inplace to be tracked).")

VIEW_OF_CUSTOM_FUNCTION = (
    "This view was created inside a custom Function (or because an input was returned as-is) "
    "and the autograd logic to handle view+inplace would override the custom backward "
    "associated with the custom Function, leading to incorrect gradients. This behavior is "
    "forbidden. You can fix this by cloning the output of the custom Function.")

VIEW_OF_MULTIPLE_OUTPUTS = (
    "This view is the output of a function that returns multiple views. Such functions do not "
    "allow the output views to be modified inplace. You should replace the inplace operation by "
    "an out-of-place one.")

DIRTY_NOT_AN_INPUT = ("ctx.mark_dirty() received a tensor that was not an input. Only input "
                      "Tensors that have been mutated should be passed to ctx.mark_dirty().")

DIRTY_VIEW_OF_SEVERAL = (
    "If your Function modifies inplace an input that is a view of another Tensor, your Function "
    "cannot return more than one Tensor. This is not supported by the current autograd engine. "
    "You should either make sure the input is not a view (using .clone() for example) or make "
    "your Function only return one Tensor (potentially splitting it into two Functions: one "
    "doing the inplace that returns a single Tensor and a second one that does the other "
    "operations). You can ask on the forum https://discuss.pytorch.org/ if you need help to do "
    "this change.")


# --- inference tensors (autograd/grad_mode.py:inference_mode) --------------------------------
INFERENCE_INPLACE = (
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a "
    "clone to get a normal tensor before doing inplace update.See "
    "https://github.com/pytorch/rfcs/pull/17 for more details.")

INFERENCE_REQUIRES_GRAD = (
    "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.")

INFERENCE_SAVED = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a "
    "clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead of "
    "`torch.inference_mode()`.")


def no_forward_ad(op_name: str) -> str:
    """An op without a forward-mode rule (autograd/forward_ad.py), named as ATen names it."""
    return (f"Trying to use forward AD with {op_name} that does not support it because it has "
            "not been implemented yet.\nPlease file an issue to PyTorch at "
            "https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml so that "
            "we can prioritize its implementation or submit a PR adding the implementation to "
            "derivatives.yaml")
