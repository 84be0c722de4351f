"""The gaps of a spectrum: when two singular values or eigenvalues count as equal, the masked
couplings between them, and the second derivatives that ties make unavailable.

>>> import numpy as np
>>> minus, plus = svd_couplings(np.array([2.0, 2.0, 1.0]))
>>> minus[0, 1], plus[0, 1], minus[0, 2]
(np.float64(0.0), np.float64(0.25), np.float64(-1.0))
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ....core.calls import call_handler
from ....core.define import ignore_derivatives
from ....core.namespace import array_namespace
from ....core.zeros import is_zero
from ...matrices import safe_reciprocal, trailing

__all__ = ["differences", "gap_tolerance", "require_simple_spectrum", "svd_couplings"]

_GAP_ULPS = 256


def gap_tolerance(values: Any, axes: int = 2) -> Any:
    """The gap below which two singular values or eigenvalues count as equal, with ``axes``
    trailing axes of length one (2 to compare with their differences, 1 with themselves)."""
    xp = array_namespace(values)
    eps = float(xp.finfo(values.dtype).eps)
    scale = xp.max(xp.abs(values), axis=-1) if values.shape[-1] else xp.zeros(values.shape[:-1])
    return trailing(_GAP_ULPS * eps * scale * values.shape[-1] + np.finfo(np.float64).tiny, axes)


def require_simple_spectrum(kind: str, values: Any, g: Any, squared: bool = False) -> None:
    """Raise where a second derivative would come out wrong: ``g``, the cotangent of the
    singular values or eigenvalues ``values``, is an engine's tracked value (it depends on
    them: a pullback being differentiated) while two of ``values`` are equal (their squares,
    with ``squared``, which includes two null singular values).

    The Hessian of ``sum(f(values))`` there has cross terms ``f''`` between the equal values,
    the limits of the divided differences ``(g_i - g_j) / (s_i - s_j)`` of the cotangent; the
    rules see ``g`` but not ``f``, and the masked couplings would give zero for them, silently
    (a nuclear norm, whose ``g`` is constant, has none of them and never gets here).
    """
    if is_zero(g) or call_handler(g) is None or values.shape[-1] < 2:
        return
    plain = np.asarray(ignore_derivatives(values))
    plain = plain * plain if squared else plain
    gaps = np.abs(plain[..., None, :] - plain[..., :, None])
    n = plain.shape[-1]
    if np.any((gaps <= np.asarray(gap_tolerance(plain))) & ~np.eye(n, dtype=bool)):
        noun = "singular values" if kind == "svd" else "eigenvalues"
        raise ValueError(
            f"second derivative through the {kind} of argument a at repeated {noun}: it "
            f"depends on the loss beyond its gradient, which the rules cannot see; perturb "
            f"a off the tie, or differentiate a closed form of the loss "
            f"(np.sum(a * a) for the squared singular values)"
        )


def differences(values: Any) -> Any:
    """``values[j] - values[i]`` at ``[..., i, j]``."""
    return values[..., None, :] - values[..., :, None]


def svd_couplings(s: Any) -> tuple[Any, Any]:
    """``1 / (s_j - s_i)`` and ``1 / (s_j + s_i)`` at ``[..., i, j]``, zero on the diagonal
    and masked where their denominators vanish.

    The singular vectors couple through ``1 / (s_j^2 - s_i^2)``, which is their sum over two;
    split so, only the first part, the one that a tie ``s_i = s_j`` leaves undetermined, is
    masked there. Masking the whole would drop the second, finite part at a tie: the
    derivative of the polar factor ``U V^H`` of ``I`` would come out zero.
    """
    xp = array_namespace(s)
    tolerance = gap_tolerance(s)
    off_diagonal = 1 - xp.eye(s.shape[-1], dtype=s.dtype)
    sums = s[..., None, :] + s[..., :, None]
    return (
        safe_reciprocal(differences(s), tolerance),
        safe_reciprocal(sums, tolerance) * off_diagonal,
    )
