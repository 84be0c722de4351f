"""Sweep samples of NumPy, ``numpy.linalg``, ``numpy.fft``, ndarray methods, ``math``,
``operator`` and ``chainrules.fastmath``.

Elementwise functions (NumPy's ufuncs, ``math``, ``operator``, ``chainrules.fastmath``) are
found automatically: ``elementwise`` draws their arguments from the first interval of
``INTERVALS`` on which the function is finite, unless ``DOMAINS`` gives the intervals of its
arguments. Every other function is one row of ``CALLS``, written with ``A`` (a standard normal
array), ``U`` (uniform in an interval), ``C`` (complex) and ``M`` / ``SPD`` (well-conditioned
and positive definite matrices).

>>> import numpy as np
>>> sample = SAMPLES[np.arccosh]
>>> bool(np.all(sample.args(np.random.default_rng(0))[0] > 1))
True
"""

from __future__ import annotations

import inspect
import math
import operator
from dataclasses import dataclass
from typing import Any

import numpy as np
from sweep import Limit, Sample, swept_functions

import chainrules.fastmath as fastmath
from chainrules._compat import matvec, vecmat
from chainrules.core.names import function_name

# ---- argument specifications ---------------------------------------------------------------


@dataclass(frozen=True)
class A:
    """A standard normal float64 array of this shape."""

    shape: tuple[int, ...] = (3,)

    def draw(self, rng: np.random.Generator) -> np.ndarray:
        return rng.standard_normal(self.shape)


@dataclass(frozen=True)
class U:
    """A float64 array uniform in ``[lo, hi]``."""

    shape: tuple[int, ...]
    lo: float
    hi: float

    def draw(self, rng: np.random.Generator) -> np.ndarray:
        return rng.uniform(self.lo, self.hi, self.shape)


@dataclass(frozen=True)
class C:
    """A complex128 array with standard normal parts."""

    shape: tuple[int, ...] = (3,)

    def draw(self, rng: np.random.Generator) -> np.ndarray:
        return rng.standard_normal(self.shape) + 1j * rng.standard_normal(self.shape)


@dataclass(frozen=True)
class M:
    """A well-conditioned matrix, ``rows`` x n (square by default): the diagonal 1, 2, ..., n
    moved a little, so that a square one has real, distinct eigenvalues (real eigenvectors,
    stable under small changes) and a tall one singular values near 1, ..., n."""

    n: int = 2
    rows: int | None = None

    def draw(self, rng: np.random.Generator) -> np.ndarray:
        m = self.n if self.rows is None else self.rows
        return np.eye(m, self.n) * np.arange(1.0, self.n + 1) + 0.1 * rng.standard_normal(
            (m, self.n)
        )


@dataclass(frozen=True)
class SPD:
    """A symmetric positive definite n x n matrix with distinct eigenvalues."""

    n: int = 2

    def draw(self, rng: np.random.Generator) -> np.ndarray:
        a = M(self.n).draw(rng)
        return (a + a.T) / 2


def build(spec: Any, rng: np.random.Generator) -> Any:
    """``spec`` with each array specification drawn from ``rng``."""
    if isinstance(spec, A | U | C | M | SPD):
        return spec.draw(rng)
    if isinstance(spec, list | tuple):
        return type(spec)(build(s, rng) for s in spec)
    return spec


def call(f: Any, *spec: Any, note: str = "", **kwargs: Any) -> Sample:
    """The sample ``f(*spec, **kwargs)`` with the arrays of ``spec`` drawn."""
    return Sample(f, lambda rng: build(spec, rng), kwargs, note)


def fixed(f: Any, *values: Any, note: str = "", **kwargs: Any) -> Sample:
    """A sample at these values moved a little (a polynomial whose roots are known)."""
    return Sample(
        f, lambda rng: tuple(v + 0.05 * rng.standard_normal(v.shape) for v in values), kwargs, note
    )


# ---- elementwise functions ------------------------------------------------------------------

# Tried in this order: inside most domains (log, sqrt, arccos, arctanh), then beyond 1
# (arccosh), then negative.
INTERVALS = ((0.3, 0.9), (1.2, 2.0), (-0.9, -0.3))

