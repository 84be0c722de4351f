"""Rules for ``scipy.linalg``'s dense eigenvalue problems: eigh, eig, eigvals, eigvalsh.

They share their derivatives with the ``np.linalg`` rules (``rules.numpy.linalg.spectral``),
whose docstrings state the conventions: masked couplings at repeated eigenvalues, the triangle
that ``eigh`` reads (the lower one unless ``lower=False``), the eigenvector normalization.

* ``eigh`` takes no ``b`` (the generalized problem has no rule). ``subset_by_index`` and
  ``subset_by_value`` work: eigenvalue-only cotangents need only the selected eigenvectors,
  eigenvector cotangents couple to all eigenpairs, so the pullback then computes the full
  decomposition. SciPy's default driver (``'evr'``) may flip an eigenvector's sign under a
  tiny perturbation: the rules differentiate the branch through the vectors returned, which
  is what a sign-free loss needs; ``driver='evd'`` keeps signs.
* ``eig`` and ``eigvals`` always return complex eigenvalues (NumPy returns real ones when all
  are real); when NumPy's are real the cotangent's imaginary part has no effect and is dropped.
  Only the right eigenvectors of the standard problem (``b=None``, ``left=False``) have rules.
* ``eigvalsh`` reads the triangle named by ``lower`` (standard problem, whole spectrum).

For array types other than NumPy's (an engine's tracked values), the rules of eigh (without
subsets), eig, eigvals and eigvalsh compute with ``numpy.linalg`` through the array namespace.

>>> import numpy as np
>>> import scipy.linalg
>>> from chainrules.core.registry import rrule
>>> w, pullback = rrule(scipy.linalg.eigvals, np.diag([1.0, 2.0]))
>>> pullback(np.array([1.0 + 0j, 0.0]))[1]
array([[1., 0.],
       [0., 0.]])
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg as sla

from ....core.arguments import positional_cotangents
from ....core.dtypes import is_complex
from ....core.namespace import array_namespace, is_numpy
from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.tangents import NO_TANGENT, ZERO_TANGENT, Tangent
from ....core.thunks import unthunk
from ....core.zeros import is_zero
from ...matrices import lower_hermitian, mH, output_fields, safe_reciprocal
from ...numpy.linalg.spectral import (
    eigh_pullback_of,
    gap_tolerance,
)

__all__ = ["eigenvalue_window", "selection_start"]


# ---- eigh ---------------------------------------------------------------------------------


def _eigh(a: Any, lower: bool, eigvals_only: bool, by_index: Any, by_value: Any, driver: Any):
    if is_numpy(a):
        return sla.eigh(
            a,
            lower=lower,
            eigvals_only=eigvals_only,
            check_finite=False,
            subset_by_index=by_index,
            subset_by_value=by_value,
            driver=driver,
        )
    w, v = array_namespace(a).linalg.eigh(a, UPLO="L" if lower else "U")
    if by_value is not None:
        by_index = eigenvalue_window(w, by_value)
    if by_index is not None:
        first, last = by_index
        w, v = w[..., first : last + 1], v[..., :, first : last + 1]
    return w if eigvals_only else (w, v)


def _standard_eigh(
    a: Any, b: Any, lower: bool, by_index: Any, by_value: Any, driver: Any
) -> tuple[Any, Any]:
    """The eigenpairs of the standard problem; the generalized one (``b`` given) has no rule."""
    if b is not None:
        raise ValueError("scipy.linalg.eigh with b (the generalized problem) has no rule")
    return _eigh(a, lower, False, by_index, by_value, driver)


def eigenvalue_window(w: Any, by_value: Any) -> tuple[int, int]:
    """``subset_by_index`` for SciPy's window ``(low, high]`` of the eigenvalues ``w``.

    Comparisons give plain booleans, even on tracked values; the window must select the
    same, non-empty range in every matrix of a stack.
    """
    low, high = by_value
    inside = np.reshape((w > low) & (w <= high), (-1, w.shape[-1]))
    if not np.all(inside == inside[:1]) or not np.any(inside):
        raise ValueError("scipy.linalg.eigh(subset_by_value=...): uneven or empty selection")
    selected = np.flatnonzero(inside[0])
    return int(selected[0]), int(selected[-1])


def selection_start(w_all: Any, w: Any) -> int:
    """Where the selected (consecutive, ascending) eigenvalues start among all of them."""
    xp = array_namespace(w_all, w)
    nearest = xp.argmin(xp.abs(w_all - w[..., :1]), axis=-1)
    return int(xp.reshape(nearest, (-1,))[0])


@rrule.register(sla.eigh)
@positional_cotangents
def _eigh_rrule(
    a,
    b=None,
    *,
    lower=True,
    eigvals_only=False,
    check_finite=True,
    subset_by_index=None,
    subset_by_value=None,
    driver=None,
):
    xp = array_namespace(a)
    project_a = ProjectTo(a)
    subset = subset_by_index is not None or subset_by_value is not None
    w, v = _standard_eigh(a, b, lower, subset_by_index, subset_by_value, driver)

    def eigh_pullback(dy):
        if eigvals_only:
            g_w, g_v = dy, ZERO_TANGENT
        else:
            g_w, g_v = output_fields(dy, ("w", "v"))
        if is_zero(g_v) or not subset:
            return NO_TANGENT, project_a(eigh_pullback_of(w, v, g_w, g_v, not lower))
        # Eigenvector cotangents couple to every eigenpair: complete the decomposition.
        w_all, v_all = xp.linalg.eigh(a, UPLO="L" if lower else "U")
        first = subset_by_index[0] if subset_by_index is not None else selection_start(w_all, w)
        count = w.shape[-1]
        n = w_all.shape[-1]
        # The selected eigenvectors are the ones returned (SciPy's signs, which the
        # cotangents refer to), not NumPy's.
        v_all = xp.concat((v_all[..., :first], v, v_all[..., first + count :]), axis=-1)
        pad = ((0, 0),) * (w.ndim - 1)
        g_w_all = ZERO_TANGENT
        if not is_zero(g_w):
            g_w_all = np.pad(g_w, (*pad, (first, n - first - count)))
        g_v_all = np.pad(g_v, (*pad, (0, 0), (first, n - first - count)))
        return NO_TANGENT, project_a(eigh_pullback_of(w_all, v_all, g_w_all, g_v_all, not lower))

    return (w if eigvals_only else (w, v)), eigh_pullback


@frule.register(sla.eigh)
def _eigh_frule(
    tangents,
    a,
    b=None,
    *,
    lower=True,
    eigvals_only=False,
    check_finite=True,
    subset_by_index=None,
    subset_by_value=None,
    driver=None,
):
    xp = array_namespace(a)
    w, v = _standard_eigh(a, b, lower, subset_by_index, subset_by_value, driver)
    y = w if eigvals_only else (w, v)
    da = tangents[1]
    if is_zero(da):
        return y, da
    dh = lower_hermitian(da, upper=not lower)
    dw = xp.real(xp.linalg.diagonal(xp.matmul(xp.matmul(mH(v), dh), v)))
    if eigvals_only:
        return y, dw
    w_all, v_all = xp.linalg.eigh(a, UPLO="L" if lower else "U")
    gaps = w[..., None, :] - w_all[..., :, None]  # w_j - w_all_i
    coupling = safe_reciprocal(gaps, gap_tolerance(w_all))
    k = xp.matmul(xp.matmul(mH(v_all), dh), v)
    dv = xp.matmul(v_all, xp.astype(coupling, v.dtype) * k)
    return y, Tangent(tuple, dw, dv)


def _as_complex(x: Any) -> Any:
    """``x`` as complex numbers of its precision (SciPy's eigenvalue dtype)."""
    if is_zero(x) or is_complex(x):
        return x
    xp = array_namespace(x)
    return xp.astype(x, xp.result_type(x.dtype, xp.complex64))


def _like(g: Any, w: Any) -> Any:
    """The cotangent ``g`` of SciPy's complex eigenvalues, as one of NumPy's ``w``."""
    if is_zero(g) or is_complex(w) or not is_complex(g):
        return g
    return array_namespace(g).real(g)


# ---- eig, eigvals -----------------------------------------------------------------------


@rrule.register(sla.eig)
@positional_cotangents
def _eig_rrule(a, *, right=True, check_finite=True):
    (w, v), np_pullback = rrule(np.linalg.eig, a)

    def eig_pullback(dy):
        g_w, g_v = output_fields(dy, ("w", "v")) if right else (dy, ZERO_TANGENT)
        return np_pullback((_like(g_w, w), g_v))

    return ((_as_complex(w), v) if right else _as_complex(w)), eig_pullback


@frule.register(sla.eig)
def _eig_frule(tangents, a, *, right=True, check_finite=True):
    (w, v), d_np = frule(tangents, np.linalg.eig, a)
    dw, dv = output_fields(d_np, ("eigenvalues", "eigenvectors"))
    if not right:
        return _as_complex(w), _as_complex(dw)
    return (_as_complex(w), v), Tangent(tuple, _as_complex(dw), dv)


@rrule.register(sla.eigvals)
@positional_cotangents
def _eigvals_rrule(a, *, check_finite=True):
    w, np_pullback = rrule(np.linalg.eigvals, a)

    def eigvals_pullback(dw):
        return np_pullback(_like(dw, w))

    return _as_complex(w), eigvals_pullback


@frule.register(sla.eigvals)
def _eigvals_frule(tangents, a, *, check_finite=True):
    w, dw = frule(tangents, np.linalg.eigvals, a)
    return _as_complex(w), _as_complex(unthunk(dw))


# ---- eigvalsh, svdvals --------------------------------------------------------------------


@rrule.register(sla.eigvalsh)
@positional_cotangents
def _eigvalsh_rrule(a, *, lower=True, check_finite=True):
    return rrule(np.linalg.eigvalsh, a, UPLO="L" if lower else "U")


@frule.register(sla.eigvalsh)
def _eigvalsh_frule(tangents, a, *, lower=True, check_finite=True):
    return frule(tangents, np.linalg.eigvalsh, a, UPLO="L" if lower else "U")
