"""Rules for ``scipy.linalg``'s banded and tridiagonal Hermitian solvers: eig_banded,
eigvals_banded, eigh_tridiagonal, eigvalsh_tridiagonal, cholesky_banded, cho_solve_banded.

The band storage is ``solveh_banded``'s (see ``linalg_banded``): ``a_band`` holds one triangle
of a Hermitian ``A``, the upper one (``a_band[u + i - j, j] = A[i, j]``) or with ``lower=True``
the lower one (``a_band[i - j, j] = A[i, j]``), and LAPACK reads the real part of the
diagonal. The rules differentiate the dense matrix that storage describes, as
``scipy.linalg.eigh`` and ``cholesky`` are differentiated, and read the dense cotangent back
on the stored band: a stored off-diagonal entry collects ``A_bar[i, j] + conj(A_bar[j, i])``,
entries of ``a_band`` outside the matrix (the corners) take no cotangent.

* **eig_banded, eigh_tridiagonal.** ``dw_i = v_i^H dA v_i``; eigenvectors couple through
  ``1 / (w_j - w_i)``, masked at repeated eigenvalues as in ``numpy.linalg.eigh``'s rule (a
  loss must not depend on the basis chosen inside a degenerate eigenspace). ``select='i'``
  and ``select='v'`` (the window ``(vl, vu]``) work as ``eigh``'s subsets: eigenvalue
  cotangents need only the selected pairs, eigenvector cotangents couple to every pair, so
  the pullback then completes the decomposition. ``eigh_tridiagonal(d, e)`` is real:
  ``dw_i/dd_j = v_ji^2`` and ``dw_i/de_j = 2 v_ji v_(j+1)i``. An eigenvector's sign (phase)
  is LAPACK's choice; the rules differentiate the branch returned. ``lapack_driver='stemr'``
  may flip a sign under any perturbation, so its eigenvectors are differentiable only
  through sign-free losses.
* **cholesky_banded.** The factor (``A = U^H U``, or ``L L^H`` with ``lower=True``) has the
  bandwidth of ``A``; its derivative is ``numpy.linalg.cholesky``'s, read on the band. The
  corners of ``ab`` are copied to the result untouched, so their cotangents pass through.
* **cho_solve_banded((cb, lower), b)** solves with ``U^H U`` (``L L^H``) built from the band
  of ``cb`` as stored, a complex diagonal included: ``b_bar = A^{-1} x_bar``,
  ``U_bar = U (A_bar + A_bar^H)`` with ``A_bar = -b_bar x^H`` (``L_bar = (A_bar + A_bar^H) L``).

The derivatives go through dense ``n x n`` matrices (``O(n^3)``). NumPy inputs take SciPy's
banded routines for the values; other array types (an engine's tracked values) the dense
matrix through their namespace, eigenvectors turned to the signs SciPy gives on the values
under the tracking, so the pullbacks differentiate again. 2-D ``a_band`` only.

>>> import numpy as np
>>> import scipy.linalg
>>> from chainrules.core.registry import rrule
>>> w, pullback = rrule(scipy.linalg.eigvalsh_tridiagonal, np.array([1.0, 3.0]), np.zeros(1))
>>> pullback(np.array([1.0, 0.0]))[1:]
(array([1., 0.]), array([0.]))
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg as sla

from ...core.arguments import positional_cotangents
from ...core.define import ignore_derivatives
from ...core.dtypes import is_complex
from ...core.namespace import array_namespace
from ...core.projection import ProjectTo
from ...core.registry import frule, rrule
from ...core.tangents import NO_TANGENT, ZERO_TANGENT, AbstractZero, Tangent
from ...core.thunks import unthunk
from ..matrices import (
    as_given,
    as_matrix,
    lower_hermitian_cotangent,
    mH,
    output_fields,
    safe_reciprocal,
)
from ..numpy.linalg_decomp import cholesky_pullback_of, cholesky_pushforward_of
from ..numpy.linalg_spectral import eigh_pullback_of, gap_tolerance
from .linalg_banded import Band, hermitian_band, hermitian_matrix
from .linalg_decomp import eigenvalue_window, selection_start
from .linalg_structured import all_numpy

__all__: list[str] = []


def _band_of(band: Band, dense: Any) -> Any:
    """The band storage of ``dense``: its entries on the band, zero in the corners."""
    xp = array_namespace(dense)
    n = band.n
    index = band.rows * n + np.arange(n)[None, :]
    flat = xp.take(xp.reshape(dense, (n * n,)), xp.asarray(index.reshape(-1)))
    values = xp.reshape(flat, band.rows.shape)
    return values * xp.asarray(band.inside, dtype=values.dtype)


def _select_kind(select: Any) -> str:
    """SciPy's ``select`` as ``'a'``, ``'v'`` or ``'i'``."""
    kinds = {"a": "a", "all": "a", 0: "a", "v": "v", "value": "v", 1: "v"}
    kinds.update({"i": "i", "index": "i", 2: "i"})
    key = select.lower() if isinstance(select, str) else select
    if key not in kinds:
        raise ValueError(f"invalid argument for select: {select!r}")
    return kinds[key]


