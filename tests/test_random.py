"""autograd_course.random against PyTorch's CPU generator (bit-for-bit, no tolerances)."""

from fractions import Fraction

import numpy as np
import pytest

from autograd_course import random as R

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

SEEDS = [0, 7, 2**40 + 3]
NUMELS = [1, 3, 15, 16, 17, 31, 100, 1000, 4097]
DTYPES = [(np.float32, torch.float32), (np.float64, torch.float64)]


def _shape(n):
    """Multi-dimensional shapes where possible, to check that C order is fill order."""
    return {100: (4, 25), 1000: (10, 10, 10), 4097: (17, 241)}.get(n, (n,))


def _pair(seed):
    return R.Generator().manual_seed(seed), torch.Generator().manual_seed(seed)


def _same_state(g, tg):
    np.testing.assert_array_equal(g.get_state(), tg.get_state().numpy())


# The float32 normal_fill path for >= 16 elements is ATen's AVX2 kernel (avx_mathfun.h);
# PyTorch builds without AVX2 use glibc's logf/sinf/cosf instead, which we do not model.
needs_avx2 = pytest.mark.skipif(
    torch.backends.cpu.get_cpu_capability() not in ("AVX2", "AVX512"),
    reason="PyTorch uses its glibc-based float32 normal kernel on this CPU")


def _intel_mkl():
    try:
        with open("/proc/cpuinfo") as f:
            intel = "GenuineIntel" in f.read()
    except OSError:
        intel = False
    return intel and torch.backends.mkl.is_available()


# ---- engine, seeding and state -------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1, 12345, 2**32 + 7, 2**64 - 1, -1, R.DEFAULT_SEED])
def test_seeding_matches_torch_state_bytes(seed):
    g, tg = _pair(seed)
    _same_state(g, tg)
    assert g.initial_seed() == tg.initial_seed()


def test_fresh_generator_uses_pytorch_default_seed():
    assert R.Generator().initial_seed() == torch.Generator().initial_seed() == R.DEFAULT_SEED
    _same_state(R.Generator(), torch.Generator())


def test_course_note_002_values():
    R.manual_seed(0)
    w = R.default_generator.normal((5, 3), np.float32)
    torch.manual_seed(0)
    np.testing.assert_array_equal(w, torch.randn(5, 3).numpy())
    assert w[0].tolist() == [1.5409960746765137, -0.293428897857666, -2.1787893772125244]


# ---- uniform and normal --------------------------------------------------------------------
@needs_avx2
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("n", NUMELS)
@pytest.mark.parametrize("dt,tdt", DTYPES)
def test_rand_randn_sequences(seed, n, dt, tdt):
    g, tg = _pair(seed)
    shape = _shape(n)
    for _ in range(3):                 # several calls in a row share the generator state
        np.testing.assert_array_equal(g.uniform(shape, dt),
                                      torch.rand(shape, dtype=tdt, generator=tg).numpy())
        np.testing.assert_array_equal(g.normal(shape, dt),
                                      torch.randn(shape, dtype=tdt, generator=tg).numpy())
    _same_state(g, tg)


@needs_avx2
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("n", NUMELS)
@pytest.mark.parametrize("dt,tdt", DTYPES)
def test_uniform_and_normal_with_parameters(seed, n, dt, tdt):
    g, tg = _pair(seed)
    shape = _shape(n)
    bound = 1 / np.sqrt(3 * n)          # like nn.init's kaiming_uniform_ bound
    for mean, std in [(0.0, 0.02), (0.5, 1.0), (-3.0, 2.5)]:
        t = torch.empty(shape, dtype=tdt)
        np.testing.assert_array_equal(g.uniform(shape, dt, -bound, bound),
                                      t.uniform_(-bound, bound, generator=tg).numpy())
        np.testing.assert_array_equal(g.uniform(shape, dt, mean, mean + std),
                                      t.uniform_(mean, mean + std, generator=tg).numpy())
        np.testing.assert_array_equal(g.normal(shape, dt, mean, std),
                                      t.normal_(mean, std, generator=tg).numpy())
    _same_state(g, tg)


