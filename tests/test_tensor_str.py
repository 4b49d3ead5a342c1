"""Oracle tests: ``tensor_repr`` must print exactly what PyTorch's ``repr(tensor)`` prints."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autograd_course.tensor_methods.printing import tensor_repr

torch = pytest.importorskip("torch")

FLOAT_DTYPES = [np.float32, np.float64, np.float16]
INT_DTYPES = [np.int64, np.int32, np.int16, np.int8, np.uint8]


def check(arr: np.ndarray) -> None:
    """Compare plain, requires_grad and grad_fn reprs of ``arr`` with PyTorch's."""
    arr = np.array(arr)  # writable copy, as torch.from_numpy wants
    assert tensor_repr(arr) == repr(torch.from_numpy(arr))
    if arr.dtype.kind == "f":
        leaf = torch.tensor(arr, requires_grad=True)
        assert tensor_repr(arr, requires_grad=True) == repr(leaf)
        product = leaf * 1
        assert tensor_repr(arr, requires_grad=True, grad_fn_name="MulBackward0") == repr(product)


# --- dtypes and dimensions -------------------------------------------------------------------


@pytest.mark.parametrize("dtype", FLOAT_DTYPES + INT_DTYPES)
@pytest.mark.parametrize("shape", [(), (1,), (5,), (2, 3), (2, 3, 4), (2, 1, 3, 2)])
def test_dtypes_and_dims(dtype, shape):
    rng = np.random.default_rng(0)
    values = rng.integers(-50, 120, size=shape)
    if np.dtype(dtype).kind == "u":
        values = np.abs(values)
    check(values.astype(dtype))
    if np.dtype(dtype).kind == "f":
        check((rng.standard_normal(shape) * 7).astype(dtype))


@pytest.mark.parametrize("shape", [(), (4,), (3, 2), (2, 2, 2)])
def test_bool(shape):
    rng = np.random.default_rng(1)
    check(rng.integers(0, 2, size=shape).astype(bool))
    check(np.ones(shape, dtype=bool))


def test_int_extremes_and_alignment():
    check(np.array([-128, 0, 127], dtype=np.int8))
    check(np.array([0, 255, 7], dtype=np.uint8))
    check(np.array([np.iinfo(np.int64).min, 1, 2], dtype=np.int64))
    check(np.array([[1, -200], [30000, 4]], dtype=np.int32))


# --- float styles ---------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize(
    "values",
    [
        [3.0, 3.0],
        [1.0, 2.5],
        [-12.0, 65.0],
        [0.1, 1000.0],  # ratio exactly 1e4 -> scientific
        [1.0, 999.0],  # ratio below 1000 -> integer style
        [1.0, 1001.0],  # ratio above 1000 -> scientific
        [1e-5, 0.5],  # tiny values -> scientific
        [1e-4, 2e-4],  # min == 1e-4 is not "< 1e-4" (in float32 it is slightly above)
        [1.5e9, 2.5e9],  # max > 1e8 -> scientific
        [123456.0, 123457.0],
        [0.0, -0.0],
        [-0.0, 100.0],
        [-0.0, 1.5],
        [math.nan],
        [math.inf, -math.inf, math.nan],
        [1.0, math.nan, -math.inf],
        [1.25, math.nan, math.inf, 0.0],
        [1e-8, math.inf],
        [-1.0, 2.0, -300.5],
        [0.00012345, 0.5],
        [5e-5],
        [65504.0, -65504.0],
    ],
)
def test_float_styles(dtype, values):
    with np.errstate(over="ignore"):
        check(np.array(values, dtype=dtype))
        check(np.array(values[0], dtype=dtype))  # 0-d


def test_huge_and_tiny_float64():
    check(np.array([1e300, -1e-300, 0.0]))
    check(np.array([[1e20, 1.0], [3.0, 7.0]]))
    check(np.array(np.finfo(np.float32).tiny, dtype=np.float32))


# --- wrapping, nesting and summarising -------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64, np.bool_])
@pytest.mark.parametrize("shape", [(30,), (3, 25), (2, 2, 40), (40, 2, 2, 2), (2, 3, 2, 12)])
def test_wide_rows_wrap(dtype, shape):
    rng = np.random.default_rng(2)
    check((rng.standard_normal(shape) * 100).astype(dtype))


@pytest.mark.parametrize(
    "shape", [(1001,), (2000,), (40, 40), (3, 400), (400, 3), (11, 10, 10), (5, 6, 7, 8), (10, 101)]
)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
def test_summarised(shape, dtype):
    rng = np.random.default_rng(3)
    check((rng.standard_normal(shape) * 50).astype(dtype))


def test_summary_formatter_ignores_hidden_values():
    arr = np.arange(2000, dtype=np.float32)
    arr[1000] = 1e-9  # hidden by "...": must not switch the visible numbers to scientific
    check(arr)
    check(np.arange(1200, dtype=np.int64).reshape(30, 40) - 600)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64, np.int8, np.bool_])
@pytest.mark.parametrize("shape", [(0,), (0, 3), (2, 0, 3), (3, 0), (1, 1, 0, 2)])
def test_empty(dtype, shape):
    check(np.zeros(shape, dtype=dtype))


# --- suffixes and prefix ----------------------------------------------------------------------


