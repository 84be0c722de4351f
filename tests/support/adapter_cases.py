"""The table of functions that every adapter differentiates: function, domain, arguments.

Each case gives NumPy arguments from a seeded generator; the adapters' tests convert them to
their library's arrays. ``order`` is the highest order of derivative checked; ``complex``
cases run at complex points, where the adapters convert between complex conventions.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np
import scipy.linalg as sla
import scipy.special as sc


@dataclass(frozen=True)
class Case:
    """One row: ``f(*args(rng), **kwargs)``, differentiated to ``order``."""

    name: str
    f: Callable
    args: Callable[[np.random.Generator], tuple]
    kwargs: dict = field(default_factory=dict)
    order: int = 2
    family: str = "elementwise"

    def __str__(self) -> str:
        return self.name


def uniform(lo: float, hi: float, shape: tuple = (3,)) -> Callable:
    return lambda rng: (rng.uniform(lo, hi, shape),)


def uniform2(lo1: float, hi1: float, lo2: float, hi2: float, shape: tuple = (3,)) -> Callable:
    return lambda rng: (rng.uniform(lo1, hi1, shape), rng.uniform(lo2, hi2, shape))


def complex_points(shape: tuple = (3,)) -> Callable:
    return lambda rng: (rng.uniform(0.3, 1.2, shape) + 1j * rng.uniform(-0.8, 0.8, shape),)


def matrix(n: int = 3) -> Callable:
    return lambda rng: (np.eye(n) * 2.0 + 0.3 * rng.standard_normal((n, n)),)


def spd(n: int = 3) -> Callable:
    def sample(rng: np.random.Generator) -> tuple:
        a = 0.3 * rng.standard_normal((n, n))
        return (np.eye(n) + a @ a.T,)

    return sample


def solve_args(rng: np.random.Generator) -> tuple:
    return (*matrix()(rng), rng.standard_normal(3))


def distinct(rng: np.random.Generator) -> tuple:
    return (rng.permutation(np.linspace(-1.0, 1.0, 4)), rng.permutation(np.linspace(-0.9, 1.1, 4)))


CASES = [
    # NumPy elementwise
    Case("sin", np.sin, uniform(-2, 2)),
    Case("cos", np.cos, uniform(-2, 2)),
    Case("tan", np.tan, uniform(-1, 1)),
    Case("exp", np.exp, uniform(-1, 1)),
    Case("log", np.log, uniform(0.5, 2)),
    Case("sqrt", np.sqrt, uniform(0.5, 2)),
    Case("tanh", np.tanh, uniform(-2, 2)),
    Case("arcsinh", np.arcsinh, uniform(-2, 2)),
    Case("arctan", np.arctan, uniform(-2, 2)),
    Case("log1p", np.log1p, uniform(0, 2)),
    Case("expm1", np.expm1, uniform(-1, 1)),
    Case("reciprocal", np.reciprocal, uniform(0.5, 2)),
    Case("sin complex", np.sin, complex_points()),
    Case("exp complex", np.exp, complex_points()),
    Case("log complex", np.log, complex_points()),
    # NumPy binary, broadcasting
    Case("multiply", np.multiply, uniform2(-2, 2, -2, 2), family="binary"),
    Case("divide", np.divide, uniform2(-2, 2, 0.5, 2), family="binary"),
    Case("power", np.power, uniform2(0.5, 2, 0.5, 2), family="binary"),
    Case("hypot", np.hypot, uniform2(0.5, 2, -2, -0.5), family="binary"),
    Case("arctan2", np.arctan2, uniform2(0.5, 2, 0.5, 2), family="binary"),
    Case("logaddexp", np.logaddexp, uniform2(-2, 2, -2, 2), family="binary"),
    Case("maximum", np.maximum, distinct, family="binary"),
    # NumPy reductions and arrangement
    Case("sum axis=0", np.sum, uniform(-1, 1, (2, 3)), {"axis": 0}, family="reductions"),
    Case("prod", np.prod, uniform(0.5, 2, (4,)), family="reductions"),
    Case("mean", np.mean, uniform(-1, 1, (2, 3)), family="reductions"),
    Case("cumsum", np.cumsum, uniform(-1, 1, (4,)), family="reductions"),
    Case("var", np.var, uniform(-1, 1, (4,)), family="reductions"),
    Case("flip", np.flip, uniform(-1, 1, (2, 3)), family="arrays"),
    Case("diff", np.diff, uniform(-1, 1, (4,)), family="arrays"),
    # NumPy linalg and FFT
    Case("det", np.linalg.det, matrix(), family="linalg"),
    Case("inv", np.linalg.inv, matrix(), family="linalg"),
    Case("solve", np.linalg.solve, solve_args, family="linalg"),
    Case("matmul", np.matmul, lambda rng: (*matrix()(rng), *matrix()(rng)), family="linalg"),
    Case("norm", np.linalg.norm, uniform(0.5, 2, (4,)), family="linalg"),
    Case("fft", np.fft.fft, uniform(-1, 1, (4,)), family="fft"),
    # scipy.special, many of which PyTorch lacks
    Case("gammaln", sc.gammaln, uniform(0.5, 3), family="special"),
    Case("digamma", sc.digamma, uniform(0.5, 3), family="special"),
    Case("erf", sc.erf, uniform(-1.5, 1.5), family="special"),
    Case("erfcx", sc.erfcx, uniform(-1, 2), family="special"),
    Case("expit", sc.expit, uniform(-3, 3), family="special"),
    Case("log_ndtr", sc.log_ndtr, uniform(-2, 2), family="special"),
    Case("i0e", sc.i0e, uniform(0.5, 2), family="special"),
    Case("j0", sc.j0, uniform(0.5, 3), family="special"),
    Case("dawsn", sc.dawsn, uniform(-2, 2), family="special"),
    Case("ellipk", sc.ellipk, uniform(-0.5, 0.8), family="special"),
    Case("spence", sc.spence, uniform(0.5, 2), family="special"),
    Case("exprel", sc.exprel, uniform(-1, 1), family="special"),
    Case("xlogy", sc.xlogy, uniform2(0.5, 2, 0.5, 2), family="special"),
    Case("betaln", sc.betaln, uniform2(0.5, 3, 0.5, 3), family="special"),
    Case("loggamma complex", sc.loggamma, complex_points(), family="special"),
    Case("logsumexp", sc.logsumexp, uniform(-1, 1, (4,)), family="special"),
    Case("softmax", sc.softmax, uniform(-1, 1, (4,)), family="special"),
    # scipy.linalg
    Case("expm", sla.expm, lambda rng: (0.3 * rng.standard_normal((3, 3)),), family="linalg"),
    Case("sqrtm", sla.sqrtm, spd(), family="linalg"),
]

# Rows whose rule gives the first derivative but whose pullback the reverse engine cannot
# differentiate again, so no adapter has a second derivative for them: none at present (the
# matrix functions' pullbacks call SciPy through chainrules.core.calls.call).
SECOND_ORDER_UNSUPPORTED: dict[str, str] = {}


# ---- a host function whose rules stop at the first derivative in some arguments -------------

# betainc(a, b, x): dI/dx is closed-form; dI/da and dI/db are quadratures on NumPy values,
# differentiable once more by quadratures of their own (the third derivatives in a and b are
# not given). A point well inside the domain, where d2I/da2 is about 0.058.
BETAINC_POINT = (2.0, 3.0, 0.4)


def betainc_derivative(order: tuple[int, int, int], point: tuple = BETAINC_POINT) -> float:
    """The partial derivative of I_x(a, b) of ``order`` (in a, b, x), by mpmath at 30 digits."""
    import mpmath

    def regularized(a, b, x):
        return mpmath.betainc(a, b, 0, x, regularized=True)

    with mpmath.workdps(30):
        return float(mpmath.diff(regularized, point, order))


@contextlib.contextmanager
def jax_precision(x64: bool) -> Iterator[None]:
    """Inside, JAX's x64 flag is ``x64``; afterwards what it was."""
    import jax

    previous = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", x64)
    try:
        yield
    finally:
        jax.config.update("jax_enable_x64", previous)
