"""The sweep's samples of ``scipy.special`` and ``scipy.linalg`` (see ``sweep``).

* ``scipy.special``: the rows of the rule tests (``tests/rules/scipy/special``) are the
  samples, so a function is swept inside the domain its rules are tested on: each argument
  drawn from the row's interval as an array of the row's first shape (three elements by
  default), the row's integer arguments as Python integers. A row without second order gives
  the function its ``Limit``, with the row's reason. The functions that have no row (their
  tests are calls, not rows) are in ``SPECIAL``.
* ``scipy.linalg``: ``LINALG``, one call each, on 2x2 or 3x3 matrices well away from the
  points where a factorization is not smooth (repeated eigenvalues, rank drops).

Import ``sweep``, not this module: it is merged there.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import scipy.linalg as sla
import scipy.special as sc
from numpy.random import Generator as Rng
from samples import Row
from sweep import Limit, Sample

# ---- scipy.special: the rows of the rule tests ----------------------------------------------

SPECIAL_TESTS = Path(__file__).resolve().parent.parent / "rules" / "scipy" / "special"


def _rows_of(path: Path) -> list[Row]:
    """The ``Row`` entries of one test module's tables (its module-level lists of rows)."""
    spec = importlib.util.spec_from_file_location(f"sweep_rows_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return [
        row
        for table in vars(module).values()
        if isinstance(table, list) and table and all(isinstance(r, Row) for r in table)
        for row in table
    ]


# Real parameters whose derivatives are computed numerically per element (series, quadrature,
# differential equations on jets: tests/rules and tests/accuracy check them, to second order):
# held constant here, at the middle of the row's interval, so that the engine sweeps stay
# cheap and sweep the other arguments. A constant is a NumPy scalar: the adapters take Python
# floats (and arrays) for operands.
PARAMETERS: dict[Any, tuple[int, ...]] = {
    sc.besselpoly: (1, 2),
    sc.hyp2f1: (0, 1, 2),
    sc.hyperu: (0, 1),
    sc.wright_bessel: (0, 1),
    sc.log_wright_bessel: (0, 1),
    sc.lpmv: (1,),
    sc.eval_gegenbauer: (1,),
    sc.eval_jacobi: (1, 2),
    sc.eval_sh_jacobi: (1, 2),
    sc.pbdv: (0,),
    sc.pbvv: (0,),
    sc.pbwa: (0,),
    sc.struve: (0,),
    sc.modstruve: (0,),
    **{f: (0,) for f in (sc.jv, sc.yv, sc.iv, sc.ive, sc.kv, sc.kve)},
}


def _row_arguments(row: Row) -> Callable[[Rng], tuple]:
    """Arguments drawn from the row's intervals at its first shapes; integers, and the
    ``PARAMETERS`` without derivative, as constants."""
    shapes = row.shapes[0] if row.shapes else ((3,),) * len(row.domain)
    fixed = PARAMETERS.get(row.f, ())

    def draw(rng: Rng) -> tuple:
        args: list[Any] = []
        for i, ((low, high), shape) in enumerate(zip(row.domain, shapes, strict=True)):
            if i in row.integer:
                args.append(int(rng.integers(int(low), int(high) + 1)))
            elif i in fixed:
                args.append(np.float64((low + high) / 2))
            else:
                args.append(np.asarray(rng.uniform(low, high, shape)))
        return tuple(args)

    return draw


ROW_LIMIT = (
    "the rule's derivative is computed numerically (or by a quadrature) on NumPy values, "
    "which no rule differentiates again"
)


def _from_rows() -> tuple[dict[Any, Sample], dict[Any, Limit]]:
    samples: dict[Any, Sample] = {}
    limits: dict[Any, Limit] = {}
    for path in sorted(SPECIAL_TESTS.glob("test_*.py")):
        for row in _rows_of(path):
            if row.f in samples:
                continue
            samples[row.f] = Sample(row.f, _row_arguments(row), row.kwargs, "a row of its tests")
            # Held constant, the parameters that stop the row's second order do not stop it.
            if not row.second_order and row.f not in PARAMETERS:
                limits[row.f] = Limit(1, row.reason or ROW_LIMIT)
    return samples, limits


# ---- scipy.special: the functions without a row ---------------------------------------------


def _uniform(low: float, high: float, shape: tuple = (3,)) -> Callable[[Rng], np.ndarray]:
    return lambda rng: rng.uniform(low, high, shape)


