"""Rules for ``scipy.linalg``'s banded and tridiagonal Hermitian eigenvalue problems:
eig_banded, eigvals_banded, eigh_tridiagonal, eigvalsh_tridiagonal.

The band storage is ``solveh_banded``'s (see ``banded``): ``a_band`` holds one triangle
of a Hermitian ``A``, the upper one (``a_band[u + i - j, j] = A[i, j]``) or with ``lower=True``
the lower one (``a_band[i - j, j] = A[i, j]``), and LAPACK reads the real part of the
diagonal. The rules differentiate the dense matrix that storage describes, as
``scipy.linalg.eigh`` is differentiated, and read the dense cotangent back
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

from ....core.define import ignore_derivatives
from ....core.namespace import array_namespace, is_numpy
from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.tangents import NO_TANGENT, ZERO_TANGENT
from ....core.zeros import is_zero
from .banded import Band, band_of, hermitian_band, hermitian_matrix
from .eigen import SelectedEigenpairs, eigenpair_cotangents, eigenvalue_window

__all__: list[str] = []


def _select_kind(select: Any) -> str:
    """SciPy's ``select`` as ``'a'``, ``'v'`` or ``'i'``."""
    kinds = {"a": "a", "all": "a", 0: "a", "v": "v", "value": "v", 1: "v"}
    kinds.update({"i": "i", "index": "i", 2: "i"})
    key = select.lower() if isinstance(select, str) else select
    if key not in kinds:
        raise ValueError(f"invalid argument for select: {select!r}")
    return kinds[key]


def _spectrum(h: Any, w: Any, v: Any, kind: str, select_range: Any) -> SelectedEigenpairs:
    """The eigenpairs a banded or tridiagonal solver returned for the Hermitian ``h``, and
    where they sit in the whole spectrum (``kind``: SciPy's ``select``)."""
    first = int(select_range[0]) if kind == "i" else None
    return SelectedEigenpairs(h, w, v, kind != "a", first)


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
) -> tuple[Band, SelectedEigenpairs]:
    """The band of ``a_band`` and the eigenpairs that ``eig_banded`` returns for it."""
    band = hermitian_band(a_band, lower)
    h = hermitian_matrix(band, a_band, lower)
    kind = _select_kind(select)
    options = {"select": select, "select_range": select_range, "max_ev": max_ev}
    plain = a_band if is_numpy(a_band) else np.asarray(ignore_derivatives(a_band))
    w, v = sla.eig_banded(plain, lower=lower, check_finite=False, **options)
    if not is_numpy(a_band):
        w, v = _dense_eigh(h, kind, select_range, v)
    return band, _spectrum(h, w, v, kind, select_range)


def _eig_banded_rule(
    a_band: Any, lower: bool, eigvals_only: bool, select: Any, select_range: Any, max_ev: int
) -> tuple[Any, Any]:
    project_ab = ProjectTo(a_band)
    band, spectrum = _banded_spectrum(a_band, lower, select, select_range, max_ev)

    result = spectrum.returned(not eigvals_only)

    def eig_banded_pullback(dy):
        g_w, g_v = eigenpair_cotangents(dy, not eigvals_only, result, sla.eig_banded)
        g = spectrum.cotangent(g_w, g_v, upper=not lower)
        return NO_TANGENT, project_ab(band_of(band, g))

    return result, eig_banded_pullback


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
    y = spectrum.returned(not eigvals_only)
    d_ab = tangents[1]
    if is_zero(d_ab):
        return y, d_ab
    return y, spectrum.tangent(hermitian_matrix(band, d_ab, lower), not eigvals_only)


@rrule.register(sla.eig_banded)
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
) -> SelectedEigenpairs:
    """The eigenpairs that ``eigh_tridiagonal`` returns (``'sterf'``, which gives
    eigenvalues only, is replaced by the default driver)."""
    band, ab = _tridiagonal(d, e)
    h = hermitian_matrix(band, ab, True)
    kind = _select_kind(select)
    driver = "auto" if driver == "sterf" else driver
    options = {"select": select, "select_range": select_range, "tol": tol}
    plain = (d, e) if is_numpy(d, e) else (np.asarray(ignore_derivatives(x)) for x in (d, e))
    w, v = sla.eigh_tridiagonal(*plain, lapack_driver=driver, check_finite=False, **options)
    if not is_numpy(d, e):
        w, v = _dense_eigh(h, kind, select_range, v)
    return _spectrum(h, w, v, kind, select_range)


def _tridiagonal_cotangents(spectrum: SelectedEigenpairs, g_w: Any, g_v: Any) -> tuple[Any, Any]:
    """The cotangents of ``d`` and ``e`` from those of the eigenpairs."""
    xp = array_namespace(spectrum.v)
    v = spectrum.v
    if is_zero(g_v):
        return xp.matmul(v * v, g_w), 2 * xp.matmul(v[:-1, :] * v[1:, :], g_w)
    g = spectrum.cotangent(g_w, g_v, upper=False)
    return xp.linalg.diagonal(g), xp.linalg.diagonal(g, offset=-1)


def _tridiagonal_tangent(spectrum: SelectedEigenpairs, dd: Any, de: Any, vectors: bool) -> Any:
    xp = array_namespace(spectrum.v)
    n, dtype = spectrum.v.shape[0], spectrum.v.dtype
    dd = xp.zeros((n,), dtype=dtype) if is_zero(dd) else dd
    de = xp.zeros((n - 1,), dtype=dtype) if is_zero(de) else de
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

    y = spectrum.returned(not eigvals_only)

    def eigh_tridiagonal_pullback(dy):
        g_w, g_v = eigenpair_cotangents(dy, not eigvals_only, y, sla.eigh_tridiagonal)
        g_d, g_e = _tridiagonal_cotangents(spectrum, g_w, g_v)
        return NO_TANGENT, project_d(g_d), project_e(g_e)

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
    y = spectrum.returned(not eigvals_only)
    dd, de = tangents[1], tangents[2]
    if is_zero(dd) and is_zero(de):
        return y, ZERO_TANGENT
    return y, _tridiagonal_tangent(spectrum, dd, de, not eigvals_only)


@rrule.register(sla.eigh_tridiagonal)
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
def _eigvalsh_tridiagonal_rrule(
    d, e, select="a", select_range=None, check_finite=True, tol=0.0, lapack_driver="auto"
):
    return _tridiagonal_rule(d, e, True, select, select_range, tol, lapack_driver)


@frule.register(sla.eigvalsh_tridiagonal)
def _eigvalsh_tridiagonal_frule(
    tangents, d, e, select="a", select_range=None, check_finite=True, tol=0.0, lapack_driver="auto"
):
    return _tridiagonal_pushforward(tangents, d, e, True, select, select_range, tol, lapack_driver)
