"""PyTorch-identical CPU random numbers, in NumPy.

After ``manual_seed(s)`` every producer below returns bit for bit what PyTorch 2.13's CPU
kernels return after ``torch.manual_seed(s)`` (x86-64, checked in ``tests/test_random.py``).

Why the numbers can match
-------------------------
* Engine: PyTorch's CPU generator is MT19937 seeded with ``init_genrand(seed & 0xffffffff)``,
  the classic reference seeding. NumPy's ``MT19937`` bit generator runs the same recurrence,
  so we write the seeded key into it and read raw 32-bit words with ``random_raw``.
  ``random64()`` is two words, the first one the high half.
* Kernels: ATen's CPU kernels draw serially, one call per element in memory order, so each
  distribution is a vectorised function of a block of raw words. Every floating-point step
  is reproduced with the same rounding, including the multiply-adds GCC fuses into FMAs
  (emulated exactly below, because NumPy has no fma).

* float32 ``normal_`` with >= 16 elements runs ATen's AVX2 kernel (also picked on AVX-512
  machines): the Cephes ``log256_ps``/``sincos256_ps`` of avx_mathfun.h, ported lane for lane.
  float64 (and < 16 elements) uses glibc's ``log``/``log1p``/``sin``/``cos``, which Python's
  ``math`` module calls too.

Not matched: PyTorch seeds its *default* generator randomly at start-up; ours starts at
67280421310721 like a fresh ``torch.Generator()`` so runs are repeatable. PyTorch builds
running without AVX2 use glibc's ``logf``/``sinf``/``cosf`` for float32 normals instead. On
Intel CPUs with MKL, ``bernoulli_(p)`` uses MKL's own stream; we follow ATen's portable
kernel (the one used on AMD).
"""

from __future__ import annotations

import math
import os
import struct

import numpy as np

__all__ = ["Generator", "default_generator", "manual_seed", "seed", "initial_seed",
           "get_rng_state", "set_rng_state"]

_F32, _F64, _I64, _U64 = np.float32, np.float64, np.int64, np.uint64
DEFAULT_SEED = 67280421310721   # c10's default_rng_seed_val
_STATE_BYTES = 5056             # sizeof(CPUGeneratorImplState), torch.get_rng_state() layout
_CHUNK = 4096                   # rows of 16 per step: keeps the temporaries in cache