class _Spectrum:
    """The eigenpairs a banded or tridiagonal solver returned for the Hermitian ``h``, and
    where they sit in the whole spectrum (``kind``: SciPy's ``select``, ``'a'``, ``'i'`` or
    ``'v'``)."""

    def __init__(self, h: Any, w: Any, v: Any, kind: str, select_range: Any) -> None:
        self.h, self.w, self.v, self.kind = h, w, v, kind
        self.first = int(select_range[0]) if kind == "i" else None

    def complete(self) -> tuple[Any, Any, int]:
        """``(w_all, v_all, first)``: every eigenpair, the returned vectors in their place."""
        if self.kind == "a":
            return self.w, self.v, 0
        xp = array_namespace(self.h)
        w_all, v_all = xp.linalg.eigh(self.h)
        first = self.first if self.first is not None else selection_start(w_all, self.w)
        stop = first + self.w.shape[-1]
        # The returned vectors replace the recomputed ones, whose signs may differ.
        v_all = xp.concat([v_all[:, :first], self.v, v_all[:, stop:]], axis=1)
        return w_all, v_all, first

    def cotangent(self, g_w: Any, g_v: Any, upper: bool) -> Any:
        """The cotangent of the triangle read, from those of the returned eigenpairs."""
        if isinstance(g_v, AbstractZero) or self.kind == "a":
            return eigh_pullback_of(self.w, self.v, g_w, g_v, upper)
        w_all, v_all, first = self.complete()
        after = w_all.shape[-1] - first - self.w.shape[-1]
        g_w_all = g_w if isinstance(g_w, AbstractZero) else _pad_columns(g_w, first, after)
        return eigh_pullback_of(w_all, v_all, g_w_all, _pad_columns(g_v, first, after), upper)

    def tangent(self, dh: Any, vectors: bool) -> Any:
        """``dw`` (and ``(dw, dv)`` with ``vectors``) along the Hermitian tangent ``dh``."""
        xp = array_namespace(self.h, dh)
        v = self.v
        k = xp.matmul(dh, v)
        dw = xp.sum((xp.conj(v) if is_complex(v) else v) * k, axis=0)
        dw = xp.real(dw) if is_complex(dw) else dw
        if not vectors:
            return dw
        w_all, v_all, _ = self.complete()
        coupling = safe_reciprocal(self.w[None, :] - w_all[:, None], gap_tolerance(w_all))
        dv = xp.matmul(v_all, xp.astype(coupling, v.dtype) * xp.matmul(mH(v_all), k))
        return Tangent(tuple, dw, dv)