def _scalar(value: float) -> Callable[[Rng], np.ndarray]:
    return lambda rng: np.asarray(value)


def _call(*parts: Any) -> Callable[[Rng], tuple]:
    """Arguments from ``parts``: a callable is drawn from the generator, anything else kept."""
    return lambda rng: tuple(p(rng) if callable(p) else p for p in parts)


ORDER_CONSTANT = "SciPy takes scalars only; the real order, without derivative, is constant"
X3 = _uniform(0.2, 0.8)
THETA = _uniform(0.3, 2.8)
PHI = _uniform(0.3, 5.9)

SPECIAL = [
    Sample(sc.assoc_laguerre, _call(_uniform(0.3, 4.0), 3, _uniform(0.2, 1.5))),
    Sample(sc.assoc_legendre_p_all, _call(3, 2, X3)),
    Sample(sc.legendre_p_all, _call(3, X3)),
    Sample(sc.sph_legendre_p_all, _call(3, 2, THETA)),
    Sample(sc.sph_harm_y, _call(np.array([0, 2, 3]), np.array([0, -1, 2]), THETA, PHI)),
    Sample(sc.sph_harm_y_all, _call(2, 1, THETA, PHI)),
    Sample(sc.ellip_harm, _call(5, 8, 3, 4, _uniform(0.4, 3.4))),
    Sample(sc.ellip_harm_2, _call(5, 8, 3, 5, _uniform(3.0, 6.0))),
    Sample(sc.ellip_normal, _call(_scalar(5.0), _scalar(8.0), 3, 4)),
    Sample(sc.ellipj, _call(_uniform(-1.3, 2.7), _uniform(0.2, 0.8))),
    Sample(sc.fresnel, _call(_uniform(0.2, 2.5))),
    Sample(sc.sici, _call(_uniform(0.2, 2.5))),
    Sample(sc.shichi, _call(_uniform(0.2, 2.5))),
    Sample(sc.lambertw, _call(_uniform(0.2, 2.5))),
    Sample(sc.logsumexp, _call(_uniform(-1.0, 1.0, (2, 2))), {"axis": 1}),
    Sample(sc.softmax, _call(_uniform(-1.0, 1.0, (2, 2))), {"axis": 1}),
    Sample(sc.log_softmax, _call(_uniform(-1.0, 1.0, (2, 2))), {"axis": 1}),
    Sample(sc.lqn, _call(3, _uniform(-0.8, 0.8))),
    Sample(sc.lqmn, _call(2, 3, _uniform(-0.8, 0.8))),
    Sample(sc.pbdn_seq, _call(3, _scalar(0.7)), note="SciPy takes scalars only"),
    Sample(sc.pbdv_seq, _call(np.float64(2.3), _scalar(0.7)), note=ORDER_CONSTANT),
    Sample(sc.pbvv_seq, _call(np.float64(2.3), _scalar(0.7)), note=ORDER_CONSTANT),
    Sample(sc.riccati_jn, _call(3, _scalar(1.3)), note="SciPy takes scalars only"),
    Sample(sc.riccati_yn, _call(3, _scalar(1.3)), note="SciPy takes scalars only"),
    Sample(sc.lmbda, _call(2, _scalar(1.3)), note="SciPy takes scalars only"),
    Sample(sc.mathieu_even_coef, _call(3, _scalar(2.6)), note="SciPy takes scalars only"),
    Sample(sc.mathieu_odd_coef, _call(2, _scalar(2.6)), note="SciPy takes scalars only"),
    Sample(sc.pro_cv_seq, _call(0, 3, _scalar(1.7)), note="SciPy takes scalars only"),
    Sample(sc.obl_cv_seq, _call(1, 4, _scalar(2.5)), note="SciPy takes scalars only"),
]


def _given_cv(cv_of: Callable, low: float, high: float) -> Callable[[Rng], tuple]:
    """(m, n, c, cv, x) on the curve ``cv = cv_of(m, n, c)`` that the ``*_cv`` functions need:
    c and cv are constants, as the rules differentiate along x only (moving c or cv alone
    leaves the curve)."""

    def draw(rng: Rng) -> tuple:
        m, n, c = 1, 2, np.float64(1.1)
        return m, n, c, np.float64(cv_of(m, n, c)), rng.uniform(low, high, (3,))

    return draw


