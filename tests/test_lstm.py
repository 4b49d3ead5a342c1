"""``nn.LSTM`` and ``nn.LSTMCell`` against torch's: the weights of a torch layer are copied in,
then outputs, final states and every gradient (input, initial state, parameters) must agree
to 1e-6, in float64 and float32; parameter names, seeded initialisation, repr and errors too."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import autograd_course as ac


def _copy_of(torch_layer, ours):
    """``ours`` with the parameters of ``torch_layer`` (same names, same order)."""
    theirs = dict(torch_layer.named_parameters())
    assert [name for name, _ in ours.named_parameters()] == list(theirs)
    with ac.no_grad():
        for name, p in ours.named_parameters():
            p.copy_(ac.tensor(theirs[name].detach().numpy()))
    return ours


def _as_numpy(t):
    return t.detach().numpy()


def _close(a, b, dtype):  # (the same tolerance for both dtypes)
    np.testing.assert_allclose(_as_numpy(a), _as_numpy(b), rtol=1e-6, atol=1e-6)


LSTM_CASES = {  # name: (constructor kwargs, input shape, state given?)
    "one layer": (dict(num_layers=1), (5, 3, 4), True),
    "two layers": (dict(num_layers=2), (5, 3, 4), True),
    "no state": (dict(num_layers=2), (4, 2, 4), False),
    "batch first": (dict(num_layers=2, batch_first=True), (3, 5, 4), True),
    "no bias": (dict(bias=False), (5, 3, 4), True),
    "unbatched": (dict(num_layers=2), (5, 4), True),
}


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("case", sorted(LSTM_CASES))
def test_lstm_matches_torch(case, dtype, torch_oracle):
    kwargs, shape, with_state = LSTM_CASES[case]
    torch_oracle.manual_seed(0)
    theirs = torch_oracle.nn.LSTM(4, 6, **kwargs).to(getattr(torch_oracle, dtype))
    ours = _copy_of(theirs, ac.nn.LSTM(4, 6, dtype=getattr(ac, dtype), **kwargs))
    rng = np.random.default_rng(0)
    layers, batched = kwargs.get("num_layers", 1), len(shape) == 3
    batch = shape[0] if kwargs.get("batch_first") else shape[1]
    state_shape = (layers, batch, 6) if batched else (layers, 6)
    arrays = [rng.standard_normal(s).astype(dtype) for s in (shape, state_shape, state_shape)]

    def run(m, layer):
        x, h0, c0 = (m.tensor(a, requires_grad=True) for a in arrays)
        out, (h, c) = layer(x, (h0, c0)) if with_state else layer(x)
        ((out * out).sum() + (h * 2).sum() + c.sum()).backward()
        grads = [x.grad] + ([h0.grad, c0.grad] if with_state else [])
        return [out, h, c] + grads + [p.grad for p in layer.parameters()]

    results = run(ac, ours), run(torch_oracle, theirs)
    assert [tuple(t.shape) for t in results[0]] == [tuple(t.shape) for t in results[1]]
    for a, b in zip(*results):
        assert str(a.dtype) == str(b.dtype)
        _close(a, b, dtype)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("batched", [True, False])
def test_lstm_cell_matches_torch(dtype, batched, torch_oracle):
    torch_oracle.manual_seed(1)
    theirs = torch_oracle.nn.LSTMCell(3, 5).to(getattr(torch_oracle, dtype))
    ours = _copy_of(theirs, ac.nn.LSTMCell(3, 5, dtype=getattr(ac, dtype)))
    rng = np.random.default_rng(1)
    shapes = [(2, 3), (2, 5), (2, 5)] if batched else [(3,), (5,), (5,)]
    arrays = [rng.standard_normal(s).astype(dtype) for s in shapes]

    def run(m, cell):
        x, h0, c0 = (m.tensor(a, requires_grad=True) for a in arrays)
        h, c = cell(x, (h0, c0))
        h1, c1 = cell(h[..., :3], (h, c))  # a second step, fed from the first
        (h1.sum() * 3 + (c1 * c1).sum()).backward()
        return [h, c, h1, c1, x.grad, h0.grad, c0.grad] + [p.grad for p in cell.parameters()]

    for a, b in zip(run(ac, ours), run(torch_oracle, theirs)):
        _close(a, b, dtype)
    h, c = ours(ac.tensor(arrays[0]))  # no state: zeros
    h_t, c_t = theirs(torch_oracle.tensor(arrays[0]))
    _close(h, h_t, dtype)
    _close(c, c_t, dtype)


def test_parameters_and_seeded_initialisation_are_torchs(torch_oracle):
    torch_oracle.manual_seed(3)
    ac.manual_seed(3)
    theirs, ours = torch_oracle.nn.LSTM(10, 20, 2), ac.nn.LSTM(10, 20, 2)
    assert [(n, tuple(p.shape)) for n, p in ours.named_parameters()] == [
        (n, tuple(p.shape)) for n, p in theirs.named_parameters()]
    assert [n for n, _ in ours.named_parameters()][:4] == [
        "weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0"]
    for (_, a), (_, b) in zip(ours.named_parameters(), theirs.named_parameters()):
        np.testing.assert_array_equal(_as_numpy(a), _as_numpy(b))  # the same draws
    bound = 1 / np.sqrt(20)
    assert all(np.abs(_as_numpy(p)).max() <= bound for p in ours.parameters())
    assert [n for n, _ in ac.nn.LSTM(3, 4, bias=False).named_parameters()] == [
        n for n, _ in torch_oracle.nn.LSTM(3, 4, bias=False).named_parameters()]


def test_repr_like_torchs(torch_oracle):
    for args, kwargs in [((10, 20), {}), ((10, 20, 2), {}),
                         ((3, 4), dict(num_layers=3, bias=False, batch_first=True,
                                       dropout=0.5))]:
        assert repr(ac.nn.LSTM(*args, **kwargs)) == repr(torch_oracle.nn.LSTM(*args, **kwargs))
    assert repr(ac.nn.LSTMCell(3, 4)) == repr(torch_oracle.nn.LSTMCell(3, 4))
    assert repr(ac.nn.LSTMCell(3, 4, bias=False)) == repr(
        torch_oracle.nn.LSTMCell(3, 4, bias=False))


def test_errors_and_warnings_like_torchs(torch_oracle):
    messages = []
    for m in (ac, torch_oracle):
        with pytest.raises(RuntimeError) as raised:
            m.nn.LSTM(10, 20)(m.zeros(5, 3, 7))
        messages.append(str(raised.value))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            m.nn.LSTM(3, 4, dropout=0.5)
        messages.append([str(w.message) for w in caught])
    assert messages[:2] == messages[2:]
    assert messages[0] == "input.size(-1) must be equal to input_size. Expected 10, got 7"
    with pytest.raises(NotImplementedError):
        ac.nn.LSTM(3, 4, bidirectional=True)


def test_dropout_between_layers_only_in_training():
    ac.manual_seed(0)
    lstm = ac.nn.LSTM(3, 4, num_layers=2, dropout=0.5)
    x = ac.randn(6, 2, 3)
    lstm.eval()
    first, second = lstm(x)[0], lstm(x)[0]
    assert np.array_equal(_as_numpy(first), _as_numpy(second))
    lstm.train()
    trained = [_as_numpy(lstm(x)[0]) for _ in range(3)]
    assert not all(np.array_equal(trained[0], t) for t in trained[1:])