def _pad_columns(g: Any, before: int, after: int) -> Any:
    """``g`` (a vector, or a matrix by columns) with zero entries before and after."""
    xp = array_namespace(g)
    rows = tuple(g.shape[:-1])
    return xp.concat(
        [xp.zeros((*rows, before), dtype=g.dtype), g, xp.zeros((*rows, after), dtype=g.dtype)],
        axis=-1,
    )


def _dense_eigh(h: Any, kind: str, select_range: Any, reference: Any) -> tuple[Any, Any]:
    """The selected eigenpairs of ``h`` by the namespace's ``eigh`` (tracked values), each
    eigenvector turned to the sign (phase) of SciPy's ``reference`` vectors, a constant."""
    xp = array_namespace(h)
    w, v = xp.linalg.eigh(h)
    if kind != "a":
        first, last = eigenvalue_window(w, select_range) if kind == "v" else select_range
        w, v = w[first : last + 1], v[:, first : last + 1]
    overlap = np.sum(np.conj(np.asarray(ignore_derivatives(v))) * reference, axis=0)
    return w, v * xp.asarray((overlap / np.abs(overlap)).astype(reference.dtype))


# ---- eig_banded, eigvals_banded -----------------------------------------------------------


def _banded_spectrum(
    a_band: Any, lower: bool, select: Any, select_range: Any, max_ev: int
) -> tuple[Band, _Spectrum]:
    """The band of ``a_band`` and the eigenpairs that ``eig_banded`` returns for it."""
    band = hermitian_band(a_band, lower)
    h = hermitian_matrix(band, a_band, lower)
    kind = _select_kind(select)
    options = {"select": select, "select_range": select_range, "max_ev": max_ev}
    plain = a_band if all_numpy(a_band) else np.asarray(ignore_derivatives(a_band))
    w, v = sla.eig_banded(plain, lower=lower, check_finite=False, **options)
    if not all_numpy(a_band):
        w, v = _dense_eigh(h, kind, select_range, v)
    return band, _Spectrum(h, w, v, kind, select_range)


def _eig_banded_rule(
    a_band: Any, lower: bool, eigvals_only: bool, select: Any, select_range: Any, max_ev: int
) -> tuple[Any, Any]:
    project_ab = ProjectTo(a_band)
    band, spectrum = _banded_spectrum(a_band, lower, select, select_range, max_ev)

    def eig_banded_pullback(dy):
        if eigvals_only:
            g_w, g_v = unthunk(dy), ZERO_TANGENT
        else:
            g_w, g_v = output_fields(dy, ("w", "v"))
        if isinstance(g_w, AbstractZero) and isinstance(g_v, AbstractZero):
            return NO_TANGENT, project_ab(ZERO_TANGENT)
        g = spectrum.cotangent(g_w, g_v, upper=not lower)
        return NO_TANGENT, project_ab(_band_of(band, g))

    return (spectrum.w if eigvals_only else (spectrum.w, spectrum.v)), eig_banded_pullback


def _eig_banded_pushforward(
    tangents: tuple,
    a_band: Any,
    lower: bool,
    eigvals_only: bool,
    select: Any,
    select_range: Any,
    max_ev: int,
) -> tuple[Any, Any]:
    band, spectrum = _banded_spectrum(a_band, lower, select, select_range, max_ev)
    y = spectrum.w if eigvals_only else (spectrum.w, spectrum.v)
    d_ab = unthunk(tangents[1])
    if isinstance(d_ab, AbstractZero):
        return y, d_ab
    return y, spectrum.tangent(hermitian_matrix(band, d_ab, lower), not eigvals_only)


@rrule.register(sla.eig_banded)
@positional_cotangents
def _eig_banded_rrule(
    a_band,
    lower=False,
    eigvals_only=False,
    overwrite_a_band=False,
    select="a",
    select_range=None,
    max_ev=0,
    check_finite=True,
):
    return _eig_banded_rule(a_band, lower, eigvals_only, select, select_range, max_ev)