SPECIAL += [
    Sample(sc.pro_ang1_cv, _given_cv(sc.pro_cv, -0.8, 0.8)),
    Sample(sc.obl_ang1_cv, _given_cv(sc.obl_cv, -0.8, 0.8)),
    Sample(sc.pro_rad1_cv, _given_cv(sc.pro_cv, 1.1, 2.5)),
    Sample(sc.obl_rad1_cv, _given_cv(sc.obl_cv, 0.2, 2.0)),
    # SciPy's functions of the second kind are accurate from x = 2.5 on (see their tests).
    Sample(sc.pro_rad2_cv, _given_cv(sc.pro_cv, 2.5, 5.0)),
    Sample(sc.obl_rad2_cv, _given_cv(sc.obl_cv, 2.5, 5.0)),
]

# ---- scipy.linalg ---------------------------------------------------------------------------


def _matrix(n: int = 3, m: int | None = None) -> Callable[[Rng], np.ndarray]:
    """``diag(1, 2, ...)`` (rectangular if ``m`` is given) moved a little: well conditioned,
    of full rank, with distinct real eigenvalues where square."""
    columns = n if m is None else m

    def draw(rng: Rng) -> np.ndarray:
        diagonal = np.eye(n, columns) * np.arange(1.0, columns + 1.0)
        return diagonal + 0.3 * rng.standard_normal((n, columns))

    return draw


def _spd(n: int = 3) -> Callable[[Rng], np.ndarray]:
    def draw(rng: Rng) -> np.ndarray:
        a = 0.3 * rng.standard_normal((n, n))
        return np.diag(np.arange(1.0, n + 1.0)) + a @ a.T

    return draw


def _vector(n: int = 3) -> Callable[[Rng], np.ndarray]:
    return lambda rng: rng.standard_normal(n)


def _small(n: int = 3) -> Callable[[Rng], np.ndarray]:
    """A matrix of norm about one half: the series and logarithms converge fast."""
    return lambda rng: 0.2 * rng.standard_normal((n, n))


def _near_identity(n: int = 3) -> Callable[[Rng], np.ndarray]:
    return lambda rng: np.eye(n) + 0.2 * rng.standard_normal((n, n))


def _cho_factor(rng: Rng) -> tuple:
    c, lower = sla.cho_factor(_spd()(rng))
    return (c, lower), rng.standard_normal(3)


def _lu_factor(rng: Rng) -> tuple:
    lu, piv = sla.lu_factor(_matrix()(rng))
    return (lu, piv), rng.standard_normal(3)


def _banded_spd(rng: Rng) -> np.ndarray:
    """Upper band storage (one superdiagonal) of a diagonally dominant SPD matrix."""
    return np.stack([np.r_[0.0, rng.uniform(-0.3, 0.3, 2)], rng.uniform(2.0, 3.0, 3)])


def _cho_banded(rng: Rng) -> tuple:
    return (sla.cholesky_banded(_banded_spd(rng)), False), rng.standard_normal(3)


def _qr(shape: tuple[int, int]) -> Callable[[Rng], tuple]:
    return lambda rng: sla.qr(_matrix(*shape)(rng))


def _riccati(rng: Rng) -> tuple:
    """A stabilizable system ``a``, ``b`` with positive definite ``q``, ``r``."""
    a, b = 0.5 * rng.standard_normal((2, 2)), rng.standard_normal((2, 2))
    return a, b, _spd(2)(rng), _spd(2)(rng)


def _real_schur(rng: Rng) -> tuple:
    t, z = sla.schur(np.array([[1.0, 2.0, 0.3], [-1.5, 0.8, 0.2], [0.1, 0.4, 3.0]]))
    return t, z


def _eigenpairs(rng: Rng) -> tuple:
    return sla.eigh(_spd()(rng))


def _dominant_first(rng: Rng) -> np.ndarray:
    """The first column of a diagonally dominant Toeplitz or circulant matrix."""
    return np.r_[3.0, rng.uniform(-0.5, 0.5, 2)]


def _tridiagonal_band(rng: Rng) -> np.ndarray:
    """Band storage (l = u = 1) of a diagonally dominant tridiagonal matrix."""
    return np.stack(
        [rng.uniform(-0.3, 0.3, 3), rng.uniform(2.0, 3.0, 3), rng.uniform(-0.3, 0.3, 3)]
    )


def _unitary(rng: Rng) -> np.ndarray:
    return np.linalg.qr(rng.standard_normal((4, 4)))[0]


