"""Rules for ``scipy.linalg``'s Cholesky factorizations and solvers: cholesky, cho_factor,
cho_solve, cholesky_banded, cho_solve_banded.

``cholesky`` is NumPy's (the rule of ``np.linalg.cholesky`` with ``upper=not lower``).
``cho_factor`` returns the Cholesky factor in one triangle and ``a``'s own entries in the
other, which pass through; ``cho_solve`` differentiates through the factor's triangle.

The banded ones take ``solveh_banded``'s band storage (see ``banded``), and are
differentiated through the dense matrix it describes, read back on the band:

* **cholesky_banded.** The factor (``A = U^H U``, or ``L L^H`` with ``lower=True``) has the
  bandwidth of ``A``; its derivative is ``numpy.linalg.cholesky``'s, read on the band. The
  corners of ``ab`` are copied to the result untouched, so their cotangents pass through.
* **cho_solve_banded((cb, lower), b)** solves with ``U^H U`` (``L L^H``) built from the band
  of ``cb`` as stored, a complex diagonal included: ``b_bar = A^{-1} x_bar``,
  ``U_bar = U (A_bar + A_bar^H)`` with ``A_bar = -b_bar x^H`` (``L_bar = (A_bar + A_bar^H) L``).

NumPy inputs take SciPy's routines for the values; other array types (an engine's tracked
values) the dense matrix through their namespace. 2-D ``ab`` only.

>>> import numpy as np
>>> import scipy.linalg
>>> from chainrules.core.registry import rrule
>>> c, pullback = rrule(scipy.linalg.cholesky, np.array([[4.0, 0.0], [0.0, 9.0]]))
>>> c
array([[2., 0.],
       [0., 3.]])
>>> pullback(np.eye(2))[1]
array([[0.25      , 0.        ],
       [0.        , 0.16666667]])
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg as sla

from ....core.namespace import array_namespace, is_numpy
from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.tangents import NO_TANGENT, ZERO_TANGENT, Tangent
from ....core.thunks import unthunk
from ....core.zeros import is_zero
from ...matrices import (
    as_given,
    as_matrix,
    cholesky_factor,
    lower_hermitian,
    lower_hermitian_cotangent,
    mH,
    output_fields,
)
from ...numpy.linalg.decompositions import cholesky_pullback_of, cholesky_pushforward_of
from .banded import Band, band_of, hermitian_band, hermitian_matrix

__all__: list[str] = []


# ---- cholesky, cho_factor, cho_solve --------------------------------------------------------


@rrule.register(sla.cholesky)
def _cholesky_rrule(a, lower=False, *, check_finite=True):
    # The same factorization of the same triangle as NumPy's with upper=not lower.
    return rrule(np.linalg.cholesky, a, upper=not lower)


@frule.register(sla.cholesky)
def _cholesky_frule(tangents, a, lower=False, *, check_finite=True):
    return frule(tangents[:2], np.linalg.cholesky, a, upper=not lower)


def _cho_factor(a: Any, lower: bool) -> Any:
    """``cho_factor``'s packed result: the factor's triangle, ``a``'s other strict triangle."""
    xp = array_namespace(a)
    if is_numpy(a):
        return sla.cho_factor(a, lower=lower, check_finite=False)[0]
    factor = cholesky_factor(a, upper=not lower)
    other = xp.triu(a, k=1) if lower else xp.tril(a, k=-1)
    return factor + other


def _factor_triangle(c: Any, lower: bool) -> Any:
    xp = array_namespace(c)
    return xp.tril(c) if lower else xp.triu(c)


@rrule.register(sla.cho_factor)
def _cho_factor_rrule(a, lower=False, *, check_finite=True):
    xp = array_namespace(a)
    project_a = ProjectTo(a)
    c = _cho_factor(a, lower)
    low = _factor_triangle(c, lower)
    low = low if lower else mH(low)

    def cho_factor_pullback(dy):
        g_c, _ = output_fields(dy, ("c", "lower"), (c, lower), sla.cho_factor)
        g_factor = _factor_triangle(g_c, lower)
        g = cholesky_pullback_of(low, g_factor if lower else mH(g_factor))
        passed = xp.triu(g_c, k=1) if lower else xp.tril(g_c, k=-1)
        return NO_TANGENT, project_a(lower_hermitian_cotangent(g, upper=not lower) + passed)

    return (c, lower), cho_factor_pullback