@frule.register(sla.eig_banded)
def _eig_banded_frule(
    tangents,
    a_band,
    lower=False,
    eigvals_only=False,
    overwrite_a_band=False,
    select="a",
    select_range=None,
    max_ev=0,
    check_finite=True,
):
    return _eig_banded_pushforward(
        tangents, a_band, lower, eigvals_only, select, select_range, max_ev
    )


@rrule.register(sla.eigvals_banded)
@positional_cotangents
def _eigvals_banded_rrule(
    a_band, lower=False, overwrite_a_band=False, select="a", select_range=None, check_finite=True
):
    return _eig_banded_rule(a_band, lower, True, select, select_range, 0)


@frule.register(sla.eigvals_banded)
def _eigvals_banded_frule(
    tangents,
    a_band,
    lower=False,
    overwrite_a_band=False,
    select="a",
    select_range=None,
    check_finite=True,
):
    return _eig_banded_pushforward(tangents, a_band, lower, True, select, select_range, 0)


# ---- eigh_tridiagonal, eigvalsh_tridiagonal -----------------------------------------------


def _tridiagonal(d: Any, e: Any) -> tuple[Band, Any]:
    """The lower band storage ``[d; e, 0]`` of the symmetric tridiagonal matrix, its band."""
    xp = array_namespace(d, e)
    dtype = xp.result_type(d, e)
    tail = xp.concat([xp.astype(e, dtype), xp.zeros((1,), dtype=dtype)])
    return Band(1, 0, d.shape[0]), xp.stack([xp.astype(d, dtype), tail])


def _tridiagonal_spectrum(
    d: Any, e: Any, select: Any, select_range: Any, tol: Any, driver: str
) -> _Spectrum:
    """The eigenpairs that ``eigh_tridiagonal`` returns (``'sterf'``, which gives
    eigenvalues only, is replaced by the default driver)."""
    band, ab = _tridiagonal(d, e)
    h = hermitian_matrix(band, ab, True)
    kind = _select_kind(select)
    driver = "auto" if driver == "sterf" else driver
    options = {"select": select, "select_range": select_range, "tol": tol}
    plain = (d, e) if all_numpy(d, e) else (np.asarray(ignore_derivatives(x)) for x in (d, e))
    w, v = sla.eigh_tridiagonal(*plain, lapack_driver=driver, check_finite=False, **options)
    if not all_numpy(d, e):
        w, v = _dense_eigh(h, kind, select_range, v)
    return _Spectrum(h, w, v, kind, select_range)


def _tridiagonal_cotangents(spectrum: _Spectrum, g_w: Any, g_v: Any) -> tuple[Any, Any]:
    """The cotangents of ``d`` and ``e`` from those of the eigenpairs."""
    xp = array_namespace(spectrum.v)
    v = spectrum.v
    if isinstance(g_v, AbstractZero):
        return xp.matmul(v * v, g_w), 2 * xp.matmul(v[:-1, :] * v[1:, :], g_w)
    g = spectrum.cotangent(g_w, g_v, upper=False)
    return xp.linalg.diagonal(g), xp.linalg.diagonal(g, offset=-1)


def _tridiagonal_tangent(spectrum: _Spectrum, dd: Any, de: Any, vectors: bool) -> Any:
    xp = array_namespace(spectrum.v)
    n, dtype = spectrum.v.shape[0], spectrum.v.dtype
    dd = xp.zeros((n,), dtype=dtype) if isinstance(dd, AbstractZero) else dd
    de = xp.zeros((n - 1,), dtype=dtype) if isinstance(de, AbstractZero) else de
    if not vectors:
        v = spectrum.v
        return xp.matmul(dd, v * v) + 2 * xp.matmul(de, v[:-1, :] * v[1:, :])
    band, d_ab = _tridiagonal(dd, de)
    return spectrum.tangent(hermitian_matrix(band, d_ab, True), True)


