"""The compiled loops of the fast kernels: scalar cores, and one loop per function and dtype.

The scalar cores (``exp_core``, ``log_core``...) are written once for float32 and float64:
numba compiles one specialization per type, and every constant they use arrives in a tuple
of that dtype (``constants(dtype)``), so float32 arithmetic stays float32. The loops are
closures over those tuples, built by ``kernels(dtype)`` when a kernel is first needed, and
cached on disk by numba (``cache=True``).

Numerics: exp reduces x = n ln2 + r with a two-part ln2 (Cody-Waite), evaluates exp(r) as
1 + r P(r) with a fitted polynomial P and scales by 2**n in two factors, so that overflow and
gradual underflow happen in an ordinary multiplication. log splits x = m 2**e with m in
[1/sqrt2, sqrt2) and evaluates log(m) = 2 s P(s*s), s = (m-1)/(m+1). The other kernels are
built on these two.

Loops compile with the fastmath flags ``nsz arcp contract afn``: no ``nnan``/``ninf``, so
NaN and infinite inputs keep their IEEE results, and no ``reassoc``, which would undo the
two-part reduction. ``rsqrt`` compiles with none: under ``afn`` and ``arcp``, LLVM turns
``1/sqrt(x)`` into the CPU's ``rsqrtps`` estimate and a Newton step, whose result differs
between CPU makers; with IEEE semantics every kernel's result depends on one thing only,
whether the CPU fuses multiply-adds.

>>> import numpy as np
>>> out = np.empty(2, np.float32)
>>> kernels(np.float32)["exp"](np.array([0.0, 1.0], np.float32), out)
>>> out.round(6)
array([1.      , 2.718282], dtype=float32)
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ._bits import COMPILED, float_bits, pow2, split_exponent
from ._polynomials import ERF_LIMIT, coefficients

__all__ = ["COMPILED", "FLAGS", "constants", "kernels"]

FLAGS = frozenset({"nsz", "arcp", "contract", "afn"})

if COMPILED:
    import numba
    import numba.extending

    def jit(fn: Callable) -> Callable:
        # error_model="numpy": x / 0 is inf as in NumPy, without a check that stops vectorizing
        return numba.njit(fastmath=set(FLAGS), error_model="numpy", cache=True)(fn)

    def inlined_jit(fn: Callable) -> Callable:
        """``jit``, inlined into its callers by numba before LLVM sees them."""
        return numba.njit(fastmath=set(FLAGS), error_model="numpy", inline="always")(fn)

    def exact_jit(fn: Callable) -> Callable:
        """A loop compiled with IEEE semantics: no fastmath flag at all."""
        return numba.njit(error_model="numpy", cache=True)(fn)

else:

    def jit(fn: Callable) -> Callable:
        return fn

    exact_jit = inlined_jit = jit


# ---- scalar cores ---------------------------------------------------------------------------


def horner(r: Any, c: tuple) -> Any:
    """c[0] + c[1] r + ... + c[-1] r**(len(c) - 1), by Horner's rule."""
    p = c[-1]
    for i in range(len(c) - 2, -1, -1):
        p = p * r + c[i]
    return p


if COMPILED:

    @numba.extending.overload(horner, jit_options={"fastmath": set(FLAGS), "error_model": "numpy"})
    def _horner_unrolled(r: Any, c: Any) -> Any:
        """``horner`` as straight-line code, one multiply-add per coefficient, in the same order.

        LLVM leaves a loop over a long tuple (erf's 17 float64 coefficients) rolled, and the
        tuple's variable index then keeps the calling loop from vectorizing: erf float64 ran
        about 50 times slower than its float32 twin.
        """
        n = c.count
        # the same parameters as this function's, annotations included, as numba requires
        lines = ["def horner_unrolled(r: 'Any', c: 'Any'):", f"    p = c[{n - 1}]"]
        lines += [f"    p = p * r + c[{i}]" for i in range(n - 2, -1, -1)]
        namespace: dict[str, Any] = {}
        source = "\n".join([*lines, "    return p"])
        exec(compile(source, "<horner_unrolled>", "exec", dont_inherit=True), namespace)
        return namespace["horner_unrolled"]