def test_suffix_wraps_past_line_width():
    # The row ends close to column 80, so the suffixes must move onto their own lines.
    for n in range(1, 14):
        check(np.linspace(-3, 3, n).astype(np.float64))
    assert tensor_repr(np.zeros(8), grad_fn_name="BinaryCrossEntropyWithLogitsBackward0") == repr(
        torch.zeros(8, dtype=torch.float64, requires_grad=True) * 1
    ).replace("MulBackward0", "BinaryCrossEntropyWithLogitsBackward0")


def test_device_suffix_order():
    arr = np.array([1.0, 2.0], dtype=np.float64)
    cpu = repr(torch.tensor([1.0, 2.0], dtype=torch.float64) + 0)
    assert tensor_repr(arr, device="cpu") == cpu
    assert tensor_repr(arr, device="cuda:0", grad_fn_name="AddBackward0") == (
        "tensor([1., 2.], device='cuda:0', dtype=torch.float64, grad_fn=<AddBackward0>)"
    )
    assert tensor_repr(np.zeros((0, 3), np.float32), device="cuda", requires_grad=True) == (
        "tensor([], device='cuda:0', size=(0, 3), requires_grad=True)"
    )


def test_grad_fn_wins_over_requires_grad():
    arr = np.array([1.0, 2.0], dtype=np.float32)
    assert tensor_repr(arr, requires_grad=True, grad_fn_name="AddBackward0") == repr(
        torch.tensor([1.0, 2.0], requires_grad=True) + 0
    )


def test_parameter_and_subclass_prefix():
    arr = np.array([[1.5, 2.0], [3.0, 4.0]], dtype=np.float32)
    param = torch.nn.Parameter(torch.from_numpy(arr.copy()))
    assert "Parameter containing:\n" + tensor_repr(arr, requires_grad=True) == repr(param)

    class MyTensor(torch.Tensor):
        pass

    rng = np.random.default_rng(4)
    for shape in [(2, 2), (3, 30), (2, 2, 20)]:
        data = rng.standard_normal(shape).astype(np.float32)
        expected = repr(torch.from_numpy(data).as_subclass(MyTensor))
        assert tensor_repr(data, prefix="MyTensor(") == expected


# --- measured strings from /work/shared/reference/torch_semantics.md ---------------------------


def test_reference_strings():
    f32 = np.float32
    assert tensor_repr(np.full((2, 2), 3, f32), grad_fn_name="AddBackward0") == (
        "tensor([[3., 3.],\n        [3., 3.]], grad_fn=<AddBackward0>)"
    )
    assert tensor_repr(np.array([-12, 65], f32), grad_fn_name="SubBackward0") == (
        "tensor([-12.,  65.], grad_fn=<SubBackward0>)"
    )
    z = np.array([1.3754574060440063, -0.6022735238075256, -4.812678813934326], f32)
    assert tensor_repr(z, grad_fn_name="AddBackward0") == (
        "tensor([ 1.3755, -0.6023, -4.8127], grad_fn=<AddBackward0>)"
    )
    assert tensor_repr(np.array([101, 3], f32), requires_grad=True) == (
        "tensor([101.,   3.], requires_grad=True)"
    )
    assert tensor_repr(np.array([36, 40.5], f32)) == "tensor([36.0000, 40.5000])"
    assert tensor_repr(np.array([2, 3], np.float64), requires_grad=True) == (
        "tensor([2., 3.], dtype=torch.float64, requires_grad=True)"
    )
    assert tensor_repr(np.array(2, f32), requires_grad=True) == "tensor(2., requires_grad=True)"
    assert (
        tensor_repr(
            np.array(0.681851327419281, f32), grad_fn_name=("BinaryCrossEntropyWithLogitsBackward0")
        )
        == "tensor(0.6819, grad_fn=<BinaryCrossEntropyWithLogitsBackward0>)"
    )
    assert tensor_repr(np.array([True, True])) == "tensor([True, True])"
    assert tensor_repr(np.array([-12, -8], f32)) == "tensor([-12.,  -8.])"
    assert tensor_repr(np.array([3.7183, 8.3891], f32), grad_fn_name="AddBackward0") == (
        "tensor([3.7183, 8.3891], grad_fn=<AddBackward0>)"
    )


def test_rejects_unsupported_dtype():
    with pytest.raises(TypeError):
        tensor_repr(np.array([1 + 2j]))


# --- property test -----------------------------------------------------------------------------


def _scaled(mantissa: float, exponent: int) -> float:
    return mantissa * 10.0**exponent


VALUES = st.one_of(
    st.floats(-10, 10),
    st.integers(-1000, 1000).map(float),
    st.builds(_scaled, st.floats(-10, 10), st.integers(-30, 30)),
    st.sampled_from([0.0, -0.0, math.nan, math.inf, -math.inf, 1e-4, 1e8, 1000.0]),
)


@st.composite
def arrays(draw):
    ndim = draw(st.integers(0, 3))
    shape = tuple(draw(st.integers(0, 6)) for _ in range(ndim))
    while math.prod(shape) > 60:
        shape = shape[1:]
    dtype = draw(st.sampled_from([np.float32, np.float64]))
    values = draw(st.lists(VALUES, min_size=math.prod(shape), max_size=math.prod(shape)))
    with np.errstate(over="ignore"):
        return np.array(values, dtype=np.float64).astype(dtype).reshape(shape)


@settings(max_examples=300, deadline=None)
@given(arrays())
def test_random_arrays_match_torch(arr):
    check(arr)