@frule.register(sla.cho_factor)
def _cho_factor_frule(tangents, a, lower=False, *, check_finite=True):
    xp = array_namespace(a)
    c = _cho_factor(a, lower)
    da = tangents[1]
    if is_zero(da):
        return (c, lower), da
    low = _factor_triangle(c, lower)
    low = low if lower else mH(low)
    d_low = cholesky_pushforward_of(low, lower_hermitian(da, upper=not lower))
    passed = xp.triu(da, k=1) if lower else xp.tril(da, k=-1)
    dc = (d_low if lower else mH(d_low)) + passed
    return (c, lower), Tangent(tuple, dc, NO_TANGENT)


def _cho_matrix(c: Any, lower: bool) -> Any:
    """The positive definite matrix that a packed Cholesky factor describes."""
    xp = array_namespace(c)
    t = _factor_triangle(c, lower)
    return xp.matmul(t, mH(t)) if lower else xp.matmul(mH(t), t)


def _cho_solve(c: Any, lower: bool, b: Any) -> Any:
    if is_numpy(c, b):
        return sla.cho_solve((c, lower), b, check_finite=False)
    return array_namespace(c, b).linalg.solve(_cho_matrix(c, lower), b)


@rrule.register(sla.cho_solve)
def _cho_solve_rrule(c_and_lower, b, *, check_finite=True):
    xp = array_namespace(c_and_lower[0], b)
    c, lower = c_and_lower
    project_pair, project_b = ProjectTo(c_and_lower), ProjectTo(b)
    vector = b.ndim == 1
    x = _cho_solve(c, lower, as_matrix(b, vector))

    def cho_solve_pullback(dy):
        db = _cho_solve(c, lower, as_matrix(dy, vector))
        g_m = -xp.matmul(db, mH(x))
        g_m = g_m + mH(g_m)
        t = _factor_triangle(c, lower)
        g_t = xp.matmul(g_m, t) if lower else xp.matmul(t, g_m)
        g_pair = project_pair((_factor_triangle(g_t, lower), NO_TANGENT))
        return NO_TANGENT, g_pair, project_b(as_given(db, vector))

    return as_given(x, vector), cho_solve_pullback


@frule.register(sla.cho_solve)
def _cho_solve_frule(tangents, c_and_lower, b, *, check_finite=True):
    xp = array_namespace(c_and_lower[0], b)
    c, lower = c_and_lower
    vector = b.ndim == 1
    x = _cho_solve(c, lower, as_matrix(b, vector))
    d_pair, db = tangents[1], tangents[2]
    dc = ZERO_TANGENT if is_zero(d_pair) else unthunk(d_pair[0])
    rhs: Any = ZERO_TANGENT
    if not is_zero(db):
        rhs = as_matrix(db, vector)
    if not is_zero(dc):
        t, dt = _factor_triangle(c, lower), _factor_triangle(dc, lower)
        dm = xp.matmul(dt, mH(t)) if lower else xp.matmul(mH(dt), t)
        rhs = rhs - xp.matmul(dm + mH(dm), x)
    y = as_given(x, vector)
    if is_zero(rhs):
        return y, rhs
    return y, as_given(_cho_solve(c, lower, xp.broadcast_to(rhs, x.shape)), vector)


# ---- cholesky_banded, cho_solve_banded ----------------------------------------------------


def _dense_factor(band: Band, cb: Any, lower: bool) -> Any:
    """The lower triangular ``L`` (``A = L L^H``) that the band ``cb`` stores."""
    t = band.matrix(cb)
    return t if lower else mH(t)


def _corners(band: Band, ab: Any) -> Any:
    """``ab`` in its corners (the entries outside the matrix), zero on the band."""
    xp = array_namespace(ab)
    return ab * xp.asarray(~band.inside, dtype=ab.dtype)


