"""Rules for ``scipy.linalg``'s matrix functions: expm, expm_frechet, logm, sqrtm, cosm,
sinm, tanm, coshm, sinhm, tanhm, fractional_matrix_power and signm.

The derivative of a primary matrix function ``f`` at ``A`` along ``E`` is its Fréchet
derivative ``L_f(A, E)``, read off ``f`` of a block matrix (Higham, *Functions of Matrices*,
thm. 3.6):

    f([[A, E], [0, A]]) = [[f(A), L_f(A, E)], [0, f(A)]].

Every function here has a power series with real coefficients (the principal logarithm,
square root and fractional power included), so ``L_f(A)`` has the adjoint
``L_f(A)^*(G) = L_f(A^H, G)``: the pullback is a Fréchet derivative at ``A^H``, by the same
block trick. ``expm`` of a single NumPy matrix uses Al-Mohy and Higham's algorithm
(``scipy.linalg.expm_frechet``) instead of the block matrix. ``expm_frechet`` itself is
differentiated by the block trick one level up: ``L(A, E)`` is a block of ``expm`` of
``X = [[A, E], [0, A]]``, so its derivative is a block of ``L_exp(X, dX)``.
``fractional_matrix_power(A, t)`` also has a tangent in ``t``: ``A^t logm(A)``.

``signm`` is not locally constant: its Fréchet derivative ``L(A, E)`` is nonzero for
  perturbations that move the spectral projectors, and is read off ``signm`` of the block
  matrix ``[[A, E], [0, A]]``; it exists where no eigenvalue is on the imaginary axis. Only
  its first derivative is available (SciPy's compiled iteration; ``disp=True`` only).

These rules call SciPy's matrix functions, on NumPy arrays. They call them as
``call(f, ...)`` (``chainrules.core.calls``), so on an engine's tracked values the engine
applies the function's own rule: pullbacks differentiate again (the Fréchet derivative of a
Fréchet derivative is a block of ``f`` of a matrix twice as large), to any order.

>>> import numpy as np
>>> import scipy.linalg
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(scipy.linalg.expm, np.zeros((2, 2)))
>>> pullback(np.eye(2))[1]
array([[1., 0.],
       [0., 1.]])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.linalg as sla

from ....core.calls import call, call_handler
from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.tangents import NO_TANGENT, ZERO_TANGENT, Tangent
from ....core.zeros import is_zero
from ...matrices import mH, output_fields

__all__ = ["frechet", "frechet_adjoint"]


def _block(a: Any, e: Any) -> np.ndarray:
    """``[[a, e], [0, a]]``, for stacks too."""
    dtype = np.result_type(a, e)
    top = np.concatenate((a, e), axis=-1).astype(dtype, copy=False)
    bottom = np.concatenate((np.zeros_like(a), a), axis=-1).astype(dtype, copy=False)
    return np.concatenate((top, bottom), axis=-2)


def frechet(f: Callable[[Any], Any], a: Any, e: Any) -> Any:
    """The Fréchet derivative ``L_f(a, e)`` of the primary matrix function ``f``.

    >>> frechet(sla.expm, np.zeros((1, 1)), np.ones((1, 1)))
    array([[1.]])
    """
    n = a.shape[-1]
    if f is sla.expm and a.ndim == 2 and not _is_traced(a, e):
        return sla.expm_frechet(a, e, compute_expm=False, check_finite=False)
    return call(f, _block(a, e))[..., :n, n:]


def _is_traced(*values: Any) -> bool:
    return any(call_handler(v) is not None for v in values)


def frechet_adjoint(f: Callable[[Any], Any], a: Any, g: Any) -> Any:
    """The adjoint of ``E -> L_f(a, E)`` applied to ``g``: ``L_f(a, g^H)^H``.

    This equals ``L_f(a^H, g)`` when ``f(conj z) = conj f(z)``, but not on a branch cut: the
    principal square root of a real matrix with negative eigenvalues is one case. Evaluating
    at ``a`` itself keeps the branch of the forward pass.

    >>> import numpy as np
    >>> a = np.array([[-2.0, 1.0], [0.5, -1.0]])
    >>> g = np.ones((2, 2))
    >>> np.allclose(frechet_adjoint(sla.expm, a, g), frechet(sla.expm, a.T, g))
    True
    """
    return mH(frechet(f, a, mH(g)))


def _register_matrix_function(f: Callable[[Any], Any]) -> None:
    """Both rules of a primary matrix function ``f(A)`` with real power-series coefficients."""

    def matrix_function_rrule(a: Any) -> Any:
        project_a = ProjectTo(a)
        y = call(f, a)

        def matrix_function_pullback(dy: Any) -> tuple:
            return NO_TANGENT, project_a(frechet_adjoint(f, a, dy))

        return y, matrix_function_pullback

    def matrix_function_frule(tangents: tuple, a: Any) -> Any:
        y = call(f, a)
        da = tangents[1]
        if is_zero(da):
            return y, da
        return y, ProjectTo(y)(frechet(f, a, da))

    rrule.register(f)(matrix_function_rrule)
    frule.register(f)(matrix_function_frule)


for _f in (sla.expm, sla.logm, sla.sqrtm, sla.cosm, sla.sinm, sla.tanm, sla.coshm, sla.sinhm):
    _register_matrix_function(_f)


_register_matrix_function(sla.tanhm)


# ---- fractional_matrix_power ----------------------------------------------------------------


def _power_of(t: Any) -> Callable[[Any], Any]:
    """``a -> a^t``, a Python function that engines trace into."""

    def power(a: Any) -> Any:
        return call(sla.fractional_matrix_power, a, t)

    return power


def _has_t_tangent(t: Any) -> bool:
    return not isinstance(t, int | np.integer)


@rrule.register(sla.fractional_matrix_power)
def _fractional_matrix_power_rrule(A, t):
    project_a, project_t = ProjectTo(A), ProjectTo(t)
    y = call(sla.fractional_matrix_power, A, t)
    power = _power_of(t)

    def fractional_matrix_power_pullback(dy):
        da = project_a(frechet_adjoint(power, A, dy))
        if not _has_t_tangent(t):
            return NO_TANGENT, da, NO_TANGENT
        dt = np.sum(np.real(np.conj(dy) * (y @ call(sla.logm, A))))
        return NO_TANGENT, da, project_t(dt)

    return y, fractional_matrix_power_pullback


@frule.register(sla.fractional_matrix_power)
def _fractional_matrix_power_frule(tangents, A, t):
    y = call(sla.fractional_matrix_power, A, t)
    da, dt = tangents[1], tangents[2]
    dy: Any = ZERO_TANGENT
    if not is_zero(da):
        dy = frechet(_power_of(t), A, da)
    if _has_t_tangent(t) and not is_zero(dt):
        dy = dy + (y @ call(sla.logm, A)) * dt
    return y, dy if is_zero(dy) else ProjectTo(y)(dy)


# ---- expm_frechet -------------------------------------------------------------------------


def _expm_frechet_value(A: Any, E: Any, method: Any, compute_expm: bool) -> Any:
    return call(
        sla.expm_frechet, A, E, method=method, compute_expm=compute_expm, check_finite=False
    )


@rrule.register(sla.expm_frechet)
def _expm_frechet_rrule(A, E, *, method=None, compute_expm=True, check_finite=True):
    project_a, project_e = ProjectTo(A), ProjectTo(E)
    n = A.shape[-1]
    result = _expm_frechet_value(A, E, method, compute_expm)
    x = _block(A, E)

    def expm_frechet_pullback(dy):
        if compute_expm:
            g_expm, g_frechet = output_fields(dy, ("expm", "frechet"), result, sla.expm_frechet)
        else:
            g_expm, g_frechet = ZERO_TANGENT, dy
        # The cotangent of expm(X) is [[g_expm, g_frechet], [0, 0]].
        zero = np.zeros(A.shape, dtype=np.result_type(A, E, 1.0))
        g_top = [zero if is_zero(g) else g for g in (g_expm, g_frechet)]
        g_x = np.concatenate(
            (np.concatenate(g_top, axis=-1), np.concatenate((zero, zero), axis=-1)), axis=-2
        )
        h = frechet(sla.expm, mH(x), g_x)
        da = h[..., :n, :n] + h[..., n:, n:]
        return NO_TANGENT, project_a(da), project_e(h[..., :n, n:])

    return result, expm_frechet_pullback


@frule.register(sla.expm_frechet)
def _expm_frechet_frule(tangents, A, E, *, method=None, compute_expm=True, check_finite=True):
    n = A.shape[-1]
    result = _expm_frechet_value(A, E, method, compute_expm)
    da, de = tangents[1], tangents[2]
    if is_zero(da) and is_zero(de):
        return result, ZERO_TANGENT
    da = np.zeros_like(A) if is_zero(da) else da
    de = np.zeros_like(E) if is_zero(de) else de
    h = frechet(sla.expm, _block(A, E), _block(da, de))
    d_frechet = ProjectTo(result[1] if compute_expm else result)(h[..., :n, n:])
    if not compute_expm:
        return result, d_frechet
    return result, Tangent(tuple, ProjectTo(result[0])(h[..., :n, :n]), d_frechet)


@rrule.register(sla.signm)
def _signm_rrule(A):
    project_a = ProjectTo(A)
    y = call(sla.signm, A)

    def signm_pullback(dy):
        return NO_TANGENT, project_a(frechet_adjoint(sla.signm, A, dy))

    return y, signm_pullback


@frule.register(sla.signm)
def _signm_frule(tangents, A):
    y = call(sla.signm, A)
    da = tangents[1]
    if is_zero(da):
        return y, da
    return y, ProjectTo(y)(frechet(sla.signm, A, da))