# ---- exact fused multiply-add (NumPy has none) ------------------------------------------------
def _two_sum(a, b):
    """s + e == a + b exactly, s = fl(a + b) (Knuth)."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _add_round_to_odd(a, b):
    """a + b rounded to odd: truncate, then set the last bit if anything was lost."""
    s, e = _two_sum(a, b)
    bits = np.asarray(s, _F64).view(_I64)
    fix = (e != 0) & ((bits & 1) == 0)
    step = np.where((e > 0) == (s > 0), 1, -1)
    return np.where(fix, (bits + step).view(_F64), s)


def _fma64(a, b, c):
    """fl(a*b + c) for doubles: exact product (Veltkamp/Dekker), then Boldo-Melquiond's
    round-to-odd sum, proven to round once like a hardware FMA."""
    a, b, c = (np.asarray(v, _F64) for v in (a, b, c))
    p = a * b
    at, bt = a * 134217729.0, b * 134217729.0
    ah, bh = at - (at - a), bt - (bt - b)
    al, bl = a - ah, b - bh
    perr = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    hi, lo = _two_sum(c, p)
    return hi + _add_round_to_odd(lo, perr)


def _fma32(a, b, c):
    """fl32(a*b + c): the float32 product is exact in float64, the sum is rounded once to 53
    bits and then to 24. That double rounding can only err when the 53-bit sum lands exactly
    on a float32 halfway point; those rare elements are redone with round-to-odd."""
    s = np.multiply(a, b, dtype=_F64)
    s += c
    r = s.astype(_F32)
    tie = (s.view(_I64) & 0x1FFFFFFF) == 0x10000000
    if tie.any():
        a_, b_, c_ = (np.broadcast_to(v, s.shape)[tie].astype(_F64) for v in (a, b, c))
        r[tie] = _add_round_to_odd(a_ * b_, c_).astype(_F32)
    return r


# ---- avx_mathfun.h (log256_ps, sincos256_ps) as compiled with FMA contraction ------------------
_LOG_P = [_F32(v) for v in (7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1,
                            1.4249322787e-1, -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1,
                            3.3333331174e-1)]
_HALF_BITS = np.array(0.5, _F32).view(np.int32)


def _log256(x: np.ndarray) -> np.ndarray:
    """Cephes logf on 8 lanes (Pommier/Garberoglio). x is in (0, 1], so the NaN mask for
    x <= 0 and the denormal clamp never fire."""
    bits = x.view(np.int32)
    e = ((bits >> 23) - 0x7F).astype(_F32) + _F32(1)
    x = ((bits & ~0x7F800000) | _HALF_BITS).view(_F32)        # mantissa in [0.5, 1)
    small = x < _F32(0.707106781186547524)
    e -= np.where(small, _F32(1), _F32(0))
    x = (x - _F32(1)) + np.where(small, x, _F32(0))           # x + x - 1 or x - 1
    z = x * x
    y = _fma32(_LOG_P[0], x, _LOG_P[1])
    for p in _LOG_P[2:]:
        y = _fma32(y, x, p)
    y = _fma32(y * x, z, e * _F32(-2.12194440e-4))            # first product is fused
    y = y - z * _F32(0.5)                                     # exact product: fma == mul+sub
    return (x + y) + e * _F32(0.693359375)                    # exact product again


def _sincos256(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Cephes sinf/cosf on 8 lanes for x >= 0: octant j, three-part pi/4 reduction, two
    polynomials chosen per octant. DP1, DP2 and 0.5 have so few bits that their products are
    exact, so only the DP3 step and the polynomials need a real FMA."""
    j = (x * _F32(1.27323954473516)).astype(np.int32)
    j = (j + 1) & ~1
    y = j.astype(_F32)
    x = (x + y * _F32(-0.78515625)) + y * _F32(-2.4187564849853515625e-4)
    x = _fma32(y, _F32(-3.77489497744594108e-8), x)
    z = x * x
    c = _fma32(_F32(2.443315711809948e-5), z, _F32(-1.388731625493765e-3))
    c = _fma32(c, z, _F32(4.166664568298827e-2))
    c = _fma32(c * z, z, -(z * _F32(0.5))) + _F32(1)
    s = _fma32(_F32(-1.9515295891e-4), z, _F32(8.3321608736e-3))
    s = _fma32(s, z, _F32(-1.6666654611e-1))
    s = _fma32(s * z, x, x)
    first = (j & 2) == 0
    sin = np.where(first, s, c)
    cos = np.where(first, c, s)
    sin = np.where((j & 4) != 0, -sin, sin)
    cos = np.where(((j - 2) & 4) == 0, -cos, cos)
    return sin, cos


def _normal_rows_f32(u: np.ndarray, mean: float, std: float) -> np.ndarray:
    """normal_fill_16_AVX2 on rows of 16 uniforms: Box-Muller of lanes j and j+8."""
    radius = np.sqrt(_F32(-2) * _log256(_F32(1) - u[:, :8]))
    sin, cos = _sincos256(_F32(2.0 * math.pi) * u[:, 8:])
    m, s = _F32(mean), _F32(std)
    parts = [radius * cos, radius * sin]
    if s == 1:
        return np.concatenate([p + m for p in parts], axis=1)
    return np.concatenate([_fma32(p, s, m) for p in parts], axis=1)


def _normal_rows_f64(u: np.ndarray, mean: float, std: float) -> np.ndarray:
    """normal_fill_16<double>: glibc log (via math.log; NumPy's SIMD log rounds differently),
    cos and sin (NumPy calls libm for float64 here), fused final multiply-add."""
    u1 = (1.0 - u[:, :8]).ravel()
    log = np.fromiter(map(math.log, u1.tolist()), _F64, u1.size).reshape(-1, 8)
    radius = np.sqrt(-2.0 * log)
    theta = 2.0 * math.pi * u[:, 8:]
    parts = [radius * np.cos(theta), radius * np.sin(theta)]
    if std == 1:
        return np.concatenate([p + mean for p in parts], axis=1)
    return np.concatenate([_fma64(p, std, mean) for p in parts], axis=1)


# ---- the generator ------------------------------------------------------------------------
class refusal:
    """While ``message`` is set, every draw raises it: what PyTorch's (legacy) vmap does with a
    random op inside it, as gradcheck's batched forward check sees (gradcheck_forward.py)."""
    message: str | None = None