@needs_avx2
@pytest.mark.parametrize("dt,tdt", DTYPES)
def test_large_normal_and_uniform(dt, tdt):
    """A million samples exercise every octant, the log's branches and rare FMA ties."""
    g, tg = _pair(2024)
    n = (1 << 20) + 5
    np.testing.assert_array_equal(g.normal((n,), dt, 0.1, 0.7),
                                  torch.empty(n, dtype=tdt).normal_(0.1, 0.7, generator=tg))
    np.testing.assert_array_equal(g.uniform((n,), dt, -2.0, 3.0),
                                  torch.empty(n, dtype=tdt).uniform_(-2.0, 3.0, generator=tg))


@needs_avx2
def test_mixed_sequence_keeps_normal_cache():
    """The scalar path caches r*sin in the generator; uniform, randint and normal_fill calls
    in between leave it alone, and the state bytes carry it."""
    g, tg = _pair(3)
    steps = [
        (lambda: g.normal((3,), np.float32), lambda: torch.randn(3, generator=tg)),
        (lambda: g.uniform((5,), np.float64), lambda: torch.rand(5, dtype=torch.float64,
                                                                 generator=tg)),
        (lambda: g.normal((40,), np.float32), lambda: torch.randn(40, generator=tg)),
        (lambda: g.randint(0, 10, (4,)), lambda: torch.randint(0, 10, (4,), generator=tg)),
        (lambda: g.normal((1,), np.float64, 2.0, 3.0),
         lambda: torch.empty(1, dtype=torch.float64).normal_(2.0, 3.0, generator=tg)),
        (lambda: g.normal((2,), np.float32), lambda: torch.randn(2, generator=tg)),
    ]
    for ours, theirs in steps:
        np.testing.assert_array_equal(ours(), theirs().numpy())
        _same_state(g, tg)


def test_empty_draws_consume_nothing():
    g, tg = _pair(5)
    assert g.normal((0, 3), np.float32).shape == (0, 3)
    assert g.uniform((0,), np.float64).shape == (0,)
    torch.randn(0, 3, generator=tg)
    _same_state(g, tg)


# ---- integers and masks --------------------------------------------------------------------
@pytest.mark.parametrize("seed", SEEDS)
def test_randint(seed):
    g, tg = _pair(seed)
    for low, high, shape in [(0, 10, (7,)), (-5, 7, (3, 4)), (0, 2**32, (9,)),
                             (3, 2**40 + 7, (5,)), (-2**62, 2**62, (6,)), (0, 1, (2,))]:
        ours = g.randint(low, high, shape)
        assert ours.dtype == np.int64
        np.testing.assert_array_equal(ours, torch.randint(low, high, shape, generator=tg))
    _same_state(g, tg)


@pytest.mark.parametrize("n", [0, 1, 2, 10, 1000, 60000])
def test_randperm(n):
    g, tg = _pair(n + 11)
    for _ in range(2):
        ours = g.randperm(n)
        assert ours.dtype == np.int64
        np.testing.assert_array_equal(ours, torch.randperm(n, generator=tg))
    _same_state(g, tg)


def test_random_int64_like_sampler_seed():
    g, tg = _pair(9)
    np.testing.assert_array_equal(g.random_int64((4,)),
                                  torch.empty(4, dtype=torch.int64).random_(generator=tg))
    assert g.random_int64(()).shape == ()


@pytest.mark.skipif(_intel_mkl(), reason="PyTorch draws bernoulli_(p) from MKL's stream on Intel")
@pytest.mark.parametrize("p", [0.0, 0.1, 0.5, 0.9, 1.0])
@pytest.mark.parametrize("dt,tdt", DTYPES)
def test_bernoulli_scalar_p(p, dt, tdt):
    g, tg = _pair(21)
    for n in [1, 17, 1000]:
        ours = g.bernoulli((n,), p, dt)
        assert ours.dtype == dt
        np.testing.assert_array_equal(ours, torch.empty(n, dtype=tdt).bernoulli_(p, generator=tg))
    _same_state(g, tg)


# ---- state round trips ---------------------------------------------------------------------
def test_get_set_state_round_trip():
    g = R.Generator().manual_seed(4)
    g.normal((1,), np.float64)            # leaves a cached normal sample behind
    state = g.get_state()
    a = [g.normal((3,), np.float32), g.uniform((20,), np.float32), g.randperm(9)]
    g.manual_seed(99)
    g.set_state(state)
    b = [g.normal((3,), np.float32), g.uniform((20,), np.float32), g.randperm(9)]
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)