@jit
def reduce_exp(x: Any, k: tuple) -> tuple[Any, Any]:
    """(n, r) with x = n ln2 + r, |r| <= ln2/2, for x clamped to exp's range (NaN: its low end)."""
    lo, hi, log2e, ln2_hi, ln2_lo, half = k[0], k[1], k[2], k[3], k[4], k[5]
    v = x if x >= lo else lo
    v = v if v <= hi else hi
    n = np.floor(v * log2e + half)
    return n, (v - n * ln2_hi) - n * ln2_lo


@jit
def exp_core(x: Any, k: tuple) -> Any:
    n, r = reduce_exp(x, k)
    n1 = np.floor(n * k[5])
    # exp(r) = 1 + r P(r): exactly 1 at x = 0
    y = (k[6] + r * horner(r, k[7])) * pow2(n1) * pow2(n - n1)
    return y if x == x else x


@jit
def expm1_core(x: Any, k: tuple) -> Any:
    # e**x - 1 = (p s1 + s1 - 1/s2) s2 with p = expm1(r), s1 s2 = 2**n: exact for n = 0
    n, r = reduce_exp(x, k)
    n1 = np.floor(n * k[5])
    s1 = pow2(n1)
    s2 = pow2(n - n1)
    p = r * horner(r, k[7])
    y = (p * s1 + (s1 - pow2(n1 - n))) * s2
    return y if x == x else x


@jit
def log_normal(x: Any, k: tuple) -> tuple[Any, Any]:
    """(e, log(m)) with x = m 2**e, m in [1/sqrt2, sqrt2), for a normal positive finite x."""
    one = k[3]
    m, e = split_exponent(x)
    s = (m - one) / (m + one)
    return e, (s + s) * horner(s * s, k[7])


@jit
def log_parts(x: Any, k: tuple) -> tuple[Any, Any]:
    """``log_normal`` for any positive finite x, subnormal ones included."""
    tiny, up, up_exponent = k[0], k[1], k[2]
    small = x < tiny
    e, log_m = log_normal(x * up if small else x, k)
    return (e - up_exponent if small else e), log_m


@jit
def is_normal(x: Any, k: tuple) -> Any:
    """Whether x is positive, normal and finite: the inputs of ``log_normal``."""
    return (x >= k[0]) & (x < k[5])


@jit
def log_special(x: Any, y: Any, k: tuple) -> Any:
    """``y`` for a positive finite x; -inf at 0, inf at inf, NaN below 0 and at NaN."""
    zero, inf = k[4], k[5]
    special = -inf if x == zero else (x if x == inf else inf - inf)  # inf - inf: NaN
    return y if (x > zero) & (x < inf) else special


@jit
def log_core(x: Any, k: tuple) -> Any:
    e, log_m = log_parts(x, k)
    return log_special(x, e * k[8] + (log_m + e * k[9]), k)


@jit
def log1p_core(x: Any, k: tuple) -> Any:
    one, zero, inf = k[3], k[4], k[5]
    u = x + one
    # log(u) is log(1 + x) up to the rounding of u, which the correction puts back
    correction = (x - (u - one)) / u
    correction = correction if (u > zero) & (u < inf) else zero
    return log_core(u, k) + correction


@inlined_jit
def erf_core(x: Any, k: tuple, e: tuple) -> Any:
    one, limit = e[0], e[1]
    a = abs(x)
    t = a if a <= limit else limit
    t = t if t >= one else one
    tail = one - exp_core(-(t * t), k) * horner(one / t, e[3])
    tail = tail if x >= e[4] else -tail
    y = x * horner(x * x, e[2]) if a < one else tail
    return y if x == x else x


# ---- constants ------------------------------------------------------------------------------


def _split_ln2(dtype: type) -> tuple[Any, Any]:
    # n * ln2_hi is exact for every n of the dtype's range: ln2_hi keeps few significant bits
    bits = 16 if dtype is np.float32 else 32
    hi = round(math.log(2.0) * 2.0**bits) / 2.0**bits
    return dtype(hi), dtype(math.log(2.0) - hi)