def _cholesky_banded(band: Band, ab: Any, lower: bool) -> Any:
    if is_numpy(ab):
        return sla.cholesky_banded(ab, lower=lower, check_finite=False)
    low = cholesky_factor(hermitian_matrix(band, ab, lower))
    # LAPACK leaves the corners of the storage as they were.
    return band_of(band, low if lower else mH(low)) + _corners(band, ab)


@rrule.register(sla.cholesky_banded)
def _cholesky_banded_rrule(ab, overwrite_ab=False, lower=False, check_finite=True):
    project_ab = ProjectTo(ab)
    band = hermitian_band(ab, lower)
    cb = _cholesky_banded(band, ab, lower)
    low = _dense_factor(band, cb, lower)

    def cholesky_banded_pullback(dy):
        g_low = _dense_factor(band, dy, lower)
        g = lower_hermitian_cotangent(cholesky_pullback_of(low, g_low), upper=not lower)
        return NO_TANGENT, project_ab(band_of(band, g) + _corners(band, dy))

    return cb, cholesky_banded_pullback


@frule.register(sla.cholesky_banded)
def _cholesky_banded_frule(tangents, ab, overwrite_ab=False, lower=False, check_finite=True):
    band = hermitian_band(ab, lower)
    cb = _cholesky_banded(band, ab, lower)
    d_ab = tangents[1]
    if is_zero(d_ab):
        return cb, d_ab
    low = _dense_factor(band, cb, lower)
    d_low = cholesky_pushforward_of(low, hermitian_matrix(band, d_ab, lower))
    d_cb = band_of(band, d_low if lower else mH(d_low)) + _corners(band, d_ab)
    return cb, ProjectTo(cb)(d_cb)


def _cho_solve_banded(band: Band, cb: Any, lower: bool, b: Any) -> Any:
    if is_numpy(cb, b):
        return sla.cho_solve_banded((cb, lower), b, check_finite=False)
    xp = array_namespace(cb, b)
    low = _dense_factor(band, cb, lower)
    return xp.linalg.solve(xp.matmul(low, mH(low)), b)


@rrule.register(sla.cho_solve_banded)
def _cho_solve_banded_rrule(cb_and_lower, b, overwrite_b=False, check_finite=True):
    cb, lower = cb_and_lower
    xp = array_namespace(cb, b)
    project_pair, project_b = ProjectTo(cb_and_lower), ProjectTo(b)
    band = hermitian_band(cb, lower)
    vector = b.ndim == 1
    x = _cho_solve_banded(band, cb, lower, as_matrix(b, vector))

    def cho_solve_banded_pullback(dy):
        db = _cho_solve_banded(band, cb, lower, as_matrix(dy, vector))
        g_a = -xp.matmul(db, mH(x))
        g_a = g_a + mH(g_a)
        low = _dense_factor(band, cb, lower)
        g_low = xp.matmul(g_a, low)
        g_cb = band_of(band, g_low if lower else mH(g_low))
        return NO_TANGENT, project_pair((g_cb, NO_TANGENT)), project_b(as_given(db, vector))

    return as_given(x, vector), cho_solve_banded_pullback


@frule.register(sla.cho_solve_banded)
def _cho_solve_banded_frule(tangents, cb_and_lower, b, overwrite_b=False, check_finite=True):
    cb, lower = cb_and_lower
    xp = array_namespace(cb, b)
    band = hermitian_band(cb, lower)
    vector = b.ndim == 1
    x = _cho_solve_banded(band, cb, lower, as_matrix(b, vector))
    d_pair, db = tangents[1], tangents[2]
    d_cb = ZERO_TANGENT if is_zero(d_pair) else unthunk(d_pair[0])
    rhs: Any = ZERO_TANGENT if is_zero(db) else as_matrix(db, vector)
    if not is_zero(d_cb):
        low, d_low = _dense_factor(band, cb, lower), _dense_factor(band, d_cb, lower)
        half = xp.matmul(d_low, mH(low))
        rhs = rhs - xp.matmul(half + mH(half), x)
    y = as_given(x, vector)
    if is_zero(rhs):
        return y, rhs
    rhs = xp.broadcast_to(rhs, x.shape)
    return y, as_given(_cho_solve_banded(band, cb, lower, rhs), vector)