@needs_avx2
def test_state_interchanges_with_torch():
    tg = torch.Generator().manual_seed(8)
    torch.randn(5, generator=tg)           # odd count: torch holds a cached sample
    g = R.Generator()
    g.set_state(tg.get_state().numpy())
    np.testing.assert_array_equal(g.normal((3,), np.float32), torch.randn(3, generator=tg))
    np.testing.assert_array_equal(g.normal((20,), np.float32), torch.randn(20, generator=tg))
    tg.set_state(torch.from_numpy(g.get_state()))
    np.testing.assert_array_equal(g.normal((1,), np.float64),
                                  torch.randn(1, dtype=torch.float64, generator=tg))
    _same_state(g, tg)


def test_module_level_functions_use_default_generator():
    assert R.manual_seed(17) is R.default_generator
    assert R.initial_seed() == 17
    state = R.get_rng_state()
    a = R.default_generator.uniform((4,), np.float32)
    R.set_rng_state(state)
    np.testing.assert_array_equal(a, R.default_generator.uniform((4,), np.float32))
    s = R.seed()
    assert R.initial_seed() == s and 0 <= s < 2**64
    torch_g = torch.Generator().manual_seed(s)
    np.testing.assert_array_equal(R.get_rng_state(), torch_g.get_state().numpy())


def test_errors():
    g = R.Generator()
    with pytest.raises(ValueError):
        g.normal((3,), np.float32, 0.0, -1.0)
    with pytest.raises(ValueError):
        g.randint(5, 5, (2,))
    with pytest.raises(ValueError):
        g.set_state(np.zeros(10, np.uint8))
    with pytest.raises(ValueError):
        g.bernoulli((2,), 1.5, np.float32)
    with pytest.raises(TypeError):
        g.uniform((2,), np.int64)


# ---- the exact FMA emulation the float kernels rely on -------------------------------------
def _exact_fma(a, b, c, dtype):
    """a*b + c rounded once to dtype (ties to even), from the exact rational value."""
    exact = Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))
    guess = dtype(float(exact))       # float() rounds correctly to float64, maybe not to float32
    near = [np.nextafter(guess, dtype(-np.inf)), guess, np.nextafter(guess, dtype(np.inf))]
    return min(near, key=lambda v: (abs(Fraction(float(v)) - exact),
                                    int(np.array(v).view(f"i{np.dtype(dtype).itemsize}") & 1)))


def test_fma32_is_correctly_rounded_including_double_rounding_ties():
    rng = np.random.default_rng(0)
    a, b, c = (rng.standard_normal(20000).astype(np.float32) * 2.0 ** rng.integers(-30, 30, 20000)
               for _ in range(3))
    a, b, c = (x.astype(np.float32) for x in (a, b, c))
    # 1 + 2**-11 + 2**-24 is a float32 halfway point; adding 2**-60 must round up even though
    # the float64 sum rounds back onto the halfway point.
    t = np.float32(1 + 2**-12)
    a, b, c = (np.append(x, v) for x, v in ((a, t), (b, t), (c, np.float32(2.0**-60))))
    ours = R._fma32(a, b, c)
    ref = np.array([_exact_fma(*v, np.float32) for v in zip(a, b, c)], np.float32)
    np.testing.assert_array_equal(ours, ref)
    assert ours[-1] == np.float32(1 + 2**-11 + 2**-23)


def test_fma64_is_correctly_rounded():
    rng = np.random.default_rng(1)
    a, b, c = (rng.standard_normal(20000) * 2.0 ** rng.integers(-40, 40, 20000) for _ in range(3))
    # (1 + 2**-26) * (1 + 2**-27) = 1 + 3 * 2**-27 + 2**-53 is a float64 halfway point
    a, b, c = np.append(a, 1 + 2.0**-26), np.append(b, 1 + 2.0**-27), np.append(c, 2.0**-200)
    ours = R._fma64(a, b, c)
    ref = np.array([_exact_fma(*v, np.float64) for v in zip(a, b, c)])
    np.testing.assert_array_equal(ours, ref)
    assert ours[-1] == 1 + 3 * 2.0**-27 + 2.0**-52
