"""``Tensor``'s methods, one mixin class per group, each in the file named for what its
methods do. ``tensor.py`` attaches them all in one place, the ``class Tensor(...)`` statement,
whose docstring lists the groups. None of them holds state: they work on the ``_data``
array, ``_device`` and the autograd state that ``TensorBase`` (tensor_base.py) keeps.
"""

from .conversions import Size, TensorConversions
from .in_place import TensorInPlace
from .indexing import TensorIndexing
from .new_tensors import TensorNewTensors
from .operators import TensorOperators
from .pointwise import TensorPointwise
from .printing import TensorPrinting
from .products import TensorProducts
from .reductions import TensorReductions
from .sampling import TensorSampling
from .shape import TensorShape
from .sorting import TensorSorting

__all__ = [
    "Size", "TensorConversions", "TensorInPlace", "TensorIndexing", "TensorNewTensors",
    "TensorOperators", "TensorPointwise", "TensorPrinting", "TensorProducts",
    "TensorReductions", "TensorSampling", "TensorShape", "TensorSorting",
]