@functools.cache
def constants(dtype: type) -> dict[str, tuple]:
    """The constant tuples the scalar cores take, for ``dtype``."""
    t = dtype
    c = coefficients(dtype)
    info = np.finfo(dtype)
    ln2_hi, ln2_lo = _split_ln2(dtype)
    lo = math.log(float(info.smallest_subnormal)) - 1.0
    hi = math.log(float(info.max)) + 0.01
    shift = info.nmant + 2
    return {
        "exp": (t(lo), t(hi), t(1 / math.log(2.0)), ln2_hi, ln2_lo, t(0.5), t(1.0), c["expm1"]),
        "log": (
            info.smallest_normal,
            t(2.0**shift),
            t(shift),
            t(1.0),
            t(0.0),
            t(np.inf),
            t(1 / math.log(2.0)),
            c["log"],
            ln2_hi,
            ln2_lo,
        ),
        "erf": (t(1.0), t(ERF_LIMIT[dtype]), c["erf_small"], c["erf_tail"], t(0.0)),
        "misc": (
            t(0.0),
            t(1.0),
            t(2.0),
            t(0.5),
            t(np.inf),
            t(math.sqrt(2.0 / math.pi)),
            t(0.044715),
            t(9.0 if dtype is np.float32 else 19.1),  # tanh rounds to +-1 beyond this
        ),
    }


# ---- loops ----------------------------------------------------------------------------------


