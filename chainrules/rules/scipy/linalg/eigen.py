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

from ....core.define import ignore_derivatives
from ....core.dtypes import is_complex
from ....core.namespace import array_namespace, is_numpy
from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.tangents import NO_TANGENT, ZERO_TANGENT, Tangent
from ....core.thunks import unthunk
from ....core.zeros import is_zero
from ...matrices import as_returned, lower_hermitian, output_fields, tangent_like
from ...numpy.linalg.spectral import (
    eigenvalue_pushforward_of,
    eigh_pullback_of,
    eigh_pushforward_of,
)

__all__ = ["SelectedEigenpairs", "eigenpair_cotangents", "eigenvalue_window", "selection_start"]


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
    # The Hermitian matrix SciPy reads from one triangle: JAX's eigh would average a with
    # a^H instead, giving other values (and derivatives) wherever a is not Hermitian.
    w, v = array_namespace(a).linalg.eigh(lower_hermitian(a, upper=not lower))
    if by_value is not None:
        by_index = eigenvalue_window(w, by_value)
    if by_index is not None:
        first, last = by_index
        w, v = w[..., first : last + 1], v[..., :, first : last + 1]
    return w if eigvals_only else (w, v)


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
    # an index chosen by comparisons: a plain integer, no derivative flows through it
    nearest = ignore_derivatives(xp.argmin(xp.abs(w_all - w[..., :1]), axis=-1))
    return int(xp.reshape(nearest, (-1,))[0])


def _pad_columns(g: Any, before: int, after: int) -> Any:
    """``g`` (vectors, or matrices by columns) with zero entries before and after."""
    xp = array_namespace(g)
    rows = tuple(g.shape[:-1])
    return xp.concat(
        [xp.zeros((*rows, before), dtype=g.dtype), g, xp.zeros((*rows, after), dtype=g.dtype)],
        axis=-1,
    )


def eigenpair_cotangents(
    dy: Any, vectors: bool, outputs: Any = None, f: Any = None
) -> tuple[Any, Any]:
    """``(g_w, g_v)``: the cotangents of the eigenvalues and eigenvectors in that of ``w``
    (``(w, v)`` with ``vectors``), checked against the ``outputs`` of ``f`` when given."""
    return output_fields(dy, ("w", "v"), outputs, f) if vectors else (dy, ZERO_TANGENT)


class SelectedEigenpairs:
    """The eigenpairs ``(w, v)`` that a Hermitian eigensolver returned for ``h`` (stacks
    allowed; ``uplo``: the triangle it reads): all of them, or with ``subset`` a run of
    consecutive ones starting at ``first`` (``None``: to be found among all of them).

    Eigenvalue derivatives need only the selected pairs; eigenvector derivatives couple to
    every pair, so for a subset they complete the decomposition (``complete``).
    """

    __slots__ = ("first", "h", "subset", "uplo", "v", "w")

    def __init__(
        self, h: Any, w: Any, v: Any, subset: bool, first: int | None, uplo: str = "L"
    ) -> None:
        self.h, self.w, self.v, self.subset, self.first, self.uplo = h, w, v, subset, first, uplo

    def returned(self, vectors: bool) -> Any:
        """``w``, or ``(w, v)`` with ``vectors``, as the solver returns them."""
        return (self.w, self.v) if vectors else self.w

    def complete(self) -> tuple[Any, Any, int]:
        """``(w_all, v_all, first)``: every eigenpair, the returned vectors in their place."""
        if not self.subset:
            return self.w, self.v, 0
        xp = array_namespace(self.h)
        w_all, v_all = xp.linalg.eigh(self.h, UPLO=self.uplo)
        first = self.first if self.first is not None else selection_start(w_all, self.w)
        stop = first + self.w.shape[-1]
        # The returned vectors (the signs the cotangents refer to) replace the recomputed ones.
        v_all = xp.concat((v_all[..., :first], self.v, v_all[..., stop:]), axis=-1)
        return w_all, v_all, first

    def cotangent(self, g_w: Any, g_v: Any, upper: bool) -> Any:
        """The cotangent of the triangle read, from those of the returned eigenpairs."""
        if is_zero(g_v) or not self.subset:
            return eigh_pullback_of(self.w, self.v, g_w, g_v, upper)
        w_all, v_all, first = self.complete()
        after = w_all.shape[-1] - first - self.w.shape[-1]
        g_w_all = g_w if is_zero(g_w) else _pad_columns(g_w, first, after)
        return eigh_pullback_of(w_all, v_all, g_w_all, _pad_columns(g_v, first, after), upper)

    def tangent(self, dh: Any, vectors: bool) -> Any:
        """``dw`` (and ``(dw, dv)`` with ``vectors``) along the Hermitian tangent ``dh``."""
        if not vectors:
            return eigenvalue_pushforward_of(self.v, dh)
        w_all, v_all, _ = self.complete()
        return Tangent(tuple, *eigh_pushforward_of(self.w, self.v, dh, w_all, v_all))