class Generator:
    """A CPU generator with torch.Generator's seeding, state layout and distributions.

    The producers return NumPy arrays of the requested shape, filled in C order exactly as
    PyTorch fills a contiguous tensor (a non-contiguous torch tensor of >= 16 elements takes
    the scalar normal path instead; we always produce contiguous data).
    """

    def __init__(self, device: str = "cpu") -> None:
        if str(device) != "cpu":
            raise ValueError("autograd_course.random.Generator only models the CPU generator")
        self._bitgen = np.random.MT19937()
        self.manual_seed(DEFAULT_SEED)

    # -- seeding and state
    def manual_seed(self, seed: int) -> "Generator":
        """init_genrand on the low 32 bits; the full value (mod 2**64) is the initial seed."""
        self._seed = int(seed) % 2**64
        key, x = np.empty(624, np.uint32), self._seed & 0xFFFFFFFF
        for i in range(624):
            key[i] = x
            x = (1812433253 * (x ^ (x >> 30)) + i + 1) & 0xFFFFFFFF
        self._load(key, 624, fresh=True)
        self._normal_cache: float | None = None     # second Box-Muller sample (double)
        self._float_cache = b"\0" * 8               # unused float cache, kept for the layout
        return self

    def initial_seed(self) -> int:
        return self._seed

    def seed(self) -> int:
        """Reseed from the OS entropy pool and return the new seed."""
        s = int.from_bytes(os.urandom(8), "little")
        self.manual_seed(s)
        return s

    def _load(self, key: np.ndarray, pos: int, fresh: bool) -> None:
        self._bitgen.state = {"bit_generator": "MT19937", "state": {"key": key, "pos": pos}}
        self._fresh = fresh       # torch reports next=0 (not 624) until the first draw

    def get_state(self) -> np.ndarray:
        """The 5056 bytes torch.get_rng_state() would return (CPUGeneratorImplState)."""
        st = self._bitgen.state["state"]
        pos = int(st["pos"])
        left, nxt = (1, 0) if self._fresh else (625 - pos, pos)
        cache = self._normal_cache
        head = struct.pack("<QiiQ", self._seed, left, 1, nxt)
        tail = struct.pack("<dddi4x", 0.0, cache or 0.0, 0.0, cache is not None)
        raw = head + st["key"].astype(_U64).tobytes() + tail + self._float_cache
        return np.frombuffer(raw, np.uint8).copy()

    def set_state(self, state) -> None:
        """Accept what get_state() (or torch.get_rng_state().numpy()) returned."""
        raw = np.asarray(state, dtype=np.uint8).tobytes()
        if len(raw) != _STATE_BYTES:
            raise ValueError(f"RNG state must have {_STATE_BYTES} bytes, got {len(raw)}")
        seed, left, _, nxt = struct.unpack_from("<QiiQ", raw, 0)
        key = np.frombuffer(raw, _U64, 624, 24).astype(np.uint32)
        _, normal_y, _, valid = struct.unpack_from("<dddi", raw, 5016)
        self._seed = seed
        self._load(key, 625 - left, fresh=nxt == 0)
        self._normal_cache = normal_y if valid else None
        self._float_cache = raw[5048:]

    # -- raw draws
    def _u32(self, n: int) -> np.ndarray:
        if refusal.message is not None:  # (gradcheck's batched check, as PyTorch's vmap)
            raise RuntimeError(refusal.message)
        if n:
            self._fresh = False
        return self._bitgen.random_raw(n)                       # uint64 holding 32 bits

    def _u64(self, n: int) -> np.ndarray:
        r = self._u32(2 * n)
        return (r[0::2] << _U64(32)) | r[1::2]

    def _unit(self, n: int, dtype) -> np.ndarray:
        """uniform_real(val, 0, 1): the low 24 (float) or 53 (double) bits times 2**-bits."""
        if dtype == _F32:       # (the int32 detour only makes NumPy's conversion faster)
            r = self._u32(n).astype(np.uint32) & np.uint32(0xFFFFFF)
            return r.view(np.int32).astype(_F32) * _F32(2.0**-24)
        r = self._u32(2 * n)
        bits = ((r[0::2] & _U64(0x1FFFFF)) << _U64(32)) | r[1::2]
        return bits.view(_I64).astype(_F64) * 2.0**-53

    # -- distributions
    def uniform(self, shape, dtype, low: float = 0.0, high: float = 1.0) -> np.ndarray:
        """Tensor.uniform_(low, high): fma(x, to - from, from) in the tensor's dtype."""
        dtype = _float_dtype(dtype)
        n = math.prod(shape)
        x = self._unit(n, dtype)
        lo, hi = dtype.type(low), dtype.type(high)
        if (lo, hi) != (0, 1):
            fma, step = (_fma32 if dtype == _F32 else _fma64), 16 * _CHUNK
            for i in range(0, n, step):
                x[i:i + step] = fma(x[i:i + step], hi - lo, lo)
        return x.reshape(shape)

    def normal(self, shape, dtype, mean: float = 0.0, std: float = 1.0) -> np.ndarray:
        """Tensor.normal_(mean, std). Fewer than 16 elements: the scalar path. Otherwise
        normal_fill: all n uniforms first, Box-Muller on each block of 16 and, if n % 16,
        16 fresh uniforms that overwrite the last 16 outputs."""
        dtype = _float_dtype(dtype)
        if std < 0:
            raise ValueError(f"normal expects std >= 0.0, but found std {std}")
        n = math.prod(shape)
        if n < 16:
            return np.array([self._normal_scalar(mean, std) for _ in range(n)],
                            dtype).reshape(shape)
        u = self._unit(n, dtype)
        rows = _normal_rows_f32 if dtype == _F32 else _normal_rows_f64
        out, m = np.empty(n, dtype), n // 16 * 16
        for i in range(0, m, 16 * _CHUNK):
            j = min(i + 16 * _CHUNK, m)
            out[i:j] = rows(u[i:j].reshape(-1, 16), mean, std).ravel()
        if n % 16:
            out[n - 16:] = rows(self._unit(16, dtype).reshape(1, 16), mean, std).ravel()
        return out.reshape(shape)

    def _normal_scalar(self, mean: float, std: float) -> float:
        """normal_distribution<double>: Box-Muller on two 53-bit uniforms; r*sin is cached
        in the generator for the next call (any shape, any dtype)."""
        if self._normal_cache is not None:
            z, self._normal_cache = self._normal_cache, None
        else:
            u1, u2 = self._unit(2, _F64).tolist()
            r = math.sqrt(-2.0 * math.log1p(-u2))
            theta = 2.0 * math.pi * u1
            self._normal_cache = r * math.sin(theta)
            z = r * math.cos(theta)
        return float(_fma64(z, std, mean))

    def randint(self, low: int, high: int, shape) -> np.ndarray:
        """random_(from, to): raw % (to - from) + from, with random64 when the range
        needs more than 32 bits."""
        span = int(high) - int(low)
        if span <= 0:
            raise ValueError(f"random_ expects 'from' to be less than 'to', got {low} >= {high}")
        n = math.prod(shape)
        raw = self._u64(n) if span >= 2**32 else self._u32(n)
        return ((raw % _U64(span)).astype(_I64) + int(low)).reshape(shape)

    def random_int64(self, shape) -> np.ndarray:
        """int64 Tensor.random_() (no bounds): random64 % 2**63, as DataLoader's sampler
        uses to draw a seed."""
        return (self._u64(math.prod(shape)) % _U64(2**63)).astype(_I64).reshape(shape)

    def randperm(self, n: int) -> np.ndarray:
        """randperm_cpu for n < 2**32 / 20: swap i with i + random() % (n - i). The draws
        are vectorised; the swaps are inherently sequential (a plain list loop)."""
        if n >= (2**32 - 1) // 20:
            raise NotImplementedError("randperm beyond 214748363 elements is not modelled")
        zs = (self._u32(max(n - 1, 0)).astype(_I64) % np.arange(n, 1, -1)) + np.arange(n - 1)
        perm = list(range(n))
        for i, z in enumerate(zs.tolist()):
            perm[i], perm[z] = perm[z], perm[i]
        return np.array(perm, _I64)

    def bernoulli(self, shape, p: float, dtype) -> np.ndarray:
        """bernoulli_(p) with a float p: 53-bit uniform < p (ATen's portable kernel)."""
        if not 0 <= p <= 1:
            raise ValueError(f"bernoulli_ expects p to be in [0, 1], but got p={p}")
        return (self._unit(math.prod(shape), _F64) < p).astype(dtype).reshape(shape)

    def bernoulli_of(self, p: np.ndarray) -> np.ndarray:
        """Tensor.bernoulli() (probabilities from the tensor): one uniform per element, of
        the tensor's float width (24 or 53 bits), below its p, element by element in order."""
        u = self._unit(p.size, _float_dtype(p.dtype)).reshape(p.shape)
        return (u < p).astype(p.dtype)


def _float_dtype(dtype) -> np.dtype:
    dt = np.dtype(dtype)
    if dt not in (_F32, _F64):
        raise TypeError(f"random floats are implemented for float32/float64, not {dt}")
    return dt


default_generator = Generator()


def manual_seed(seed: int) -> Generator:
    """Seed the default generator (like torch.manual_seed) and return it."""
    return default_generator.manual_seed(seed)


def seed() -> int:
    return default_generator.seed()


def initial_seed() -> int:
    return default_generator.initial_seed()


def get_rng_state() -> np.ndarray:
    return default_generator.get_state()


def set_rng_state(state) -> None:
    default_generator.set_state(state)