@functools.cache
def kernels(dtype: type) -> dict[str, Callable]:
    """The loops for ``dtype``: ``name(x, out)`` over 1-d contiguous arrays.

    ``pow(x, p, out)`` takes two inputs of one shape.

    ``exp_shifted(x, m, out)`` writes exp(x[i, j] - m[i]) for a 2-d ``x``: the inner pass of
    softmax, log_softmax and logsumexp.
    """
    c = constants(dtype)
    k_exp, k_log, k_erf = c["exp"], c["log"], c["erf"]
    zero, one, two, half, inf, gelu_scale, gelu_cubic, tanh_limit = c["misc"]
    minus_two = -two
    ln2_hi, ln2_lo, log2e = k_log[8], k_log[9], k_log[6]
    integer = np.int32 if dtype is np.float32 else np.int64
    min_bits, max_bits = integer(np.iinfo(integer).min), integer(np.iinfo(integer).max)
    tiny_bits = integer(np.finfo(dtype).smallest_normal.view(integer))
    inf_bits = integer(np.array(np.inf, dtype).view(integer))

    @jit
    def exp(x: Any, out: Any) -> None:
        for i in range(x.size):
            out[i] = exp_core(x[i], k_exp)

    @jit
    def exp2(x: Any, out: Any) -> None:
        ln2 = k_exp[3] + k_exp[4]
        lo, hi = k_exp[0] * k_exp[2], k_exp[1] * k_exp[2]
        for i in range(x.size):
            v = x[i]
            w = v if v >= lo else lo
            w = w if w <= hi else hi
            n = np.floor(w + half)
            n1 = np.floor(n * half)
            r = (w - n) * ln2
            y = (k_exp[6] + r * horner(r, k_exp[7])) * pow2(n1) * pow2(n - n1)
            out[i] = y if v == v else v

    @jit
    def expm1(x: Any, out: Any) -> None:
        for i in range(x.size):
            out[i] = expm1_core(x[i], k_exp)

    # The log loops take the fast path for normal positive finite inputs, and keep the
    # smallest and largest bit pattern they met (integer min and max cost next to nothing,
    # unlike per-element checks); any other input (0, subnormal, negative, inf, NaN) falls
    # outside [tiny_bits, inf_bits), and the loop is then redone with the checks.

    @jit
    def log(x: Any, out: Any) -> None:
        lo, hi = max_bits, min_bits
        for i in range(x.size):
            v = x[i]
            bits = float_bits(v)
            lo, hi = min(lo, bits), max(hi, bits)
            e, log_m = log_normal(v, k_log)
            out[i] = e * ln2_hi + (log_m + e * ln2_lo)
        if lo < tiny_bits or hi >= inf_bits:
            for i in range(x.size):
                out[i] = log_core(x[i], k_log)

    @jit
    def log2(x: Any, out: Any) -> None:
        lo, hi = max_bits, min_bits
        for i in range(x.size):
            v = x[i]
            bits = float_bits(v)
            lo, hi = min(lo, bits), max(hi, bits)
            e, log_m = log_normal(v, k_log)
            out[i] = e + log_m * log2e
        if lo < tiny_bits or hi >= inf_bits:
            for i in range(x.size):
                e, log_m = log_parts(x[i], k_log)
                out[i] = log_special(x[i], e + log_m * log2e, k_log)

    @jit
    def log1p(x: Any, out: Any) -> None:
        lo, hi = max_bits, min_bits
        for i in range(x.size):
            v = x[i]
            u = v + one
            bits = float_bits(u)
            lo, hi = min(lo, bits), max(hi, bits)
            e, log_m = log_normal(u, k_log)
            # log(u) is log(1 + v) up to the rounding of u, which the correction puts back
            out[i] = e * ln2_hi + (log_m + e * ln2_lo) + (v - (u - one)) / u
        if lo < tiny_bits or hi >= inf_bits:
            for i in range(x.size):
                out[i] = log1p_core(x[i], k_log)

    @jit
    def sqrt(x: Any, out: Any) -> None:
        for i in range(x.size):
            out[i] = np.sqrt(x[i])

    @exact_jit
    def rsqrt(x: Any, out: Any) -> None:
        # IEEE sqrt, then an IEEE division: the twin's two roundings in one pass, bit for bit
        # the twin's result on every CPU (inf at +-0 with its sign, 0 at inf, NaN below 0)
        for i in range(x.size):
            out[i] = one / np.sqrt(x[i])

    @jit
    def tanh(x: Any, out: Any) -> None:
        for i in range(x.size):
            v = x[i]
            a = abs(v)
            a = a if a <= tanh_limit else tanh_limit
            e = expm1_core(a + a, k_exp)
            t = e / (e + two)
            t = t if v >= zero else -t
            out[i] = t if v == v else v

    @jit
    def sigmoid(x: Any, out: Any) -> None:
        for i in range(x.size):
            out[i] = one / (one + exp_core(-x[i], k_exp))

    @jit
    def softplus(x: Any, out: Any) -> None:
        for i in range(x.size):
            v = x[i]
            positive = v if v > zero else zero
            out[i] = positive + log1p_core(exp_core(-abs(v), k_exp), k_log)

    @jit
    def gelu(x: Any, out: Any) -> None:
        # x (1 + tanh z) / 2 = x sigmoid(2 z): no cancellation for negative x
        for i in range(x.size):
            v = x[i]
            z = gelu_scale * (v + gelu_cubic * v * v * v)
            d = one + exp_core(minus_two * z, k_exp)
            out[i] = v / d if not (d == inf) else zero

    @jit
    def erf(x: Any, out: Any) -> None:
        for i in range(x.size):
            out[i] = erf_core(x[i], k_exp, k_erf)

    @jit
    def pow(x: Any, p: Any, out: Any) -> None:
        lo, hi, p_hi = max_bits, min_bits, min_bits
        for i in range(x.size):
            v, q = x[i], p[i]
            bits = float_bits(v)
            lo, hi, p_hi = min(lo, bits), max(hi, bits), max(p_hi, float_bits(abs(q)))
            e, log_m = log_normal(v, k_log)
            out[i] = exp_core(q * (e * ln2_hi + (log_m + e * ln2_lo)), k_exp)
        if lo < tiny_bits or hi >= inf_bits or p_hi >= inf_bits:
            for i in range(x.size):
                v, q = x[i], p[i]
                y = exp_core(q * log_core(v, k_log), k_exp)
                out[i] = y if not ((q == zero) | (v == one)) else one

    @jit
    def exp_shifted(x: Any, m: Any, out: Any) -> None:
        rows, n = x.shape
        for i in range(rows):
            shift = m[i]
            for j in range(n):
                out[i, j] = exp_core(x[i, j] - shift, k_exp)

    return {
        "exp": exp,
        "exp2": exp2,
        "expm1": expm1,
        "log": log,
        "log2": log2,
        "log1p": log1p,
        "sqrt": sqrt,
        "rsqrt": rsqrt,
        "tanh": tanh,
        "sigmoid": sigmoid,
        "softplus": softplus,
        "gelu": gelu,
        "erf": erf,
        "pow": pow,
        "exp_shifted": exp_shifted,
    }