ROUNDING = [(0.1, 0.4)]  # away from the jumps of floor, rint, round (0.5) and the integers
QUOTIENT = [(0.3, 0.9), (1.2, 2.0)]  # x / y in (0.15, 0.75): away from the jumps of // and %
DOMAINS: dict[Any, list[tuple[float, float]]] = {
    **{f: ROUNDING for f in (np.floor, np.ceil, np.trunc, np.rint, math.modf)},
    **{f: QUOTIENT for f in (np.floor_divide, np.remainder, np.fmod, np.divmod)},
    **{f: QUOTIENT for f in (math.fmod, math.remainder, operator.floordiv, operator.mod)},
    np.heaviside: [(0.3, 0.9), (-0.9, 0.9)],
    np.copysign: [(0.3, 0.9), (-0.9, -0.3)],
    math.copysign: [(0.3, 0.9), (-0.9, -0.3)],
}


def arity(f: Any) -> int | None:
    """How many arguments an elementwise function takes: a ufunc's ``nin``, else the
    positional parameters without default of its signature; ``None`` without a signature."""
    if isinstance(f, np.ufunc):
        return f.nin
    try:
        parameters = inspect.signature(f).parameters.values()
    except ValueError:  # a builtin that states none (math.log, math.hypot)
        return None
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return sum(p.kind in kinds and p.default is inspect.Parameter.empty for p in parameters)


def elementwise(f: Any, shape: tuple[int, ...]) -> Sample | None:
    """``f`` on arguments of ``shape`` drawn from its ``DOMAINS``, or from the first interval
    of ``INTERVALS`` where it is finite at both ends and in the middle; ``None`` when neither
    gives one (the function then needs a row of ``CALLS``, and the sweep says so)."""
    if f in DOMAINS:
        intervals = DOMAINS[f]
        return call(f, *(U(shape, lo, hi) for lo, hi in intervals), note="domain by hand")
    n = arity(f)
    for lo, hi in INTERVALS if n is not None else ():
        points = np.array([lo, (lo + hi) / 2, hi])
        if _finite(f, n, points):
            return call(f, *(U(shape, lo, hi),) * n, note=f"arguments in [{lo}, {hi}]")
    return None


def _finite(f: Any, n: int, points: np.ndarray) -> bool:
    """Whether ``f`` of ``n`` equal arguments is finite at each of ``points``; ``math``'s
    domain errors say no."""
    for p in points:
        try:
            with np.errstate(all="ignore"):
                value = f(*(p,) * n)
        except ValueError:
            return False
        if not all(
            np.all(np.isfinite(v)) for v in (value if isinstance(value, tuple) else (value,))
        ):
            return False
    return True


def _is_elementwise(f: Any) -> bool:
    name = function_name(f)
    return (
        isinstance(f, np.ufunc)
        or name.split(".")[0] in ("math", "operator")
        or (name.startswith("chainrules.fastmath.") and f not in _REDUCING_FASTMATH)
    )


_REDUCING_FASTMATH = (fastmath.softmax, fastmath.log_softmax, fastmath.logsumexp)

# ---- every other function, by hand ---------------------------------------------------------

X2 = A((2, 2))
PAIR = [A((2,)), A((2,))]
MASK = np.array([True, False, True])
PERMUTED = np.array([2, 0, 1])