LINALG = [
    Sample(sla.block_diag, _call(_matrix(2), _matrix(1, 2))),
    Sample(sla.cdf2rdf, _eigenpairs, note="real eigenvalues: steps keep them real"),
    Sample(sla.cho_factor, _call(_spd())),
    Sample(sla.cho_solve, _cho_factor),
    Sample(sla.cho_solve_banded, _cho_banded),
    Sample(sla.cholesky, _call(_spd())),
    Sample(sla.cholesky_banded, _call(_banded_spd)),
    Sample(sla.circulant, _call(_vector())),
    Sample(sla.companion, _call(lambda rng: np.r_[1.0, rng.standard_normal(2)])),
    Sample(sla.convolution_matrix, _call(_vector(), 3)),
    Sample(sla.cosm, _call(_small())),
    Sample(sla.coshm, _call(_small())),
    Sample(sla.sinm, _call(_small())),
    Sample(sla.sinhm, _call(_small())),
    Sample(sla.tanm, _call(_small())),
    Sample(sla.tanhm, _call(_small())),
    Sample(sla.expm, _call(_small())),
    Sample(sla.logm, _call(_near_identity())),
    Sample(sla.sqrtm, _call(_spd())),
    Sample(sla.signm, _call(_matrix())),
    Sample(sla.fractional_matrix_power, _call(_spd(), 0.7)),
    Sample(sla.expm_cond, _call(_small())),
    Sample(sla.expm_frechet, _call(_small(), _small())),
    Sample(sla.cossin, _call(_unitary, 2, 2), note="a unitary matrix"),
    Sample(sla.det, _call(_matrix())),
    Sample(sla.diagsvd, _call(_vector(2), 3, 2)),
    Sample(sla.eig, _call(_matrix())),
    Sample(sla.eigvals, _call(_matrix())),
    Sample(sla.eigh, _call(_spd())),
    Sample(sla.eigvalsh, _call(_spd())),
    Sample(sla.eig_banded, _call(_banded_spd)),
    Sample(sla.eigvals_banded, _call(_banded_spd)),
    Sample(sla.eigh_tridiagonal, _call(_uniform(1.0, 3.0), _uniform(-0.3, 0.3, (2,)))),
    Sample(sla.eigvalsh_tridiagonal, _call(_uniform(1.0, 3.0), _uniform(-0.3, 0.3, (2,)))),
    Sample(sla.fiedler, _call(_vector())),
    Sample(sla.fiedler_companion, _call(lambda rng: np.r_[1.0, rng.standard_normal(2)])),
    Sample(sla.hankel, _call(_vector(), _vector())),
    Sample(sla.toeplitz, _call(_vector(), _vector())),
    Sample(sla.hessenberg, _call(_matrix())),
    Sample(sla.inv, _call(_matrix())),
    Sample(sla.pinv, _call(_matrix(3, 2))),
    Sample(sla.pinvh, _call(_spd())),
    Sample(sla.khatri_rao, _call(_matrix(2), _matrix(2))),
    Sample(sla.ldl, _call(_spd())),
    Sample(sla.leslie, _call(_uniform(0.2, 1.0), _uniform(0.2, 1.0, (2,)))),
    Sample(sla.lstsq, _call(_matrix(3, 2), _vector())),
    Sample(sla.lu, _call(_matrix())),
    Sample(sla.lu_factor, _call(_matrix())),
    Sample(sla.lu_solve, _lu_factor),
    Sample(sla.matmul_toeplitz, _call(lambda rng: (_vector()(rng), _vector()(rng)), _vector())),
    Sample(sla.solve_toeplitz, _call(_dominant_first, _vector())),
    Sample(sla.solve_circulant, _call(_dominant_first, _vector())),
    Sample(sla.matrix_balance, _call(_matrix())),
    Sample(sla.norm, _call(_matrix())),
    Sample(sla.null_space, _call(_matrix(2, 3))),
    Sample(sla.orth, _call(_matrix(3, 2))),
    Sample(sla.orthogonal_procrustes, _call(_matrix(3, 2), _matrix(3, 2))),
    Sample(sla.subspace_angles, _call(_matrix(3, 2), _matrix(3, 1))),
    Sample(sla.polar, _call(_matrix())),
    Sample(sla.qr, _call(_matrix())),
    Sample(sla.rq, _call(_matrix())),
    Sample(sla.qr_multiply, _call(_matrix(), _matrix())),
    Sample(sla.qr_update, lambda rng: (*_qr((3, 3))(rng), _vector()(rng), _vector()(rng))),
    Sample(sla.qr_insert, lambda rng: (*_qr((3, 3))(rng), _vector()(rng), 1)),
    Sample(sla.qr_delete, lambda rng: (*_qr((3, 3))(rng), 1)),
    Sample(sla.qz, _call(_matrix(), _matrix())),
    Sample(sla.ordqz, _call(_matrix(), _matrix())),
    Sample(sla.rsf2csf, _real_schur),
    Sample(sla.schur, _call(_matrix())),
    Sample(sla.solve, _call(_matrix(), _vector())),
    Sample(sla.solve_triangular, _call(lambda rng: np.triu(_matrix()(rng)), _vector())),
    Sample(sla.solve_banded, _call((1, 1), _tridiagonal_band, _vector())),
    Sample(sla.solveh_banded, _call(_banded_spd, _vector())),
    Sample(sla.solve_continuous_are, _riccati),
    Sample(sla.solve_discrete_are, _riccati),
    Sample(sla.solve_continuous_lyapunov, _call(_matrix(), _spd())),
    Sample(sla.solve_discrete_lyapunov, _call(_small(), _spd())),
    Sample(sla.solve_sylvester, _call(_matrix(), _matrix(), _matrix())),
    Sample(sla.svd, _call(_matrix())),
    Sample(sla.svdvals, _call(_matrix())),
]

