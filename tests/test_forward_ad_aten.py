"""What PyTorch's TestAutogradForwardMode checks about storage layouts, in our own words and
compared with torch: a tensor's place in its storage (``storage_offset``, strides, the
storage's length), ATen's ``_new_zeros_with_same_feature_meta``, ``as_strided`` counting from
the storage, ``make_dual`` copying a tangent laid out otherwise than its primal, and ATen's
``convolution_backward`` (its output mask, its values, its forward-mode derivative).
"""

from __future__ import annotations

import pytest
from oracle_helpers import assert_like_torch

import autograd_course as ag


def _layout(t):
    """Where a tensor sits in its storage: [shape, strides, offset, storage length]."""
    return [tuple(t.shape), t.stride(), t.storage_offset(),
            t.untyped_storage().nbytes() // t.element_size(), t.is_contiguous()]


# tensors whose layout in their storage is not the plain one, as the test builds them
MADE = {
    "narrowed": lambda m: m.randn(5).narrow(0, 1, 2),
    "transposed": lambda m: m.randn(2, 3, 4).transpose(0, 1).contiguous().transpose(0, 1),
    "resized": lambda m: m.randn(5).resize_(4),
    "empty": lambda m: m.randn(1, 0, 2),
    "scalar": lambda m: m.tensor(1.0),
    "row": lambda m: m.arange(12.0).view(3, 4)[1],
    "column": lambda m: m.arange(12.0).view(3, 4)[:, 2],
    "unfolded": lambda m: m.arange(10.0)[1:].unfold(0, 3, 2),
    "strided": lambda m: m.arange(10.0).as_strided((2, 2), (3, 1), 4),
}


@pytest.mark.parametrize("name", sorted(MADE))
def test_storage_offset_strides_and_storage_length(torch_oracle, name):
    assert_like_torch(lambda m: _layout(MADE[name](m)))


PAIRS = [  # (t, target): t's leading dims become batch dims on a tensor laid out as target
    (lambda m: m.randn(5, dtype=m.float32), lambda m: m.randn(2, 3, 4, dtype=m.float64)),
    (MADE["transposed"], lambda m: m.randn(2, 3, 4)),
    (MADE["narrowed"], lambda m: m.randn(2)),
    (MADE["resized"], lambda m: m.randn(4)),
    (MADE["empty"], lambda m: m.randn(1, 2)),
    (MADE["scalar"], lambda m: m.randn(1, 2)),
    (lambda m: m.randn(3, 2), MADE["column"]),
]


@pytest.mark.parametrize("pair", range(len(PAIRS)))
@pytest.mark.parametrize("swap", [False, True])
def test_new_zeros_with_same_feature_meta(torch_oracle, pair, swap):
    """Zeros laid out as the target (sizes, strides, offset, dtype), each batch entry taking
    a whole storage of the target's length, for every count of batch dims."""
    def case(m):
        a, b = PAIRS[pair][0](m), PAIRS[pair][1](m)
        t, target = (b, a) if swap else (a, b)
        shown = []
        for k in range(t.dim()):
            r = m.ops.aten._new_zeros_with_same_feature_meta(t, target, self_num_batch_dims=k)
            layout = _layout(r)
            if r.numel() == 0:  # an empty tensor's strides here are always the contiguous
                layout[1] = layout[1][k:]  # ones (NumPy keeps none): its feature dims agree
            shown.append([r, str(r.dtype)] + layout)
        return shown

    assert_like_torch(case)


def test_has_same_storage_numel(torch_oracle):
    def case(m):
        same = m.ops.aten._has_same_storage_numel
        x = m.randn(5)
        return [same(x[:4], x), same(x[:4], m.randn(4)), same(m.randn(2, 2), m.randn(4))]

    assert_like_torch(case)


# --- as_strided counts from the storage ------------------------------------------------------
VIEWS = {  # x (a view of a leaf that requires grad) and the as_strided taken of it
    "offset default": (lambda b: b[2:], ((3,), (2,))),
    "offset given": (lambda b: b[3:], ((2, 2), (1, 2), 1)),
    "transposed": (lambda b: b.view(2, 4).t(), ((2, 2), (1, 4))),
    "transposed offset": (lambda b: b.view(2, 4).t(), ((3,), (2,), 2)),
    "overlapping": (lambda b: b[:2].expand(3, 2), ((2,), (1,), 0)),
    "row": (lambda b: b.view(2, 4)[1], ((2, 2), (1, 1))),
}


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_as_strided_of_a_view_reads_the_storage(torch_oracle, name):
    """Values, the view's place, and the gradient reaching the leaf (shared out among the
    elements of an expanded x that stand on one storage position)."""
    make, args = VIEWS[name]

    def case(m):
        base = m.arange(8.0, dtype=m.float64).requires_grad_()
        y = make(base).as_strided(*args)
        (y * m.arange(1.0, y.numel() + 1, dtype=m.float64).view(y.shape)).sum().backward()
        return [y, y.storage_offset(), y.stride(), base.grad]

    assert_like_torch(case)


def test_as_strided_past_the_end_of_the_storage_is_refused(torch_oracle):
    assert_like_torch(lambda m: m.arange(6.0)[2:].as_strided((3,), (1,), 4))


def test_as_strided_gradgradcheck_on_a_view(torch_oracle):
    def case(m):
        base = m.arange(8.0, dtype=m.float64).requires_grad_()
        fn = lambda b: b[1:].view(7)[2:].as_strided((2, 2), (1, 2), 3).pow(2)
        return [m.autograd.gradcheck(fn, [base]), m.autograd.gradgradcheck(fn, [base])]

    assert_like_torch(case)


# --- make_dual keeps a tangent laid out as its primal, or copies it -------------------------
TANGENTS = {  # (primal, tangent): does the tangent share the primal's layout?
    "shorter storage": (lambda m: m.randn(5)[:4].detach(), lambda m: m.randn(4)),
    "longer storage": (lambda m: m.randn(4), lambda m: m.randn(6)[1:5]),
    "transposed": (lambda m: m.randn(2, 3), lambda m: m.randn(3, 2).t()),
    "same layout": (lambda m: m.randn(2, 3), lambda m: m.randn(2, 3)),
    "same view": (lambda m: m.randn(6)[1:4], lambda m: m.randn(6)[1:4]),
}


@pytest.mark.parametrize("name", sorted(TANGENTS))
def test_make_dual_lays_the_tangent_out_as_the_primal(torch_oracle, name):
    """The unpacked tangent has the primal's layout; it is the given tangent itself only when
    that already had it (else a copy: writing into it leaves the given one alone)."""
    def case(m):
        m.manual_seed(0)
        primal, tangent = TANGENTS[name][0](m), TANGENTS[name][1](m)
        kept = tangent.clone()
        with m.autograd.forward_ad.dual_level():
            dual = m.autograd.forward_ad.make_dual(primal, tangent)
            unpacked = m.autograd.forward_ad.unpack_dual(dual).tangent
            shared = unpacked.data_ptr() == tangent.data_ptr()
            unpacked.mul_(2)
            return [_layout(unpacked), _layout(primal), shared, m.equal(tangent, kept)]

    ours = assert_like_torch(case)
    assert ours[1][2] is (name.startswith("same"))  # the check can fail both ways


def test_as_strided_of_a_dual_with_a_short_tangent_storage(torch_oracle):
    """``as_strided`` reaching past the primal's last element but inside its storage: the
    tangent, copied into a storage as long as the primal's, can take the same view."""
    def case(m):
        primal = m.arange(5.0)[:4].detach()
        with m.autograd.forward_ad.dual_level():
            dual = m.autograd.forward_ad.make_dual(primal, m.arange(10.0, 14.0))
            out = dual.as_strided((5,), (1,), 0)
            p, t = m.autograd.forward_ad.unpack_dual(out)
            return [p, t]

    assert_like_torch(case)


# --- convolution_backward --------------------------------------------------------------------
CONVS = [  # (input shape, weight shape, stride, padding, dilation, groups)
    ((1, 1, 6, 6), (2, 1, 3, 3), (1, 1), (0, 0), (1, 1), 1),
    ((2, 4, 7, 5), (6, 2, 3, 2), (2, 1), (1, 2), (1, 2), 2),
    ((1, 3, 8), (4, 3, 3), (2,), (1,), (2,), 1),
]
MASKS = [(True, True, True), (False, True, False), (True, False, True), (False, False, False)]


def _conv_case(k, mask, dual=None):
    x_shape, w_shape, stride, padding, dilation, groups = CONVS[k]
    conv = {3: "conv1d", 4: "conv2d"}[len(x_shape)]

    def case(m):
        gen = m.Generator().manual_seed(k)
        x = m.randn(x_shape, generator=gen, dtype=m.float64)
        w = m.randn(w_shape, generator=gen, dtype=m.float64)
        out = getattr(m.nn.functional, conv)(x, w, None, stride, padding, dilation, groups)
        g = m.randn(out.shape, generator=gen, dtype=m.float64)
        args = [g, x, w]
        with m.autograd.forward_ad.dual_level():
            for i in dual or ():
                args[i] = m.autograd.forward_ad.make_dual(args[i], m.ones_like(args[i]))
            grads = m.ops.aten.convolution_backward(
                *args, (w_shape[0],), stride, padding, dilation, False,
                (0,) * len(stride), groups, mask)
            unpacked = [None if r is None else list(m.autograd.forward_ad.unpack_dual(r))
                        for r in grads]
        return [[None if r is None else r[0] for r in unpacked],
                [None if r is None or r[1] is None else r[1] for r in unpacked]]

    return case


@pytest.mark.parametrize("k", range(len(CONVS)))
@pytest.mark.parametrize("mask", MASKS)
def test_convolution_backward_values_and_mask(torch_oracle, k, mask):
    """(grad_input, grad_weight, grad_bias) for a convolution, None where the mask says."""
    ours = assert_like_torch(_conv_case(k, mask), rtol=1e-10, atol=1e-10)
    assert [r is None for r in ours[1][0]] == [not m for m in mask]


@pytest.mark.parametrize("k", range(len(CONVS)))
@pytest.mark.parametrize("dual", [(2,), (0,), (1,), (0, 1, 2)])
def test_convolution_backward_forward_mode(torch_oracle, k, dual):
    """With dual inputs each gradient carries its tangent; a masked-out one stays None."""
    assert_like_torch(_conv_case(k, (False, True, True), dual), rtol=1e-10, atol=1e-10)
    assert_like_torch(_conv_case(k, (True, True, True), dual), rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("in_dims", [0, 1])
@pytest.mark.parametrize("offset", [None, 1])
def test_as_strided_inside_vmap_counts_from_each_example(torch_oracle, in_dims, offset):
    """Under vmap an example's storage offsets start at the example (its storage_offset() is
    the batch's), nested vmap too."""
    def case(m):
        args = ((2,), (1,)) if offset is None else ((2,), (1,), offset)
        x = m.arange(1.0, 25.0)[1:].view(2, 3, 4)
        inner = lambda t: [t.as_strided(*args), m.tensor(t.storage_offset())]
        return [m.func.vmap(inner, in_dims=in_dims)(x[0]),
                m.func.vmap(m.func.vmap(inner, in_dims=in_dims))(x)]

    assert_like_torch(case)


def test_convolution_backward_says_what_it_does_not_cover():
    """Transposed and 3-d convolutions are refused by name, not answered wrongly."""
    g, x, w = ag.ones(1, 2, 3, 3), ag.ones(1, 1, 3, 3), ag.ones(2, 1, 1, 1)
    with pytest.raises(NotImplementedError, match="transposed"):
        ag.ops.aten.convolution_backward(g, x, w, None, (1, 1), (0, 0), (1, 1), True, (0, 0),
                                         1, (True, True, False))
    with pytest.raises(NotImplementedError, match="1-d and 2-d"):
        ag.ops.aten.convolution_backward(ag.ones(1, 2, 3, 3, 3), ag.ones(1, 1, 3, 3, 3),
                                         ag.ones(2, 1, 1, 1, 1), None, (1, 1, 1), (0, 0, 0),
                                         (1, 1, 1), False, (0, 0, 0), 1, (True, True, False))