CALLS = [
    # NumPy elementwise, with shapes or constants the finder does not try
    call(np.matmul, X2, A((2,))),
    call(np.vecdot, A((3,)), A((3,))),
    call(matvec, X2, A((2,))),  # NumPy >= 2.2 (an Unavailable before)
    call(vecmat, A((2,)), X2),
    call(np.ldexp, A((3,)), np.array([1, 2, 3])),
    call(math.ldexp, A(()), 2),
    call(math.hypot, A(()), A(())),
    call(math.log, U((), 0.5, 2.0)),
    call(math.dist, A((2,)), A((2,))),
    call(math.fsum, A((3,))),
    call(math.prod, A((3,))),
    call(operator.concat, PAIR, [A(())], note="lists of arrays"),
    call(operator.getitem, A((3,)), 1),
    call(operator.matmul, X2, A((2,))),
    call(np.angle, C()),
    call(np.real, C()),
    call(np.imag, C()),
    call(np.i0, A()),
    call(np.sinc, A()),
    call(np.around, U((3,), 0.1, 0.4)),
    call(np.round, U((3,), 0.1, 0.4)),
    call(np.fix, U((3,), 0.1, 0.4)),
    call(np.nan_to_num, A()),
    call(np.real_if_close, A()),
    call(np.clip, A((4,)), -0.5, 0.5),
    call(np.where, MASK, A(), A()),
    call(np.select, [MASK, ~MASK], [A(), A()]),
    call(np.choose, np.array([0, 1, 0]), [A(), A()]),
    call(np.unwrap, U((4,), -1.0, 1.0)),
    call(np.interp, U((3,), 0.1, 0.9), np.array([0.0, 0.5, 1.0]), A()),
    # reductions, statistics, scans
    *(call(f, A((4,))) for f in (np.sum, np.prod, np.mean, np.std, np.var, np.median)),
    *(call(f, A((4,))) for f in (np.max, np.min, np.amax, np.amin, np.ptp)),
    *(call(f, A((4,))) for f in (np.nansum, np.nanprod, np.nanmean, np.nanstd, np.nanvar)),
    *(call(f, A((4,))) for f in (np.nanmax, np.nanmin, np.nanmedian)),
    *(call(f, A((4,))) for f in (np.cumsum, np.cumprod, np.nancumsum, np.nancumprod)),
    *(call(f, A((4,))) for f in (np.cumulative_sum, np.cumulative_prod)),
    call(np.average, A((4,)), None, U((4,), 0.5, 1.5)),
    call(np.percentile, A((4,)), 30.0),
    call(np.nanpercentile, A((4,)), 30.0),
    call(np.quantile, A((4,)), 0.3),
    call(np.nanquantile, A((4,)), 0.3),
    call(np.cov, A((2, 2))),
    call(np.corrcoef, A((2, 3)), note="three observations: two leave the correlation +-1"),
    call(np.diff, A((4,))),
    call(np.ediff1d, A((4,))),
    call(np.gradient, A((4,))),
    call(np.trapezoid, A((4,))),
    call(np.convolve, A(), A((2,))),
    call(np.correlate, A(), A((2,))),
    call(np.bincount, np.array([0, 1, 1, 3]), A((4,))),
    call(np.histogram, A((4,)), 2, None, False, U((4,), 0.5, 1.5)),
    call(np.histogram_bin_edges, A((4,)), 2),
    call(np.histogram2d, A(), A(), 2, None, None, U((3,), 0.5, 1.5)),
    call(np.histogramdd, A((2, 2)), 2, None, None, U((2,), 0.5, 1.5)),
    # constructors
    *(call(f, A()) for f in (np.array, np.asarray, np.asanyarray, np.asarray_chkfinite)),
    *(call(f, A()) for f in (np.ascontiguousarray, np.asfortranarray, np.require, np.copy)),
    call(np.astype, A(), np.float64),
    call(np.full, (3,), A(())),
    call(np.full_like, A(), A(())),
    call(np.linspace, U((), 0.0, 1.0), U((), 2.0, 3.0), 4),
    call(np.logspace, U((), 0.0, 1.0), U((), 2.0, 3.0), 4),
    call(np.geomspace, U((), 1.0, 2.0), U((), 3.0, 4.0), 4),
    call(np.diag, A()),
    call(np.diagflat, A((2,))),
    call(np.vander, A()),
    call(np.tril, X2),
    call(np.triu, X2),
    # shape, joining, splitting
    call(np.reshape, X2, (4,)),
    call(np.ravel, X2),
    call(np.squeeze, A((1, 3))),
    call(np.expand_dims, A(), 0),
    call(np.transpose, X2),
    call(np.matrix_transpose, X2),
    call(np.swapaxes, X2, 0, 1),
    call(np.moveaxis, A((2, 1, 2)), 0, -1),
    call(np.rollaxis, A((2, 1, 2)), 2),
    call(np.atleast_1d, A(())),
    call(np.atleast_2d, A()),
    call(np.atleast_3d, A()),
    call(np.broadcast_to, A((2, 1)), (2, 2)),
    call(np.broadcast_arrays, A((2, 1)), A((2,))),
    call(np.meshgrid, A((2,)), A((2,))),
    call(np.resize, A(), (4,)),
    call(np.tile, A((2,)), 2),
    call(np.repeat, A((2,)), 2),
    call(np.flip, X2),
    call(np.fliplr, X2),
    call(np.flipud, X2),
    call(np.rot90, X2),
    call(np.roll, A(), 1),
    call(np.pad, A(), 1),
    call(np.concatenate, PAIR),
    call(np.stack, PAIR),
    call(np.hstack, PAIR),
    call(np.vstack, PAIR),
    call(np.dstack, PAIR),
    call(np.column_stack, PAIR),
    call(np.row_stack, PAIR),
    call(np.block, [[X2, A((2, 1))]]),
    call(np.append, A((2,)), A((2,))),
    call(np.insert, A(), 1, A(())),
    call(np.delete, A((4,)), 1),
    call(np.split, A((4,)), 2),
    call(np.array_split, A(), 2),
    call(np.hsplit, X2, 2),
    call(np.vsplit, X2, 2),
    call(np.dsplit, A((1, 2, 2)), 2),
    call(np.unstack, X2),
    call(np.trim_zeros, A(), note="no zeros to trim: moving a zero changes the shape"),
    # indexing and sorting
    call(np.take, A(), np.array([0, 2])),
    call(np.take_along_axis, A(), PERMUTED, 0),
    call(np.compress, MASK, A()),
    call(np.extract, MASK, A()),
    call(np.diagonal, X2),
    call(np.trace, X2),
    call(np.sort, A((4,))),
    call(np.sort_complex, C()),
    call(np.partition, A((4,)), 2),
    call(np.unique, A()),
    call(np.unique_values, A()),
    call(np.unique_all, A()),
    call(np.unique_counts, A()),
    call(np.unique_inverse, A()),
    # products
    call(np.dot, X2, A((2,))),
    call(np.vdot, A(), A()),
    call(np.inner, A(), A()),
    call(np.outer, A((2,)), A((2,))),
    call(np.kron, A((2,)), A((2,))),
    call(np.cross, A(), A()),
    call(np.tensordot, X2, X2),
    call(np.einsum, "ij,j->i", X2, A((2,))),
    # polynomials
    call(np.poly, A()),
    fixed(np.roots, np.array([1.0, -3.0, 2.0]), note="roots near 1 and 2: real and apart"),
    call(np.polyadd, A(), A((2,))),
    call(np.polysub, A(), A((2,))),
    call(np.polymul, A((2,)), A((2,))),
    call(np.polydiv, A(), U((2,), 0.5, 1.5)),
    call(np.polyder, A((4,))),
    call(np.polyint, A()),
    call(np.polyval, A(), A((2,))),
    call(np.polyfit, A((4,)), A((4,)), 1),
    # numpy.fft
    *(call(f, A((4,))) for f in (np.fft.fft, np.fft.ifft, np.fft.rfft, np.fft.ihfft)),
    *(call(f, A((4,))) for f in (np.fft.fftshift, np.fft.ifftshift)),
    *(call(f, X2) for f in (np.fft.fft2, np.fft.ifft2, np.fft.fftn, np.fft.ifftn)),
    *(call(f, X2) for f in (np.fft.rfft2, np.fft.rfftn)),
    call(np.fft.hfft, C()),
    call(np.fft.irfft, C()),
    call(np.fft.irfft2, C((2, 2))),
    call(np.fft.irfftn, C((2, 2))),
    # numpy.linalg
    call(np.linalg.cholesky, SPD()),
    call(np.linalg.cond, M()),
    call(np.linalg.cross, A(), A()),
    call(np.linalg.det, M(3)),
    call(np.linalg.slogdet, M()),
    call(np.linalg.diagonal, X2),
    call(np.linalg.trace, X2),
    call(np.linalg.eig, M()),
    call(np.linalg.eigvals, M()),
    call(np.linalg.eigh, SPD()),
    call(np.linalg.eigvalsh, SPD()),
    call(np.linalg.inv, M()),
    call(np.linalg.pinv, M(2, rows=3)),
    call(np.linalg.tensorinv, M(), 1),
    call(np.linalg.solve, M(), A((2,))),
    call(np.linalg.tensorsolve, M(), A((2,))),
    call(np.linalg.lstsq, M(2, rows=3), A()),
    call(np.linalg.qr, M()),
    call(np.linalg.svd, M()),
    call(np.linalg.svdvals, M()),
    call(np.linalg.matmul, X2, A((2,))),
    call(np.linalg.matrix_power, M(), 3),
    call(np.linalg.matrix_transpose, X2),
    call(np.linalg.multi_dot, [X2, X2, A((2,))]),
    call(np.linalg.norm, A()),
    call(np.linalg.matrix_norm, X2),
    call(np.linalg.vector_norm, A()),
    call(np.linalg.outer, A((2,)), A((2,))),
    call(np.linalg.tensordot, X2, X2),
    call(np.linalg.vecdot, A(), A()),
    # ndarray methods and properties
    *(call(f, A((4,))) for f in (np.ndarray.sum, np.ndarray.prod, np.ndarray.mean)),
    *(call(f, A((4,))) for f in (np.ndarray.std, np.ndarray.var, np.ndarray.max)),
    *(call(f, A((4,))) for f in (np.ndarray.min, np.ndarray.cumsum, np.ndarray.cumprod)),
    *(call(f, X2) for f in (np.ndarray.ravel, np.ndarray.flatten, np.ndarray.copy)),
    *(call(f, X2) for f in (np.ndarray.transpose, np.ndarray.diagonal, np.ndarray.trace)),
    *(call(f, C()) for f in (np.ndarray.conj, np.ndarray.conjugate)),
    call(np.ndarray.reshape, X2, 4),
    call(np.ndarray.squeeze, A((1, 3))),
    call(np.ndarray.swapaxes, X2, 0, 1),
    call(np.ndarray.astype, A(), np.float64),
    call(np.ndarray.to_device, A(), "cpu"),
    call(np.ndarray.repeat, A((2,)), 2),
    call(np.ndarray.take, A(), np.array([0, 2])),
    call(np.ndarray.compress, A(), MASK),
    call(np.ndarray.choose, np.array([0, 1, 0]), A((2, 3)), note="the choices as one array"),
    call(np.ndarray.clip, A((4,)), -0.5, 0.5),
    call(np.ndarray.dot, X2, A((2,))),
    call(np.ndarray.item, A(), 1),
    call(np.ndarray.__getitem__, A(), slice(0, 2)),
    call(np.ndarray.T, X2),
    call(np.ndarray.mT, X2),
    call(np.ndarray.real, C()),
    call(np.ndarray.imag, C()),
    # chainrules.fastmath's reductions
    *(call(f, A((4,))) for f in _REDUCING_FASTMATH),
]