def _tridiagonal_rule(
    d: Any, e: Any, eigvals_only: bool, select: Any, select_range: Any, tol: Any, driver: str
) -> tuple[Any, Any]:
    project_d, project_e = ProjectTo(d), ProjectTo(e)
    spectrum = _tridiagonal_spectrum(d, e, select, select_range, tol, driver)

    def eigh_tridiagonal_pullback(dy):
        if eigvals_only:
            g_w, g_v = unthunk(dy), ZERO_TANGENT
        else:
            g_w, g_v = output_fields(dy, ("w", "v"))
        if isinstance(g_w, AbstractZero) and isinstance(g_v, AbstractZero):
            return NO_TANGENT, project_d(ZERO_TANGENT), project_e(ZERO_TANGENT)
        g_d, g_e = _tridiagonal_cotangents(spectrum, g_w, g_v)
        return NO_TANGENT, project_d(g_d), project_e(g_e)

    y = spectrum.w if eigvals_only else (spectrum.w, spectrum.v)
    return y, eigh_tridiagonal_pullback


def _tridiagonal_pushforward(
    tangents: tuple,
    d: Any,
    e: Any,
    eigvals_only: bool,
    select: Any,
    select_range: Any,
    tol: Any,
    driver: str,
) -> tuple[Any, Any]:
    spectrum = _tridiagonal_spectrum(d, e, select, select_range, tol, driver)
    y = spectrum.w if eigvals_only else (spectrum.w, spectrum.v)
    dd, de = unthunk(tangents[1]), unthunk(tangents[2])
    if isinstance(dd, AbstractZero) and isinstance(de, AbstractZero):
        return y, ZERO_TANGENT
    return y, _tridiagonal_tangent(spectrum, dd, de, not eigvals_only)


@rrule.register(sla.eigh_tridiagonal)
@positional_cotangents
def _eigh_tridiagonal_rrule(
    d,
    e,
    eigvals_only=False,
    select="a",
    select_range=None,
    check_finite=True,
    tol=0.0,
    lapack_driver="auto",
):
    return _tridiagonal_rule(d, e, eigvals_only, select, select_range, tol, lapack_driver)


@frule.register(sla.eigh_tridiagonal)
def _eigh_tridiagonal_frule(
    tangents,
    d,
    e,
    eigvals_only=False,
    select="a",
    select_range=None,
    check_finite=True,
    tol=0.0,
    lapack_driver="auto",
):
    return _tridiagonal_pushforward(
        tangents, d, e, eigvals_only, select, select_range, tol, lapack_driver
    )


@rrule.register(sla.eigvalsh_tridiagonal)
@positional_cotangents
def _eigvalsh_tridiagonal_rrule(
    d, e, select="a", select_range=None, check_finite=True, tol=0.0, lapack_driver="auto"
):
    return _tridiagonal_rule(d, e, True, select, select_range, tol, lapack_driver)


@frule.register(sla.eigvalsh_tridiagonal)
def _eigvalsh_tridiagonal_frule(
    tangents, d, e, select="a", select_range=None, check_finite=True, tol=0.0, lapack_driver="auto"
):
    return _tridiagonal_pushforward(tangents, d, e, True, select, select_range, tol, lapack_driver)


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
    if all_numpy(ab):
        return sla.cholesky_banded(ab, lower=lower, check_finite=False)
    low = array_namespace(ab).linalg.cholesky(hermitian_matrix(band, ab, lower))
    # LAPACK leaves the corners of the storage as they were.
    return _band_of(band, low if lower else mH(low)) + _corners(band, ab)


@rrule.register(sla.cholesky_banded)
@positional_cotangents
def _cholesky_banded_rrule(ab, overwrite_ab=False, lower=False, check_finite=True):
    project_ab = ProjectTo(ab)
    band = hermitian_band(ab, lower)
    cb = _cholesky_banded(band, ab, lower)
    low = _dense_factor(band, cb, lower)

    def cholesky_banded_pullback(dy):
        dy = unthunk(dy)
        if isinstance(dy, AbstractZero):
            return NO_TANGENT, project_ab(dy)
        g_low = _dense_factor(band, dy, lower)
        g = lower_hermitian_cotangent(cholesky_pullback_of(low, g_low), upper=not lower)
        return NO_TANGENT, project_ab(_band_of(band, g) + _corners(band, dy))

    return cb, cholesky_banded_pullback