# ---- limits ---------------------------------------------------------------------------------

SCALARS_ONLY = (
    "SciPy takes Python scalars only, so the reverse engine's tracked values cannot pass "
    "through it when the pullback is differentiated"
)
LAPACK_FACTORS = (
    "LAPACK computes the factors, and the reverse engine's tracked values cannot pass through "
    "it when the pullback is differentiated"
)
OFF_THE_MANIFOLD = (
    "the rules differentiate along {}, and check_grads steps in every direction, where SciPy "
    "refuses the input or gives values the rules do not follow"
)
SPECIAL_LIMITS = {
    sc.ellip_normal: Limit(1, "the Lamé coefficients of the h2 and k2 derivatives are NumPy only"),
    **{f: Limit(1, SCALARS_ONLY) for f in (sc.riccati_jn, sc.riccati_yn, sc.lmbda)},
    **{f: Limit(1, SCALARS_ONLY) for f in (sc.pro_cv_seq, sc.obl_cv_seq)},
    **{
        f: (
            Limit(
                0,
                "the number of coefficients SciPy returns depends on the value of q, which JAX "
                "needs before its callback runs (the adapter finds shapes on stand-in values)",
                ("jax",),
            ),
            Limit(1, SCALARS_ONLY, ("torch", "autograd")),
        )
        for f in (sc.mathieu_even_coef, sc.mathieu_odd_coef)
    },
}
LINALG_LIMITS = {
    sla.eigh: Limit(
        0,
        "at this sample the signs LAPACK gives the eigenvectors flip between the two steps of "
        "autograd's check_grads in its random direction (differences of 1e6); torch and JAX "
        "check the same rules here to second order",
        ("autograd",),
    ),
    **{f: Limit(1, LAPACK_FACTORS) for f in (sla.hessenberg, sla.ldl, sla.qz, sla.ordqz)},
    sla.schur: Limit(1, "LAPACK's Schur decomposition computes the value"),
    sla.expm_cond: Limit(
        1,
        "the rule computes with SciPy's expm_cond and expm, which the reverse engine's "
        "tracked values cannot pass through when the pullback is differentiated",
    ),
    **{
        f: Limit(0, OFF_THE_MANIFOLD.format("factorizations (Q unitary, R triangular)"))
        for f in (sla.qr_update, sla.qr_insert, sla.qr_delete)
    },
    sla.cossin: Limit(0, OFF_THE_MANIFOLD.format("the unitary matrices")),
    sla.rsf2csf: Limit(0, OFF_THE_MANIFOLD.format("real Schur forms")),
    **{
        f: Limit(0, OFF_THE_MANIFOLD.format("Hermitian q and r"))
        for f in (sla.solve_continuous_are, sla.solve_discrete_are)
    },
}

# ---- the merged tables ----------------------------------------------------------------------

_ROW_SAMPLES, _ROW_LIMITS = _from_rows()
SAMPLES: dict[Any, Sample] = {**_ROW_SAMPLES, **{s.f: s for s in (*SPECIAL, *LINALG)}}
LIMITS: dict[Any, Limit | tuple[Limit, ...]] = {**_ROW_LIMITS, **LINALG_LIMITS, **SPECIAL_LIMITS}