# ---- the tables ----------------------------------------------------------------------------

_NUMPY_SIDE = ("numpy.", "math.", "operator.", "chainrules.fastmath.")


def _samples() -> dict[Any, Sample]:
    """The rows of ``CALLS``, and a found sample for each other elementwise function."""
    samples = {s.f: s for s in CALLS}
    for f in swept_functions():
        if f in samples or not function_name(f).startswith(_NUMPY_SIDE):
            continue
        if not _is_elementwise(f):
            continue
        found = elementwise(f, () if _is_math(f) else (3,))
        if found is not None:
            samples[f] = found
    return samples


def _is_math(f: Any) -> bool:
    return function_name(f).startswith("math.")


SAMPLES: dict[Any, Sample] = _samples()

_DATA_SHAPED = Limit(
    0,
    "the length of the result depends on the values, which JAX must know before its host "
    "callback runs (under jit the values are abstract)",
    ("jax",),
)

LIMITS: dict[Any, Limit | tuple[Limit, ...]] = {
    np.histogramdd: (
        Limit(
            1,
            "histogramdd returns its edges as a list inside a tuple, a structure the reverse "
            "engine does not track, so the host pullback cannot be differentiated again",
            ("torch", "jax"),
        ),
        Limit(
            0,
            "histogramdd returns its edges as a list inside a tuple, which autograd's primitives "
            "cannot return",
            ("autograd",),
        ),
    ),
    **dict.fromkeys(
        (np.unique, np.unique_values, np.unique_all, np.unique_counts, np.unique_inverse),
        _DATA_SHAPED,
    ),
    **dict.fromkeys(
        (np.nextafter, np.spacing),
        Limit(
            1,
            "the rule computes its value with JAX's nextafter, which JAX cannot differentiate "
            "when it differentiates the rule for the second order",
            ("jax",),
        ),
    ),
}