def _eigh_pairs(
    a: Any, b: Any, lower: bool, by_index: Any, by_value: Any, driver: Any
) -> SelectedEigenpairs:
    """The eigenpairs of the standard problem; the generalized one (``b`` given) has no rule."""
    if b is not None:
        raise ValueError("scipy.linalg.eigh with b (the generalized problem) has no rule")
    w, v = _eigh(a, lower, False, by_index, by_value, driver)
    subset = by_index is not None or by_value is not None
    first = None if by_index is None else int(by_index[0])
    return SelectedEigenpairs(a, w, v, subset, first, uplo="L" if lower else "U")


@rrule.register(sla.eigh)
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
    project_a = ProjectTo(a)
    pairs = _eigh_pairs(a, b, lower, subset_by_index, subset_by_value, driver)

    result = pairs.returned(not eigvals_only)
    result = as_returned(result, a) if not eigvals_only else result

    def eigh_pullback(dy):
        g_w, g_v = eigenpair_cotangents(dy, not eigvals_only, result, sla.eigh)
        return NO_TANGENT, project_a(pairs.cotangent(g_w, g_v, upper=not lower))

    return result, eigh_pullback


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
    pairs = _eigh_pairs(a, b, lower, subset_by_index, subset_by_value, driver)
    y = pairs.returned(not eigvals_only)
    y = as_returned(y, a) if not eigvals_only else y
    da = tangents[1]
    if is_zero(da):
        return y, da
    dy = pairs.tangent(lower_hermitian(da, upper=not lower), not eigvals_only)
    return y, dy if eigvals_only else tangent_like(y, *dy)


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
def _eig_rrule(a, *, right=True, check_finite=True):
    (w, v), np_pullback = rrule(np.linalg.eig, a)

    def eig_pullback(dy):
        g_w, g_v = output_fields(dy, ("w", "v"), (w, v), sla.eig) if right else (dy, ZERO_TANGENT)
        return np_pullback((_like(g_w, w), g_v))

    return (as_returned((_as_complex(w), v), a) if right else _as_complex(w)), eig_pullback


@frule.register(sla.eig)
def _eig_frule(tangents, a, *, right=True, check_finite=True):
    (w, v), d_np = frule(tangents, np.linalg.eig, a)
    dw, dv = output_fields(d_np, ("eigenvalues", "eigenvectors"))
    if not right:
        return _as_complex(w), _as_complex(dw)
    y = as_returned((_as_complex(w), v), a)
    return y, tangent_like(y, _as_complex(dw), dv)


@rrule.register(sla.eigvals)
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
def _eigvalsh_rrule(a, *, lower=True, check_finite=True):
    return rrule(np.linalg.eigvalsh, a, UPLO="L" if lower else "U")


@frule.register(sla.eigvalsh)
def _eigvalsh_frule(tangents, a, *, lower=True, check_finite=True):
    return frule(tangents, np.linalg.eigvalsh, a, UPLO="L" if lower else "U")