@frule.register(sla.cholesky_banded)
def _cholesky_banded_frule(tangents, ab, overwrite_ab=False, lower=False, check_finite=True):
    band = hermitian_band(ab, lower)
    cb = _cholesky_banded(band, ab, lower)
    d_ab = unthunk(tangents[1])
    if isinstance(d_ab, AbstractZero):
        return cb, d_ab
    low = _dense_factor(band, cb, lower)
    d_low = cholesky_pushforward_of(low, hermitian_matrix(band, d_ab, lower))
    d_cb = _band_of(band, d_low if lower else mH(d_low)) + _corners(band, d_ab)
    return cb, ProjectTo(cb)(d_cb)


def _cho_solve_banded(band: Band, cb: Any, lower: bool, b: Any) -> Any:
    if all_numpy(cb, b):
        return sla.cho_solve_banded((cb, lower), b, check_finite=False)
    xp = array_namespace(cb, b)
    low = _dense_factor(band, cb, lower)
    return xp.linalg.solve(xp.matmul(low, mH(low)), b)


@rrule.register(sla.cho_solve_banded)
@positional_cotangents
def _cho_solve_banded_rrule(cb_and_lower, b, overwrite_b=False, check_finite=True):
    cb, lower = cb_and_lower
    xp = array_namespace(cb, b)
    project_pair, project_b = ProjectTo(cb_and_lower), ProjectTo(b)
    band = hermitian_band(cb, lower)
    vector = b.ndim == 1
    x = _cho_solve_banded(band, cb, lower, as_matrix(b, vector))

    def cho_solve_banded_pullback(dy):
        dy = unthunk(dy)
        if isinstance(dy, AbstractZero):
            return NO_TANGENT, project_pair(dy), project_b(dy)
        db = _cho_solve_banded(band, cb, lower, as_matrix(dy, vector))
        g_a = -xp.matmul(db, mH(x))
        g_a = g_a + mH(g_a)
        low = _dense_factor(band, cb, lower)
        g_low = xp.matmul(g_a, low)
        g_cb = _band_of(band, g_low if lower else mH(g_low))
        return NO_TANGENT, project_pair((g_cb, NO_TANGENT)), project_b(as_given(db, vector))

    return as_given(x, vector), cho_solve_banded_pullback


@frule.register(sla.cho_solve_banded)
def _cho_solve_banded_frule(tangents, cb_and_lower, b, overwrite_b=False, check_finite=True):
    cb, lower = cb_and_lower
    xp = array_namespace(cb, b)
    band = hermitian_band(cb, lower)
    vector = b.ndim == 1
    x = _cho_solve_banded(band, cb, lower, as_matrix(b, vector))
    d_pair, db = unthunk(tangents[1]), unthunk(tangents[2])
    d_cb = ZERO_TANGENT if isinstance(d_pair, AbstractZero) else unthunk(d_pair[0])
    rhs: Any = ZERO_TANGENT if isinstance(db, AbstractZero) else as_matrix(db, vector)
    if not isinstance(d_cb, AbstractZero):
        low, d_low = _dense_factor(band, cb, lower), _dense_factor(band, d_cb, lower)
        half = xp.matmul(d_low, mH(low))
        rhs = rhs - xp.matmul(half + mH(half), x)
    y = as_given(x, vector)
    if isinstance(rhs, AbstractZero):
        return y, rhs
    rhs = xp.broadcast_to(rhs, x.shape)
    return y, as_given(_cho_solve_banded(band, cb, lower, rhs), vector)
