"""Rules for ``np.linalg.det`` and ``np.linalg.slogdet``.

``det``'s derivative is the adjugate, ``d det(a) = tr(adj(a) da)``, so its pullback is
``adj(a)^H dy``. The adjugate (``chainrules.rules.matrices.adjugate``, shared with SciPy's
``det``) comes from the SVD for NumPy inputs, exact at singular matrices: at rank ``n - 1``
it is the nonzero rank-one adjugate, at rank ``n - 2`` or less zero, and never NaN. Other
array types (an engine's tracked values, differentiating the pullback again) use
``det(a) inv(a)`` where ``a`` has full rank, and the same SVD form where it does not.

``slogdet`` factorizes ``a`` once (LAPACK's LU, for NumPy inputs), reads the sign and the log
of the absolute determinant off the factors, and its pullback solves with ``a^H`` through
the same factors. With ``t = tr(a^{-1} da)``, ``d log|det a| = Re t`` and, for complex ``a``,
``d sign = sign * i Im t``; the pullback combines both cotangents into
``conj(c) a^{-H}`` with ``c = g_logabsdet + i Im(conj(g_sign) sign)``. The sign of a real
matrix is locally constant, so its cotangent is ignored.

>>> import numpy as np
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(np.linalg.det, np.array([[1.0, 2.0], [2.0, 4.0]]))
>>> y, pullback(1.0)[1]
(np.float64(0.0), array([[ 4., -2.],
       [-2.,  1.]]))
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ....core.dtypes import is_complex
from ....core.namespace import array_namespace
from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.tangents import NO_TANGENT, ZERO_TANGENT
from ....core.zeros import is_zero
from ...matrices import (
    Factored,
    det_pullback_of,
    det_pushforward_of,
    eye_like,
    matrix_rule,
    output_fields,
    output_tangent,
    trailing,
)

__all__: list[str] = []


# ---- det --------------------------------------------------------------------------------


def _determinant(a: Any) -> tuple[Any, tuple]:
    y = array_namespace(a).linalg.det(a)
    return y, (a, y)


matrix_rule(
    np.linalg.det, primal=_determinant, pullback=det_pullback_of, pushforward=det_pushforward_of
)


# ---- slogdet ------------------------------------------------------------------------------

_SLOGDET = ("sign", "logabsdet")


_SlogdetResult = type(np.linalg.slogdet(np.eye(1)))


def _slogdet_forward(a: Any) -> tuple[Any, Factored]:
    factored = Factored(a)
    if factored.lu is None:
        return array_namespace(a).linalg.slogdet(a), factored
    with np.errstate(divide="ignore", invalid="ignore"):
        sign, logabsdet = factored.logdet()
    dtype = factored.lu[0].dtype
    sign = np.where(np.isfinite(logabsdet), sign, 0).astype(dtype)
    logabsdet = logabsdet.astype(np.zeros((), dtype).real.dtype)
    return _SlogdetResult(sign[()], logabsdet[()]), factored


@rrule.register(np.linalg.slogdet)
def _slogdet_rrule(a):
    xp = array_namespace(a)
    project_a = ProjectTo(a)
    result, factored = _slogdet_forward(a)
    complex_a = is_complex(a)

    def slogdet_pullback(dy):
        g_sign, g_log = output_fields(dy, _SLOGDET)
        if complex_a and not is_zero(g_sign):
            c = xp.imag(xp.conj(g_sign) * result.sign) * 1j
            if not is_zero(g_log):
                c = c + g_log
        elif is_zero(g_log):
            return NO_TANGENT, project_a(ZERO_TANGENT)
        else:
            c = g_log
        inv_h = factored.solve(xp.broadcast_to(eye_like(a), a.shape), adjoint=True)
        return NO_TANGENT, project_a(trailing(xp.conj(c) if complex_a else c) * inv_h)

    return result, slogdet_pullback


@frule.register(np.linalg.slogdet)
def _slogdet_frule(tangents, a):
    xp = array_namespace(a)
    result, factored = _slogdet_forward(a)
    da = tangents[1]
    if is_zero(da):
        return result, da
    t = xp.linalg.trace(factored.solve(da))
    d_log = ProjectTo(result.logabsdet)(xp.real(t) if is_complex(a) else t)
    d_sign: Any = ZERO_TANGENT
    if is_complex(a):
        d_sign = result.sign * xp.imag(t) * 1j
    return result, output_tangent(type(result), _SLOGDET, (d_sign, d_log))
